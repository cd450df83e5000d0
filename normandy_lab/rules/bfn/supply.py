"""Lines of supply, exactly as The Battle for Normandy's rules say (7.x), with the reasons.

Rules implemented:

* 7.2 -- corps HQs are in supply at any length to a source; division HQs
  within 20 MPs of a source or of an in-supply corps HQ; division units
  within 6 hexes or 6 MPs (whichever succeeds) of a source or of their
  in-supply division HQ; non-division units to a source or an in-supply
  corps HQ, or attached to a division HQ (at most three per HQ); until
  11 June the beachheads act as corps HQs.
* 7.3 -- a line of supply may not enter hexes held by enemy units, nor a
  vacant hex in an EZOC (a friendly unit there negates it, 5.4).
* 7.3.2 -- supply MPs are counted at infantry rates: 1/2 MP along primary
  roads, 1/3 MP along highways, other terrain at its infantry cost; an
  unbridged stream or river hexside may be crossed only by the tracing unit
  itself, from its own hex (an HQ starts counting from the far bank, so it
  bridges the river for its units, 7.3.2 exception, 14.2.1).
* 7.3.3 -- supply ranges are halved in Heavy Rain and Storm.
* 7.4 -- sources: Allied beachheads (US units to Utah and Omaha, British,
  Canadian and Polish units to Gold, Juno and Sword for combat supply; any
  beachhead for general supply); German road and highway hexes leaving the
  east and south map edges, and German-controlled City hexes of Bayeux,
  Cherbourg, Caen, Argentan, Flers and Vire (general supply only).
* 7.6.1 -- combat supply traces unit -> division HQ -> corps HQ -> source
  (a division HQ may not skip its corps HQ).
* 7.5 -- out of supply: attack strength and movement allowance halved.
* 7.5o -- isolated: no line of any length to a friendly corps HQ.

Distances are computed by the engine's compiled searches
(:mod:`normandy_lab.engine.search`) over the edges of
:func:`normandy_lab.network.edge_arrays`; :func:`.reference.supply_networkx` computes
the same distances with networkx weight callables, and the tests prove the
two agree.  :func:`determine_supply` is what
``BFN_RULES.determine_supply(state)`` (and so :func:`normandy_lab.supply`) runs.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from normandy_lab.engine.reasons import EXEMPT
from normandy_lab.engine.report import SupplyReport, UnitSupply
from normandy_lab.engine.state import GameState, Unit
from normandy_lab.engine.zoc import hex_control
from normandy_lab.grids import grid
from normandy_lab.rules.api import Situation
from normandy_lab.rules.bfn.explain import SideReasons
from normandy_lab.rules.bfn.lines import Limits, TraceNet
from normandy_lab.rules.bfn.passes import US, SideContext, SideVerdicts, determine_side
from normandy_lab.rules.bfn.sequence import attack_after_supply
from normandy_lab.rules.common import edge_road_hexes
from normandy_lab.terrain import terrain_map
from normandy_lab.terrain.vocab import VOCABULARIES


def german_sources(state: GameState, rules, situation: Situation | None = None) -> list[int]:
    """7.4: road hexes leaving the east or south map edge, and German-controlled supply-city hexes.

    ``situation`` when already found (its zones of control decide who holds a city hex, 3.3).
    """
    cities = _city_hexes(state.system, frozenset(state.german_supply_cities))
    zoc, occupied = (situation.zoc, situation.occupied) if situation is not None else (None, None)
    held = cities[hex_control(state, zoc, occupied, at=cities) != "allied"]
    return sorted(set(edge_road_hexes(state.system, state.maps)) | set(held.tolist()))


@lru_cache(maxsize=32)
def _city_hexes(system: str, cities: frozenset[str]) -> np.ndarray:
    """Return the City hexes of the named built-up areas (7.4); they depend only on the map."""
    tmap = terrain_map(system, progress=False)
    builtup = tmap.hexes["builtup_name"].to_numpy()
    settlement = tmap.hexes["settlement"].to_numpy()
    return np.nonzero((settlement == "City") & np.isin(builtup, sorted(cities)))[0]


@lru_cache(maxsize=8)
def _beach_hexes(system: str) -> np.ndarray:
    """Return the Beach hexes of a map (the landing rows beside a beachhead, 19.4.1)."""
    tmap = terrain_map(system, progress=False)
    return tmap.hexes["terrain"].to_numpy() == VOCABULARIES[system].beach


def side_context(
    state: GameState, side: str, lines: TraceNet, limits: Limits, situation: Situation
) -> SideContext:
    """Return what every pass of one side reads (:class:`~.passes.SideContext`): units, sources, readings.

    7.4: Allied sources are the beachheads (19.4.1: with a complete Mulberry, under the
    ``mulberry_sources`` reading "beach_rows", the beach hexes beside it too), Combat Supply from a
    beachhead of the unit's own nation; German sources the map-edge roads (Combat Supply too) and the
    supply cities (General Supply only).
    """
    rules = state.rules
    units = state.units_of(side)
    at = np.array([situation.position[u.id] for u in units], dtype=np.int64)
    hqs_by_hex: dict[tuple[int, str], Unit] = {}  # (hex, HQ kind) -> the HQ there
    for k, u in enumerate(units):
        if u.hq:
            hqs_by_hex.setdefault((int(at[k]), u.hq), u)
    readings = {key: state.options.get(key, rules.options.get(key)) for key in READING_KEYS}
    if side == "allied":
        rows = {b.name: _beach_rows(state, lines, b, readings["mulberry_sources"]) for b in state.beachheads}
        sources = sorted({h for hexes in rows.values() for h in hexes})
        by_army = {
            "US": sorted({h for b in state.beachheads if b.nationality in US for h in rows[b.name]}),
            "CW": sorted({h for b in state.beachheads if b.nationality not in US for h in rows[b.name]}),
        }
    else:
        sources = german_sources(state, rules, situation)
        by_army = {"DE": sorted(set(edge_road_hexes(state.system, state.maps)))}
    return SideContext(
        state, side, lines, rules, limits, situation, units, at, {u.id: k for k, u in enumerate(units)},
        readings, sources, by_army, hqs_by_hex,
    )  # fmt: skip


def _beach_rows(state: GameState, lines: TraceNet, beachhead: Any, reading: str) -> list[int]:
    """Return a beachhead's source hexes: its hex, and beside it a Mulberry's beach hexes (19.4.1)."""
    at = lines.g.index(beachhead.hex)
    if beachhead.name not in state.mulberries or reading != "beach_rows":
        return [at]
    beach = _beach_hexes(state.system)
    return sorted({at} | {n for n in lines.land_neighbours(at) if beach[n]})


# The rule readings where the rulebook is open (their defaults and meanings: rules.bfn.READINGS).
READING_KEYS = (
    "german_artillery_attach", "combat_supply_chain", "isolation_corps_hq", "hq_bridging", "mulberry_sources",
)  # fmt: skip


class BfnDetermination:
    """The determination behind a BfN supply report: both sides' verdicts, which answer for the ranges."""

    def __init__(self, state: GameState, sides: dict[str, SideVerdicts], limits: Limits) -> None:
        self.state, self.sides, self.limits = state, sides, limits

    def supply_range(self, hq_or_source: str) -> set[str]:
        """Return the hexes from which a unit could trace to an HQ (unit id) or a source hex.

        The hexes within 6 hexes or 6 MPs (halved in bad weather) by a legal
        line (7.3.1), the unit's own first step across water included.
        """
        sides, limits = self.sides, self.limits
        g = grid(self.state.system)
        group = None
        if hq_or_source in {u.id for u in self.state.units}:
            unit = self.state.unit(hq_or_source)
            side, target = unit.side, g.index(unit.hex)
            if unit.hq in ("division", "kg"):
                group = sides[side].unit_lines.group_of.get(unit.formation)
        else:
            target = g.index(hq_or_source)
            side = "allied" if target in self.sides["allied"].ctx.sources else "german"
        if group is not None:
            cover = sides[side].unit_lines.ranges.covered(group)
        else:
            ranges = sides[side].ctx.lines.ranges([[target]], [[]], np.empty(0, dtype=np.int64), limits)
            cover = ranges.covered(0)
        return set(g.id_array[cover].tolist())

    def hq_ranges_at(self) -> dict[str, np.ndarray]:
        """Return, per side, the names of the in-supply HQs whose range covers each hex ("; "-joined).

        Division (and KG) HQs by id, and "corps HQ" for the corps HQs' ranges (7.2, 7.3.1).
        """
        out = {}
        for side, verdicts in self.sides.items():
            found = verdicts.unit_lines
            text = np.full(len(grid(self.state.system)), "", dtype=object)
            for name, group in zip(found.cover_names, found.cover_groups, strict=True):
                hit = found.ranges.covered(group)
                text[hit] = [f"{t}; {name}" if t else name for t in text[hit]]
            out[side] = text
        return out


def determine_supply(state: GameState) -> SupplyReport:
    """Determine the General and Combat Supply of every unit (BfN 7.x) with the reasons.

    Each side is determined pass by pass (:func:`~.passes.determine_side`), its reports made from the
    passes' results; the reasons of the units out of supply are worked out when first read
    (:class:`~.explain.SideReasons`: the first unit read alone, then the rest of its side at once).

    Returns
    -------
    SupplyReport
        ``report[unit_id]`` gives a :class:`UnitSupply`.
    """
    rules = state.rules
    g = grid(state.system)
    halved = bool(rules.weather_effects[state.weather]["supply_halved"])
    factor = 0.5 if halved else 1.0  # 7.3.3
    limits = Limits(
        hexes=rules.supply["unit_range_hexes"] * factor,
        mp=rules.supply["unit_range_mp"] * factor,
        division=rules.supply["division_hq_range_mp"] * factor,
    )
    situation = Situation.of(state)
    reports: dict[str, UnitSupply] = {}
    sides: dict[str, SideVerdicts] = {}
    for side in ("allied", "german"):
        verdicts = determine_side(
            side_context(state, side, TraceNet(state, side, situation), limits, situation)
        )
        sides[side] = verdicts
        mine = verdicts.reports()
        # The reasons are worked out when first read: the verdicts are complete now.
        waiting = [r for r in mine.values() if not r.general]
        if waiting:
            reasons = SideReasons(verdicts, mine)
            for r in waiting:
                r.explain_later(reasons.hook(r.unit_id))
        reports.update(mine)
    # 7.5, June 6th exceptions: on the 6 June Night and Beach Invasion turns,
    # paratroops, invasion units and every German unit are in general and
    # combat supply whatever their lines.
    if state.turn in ("6 June Night", "6 June Invasion"):
        for r in reports.values():
            if not (r.general and r.combat):
                r.exempt("6 June exception", EXEMPT, "7.5", "in supply by the 6 June exception (7.5)")
    report = SupplyReport(
        state=state,
        units=reports,
        sources={side: [str(g.id_array[s]) for s in d.ctx.sources] for side, d in sides.items()},
        halved=halved,
    )
    report.determination = BfnDetermination(state, sides, limits)
    return report


def side_lines(state: GameState, side: str) -> TraceNet:
    """One side's lines on a state, built on their own (for the references and the benchmark)."""
    return TraceNet(state, side, Situation.of(state))


def defensive_support_eligible(report: SupplyReport, unit_id: str) -> bool:
    """Return whether a unit may receive defensive artillery support as far as supply goes (12.5.4).

    A unit in General Supply may; an out-of-supply unit may if it is within
    three hexes (in any weather) of another friendly unit in General Supply.
    """
    state = report.state
    unit = state.unit(unit_id)
    if report[unit_id].general:
        return True
    g = grid(state.system)
    reach = state.rules.supply["defensive_support_hexes"]
    return any(
        report[other.id].general and g.distance(unit.hex, other.hex) <= reach
        for other in state.units_of(unit.side)
        if other.id != unit_id
    )


def effective_strength(unit: Unit, report: SupplyReport, attack: int) -> int:
    """Return an attack strength after the unit's supply (7.5): the one rule, :func:`attack_after_supply`."""
    return attack_after_supply(attack, report[unit.id].general)
