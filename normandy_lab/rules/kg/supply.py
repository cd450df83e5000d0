"""The Killing Ground's Build-up supply (26.9-26.11, 26.16.2, 26.20.6), over the core's searches.

Allied, from Turn 3 (Turns 1-2 are exempt, 26.11.1): the corps HQs are *supported* first -- automatically
within the Corps HQ Support Radius (set by the nationality's Mulberry level, 26.10.5) of a beach hex of
their own army, otherwise for ``ceil(d / R) - 1`` SP, paid from the army's reserve cheapest first; an
isolated HQ gets none (26.10.1).  A combat unit is in supply within 3 hexes of a supported HQ of its
army or of an Allied-controlled beach landing hex (a beach acts as a supported HQ, 26.9.1; Utah only by
its intended hexes).  An HQ offshore, in a landing box or a floating reserve, is supported (26.10.1).

German: a corps HQ is supported when its line reaches a German off-map box (KG 11.2.3: RECONSTRUCTED as a
line of any length); the Cherbourg HQ while N1410 is German (26.10.7).  A mechanized unit, or one with a
corps designation, traces at most 6 hexes to a supported corps HQ; any other unit at most 6 to a German
city hex whose road line of any length leaves the south or east edge for a German off-map box, or to a
Cherbourg city hex while N1410 is German (26.11.2).  The off-map boxes are virtual nodes of the search.

A line counts one a hex (KG 11.3 is a GAP: RECONSTRUCTED), may not enter enemy units or a vacant hex in
an enemy ZOC (a battalion ZOC too, by the default of the option ``battalion_zoc_blocks_supply``), and
crosses rivers (RECONSTRUCTED: the base rules' treatment is a GAP).  Units off the map, in a box, trace
no line: they keep the supply the set-up or their arrival roll gave them (26.16.2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from normandy_lab.engine.layered import LayeredGraph, Link, Move, box_links
from normandy_lab.engine.lines import Situation, interdicted_mask
from normandy_lab.engine.reasons import CUT_OFF, EXEMPT, OUT_OF_RANGE
from normandy_lab.engine.report import SupplyReport, UnitSupply, Zone
from normandy_lab.engine.search import FAR
from normandy_lab.engine.state import GameState, other_side
from normandy_lab.engine.zoc import hex_control, zoc_mask
from normandy_lab.gamemap import game_map
from normandy_lab.grids import grid
from normandy_lab.rules.kg.cities import provenance
from normandy_lab.rules.kg.data import BEACH_HEXES, CW_BEACHES, DEPOT_HEXES, US_BEACHES, turn_of
from normandy_lab.rules.kg.nests import standing_nests

# 26.11.2's target for a German unit without a corps designation: the derived map's city hexes (RECONSTRUCTED
# but Caen's and Cherbourg's, normandy_lab.rules.kg.cities), so an out-of-range verdict says it rests on them.
CITY_WORDS = (
    "German city hex whose road reaches an off-map box "
    "(the derived map's: RECONSTRUCTED but Caen and Cherbourg)"
)
# By the standard rules (22.7) the German city hexes serve no more; Cherbourg's do (22.7.6a keeps 26.11.2's
# "Cherbourg and Supply").
CHERBOURG_WORDS = "Cherbourg city hex, serving while N1410 is German (26.11.2, kept by 22.7.6a)"
ARMY = {"US": "US", "FR": "US", "UK": "UK", "CA": "UK", "PL": "UK"}


@dataclass
class _Net:
    """One side's plain-hex search graph, blocked hexes and the map's numbering.

    A determination asks for many units' lines to the same targets (an army's beaches and supported
    HQs, the serving city hexes): each set of targets is searched once, and every unit reads its line
    from that search.
    """

    graph: LayeredGraph
    blocked: np.ndarray
    index: Any
    ids: np.ndarray
    index_of: dict[str, int]  # a canonical hex id's index (the ids lines are written in)
    _searched: dict = field(default_factory=dict)

    def line(self, targets: list[int], origin: int) -> tuple[int, list[str]]:
        """Return a hex's count to the nearest target (FAR: none) and its line, hex ids from the origin.

        A search of its own that stops once the origin is settled (not kept for other origins).
        """
        if not targets:
            return FAR, []
        blocked = self.graph.node_mask(self.blocked)
        count, nodes = self.graph.line_of(np.array(sorted(set(targets)), dtype=np.int64), blocked, origin)
        return (FAR, []) if count >= FAR else (count, self.ids[nodes].tolist())

    def lines(self, targets: list[int], origins: list[int]) -> list[tuple[int, list[str]]]:
        """Return, for each origin, its count to the nearest target (FAR: none) and its line."""
        if not targets or not origins:
            return [(FAR, [])] * len(origins)
        key = tuple(sorted(set(targets)))
        if key not in self._searched:
            blocked = self.graph.node_mask(self.blocked)
            self._searched[key] = (blocked, *self.graph.search(np.array(key, dtype=np.int64), blocked))
        blocked, dist, pred = self._searched[key]
        best, ptr, flat = self.graph.lines(dist, pred, blocked, np.array(origins, dtype=np.int64))
        ids, bounds = self.ids[flat].tolist(), ptr.tolist()
        return [
            (FAR, []) if count >= FAR else (count, ids[bounds[j] : bounds[j + 1]])
            for j, count in enumerate(best.tolist())
        ]


def _net(state: GameState, side: str, situation: Situation) -> _Net:
    """Build a side's net: land hexsides at 1 a hex, blocked by enemy units and the ZOCs the option counts."""
    gmap = game_map(state.system)
    enemy = other_side(side)
    if state.options.get("battalion_zoc_blocks_supply", True):
        zoc = situation.zoc[enemy]  # every ZOC, of both classes: the situation's own
    else:  # the full ZOCs alone
        counted = np.zeros(len(gmap.grid), dtype=bool)
        zoc_class = state.rules.zoc_class
        exempt = state.rules.zoc_exempt(state)
        for u in state.units_of(enemy):
            if u.status == "active" and u.id not in exempt and zoc_class(u) == "full":
                counted[situation.position[u.id]] = True
        zoc = zoc_mask(state, enemy, counted)
    ezoc = zoc & ~situation.negating[side]
    blocked = situation.occupied[enemy] | ezoc | interdicted_mask(state) | gmap.closed(state.maps)
    return _Net(_plain_graph(state.system), blocked, gmap.grid.index, gmap.grid.id_array, gmap.grid.index_of)


@lru_cache(maxsize=4)
def _city_hexes(system: str) -> np.ndarray:
    """Return a map's City hexes (26.11.2's German city hexes; they depend on the map alone)."""
    hexes = game_map(system).terrain.hexes
    out = np.nonzero((hexes["settlement"] == "City").to_numpy())[0]
    out.setflags(write=False)
    return out


@lru_cache(maxsize=4)
def _beach_hexes(system: str) -> dict[int, str]:
    """Return the beach landing hexes (26.11.1) by hex index, each with its beach's name."""
    g = game_map(system).grid
    return {g.index(h): beach for beach, hexes in BEACH_HEXES.items() for h in hexes}


@lru_cache(maxsize=4)
def _place_names(system: str) -> np.ndarray:
    """Return each hex's built-up area name ("" or None where none; it depends on the map alone)."""
    names = game_map(system).terrain.hexes["builtup_name"].to_numpy().copy()
    names.setflags(write=False)
    return names


@lru_cache(maxsize=4)
def _plain_graph(system: str) -> LayeredGraph:
    """Return a map's plain-hex graph: every land hexside, 1 a step (it depends on the map alone)."""
    e = game_map(system).edges
    return LayeredGraph(len(game_map(system).grid), 1, e.src, e.dst, [Move(0, 0, ~e.all_sea, 1)])


def determine(state: GameState) -> SupplyReport:
    """Determine every unit's Build-up supply (26.9-26.11), with reasons."""
    situation = Situation.of(state)
    # Who holds the hexes these rules ask about (the beach landing hexes, the city hexes, N1410), read
    # at those hexes alone (3.3-style control, :func:`~normandy_lab.engine.zoc.hex_control`).
    g = game_map(state.system).grid
    beaches = set(_beach_hexes(state.system))
    key = g.index(state.rules.supply["cherbourg_key_hex"])
    asked = np.array(sorted(beaches | set(_city_hexes(state.system).tolist()) | {key}), dtype=np.int64)
    held = hex_control(state, situation.zoc, situation.occupied, at=asked)
    control = {side: np.zeros(len(g), dtype=bool) for side in ("allied", "german")}
    for side, mask in control.items():
        mask[asked] = held == side
    rows: dict[str, UnitSupply] = {}
    sources: dict[str, list[str]] = {}
    ranges = KgRanges(state)
    standard = standard_rules(state)
    for side in ("allied", "german"):
        net = _net(state, side, situation)
        ranges.nets[side] = net
        determine_side = (_allied_standard if standard else _allied) if side == "allied" else _german
        side_rows, side_sources = determine_side(state, situation, control, net, ranges)
        rows.update(side_rows)
        sources[side] = side_sources
    report = SupplyReport(state=state, units=rows, sources=sources, halved=False)
    report.determination = ranges
    return report


def _rows_and_groups(
    units: list[Any], limit: str, key: Any
) -> tuple[dict[str, UnitSupply], dict[Any, list[Any]]]:
    """Start a side's reports, and group its combat units on the map by ``key`` (those that trace together).

    HQs are left out of the groups (they are supported first); a unit in a box traces no line and is
    reported at once (:func:`_off_map`).  One pass over the units: a determination makes hundreds.
    """
    rows: dict[str, UnitSupply] = {}
    groups: dict[Any, list[Any]] = {}
    for u in units:
        row = rows[u.id] = UnitSupply(u.id, u.side, u.hex)
        row.limit = limit
        if u.hq is not None:
            continue
        if u.status != "active":
            _off_map(row, u)
            continue
        groups.setdefault(key(u), []).append(u)
    return rows, groups


def _off_map(row: UnitSupply, unit: Any) -> None:
    """Report a unit in a box: it traces no line, keeping the supply it was given (its mark, 26.16.2)."""
    if unit.attr("out_of_supply", False):
        row.fill(
            traced_kind="off the map",
            code=CUT_OFF,
            rule="26.16.2",
            reason=f"in {unit.box}, off the map, marked out of supply on arrival (26.16.2): it traces on "
            "coming on",
        )
    else:  # in supply by its place, without a line: reported as an exemption, with its rule
        words = f"in {unit.box}, off the map: supplied offshore or beyond the edge"
        row.fill(
            general=True,
            combat=True,
            traced_kind="off the map",
            code=EXEMPT,
            rule="26.10.1, 26.4.7",
            traced_to=words,
            reason=words,
        )


def _explain(row: UnitSupply, count: int, limit: int, what: str, rule: str) -> None:
    """Say why a unit is out: cut off, or its nearest target too far (with the count of the best line).

    The verdict's fields are set now; the sentence when first read (most reports are never shown).
    """

    def say() -> None:
        row.explain_later(None)  # cleared first: reading the report while explaining must not recurse
        if count >= FAR:
            row.reason = f"no legal line of any length to any {what} ({rule})"
        else:
            row.reason = (
                f"the nearest {what} is {count} hexes away by a legal line; the limit is {limit} ({rule})"
            )

    if count >= FAR:
        row.fill(code=CUT_OFF, rule=rule, isolated=True)
    else:
        row.fill(code=OUT_OF_RANGE, rule=rule, length_hexes=float(count), shortfall=float(count - limit))
    row.explain_later(say)


def _traced(row: UnitSupply, count: int, path: list[str], kind: str, words: Any) -> None:
    """Record a unit's line in supply: its count, its hexes, what it reached; its words when first read."""
    row.fill(
        general=True, combat=True, length_hexes=float(count), path=path, traced_kind=kind, traced_id=path[-1],
    )  # fmt: skip
    row.words_later(words)


def _german_words(what: str, end: str, count: int, port: bool) -> Any:
    """Return what makes a German line's words when first read: its target, and the port's rule if that.

    A city hex the derived map RECONSTRUCTS (:mod:`.cities`) is named with its town and said to be one.
    """
    if port:
        what = "Cherbourg city hex"
        return lambda: f"the {what} at {end}, serving while N1410 is German, {count} hexes (26.11.2)"

    def words() -> str:
        city = provenance(end) if what.startswith("German city hex") else None
        if city is not None and city.reconstructed:
            return (
                f"the {what} at {end} ({city.town}: a city hex RECONSTRUCTED from the 1944 built-up layer, "
                f"the printed map's are not in the text), {count} hexes (26.11.2)"
            )
        return f"the {what} at {end}, {count} hexes (26.11.2)"

    return words


def support_radius(rules: Any, level: int) -> int:
    """Return the Corps HQ Support Radius of a Mulberry level (26.10.5; RECONSTRUCTED but for level 5)."""
    table = rules.supply["support_radius"]
    return table[min(max(level, 0), max(table))]


def support_cost(distance: int, radius: int) -> int:
    """Return the SP to support an HQ ``distance`` hexes from its beach (26.10.5: 0 within the radius)."""
    return 0 if distance <= radius else math.ceil(distance / radius) - 1


def standard_rules(state: GameState) -> bool:
    """Tell whether a state is traced by the standard rules' supply (the reading ``standard_rules``).

    ``by_stage`` (the default): once the Build-up is over (the marker ``stage`` is ``killing_ground``: 26.3.2,
    26.21.2; 22.7 starts there, 22.7.1); ``standard`` or ``build_up`` force one or the other.
    """
    reading = _reading(state, "standard_rules")
    if reading == "by_stage":
        return state.markers["stage"] == "killing_ground"
    return reading == "standard"


STANDARD_WORDS = "standard rules (reading standard_rules)"


def _allied_standard(state: GameState, situation: Situation, control: dict, net: _Net, ranges: KgRanges):
    """Allied supply by the standard rules as far as the text gives them (22.7.1, 26.21.2, 26.11.1).

    * Sources: each army's depot (26.19.3: the depots stand for the base game's depot locations, 11.1.3;
      26.21.2 places them and ends the beaches' service, 26.11.1 "until the Depots are built"); the hexes are
      22.7's printed Depot Locations (``data.DEPOT_HEXES``), held unless German controlled.
    * A corps HQ is supported when a line of any length reaches its army's depot (as a German HQ's to its
      box: KG 11.2 RECONSTRUCTED).  10.5.1's support radius and its SP are the base game's: not in the text,
      so not charged (said in the reason).
    * A combat unit is in supply within 6 hexes of a supported HQ of its army (26.11.1: the Build-up's 3
      hexes replace "the 6 hex range of the standard rules (see 11.4.1)").
    """
    rules = state.rules
    limit = rules.supply["standard_unit_range"]
    units = [u for u in state.units if u.side == "allied" and u.status in ("active", "off_map")]
    words = f"{limit} hexes to a supported HQ of its army (11.4.1 per 26.11.1; {STANDARD_WORDS})"
    rows, by_army = _rows_and_groups(units, words, lambda u: ARMY.get(u.nationality, "UK"))
    depots = {}
    for army, hex_id in DEPOT_HEXES.items():
        i = net.index(hex_id)
        if not control["german"][i]:
            depots[army] = i
            ranges.hubs["allied"][f"{army} depot {hex_id}"] = i
    supported: dict[str, list[int]] = {"US": [], "UK": []}
    for u in units:
        if u.hq is None:
            continue
        row = rows[u.id]
        row.fill(readings={"standard_rules": _reading(state, "standard_rules")})
        if u.status != "active":
            row.fill(general=True, combat=True, traced_kind="offshore", code=EXEMPT, rule="26.21.2")
            row.traced_to = row.reason = f"in {u.box or 'reserve'}, off the map: supported (26.21.2)"
            continue
        army = ARMY.get(u.nationality, "UK")
        row.limit = f"any length to its army's depot ({STANDARD_WORDS})"
        depot = depots.get(army)
        count, path = net.line([depot], situation.position[u.id]) if depot is not None else (FAR, [])
        if count >= FAR:
            row.fill(code=CUT_OFF, rule="26.21.2", isolated=True)
            row.reason = (
                f"unsupported: no line of any length to the {army} depot at {DEPOT_HEXES[army]} (22.7.2's "
                f"Depot Locations, 26.19.3, 26.21.2; {STANDARD_WORDS})"
            )
            continue
        row.fill(general=True, combat=True, traced_kind="supported", path=path, length_hexes=float(count),
                 traced_id=path[-1])  # fmt: skip
        row.traced_to = (
            f"supported: its line reaches the {army} depot at {DEPOT_HEXES[army]} (22.7.2's Depot "
            f"Locations), {count} hexes; the base game's support radius and SP cost (10.5.1) are not in the "
            f"text and not charged ({STANDARD_WORDS})"
        )
        supported[army].append(situation.position[u.id])
        ranges.hubs["allied"][u.id] = situation.position[u.id]
    ranges.limits["allied"] = limit
    for army, members in by_army.items():
        found = net.lines(supported[army], [situation.position[u.id] for u in members])
        for u, (count, path) in zip(members, found, strict=True):
            row = rows[u.id]
            row.fill(readings={"standard_rules": _reading(state, "standard_rules")})
            if count > limit:
                _explain(row, count, limit, f"supported HQ of its army ({STANDARD_WORDS})", "11.4.1, 26.11.1")
                continue
            end = path[-1]
            _traced(row, count, path, "corps HQ",
                    lambda end=end, count=count: f"a supported corps HQ at {end}, {count} hexes (11.4.1 per "
                    f"26.11.1; {STANDARD_WORDS})")  # fmt: skip
    return rows, sorted(net.ids[list(depots.values())].tolist())


def _allied(state: GameState, situation: Situation, control: dict, net: _Net, ranges: KgRanges):
    rules = state.rules
    limit = rules.supply["allied_unit_range"]
    units = [u for u in state.units if u.side == "allied" and u.status in ("active", "off_map")]
    words = f"{limit} hexes to a supported HQ or a beach landing hex (26.11.1)"
    rows, by_army = _rows_and_groups(units, words, lambda u: ARMY.get(u.nationality, "UK"))
    # 26.11.1: an Allied-controlled beach landing hex.  The beaches were taken on D-Day and stay Allied
    # until the Germans take one back (hold it, or cover it alone with their ZOC): a beach behind the
    # front that nobody contests is Allied (INFERRED, as German control is, 26.11.2).
    german = control["german"]
    beach_of = {i: beach for i, beach in _beach_hexes(state.system).items() if not german[i]}
    if turn_of(state.date) <= rules.supply["exempt_until_turn"]:
        for u in units:
            row = rows[u.id]
            row.general = row.combat = True
            row.traced_kind, row.code, row.rule = "exempt", EXEMPT, "26.11.1"
            row.traced_to = row.reason = (
                "in supply without a line: every Allied unit is on Turns 1 and 2 (26.11.1)"
            )
        return rows, sorted(net.ids[list(beach_of)].tolist())
    # 26.10.1, 26.10.5: the corps HQs are supported first, in 26.10.1's order, while the army's SP last: the
    # SP the army held at this turn's Corps and Artillery Support segment, if it has been played (what it
    # paid there is back in the budget: the same HQs are paid for, once).
    budget = support_budget(state)
    sp = dict(budget)  # what is left as the HQs are paid
    marked = began_unsupported(state)
    held_when = " at this turn's Corps and Artillery Support segment" if paid_this_turn(state) else ""
    supported: dict[str, list[int]] = {"US": [], "UK": []}
    hqs = [u for u in units if u.hq is not None]
    costs = []
    for u in hqs:
        row = rows[u.id]
        army = ARMY.get(u.nationality, "UK")
        if u.status != "active":  # 26.10.1: an HQ in a landing box or the floating reserve is supported
            row.general = row.combat = True
            row.traced_kind, row.code, row.rule = "offshore", EXEMPT, "26.10.1"
            row.traced_to = row.reason = f"offshore in {u.box or 'reserve'}: supported (26.10.1)"
            continue
        own = [i for i, b in beach_of.items() if b in (US_BEACHES if army == "US" else CW_BEACHES)]
        at = situation.position[u.id]
        d, row.path = net.line(own, at)
        level = state.markers["mulberry"]["A" if army == "US" else "B"]
        radius = support_radius(rules, level)
        costs.append((support_cost(d, radius) if d < FAR else None, u, army, radius, d))
    _pay_allied_hqs(costs, marked, budget, sp, held_when, rows, ranges, supported, situation)
    for i in beach_of:
        ranges.hubs["allied"][str(net.ids[i])] = i
    ranges.limits["allied"] = limit
    for army, beaches in (("US", US_BEACHES), ("UK", CW_BEACHES)):
        level = state.markers["mulberry"]["A" if army == "US" else "B"]
        own = sorted(i for i, b in beach_of.items() if b in beaches)
        held = budget.get(army, 0)  # before any HQ is supported this turn
        ranges.support[army] = (own, support_radius(rules, level), level, held)
    for army, members in by_army.items():
        targets = list(beach_of) + supported[army]
        found = net.lines(targets, [situation.position[u.id] for u in members])
        for u, (count, path) in zip(members, found, strict=True):
            _allied_line(rows[u.id], count, path, limit, beach_of, net)
    return rows, sorted(net.ids[list(beach_of)].tolist())


def _pay_allied_hqs(
    costs: list, marked: set[str], budget: dict[str, int], sp: dict[str, int], held_when: str, rows: dict,
    ranges: KgRanges, supported: dict[str, list[int]], situation: Situation,
) -> None:  # fmt: skip
    """Pay for the landed Allied corps HQs in the two parts of 26.10.1, in the order the rule gives.

    Part 1: 1 SP lifts the Unsupported marker of each HQ that began the segment under one, while the army
    has SP (an isolated HQ may receive none); an HQ whose marker is not lifted stays Unsupported.  Part 2:
    each HQ beyond its Mulberry radius is given its SP (26.10.5): the HQs whose marker was just lifted
    first, then the rest; within each, the cheapest first (the most HQs for the SP), ties by unit id (the
    text leaves that choice to the player).  ``costs`` holds (radius cost or None if isolated, unit, army,
    radius, hexes) for each HQ ashore; ``sp`` is spent as the HQs are paid.
    """
    lifted: set[str] = set()
    lifts_due = {"US": 0, "UK": 0}  # 26.10.1 part 1: the SP every marker an army must lift costs
    for cost, u, army, _, _ in costs:
        lifts_due[army] += int(u.id in marked and cost is not None)
    lifts_seen = {"US": 0, "UK": 0}
    for cost, u, army, radius, d in sorted(costs, key=lambda c: (c[0] or 0, c[1].id)):
        if u.id not in marked or cost is None:
            continue
        lifts_seen[army] += 1
        if sp.get(army, 0) >= 1:
            sp[army] -= 1
            ranges.paid[army] += 1
            lifted.add(u.id)
            continue
        row = rows[u.id]
        row.limit = f"Mulberry radius {radius} of an own beach, else SP (26.10.5)"
        row.length_hexes = float(d)
        row.code, row.rule = OUT_OF_RANGE, "26.10.1"
        held = budget.get(army, 0)
        row.reason = (
            "unsupported: it began the segment under an Unsupported marker, and lifting the markers comes "
            f"first at 1 SP each; the {army} army would need {lifts_seen[army]} SP to lift this one and "
            f"holds {held}{held_when} (26.10.1)"
        )
    # The SP an army spends, in paying order, before an HQ's radius cost is asked (its lifts included).
    spent_before = dict(lifts_due)
    # Every marked HQ comes first (with the SP to lift them all, each is lifted): so an HQ's need counts
    # the radius costs of the marked ones even where a marker could not be lifted this time.
    order = sorted(costs, key=lambda c: (c[0] is None, c[1].id not in marked, c[0] or 0, c[1].id))
    for cost, u, army, radius, d in order:
        row = rows[u.id]
        row.limit = f"Mulberry radius {radius} of an own beach, else SP (26.10.5)"
        if cost is None:
            row.code, row.rule, row.isolated = CUT_OFF, "26.10.1", True
            row.reason = "isolated from its army's beaches: no SP may support it (26.10.1)"
            continue
        row.length_hexes = float(d)
        before, spent_before[army] = spent_before[army], spent_before[army] + cost
        if u.id in marked and u.id not in lifted:
            continue  # its marker stays: said in part 1
        marker = (
            " (after 1 SP lifted the Unsupported marker it began the turn under)" if u.id in lifted else ""
        )
        if cost <= sp.get(army, 0):
            sp[army] -= cost
            ranges.paid[army] += cost
            row.general = row.combat = True
            row.traced_kind, row.traced_id = "supported", row.path[-1] if row.path else ""
            if cost == 0:
                row.traced_to = (
                    f"its army's beach, supported without SP within the Mulberry radius of {radius}{marker} "
                    "(26.10.5" + (", 26.10.1)" if marker else ")")
                )
            else:
                row.traced_to = (
                    f"its army's beach, supported for {cost} SP of the {army} army beyond the Mulberry "
                    f"radius of {radius}{marker} (26.10.1, 26.10.5)"
                )
            supported[army].append(situation.position[u.id])
            ranges.hubs["allied"][u.id] = situation.position[u.id]
        else:
            row.code, row.rule = OUT_OF_RANGE, "26.10.5"
            # The HQs paid before it come first (the lifted markers, then cheaper HQs): with their SP and
            # its own, the army pays for it whatever the others turn out to cost.
            held = budget.get(army, 0)
            first = (
                f"with what comes before it in 26.10.1's order paid first ({before} SP: the Unsupported "
                "markers lifted, then the radius costs of the HQs that bore them, then of the cheaper HQs), "
                if before
                else ""
            )
            row.reason = (
                f"unsupported: {d} hexes from its army's beaches needs {cost} SP beyond the radius {radius}"
                f"{marker}; {first}the {army} army would need {before + cost} SP and holds {held}"
                f"{held_when} (26.10.1, 26.10.5)"
            )


def paid_this_turn(state: GameState) -> Any:
    """Return what this turn's Corps and Artillery Support segment paid (26.10.1), None if not played yet.

    ``hq_support_paid`` is dated with the turn it was paid in: a record of an earlier turn is not this one's.
    """
    paid = state.markers["hq_support_paid"]
    return paid if paid.get("on") == state.date.isoformat() else None


def support_budget(state: GameState) -> dict[str, int]:
    """Return each army's SP for its corps HQs this turn (26.10.1): what it holds, and what it paid already.

    Once this turn's Corps and Artillery Support segment has paid for the HQs, those SP are counted back:
    a determination later in the turn pays the same HQs from the same budget.
    """
    budget = dict(state.markers["army_sp"])
    paid = paid_this_turn(state)
    if paid is not None:
        for army in ("US", "UK", "DE"):
            budget[army] = budget.get(army, 0) + paid.get(army, 0)
    return budget


def began_unsupported(state: GameState) -> set[str]:
    """Return the Allied corps HQs that began this turn's Corps and Artillery Support Unsupported (26.10.1).

    As that segment recorded them once it has been played this turn, else those marked now.
    """
    paid = paid_this_turn(state)
    if paid is not None:
        return set(paid.get("began_unsupported", ()))
    return set(state.markers["hq_unsupported"])


def _allied_line(row: UnitSupply, count: int, path: list[str], limit: int, beach_of: dict, net: _Net) -> None:
    """Record an Allied unit's line to a beach or supported HQ (26.11.1), or why it has none."""
    if count > limit:
        _explain(row, count, limit, "supported HQ of its army or Allied beach landing hex", "26.11.1")
        return
    beach = beach_of.get(net.index_of[path[-1]])
    what = f"the {beach} beach" if beach else "a supported corps HQ"
    kind = "beach" if beach else "corps HQ"
    _traced(row, count, path, kind, lambda: f"{what} at {path[-1]}, {count} hexes (26.11.1)")


def _omm_graph(state: GameState, road_only: bool) -> tuple[LayeredGraph, int]:
    """Return a plain-hex graph with the German off-map boxes as one virtual node (and that node)."""
    boxes = [b for b in state.rules.boxes.values() if b.side == "german"]
    held = tuple(b for b in boxes if state.markers["omm_control"].get(b.name, "german") == "german")
    return _box_graph(state.system, held, road_only)


@lru_cache(maxsize=16)
def _box_graph(system: str, boxes: tuple, road_only: bool) -> tuple[LayeredGraph, int]:
    """Return the graph of :func:`_omm_graph` for some German boxes (it depends on them and the map)."""
    gmap = game_map(system)
    e = gmap.edges
    edges = (e.road > 0) & ~e.all_sea if road_only else ~e.all_sea
    n = len(gmap.grid)
    links: list[Link] = box_links(n, 1, boxes, gmap.grid.index) if boxes else []
    # One node for all German boxes: a line reaching any of them reaches "a German OMM".
    merged = [Link(k.source, n, k.cost) if k.target >= n else Link(n, k.target, k.cost) for k in links]
    return LayeredGraph(n, 1, e.src, e.dst, [Move(0, 0, edges, 1)], n_virtual=1, links=merged), n


def _german(state: GameState, situation: Situation, control: dict, net: _Net, ranges: KgRanges):
    rules = state.rules
    limit = rules.supply["german_unit_range"]
    units = [u for u in state.units if u.side == "german" and u.status in ("active", "off_map")]
    words = f"{limit} hexes to a supported corps HQ or a German city hex (26.11.2)"
    rows, by_kind = _rows_and_groups(units, words, lambda u: bool(u.mechanized or u.corps))
    # German-controlled: every hex the Allies have not taken (held, or in their ZOC alone) -- the Germans
    # held the whole map before the landings (INFERRED: control of a hex nobody contests is not tracked).
    german_held = ~control["allied"]
    key = net.index(rules.supply["cherbourg_key_hex"])
    cherbourg_open = bool(german_held[key])
    # Corps HQs: supported when their line reaches a German off-map box (RECONSTRUCTED, KG 11.2.3), and
    # paid for (26.10.6); the Cherbourg HQ by its own rule (26.10.7).
    graph, omm = _omm_graph(state, road_only=False)
    blocked = graph.node_mask(net.blocked)
    dist, pred = graph.search(np.array([omm]), blocked)
    # 26.10.7, 26.20.6: whether a supply line runs from N1410 to a German off-map box.
    key_reaches_omm = bool(graph.from_origins(dist, blocked, np.array([key]))[0][0] < FAR)
    ranges.fortress_due = not key_reaches_omm
    supported: list[int] = []
    vii_army: list[tuple[Any, list[str]]] = []  # the HQs with a line, to be paid for (26.10.6)
    for u in units:
        if u.hq is None:
            continue
        row = rows[u.id]
        if u.status != "active":
            _off_map(row, u)
            continue
        at = situation.position[u.id]
        row.limit = "any length to a German off-map box"
        if "cherbourg" in u.name.lower():
            if _cherbourg_hq(state, row, net, at, key, cherbourg_open, key_reaches_omm, ranges):
                supported.append(at)
                ranges.hubs["german"][u.id] = at
            continue
        best, _, flat = graph.lines(dist, pred, blocked, np.array([at]))
        if best[0] < FAR:  # its line, hex by hex, to the edge the box lies beyond
            vii_army.append((u, net.ids[flat[flat < len(net.ids)]].tolist()))
        else:
            row.code, row.rule, row.isolated = CUT_OFF, "26.10.1", True
            row.reason = (
                "unsupported: no line of any length to a German off-map box (KG 11.2.3, RECONSTRUCTED)"
            )
    # 26.10.6: "only one Corps HQ each turn can be freely supported" (two once V Panzer Army is active,
    # 26.20.1); each other costs 1 SP (the German cost summary: "Support an HQ Unit 1").  Which HQ goes
    # free, and which go unpaid when the SP run short, is the German player's choice: taken here in the
    # order of their unit ids.
    free = 2 if state.markers["v_panzer"]["active"] else 1
    budget = support_budget(state).get("DE", 0)
    held_when = " at this turn's Corps and Artillery Support segment" if paid_this_turn(state) else ""
    left = budget
    for k, (u, path) in enumerate(sorted(vii_army, key=lambda x: x[0].id)):
        row = rows[u.id]
        row.path = path
        if k < free:
            row.fill(general=True, combat=True, traced_kind="supported")
            row.traced_to = "supported: its line reaches a German off-map box (KG 11.2.3 RECONSTRUCTED); " + (
                "the HQ 26.10.6 supports free this turn"
                if free == 1
                else "one of the two HQs supported "
                "free this turn once V Panzer Army is active (26.10.6, 26.20.1)"
            )
        elif left >= 1:
            left -= 1
            ranges.paid["DE"] += 1
            row.fill(general=True, combat=True, traced_kind="supported")
            row.traced_to = (
                "supported: its line reaches a German off-map box (KG 11.2.3 RECONSTRUCTED), for 1 SP of the "
                "German SP (26.10.6: one HQ free a turn, each other 1 SP)"
            )
        else:
            row.code, row.rule = OUT_OF_RANGE, "26.10.6"
            row.length_hexes = float(len(path) - 1)
            row.reason = (
                f"unsupported: 26.10.6 supports {free} German HQ{'s' if free > 1 else ''} free a turn and "
                f"each other for 1 SP (taken in the order of unit ids, a choice the text leaves to the "
                f"player); with the {k - free} paid before it the German VII Army would need {k - free + 1} "
                f"SP and holds {budget}{held_when} (26.10.6)"
            )
            continue
        supported.append(situation.position[u.id])
        ranges.hubs["german"][u.id] = situation.position[u.id]
    # 26.11.2: the city hexes that serve -- those whose road line reaches a German box, and Cherbourg's.
    city = _city_hexes(state.system)
    city = city[german_held[city]]
    roads, omm = _omm_graph(state, road_only=True)
    rblocked = roads.node_mask(net.blocked)
    rdist, _ = roads.search(np.array([omm]), rblocked)
    cbest, _ = roads.from_origins(rdist, rblocked, city)
    names = _place_names(state.system)
    standard = standard_rules(state)
    cities = [
        int(c)
        for c, d in zip(city, cbest, strict=True)
        # By the standard rules the city hexes of the Build-up serve no more (26.11.2: "During the
        # Build-up"); Cherbourg's do, 22.7.6 keeping "26.11.2 Cherbourg and Supply" in effect.
        if (d < FAR and not standard) or (names[c] == "Cherbourg" and cherbourg_open)
    ]
    # The Cherbourg city hexes that serve by the port alone (their roads reach no box, 26.11.2).
    by_port = {
        int(c) for c, d in zip(city, cbest, strict=True) if (d >= FAR or standard) and names[c] == "Cherbourg"
    }
    # Mechanized and corps units to the supported corps HQs, the others to the serving city hexes.
    for c in cities:
        ranges.hubs["german"][str(net.ids[c])] = c
    ranges.limits["german"] = limit
    # A unit without a corps designation may trace to a supported HQ: a breakdown battalion always ("Any
    # supported friendly HQ can supply a breakdown battalion", 26.2.3), every unit by the standard rules, the
    # others in the Build-up by the reading german_division_supply.
    either = standard or _reading(state, "german_division_supply") == "hq_or_city"
    division = by_kind.get(False, [])
    to_hqs = [u for u in division if either or u.breakdown]
    hq_lines = _division_hq_lines(situation, net, to_hqs, supported)
    city_words = CHERBOURG_WORDS if standard else CITY_WORDS

    for to_hq, members in by_kind.items():
        targets = supported if to_hq else cities
        what = "supported corps HQ" if to_hq else city_words
        found = net.lines(targets, [situation.position[u.id] for u in members])
        for u, (count, path) in zip(members, found, strict=True):
            row = rows[u.id]
            if standard:
                row.fill(readings={"standard_rules": _reading(state, "standard_rules")})
            if not to_hq:  # 26.11.2 read: "may" trace to a city hex, or to a supported HQ as ever
                if not standard:
                    row.fill(readings={"german_division_supply": "hq_or_city" if either else "city_only"})
                if u.id in hq_lines and hq_lines[u.id][0] < count:  # a tie keeps the city
                    count, path = hq_lines[u.id]
                    if count <= limit:
                        _traced(row, count, path, "corps HQ",
                                _division_hq_words(path[-1], count, u.breakdown, standard))  # fmt: skip
                        continue
            if count > limit:
                if to_hq:
                    why = "supported corps HQ"
                    if u.corps and not u.mechanized:
                        why += f" (a unit with a corps designation, {u.corps}, must trace to one)"
                elif u.id in hq_lines or ((either or u.breakdown) and supported):
                    why = f"supported HQ or {what}"
                else:
                    why = what
                _explain(row, count, limit, why, "26.11.2" if not standard else "11.4.1, 26.11.2")
                continue
            port = not to_hq and net.index_of[path[-1]] in by_port
            kind = "corps HQ" if to_hq else "city"
            _traced(row, count, path, kind, _german_words(what, path[-1], count, port))
    # 26.20.6: Fortress Cherbourg, declared or due.
    hq_at = {situation.position[u.id]: u for u in units if u.hq is not None and u.status == "active"}
    cherbourg_hq = next((u for u in hq_at.values() if "cherbourg" in u.name.lower()), None)
    is_cherbourg = {c for c in cities if names[c] == "Cherbourg"}
    if cherbourg_hq is not None:
        is_cherbourg.add(situation.position[cherbourg_hq.id])
    if cherbourg_hq is not None and not state.markers["fortress_cherbourg"] and not key_reaches_omm:
        rows[cherbourg_hq.id].traced_to += (
            f"; Fortress Cherbourg must be declared this turn: {rules.supply['cherbourg_key_hex']} traces to "
            "no off-map box (26.20.6)"
        )
    if state.markers["fortress_cherbourg"]:
        _fortress_cherbourg(state, situation, rows, net, by_kind, supported, cities, is_cherbourg, limit, key)
    _never_isolated_by_nests(state, situation, rows, units)
    return rows, sorted(net.ids[cities].tolist())


def _reading(state: GameState, name: str) -> Any:
    """Return a reading's value: the state's option, else the rules' default (``rules.kg.data.OPTIONS``)."""
    return state.options.get(name, state.rules.options.get(name))


def _division_hq_lines(
    situation: Situation, net: _Net, members: list[Any], supported: list[int]
) -> dict[str, tuple[int, list[str]]]:
    """Return the lines of German units without a corps designation to the supported HQs (26.11.2 read).

    Empty when the reading ``german_division_supply`` is ``city_only`` (``supported`` is then empty).
    """
    if not supported or not members:
        return {}
    found = net.lines(supported, [situation.position[u.id] for u in members])
    return {u.id: line for u, line in zip(members, found, strict=True) if line[0] < FAR}


def _division_hq_words(end: str, count: int, breakdown: bool = False, standard: bool = False) -> Any:
    """Return the words of a division unit's line to a supported corps HQ, with the rule or reading."""
    if standard:
        return lambda: (
            f"the supported corps HQ at {end}, {count} hexes (11.4.1 per 26.11.1; {STANDARD_WORDS})"
        )
    if breakdown:
        return lambda: (
            f"the supported corps HQ at {end}, {count} hexes: any supported friendly HQ can supply a "
            "breakdown battalion (26.2.3)"
        )
    return lambda: (
        f"the supported corps HQ at {end}, {count} hexes: a unit without a corps designation may trace to a "
        "city hex (26.11.2) or, as the standard rules have it, to a supported HQ (26.10.7, 26.20.6; reading "
        "german_division_supply=hq_or_city)"
    )


def _never_isolated_by_nests(state: GameState, situation: Situation, rows: dict, units: list[Any]) -> None:
    """Lift the isolation of the German units 26.2.3 says are never isolated, and say why.

    "A WN with a battalion ZOC or a red IP unit type symbol is never isolated", and the German units
    "stacked with or adjacent to" one are "never isolated but may be out of supply" (a Garrison is treated
    as a WN, 26.2.4).  The red IP symbol is on the counter: a unit's ``red_ip`` mark.  Fortress
    Cherbourg's isolation keeps the same exception (26.20.6: "Exception: German WNs").
    """
    g = grid(state.system)
    guards: dict[str, str] = {}  # hex -> the nest that keeps a unit there from isolation
    for u in units:
        if u.status != "active" or u.type not in ("wn", "garrison"):
            continue
        if state.rules.zoc_class(u) == "battalion" or u.attr("red_ip", False):
            why = "a battalion ZOC" if state.rules.zoc_class(u) == "battalion" else "a red IP symbol"
            for h in (u.hex, *g.neighbors(u.hex)):
                guards.setdefault(g.canonical(h), f"{u.id} (a {u.type.replace('wn', 'WN')} with {why})")
    if not guards:
        return
    for u in units:
        row = rows[u.id]
        at = g.canonical(u.hex) if u.status == "active" else None
        if at not in guards or not row.isolated:
            continue
        nest = guards[at]
        if nest.startswith(f"{u.id} "):
            note = "; but never isolated: a WN with a battalion ZOC or a red IP symbol is not (26.2.3)"
        else:
            note = f"; but never isolated: it stands with or next to {nest} (26.2.3)"
        row.isolated = False
        if row.general:  # a Cherbourg Unit of Fortress Cherbourg (26.20.6: "Exception: German WNs")
            row.traced_to += note
        else:
            row.reason += note


def _cherbourg_hq(
    state: GameState, row: UnitSupply, net: _Net, at: int, key: int, open_: bool, reaches: bool,
    ranges: KgRanges,
) -> bool:  # fmt: skip
    """Report the Cherbourg HQ's support (26.10.7); return whether it is supported.

    "Cherbourg hex N1410 is the only supply source it may trace to for supply and support": it needs a
    line to N1410 (of any length, as a corps HQ's to its box: KG 11.2.3 RECONSTRUCTED) while N1410 is
    German.  It is supported for nothing while N1410 traces to a German off-map box; else it "may be
    supported using a Cherbourg SP" (``cherbourg_sp``; not given, it is taken to hold one, and said so).
    """
    hex_id = state.rules.supply["cherbourg_key_hex"]
    if not open_:
        row.code, row.rule, row.isolated = CUT_OFF, "26.10.7", True
        row.reason = f"unsupported: {hex_id}, its only supply source, is not German controlled (26.10.7)"
        return False
    count, path = net.line([key], at)
    if count >= FAR:
        row.code, row.rule, row.isolated = CUT_OFF, "26.10.7", True
        row.reason = f"unsupported: no line of any length to {hex_id}, its only supply source (26.10.7)"
        return False
    row.path, row.length_hexes = path, float(count)
    row.limit = f"any length to {hex_id} (26.10.7)"
    if reaches:
        why = f"its line reaches {hex_id}, which traces to a German off-map box (26.10.7)"
    else:
        paid = paid_this_turn(state) or {}
        held = state.markers["cherbourg_sp"]
        if held is None:
            why = (
                f"its line reaches {hex_id}, which traces to no off-map box: supported by a Cherbourg SP, "
                "Cherbourg's SP not given (cherbourg_sp) and taken to be there (26.10.7)"
            )
        elif held + paid.get("cherbourg", 0) >= 1:
            ranges.paid["cherbourg"] += 1
            why = (
                f"its line reaches {hex_id}, which traces to no off-map box: supported for 1 of Cherbourg's "
                "own SP (26.10.7)"
            )
        else:
            row.code, row.rule = OUT_OF_RANGE, "26.10.7"
            row.reason = (
                f"unsupported: {hex_id} traces to no German off-map box, so it needs a Cherbourg SP; the "
                "Cherbourg HQ would need 1 SP and holds 0"
                + (" at this turn's Corps and Artillery Support segment" if paid else "")
                + " (26.10.7)"
            )
            return False
    row.fill(general=True, combat=True, traced_kind="supported", traced_id=hex_id)
    row.traced_to = f"supported: {why}"
    return True


def _fortress_cherbourg(
    state: GameState, situation: Situation, rows: dict, net: _Net, by_kind: dict, supported: list[int],
    cities: list[int], is_cherbourg: set[int], limit: int, key: int,
) -> None:  # fmt: skip
    """Mark the Cherbourg Units of a declared Fortress Cherbourg and their isolation (26.20.6).

    Cherbourg Units: the units in supply that can trace only to Cherbourg (its city hexes, N1410, or the
    Cherbourg HQ), none of the other targets within range.  They are isolated when no line of any length
    joins them to N1410, or when the Cherbourg HQ is gone and Cherbourg's SP are at 0 (the marker
    ``cherbourg_sp``; unknown, None, counts as not 0).
    """
    hq_gone = not any(
        "cherbourg" in u.name.lower() and u.status == "active" for u in state.units_of("german") if u.hq
    )
    out_of_sp = hq_gone and state.markers["cherbourg_sp"] == 0
    either = standard_rules(state) or _reading(state, "german_division_supply") == "hq_or_city"
    groups = [(True, by_kind.get(True, []))] if by_kind.get(True) else []
    division = by_kind.get(False, [])  # a breakdown battalion may trace to any supported HQ (26.2.3)
    groups += [
        (k, [u for u in division if ("hq_or_city" if either or u.breakdown else "city") == k])
        for k in ("hq_or_city", "city")
    ]
    for to_hq, members in groups:
        if not members:
            continue
        mine = supported if to_hq is True else cities + (supported if to_hq == "hq_or_city" else [])
        others = [t for t in mine if t not in is_cherbourg]
        at = [situation.position[u.id] for u in members]
        elsewhere = net.lines(others, at)
        to_key = net.lines([key], at)
        for u, (count, _), (key_count, _) in zip(members, elsewhere, to_key, strict=True):
            row = rows[u.id]
            if not row.general and u.status == "active" and count >= FAR:
                # Out of supply, and no line of any length to a source but Cherbourg's: a Cherbourg Unit too
                # (26.20.6 speaks of Cherbourg Units "more than 6 hexes from N1410" and of their isolation).
                row.reason += (
                    "; a Cherbourg Unit of Fortress Cherbourg (26.20.6): no line of any length to a source "
                    "but Cherbourg's"
                )
                if key_count >= FAR or out_of_sp:
                    row.isolated = True
                    no = "no line to N1410" if key_count >= FAR else "no Cherbourg HQ or SP"
                    row.reason += f", isolated: {no}"
                else:
                    row.isolated = False
                continue
            if not row.general or count <= limit or net.index(row.traced_id) not in is_cherbourg:
                continue
            row.traced_to += "; a Cherbourg Unit of Fortress Cherbourg (26.20.6)"
            if key_count >= FAR or out_of_sp:
                row.isolated = True
                row.traced_to += (
                    ", isolated: no line to N1410"
                    if key_count >= FAR
                    else ", isolated: no Cherbourg HQ or SP"
                )


class KgRanges:
    """What a KG determination answers after its verdicts: ranges, and the corps HQ support zones.

    * ``supply_range``: the hexes whose line reaches an in-supply hub within the unit range: a supported
      Allied HQ or an Allied beach landing hex (3 hexes, 26.11.1), a supported German corps HQ or a
      serving German city hex (6, 26.11.2).
    * ``zones``: around each Allied army's beaches, the bands in which a corps HQ is supported for
      nothing (within the Mulberry level's radius) and for 1, 2 ... SP, up to what the army holds
      (26.10.5: ``ceil(d / R) - 1`` SP for an HQ ``d`` hexes from a beach of its army).
    """

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.nets: dict[str, _Net] = {}
        self.hubs: dict[str, dict[str, int]] = {"allied": {}, "german": {}}  # unit id or hex id -> hex
        self.limits: dict[str, int] = {}
        # army -> (its beach hexes held, Mulberry radius, Mulberry level, SP in reserve before support)
        self.support: dict[str, tuple[list[int], int, int, int]] = {}
        # Who paid what for the supported HQs this turn: the armies' SP (26.10.1, 26.10.6) and Cherbourg's
        # own ("cherbourg", 26.10.7).
        self.paid: dict[str, int] = {"US": 0, "UK": 0, "DE": 0, "cherbourg": 0}
        self.fortress_due = False  # 26.20.6: N1410 traces to no German off-map box

    def _side_of(self, hq_or_source: str) -> str | None:
        return next((side for side, hubs in self.hubs.items() if hq_or_source in hubs), None)

    def _counts_to(self, side: str, targets: list[int], limit: int) -> np.ndarray:
        """Return every hex's count of its line to the nearest target (FAR beyond ``limit``)."""
        net = self.nets[side]
        blocked = net.graph.node_mask(net.blocked)
        dist, _ = net.graph.search(np.array(sorted(set(targets)), dtype=np.int64), blocked, limit=limit)
        best, _ = net.graph.from_origins(dist, blocked, np.arange(len(net.ids), dtype=np.int64))
        return best

    def supply_range(self, hq_or_source: str) -> set[str]:
        """Return the hexes within the unit range of an in-supply HQ (unit id) or a source hex."""
        side = self._side_of(hq_or_source)
        if side is None or side not in self.limits:
            return set()
        limit = self.limits[side]
        counts = self._counts_to(side, [self.hubs[side][hq_or_source]], limit)
        return set(self.nets[side].ids[counts <= limit].tolist())

    def hq_ranges_at(self) -> dict[str, np.ndarray]:
        """Return, per side, the in-supply HQs and sources whose unit range covers each hex ("; "-joined)."""
        n = len(game_map(self.state.system).grid)
        out = {side: np.full(n, "", dtype=object) for side in ("allied", "german")}
        for side, hubs in self.hubs.items():
            if side not in self.limits:
                continue
            for name, at in hubs.items():
                hit = self._counts_to(side, [at], self.limits[side]) <= self.limits[side]
                out[side][hit] = [f"{t}; {name}" if t else name for t in out[side][hit]]
        return out

    def zones(self) -> list[Zone]:
        """Return the Allied corps HQ support bands (26.10.5), the free one first, then by SP.

        And the Weapons Nests still standing (26.2.4, :mod:`.nests`), and the hexes a German unit may reach by
        rail (26.4.3) while the Rail Capacity is above 0.
        """
        found: list[Zone] = []
        for army, (beaches, radius, level, sp) in self.support.items():
            if not beaches:
                continue
            bands = min(sp, 3) + 1  # free, then as many SP as the army holds (at most 3 drawn)
            counts = self._counts_to("allied", beaches, radius * bands)
            mulberry = "A" if army == "US" else "B"
            for k in range(bands):
                inside = counts <= radius * (k + 1)
                cost = "free" if k == 0 else f"{k} SP"
                found.append(
                    Zone(
                        side="allied",
                        label=f"{army} corps HQ support: {cost} (Mulberry {mulberry} level {level}, "
                        f"radius {radius})",
                        rule="26.10.5",
                        hexes=tuple(self.nets["allied"].ids[inside].tolist()),
                        short=f"{army} HQ support free, radius {radius}" if k == 0 else cost,
                    )
                )
        nests = standing_nests(self.state)  # 22.6.8's states; the hexes printed or historical
        if nests:
            historical = sum(basis.startswith("historical") for _, _, basis in nests)
            found.append(
                Zone(
                    side="german",
                    label=f"Weapons Nests standing: {len(nests)}; "
                    + (
                        f"{historical} at their 1944 positions (RECONSTRUCTED: their printed hexes are on "
                        "the map card), "
                        if historical
                        else ""
                    )
                    + f"{len(nests) - historical} as the set-up prints them; not units here, they block no "
                    "line",
                    rule="26.2.4",
                    hexes=tuple(sorted({h for _, h, _ in nests})),
                    short="WN",
                )
            )
        # In-function: rail.py builds on this module's search graph and imports it at its top (a cycle).
        from normandy_lab.rules.kg.rail import rail_capacity_now, rail_destinations

        if rail_capacity_now(self.state):  # 26.4.3: where a unit may come by rail, while it can (26.10.7)
            places = tuple(rail_destinations(self.state))
            if places:
                capacity = rail_capacity_now(self.state)
                found.append(
                    Zone(
                        side="german",
                        label=f"German rail destinations: capacity {capacity}",
                        rule="26.4.3",
                        hexes=places,
                        short="rail",
                    )
                )
        return found
