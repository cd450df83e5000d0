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

Distances are computed with ``scipy.sparse.csgraph`` on matrices built from
:func:`normandy_lab.network.edge_arrays`; :func:`supply_networkx` computes
the same verdicts with networkx weight callables, and the tests prove the
two agree.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix

from normandy_lab.engine.search import (
    FAR,
    SIXTHS,
    components,
    discard_workspace,
    first_blocks,
    group_ranges,
    lines_from,
    map_graph,
    nearest_each,
    reach_flags,
    search_full,
    workspace,
)
from normandy_lab.engine.state import GameState, Unit, other_side
from normandy_lab.engine.zoc import hex_control, zoc_mask
from normandy_lab.grid import grid
from normandy_lab.network import edge_arrays
from normandy_lab.rules import ruleset
from normandy_lab.terrain import ROAD_CLASSES, terrain_map

CW = ("UK", "CA", "PL")
# Unit ranges are searched this far (in sixths of an MP) beyond the limit, to
# tell by how much a unit out of supply misses it.
RANGE_SLACK_MP = 6 * 6
US = ("US", "FR")
INF = math.inf


@dataclass
class UnitSupply:
    """The supply report of one unit.

    Attributes
    ----------
    general, combat, isolated
        In General Supply (7.2), in Combat Supply (7.6.1), isolated (7.5o).
    traced_to
        What the line reached: ``"source <hex>"``, ``"division HQ <id>"``,
        ``"corps HQ <id>"`` or ``"attached to <id>"``.
    path
        The hexes of the line, from the unit to what it reached.
    length_mp, length_hexes
        The line's length in supply MPs and in hexes.
    limit
        The limit it was held to ("6 hexes or 6 MP", "20 MP", "any length").
    reason
        Why the unit is out of supply ("" when in supply).
    blocking_hex, blocking_units
        The first hex that blocked the best line, and the enemy units that
        blocked it (occupying it or exerting the EZOC).
    candidates
        For each HQ or source tried: what it was, and why it failed.
    """

    unit_id: str
    side: str
    hex: str
    general: bool = False
    combat: bool = False
    isolated: bool = False
    traced_to: str = ""
    path: list[str] = field(default_factory=list)
    length_mp: float = INF
    length_hexes: float = INF
    limit: str = ""
    reason: str = ""
    blocking_hex: str = ""
    blocking_units: list[str] = field(default_factory=list)
    candidates: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class SupplyReport:
    """The supply of every unit of a state, with the sources and HQ ranges."""

    state: GameState
    units: dict[str, UnitSupply]
    sources: dict[str, list[str]]
    halved: bool
    _context: dict[str, Any] = field(default_factory=dict, repr=False)

    def __getitem__(self, unit_id: str) -> UnitSupply:
        return self.units[unit_id]

    def out_of_supply(self, side: str | None = None) -> list[UnitSupply]:
        """Return the reports of the units out of general supply."""
        return [r for r in self.units.values() if not r.general and (side is None or r.side == side)]

    def to_geodataframe(self):  # -> geopandas.GeoDataFrame
        """Return one row per unit: its point, name, formation and supply columns; see :meth:`paths`."""
        import geopandas as gpd

        g = grid(self.state.system)
        records = {u.id: u for u in self.state.units}
        rows = []
        for r in self.units.values():
            unit = records.get(r.unit_id)
            rows.append(
                {
                    "unit_id": r.unit_id,
                    "name": unit.name if unit else "",
                    "formation": (unit.formation or "") if unit else "",
                    "side": r.side,
                    "hex": r.hex,
                    "general": r.general,
                    "combat": r.combat,
                    "isolated": r.isolated,
                    "traced_to": r.traced_to,
                    "length_mp": r.length_mp,
                    "length_hexes": r.length_hexes,
                    "limit": r.limit,
                    "reason": r.reason,
                    "blocking_hex": r.blocking_hex,
                    "blocking_units": ",".join(r.blocking_units),
                }
            )
        lonlat = [g.center(r["hex"]) for r in rows]
        return gpd.GeoDataFrame(
            rows, geometry=gpd.points_from_xy([p[0] for p in lonlat], [p[1] for p in lonlat]), crs="EPSG:4326"
        ).set_index("unit_id")

    def paths(self):  # -> geopandas.GeoDataFrame
        """Return the traced lines of supply as line geometries (one row per unit with a line)."""
        import geopandas as gpd
        import shapely

        g = grid(self.state.system)
        rows, lines = [], []
        for r in self.units.values():
            if len(r.path) >= 2:
                rows.append(
                    {"unit_id": r.unit_id, "side": r.side, "traced_to": r.traced_to, "general": r.general}
                )
                lines.append(shapely.LineString([g.center(h) for h in r.path]))
        return gpd.GeoDataFrame(rows, geometry=lines, crs="EPSG:4326")

    def supply_range(self, hq_or_source: str) -> set[str]:
        """Return the hexes from which a unit could trace to an HQ (unit id) or a source hex.

        The hexes within 6 hexes or 6 MPs (halved in bad weather) by a legal
        line (7.3.1), the unit's own first step across water included.
        """
        sides, limits = self._context["sides"], self._context["limits"]
        g = grid(self.state.system)
        group = None
        if hq_or_source in {u.id for u in self.state.units}:
            unit = self.state.unit(hq_or_source)
            side, target = unit.side, g.index(unit.hex)
            if unit.hq in ("division", "kg"):
                group = sides[side].group_of.get(unit.formation)
        else:
            target = g.index(hq_or_source)
            side = "allied" if hq_or_source in self.sources["allied"] else "german"
        if group is not None:
            cover = sides[side].ranges.covered(group)
        else:
            ranges = sides[side].lines.ranges([[target]], [[]], np.empty(0, dtype=np.int64), limits)
            cover = ranges.covered(0)
        return set(g._ids[cover].tolist())

    def hq_ranges_at(self) -> dict[str, np.ndarray]:
        """Return, per side, the names of the in-supply HQs whose range covers each hex ("; "-joined).

        Division (and KG) HQs by id, and "corps HQ" for the corps HQs' ranges (7.2, 7.3.1).
        """
        out = {}
        for side, determination in self._context["sides"].items():
            text = np.full(len(grid(self.state.system)), "", dtype=object)
            for name, group in zip(determination.cover_names, determination.cover_groups, strict=True):
                hit = determination.ranges.covered(group)
                text[hit] = [f"{t}; {name}" if t else name for t in text[hit]]
            out[side] = text
        return out

    def supply_ranges(self):  # -> geopandas.GeoDataFrame
        """Return the supply range of every in-supply HQ and every source as polygons (EPSG:4326)."""
        import geopandas as gpd
        import shapely

        g = grid(self.state.system)
        polygons = g.to_geodataframe()
        rows, shapes = [], []
        for unit in self.state.units:
            if unit.hq and self.units[unit.id].general:
                hexes = self.supply_range(unit.id)
                rows.append(
                    {"owner": unit.id, "kind": f"{unit.hq} HQ", "side": unit.side, "hexes": len(hexes)}
                )
                shapes.append(shapely.union_all(polygons.loc[sorted(hexes)].geometry.values))
        for side, hexes in self.sources.items():
            for hex_id in hexes:
                reach = self.supply_range(hex_id)
                rows.append({"owner": hex_id, "kind": "source", "side": side, "hexes": len(reach)})
                shapes.append(shapely.union_all(polygons.loc[sorted(reach)].geometry.values))
        return gpd.GeoDataFrame(rows, geometry=shapes, crs="EPSG:4326")


def _cw(nationality: str | None) -> bool:
    return nationality in CW


def _same_army(a: str | None, b: str | None) -> bool:
    """US and CW units may not attach to each other's divisions (6.3)."""
    return (a in US) == (b in US)


def _german_sources(state: GameState, rules, control: np.ndarray) -> list[int]:
    """7.4: road hexes leaving the east or south map edge, and German-controlled supply-city hexes."""
    cities = _city_hexes(state.system, frozenset(state.german_supply_cities))
    held = cities[control[cities] != "allied"]
    return sorted(set(_edge_road_hexes(state.system)) | set(held.tolist()))


@lru_cache(maxsize=32)
def _city_hexes(system: str, cities: frozenset[str]) -> np.ndarray:
    """Return the City hexes of the named built-up areas (7.4); they depend only on the map."""
    tmap = terrain_map(system, progress=False)
    builtup = tmap.hexes["builtup_name"].to_numpy()
    settlement = tmap.hexes["settlement"].to_numpy()
    return np.nonzero((settlement == "City") & np.isin(builtup, sorted(cities)))[0]


@lru_cache(maxsize=8)
def _edge_road_hexes(system: str) -> tuple[int, ...]:
    """Land hexes with a road on the east or south edge of the maps (7.4); they depend only on the map."""
    from normandy_lab.hexgrid import HEX_DIRECTIONS

    g = grid(system)
    tmap = terrain_map(system, progress=False)
    edges = edge_arrays(system)
    names = g.directions()
    on_map = g._index_of_axial

    def off(q: int, r: int, direction: str) -> bool:
        d = HEX_DIRECTIONS[names.index(direction)]
        return (q + d.q, r + d.r) not in on_map

    # The east edge: the eastward neighbour is off the map; the south edge:
    # both southward neighbours are (a west-edge hex misses only one).
    def on_edge(q: int, r: int) -> bool:
        if g.scheme.orientation == "pointy":
            return off(q, r, "E") or (off(q, r, "SE") and off(q, r, "SW"))
        return off(q, r, "S") or (off(q, r, "NE") and off(q, r, "SE"))

    has_road = np.zeros(len(g), dtype=bool)
    has_road[edges.src[edges.road > 0]] = True
    terrain = tmap.hexes["terrain"].to_numpy()
    found = []
    for i, (q, r) in enumerate(zip(g._q.tolist(), g._r.tolist(), strict=True)):
        land = terrain[i] not in ("Sea", "All Sea", "Impassable")
        if has_road[i] and land and on_edge(q, r):
            found.append(i)
    return tuple(found)


_HEX_COST: dict[tuple[str, int], np.ndarray] = {}


def _supply_hex_cost(system: str, rules_id: int) -> np.ndarray:
    """Supply MP of entering each hex off-road (7.3.2: infantry rates), cached per map and rules."""
    key = (system, rules_id)
    if key not in _HEX_COST:
        rules = ruleset(system)
        tmap = terrain_map(system, progress=False)
        costs = rules.terrain_cost["infantry"]
        marsh_cost = rules.supply["marsh_supply_cost"]
        terrain = tmap.hexes["terrain"].to_numpy()
        settlement = tmap.hexes["settlement"].to_numpy()
        _HEX_COST[key] = np.array(
            [
                1.0
                if s == "City"
                else (marsh_cost if costs.get(t) == "all" else float(costs.get(t) or 0.0) or 1.0)
                for t, s in zip(terrain, settlement, strict=True)
            ]
        )
    return _HEX_COST[key]


@dataclass(frozen=True)
class _EdgeCosts:
    """What a line of supply may do along each directed edge of a map (7.3.2), and what it costs.

    Costs are integers: 1 a hex, and supply MPs in sixths (the rates are
    1/3, 1/2 and whole MPs), so sums are exact.
    """

    land: np.ndarray  # not an all-sea hexside
    open: np.ndarray  # land, and dry or bridged: any step of a line may take it
    first: np.ndarray  # land and unbridged water: only the tracing unit's own first step
    mp: np.ndarray  # sixths of a supply MP to enter the far hex
    first_mp: np.ndarray  # the same, plus the crossing of the water
    # The same facts in the row order of the map graph's reverse and forward rows, for the kernels.
    rev_open: np.ndarray
    rev_land: np.ndarray
    rev_first: np.ndarray
    rev_ones: np.ndarray
    rev_mp: np.ndarray
    rev_first_mp: np.ndarray
    fwd_first: np.ndarray
    fwd_ones: np.ndarray
    fwd_zeros: np.ndarray
    fwd_first_mp: np.ndarray
    cheapest_mp: int  # the cheapest step a line can take, in sixths (bounds how far a range reaches)


@lru_cache(maxsize=32)
def _edge_costs(system: str, destroyed_bridges: frozenset[str]) -> _EdgeCosts:
    """Return the edge verdicts and costs of a map with some bridges destroyed (nothing else matters)."""
    rules = ruleset(system)
    tmap = terrain_map(system, progress=False)
    edges = edge_arrays(system)
    destroyed = np.zeros(len(tmap.hexsides), dtype=bool)
    if destroyed_bridges:
        destroyed = tmap.hexsides.index.isin(list(destroyed_bridges))
    bridged = (edges.road_bridge | edges.rail_bridge) & ~destroyed[edges.side]
    wet = (edges.water > 0) & ~bridged  # destroyed bridges count as none
    # 7.3.2: infantry rates in any weather; 1/2 MP primary road, 1/3 MP highway.
    hex_cost = _supply_hex_cost(system, id(rules))
    road_rate = rules.supply["road_cost"]
    by_road = np.array([road_rate.get(name, np.nan) for name in ROAD_CLASSES])
    step = np.where(edges.road > 0, by_road[edges.road], hex_cost[edges.dst])
    step = np.where((edges.road == 0) & edges.railway, road_rate["railway"], step)
    # A river takes all MPs, a stream +2 (10.6).
    crossing = np.where(edges.water >= 3, rules.supply["marsh_supply_cost"], 2.0)
    land = ~edges.all_sea
    open_, first = land & ~wet, land & wet
    mp = _sixths(step, "supply MP of a step")
    first_mp = _sixths(step + np.where(wet, crossing, 0.0), "supply MP of a first step across water")
    rev, fwd = map_graph(system).rev_eid, map_graph(system).fwd_eid
    ones = np.ones(len(edges), dtype=np.int32)
    costs = _EdgeCosts(
        land=land,
        open=open_,
        first=first,
        mp=mp,
        first_mp=first_mp,
        rev_open=open_[rev],
        rev_land=land[rev],
        rev_first=first[rev],
        rev_ones=ones,
        rev_mp=mp[rev].astype(np.int32),
        rev_first_mp=first_mp[rev].astype(np.int32),
        fwd_first=first[fwd],
        fwd_ones=ones,
        fwd_zeros=np.zeros(len(edges), dtype=np.int32),
        fwd_first_mp=first_mp[fwd].astype(np.int32),
        cheapest_mp=int(mp[open_].min()),
    )
    for value in vars(costs).values():
        if isinstance(value, np.ndarray):
            value.flags.writeable = False  # shared by every state of the map
    return costs


def _sixths(mp: np.ndarray, what: str) -> np.ndarray:
    """Return MP costs in whole sixths; a cost that is not a multiple of 1/6 MP is a rules error."""
    scaled = np.asarray(mp, dtype=float) * SIXTHS
    whole = np.rint(scaled)
    if not np.allclose(scaled, whole, atol=1e-6):
        odd = sorted({float(v) for v in np.asarray(mp)[~np.isclose(scaled, whole, atol=1e-6)]})
        raise ValueError(f"{what}: {odd} MP is not a whole number of sixths; the supply search counts sixths")
    return whole.astype(np.int64)


def _as_mp(sixths: np.ndarray | int) -> np.ndarray | float:
    """Convert distances in sixths of an MP (FAR: no line) to MPs (inf)."""
    value = np.where(np.asarray(sixths) >= FAR, INF, np.asarray(sixths) / SIXTHS)
    return float(value) if value.ndim == 0 else value


def _as_hexes(count: np.ndarray | int) -> np.ndarray | float:
    """Convert hex counts (FAR: no line) to floats (inf)."""
    value = np.where(np.asarray(count) >= FAR, INF, np.asarray(count, dtype=float))
    return float(value) if value.ndim == 0 else value


@lru_cache(maxsize=8)
def _water_names(system: str) -> np.ndarray:
    """Return the name of the water each directed edge crosses ("" where none is named)."""
    names = terrain_map(system, progress=False).hexsides["water_name"].fillna("").to_numpy()
    return names[edge_arrays(system).side]


@lru_cache(maxsize=8)
def _impassable(system: str) -> np.ndarray:
    """Hexes no line may enter: sea and impassable terrain."""
    terrain = terrain_map(system, progress=False).hexes["terrain"].to_numpy()
    return np.isin(terrain, ["Sea", "All Sea", "Impassable"])


@dataclass(frozen=True)
class _Situation:
    """Where the units of a state stand, computed once for both sides' lines and hex control."""

    position: dict[str, int]  # unit id -> dense hex index
    occupied: dict[str, np.ndarray]  # side -> hexes its active units hold
    zoc: dict[str, np.ndarray]  # side -> hexes in its ZOC (5.1, 5.3)

    @classmethod
    def of(cls, state: GameState) -> _Situation:
        g = grid(state.system)
        index_of = g._index_of_id  # unit hexes are canonical ids (the scenario loader made them so)
        position = {u.id: index_of[u.hex] if u.hex in index_of else g.index(u.hex) for u in state.units}
        occupied = {side: np.zeros(len(g), dtype=bool) for side in ("allied", "german")}
        for u in state.units:
            if u.status == "active":
                occupied[u.side][position[u.id]] = True
        zoc = {side: zoc_mask(state, side, occupied[side]) for side in ("allied", "german")}
        return cls(position, occupied, zoc)


class _Lines:
    """One side's lines of supply on a state: what blocks them (7.3), and searches over them.

    A line may not enter a hex held by an enemy unit, nor a vacant hex in an
    EZOC (a friendly unit there negates it, 5.4), nor an interdicted hex
    (the "block" what-if), nor the sea.  Distances are integers: hexes, or
    sixths of an MP; FAR means no line.
    """

    def __init__(self, state: GameState, side: str, situation: _Situation):
        g = grid(state.system)
        self.g = g
        self.n = len(g)
        self.graph = map_graph(state.system)
        self.costs = _edge_costs(state.system, state.destroyed_bridges)
        enemy_side = other_side(side)
        self.friendly, self.enemy = situation.occupied[side], situation.occupied[enemy_side]
        self.enemy_units_at: dict[int, list[str]] = {}
        for u in state.units_of(enemy_side):
            self.enemy_units_at.setdefault(situation.position[u.id], []).append(u.id)
        self.in_ezoc = situation.zoc[enemy_side]
        interdicted = np.zeros(self.n, dtype=bool)
        if state.options.get("what_if_interdiction", "block") == "block":
            for hex_id in state.interdicted_hexes:
                interdicted[g.index(hex_id)] = True
        self.interdicted = interdicted
        self.blocked = self.enemy | (self.in_ezoc & ~self.friendly) | interdicted | _impassable(state.system)
        self._labels: np.ndarray | None = None

    def _weights(self, metric: str, free: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """Return the step costs (reverse rows) and first-step costs (forward rows) of a metric."""
        c = self.costs
        step = c.rev_ones if metric == "hexes" else c.rev_mp
        first = c.fwd_zeros if free else c.fwd_ones if metric == "hexes" else c.fwd_first_mp
        return step, first

    def search(self, roots, metric: str, limit: int = FAR, stop=()) -> tuple[np.ndarray, np.ndarray]:
        """Return the distance of every hex to the nearest root by legal lines, and each line's next hex.

        The search may stop once every hex in ``stop`` is settled: other
        hexes' distances are then only upper bounds.
        """
        gr = self.graph
        step, _ = self._weights(metric)
        dist, pred, _ = search_full(
            gr.rev_ptr, gr.rev_nbr, self.costs.rev_open, step, self.blocked,
            np.asarray(roots, dtype=np.int64), int(limit), np.asarray(stop, dtype=np.int64),
        )  # fmt: skip
        return dist, pred

    def to_roots(self, roots, origins: np.ndarray, metric: str, limit: int, free: bool = False):
        """Return each origin's distance to the nearest root within ``limit`` and its line (ragged).

        The origin's own first step across unbridged water counts (7.3.2), free for an HQ (14.2.1).
        """
        gr, c = self.graph, self.costs
        step, first = self._weights(metric, free)
        return self._run(
            lines_from, gr.rev_ptr, gr.rev_nbr, gr.fwd_ptr, gr.fwd_nbr, c.rev_open, step,
            c.fwd_first, first, self.blocked, np.asarray(roots, dtype=np.int64), int(limit), origins,
        )  # fmt: skip

    def _run(self, kernel, *args):
        """Call a kernel with this map's workspace; a failure discards the workspace (it may be dirty)."""
        try:
            return kernel(*args, *workspace(self.graph).arrays())
        except Exception:
            discard_workspace(self.graph)
            raise

    def nearest(self, origins: np.ndarray, targets) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return each origin's hex count to its nearest target at any length, and the lines (ragged).

        The origin's own first step across water is free: it is an HQ (7.3.2 exception).
        """
        gr, c = self.graph, self.costs
        is_target = np.zeros(self.n, dtype=bool)
        is_target[np.asarray(targets, dtype=np.int64)] = True
        return self._run(
            nearest_each, gr.rev_ptr, gr.rev_nbr, gr.fwd_ptr, gr.fwd_nbr, c.rev_open,
            c.fwd_first, self.blocked, c.rev_ones, origins, is_target,
        )  # fmt: skip

    def near(self, targets: list[int], units: np.ndarray, limits: _Limits) -> list[int]:
        """Return the targets a unit range search from them could reach some of ``units`` in.

        A line of L sixths of an MP crosses at most L / (cheapest step) hexes, plus the
        unit's own first step; farther targets are left out of the search (the result is
        the same, the search smaller).
        """
        if not len(targets) or not len(units):
            return []
        reach = max(limits.hexes_n + 1, (limits.mp_n + RANGE_SLACK_MP) // self.costs.cheapest_mp) + 1
        t = np.asarray(targets)
        q, r = self.g._q, self.g._r
        dq = q[t][:, None] - q[units][None, :]
        dr = r[t][:, None] - r[units][None, :]
        apart = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr))
        return t[(apart <= reach).any(axis=1)].tolist()

    def land_neighbours(self, hex_index: int) -> list[int]:
        """Return the hexes next to a hex across land hexsides (whose units' ZOC reaches it, 5.3)."""
        gr = self.graph
        row = slice(gr.fwd_ptr[hex_index], gr.fwd_ptr[hex_index + 1])
        return gr.fwd_nbr[row][self.costs.land[gr.fwd_eid[row]]].tolist()

    def reaches(self, targets, nodes: np.ndarray) -> np.ndarray:
        """Tell whether each hex has a line of any length to one of ``targets`` (first step included)."""
        gr = self.graph
        if self._labels is None:
            self._labels = components(gr.rev_ptr, gr.rev_nbr, self.costs.rev_open, self.blocked)
        flagged = np.zeros(int(self._labels.max()) + 1, dtype=bool)
        flagged[self._labels[np.asarray(targets, dtype=np.int64)]] = True
        return reach_flags(
            gr.fwd_ptr, gr.fwd_nbr, self.costs.fwd_first, self.blocked, self._labels, flagged, nodes
        )

    def ranges(
        self, groups: list[list[int]], asked: list[list[int]], query: np.ndarray, limits: _Limits
    ) -> _Ranges:
        """Return the unit ranges (7.3.1) of groups of targets: distances asked about, lines, covers."""
        gr = self.graph
        c = self.costs
        group_ptr = np.zeros(len(groups) + 1, dtype=np.int64)
        np.cumsum([len(t) for t in groups], out=group_ptr[1:])
        asked_ptr = np.zeros(len(asked) + 1, dtype=np.int64)
        np.cumsum([len(a) for a in asked], out=asked_ptr[1:])
        result = self._run(
            group_ranges, gr.rev_ptr, gr.rev_nbr, gr.fwd_ptr, gr.fwd_nbr,
            c.rev_open, c.rev_first, c.fwd_first,
            self.blocked, (c.rev_ones, c.rev_mp), (c.rev_ones, c.rev_first_mp), (c.fwd_ones, c.fwd_first_mp),
            # Search a little beyond the range, to say by how much a unit misses it.
            np.array([limits.hexes_n + 1, limits.mp_n + RANGE_SLACK_MP]),
            np.array([limits.hexes_n, limits.mp_n]),
            group_ptr, np.array([t for group in groups for t in group], dtype=np.int64),
            asked_ptr, np.array([q for a in asked for q in a], dtype=np.int64), query,
        )  # fmt: skip
        return _Ranges(*result)

    def explain(self, roots: list[int], origins: np.ndarray) -> tuple[np.ndarray, ...]:
        """Return the first block on each origin's best line over the unblocked map (:func:`first_blocks`)."""
        gr = self.graph
        c = self.costs
        return self._run(
            first_blocks, gr.rev_ptr, gr.rev_nbr, c.rev_land, c.rev_ones, c.rev_first, self.blocked,
            workspace(gr).clear, np.asarray(roots, dtype=np.int64), origins,
        )  # fmt: skip

    def usable(self) -> np.ndarray:
        """Return the edges (rows of :func:`~normandy_lab.network.edge_arrays`) a line may take."""
        e = edge_arrays(self.g.system)
        return self.costs.open & ~self.blocked[e.src] & ~self.blocked[e.dst]

    def reverse_matrix(self, metric: str = "mp") -> csr_matrix:
        """Return the usable edges as a reverse ``scipy.sparse`` matrix (rows: hex entered)."""
        gr = self.graph
        keep = self.usable()[gr.rev_eid]
        counts = np.concatenate(([0], np.cumsum(keep)))[gr.rev_ptr]
        step, _ = self._weights(metric)  # already in reverse-row order
        weight = step / SIXTHS if metric == "mp" else step.astype(float)
        return csr_matrix((weight[keep], gr.rev_nbr[keep], counts), shape=(self.n, self.n))


@dataclass(frozen=True)
class _Ranges:
    """The result of :meth:`_Lines.ranges`: ``dist[group, metric, query]`` (0: hexes, 1: MP sixths)."""

    dist: np.ndarray
    line_start: np.ndarray
    line_stop: np.ndarray
    lines: np.ndarray
    cover_ptr: np.ndarray
    cover: np.ndarray

    def line(self, group: int, metric: int, query: int) -> np.ndarray:
        n_metrics, n_query = self.dist.shape[1], self.dist.shape[2]
        slot = (group * n_metrics + metric) * n_query + query
        return self.lines[self.line_start[slot] : self.line_stop[slot]]

    def covered(self, group: int) -> np.ndarray:
        return self.cover[self.cover_ptr[group] : self.cover_ptr[group + 1]]


@dataclass
class _Limits:
    """Supply ranges in MPs and hexes (7.2, 7.3.1), halved in bad weather (7.3.3)."""

    hexes: float
    mp: float
    division: float

    @property
    def hexes_n(self) -> int:
        return int(self.hexes)

    @property
    def mp_n(self) -> int:  # in sixths
        return round(self.mp * SIXTHS)

    @property
    def division_n(self) -> int:  # in sixths
        return round(self.division * SIXTHS)


class _SideSupply:
    """The supply determination of one side (7.2-7.6), step by step."""

    def __init__(
        self, state: GameState, side: str, lines: _Lines, rules, limits: _Limits, position, control
    ) -> None:
        g = lines.g
        self.state, self.side, self.lines, self.rules, self.limits = state, side, lines, rules, limits
        self.ids = g._ids
        self.units = state.units_of(side)
        self.at = np.array([position[u.id] for u in self.units], dtype=np.int64)
        self.query = {u.id: k for k, u in enumerate(self.units)}
        if side == "allied":
            self.sources = sorted({g.index(b.hex) for b in state.beachheads})
            self.by_nation = {
                "US": sorted({g.index(b.hex) for b in state.beachheads if b.nationality in US}),
                "CW": sorted({g.index(b.hex) for b in state.beachheads if b.nationality in CW}),
            }
        else:
            self.sources = _german_sources(state, rules, control)
            self.by_nation = {"DE": list(self.sources)}
        self.reports = {u.id: UnitSupply(unit_id=u.id, side=side, hex=u.hex) for u in self.units}
        self.attached_to: dict[str, str] = {}  # unit id -> formation whose HQ supplies it
        self._attach_count: dict[str, int] = {}  # formation -> units attached to its HQ (7.2: three)
        self._brigade_division: dict[str, str] = {}  # CW armoured brigade -> the division supplying it
        self.kind: dict[str, str] = {}  # unit id -> what it traced to (source, division HQ, corps HQ...)

    def _path(self, nodes: np.ndarray) -> list[str]:
        return self.ids[nodes].tolist()

    def run(self) -> None:
        self.corps_hqs()
        self.division_hqs()
        self.unit_lines()
        self.combat()
        self.why()

    def corps_hqs(self) -> None:
        """7.2: corps HQs at any length to a source; beachheads are corps HQs until 11 June."""
        lines = self.lines
        corps = [u for u in self.units if u.hq == "corps"]
        hexes = self.at[[self.query[u.id] for u in corps]].astype(np.int64)
        best, ptr, flat = lines.nearest(hexes, self.sources)
        ok = best < FAR
        length = _as_hexes(best)
        self.corps_ok = {}
        for j, u in enumerate(corps):
            r = self.reports[u.id]
            r.general = self.corps_ok[u.id] = bool(ok[j])
            r.limit = "any length to a source (7.2)"
            r.length_hexes = float(length[j])
            r.traced_to = "source" if r.general else ""
            r.path = self._path(flat[ptr[j] : ptr[j + 1]])
        self.corps_hexes = sorted({int(h) for h, k in zip(hexes, ok, strict=True) if k})
        beachheads_as_corps = self.state.date < dt.date.fromisoformat(
            self.rules.supply["beachheads_are_corps_hq_until"]
        )
        if self.side == "allied" and beachheads_as_corps:
            self.corps_hexes = sorted(set(self.corps_hexes) | set(self.sources))

    def division_hqs(self) -> None:
        """7.2: division (and KG) HQs within 20 MP of a source or an in-supply corps HQ; 7.6.1 for combat."""
        lines, limit = self.lines, self.limits.division_n
        self.divs = [u for u in self.units if u.hq in ("division", "kg")]
        hexes = self.at[[self.query[u.id] for u in self.divs]].astype(np.int64)
        # Search a little beyond the limit (6 MP), to say by how much an HQ misses it.
        reach = limit + 6 * SIXTHS
        roots = sorted(set(self.sources) | set(self.corps_hexes))
        best, ptr, flat = lines.to_roots(roots, hexes, "mp", reach, free=True)
        ok = best <= limit
        length = _as_mp(best)
        # 7.6.1: for combat supply a division HQ may not skip its corps HQ.
        combat_best, _, _ = lines.to_roots(self.corps_hexes, hexes, "mp", limit, free=True)
        self.div_ok, self.div_combat = {}, {}
        text = f"{self.limits.division:g} MP to a source or an in-supply corps HQ (7.2)"
        for j, u in enumerate(self.divs):
            r = self.reports[u.id]
            r.general = self.div_ok[u.id] = bool(ok[j])
            r.limit = text
            r.length_mp = float(length[j])
            r.traced_to = "source or corps HQ" if r.general else ""
            r.path = self._path(flat[ptr[j] : ptr[j + 1]]) if r.general else []
            self.div_combat[u.formation] = bool(ok[j]) and bool(combat_best[j] <= limit)
        self.hq_of = {u.formation: u for u in self.divs}

    def unit_lines(self) -> None:
        """7.2, 7.3.1: every other unit within 6 hexes or 6 MP of a source or of its supplying HQ."""
        state, rules, limits = self.state, self.rules, self.limits
        supply_rules = rules.supply
        units, m = self.units, len(self.units)
        pathfinder_on = (
            self.side == "allied"
            and bool(state.pathfinders)
            and (state.date.isoformat(), state.turn) in {tuple(t) for t in supply_rules["pathfinder_turns"]}
        )
        airborne_types = supply_rules["airborne_types"]
        plain = [q for q, u in enumerate(units) if not u.hq and u.type != "ship"]
        headless = {q for q in plain if not units[q].formation or units[q].formation not in self.hq_of}
        airborne = [
            q
            for q in plain
            if units[q].type in airborne_types or "airborne" in (units[q].formation or "").lower()
        ]
        # The groups of targets, and which units ask each: the sources (every unit), the corps HQs
        # (units of no division), the pathfinders (7.4, 7.5, 17.1: airborne units, 6-7 June), and
        # each division HQ (its own units, and, when in supply, any unit that may attach to it).
        groups = [self.lines.near(self.sources, self.at[plain], limits), self.corps_hexes]
        asked = [plain, sorted(headless)]
        if pathfinder_on:
            groups.append(sorted(self.lines.g.index(h) for h in state.pathfinders))
            asked.append(airborne)
        first_div = len(groups)
        div_order = sorted(self.divs, key=lambda u: str(u.formation))
        self.group_of = {u.formation: first_div + k for k, u in enumerate(div_order)}
        members: dict[str, list[int]] = {}
        for q in plain:
            members.setdefault(units[q].formation, []).append(q)
        for u in div_order:
            groups.append([int(self.at[self.query[u.id]])])
            own = members.get(u.formation, [])
            asked.append(sorted(set(own) | headless) if self.div_ok[u.id] else own)
        ranges = self.lines.ranges(groups, asked, self.at, limits)
        self.ranges = ranges
        self.supplied_divs = [u for u in div_order if self.div_ok[u.id]]
        self.supplied_groups = [self.group_of[u.formation] for u in self.supplied_divs]
        self.cover_names = [u.id for u in self.supplied_divs] + ["corps HQ"]
        self.cover_groups = [self.group_of[u.formation] for u in self.supplied_divs] + [1]
        # Each unit's options in the order they are tried (-1: not open to it).
        options = np.full((m, 4), -1, dtype=np.int64)
        options[plain, 0] = 0
        if pathfinder_on:
            options[airborne, 1] = 2
        for q in plain:
            if q in headless:
                options[q, 3] = 1
            elif self.div_ok[self.hq_of[units[q].formation].id]:
                options[q, 2] = self.group_of[units[q].formation]
        rows = np.arange(m)[:, None]
        group = np.maximum(options, 0)
        within = (options >= 0) & (
            (ranges.dist[group, 0, rows] <= limits.hexes_n) | (ranges.dist[group, 1, rows] <= limits.mp_n)
        )
        chosen = np.where(within.any(axis=1), within.argmax(axis=1), -1)
        # Each unit's distance to each option in hexes and MPs (inf: none within the search).
        option_hexes = _as_hexes(ranges.dist[group, 0, rows]).tolist()
        option_mp = _as_mp(ranges.dist[group, 1, rows]).tolist()
        # Lines of the units that found a target, gathered at once.
        traced = np.nonzero(chosen >= 0)[0]
        traced_group = options[traced, chosen[traced]]
        by_hexes = ranges.dist[traced_group, 0, traced] <= limits.hexes_n
        # The line shown is the one that met the limit: in hexes if it did, else in MPs.
        slot = (traced_group * 2 + np.where(by_hexes, 0, 1)) * m + traced
        line_ids = self.ids[ranges.lines].tolist()
        found = {
            q: (c, start, stop)
            for q, c, start, stop in zip(
                traced.tolist(),
                chosen[traced].tolist(),
                ranges.line_start[slot].tolist(),
                ranges.line_stop[slot].tolist(),
                strict=True,
            )
        }
        range_text = f"{limits.hexes:g} hexes or {limits.mp:g} MP (7.3.1)"
        for q, u in enumerate(units):
            if u.hq:
                continue
            r = self.reports[u.id]
            if u.type == "ship":
                # Ships are not land units: they trace no line of supply; they
                # attach to any division for combat (Attachment Reference Chart).
                r.general, r.combat, r.traced_to = True, True, "ship at sea (not traced)"
                r.limit = "none (naval)"
                r.path = [u.hex]
                self.kind[u.id] = "ship"
                continue
            r.limit = range_text
            if q in found:
                column, start, stop = found[q]
                r.length_hexes, r.length_mp = option_hexes[q][column], option_mp[q][column]
                kind = ("source", "pathfinder", "division HQ", "corps HQ")[column]
                r.general = True
                r.traced_to = f"division HQ of {u.formation}" if column == 2 else kind
                r.path = line_ids[start:stop]
                self.kind[u.id] = kind
                continue
            if q in headless:
                self._attach(r, q, u)
            if not r.general:
                self._out_of_range(r, u, options[q].tolist(), option_hexes[q], option_mp[q])

    def _attach(self, r: UnitSupply, q: int, u: Unit) -> None:
        """Attach a non-division unit to an in-supply division HQ in range (7.2, at most three).

        The Attachment Reference Chart's exceptions: a CW division may supply one whole CW
        armoured brigade on top, and some types attach freely; US and CW do not mix (6.3).
        """
        supply_rules, limits = self.rules.supply, self.limits
        free = u.type in supply_rules["free_attach_types"]
        brigade = (
            u.formation
            if u.formation
            and u.nationality in supply_rules["brigade_attach_nationalities"]
            and u.type in supply_rules["brigade_attach_types"]
            else None
        )
        # The HQs in range, nearest in MPs first (ties in the order of their formations).
        dist = self.ranges.dist[self.supplied_groups, :, q]
        in_range = np.nonzero((dist[:, 0] <= limits.hexes_n) | (dist[:, 1] <= limits.mp_n))[0]
        for k in in_range[np.argsort(dist[in_range, 1], kind="stable")].tolist():
            hq = self.supplied_divs[k]
            f, group = hq.formation, self.group_of[hq.formation]
            same_army = self.side == "german" or _same_army(u.nationality, hq.nationality)
            if brigade and self._brigade_division.get(brigade, f) == f and _cw(hq.nationality):
                self._brigade_division[brigade] = f
                label = f"attached to division HQ of {f} (whole CW armoured brigade)"
            elif free and same_army:
                label = f"attached to division HQ of {f} (free attachment)"
            elif self._attach_count.get(f, 0) < supply_rules["attach_limit"] and same_army:
                self._attach_count[f] = self._attach_count.get(f, 0) + 1
                label = f"attached to division HQ of {f}"
            else:
                continue
            self._trace(r, q, label, group)
            self.attached_to[u.id] = f
            return

    def _out_of_range(
        self, r: UnitSupply, u: Unit, options: list[int], hexes: list[float], mp: list[float]
    ) -> None:
        """Record, for an unsupplied unit, each target it tried and by how much it missed (7.3.1)."""
        limits = self.limits
        labels = ("source", "pathfinder", f"division HQ of {u.formation}", "corps HQ")
        values = [(labels[c], hexes[c], mp[c]) for c, g in enumerate(options) if g >= 0]
        if not values:
            return
        best = min(values, key=lambda o: min(o[1] / max(limits.hexes, 1e-9), o[2] / max(limits.mp, 1e-9)))
        r.length_hexes, r.length_mp = best[1], best[2]
        for label, hx, to_mp in values:
            entry: dict[str, Any] = {"target": label, "hexes": hx, "mp": to_mp}
            if math.isfinite(hx) or math.isfinite(to_mp):
                need = min(hx - limits.hexes, to_mp - limits.mp)
                entry["why"] = f"out of range by {need:g} ({hx:g} hexes, {to_mp:g} MP)"
            else:
                entry["why"] = "no legal line"
            r.candidates.append(entry)

    def _lengths(self, group: int, q: int) -> tuple[float, float]:
        """Return a unit's distance to a group of targets in hexes and MPs (inf: none within the search)."""
        hexes, sixths = self.ranges.dist[group, :, q].tolist()
        return (INF if hexes >= FAR else float(hexes)), (INF if sixths >= FAR else sixths / SIXTHS)

    def _trace(self, r: UnitSupply, q: int, label: str, group: int) -> None:
        r.general, r.traced_to = True, label
        r.length_hexes, r.length_mp = self._lengths(group, q)
        # The line shown is the one that met the limit: in hexes if it did, else in MPs.
        metric = 0 if r.length_hexes <= self.limits.hexes else 1
        r.path = self._path(self.ranges.line(group, metric, q))
        self.kind[r.unit_id] = label.split(" (")[0]

    def combat(self) -> None:
        """7.6.1: combat supply runs unit -> division HQ -> corps HQ -> a source of its nation."""
        corps = [u for u in self.units if u.hq == "corps"]
        nation_ok: dict[str, np.ndarray] = {}
        if corps:
            hexes = self.at[[self.query[u.id] for u in corps]].astype(np.int64)
            nation_ok = {key: self.lines.reaches(t, hexes) for key, t in self.by_nation.items() if t}
        for u in self.units:
            r = self.reports[u.id]
            if not r.general or u.type == "ship":
                continue
            kind = self.kind.get(u.id, "")
            if u.hq == "corps":
                key = ("US" if u.nationality in US else "CW") if self.side == "allied" else "DE"
                j = corps.index(u)
                r.combat = bool(nation_ok[key][j]) if key in nation_ok else False
            elif u.hq in ("division", "kg"):
                r.combat = self.div_combat[u.formation]
            elif kind.startswith("division HQ"):
                r.combat = self.div_combat.get(u.formation, False)
            elif u.id in self.attached_to:
                r.combat = self.div_combat.get(self.attached_to[u.id], False)
            elif kind == "pathfinder":  # 7.5: General Supply only
                r.combat = False
            elif kind == "corps HQ":
                r.combat = True
            else:  # traced straight to a source: a division unit must still go through its HQ (7.6.1)
                r.combat = (not u.formation) or self.div_combat.get(u.formation, False)

    def why(self) -> None:
        """Isolation (7.5o), and for each unit out of supply the first thing that blocked its best line."""
        lines, limits, ids = self.lines, self.limits, self.ids
        if self.corps_hexes:
            reach = lines.reaches(self.corps_hexes, self.at)
        else:
            reach = np.zeros(len(self.units), dtype=bool)
        for u, reached in zip(self.units, reach.tolist(), strict=True):
            self.reports[u.id].isolated = not reached and not (u.hq == "corps" and self.corps_ok.get(u.id))
        out = [u for u in self.units if not self.reports[u.id].general]
        citing = {}  # unit id -> its out-of-supply division HQ, in whose range it is
        for u in out:
            hq = self.hq_of.get(u.formation) if u.hq is None else None
            if hq is not None and not self.reports[hq.id].general:
                group, q = self.group_of[u.formation], self.query[u.id]
                if (
                    self.ranges.dist[group, 0, q] <= limits.hexes_n
                    or self.ranges.dist[group, 1, q] <= limits.mp_n
                ):
                    citing[u.id] = hq
        asked = [u for u in out if u.id not in citing]
        if asked:
            supplied_hqs = [int(self.at[self.query[u.id]]) for u in self.supplied_divs]
            roots = sorted(set(self.sources) | set(self.corps_hexes) | set(supplied_hqs))
            origins = np.array([self.at[self.query[u.id]] for u in asked], dtype=np.int64)
            kind, at_a, at_b, at_e = (a.tolist() for a in lines.explain(roots, origins))
        for j, u in enumerate(asked):
            r = self.reports[u.id]
            if kind[j] == 1:
                r.blocking_hex = str(ids[at_b[j]])
                name = _water_names(self.state.system)[lines.graph.rev_eid[at_e[j]]]
                r.reason = (
                    f"unbridged {name or 'water'} between {ids[at_a[j]]} and {r.blocking_hex} "
                    "(7.3.2: only the unit's own first step may cross)"
                )
            elif kind[j] == 2:
                b = int(at_b[j])
                r.blocking_hex = str(ids[b])
                if lines.enemy[b]:
                    r.reason = f"enemy units in {r.blocking_hex} (7.3)"
                    r.blocking_units = list(lines.enemy_units_at.get(b, []))
                elif lines.interdicted[b]:
                    r.reason = f"{r.blocking_hex} is interdicted (what-if)"
                else:
                    r.reason = f"vacant hex {r.blocking_hex} in an EZOC (5.4, 7.3)"
                    r.blocking_units = sorted(
                        uid for near in lines.land_neighbours(b) for uid in lines.enemy_units_at.get(near, [])
                    )
            elif u.hq in ("division", "kg"):
                length = (
                    f"{r.length_mp:g} MP" if np.isfinite(r.length_mp) else f"over {limits.division + 6:g} MP"
                )
                r.reason = (
                    f"too far: {length} to a source or an in-supply corps HQ, limit {limits.division:g} (7.2)"
                )
            elif u.hq == "corps":
                r.reason = (
                    "no line of any length: cut off by the sea"
                    if kind[j] == 3
                    else "no line of any length to a source (7.2)"
                )
            else:
                text = "; ".join(f"{c['target']}: {c['why']}" for c in r.candidates)
                r.reason = f"out of range: {text}" if text else "no legal line (7.3)"
        for unit_id, hq in citing.items():
            r, hq_report = self.reports[unit_id], self.reports[hq.id]
            r.reason = f"its division HQ {hq.id} is out of supply: {hq_report.reason}"
            r.blocking_hex, r.blocking_units = hq_report.blocking_hex, list(hq_report.blocking_units)


def supply(state: GameState) -> SupplyReport:
    """Determine the General and Combat Supply of every unit (BfN 7.x) with the reasons.

    Returns
    -------
    SupplyReport
        ``report[unit_id]`` gives a :class:`UnitSupply`.
    """
    rules = ruleset(state.system)
    g = grid(state.system)
    halved = bool(rules.weather_effects[state.weather]["supply_halved"])
    factor = 0.5 if halved else 1.0  # 7.3.3
    limits = _Limits(
        hexes=rules.supply["unit_range_hexes"] * factor,
        mp=rules.supply["unit_range_mp"] * factor,
        division=rules.supply["division_hq_range_mp"] * factor,
    )
    situation = _Situation.of(state)
    control = hex_control(state, zoc=situation.zoc, occupied=situation.occupied)
    reports: dict[str, UnitSupply] = {}
    sides: dict[str, _SideSupply] = {}
    for side in ("allied", "german"):
        lines = _Lines(state, side, situation)
        determination = _SideSupply(state, side, lines, rules, limits, situation.position, control)
        determination.run()
        sides[side] = determination
        reports.update(determination.reports)
    # 7.5, June 6th exceptions: on the 6 June Night and Beach Invasion turns,
    # paratroops, invasion units and every German unit are in general and
    # combat supply whatever their lines.
    if state.turn in ("6 June Night", "6 June Invasion"):
        for r in reports.values():
            if not (r.general and r.combat):
                r.general = r.combat = True
                r.reason = ""
                r.traced_to = "6 June exception (7.5)"
                r.blocking_hex, r.blocking_units = "", []
    report = SupplyReport(
        state=state,
        units=reports,
        sources={side: [str(g._ids[s]) for s in d.sources] for side, d in sides.items()},
        halved=halved,
    )
    report._context = {"sides": sides, "limits": limits}
    return report


def supply_networkx(state: GameState, side: str) -> dict[str, float]:
    """Compute each unit's supply-MP distance to the nearest source with networkx (the reference).

    Blocked hexes and unbridged water are hidden with a weight callable
    that returns None (the first-step exception is not applied here: the
    tests compare it with the fast path's plain distances).
    """
    import networkx as nx

    from normandy_lab.network import to_networkx

    rules = ruleset(state.system)
    g = grid(state.system)
    lines = _side_lines(state, side)
    graph = to_networkx(terrain_map(state.system, progress=False))
    ids = g.ids()
    e = edge_arrays(state.system)
    step_of = {
        (ids[a], ids[b]): float(w)
        for a, b, w, ok in zip(e.src, e.dst, lines.costs.mp / SIXTHS, lines.usable(), strict=True)
        if ok
    }

    def weight(u: str, v: str, data: dict[str, Any]) -> float | None:
        return step_of.get((v, u))  # the reverse graph: lines run from v towards u

    if side == "allied":
        sources = [b.hex for b in state.beachheads]
    else:
        sources = [ids[i] for i in _german_sources(state, rules, hex_control(state))]
    dist = nx.multi_source_dijkstra_path_length(graph.reverse(copy=False), sources, weight=weight)
    return {u.id: float(dist.get(u.hex, INF)) for u in state.units_of(side)}


def supply_distances(state: GameState, side: str) -> dict[str, float]:
    """Compute each unit's plain supply-MP distance to the nearest source on the fast path."""
    rules = ruleset(state.system)
    g = grid(state.system)
    lines = _side_lines(state, side)
    if side == "allied":
        sources = sorted({g.index(b.hex) for b in state.beachheads})
    else:
        sources = _german_sources(state, rules, hex_control(state))
    dist, _ = lines.search(sources, "mp")
    return {u.id: float(_as_mp(dist[g.index(u.hex)])) for u in state.units_of(side)}


def _side_lines(state: GameState, side: str) -> _Lines:
    """One side's lines on a state, built on their own (for the references and the benchmark)."""
    return _Lines(state, side, _Situation.of(state))


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
    reach = ruleset(state.system).supply["defensive_support_hexes"]
    return any(
        report[other.id].general and g.distance(unit.hex, other.hex) <= reach
        for other in state.units_of(unit.side)
        if other.id != unit_id
    )


def effective_strength(unit: Unit, report: SupplyReport, attack: int) -> int:
    """Attack strength after supply (7.5: halved, rounded up, when out of general supply)."""
    return attack if report[unit.id].general else math.ceil(attack / 2)
