"""Supply: the rule system of a state determines it (``state.rules.determine_supply(state)``).

The engine core owns the report's schema (:mod:`normandy_lab.engine.report`) and the searches
(:mod:`normandy_lab.engine.lines`, :mod:`normandy_lab.engine.search`); each game says what a line is, how far
it may run and what it reaches: The Battle for Normandy's rules are in :mod:`normandy_lab.rules.bfn.supply`.

The reports of the last few states a session showed are kept (:mod:`normandy_lab.engine.recent`): an undo
shows a state determined a moment ago, and a move reads the supply of the state the explorer has just
drawn (issue 33, section 4).  Any other state is determined at every call.
"""

from __future__ import annotations

from normandy_lab.engine.recent import Recent
from normandy_lab.engine.report import SupplyDetermination, SupplyReport, UnitSupply
from normandy_lab.engine.state import GameState

#: How many states' reports :func:`supply` keeps: an edit and its undo, a weather change and back, and the
#: state a comparison sets beside the one shown.
KEPT = 6
_REPORTS: Recent[SupplyReport] = Recent(KEPT)


def supply(state: GameState) -> SupplyReport:
    """Determine the supply of every unit of a state, with the reasons, under the state's rule system.

    A state a session shows (marked by :func:`normandy_lab.engine.recent.keep_for`), asked again under the
    same rule system, gets the same report object while it is among the last :data:`KEPT` asked about (a
    state never changes, and a report's readers never write to it).  Any other state, even an equal one,
    is determined afresh; so is a state whose game has been registered again since.

    Returns
    -------
    SupplyReport
        ``report[unit_id]`` gives a :class:`UnitSupply`.
    """

    def determine() -> SupplyReport:
        report: SupplyReport = state.rules.determine_supply(state)  # the registry's rules are typed Any
        return report

    return _REPORTS.get(state, determine)


def forget_reports() -> None:
    """Drop every kept report (a benchmark that times each :func:`supply` call as a determination)."""
    _REPORTS.clear()


__all__ = ["KEPT", "SupplyDetermination", "SupplyReport", "UnitSupply", "forget_reports", "supply"]
