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
import itertools
import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from normandy_lab.engine.state import GameState, Unit, other_side
from normandy_lab.engine.zoc import hex_control, zoc_mask
from normandy_lab.grid import grid
from normandy_lab.network import edge_arrays
from normandy_lab.rules import ruleset
from normandy_lab.terrain import ROAD_CLASSES, terrain_map

CW = ("UK", "CA", "PL")
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
        """Return one row per unit: its position (point) and supply columns; see :meth:`paths`."""
        import geopandas as gpd

        g = grid(self.state.system)
        rows = []
        for r in self.units.values():
            rows.append(
                {
                    "unit_id": r.unit_id,
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

        For an HQ in supply: the hexes within 6 hexes or 6 MPs (halved in bad
        weather) by a legal line; for a source hex likewise.
        """
        ctx = self._context
        g = grid(self.state.system)
        if hq_or_source in ctx["unit_index"]:
            unit = self.state.unit(hq_or_source)
            side, target = unit.side, g.index(unit.hex)
        else:
            target = g.index(hq_or_source)
            side = "allied" if hq_or_source in self.sources["allied"] else "german"
        tracer = ctx["tracers"][side]
        reach = tracer.unit_range_mask([target], ctx["unit_hex_limit"], ctx["unit_mp_limit"])
        ids = np.asarray(g.ids(), dtype=object)
        return set(ids[reach])

    def hq_ranges_at(self) -> dict[str, np.ndarray]:
        """Return, per side, the names of the in-supply HQs whose range covers each hex ("; "-joined).

        Division (and KG) HQs by id, and "corps HQ" for the corps HQs' ranges (7.2, 7.3.1).
        """
        out = {}
        for side, (names, cover) in self._context["hq_cover"].items():
            text = np.full(cover.shape[1], "", dtype=object)
            for name, row in zip(names, cover, strict=True):
                hit = np.nonzero(row)[0]
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


class _Tracer:
    """The reverse graphs of one side's lines of supply, and distances on them."""

    def __init__(self, state: GameState, side: str, rules) -> None:
        g = grid(state.system)
        self.g = g
        self.n = len(g)
        tmap = terrain_map(state.system, progress=False)
        edges = edge_arrays(state.system)
        self.edges = edges
        terrain = tmap.hexes["terrain"].to_numpy()
        self.terrain = terrain
        friendly = np.zeros(self.n, dtype=bool)
        enemy = np.zeros(self.n, dtype=bool)
        self.enemy_units_at: dict[int, list[str]] = {}
        for u in state.units:
            if u.status != "active":
                continue
            i = g.index(u.hex)
            if u.side == side:
                friendly[i] = True
            else:
                enemy[i] = True
                self.enemy_units_at.setdefault(i, []).append(u.id)
        self.friendly, self.enemy = friendly, enemy
        self.in_ezoc = zoc_mask(state, other_side(side))
        interdicted = np.zeros(self.n, dtype=bool)
        if state.options.get("what_if_interdiction", "block") == "block":
            for hex_id in state.interdicted_hexes:
                interdicted[g.index(hex_id)] = True
        self.interdicted = interdicted
        sea = np.isin(terrain, ["Sea", "All Sea", "Impassable"])
        self.blocked = enemy | (self.in_ezoc & ~friendly) | interdicted | sea
        # Water hexsides without a standing bridge (destroyed bridges count as none).
        destroyed = np.zeros(len(tmap.hexsides), dtype=bool)
        if state.destroyed_bridges:
            destroyed = tmap.hexsides.index.isin(list(state.destroyed_bridges))
        bridged = (edges.road_bridge | edges.rail_bridge) & ~destroyed[edges.side]
        self.wet = (edges.water > 0) & ~bridged
        # Supply MP of entering the next hex (7.3.2, infantry rates in any weather).
        marsh_cost = rules.supply["marsh_supply_cost"]
        hex_cost = _supply_hex_cost(state.system, id(rules))
        road_rate = rules.supply["road_cost"]
        by_road = np.array([road_rate.get(name, np.nan) for name in ROAD_CLASSES])
        step = np.where(edges.road > 0, by_road[edges.road], hex_cost[edges.dst])
        step = np.where((edges.road == 0) & edges.railway, road_rate["railway"], step)
        self.step_mp = step
        water_cost = np.where(edges.water >= 3, marsh_cost, 2.0)  # a river takes all MPs, a stream +2 (10.6)
        self.first_step_mp = step + np.where(self.wet, water_cost, 0.0)
        usable = ~edges.all_sea & ~self.wet & ~self.blocked[edges.src] & ~self.blocked[edges.dst]
        self.usable = usable
        self.reverse_mp = self._reverse(usable, step)
        self.reverse_hex = self._reverse(usable, np.ones(len(edges)))
        # Edges a unit may take as its first step only: across unbridged water.
        self.first = ~edges.all_sea & self.wet & ~self.blocked[edges.dst]
        self.first_src = edges.src[self.first]
        self.first_dst = edges.dst[self.first]
        self.first_mp = self.first_step_mp[self.first]

    def _reverse(self, mask: np.ndarray, weight: np.ndarray) -> csr_matrix:
        # Reverse orientation: distances from a target to every hex are the
        # costs of lines running from those hexes to the target.  The edges'
        # (dst, src) order is fixed per map, so the CSR arrays are cut from it
        # directly, without scipy's conversion and sorting.
        return _masked_csr(self.edges.system, mask, weight, self.n)

    def distances(self, targets: list[int], hexes: bool = False, limit: float = INF) -> np.ndarray:
        """Distances (MP or hexes) of every hex to the nearest target, by legal lines."""
        if not targets:
            return np.full(self.n, INF)
        matrix = self.reverse_hex if hexes else self.reverse_mp
        return dijkstra(matrix, indices=targets, min_only=True, limit=limit)

    def with_first_step(
        self, dist: np.ndarray, hexes: bool = False, free_crossing: bool = False
    ) -> np.ndarray:
        """Add the tracing unit's own first step across unbridged water (7.3.2)."""
        out = dist.copy()
        step = 0.0 if free_crossing else 1.0 if hexes else self.first_mp
        np.minimum.at(out, self.first_src, dist[self.first_dst] + step)
        return out

    def unit_range_mask(self, targets: list[int], hex_limit: float, mp_limit: float) -> np.ndarray:
        """Hexes from which a unit traces to a target within the hex or the MP limit."""
        d_hex = self.with_first_step(self.distances(targets, hexes=True, limit=hex_limit + 1), hexes=True)
        d_mp = self.with_first_step(self.distances(targets, limit=mp_limit + 6))
        return (d_hex <= hex_limit) | (d_mp <= mp_limit + 1e-9)


@lru_cache(maxsize=8)
def _reverse_order(system: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Edge rows sorted by (dst, src), with their dst and src: the layout of a reverse CSR matrix."""
    e = edge_arrays(system)
    order = np.lexsort((e.src, e.dst))
    return order, e.dst[order].astype(np.int32), e.src[order].astype(np.int32)


def _masked_csr(system: str, mask: np.ndarray, weight: np.ndarray, n: int) -> csr_matrix:
    """Build the reverse graph (rows: hex entered, columns: hex left) of the edges in ``mask``."""
    order, dst, src = _reverse_order(system)
    keep = mask[order]
    indptr = np.zeros(n + 1, dtype=np.int32)
    np.cumsum(np.bincount(dst[keep], minlength=n), out=indptr[1:])
    matrix = csr_matrix((np.asarray(weight, dtype=float)[order][keep], src[keep], indptr), shape=(n, n))
    matrix.has_sorted_indices = True
    return matrix


@lru_cache(maxsize=8)
def _unblocked_reverse(system: str) -> csr_matrix:
    """Return the reverse graph of every land step, blocks ignored (to explain failures); one per map."""
    e = edge_arrays(system)
    n = len(grid(system))
    return _masked_csr(system, ~e.all_sea, np.ones(len(e.src)), n)


def _cw(nationality: str | None) -> bool:
    return nationality in CW


def _same_army(a: str | None, b: str | None) -> bool:
    """US and CW units may not attach to each other's divisions (6.3)."""
    return (a in US) == (b in US)


def _german_sources(state: GameState, rules, control: np.ndarray) -> list[int]:
    """7.4: road hexes leaving the east or south map edge, and German-controlled supply-city hexes."""
    tmap = terrain_map(state.system, progress=False)
    sources = list(_edge_road_hexes(state.system))
    builtup = tmap.hexes["builtup_name"].to_numpy()
    settlement = tmap.hexes["settlement"].to_numpy()
    for i in np.nonzero((settlement == "City") & np.isin(builtup, list(state.german_supply_cities)))[0]:
        if control[i] != "allied":
            sources.append(int(i))
    return sorted(set(sources))


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


@lru_cache(maxsize=8)
def _edge_lookup(system: str) -> dict[tuple[int, int], int]:
    """Map (hex left, hex entered) to the directed edge's row (depends only on the map)."""
    e = edge_arrays(system)
    return {(a, b): k for k, (a, b) in enumerate(zip(e.src.tolist(), e.dst.tolist(), strict=True))}


class _Explainer:
    """Why lines fail: one search from all of a side's supply points over the unblocked map.

    The best line from a unit to the nearest supply point, ignoring what
    blocks lines (enemy units, EZOCs, unbridged water beyond the first step,
    interdiction), is walked from the unit; the first block on it is the
    reason.  One search serves every unit of the side.
    """

    def __init__(self, tracer: _Tracer, targets: list[int]) -> None:
        n = tracer.n
        self.tracer = tracer
        reverse = _unblocked_reverse(tracer.g.system)
        if targets:
            self.dist, self.pred, _ = dijkstra(
                reverse, indices=targets, min_only=True, return_predecessors=True
            )
        else:
            self.dist, self.pred = np.full(n, INF), np.full(n, -9999)
        self.targets = set(targets)
        self.edge_at = _edge_lookup(tracer.g.system)

    def explain(self, origin: int, state: GameState) -> dict[str, Any]:
        tracer, g = self.tracer, self.tracer.g
        if not np.isfinite(self.dist[origin]):
            return {"reason": "no line of any length: cut off by the sea"}
        path = [origin]
        while self.pred[path[-1]] >= 0:
            path.append(int(self.pred[path[-1]]))
        target = path[-1]
        for step, (a, b) in enumerate(itertools.pairwise(path)):
            k = self.edge_at[(a, b)]
            if tracer.wet[k] and step > 0:
                name = (
                    terrain_map(state.system, progress=False).hexsides["water_name"].iat[tracer.edges.side[k]]
                )
                return {
                    "reason": f"unbridged {name or 'water'} between {g._ids[a]} and {g._ids[b]} "
                    "(7.3.2: only the unit's own first step may cross)",
                    "hex": str(g._ids[b]),
                    "units": [],
                }
            if tracer.blocked[b] and b != target:
                hex_id = str(g._ids[b])
                if tracer.enemy[b]:
                    return {
                        "reason": f"enemy units in {hex_id} (7.3)",
                        "hex": hex_id,
                        "units": tracer.enemy_units_at.get(b, []),
                    }
                if tracer.interdicted[b]:
                    return {"reason": f"{hex_id} is interdicted (what-if)", "hex": hex_id, "units": []}
                exerting = [
                    uid for j in g.neighbors(hex_id) for uid in tracer.enemy_units_at.get(g.index(j), [])
                ]
                return {
                    "reason": f"vacant hex {hex_id} in an EZOC (5.4, 7.3)",
                    "hex": hex_id,
                    "units": sorted(exerting),
                }
        return {"reason": "", "hex": "", "units": []}


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
    factor = 0.5 if halved else 1.0
    unit_hex_limit = rules.supply["unit_range_hexes"] * factor
    unit_mp_limit = rules.supply["unit_range_mp"] * factor
    div_limit = rules.supply["division_hq_range_mp"] * factor
    control = hex_control(state)
    reports: dict[str, UnitSupply] = {}
    source_ids: dict[str, list[str]] = {}
    tracers: dict[str, _Tracer] = {}
    hq_cover: dict[str, tuple[list[str], np.ndarray]] = {}
    beachheads_as_corps = state.date < dt.date.fromisoformat(rules.supply["beachheads_are_corps_hq_until"])
    for side in ("allied", "german"):
        tracer = _Tracer(state, side, rules)
        tracers[side] = tracer
        if side == "allied":
            sources = sorted({g.index(b.hex) for b in state.beachheads})
            by_nation = {
                "US": sorted({g.index(b.hex) for b in state.beachheads if b.nationality in US}),
                "CW": sorted({g.index(b.hex) for b in state.beachheads if b.nationality in CW}),
            }
        else:
            sources = _german_sources(state, rules, control)
            by_nation = {"DE": [s for s in sources]}
        source_ids[side] = [str(g._ids[s]) for s in sources]
        units = state.units_of(side)
        pos = {u.id: g.index(u.hex) for u in units}
        src_any = tracer.distances(sources, hexes=True)
        src_any = tracer.with_first_step(src_any, hexes=True, free_crossing=True)
        # Corps HQs: any length to a source (7.2); beachheads are corps HQs until 11 June.
        corps = [u for u in units if u.hq == "corps"]
        corps_ok = {u.id: bool(np.isfinite(src_any[pos[u.id]])) for u in corps}
        corps_hexes = [pos[u.id] for u in corps if corps_ok[u.id]]
        if side == "allied" and beachheads_as_corps:
            corps_hexes = sorted(set(corps_hexes) | set(sources))
        # Division (and KG) HQs: 20 MP to a source or an in-supply corps HQ.
        to_src_or_corps = tracer.with_first_step(
            tracer.distances(sorted(set(sources) | set(corps_hexes)), limit=div_limit + 6), free_crossing=True
        )
        divs = [u for u in units if u.hq in ("division", "kg")]
        div_ok = {u.id: bool(to_src_or_corps[pos[u.id]] <= div_limit + 1e-9) for u in divs}
        # Distances from each in-supply division HQ, and from the sources.
        div_targets = {u.formation: pos[u.id] for u in divs if div_ok[u.id]}
        hq_hex = {u.formation: pos[u.id] for u in divs}
        src_hex = tracer.with_first_step(
            tracer.distances(sources, hexes=True, limit=unit_hex_limit + 1), hexes=True
        )
        src_mp = tracer.with_first_step(tracer.distances(sources, limit=unit_mp_limit + 6))
        div_list = sorted(div_targets.items(), key=lambda kv: str(kv[0]))
        hq_rows = [v for _, v in div_list]
        if hq_rows:
            d_hex = dijkstra(tracer.reverse_hex, indices=hq_rows, limit=unit_hex_limit + 1)
            d_mp = dijkstra(tracer.reverse_mp, indices=hq_rows, limit=unit_mp_limit + 6)
            d_hex = np.vstack([tracer.with_first_step(row, hexes=True) for row in np.atleast_2d(d_hex)])
            d_mp = np.vstack([tracer.with_first_step(row) for row in np.atleast_2d(d_mp)])
        row_of = {f: k for k, (f, _) in enumerate(div_list)}
        formation_nation = {u.formation: u.nationality for u in divs}
        hq_names = [next(u.id for u in divs if u.formation == f) for f, _ in div_list]
        corps_hex_d = tracer.with_first_step(
            tracer.distances(corps_hexes, hexes=True, limit=unit_hex_limit + 1), hexes=True
        )
        corps_mp_d = tracer.with_first_step(tracer.distances(corps_hexes, limit=unit_mp_limit + 6))
        any_corps = tracer.with_first_step(tracer.distances(corps_hexes, hexes=True), hexes=True)
        # Which in-supply HQ's range covers each hex (for the explorer's hex hover).
        hq_cover[side] = (
            [*hq_names, "corps HQ"],
            np.vstack(
                [
                    *(
                        ((d_hex <= unit_hex_limit) | (d_mp <= unit_mp_limit + 1e-9))
                        if hq_rows
                        else np.zeros((0, tracer.n), dtype=bool)
                    ),
                    (corps_hex_d <= unit_hex_limit) | (corps_mp_d <= unit_mp_limit + 1e-9),
                ]
            ),
        )
        attach_count: dict[str, int] = {}
        brigade_division: dict[str, str] = {}  # CW armoured brigade -> the division supplying it
        # 7.4, 7.5, 17.1: pathfinder hexes act as division HQs of the airborne units.
        pathfinder_on = (
            side == "allied"
            and bool(state.pathfinders)
            and (state.date.isoformat(), state.turn) in {tuple(t) for t in rules.supply["pathfinder_turns"]}
        )
        if pathfinder_on:
            pf_hexes = sorted(g.index(h) for h in state.pathfinders)
            pf_hex = tracer.with_first_step(
                tracer.distances(pf_hexes, hexes=True, limit=unit_hex_limit + 1), hexes=True
            )
            pf_mp = tracer.with_first_step(tracer.distances(pf_hexes, limit=unit_mp_limit + 6))

        def within(hex_d: float, mp_d: float) -> bool:
            return hex_d <= unit_hex_limit or mp_d <= unit_mp_limit + 1e-9

        for u in units:
            i = pos[u.id]
            r = UnitSupply(unit_id=u.id, side=side, hex=u.hex)
            r.isolated = not np.isfinite(any_corps[i]) and not (u.hq == "corps" and corps_ok.get(u.id))
            if u.hq == "corps":
                r.general = corps_ok[u.id]
                r.limit = "any length to a source (7.2)"
                r.length_hexes = float(src_any[i])
                r.traced_to = "source" if r.general else ""
            elif u.hq in ("division", "kg"):
                r.general = div_ok[u.id]
                r.limit = f"{div_limit:g} MP to a source or an in-supply corps HQ (7.2)"
                r.length_mp = float(to_src_or_corps[i])
                r.traced_to = "source or corps HQ" if r.general else ""
            elif u.type == "ship":
                # Ships are not land units: they trace no line of supply; they
                # attach to any division for combat (Attachment Reference Chart).
                r.general, r.combat, r.traced_to = True, True, "ship at sea (not traced)"
                r.limit = "none (naval)"
            else:
                r.limit = f"{unit_hex_limit:g} hexes or {unit_mp_limit:g} MP (7.3.1)"
                options = [("source", float(src_hex[i]), float(src_mp[i]))]
                if pathfinder_on and (
                    u.type in rules.supply["airborne_types"] or "airborne" in (u.formation or "").lower()
                ):
                    options.append(("pathfinder", float(pf_hex[i]), float(pf_mp[i])))
                if u.formation in row_of:
                    k = row_of[u.formation]
                    options.append((f"division HQ of {u.formation}", float(d_hex[k, i]), float(d_mp[k, i])))
                if not u.formation or u.formation not in hq_hex:
                    options.append(("corps HQ", float(corps_hex_d[i]), float(corps_mp_d[i])))
                for label, hx, mp in options:
                    if within(hx, mp):
                        r.general, r.traced_to, r.length_hexes, r.length_mp = True, label, hx, mp
                        break
                headless = not u.formation or u.formation not in hq_hex
                if not r.general and headless:
                    # A non-division unit may attach to a division HQ (7.2, at most three),
                    # with the Attachment Reference Chart's two exceptions.
                    free = u.type in rules.supply["free_attach_types"]
                    brigade = (
                        u.formation
                        if u.formation
                        and u.nationality in rules.supply["brigade_attach_nationalities"]
                        and u.type in rules.supply["brigade_attach_types"]
                        else None
                    )
                    for f, k in sorted(row_of.items(), key=lambda kv: d_mp[kv[1], i]):
                        if not within(d_hex[k, i], d_mp[k, i]):
                            continue
                        if brigade and brigade_division.get(brigade, f) == f and _cw(formation_nation.get(f)):
                            brigade_division[brigade] = f
                            r.traced_to = f"attached to division HQ of {f} (whole CW armoured brigade)"
                        elif free and (
                            side == "german" or _same_army(u.nationality, formation_nation.get(f))
                        ):
                            r.traced_to = f"attached to division HQ of {f} (free attachment)"
                        elif attach_count.get(f, 0) < rules.supply["attach_limit"] and (
                            side == "german" or _same_army(u.nationality, formation_nation.get(f))
                        ):
                            attach_count[f] = attach_count.get(f, 0) + 1
                            r.traced_to = f"attached to division HQ of {f}"
                        else:
                            continue
                        r.general = True
                        r.length_hexes, r.length_mp = float(d_hex[k, i]), float(d_mp[k, i])
                        break
                if not r.general:
                    best = min(
                        options,
                        key=lambda o: min(o[1] / max(unit_hex_limit, 1e-9), o[2] / max(unit_mp_limit, 1e-9)),
                    )
                    r.length_hexes, r.length_mp = best[1], best[2]
                    for label, hx, mp in options:
                        entry = {"target": label, "hexes": hx, "mp": mp}
                        if np.isfinite(hx) or np.isfinite(mp):
                            need = min(hx - unit_hex_limit, mp - unit_mp_limit)
                            entry["why"] = f"out of range by {need:g} ({hx:g} hexes, {mp:g} MP)"
                        else:
                            entry["why"] = "no legal line"
                        r.candidates.append(entry)
            reports[u.id] = r
        # Combat supply (7.6.1): unit -> division HQ -> corps HQ -> source of its nation.
        corps_reach = tracer.with_first_step(
            tracer.distances(corps_hexes, limit=div_limit + 6), free_crossing=True
        )
        nation_any = {
            key: tracer.with_first_step(tracer.distances(hexes, hexes=True), hexes=True, free_crossing=True)
            for key, hexes in by_nation.items()
        }
        div_combat = {
            u.formation: div_ok[u.id] and bool(corps_reach[pos[u.id]] <= div_limit + 1e-9) for u in divs
        }
        for u in units:
            r = reports[u.id]
            if not r.general:
                continue
            if u.hq == "corps":
                key = ("US" if u.nationality in US else "CW") if side == "allied" else "DE"
                r.combat = bool(np.isfinite(nation_any.get(key, np.full(tracer.n, INF))[pos[u.id]]))
            elif u.hq in ("division", "kg"):
                r.combat = div_combat[u.formation]
            elif r.traced_to.startswith("division HQ"):
                r.combat = div_combat.get(u.formation, False)
            elif r.traced_to.startswith("attached to division HQ of "):
                attached_to = r.traced_to.removeprefix("attached to division HQ of ").split(" (")[0]
                r.combat = div_combat.get(attached_to, False)
            elif r.traced_to == "pathfinder":  # 7.5: General Supply only
                r.combat = False
            elif r.traced_to == "corps HQ":
                r.combat = True
            else:  # traced straight to a source: a division unit must still go through its HQ (7.6.1)
                r.combat = (not u.formation) or div_combat.get(u.formation, False)
        # Why: for each unit out of supply, the first thing that blocked its best line.
        hq_by_formation = {u.formation: u for u in divs}
        supplied_hqs = [pos[u.id] for u in divs if div_ok[u.id]]
        explainer = _Explainer(tracer, sorted(set(sources) | set(corps_hexes) | set(supplied_hqs)))
        hq_reach: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for u in sorted(units, key=lambda x: x.hq is None):  # HQs first: units may cite them
            r = reports[u.id]
            if r.general:
                continue
            own = pos[u.id]
            hq = hq_by_formation.get(u.formation) if u.hq is None else None
            if hq is not None and not reports[hq.id].general:
                if hq.id not in hq_reach:
                    hq_reach[hq.id] = (
                        tracer.with_first_step(
                            tracer.distances([pos[hq.id]], hexes=True, limit=unit_hex_limit + 1), hexes=True
                        ),
                        tracer.with_first_step(tracer.distances([pos[hq.id]], limit=unit_mp_limit + 6)),
                    )
                k_hex, k_mp = hq_reach[hq.id][0][own], hq_reach[hq.id][1][own]
                if within(k_hex, k_mp):
                    hq_report = reports[hq.id]
                    r.reason = f"its division HQ {hq.id} is out of supply: {hq_report.reason}"
                    r.blocking_hex, r.blocking_units = hq_report.blocking_hex, list(hq_report.blocking_units)
                    continue
            block = explainer.explain(own, state)
            if block.get("hex"):
                r.reason = block["reason"]
                r.blocking_hex = block["hex"]
                r.blocking_units = list(block["units"])
            elif u.hq in ("division", "kg"):
                r.reason = (
                    f"too far: {r.length_mp:g} MP to a source or an in-supply corps HQ, "
                    f"limit {div_limit:g} (7.2)"
                )
            elif u.hq == "corps":
                r.reason = block.get("reason") or "no line of any length to a source (7.2)"
            else:
                why = "; ".join(f"{c['target']}: {c['why']}" for c in r.candidates)
                r.reason = f"out of range: {why}" if why else "no legal line (7.3)"
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
    report = SupplyReport(state=state, units=reports, sources=source_ids, halved=halved)
    report._context = {
        "tracers": tracers,
        "hq_cover": hq_cover,
        "unit_index": {u.id for u in state.units},
        "unit_hex_limit": unit_hex_limit,
        "unit_mp_limit": unit_mp_limit,
    }
    _fill_paths(report)
    return report


def _fill_paths(report: SupplyReport) -> None:
    """Record the line each in-supply unit traced: the shortest legal line in hexes to what it reached.

    Units are grouped by what they traced to, so one search serves a whole
    division (or every unit tracing to the sources and corps HQs).
    """
    state = report.state
    g = grid(state.system)
    for side, tracer in report._context["tracers"].items():
        hq_of = {u.formation: g.index(u.hex) for u in state.units_of(side) if u.hq in ("division", "kg")}
        corps = [g.index(u.hex) for u in state.units_of(side) if u.hq == "corps"]
        sources = [g.index(h) for h in report.sources[side]]
        groups: dict[tuple[int, ...], list[Unit]] = {}
        for u in state.units_of(side):
            r = report.units[u.id]
            if not r.general:
                continue
            # HQs may trace far (20 MP, any length); other units only a few hexes.
            reach = INF if u.hq else report._context["unit_hex_limit"] * 4 + 2
            attached_to = r.traced_to.removeprefix("attached to division HQ of ").split(" (")[0]
            if r.traced_to.startswith("division HQ") and u.formation in hq_of:
                key = ((hq_of[u.formation],), reach)
            elif r.traced_to.startswith("attached to division HQ of ") and attached_to in hq_of:
                key = ((hq_of[attached_to],), reach)
            elif r.traced_to == "pathfinder":
                key = (tuple(sorted(g.index(h) for h in state.pathfinders)), reach)
            elif r.traced_to.startswith("ship"):
                r.path = [u.hex]
                continue
            elif r.traced_to == "corps HQ":
                key = (tuple(sorted(corps)), reach)
            else:
                key = (tuple(sorted(set(sources) | set(corps))), reach)
            groups.setdefault(key, []).append(u)
        e = tracer.edges
        for (targets, reach), members in groups.items():
            if not targets:
                continue
            dist, pred, _ = dijkstra(
                tracer.reverse_hex,
                indices=list(targets),
                min_only=True,
                return_predecessors=True,
                limit=reach,
            )
            for u in members:
                origin = g.index(u.hex)
                r = report.units[u.id]
                if origin in targets:
                    r.path = [u.hex]
                    continue
                start = origin
                if not np.isfinite(dist[origin]):
                    # The first step crossed water: continue from the far bank.
                    m = tracer.first & (e.src == origin)
                    if not m.any():
                        continue
                    start = int(e.dst[m][np.argmin(dist[e.dst[m]])])
                    if not np.isfinite(dist[start]):
                        continue
                path = [origin] if start != origin else []
                node = start
                path.append(node)
                while pred[node] >= 0:
                    node = int(pred[node])
                    path.append(node)
                r.path = [str(g._ids[i]) for i in path]


def supply_networkx(state: GameState, side: str) -> dict[str, float]:
    """Compute each unit's supply-MP distance to the nearest source with networkx (the reference).

    Blocked hexes and unbridged water are hidden with a weight callable
    that returns None (the first-step exception is not applied here: the
    tests compare it with the fast path's plain distances).
    """
    import networkx as nx

    from normandy_lab.network import to_networkx

    rules = ruleset(state.system)
    tracer = _Tracer(state, side, rules)
    g = grid(state.system)
    graph = to_networkx(terrain_map(state.system, progress=False))
    ids = g.ids()
    e = tracer.edges
    step_of = {
        (ids[a], ids[b]): float(w)
        for a, b, w, ok in zip(e.src, e.dst, tracer.step_mp, tracer.usable, strict=True)
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
    tracer = _Tracer(state, side, rules)
    g = grid(state.system)
    if side == "allied":
        sources = sorted({g.index(b.hex) for b in state.beachheads})
    else:
        sources = _german_sources(state, rules, hex_control(state))
    dist = tracer.distances(sources)
    return {u.id: float(dist[g.index(u.hex)]) for u in state.units_of(side)}


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
