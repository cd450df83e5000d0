"""Supply: the rule system of a state determines it (``state.rules.determine_supply(state)``).

The engine core owns the report's schema (:mod:`normandy_lab.engine.report`) and the searches
(:mod:`normandy_lab.engine.lines`, :mod:`normandy_lab.engine.search`); each game says what a line is, how far
it may run and what it reaches: The Battle for Normandy's rules are in :mod:`normandy_lab.rules.bfn.supply`.

The reports of the last few states a session showed are kept (:mod:`normandy_lab.engine.recent`): an undo
shows a state determined a moment ago, and a move reads the supply of the state the explorer has just
drawn (issue 33, section 4).  Any other state is determined at every call.

A game whose determination reads only part of a state (``RuleSet.supply_ignores``: BfN's never reads the
phase) shares one report between the shown states that differ in the fields it ignores: a step to the next
phase, which moves no unit, shows the same verdicts and reasons without working them out again (a class
kernel's step in a Storm explained its ~200 units out of supply anew, issue 33, section 1).
"""

from __future__ import annotations

import dataclasses

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
        ignored = state.rules.supply_ignores
        if ignored:
            twin = _REPORTS.like(state, lambda kept: _same_but(kept, state, ignored))
            if twin is not None:
                # The same verdicts and reasons (its reports are shared: a reason worked out for one is
                # worked out for both), told of this state.
                return dataclasses.replace(twin, state=state)
        report: SupplyReport = state.rules.determine_supply(state)  # the registry's rules are typed Any
        return report

    return _REPORTS.get(state, determine)


def _same_but(a: GameState, b: GameState, ignored: frozenset[str]) -> bool:
    """Tell whether two states agree on every field but ``ignored`` (their units, weather, markers...)."""
    return all(
        getattr(a, f.name) == getattr(b, f.name) for f in dataclasses.fields(a) if f.name not in ignored
    )


def forget_reports() -> None:
    """Drop every kept report (a benchmark that times each :func:`supply` call as a determination)."""
    _REPORTS.clear()


__all__ = ["KEPT", "SupplyDetermination", "SupplyReport", "UnitSupply", "forget_reports", "supply"]
