"""Cobra's supply determination (10.0-10.6): every unit traces its own line of at most 12 hexes to a source.

There is no HQ tier: each unit, HQs included (9.1g), traces from its hex to a source of its side
(:func:`sources`, 10.4-10.5), counted as 10.3 says (:mod:`normandy_lab.rules.cobra.metric`).  One search
per side runs over the core's layered graph from all the side's sources at once; every unit reads its
distance and line from it.

A unit out of supply gets a reason that is true (tried, not guessed):

* ``cut_off`` (isolated): no legal line of any length.  The ring that closes it is named: the blocked
  hexes around everything it can reach.  If opening the whole ring would put it in supply, that is
  said; if not, the reason says what the opened ring would still leave (a second ring, or a line too
  long).
* ``blocked``: a line exists but is too long, and one block on the way (an enemy unit or a vacant hex in
  an enemy zone of control) is the cause: without it alone the unit would be in supply.
* ``out_of_range``: every legal line is longer than 12; blocks on the way that no single removal cures
  are listed as only "in the way".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from normandy_lab.engine.layered import LayeredGraph, Move
from normandy_lab.engine.lines import Situation, blocked_mask
from normandy_lab.engine.reasons import BLOCKED, CUT_OFF, EXEMPT, OUT_OF_RANGE, Block, join_words
from normandy_lab.engine.report import SupplyReport, UnitSupply
from normandy_lab.engine.search import FAR
from normandy_lab.engine.state import GameState, other_side
from normandy_lab.engine.zoc import hex_control
from normandy_lab.gamemap import game_map
from normandy_lab.grids import grid
from normandy_lab.network import edge_arrays
from normandy_lab.rules.cobra.boundary import east_of_boundary
from normandy_lab.rules.cobra.data import army_of
from normandy_lab.rules.cobra.metric import N_LAYERS, SCALE, LineEdges, count_of, distance_limit, line_moves
from normandy_lab.terrain import terrain_map

SIDES = ("allied", "german")


def _army(unit: Any) -> str | None:
    """Return the Allied army a unit belongs to (US or UK, 2.3.4), None for a German unit."""
    return army_of(unit)


def _groups(state: GameState) -> list[tuple[str, str | None]]:
    """Return the groups of units that share sources: each side; in the Campaign, each Allied army."""
    if state.markers["campaign"]:
        return [("allied", "US"), ("allied", "UK"), ("german", None)]
    return [("allied", None), ("german", None)]


@lru_cache(maxsize=8)
def line_edges(rules: Any, destroyed_bridges: frozenset[str]) -> LineEdges:
    """Return the map's edges as 10.3 sees them, with some bridges destroyed (cached per rule system)."""
    system = rules.system
    tmap = terrain_map(system, progress=False)
    e = edge_arrays(system)
    destroyed = tmap.hexsides.index.isin(list(destroyed_bridges))  # all False when none are
    bridged = e.road_bridge & ~destroyed[e.side]
    road = (e.road > 0) & ((e.water == 0) | bridged)  # a road crosses water only by a standing bridge
    feature = tmap.hexsides["water_feature"].fillna("").to_numpy()[e.side]
    names = tmap.hexsides["water_name"].fillna("").to_numpy()[e.side]
    ids = grid(system).id_array
    dives_hexes = np.isin(ids, list(rules.supply["dives_hexes"]))
    dives = (
        np.char.find(names.astype(str), "Dives") >= 0
    ) & (dives_hexes[e.src] | dives_hexes[e.dst]) & ~(e.road_bridge | e.rail_bridge)  # fmt: skip
    terrain = tmap.hexes["terrain"].to_numpy()
    return LineEdges(
        major_road=road & (e.road >= 2),  # primary roads and highways are Cobra's major roads
        minor_road=road & (e.road == 1),
        major_river=feature == "Major River",
        closed=e.all_sea | dives,
        bocage=terrain[e.dst] == "Bocage",
        marsh=terrain[e.dst] == "Marsh",
    )


@lru_cache(maxsize=16)
def line_graph(
    rules: Any, destroyed_bridges: frozenset[str], major_road: str, major_river: str
) -> LayeredGraph:
    """Return the layered graph 10.3 counts lines on, for one map, bridges and reading."""
    e = edge_arrays(rules.system)
    moves = line_moves(line_edges(rules, destroyed_bridges), major_road, major_river)
    return LayeredGraph(len(grid(rules.system)), N_LAYERS, e.src, e.dst, moves)


def _sheet_columns_rows(system: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return each hex's sheet letter and printed column and row (Cobra ids: sheet, column, row)."""
    return game_map(system).printed


def sources(
    state: GameState, side: str, situation: Situation | None = None, army: str | None = None
) -> dict[int, str]:
    """Return the source hexes of a side, or of one Allied army (dense index -> what makes it one).

    A map-edge source is a land hex in play on the edge the rule names with a major road in it: the
    derived roads stop at the map's edge, so "a primary road that runs off the edge" is read as a major
    road reaching an edge hex (INFERRED).  For the Allies, the major road must lead north, into map B
    (10.5) -- except in the Campaign, where the Allies trace to their beaches and supply heads instead
    (17.3.6, :func:`_campaign_sources`).
    """
    situation = situation or Situation.of(state)
    if side == "allied" and state.markers["campaign"]:
        return _campaign_sources(state, situation, army)
    rules = state.rules
    g = grid(state.system)
    s = rules.supply
    e = edge_arrays(state.system)
    edges = line_edges(rules, state.destroyed_bridges)
    major_at = np.zeros(len(g), dtype=bool)
    major_at[e.src[edges.major_road]] = True
    sheets, cols, rows = _sheet_columns_rows(state.system)
    found: dict[int, str] = {}
    if side == "german":
        east = (sheets == "A") & (cols == s["german_east_column"]) & major_at
        for i in np.nonzero(east)[0]:
            found[int(i)] = "a major road off the east edge (10.4a)"
        if not state.markers.get("south_edge_lost", False):
            south = (sheets == "A") & np.isin(rows, s["german_south_rows"]) & major_at
            for i in np.nonzero(south)[0]:
                found[int(i)] = "a major road off the south edge (10.4b)"
    else:
        lo, hi = s["allied_north_columns"]
        north_road = np.zeros(len(g), dtype=bool)
        leads_north = edges.major_road & (sheets[e.dst] == "B")
        north_road[e.src[leads_north]] = True
        edge_row = (sheets == "A") & (rows == s["allied_north_row"]) & (cols >= lo) & (cols <= hi)
        for i in np.nonzero(edge_row & north_road)[0]:
            found[int(i)] = "a major road off the north edge of map A (10.5)"
    # A source under an enemy unit, or off the sheets in play, serves nobody.  (One in a vacant enemy
    # ZOC stays: the search reaches it but no line may enter it, 10.3b2.)
    closed = situation.occupied[other_side(side)] | _sea_or_off(state)
    found = {i: why for i, why in found.items() if not closed[i]}
    if side == "german" and not state.markers["cherbourg_entered"]:
        found.update(_cherbourg(state, situation, found, edges, closed))
    return found


def _cherbourg(state: GameState, situation: Situation, edge_sources: dict, edges: LineEdges, closed) -> dict:
    """Return Cherbourg's city hexes as German sources once it is cut off from the map edges (17.3.5d-e).

    Cut off: no major road joins a Cherbourg city hex to a German edge source by hexes a German line
    may use.  Then the city hexes (never entered by an Allied unit: the ``cherbourg_entered`` marker)
    are sources, for any number of units (17.3.5f).
    """
    # In-function: system.py imports this module at its top, so a top-level import here is a cycle.
    from normandy_lab.rules.cobra.system import city_hexes

    gmap = game_map(state.system)
    city = np.array(
        [i for i in sorted(city_hexes(state.system, "Cherbourg")) if not closed[i]], dtype=np.int64
    )
    if not len(city):
        return {}
    e = gmap.edges
    blocked = blocked_mask(state, "german", situation)
    road = edges.major_road & ~blocked[e.src] & ~blocked[e.dst]
    graph = LayeredGraph(len(gmap.grid), 1, e.src, e.dst, [Move(0, 0, road, 1)])
    dist, _ = graph.search(np.array(sorted(edge_sources), dtype=np.int64), graph.node_mask(blocked))
    if (dist[city] < FAR).any():
        return {}  # a major road still joins Cherbourg to a map edge: it is no source yet
    return {int(i): "Cherbourg, cut off from the map edges (17.3.5d-e)" for i in city}


@dataclass
class _Side:
    """One side's search: the graph, its blocked nodes, the distances and next nodes from its sources."""

    graph: LayeredGraph
    blocked_hexes: np.ndarray
    blocked: np.ndarray
    roots: np.ndarray  # the source hexes in every layer
    source_hexes: np.ndarray
    dist: np.ndarray
    pred: np.ndarray
    escape: Any = None  # the search for the way out of a pocket, made when a unit first needs it


def determine(state: GameState) -> SupplyReport:
    """Determine every unit's supply (10.3-10.5, 17.3.5-17.3.6), with reasons that name what really binds.

    One search for each group of units that may use the same sources: each side, and in the Campaign
    the US and the British armies apart (each traces to its own supply heads, 17.3.6a-c).
    """
    rules = state.rules
    g = grid(state.system)
    situation = Situation.of(state)
    readings = {"major_road": state.options["major_road"], "major_river": state.options["major_river"]}
    graph = line_graph(rules, state.destroyed_bridges, readings["major_road"], readings["major_river"])
    limit = rules.supply["line_limit"]
    rows: dict[str, UnitSupply] = {}
    all_sources: dict[str, list[str]] = {}
    exempt = rules.exemption(state)
    sides = {}
    for side, army in _groups(state):
        found = sources(state, side, situation, army)
        known = set(all_sources.get(side, []))
        all_sources[side] = sorted(known | set(g.id_array[list(found)].tolist()))
        blocked_hexes = blocked_mask(state, side, situation)
        blocked = graph.node_mask(blocked_hexes)
        roots = graph.in_every_layer(np.array(sorted(found), dtype=np.int64))  # reached in any state
        dist, pred = graph.search(roots, blocked) if len(roots) else (np.full(graph.n, FAR), None)
        group = _Side(
            graph, blocked_hexes, blocked, roots, np.array(sorted(found), dtype=np.int64), dist, pred
        )
        sides[side if army is None else f"{side} {army}"] = group
        units = [u for u in state.units_of(side) if u.status == "active" and army in (None, _army(u))]
        origins = np.array([situation.position[u.id] for u in units], dtype=np.int64)
        best, first = graph.from_origins(dist, blocked, origins) if len(units) else (origins, origins)
        counts = count_of(best) if len(units) else best
        attack = _attack_counts(state, graph, roots, blocked_hexes, units) if side == "allied" else None
        for u, at, value, step in zip(units, origins, counts, first, strict=True):
            row = rows[u.id] = UnitSupply(unit_id=u.id, side=side, hex=u.hex)
            row.limit = f"{limit} hexes counted as 10.3 counts them"
            row.readings = dict(readings)
            if exempt:
                row.general = row.combat = True
                row.traced_kind, row.code, row.rule = "exempt", EXEMPT, exempt[0]
                row.traced_to = row.reason = exempt[1]
                continue
            row.length_hexes = float(value) if value < FAR else float("inf")
            row.isolated = bool(value >= FAR)
            row.general = row.combat = bool(value <= limit)
            if row.general and attack is not None:  # 5.9f: the line for an attack keeps to its side
                row.combat = bool(attack[at] <= limit)
            if row.general:
                nodes = graph.path(group.pred, int(at), int(step))
                _describe_line(row, g, graph, nodes, found, state)
            else:
                _explain(row, state, group, int(at), found, limit, situation)
    report = SupplyReport(state=state, units=rows, sources=all_sources, halved=False)
    report.determination = _Ranges(state, sides, limit)
    return report


def _edge_of(system: str) -> dict[tuple[int, int], int]:
    """Return the directed edge joining two hexes, by (from, to)."""
    return game_map(system).edge_between


def _attack_counts(
    state: GameState, graph: LayeredGraph, roots, blocked_hexes, units
) -> dict[int, int] | None:
    """Return each Allied unit's count of its line for an attack, kept to its side of the boundary (5.9f).

    An attack's supply may not be traced in violation of the Allied Army Boundary: a US unit's line may
    not enter a hex more than one hex east of it, a British or Canadian unit's more than one hex west
    (INFERRED: the limits 5.9b-c set on where a move may end).  None when no boundary is set.
    """
    east = east_of_boundary(state)
    if east is None or not units:
        return None
    g = grid(state.system)
    out: dict[int, int] = {}
    for army, beyond in (("US", east > 1), ("UK", east < -1)):
        mine = np.array(sorted({g.index(u.hex) for u in units if _army(u) == army}), dtype=np.int64)
        if not len(mine):
            continue
        blocked = graph.node_mask(blocked_hexes | beyond)
        dist, _ = graph.search(roots, blocked)
        best, _ = graph.from_origins(dist, blocked, mine)
        out.update(zip(mine.tolist(), count_of(best).tolist(), strict=True))
    return out


def _legs(state: GameState, graph: LayeredGraph, nodes: list[int]) -> list[tuple[str, int, int]]:
    """Group a line's steps into legs as the 10.3 example says them: (kind, count, hexes)."""
    edges = line_edges(state.rules, state.destroyed_bridges)
    edge_of = _edge_of(state.system)
    terrain = terrain_map(state.system, progress=False).hexes["terrain"].to_numpy()
    hexes = graph.hex_of(np.asarray(nodes)).tolist()
    legs: list[tuple[str, int, int]] = []
    for a, b, na, nb in zip(hexes, hexes[1:], nodes, nodes[1:], strict=False):
        k = edge_of[(a, b)]
        cost = graph.step_cost(na, nb) // SCALE  # the step's 10.3 count (its tie-break dropped)
        if edges.major_road[k]:
            kind = "major road"
        elif edges.minor_road[k]:
            kind = "minor road"
        elif edges.major_river[k]:
            kind = "major river"
        else:
            kind = {"Bocage": "bocage", "Marsh": "marsh"}.get(terrain[b], "clear")
        if legs and legs[-1][0] == kind and kind in ("major road", "minor road"):
            legs[-1] = (kind, legs[-1][1] + cost, legs[-1][2] + 1)
        else:
            legs.append((kind, cost, 1))
    return legs


def _leg_words(legs: list[tuple[str, int, int]]) -> str:
    parts = []
    for kind, count, hexes in legs:
        if kind == "major road":
            parts.append(f"major road {count} ({hexes} {'hex' if hexes == 1 else 'hexes'})")
        elif kind == "minor road":
            parts.append(f"minor road {count}")
        else:
            parts.append(f"{kind} {count}")
    return " + ".join(parts)


def _describe_line(
    row: UnitSupply, g, graph: LayeredGraph, nodes: list[int], found, state: GameState
) -> None:
    """Fill a unit's line: its hexes now, its words (the legs of the 10.3 example) when first read."""
    hexes = graph.hex_of(np.asarray(nodes)).tolist()
    row.path = g.id_array[hexes].tolist()
    end = hexes[-1]
    row.traced_kind, row.traced_id = "source", str(g.id_array[end])

    def words() -> str:
        legs = _legs(state, graph, nodes)
        total = sum(count for _, count, _ in legs)
        route = f": {_leg_words(legs)} = {total}" if legs else " (the unit stands on it)"
        return f"source at {g.id_array[end]}, {found[end]}{route} (10.3)"

    row.words_later(words)


# Crossing one block on the way out costs more than any line without one (the map has 2,729 hexes).
BLOCK_PENALTY = 10_000


def _way_out(state: GameState, side: _Side, origin: int, removable: np.ndarray) -> list[int]:
    """Return the blocks on the way out of a closed pocket that crosses the fewest, in order from the unit.

    A plain hex search over the map where entering a block the unit's side could clear (an enemy unit,
    a vacant hex in an enemy ZOC, an interdicted hex) costs :data:`BLOCK_PENALTY` and any other hex 1: its
    shortest line to a source crosses the fewest such blocks, and among those takes the shortest way.
    """
    if side.escape is None:
        e = edge_arrays(state.system)
        edges = line_edges(state.rules, state.destroyed_bridges)
        step = np.where(removable[e.dst], BLOCK_PENALTY, 1)
        graph = LayeredGraph(side.graph.n_hexes, 1, e.src, e.dst, [Move(0, 0, ~edges.closed, step)])
        fixed = side.blocked_hexes & ~removable
        dist, pred = graph.search(side.source_hexes, fixed)
        side.escape = (graph, fixed, dist, pred)
    graph, fixed, dist, pred = side.escape
    best, first = graph.from_origins(dist, fixed, np.array([origin]))
    if best[0] >= FAR:
        return []
    hexes = graph.path(pred, origin, int(first[0]))
    return [h for h in hexes[1:] if removable[h]]


def _distance(side: _Side, origin: int, blocked_hexes: np.ndarray) -> int:
    graph = side.graph
    blocked = graph.node_mask(blocked_hexes)
    dist, _ = graph.search(side.roots, blocked)
    best, _ = graph.from_origins(dist, blocked, np.array([graph.node(origin, 0)]))
    return int(count_of(best[0]))


def _block(state: GameState, side: str, h: int, situation: Situation) -> Block:
    """Say what blocks hex ``h`` for ``side``: enemy units there, or the enemy's zone of control."""
    g = grid(state.system)
    enemy = other_side(side)
    hex_id = str(g.id_array[h])
    here = sorted(
        u.id for u in state.units_of(enemy) if u.status == "active" and situation.position[u.id] == h
    )
    if here:
        return Block("enemy", hex_id, here)
    if situation.zoc[enemy][h]:
        near = set(g.neighbors(hex_id)) | {hex_id}
        by = sorted(
            u.id
            for u in state.units_of(enemy)
            if u.status == "active" and state.rules.exerts_zoc(u) and u.hex in near
        )
        return Block("ezoc", hex_id, by)
    if hex_id in state.interdicted_hexes:
        return Block("interdicted", hex_id)
    return Block("sea", hex_id)


def _explain(
    row: UnitSupply, state: GameState, side: _Side, origin: int, found: dict, limit: int, situation: Situation
) -> None:
    """Find what really binds a unit out of supply, by trying it (see the module docstring)."""
    # Only what a unit's side can clear is tried: enemy units and zones of control, interdicted hexes.
    removable = side.blocked_hexes & ~_sea_or_off(state)
    if not found:
        row.code, row.rule = CUT_OFF, "10.4" if row.side == "german" else "10.5"
        row.reason = "its side has no supply source on the maps in play (all cut or lost)"
        return
    if row.isolated:
        way = _way_out(state, side, origin, removable)
        blocks = [_block(state, row.side, h, situation) for h in way]
        opened = side.blocked_hexes.copy()
        opened[way] = False
        after = _distance(side, origin, opened) if way else FAR
        row.code, row.rule, row.blocks = CUT_OFF, "10.3b", blocks
        named = join_words([b.words() for b in blocks])
        closed = "no legal line of any length to a source (10.3b)"
        them = "it" if len(blocks) == 1 else "them"
        if not way:
            row.reason = f"{closed}: the sea, closed hexsides and the edges of the maps in play shut it in"
        elif after <= limit:
            row.reason = (
                f"{closed}; the fewest blocks to cross on the way out: {named}; "
                f"without {them} the line would count {after} of {limit}"
            )
        else:
            row.reason = (
                f"{closed}; the fewest blocks to cross on the way out: {named}; "
                f"even without {them} the shortest line would count {after}, more than {limit} (10.3a)"
            )
        if len(blocks) == 1 and after <= limit:
            blocks[0].binding = True
        if blocks:
            row.blocking_hex, row.blocking_units = blocks[0].hex, blocks[0].units
        return
    # A line exists but counts more than the limit: does one block on the way cause it?
    best = int(row.length_hexes)
    row.shortfall = float(best - limit)
    free = side.blocked_hexes & ~removable
    freed = _distance(side, origin, free)
    blocks: list[Block] = []
    if freed <= limit:
        # Blocks that lie on the unblocked line: try each alone.
        graph = side.graph
        blocked = graph.node_mask(free)
        dist, pred = graph.search(side.roots, blocked)
        _, first = graph.from_origins(dist, blocked, np.array([graph.node(origin, 0)]))
        nodes = graph.path(pred, graph.node(origin, 0), int(first[0]))
        on_line = [
            int(h)
            for h in dict.fromkeys(graph.hex_of(np.asarray(nodes)).tolist())
            if removable[h] and h != origin
        ]
        for h in on_line:
            block = _block(state, row.side, h, situation)
            trial = side.blocked_hexes.copy()
            trial[h] = False
            block.binding = _distance(side, origin, trial) <= limit
            blocks.append(block)
    row.blocks = blocks
    binding = [b for b in blocks if b.binding]
    if binding:
        b = binding[0]
        row.code, row.rule = BLOCKED, "10.3b"
        row.reason = (
            f"{b.words()} is the cause: without it the line would count at most {limit}; "
            f"the shortest legal line counts {best} (10.3)"
        )
        row.blocking_hex, row.blocking_units = b.hex, b.units
    else:
        row.code, row.rule = OUT_OF_RANGE, "10.3a"
        way = (
            f"; in the way: {join_words([b.words() for b in blocks[:4]])}, none of which alone would cure it"
            if blocks
            else ""
        )
        row.reason = (
            f"the shortest legal line to a source counts {best}, {best - limit} over {limit} (10.3a){way}"
        )
        if blocks:
            row.blocking_hex, row.blocking_units = blocks[0].hex, blocks[0].units


def _sea_or_off(state: GameState) -> np.ndarray:
    return game_map(state.system).closed(state.maps)


class _Ranges:
    """Cobra's ranges: the hexes whose line to a source counts at most the limit."""

    def __init__(self, state: GameState, sides: dict[str, _Side], limit: int) -> None:
        self.state, self.sides, self.limit = state, sides, limit

    def supply_range(self, hq_or_source: str) -> set[str]:
        """Return the hexes within range of a source hex (Cobra has no supply HQs)."""
        g = grid(self.state.system)
        try:
            h = g.index(hq_or_source)
        except Exception:
            return set()
        for side in self.sides.values():
            if h in side.source_hexes:
                roots = side.graph.in_every_layer(np.array([h]))
                dist, _ = side.graph.search(roots, side.blocked, limit=distance_limit(self.limit))
                hexes = np.unique(side.graph.hex_of(np.nonzero(count_of(dist) <= self.limit)[0]))
                return set(g.id_array[hexes[hexes >= 0]].tolist())
        return set()

    def hq_ranges_at(self) -> dict[str, np.ndarray]:
        """Return, per side, per hex, "source range" where a line from it would count at most 12."""
        g = grid(self.state.system)
        out = {side: np.full(len(g), "", dtype=object) for side in SIDES}
        for name, group in self.sides.items():  # a side, or an Allied army of the Campaign ("allied US")
            side, _, army = name.partition(" ")
            reached = np.nonzero(count_of(group.dist[: len(g)]) <= self.limit)[
                0
            ]  # layer 0: lines start there
            words = f"within {self.limit} of a {army + ' ' if army else ''}source (10.3)"
            out[side][reached] = [f"{t}; {words}" if t else words for t in out[side][reached]]
        return out


# -- the Campaign's Allied sources (17.3.6) -------------------------------------------------------------


def _campaign_sources(state: GameState, situation: Situation, army: str | None) -> dict[int, str]:
    """Return an Allied army's sources in the Campaign (17.3.6): beaches, supply heads, Bayeux.

    * f: every Allied-controlled beach hex that is not wrecked (the ``wrecked_beaches`` marker); one in a
      German ZOC only while an Allied unit holds it.
    * a-b: the supply heads (RECONSTRUCTED list, ``rules.supply["supply_heads"]``: the symbols are on the
      map) on the army's side of the Allied Army Boundary, west for the US, east for the British, while
      Allied-controlled (3.3-style control: held, or in the Allied ZOC alone, or given by the scenario).
    * c: for the British, Bayeux's three hexes once all are Allied-controlled and each traces a line of
      at most 12 to a beach or supply head.
    """
    gmap = game_map(state.system)
    g = gmap.grid
    control = hex_control(state, situation.zoc, situation.occupied)
    german_zoc, allied = situation.zoc["german"], situation.occupied["allied"]
    closed = situation.occupied["german"] | gmap.closed(state.maps)
    wrecked = {g.canonical(h) for h in state.markers["wrecked_beaches"]}
    found: dict[int, str] = {}
    beaches = gmap.terrain.hexes["beach"].fillna("").astype(str).to_numpy()
    for i in np.nonzero(beaches != "")[0]:
        name = beaches[i].split(";")[0].strip()
        usable = control[i] == "allied" and not closed[i] and (allied[i] or not german_zoc[i])
        if usable and str(g.id_array[i]) not in wrecked:
            found[int(i)] = f"{name} beach (17.3.6f)"

    east = east_of_boundary(state)
    for name, hexes in state.rules.supply["supply_heads"].items():
        for hex_id in hexes:
            i = g.index(hex_id)
            west = east is None or east[i] < 0
            if closed[i] or control[i] != "allied" or (army == "US") != west:
                continue
            found[int(i)] = f"the supply head of {name} (17.3.6a-b, RECONSTRUCTED)"
    if army == "UK":
        found.update(_bayeux(state, situation, found, control))
    return found


def _bayeux(state: GameState, situation: Situation, heads: dict, control: np.ndarray) -> dict[int, str]:
    """Return Bayeux's hexes as British sources if all three are Allied and within 12 of a head (17.3.6c)."""
    g = grid(state.system)
    hexes = [g.index(h) for h in state.rules.supply["bayeux_hexes"]]
    if not heads or any(control[i] != "allied" for i in hexes):
        return {}
    rules = state.rules
    graph = line_graph(
        rules, state.destroyed_bridges, state.options["major_road"], state.options["major_river"]
    )
    blocked = graph.node_mask(blocked_mask(state, "allied", situation))
    dist, _ = graph.search(graph.in_every_layer(np.array(sorted(heads), dtype=np.int64)), blocked)
    best, _ = graph.from_origins(dist, blocked, np.array(hexes))
    if (count_of(best) > rules.supply["line_limit"]).any():
        return {}
    return {i: "Bayeux, all three hexes British and within 12 of a beach or head (17.3.6c)" for i in hexes}
