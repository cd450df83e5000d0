"""The Battle for Normandy as a rule system: its data (:mod:`.data`) and the verdicts only it can give."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from normandy_lab.rules.base import RuleSet
from normandy_lab.rules.bfn.air import air_regions, interdiction_penalty
from normandy_lab.rules.bfn.movement import allowance, edge_costs, leaving_ezoc_cost
from normandy_lab.rules.bfn.sequence import new_day, phase_results, supplied_strength
from normandy_lab.rules.bfn.supply import determine_supply
from normandy_lab.terrain import terrain_map

INVASION_DAY = dt.date(1944, 6, 6)
# Unit types that are not ground units: they exert no ZOC (5.1).
NOT_GROUND = ("ship",)
# A regiment or brigade entry stands for its (up to three or four) battalions (3.4).
MAX_STEPS = {"regiment": 9, "brigade": 12}

if TYPE_CHECKING:
    from normandy_lab.engine.report import SupplyReport
    from normandy_lab.engine.state import GameState


@dataclass(frozen=True, eq=False, kw_only=True)
class BfnRules(RuleSet):
    """The Battle for Normandy's rules: the data of :class:`RuleSet`, BfN's own tables and determinations.

    A variant made with :func:`dataclasses.replace` is a ``BfnRules`` too, and
    determines supply with its own numbers.  The tables only BfN reads are its own fields, not the
    contract's: the weather table (8.1), the air interdiction track (11.2), the unit types and sizes its
    scenario schema allows (3.4), and stacking (6.0: the limit and each type's points).
    """

    weather_table: tuple[tuple[int, int, str], ...] = ()
    interdiction_track: tuple[tuple[int, int], ...] = ()
    unit_types: tuple[str, ...] = ()
    sizes: tuple[str, ...] = ()
    stacking_limit: int = 6
    stacking_points: dict[str, int] = field(default_factory=dict)
    # 7.2-7.6 trace from where the units stand, under the turn's weather and markers, whatever the phase:
    # a step that changes nothing else shows the supply (and its reasons) of the phase before.
    supply_ignores: ClassVar[frozenset[str]] = frozenset({"phase_index", "seed", "draws", "log"})

    def turn_order(self, date: Any) -> tuple[str, ...]:
        """Return the turns of a date: 6 June has its Night and Invasion turns, then PM (3.7, 16.0)."""
        if date == INVASION_DAY:
            return ("6 June Night", "6 June Invasion", "PM")
        return ("Night", "AM", "PM")

    def turn_problem(self, date: Any, turn: str) -> tuple[str, str] | None:
        """Refuse a 6 June turn on another day (3.7); the other turns may be played on any day."""
        if turn.startswith("6 June") and date != INVASION_DAY:
            return f"the {turn!r} turn exists only on 6 June (3.7)", "use Night, AM or PM"
        return None

    def new_day(self, state: GameState, date: Any) -> GameState:
        """Begin a day: its weather (8.0, 8.1o) and the Allies' Combat Supply Points (7.6.2)."""
        return new_day(state, date)

    def phase_results(self, state: GameState, phase: Any) -> dict[str, Any]:
        """Compute what a phase does: weather, interdiction, supply at movement, attacks (7.1, 11.2, 12.4)."""
        return phase_results(state, phase)

    def exerts_zoc(self, unit: Any) -> bool:
        """Tell whether a unit exerts a ZOC: every ground unit (artillery, strongpoints), no ship (5.1)."""
        return unit.type not in NOT_GROUND

    def movement_costs(self, state: GameState, unit: Any, in_supply: bool, ma: float) -> Any:
        """Return each step's cost: 10.2 roads, the reconstructed 10.6 chart, 7.5 out of supply."""
        return edge_costs(state, unit, in_supply, ma)

    def leaving_ezoc_cost(self, state: GameState, unit: Any, holding: bool) -> float | None:
        """Return the MP to leave an EZOC: 2, none at night or when holding the line (5.2)."""
        return leaving_ezoc_cost(state, holding)

    def unit_problem(self, entry: Any) -> tuple[str, str, str] | None:
        """Refuse more steps than a unit of its size may have (3.4: 1 to 3; regiment entries more)."""
        most = MAX_STEPS.get(entry["size"], 3)
        if entry["steps"] > most:
            return (
                "steps",
                f"{entry['steps']!r} is not between 1 and {most} for a {entry['size']}",
                "BfN units have 1 to 3 steps (3.4); a regiment or brigade entry stands for its battalions",
            )
        return None

    def units_problem(self, data: Any, units: list[Any]) -> tuple[int, str, str, str] | None:
        """Refuse a division unit without its division HQ (7.2) and a stack over the limit (6.0)."""
        independent = data.get("independent_formations") or []
        hqs = {(u.side, u.formation) for u in units if u.hq in ("division", "kg")}
        for n, unit in enumerate(units):
            without_hq = unit.formation and unit.hq is None and (unit.side, unit.formation) not in hqs
            if without_hq and unit.formation not in independent:
                return (
                    n,
                    f"units[{n}].formation",
                    f"no HQ of {unit.formation!r} in the scenario",
                    "add its division HQ (type: hq, hq: division), list it under independent_formations, "
                    "or clear 'formation' for a corps unit",
                )
        stacks: dict[tuple[str, str], int] = {}
        first_line: dict[tuple[str, str], int] = {}
        for n, (entry, unit) in enumerate(zip(data["units"], units, strict=True)):
            key = (unit.hex, unit.side)
            stacks[key] = stacks.get(key, 0) + self.stacking_points[unit.type] * max(1, -(-unit.steps // 3))
            first_line.setdefault(key, getattr(entry, "line", 0))
            if stacks[key] > self.stacking_limit:
                return (
                    n,
                    "units",
                    f"hex {unit.hex} holds {stacks[key]} stacking points of {unit.side} units "
                    f"(the limit is {self.stacking_limit}, 6.0)",
                    f"move some of the units stacked there (first one at line {first_line[key]})",
                )
        return None

    def zoc_crosses(self, edges: Any) -> Any:
        """Extend a ZOC across every hexside but all-sea ones, into every hex but City hexes (5.3)."""
        settlement = terrain_map(self.system, progress=False).hexes["settlement"].to_numpy()
        return ~edges.all_sea & (settlement[edges.dst] != "City")

    def movement_allowance(self, state: GameState, unit: Any, in_supply: bool, isolated: bool) -> float:
        """Return the allowance after interdiction, phase, night, supply, isolation (11.2, 10.5-7.5o)."""
        return allowance(state, unit, in_supply, isolated)

    def supply_ring(self, row: Any) -> str:
        """Full: General and Combat Supply; partial: General only (7.2, 7.6.1); cut: isolated (7.5o)."""
        if row.general:
            return "full" if row.combat else "partial"
        return "cut" if row.isolated else "out"

    def air_regions(self, state: GameState) -> list[Any]:
        """Return every map with its air and AA points and its interdiction penalty (11.1.2, 11.2)."""
        return air_regions(state)

    def air_ma_penalty(self, state: GameState, unit: Any) -> float:
        """Return the MP interdiction takes from a German unit in the AM and PM turns, by its map (11.2)."""
        return float(interdiction_penalty(state, unit))

    def unit_strength(self, state: GameState, unit: Any, in_supply: bool) -> tuple[int, int]:
        """Return (attack, defense): printed or RECONSTRUCTED per step; attack halved out of supply (7.5)."""
        return supplied_strength(state, unit, in_supply)

    def determine_supply(self, state: GameState) -> SupplyReport:
        """Determine General and Combat Supply and isolation with the reasons (7.2-7.6, 17.1, 20.3)."""
        return determine_supply(state)
