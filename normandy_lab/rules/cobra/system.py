"""Cobra as a rule system: the verdicts only it gives, over the data of :mod:`.data`."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from normandy_lab.engine.lines import in_play
from normandy_lab.engine.movement import lookup_costs
from normandy_lab.engine.sequence import current_phase
from normandy_lab.engine.state import other_side
from normandy_lab.engine.supply import supply
from normandy_lab.engine.zoc import zoc_mask
from normandy_lab.errors import RefusedError
from normandy_lab.gamemap import game_map
from normandy_lab.grids import grid
from normandy_lab.network import edge_arrays
from normandy_lab.rules.base import Disengaging, MoveCosts, RuleSet, no_marker_edit
from normandy_lab.rules.cobra.air import CARPET_AP, air_points, period, plan, verdict
from normandy_lab.rules.cobra.boundary import VIRE, east_of_boundary, move_problem
from normandy_lab.rules.cobra.combat import naval_points, possible_attacks
from normandy_lab.rules.cobra.data import MAX_STEPS, STRENGTH_PER_STEP, army_of, turn_dates, turn_of
from normandy_lab.rules.cobra.points import (
    ALLIED_ARMIES,
    GERMAN_INCOME,
    allied_pay,
    command_words,
    pay_allies,
    pay_germans,
    track_entry,
)
from normandy_lab.rules.cobra.stacking import stacking_problem
from normandy_lab.rules.cobra.supply import determine as determine_cobra_supply
from normandy_lab.rules.cobra.weather import determine as determine_weather
from normandy_lab.rules.section import checked
from normandy_lab.terrain import terrain_map

if TYPE_CHECKING:
    from normandy_lab.engine.report import SupplyReport
    from normandy_lab.engine.state import GameState

# 7.0b: a ZOC does not extend into these cities' hexes (nor into fortress hexes, which the derived map
# does not have yet: the Cherbourg fortress outline is on the printed map only).
NO_ZOC_CITIES = ("Caen", "Cherbourg")
DISENGAGE_MP = 2.0  # 5.5: on top of the terrain cost of the hex entered
# RECONSTRUCTED from 5.2c: a British or Canadian infantry division moves "up to two-thirds (6 MP) of
# their printed MA" in the Allied Mechanized Movement Phase, so its printed MA is 9.
BRITISH_INFANTRY_DIVISION_MA = 9
# 5.5 exception: the terrain a German unit may always disengage from and into, one hex (bocage, light
# and heavy forest; the derived map's Light Woods stand for both forests).
COVER_TERRAIN = ("Bocage", "Light Woods")


@dataclass(frozen=True, eq=False)
class CobraRules(RuleSet):
    """Cobra's rules (Decision Games 2019, version 5): 3-day game turns, one 12-hex line per unit."""

    def turn_order(self, date: Any) -> tuple[str, ...]:
        """Return the one game turn a date falls in (GT 1 = 6 June; then three days a turn)."""
        return (f"GT {turn_of(date)}",)

    def turn_problem(self, date: Any, turn: str) -> tuple[str, str] | None:
        """Refuse a game turn that does not hold the date (the calendar of :mod:`.data`)."""
        try:
            right = f"GT {turn_of(date)}"
        except ValueError as exc:
            return str(exc), "choose a date from 6 June to 26 August 1944"
        if turn != right:
            first, last = turn_dates(turn_of(date))
            days = f"{first:%d %B}" if first == last else f"{first:%d}-{last:%d %B}"
            return f"{date} falls in {right} ({days}), not {turn}", f"write turn: {right}, or change the date"
        return None

    def next_date(self, date: Any) -> Any:
        """Return the first day of the next game turn (three days on; GT 2 the day after GT 1)."""
        return turn_dates(turn_of(date) + 1)[0]

    def new_day(self, state: GameState, date: Any) -> GameState:
        """Begin the game turn holding ``date`` at its first day, with its weather rolled (5.3, 5.3a).

        The die comes from the state's seeded generator; the turn's weather joins the history the next
        roll's column and modifier are read from.
        """
        gt = turn_of(date)
        start = turn_dates(gt)[0]
        history = (*state.markers["weather_history"], state.weather)
        die = int(state.rng().integers(1, 7))
        roll = determine_weather(gt, history, die, started_on_gt1=gt <= 2)
        drawn = 1 if roll.column else 0
        return state.after_draws(drawn).evolve(
            date=start,
            turn=self.turn_order(start)[0],
            phase_index=0,
            weather=roll.weather,
            weather_history=history,
            weather_roll=roll.words(),
            log=state.log.then(f"GT {gt}: weather {roll.words()}"),
        )

    def enter_phase(self, state: GameState) -> GameState:
        """Do what a phase's beginning does: Cherbourg entered, the carpet bombing, the end of the turn.

        * 11.1: the Germans are paid as their Weather & Supply phase begins, the Allies as their Supply
          phase begins (:mod:`.points`).
        * 17.3.5e: once an Allied unit stands in a Cherbourg city hex, the city serves the Germans no more
          (the ``cherbourg_entered`` marker; seen as each phase begins, so a unit that only passes
          through the city within one move is not seen).
        * 14.3d: last turn's carpet bombing flies or is cancelled as the Allied Combat Phase begins.
        * 17.3.6 (Campaign), as the Allied player turn ends (the Game Turn Indication phase begins): a
          beach hex a German unit stands in is wrecked for the rest of the game, and at the end of GT 3
          every Allied paratroop unit out of supply is eliminated.
        * 5.9.1b: the first game turn that ends with an Allied unit south of Vire (the
          ``south_of_vire_gt`` marker), after which the boundary may be extended.
        """
        state = _cherbourg_entered(state)
        name = current_phase(state).name
        if name == "Weather & German Supply":
            return pay_germans(state)
        if name == "Allied Supply":
            return pay_allies(state)
        if name == "Game Turn Indication":
            state = _south_of_vire(state)
        if name == "Game Turn Indication" and state.markers["campaign"]:
            return _end_of_allied_turn(state)
        if name != "Allied Combat":
            return state
        return _carpet_bombing(state)

    def set_marker(self, state: GameState, name: str, value: Any) -> GameState:
        """Let the analyst plan a carpet bombing (14.3a), set supply points (11.1) or the exits (5.3c)."""
        if name == "carpet_plan":
            return state.evolve(carpet_plan=plan(state, turn_of(state.date), value))
        if name == "army_boundary":  # 5.9.1: one column east or west a turn, between A23 and A30
            return state.evolve(army_boundary=checked(state, name, _boundary_move(state, value)))
        if name == "boundary_extension":  # 5.9.1b-d: [the Vire end, the east end], or None to remove
            if value is None:
                return state.evolve(boundary_extension=None)

            ends = checked(state, name, value)  # where 5.9.1b places the markers, and when
            problem = move_problem(state, ends)  # an edit moves a placed extension one hex a turn
            if problem:
                raise RefusedError(problem)
            return state.evolve(boundary_extension=ends)
        if name in ("allied_income", "command_limits"):  # 11.1a, 11.3: the turn track's GAP
            if value is None:
                return state.evolve(**{name: None})
            given = checked(state, name, value)  # the scenario schema's line: US and UK, 0 to 20
            return state.evolve(**{name: {**(state.markers[name] or {}), **(given or {})}})
        if name == "supply_points":  # 11.1; the German total at most 12 (11.0c)
            given = checked(state, name, value)
            changed = {army: given[army] for army in value or {}}  # only the armies the edit names
            return state.evolve(supply_points={**state.markers["supply_points"], **changed})
        if name == "south_edge_lost":  # 10.4
            return state.evolve(south_edge_lost=checked(state, name, value))
        if name == "allied_exited":  # 5.3c: not a scenario field, so not in the section
            if not isinstance(value, bool):
                raise RefusedError(f"{name} is true or false, not {value!r}")
            return state.evolve(allied_exited=value)
        settable = ("carpet_plan", "army_boundary", "boundary_extension", "supply_points", "allied_income",
                    "command_limits", "allied_exited", "south_edge_lost")  # fmt: skip
        raise RefusedError(no_marker_edit(self.title, name, settable))

    def forbidden_steps(self, state: GameState, unit: Any) -> set[tuple[int, int]] | None:
        """Refuse a crossing of a major river into an EZOC hex unless 5.1e allows it.

        For this test only, a ZOC extends across major rivers (5.1e, Important).  The crossing is allowed
        when (1) the hex entered is friendly-occupied or (2) no enemy unit exerting the ZOC there is next
        to a major river, and (3) the unit could make the move were the river not there: it does not
        start in an enemy ZOC so counted (the third example: the unit at 3308 is in the ZOC of the
        regiment across the Orne at 3309, so it may not cross into 3408).  INFERRED: (1) or (2), and
        (3), the one reading under which all three of 5.1e's examples hold; a bridge does not lift it.
        The river is ignored for this test, 7.0b is not: a city hex of Caen or Cherbourg is in no ZOC, so
        crossing into one is allowed (5.1e's last Important note: "ZOC do not extend into city hexes").
        """
        gmap = game_map(self.system)
        e = gmap.edges
        feature = gmap.terrain.hexsides["water_feature"].fillna("").to_numpy()[e.side]
        river = (feature == "Major River") & ~e.all_sea
        if not river.any():
            return None
        g = gmap.grid
        enemy_side = other_side(unit.side)
        # The ZOC of every enemy unit that exerts one, across major rivers too (5.1e), by hex.
        land = ~e.all_sea
        exempt = self.zoc_exempt(state)  # 17.3.8
        exerting = {
            g.index(u.hex)
            for u in state.units_of(enemy_side)
            if u.status == "active" and self.exerts_zoc(u) and u.id not in exempt
        }
        into = np.zeros(len(g), dtype=bool)
        by_hex: dict[int, list[int]] = {}
        for a, b in zip(e.src[land].tolist(), e.dst[land].tolist(), strict=True):
            if a in exerting:
                into[b] = True
                by_hex.setdefault(b, []).append(a)
        # 5.1e, Important, with 7.0b: still no ZOC into a city hex of Caen or Cherbourg, so crossing into one
        # is never refused by this test.
        into &= ~_no_zoc_hexes(self.system)
        start = g.index(unit.hex)
        riverside = np.zeros(len(g), dtype=bool)
        riverside[e.src[river]] = True
        friendly = {
            g.index(u.hex) for u in state.units_of(unit.side) if u.status == "active" and u.id != unit.id
        }
        forbidden: set[tuple[int, int]] = set()
        for a, b in zip(e.src[river].tolist(), e.dst[river].tolist(), strict=True):
            if not into[b]:
                continue
            allowed = b in friendly or not any(riverside[x] for x in by_hex.get(b, []))
            if not allowed or into[start]:
                forbidden.add((a, b))
        return forbidden

    def end_problem(self, state: GameState, unit: Any, hex_index: int) -> str | None:
        """Refuse a move ending over one hex across the Allied Army Boundary (5.9b-d), or overstacked (6.2).

        The boundary is the column of map A the ``army_boundary`` marker names (and the same column of
        map B, ten more: B35 runs on from A25, 5.9a); US units may not end a move more than one hex east
        of it, British units more than one hex west (2.3.4: French units count as US, Canadian and Polish
        ones as British); once extended (5.9.1b-d), the same
        across the extension (:mod:`.boundary`).  A move may pass through a full hex but not end in it
        (6.0a-b, 6.2).
        """
        crowded = self._stacking_end(state, unit, hex_index)
        if crowded:
            return f"{crowded} (6.2)"
        offsets = east_of_boundary(state)
        if unit.side != "allied" or offsets is None:
            return None
        east = int(offsets[hex_index])
        boundary = state.markers["army_boundary"]
        where = f"the army boundary (column A{boundary:02d})"
        army = army_of(unit)  # 2.3.4: French units are US, Canadian and Polish ones British
        counted = "" if unit.nationality in ("US", "UK") else f" ({unit.nationality} counts as {army}, 2.3.4)"
        if army == "US" and east > 1:
            return f"a US unit{counted} may not end a move more than one hex east of {where} (5.9b)"
        if army == "UK" and east < -1:
            return f"a British unit{counted} may not end a move more than one hex west of {where} (5.9c)"
        return None

    def open_enemy_hexes(self, state: GameState, unit: Any) -> Any:
        """Open the hexes that hold only enemy HQs to movement (5.1b; the HQs are displaced, 9.1b)."""
        g = grid_of(self.system)
        others = np.zeros(len(g), dtype=bool)
        hqs = np.zeros(len(g), dtype=bool)
        for u in state.units:
            if u.side != unit.side and u.status == "active":
                (hqs if u.hq is not None else others)[g.index(u.hex)] = True
        return hqs & ~others

    def after_move(self, state: GameState, unit_id: str, path: list[str]) -> GameState:
        """Displace the enemy HQs in the hexes a move entered (9.1b): see :func:`_displace_hqs`."""
        return _displace_hqs(state, unit_id, path)

    def _stacking_end(self, state: GameState, unit: Any, hex_index: int) -> str | None:
        """Refuse a move ending in a hex it would overstack (6.0-6.2: excess units would be eliminated)."""
        g = grid_of(self.system)
        there = [
            u
            for u in state.units
            if u.side == unit.side
            and u.status == "active"
            and u.id != unit.id
            and g.index(u.hex) == hex_index
        ]
        if not there:
            return None
        problem = stacking_problem([*there, unit])
        return f"{g.id_array[hex_index]} would be overstacked: {problem}" if problem else None

    def move_stops(self, state: GameState, unit: Any) -> Any:
        """End an Allied move in the hex carpet-bombed this turn, in the Mechanized Movement Phase (14.3i)."""
        done = state.markers["carpet_done"]
        if unit.side != "allied" or not done or done["gt"] != turn_of(state.date):
            return None
        if current_phase(state).name != "Allied Mechanized Movement":
            return None
        g = grid(self.system)
        stops = np.zeros(len(g), dtype=bool)
        stops[g.index(done["hex"])] = True
        return stops

    def phase_results(self, state: GameState, phase: Any) -> dict[str, Any]:
        """Compute what a phase shows: the weather and its grip on German movement (5.3), supply (10.1)."""
        results: dict[str, Any] = {}
        if phase.kind == "weather":
            top, bottom = self.weather_effects[state.weather]["german_ma_fraction"]
            results = {
                "weather": state.weather,
                "roll": state.markers["weather_roll"] or "set by the scenario",
                "german_ma": f"{top}/{bottom} of the MA (5.3b)" if top != bottom else "the whole MA (5.3b)",
                "german_sp": (
                    f"+{GERMAN_INCOME[state.weather]} in {state.weather.lower()} weather (11.1d); "
                    f"{state.markers['supply_points']['DE']} held, at most 12 (11.0c)"
                ),
            }
        elif phase.kind == "bookkeeping" and phase.side == "allied":
            gt = turn_of(state.date)
            results = {
                "income": [allied_pay(state, track_entry(state, army, gt))[1] for army in ALLIED_ARMIES],
                "supply_points": dict(state.markers["supply_points"]),
            }
        elif phase.kind == "combat":
            results["attacks"] = possible_attacks(state, phase.side)
            results["supply_points"] = dict(state.markers["supply_points"])
            if phase.side == "allied":
                results["command_limits"] = command_words(state, results["attacks"])

                results["naval_support_points"] = naval_points(turn_of(state.date), state.weather)
        if phase.name == "Allied Combat":
            points = air_points(state.weather)
            done = state.markers["carpet_done"]
            bombed = done is not None and done["gt"] == turn_of(state.date)
            results |= {
                "air_points": f"{points} AP ({state.weather}, 14.0)",
                "carpet_bombing": (
                    f"{done['hex']} bombed at 6:1 before any other attack, losses in steps; "
                    f"{points - CARPET_AP} AP left, not on that side of the army boundary (14.3e-h); "
                    "the result is not rolled: the Combat Results Table's body is not in the text"
                    if bombed
                    else "none this turn"
                ),
            }
            plan = state.markers["carpet_plan"]
            if plan:
                results["carpet_plan"] = (
                    f"{plan['hex']}, planned on GT {plan['gt']} for the next turn (14.3a)"
                )
        elif phase.kind in ("movement", "mech_movement") and phase.side:
            report = supply(state)
            results["out_of_supply"] = sorted(
                u.id for u in state.units_of(phase.side) if u.status == "active" and not report[u.id].general
            )
        return results

    def exerts_zoc(self, unit: Any) -> bool:
        """Every unit but HQs, battalions and Flak exerts a ZOC (7.0); a delay unit always does (17.3.11).

        17.3.11: "Each delay unit possesses a ZOC", by what it is, whatever size a scenario gives it (a
        remnant the size of a battalion or less).
        """
        if unit.type == "delay":
            return True
        return unit.hq is None and unit.size != "battalion" and unit.type != "flak"

    def zoc_exempt(self, state: GameState) -> frozenset[str]:
        """On GT 1 the Allied paratroops, and every enemy unit next to one, exert no ZOC (17.3.8)."""
        if turn_of(state.date) != 1:
            return frozenset()

        g = grid(self.system)
        paras = [u for u in state.units_of("allied") if u.status == "active" and u.type == "parachute"]
        near = {g.canonical(n) for u in paras for n in g.neighbors(u.hex)}
        germans = {u.id for u in state.units_of("german") if u.status == "active" and u.hex in near}
        return frozenset({u.id for u in paras} | germans)

    def negates_ezoc(self, unit: Any) -> bool:
        """Friendly units other than HQs negate an EZOC for supply lines (7.0i, 9.1h)."""
        return unit.hq is None

    def zoc_crosses(self, edges: Any) -> Any:
        """Extend a ZOC over no major-river or all-sea hexside (7.0a), into no Caen or Cherbourg city hex."""
        tmap = terrain_map(self.system, progress=False)
        major = tmap.hexsides["water_feature"].fillna("").to_numpy()[edges.side] == "Major River"
        return ~edges.all_sea & ~major & ~_no_zoc_hexes(self.system)[edges.dst]

    def movement_allowance(self, state: GameState, unit: Any, in_supply: bool, isolated: bool) -> float:
        """Return the MA in this phase (4.0, 5.2c), halved out of supply (10.6), by weather (5.3b); round up.

        In a Mechanized Movement Phase only the mechanized units and HQs move (4.0: the German panzer,
        panzergrenadier and HQ units; the Allied mechanized and HQ units; Flak moves as infantry, 5.2a), and
        the British and Canadian infantry divisions up to two-thirds of their printed MA (5.2c, the text's
        "(6 MP)"; Polish units are British, 2.3.4); every other unit has none.
        """
        ma = float(printed_ma(self, unit))
        if current_phase(state).kind == "mech_movement":
            if british_infantry_division(unit):
                ma = float(math.ceil(ma * 2 / 3 - 1e-9))  # 5.2c: 9 gives 6
            elif not moves_mechanized(unit):
                return 0.0  # 4.0 (5a-b): "No other units may be moved during this phase"
        if not in_supply:
            ma /= 2
        if unit.side == "german":
            top, bottom = self.weather_effects[state.weather]["german_ma_fraction"]
            if state.markers["allied_exited"]:  # 5.3c: full MA in storm and overcast, two thirds if clear
                top, bottom = (2, 3) if state.weather == "Clear" else (1, 1)
            ma = ma * top / bottom
        return float(math.ceil(ma - 1e-9))

    def movement_costs(self, state: GameState, unit: Any, in_supply: bool, ma: float) -> Any:
        """Return each step's cost on the RECONSTRUCTED chart of :mod:`.data` (5.1, 5.6).

        Along a road (a standing bridge where it crosses water) the road's cost, terrain and river
        ignored (5.6a); off the roads the hex's cost (a city at clear, 5.6b) plus the river crossed
        (5.6); a mechanized unit enters and leaves marsh only along a road (5.6c), and crosses none of
        the unbridged Dives hexsides of A4101 to A4106 (5.2h; a destroyed bridge leaves its hexside
        unbridged).  Flak units move as
        infantry, their MA of 12 notwithstanding (5.2a, Important: :func:`moves_mechanized`).
        """
        tmap = terrain_map(self.system, progress=False)
        e = edge_arrays(self.system)
        mechanized = moves_mechanized(unit)  # 5.2a: Flak moves as infantry
        cls = "mechanized" if mechanized else "infantry"
        settlement = tmap.hexes["settlement"].to_numpy()
        terrain = tmap.hexes["terrain"].to_numpy()
        label = np.where(settlement == "City", "City", terrain).astype(object)
        destroyed = tmap.hexsides.index.isin(list(state.destroyed_bridges))
        water = e.water > 0
        on_road = (e.road > 0) & (~water | (e.road_bridge & ~destroyed[e.side]))
        feature = tmap.hexsides["water_feature"].fillna("").to_numpy()[e.side]
        base = lookup_costs(label, self.terrain_cost[cls], ma)[e.dst]
        extra = lookup_costs(feature, self.terrain_cost["hexside"], 0.0)
        off_road = base + np.where(feature != "", np.nan_to_num(extra), 0.0)
        if mechanized:
            off_road[terrain[e.src] == "Marsh"] = np.nan  # 5.6c: out of a marsh only along a road
            off_road[_dives_unbridged(self, destroyed[e.side])] = np.nan  # 5.2h
        along = np.where(e.road >= 2, self.road_cost["major"], self.road_cost["minor"])
        cost = np.where(on_road, along, off_road)
        return MoveCosts(cost, label, on_road, np.zeros(len(cost), dtype=bool), feature)

    def leaving_ezoc_cost(self, state: GameState, unit: Any, holding: bool) -> float | None:
        """Return what disengaging costs: 2 MP on top of the hex entered (5.1d, 5.5).

        A unit that began the phase in an EZOC leaves it only by disengaging; one that entered an EZOC
        this phase has stopped there (5.1d), which the search's stop on entering already says.
        """
        return DISENGAGE_MP

    def disengaging(self, state: GameState, unit: Any) -> Disengaging:
        """Say how a disengaging move goes on (5.0, 5.5).

        5.5a: straight into a hex in no EZOC (every game's rule), and no EZOC again this phase;
        5.5b and the 5.0 exception: only with the MP to pay for it, no one-hex move regardless of the
        allowance.  The 5.5 exception: a German unit in a bocage or woods hex may always disengage
        one hex into another such hex (heavy forest is not on the derived map: its Light Woods stand
        for both kinds of forest).
        """
        cover = None
        if unit.side == "german":
            terrain = terrain_map(self.system, progress=False).hexes["terrain"].to_numpy()
            covered = np.isin(terrain, COVER_TERRAIN)
            if covered[grid_of(self.system).index(unit.hex)]:
                cover = covered
        return Disengaging(one_hex_minimum=False, reenter=False, always_into=cover)

    def unit_strength(self, state: GameState, unit: Any, in_supply: bool) -> tuple[int, int]:
        """Return the combat strength: printed, else RECONSTRUCTED by step; halved out of supply, >= 1."""
        strength = unit.attack if unit.attack is not None else STRENGTH_PER_STEP[unit.size] * unit.steps
        if not in_supply:
            strength = max(1, math.ceil(strength / 2))
        return int(strength), int(strength)

    def unit_problem(self, entry: Any) -> tuple[str, str, str] | None:
        """Refuse more steps than a unit of its size has (8.5)."""
        most = MAX_STEPS[entry["size"]]
        if entry["steps"] > most:
            return (
                "steps",
                f"{entry['steps']!r} is more than a {entry['size']} has ({most})",
                "Cobra 8.5: battalions and HQs 1 step, regiments and brigades 2, Allied infantry divisions 4",
            )
        return None

    def units_problem(self, data: Any, units: list[Any]) -> tuple[int, str, str, str] | None:
        """Refuse more than one division's worth of one side's units in a hex (6.0-6.1, 17.3.7)."""
        stacks: dict[tuple[str, str], list[int]] = {}
        for n, unit in enumerate(units):
            if unit.status == "active":
                stacks.setdefault((unit.hex, unit.side), []).append(n)
        for (hex_id, _), members in stacks.items():
            problem = stacking_problem([units[n] for n in members])
            if problem:
                first = getattr(data["units"][members[0]], "line", 0)
                return (
                    members[-1],
                    "units",
                    f"hex {hex_id}: {problem}",
                    f"move a unit out of the hex (its first unit is at line {first})",
                )
        return None

    def exemption(self, state: GameState) -> tuple[str, str] | None:
        """Return (rule, words) when every unit is in supply without a line: the Campaign's GT 1 and 2."""
        if turn_of(state.date) <= 2:
            return (
                "17.3.6, 17.3.6d",
                "in supply without a line: every unit is on GT 1 and 2 (17.3.6, 17.3.6d)",
            )
        return None

    def determine_supply(self, state: GameState) -> SupplyReport:
        """Determine every unit's supply (10.3-10.5; :mod:`.supply`)."""
        return determine_cobra_supply(state)


HQ_DISPLACEMENT = 4  # 9.1b: to any hex within four hexes of the HQ's own


def _displace_hqs(state: GameState, unit_id: str, path: list[str]) -> GameState:
    """Displace every enemy HQ standing alone in a hex the move entered (5.1b, 9.1b).

    9.1b: the owner moves it to any hex within four hexes of its own and flips it to its inactive side (the
    engine computes no HQ shifts, so the side is only said in the log); the moving unit pays nothing for it.
    An HQ displaced a second time in one phase is eliminated instead (marker ``hq_displaced``).

    READING ``hq_displacement`` (9.1b leaves the hex to the owner): the engine places it for him, in the
    nearest hex (to its own; ties by hex id) that holds a friendly combat unit, else in the nearest hex
    free of enemy units and enemy ZOC; a hex of the sheets in play, not all-sea, always.  With no such hex
    it is eliminated.  The analyst may move it elsewhere within four hexes with an edit.
    """
    mover = state.unit(unit_id)
    entered = set(path[1:])
    hqs = [
        u for u in state.units
        if u.side != mover.side and u.status == "active" and u.hq is not None and u.hex in entered
    ]  # fmt: skip
    if not hqs:
        return state
    g = grid_of(state.system)
    here = [state.turn, state.phase_index]
    done = state.markers["hq_displaced"]
    before = set(done["ids"]) if done and list(done["at"]) == here else set()
    sea = (terrain_map(state.system, progress=False).hexes["terrain"] == "All Sea").to_numpy()
    usable = in_play(state.system, state.maps) & ~sea
    moved = {u.id: u for u in state.units}
    words = []
    for hq in hqs:
        enemy_zoc = zoc_mask(state.evolve(units=tuple(moved.values())), mover.side)
        enemies = {g.index(u.hex) for u in moved.values() if u.side == mover.side and u.status == "active"}
        friends = {
            g.index(u.hex) for u in moved.values()
            if u.side == hq.side and u.status == "active" and u.hq is None
        }  # fmt: skip
        near = sorted(
            (g.distance(hq.hex, h), str(h))
            for h in (g.id_array[i] for i in np.nonzero(usable)[0])
            if 0 < g.distance(hq.hex, h) <= HQ_DISPLACEMENT
        )
        with_friends = [h for _, h in near if g.index(h) in friends]
        free = [h for _, h in near if g.index(h) not in enemies and not enemy_zoc[g.index(h)]]
        target = (with_friends or free or [None])[0]
        if hq.id in before or target is None:
            moved[hq.id] = replace(hq, status="eliminated")
            why = "displaced twice in one phase" if hq.id in before else "no hex to go to within four"
            words.append(f"{hq.id} eliminated: {why} (9.1b)")
        else:
            moved[hq.id] = replace(hq, hex=target)
            words.append(f"{hq.id} displaced from {hq.hex} to {target}, flipped to its inactive side (9.1b)")
        before.add(hq.id)
    return state.evolve(
        units=tuple(moved.values()),
        hq_displaced={"at": here, "ids": sorted(before)},
        log=state.log.then(f"{unit_id} entered a hex of enemy HQs only (5.1b): " + "; ".join(words)),
    )


def _dives_unbridged(rules: Any, destroyed: np.ndarray) -> np.ndarray:
    """Return, per directed edge, whether it crosses 5.2h's Dives without a standing bridge.

    5.2h: "Unbridged Dives River hexsides from A4101 to A4106, inclusive, may not be crossed by mechanized
    units": the Dives hexsides of those six hexes (the ones 10.3b3 closes to lines, ``supply.line_edges``)
    that carry no bridge, or whose bridge is destroyed (``destroyed``, per edge).
    """
    e = edge_arrays(rules.system)
    names = terrain_map(rules.system, progress=False).hexsides["water_name"].fillna("").to_numpy()[e.side]
    six = np.isin(grid_of(rules.system).id_array, list(rules.supply["dives_hexes"]))
    dives = (np.char.find(names.astype(str), "Dives") >= 0) & (six[e.src] | six[e.dst])
    return dives & ~((e.road_bridge | e.rail_bridge) & ~destroyed)


def british_infantry_division(unit: Any) -> bool:
    """Tell whether ``unit`` is one of 5.2c's British (or Canadian, or Polish: 2.3.4) infantry divisions."""
    return (
        army_of(unit) == "UK" and unit.size == "division" and unit.type == "infantry" and not unit.mechanized
    )


def printed_ma(rules: Any, unit: Any) -> int:
    """Return a unit's printed MA: its own, else its type's RECONSTRUCTED default (``data.UNIT_DEFAULTS``).

    A British or Canadian infantry division's default is 9 (RECONSTRUCTED from 5.2c: two-thirds of its
    printed MA is "(6 MP)"); the counters themselves are not in the text.
    """
    if unit.ma is not None:
        return int(unit.ma)
    if british_infantry_division(unit):
        return BRITISH_INFANTRY_DIVISION_MA
    return int(rules.unit_defaults[unit.type]["ma"])


def moves_mechanized(unit: Any) -> bool:
    """Tell whether ``unit`` moves as a mechanized unit: as its flag says, but Flak as infantry (5.2a).

    5.2a, Important: Flak units, with an MA of 12, "are considered infantry units for movement purposes":
    infantry terrain costs, marsh off the roads, no move in the Mechanized Movement Phase.  The unit's own
    ``mechanized`` flag is left as it is (it is part of a saved study's state).
    """
    return bool(unit.mechanized) and unit.type != "flak"


@lru_cache(maxsize=4)
def _no_zoc_hexes(system: str) -> np.ndarray:
    """Return the hexes no ZOC extends into: the city hexes of Caen and Cherbourg (7.0b)."""
    hexes = terrain_map(system, progress=False).hexes
    return ((hexes["settlement"] == "City") & hexes["builtup_name"].isin(NO_ZOC_CITIES)).to_numpy()


@lru_cache(maxsize=8)
def city_hexes(system: str, name: str) -> frozenset[int]:
    """Return the City hexes of a named city (Cherbourg's for 17.3.5), by hex index."""
    hexes = terrain_map(system, progress=False).hexes
    return frozenset(
        np.nonzero(((hexes["settlement"] == "City") & (hexes["builtup_name"] == name)).to_numpy())[0].tolist()
    )


def _carpet_bombing(state: GameState) -> GameState:
    """Fly or cancel the carpet bombing planned last turn (14.3d), with its log line."""
    gt = turn_of(state.date)
    mission = verdict(state, gt)
    if mission is None:
        return state
    if not mission.flies:
        return state.evolve(carpet_plan=None, log=state.log.then(f"carpet bombing {mission.why}"))
    flown = dict(state.markers["carpet_missions"])
    flown[period(gt)] = flown.get(period(gt), 0) + 1
    return state.evolve(
        carpet_plan=None,
        carpet_done={"hex": mission.hex, "gt": gt},
        carpet_missions=flown,
        log=state.log.then(f"carpet bombing {mission.why}"),
    )


def _south_of_vire(state: GameState) -> GameState:
    """Note the first game turn that ends with an Allied unit south of Vire (5.9.1b).

    South of Vire: on map A, in a row south of Vire's (A2116, row 16).
    """
    if state.markers["south_of_vire_gt"] is not None:
        return state
    row = int(VIRE[3:5])
    south = sorted(u.id for u in state.units_of("allied") if u.hex.startswith("A") and int(u.hex[3:5]) > row)
    if not south:
        return state
    gt = turn_of(state.date)
    return state.evolve(
        south_of_vire_gt=gt,
        log=state.log.then(
            f"GT {gt} ends with {', '.join(south[:3])}{' and others' if len(south) > 3 else ''} south of "
            f"Vire: the Allied Army Boundary may be extended from the next turn (5.9.1b)"
        ),
    )


def _cherbourg_entered(state: GameState) -> GameState:
    """Set the ``cherbourg_entered`` marker once an Allied unit stands in a Cherbourg city hex (17.3.5e)."""
    if state.markers["cherbourg_entered"]:
        return state
    g = grid_of(state.system)
    city = city_hexes(state.system, "Cherbourg")
    inside = sorted(u.id for u in state.units_of("allied") if g.index(u.hex) in city)
    if not inside:
        return state
    return state.evolve(
        cherbourg_entered=True,
        log=state.log.then(
            f"{', '.join(inside)} in Cherbourg: the city serves the Germans no more (17.3.5e)"
        ),
    )


def _end_of_allied_turn(state: GameState) -> GameState:
    """Wreck the beach hexes German units stand in; after GT 3, lose the unsupplied paratroops (17.3.6)."""
    g = grid_of(state.system)
    beach = terrain_map(state.system, progress=False).hexes["beach"].fillna("").astype(str).to_numpy()
    wrecked = set(state.markers["wrecked_beaches"])
    newly = sorted(
        {str(g.id_array[g.index(u.hex)]) for u in state.units_of("german") if beach[g.index(u.hex)]} - wrecked
    )
    if newly:
        state = state.evolve(
            wrecked_beaches=tuple(sorted(wrecked | set(newly))),
            log=state.log.then(f"beach hexes wrecked by German units ending the Allied turn there: "
                               f"{', '.join(newly)} (17.3.6f)"),
        )  # fmt: skip
    if turn_of(state.date) != 3:
        return state
    report = supply(state)
    lost = sorted(
        u.id for u in state.units_of("allied") if u.type == "parachute" and not report[u.id].general
    )
    if not lost:
        return state
    units = tuple(replace(u, status="eliminated") if u.id in lost else u for u in state.units)
    return state.evolve(
        units=units,
        log=state.log.then(
            f"paratroops out of supply at the end of GT 3 eliminated: {', '.join(lost)} (17.3.6)"
        ),
    )


def grid_of(system: str) -> Any:
    """Return a map's grid (from its one :class:`~normandy_lab.gamemap.GameMap`)."""
    return game_map(system).grid


# 5.9.1a: the boundary stays between the 3300 and 4000 hex rows of map B, columns 23 to 30 of map A.
BOUNDARY_COLUMNS = (23, 30)


def _boundary_move(state: GameState, value: Any) -> int:
    """Return the boundary's new column, or refuse a move 5.9.1 does not allow (one column, within limits)."""
    now = state.markers["army_boundary"]
    low, high = BOUNDARY_COLUMNS
    if not isinstance(value, int) or isinstance(value, bool):
        raise RefusedError(f"the army boundary is a column of map A (a whole number), not {value!r}")
    if not low <= value <= high:
        raise RefusedError(f"the army boundary stays between columns A{low} and A{high} (5.9.1a: B33 to B40)")
    if now is not None and abs(value - now) > 1:
        raise RefusedError(f"the army boundary moves one column a turn at most (5.9.1), from A{now:02d}")
    return value
