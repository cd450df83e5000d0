"""Supply: the rule system of a state determines it (``state.rules.determine_supply(state)``).

The engine core owns the report's schema (:mod:`normandy_lab.engine.report`) and the searches
(:mod:`normandy_lab.engine.lines`, :mod:`normandy_lab.engine.search`); each game says what a line is, how far
it may run and what it reaches: The Battle for Normandy's rules are in :mod:`normandy_lab.rules.bfn.supply`.
"""

from __future__ import annotations

from normandy_lab.engine.report import SupplyDetermination, SupplyReport, UnitSupply
from normandy_lab.engine.state import GameState


def supply(state: GameState) -> SupplyReport:
    """Determine the supply of every unit of a state, with the reasons, under the state's rule system.

    Returns
    -------
    SupplyReport
        ``report[unit_id]`` gives a :class:`UnitSupply`.
    """
    report: SupplyReport = state.rules.determine_supply(state)  # the registry's rules are typed Any
    return report


__all__ = ["SupplyDetermination", "SupplyReport", "UnitSupply", "supply"]
