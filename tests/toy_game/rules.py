"""The toy game's rules, written only against the plug-in API (``normandy_lab.rules.api``).

Toy rule 1: the board (``map.py``).  Toy rule 2: the terrain words; terrain costs nothing here (the toy has
no movement of its own: one hex a move point, the contract's default).  Toy rule 3: every unit but an HQ
exerts a zone of control into the six hexes round it.  Toy rule 4: a unit is in supply when a line of at
most ``range_hexes`` hexes (half of it, rounded down, in a Storm) joins it to a friendly HQ; an HQ is
its own source.  A line is legal where the core says one is (no enemy unit, no enemy zone of control a
friendly unit does not negate, no interdicted hex, no sea): :func:`~normandy_lab.rules.api.blocked_mask`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from normandy_lab.rules.api import (
    GameState,
    Phase,
    RuleSet,
    Situation,
    SupplyReport,
    SupplyState,
    Unit,
    UnitSupply,
    blocked_mask,
    grid,
    hq_names_by_hex,
)

KEY = "toy"
SIDES = ("allied", "german")
CUT_OFF, OUT_OF_RANGE = "cut_off", "out_of_range"  # the report's codes (engine.reasons)

TURNS = ("Day",)
SEQUENCE = {
    "Day": (
        Phase("Allied Movement", "Day", "allied", "movement", "toy 5"),
        Phase("German Movement", "Day", "german", "movement", "toy 5"),
        Phase("End of Day", "Day", None, "end_of_day", "toy 5"),
    )
}
WEATHER_EFFECTS = {"Fair": {}, "Storm": {"supply_halved": True}}
RULE_NOTES = {
    "toy 1": "The board: 10 by 10 hexes of 2 km round Bayeux.",
    "toy 3": "Every unit but an HQ exerts a zone of control.",
    "toy 4": "In supply within 4 hexes of a friendly HQ (2 in a Storm), along a legal line.",
    "toy 5": "A day is one turn: Allied, then German movement.",
}


@dataclass(frozen=True, eq=False)
class ToyGameRules(RuleSet):
    """The toy's rules: its own zones of control and supply, the contract's defaults for the rest."""

    def exerts_zoc(self, unit: Unit) -> bool:
        """Toy rule 3: an HQ exerts no zone of control; every other unit does."""
        return unit.hq is None

    def determine_supply(self, state: GameState) -> SupplyReport:
        """Toy rule 4: each unit's line to the nearest friendly HQ, by hexes, within the range."""
        situation = Situation.of(state)
        full = int(self.supply["range_hexes"])
        limit = full // 2 if self.weather_effects[state.weather].get("supply_halved") else full
        rows: dict[str, UnitSupply] = {}
        nets: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for side in SIDES:
            dist, pred = nets[side] = _search(state, side, situation, _hq_hexes(state, side, situation))
            for unit in state.units_of(side):
                rows[unit.id] = _row(state, unit, situation.position[unit.id], dist, pred, limit)
        report = SupplyReport(state=state, units=rows, sources={}, halved=limit < full)
        report.determination = _ToyRanges(state, situation, limit)
        return report


def _hq_hexes(state: GameState, side: str, situation: Situation) -> list[int]:
    return sorted({situation.position[u.id] for u in state.units_of(side) if u.hq and u.status == "active"})


def _search(
    state: GameState, side: str, situation: Situation, roots: list[int]
) -> tuple[np.ndarray, np.ndarray]:
    """Breadth-first search from ``roots`` over the hexes a line of ``side`` may enter (toy rule 4)."""
    g = grid(state.system)
    blocked = blocked_mask(state, side, situation)
    dist = np.full(len(g), np.inf)
    pred = np.full(len(g), -1, dtype=np.int64)
    queue = deque(r for r in roots if not blocked[r])
    for r in queue:
        dist[r] = 0
    ids = g.id_array
    while queue:
        here = queue.popleft()
        for hex_id in g.neighbors(str(ids[here])):
            there = g.index_of[hex_id]
            if not blocked[there] and dist[there] == np.inf:
                dist[there], pred[there] = dist[here] + 1, here
                queue.append(there)
    return dist, pred


def _row(state: GameState, unit: Unit, at: int, dist: np.ndarray, pred: np.ndarray, limit: int) -> UnitSupply:
    g = grid(state.system)
    row = UnitSupply(unit_id=unit.id, side=unit.side, hex=unit.hex)
    row.limit = f"{limit} hexes (toy 4)"
    row.length_hexes = float(dist[at])
    row.general = row.combat = bool(dist[at] <= limit)
    row.isolated = bool(dist[at] == np.inf)
    if row.general:
        path = [at]
        while pred[path[-1]] >= 0:
            path.append(int(pred[path[-1]]))
        row.path = [str(h) for h in g.id_array[path]]
        row.traced_kind, row.traced_id, row.traced_to = "HQ", row.path[-1], f"HQ at {row.path[-1]}"
    elif row.isolated:
        row.code, row.rule, row.reason = CUT_OFF, "toy 4", "no legal line to a friendly HQ (toy 4)"
    else:
        row.code, row.rule = OUT_OF_RANGE, "toy 4"
        row.reason = f"the nearest friendly HQ is {int(dist[at])} hexes away; the limit is {limit} (toy 4)"
    return row


class _ToyRanges:
    """The hexes within the limit of each HQ, for the views (``SupplyReport.supply_range``)."""

    def __init__(self, state: GameState, situation: Situation, limit: int) -> None:
        self.state, self.situation, self.limit = state, situation, limit

    def supply_range(self, hq_or_source: str) -> set[str]:
        unit = self.state.unit(hq_or_source)
        dist, _ = _search(self.state, unit.side, self.situation, [self.situation.position[unit.id]])
        return {str(h) for h in grid(self.state.system).id_array[dist <= self.limit]}

    def hq_ranges_at(self) -> dict[str, np.ndarray]:
        return hq_names_by_hex(self.state, self.supply_range, SIDES)


RULES = ToyGameRules(
    system=KEY,
    title="Toy",
    turns=TURNS,
    sequence=SEQUENCE,
    weather_effects=WEATHER_EFFECTS,
    historical_weather={},
    unit_defaults={"infantry": {"ma": 4, "mechanized": False}, "hq": {"ma": 4, "mechanized": False}},
    supply={"range_hexes": 4},
    campaign=("1944-06-10", "1944-06-20"),
    rule_notes=RULE_NOTES,
    rule_refs={"zoc": "toy 3", "unit_supply_range": "toy 4"},
    supply_states=(SupplyState("general", "in supply", "toy 4"),),
)
