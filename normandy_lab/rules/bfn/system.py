"""The Battle for Normandy as a rule system: its data (:mod:`.data`) and the verdicts only it can give."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from normandy_lab.rules.base import RuleSet

if TYPE_CHECKING:
    from normandy_lab.engine.report import SupplyReport
    from normandy_lab.engine.state import GameState


@dataclass(frozen=True, eq=False)
class BfnRules(RuleSet):
    """The Battle for Normandy's rules: the data of :class:`RuleSet` and BfN's own determinations.

    A variant made with :func:`dataclasses.replace` is a ``BfnRules`` too, and
    determines supply with its own numbers.
    """

    def scenario_markers(self, data: Any, path: str, grid: Any) -> dict[str, Any]:
        """Read BfN's section of a scenario: beachheads, supply cities, CSPs, pathfinders, Mulberries, air."""
        from normandy_lab.rules.bfn.scenario import scenario_markers

        return scenario_markers(self, data, path, grid)

    def determine_supply(self, state: GameState) -> SupplyReport:
        """Determine General and Combat Supply and isolation with the reasons (7.2-7.6, 17.1, 20.3)."""
        from normandy_lab.rules.bfn.supply import determine_supply

        return determine_supply(state)
