"""BfN's lines of supply over a map: what they cost and the searches over them (7.3).

The supply determination (:mod:`normandy_lab.rules.bfn.supply`) and its explanations
(:mod:`normandy_lab.rules.bfn.explain`) both read the map through :class:`TraceNet`: which hexes a
line may not enter (enemy units, vacant hexes in an EZOC, the sea, interdicted hexes: 7.3, 5.4;
:func:`normandy_lab.engine.lines.blocked_mask`, shared by every game), which hexsides it may not
cross (all-sea; unbridged water except on the tracing unit's own first step, 7.3.2), and what each
step costs (7.3.2: infantry rates).  It moved here from ``engine/lines.py``: the costs are BfN's rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix

from normandy_lab.engine.lines import Situation, blocked_mask, impassable, interdicted_mask
from normandy_lab.engine.search import (
    FAR,
    NO_COSTS,
    SIXTHS,
    components,
    discard_workspace,
    group_ranges,
    lines_from,
    map_graph,
    nearest_each,
    reach_flags,
    search_full,
    workspace,
)
from normandy_lab.engine.state import GameState, other_side
from normandy_lab.engine.zoc import zoc_mask
from normandy_lab.errors import RefusedError
from normandy_lab.gamemap import game_map
from normandy_lab.grids import grid
from normandy_lab.network import edge_arrays
from normandy_lab.terrain import ROAD_CLASSES, terrain_map

# Unit ranges are searched this far (in sixths of an MP) beyond the limit, to
# tell by how much a unit out of supply misses it.
RANGE_SLACK_MP = 6 * 6


@lru_cache(maxsize=8)
def _supply_hex_cost(rules) -> np.ndarray:
    """Supply MP of entering each hex off-road (7.3.2: infantry rates), cached per rule system (its map)."""
    tmap = terrain_map(rules.system, progress=False)
    costs = rules.terrain_cost["infantry"]
    marsh_cost = rules.supply["marsh_supply_cost"]
    terrain = tmap.hexes["terrain"].to_numpy()
    settlement = tmap.hexes["settlement"].to_numpy()
    return np.array(
        [
            1.0
            if s == "City"
            else (marsh_cost if costs.get(t) == "all" else float(costs.get(t) or 0.0) or 1.0)
            for t, s in zip(terrain, settlement, strict=True)
        ]
    )


@dataclass(frozen=True)
class EdgeCosts:
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
def supply_edge_costs(rules, destroyed_bridges: frozenset[str]) -> EdgeCosts:
    """Return the edge verdicts and costs of a rule system's map with some bridges destroyed.

    Nothing else matters; the cache is per rule system (compared by identity): a variant's costs are its own.
    """
    system = rules.system
    base = _edge_base(rules)
    edges = base.edges
    destroyed = base.hexsides.isin(list(destroyed_bridges))  # all False when none are
    bridged = base.bridge & ~destroyed[edges.side]
    wet = base.water & ~bridged  # destroyed bridges count as none
    land = base.land
    open_, first = land & ~wet, land & wet
    mp = base.mp
    # The step plus the water crossed, where the step crosses water (elsewhere the step alone).
    first_mp = mp.copy()
    first_mp[wet] = _sixths(base.step[wet] + base.crossing[wet], "supply MP of a first step across water")
    rev, fwd = map_graph(system).rev_eid, map_graph(system).fwd_eid
    # What no bridge changes is the base's, shared by every set of destroyed bridges (a class's students
    # cutting many sets kept 3.9 MB a set).
    costs = EdgeCosts(
        land=land,
        open=open_,
        first=first,
        mp=mp,
        first_mp=first_mp,
        rev_open=open_[rev],
        rev_land=base.rev_land,
        rev_first=first[rev],
        rev_ones=base.ones,
        rev_mp=base.rev_mp,
        rev_first_mp=first_mp[rev].astype(np.int32),
        fwd_first=first[fwd],
        fwd_ones=base.ones,
        fwd_zeros=base.zeros,
        fwd_first_mp=first_mp[fwd].astype(np.int32),
        cheapest_mp=int(mp[open_].min()),
    )
    for value in vars(costs).values():
        if isinstance(value, np.ndarray):
            value.flags.writeable = False  # shared by every state of the map
    return costs


@dataclass(frozen=True)
class _EdgeBase:
    """What a rule system's supply costs of a step are before any bridge is destroyed (found once)."""

    edges: Any
    hexsides: Any  # the terrain map's hexside keys
    bridge: np.ndarray  # a road or rail bridge on the step's hexside
    water: np.ndarray  # the step crosses water
    land: np.ndarray  # the step is not all sea
    step: np.ndarray  # the step's supply MP (7.3.2)
    crossing: np.ndarray  # the MP its water adds when unbridged (10.6)
    mp: np.ndarray  # the step's supply MP in sixths
    rev_mp: np.ndarray
    rev_land: np.ndarray
    ones: np.ndarray
    zeros: np.ndarray


@lru_cache(maxsize=4)
def _edge_base(rules) -> _EdgeBase:
    """Return the supply costs of a rule system's map that no destroyed bridge changes (issue 33, section 4).

    A bridge destroyed in the explorer made :func:`supply_edge_costs` find all of it again (~7 ms); only
    what depends on the bridges is found per set of destroyed bridges now.
    """
    system = rules.system
    tmap = terrain_map(system, progress=False)
    edges = edge_arrays(system)
    # 7.3.2: infantry rates in any weather; 1/2 MP primary road, 1/3 MP highway.
    hex_cost = _supply_hex_cost(rules)
    road_rate = rules.supply["road_cost"]
    by_road = np.array([road_rate.get(name, np.nan) for name in ROAD_CLASSES])
    step = np.where(edges.road > 0, by_road[edges.road], hex_cost[edges.dst])
    step = np.where((edges.road == 0) & edges.railway, road_rate["railway"], step)
    # A Major River (the major rivers, the canals) takes all MPs, a Stream +2 (10.6): the
    # rule system's vocabulary says which water is which, not the raw water classes.
    feature = tmap.hexsides["water_feature"].fillna("").to_numpy()[edges.side]
    crossing = np.where(feature == "Major River", rules.supply["marsh_supply_cost"], 2.0)
    mp = _sixths(step, "supply MP of a step")
    rev = map_graph(system).rev_eid
    base = _EdgeBase(
        edges=edges, hexsides=tmap.hexsides.index, bridge=edges.road_bridge | edges.rail_bridge,
        water=edges.water > 0, land=~edges.all_sea, step=step, crossing=crossing, mp=mp,
        rev_mp=mp[rev].astype(np.int32), rev_land=(~edges.all_sea)[rev],
        ones=np.ones(len(edges), dtype=np.int32), zeros=np.zeros(len(edges), dtype=np.int32),
    )  # fmt: skip
    for value in vars(base).values():
        if isinstance(value, np.ndarray):
            value.flags.writeable = False  # shared by every set of destroyed bridges
    return base


def _sixths(mp: np.ndarray, what: str) -> np.ndarray:
    """Return MP costs in whole sixths; a cost that is not a multiple of 1/6 MP is a rules error.

    Refused with :class:`~normandy_lab.errors.RefusedError` (a ``ValueError``, as before the move): only a
    variant's tables can give such a cost.
    """
    scaled = np.asarray(mp, dtype=float) * SIXTHS
    whole = np.rint(scaled)
    if not np.allclose(scaled, whole, atol=1e-6):
        odd = sorted({float(v) for v in np.asarray(mp)[~np.isclose(scaled, whole, atol=1e-6)]})
        raise RefusedError(
            f"{what}: {odd} MP is not a whole number of sixths; the supply search counts sixths"
        )
    return whole.astype(np.int64)


def _flat_flags(wanted: list | None, count: int) -> np.ndarray:
    """Return the flags of every asked query in one array (all True when none are given)."""
    if wanted is None:
        return np.ones(count, dtype=np.bool_)
    return np.concatenate([np.asarray(w, dtype=np.bool_) for w in wanted] or [np.zeros(0, np.bool_)])


def _flat_ints(lists: list) -> np.ndarray:
    """Return lists (or arrays) of hex or query indices end to end in one array.

    One concatenation: a group asked about every unit passes the same array
    each time, which is not converted again.
    """
    return np.concatenate([np.asarray(a, dtype=np.int64) for a in lists] or [np.zeros(0, np.int64)])


def _offsets(lists: list) -> np.ndarray:
    """Return where each of ``lists`` starts in their :func:`_flat_ints` array, and the end (CSR pointers)."""
    ptr = np.zeros(len(lists) + 1, dtype=np.int64)
    np.cumsum([len(a) for a in lists], out=ptr[1:])
    return ptr


def _edge_positions(system: str) -> tuple[np.ndarray, np.ndarray]:
    """Return, per directed edge, its position in the map graph's reverse and forward rows."""
    return game_map(system).edge_positions


class TraceNet:
    """One side's lines of supply on a state: what blocks them (7.3), and searches over them.

    A line may not enter a hex held by an enemy unit, nor a vacant hex in an
    EZOC (a friendly unit there negates it, 5.4), nor an interdicted hex
    (the "block" what-if), nor the sea.  Distances are integers: hexes, or
    sixths of an MP; FAR means no line.
    """

    def __init__(self, state: GameState, side: str, situation: Situation):
        g = grid(state.system)
        self.g = g
        self.n = len(g)
        self.graph = map_graph(state.system)
        self.costs = supply_edge_costs(state.rules, state.destroyed_bridges)
        enemy_side = other_side(side)
        self.state, self.side, self.enemy_side = state, side, enemy_side
        self.friendly, self.enemy = situation.occupied[side], situation.occupied[enemy_side]
        self.enemy_ground = situation.ground[enemy_side]
        self._position = situation.position
        self._enemy_units_at: dict[int, list[str]] | None = None
        self.in_ezoc = situation.zoc[enemy_side]
        self.negating = situation.negating[side]
        self.interdicted = interdicted_mask(state)
        self.blocked = blocked_mask(state, side, situation)
        self._labels: np.ndarray | None = None

    @property
    def enemy_units_at(self) -> dict[int, list[str]]:
        """Return hex index -> the ids of the enemy units there (made when first asked: the reasons ask)."""
        if self._enemy_units_at is None:
            at: dict[int, list[str]] = {}
            # By id, whatever order the units come in: the reasons list them.
            for u in sorted(self.state.units_of(self.enemy_side), key=lambda u: u.id):
                at.setdefault(self._position[u.id], []).append(u.id)
            self._enemy_units_at = at
        return self._enemy_units_at

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
            np.asarray(roots, dtype=np.int64), int(limit), np.asarray(stop, dtype=np.int64), NO_COSTS,
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

    def distances(
        self,
        roots,
        origins: np.ndarray,
        metric: str,
        limit: int,
        free: bool = False,
        blocked: np.ndarray | None = None,
        rev_open: np.ndarray | None = None,
        fwd_first: np.ndarray | None = None,
    ) -> np.ndarray:
        """Return each origin's distance to the nearest root (FAR beyond ``limit``), on this or a changed map.

        ``blocked``, ``rev_open`` and ``fwd_first`` replace the side's blocked
        hexes and open and first-step edges: the explanations ask what a line
        would be with one block removed.
        """
        gr, c = self.graph, self.costs
        step, first = self._weights(metric, free)
        best, _, _ = self._run(
            lines_from, gr.rev_ptr, gr.rev_nbr, gr.fwd_ptr, gr.fwd_nbr,
            c.rev_open if rev_open is None else rev_open, step,
            c.fwd_first if fwd_first is None else fwd_first, first,
            self.blocked if blocked is None else blocked,
            np.asarray(roots, dtype=np.int64), int(limit), np.asarray(origins, dtype=np.int64),
        )  # fmt: skip
        return best

    def blocked_without(self, enemy_hexes=(), interdicted_hex: int = -1) -> np.ndarray:
        """Return the blocked hexes if the enemy units in ``enemy_hexes`` were gone (their ZOC too)."""
        enemy, ground = self.enemy.copy(), self.enemy_ground.copy()
        for h in enemy_hexes:
            enemy[h] = ground[h] = False
        in_ezoc = zoc_mask(self.state, self.enemy_side, ground)
        interdicted = self.interdicted
        if interdicted_hex >= 0:
            interdicted = interdicted.copy()
            interdicted[interdicted_hex] = False
        return enemy | (in_ezoc & ~self.negating) | interdicted | impassable(self.g.system, self.state.maps)

    def bridged(self, edges) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return the map's edge masks with the hexsides of some edges bridged (both directions of each).

        The masks are the open and first-step edges in reverse rows and the
        first-step edges in forward rows, as the searches take them.
        """
        c = self.costs
        e = edge_arrays(self.g.system)
        both = np.nonzero(np.isin(e.side, e.side[np.atleast_1d(edges)]))[0]
        rev_pos, fwd_pos = _edge_positions(self.g.system)
        rev_open, rev_first, fwd_first = c.rev_open.copy(), c.rev_first.copy(), c.fwd_first.copy()
        rev_open[rev_pos[both]] = True
        rev_first[rev_pos[both]] = False
        fwd_first[fwd_pos[both]] = False
        for mask in (rev_open, rev_first, fwd_first):
            # Read-only like the map's own masks: numba types an array's writeability, and a writeable one
            # made the kernels load a second compiled version (30 MB a class kernel, at its first storm).
            mask.flags.writeable = False
        return rev_open, rev_first, fwd_first

    def wet_edges_at(self, hex_index: int) -> list[int]:
        """Return the unbridged water hexsides (as edges) around a hex: what an HQ there may bridge."""
        gr = self.graph
        row = slice(gr.fwd_ptr[hex_index], gr.fwd_ptr[hex_index + 1])
        edges = gr.fwd_eid[row]
        return edges[self.costs.first[edges]].tolist()

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

    def near(self, targets: list[int], units: np.ndarray, limits: Limits) -> list[int]:
        """Return the targets a unit range search from them could reach some of ``units`` in.

        A line of L sixths of an MP crosses at most L / (cheapest step) hexes, plus the
        unit's own first step; farther targets are left out of the search (the result is
        the same, the search smaller).
        """
        if not len(targets) or not len(units):
            return []
        reach = max(limits.hexes_n + 1, (limits.mp_n + RANGE_SLACK_MP) // self.costs.cheapest_mp) + 1
        t = np.asarray(targets)
        q, r = self.g.q, self.g.r
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
        self,
        groups: list[list[int]],
        asked: list[list[int]],
        query: np.ndarray,
        limits: Limits,
        slack: bool = False,
        lines_wanted: list[np.ndarray] | list[list[bool]] | None = None,
        opened: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    ) -> _Ranges:
        """Return the unit ranges (7.3.1) of groups of targets: distances asked about, lines, covers.

        Distances are searched to the limits (FAR beyond), or with ``slack`` a
        little further, to say by how much a unit misses them.  Lines are kept
        for every query within range, or only where ``lines_wanted`` (shaped
        like ``asked``) says so: the other distances are asked only to compare.
        ``opened`` replaces the open and first-step edges (:meth:`bridged`).
        """
        gr = self.graph
        c = self.costs
        rev_open, rev_first, fwd_first = (
            opened if opened is not None else (c.rev_open, c.rev_first, c.fwd_first)
        )
        group_ptr, asked_ptr = _offsets(groups), _offsets(asked)
        result = self._run(
            group_ranges, gr.rev_ptr, gr.rev_nbr, gr.fwd_ptr, gr.fwd_nbr,
            rev_open, rev_first, fwd_first,
            self.blocked, (c.rev_ones, c.rev_mp), (c.rev_ones, c.rev_first_mp), (c.fwd_ones, c.fwd_first_mp),
            np.array([limits.hexes_n + 1, limits.mp_n + RANGE_SLACK_MP])
            if slack
            else np.array([limits.hexes_n, limits.mp_n]),
            np.array([limits.hexes_n, limits.mp_n]),
            group_ptr, _flat_ints(groups),
            asked_ptr, _flat_ints(asked),
            _flat_flags(lines_wanted, int(asked_ptr[-1])),
            query,
        )  # fmt: skip
        return _Ranges(*result)

    def ranges_to(
        self, groups: list[list[int]], asked: list[list[int]], query: np.ndarray, bound: tuple[int, int]
    ) -> _Ranges:
        """Return the distances :meth:`ranges` asks about, to ``bound`` (hexes, MP sixths): no line, no range.

        What the counterfactuals of one side's explanations share (each asks the same groups with longer
        ranges): one search a group, each trial's distances then cut at its limits (:meth:`_Ranges.within`,
        exact for limits within ``bound``).
        """
        gr = self.graph
        c = self.costs
        group_ptr, asked_ptr = _offsets(groups), _offsets(asked)
        result = self._run(
            group_ranges, gr.rev_ptr, gr.rev_nbr, gr.fwd_ptr, gr.fwd_nbr,
            c.rev_open, c.rev_first, c.fwd_first,
            self.blocked, (c.rev_ones, c.rev_mp), (c.rev_ones, c.rev_first_mp), (c.fwd_ones, c.fwd_first_mp),
            np.array(bound, dtype=np.int64), np.array([-1, -1]),  # no range kept
            group_ptr, _flat_ints(groups),
            asked_ptr, _flat_ints(asked),
            np.zeros(int(asked_ptr[-1]), dtype=np.bool_),
            query,
        )  # fmt: skip
        return _Ranges(*result)

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
    """The result of :meth:`TraceNet.ranges`: ``dist[group, metric, query]`` (0: hexes, 1: MP sixths)."""

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

    def within(self, limits: Limits) -> _Ranges:
        """Return these distances (:meth:`TraceNet.ranges_to`, to a bound no lower) cut at ``limits``.

        Exactly the distances a search to the limits finds: a bounded search settles every hex within
        the limit at its shortest distance and reaches no other.  No lines and no ranges (a covered
        group raises IndexError): what a counterfactual's verdicts read only.
        """
        dist = self.dist.copy()
        for metric, limit in enumerate((limits.hexes_n, limits.mp_n)):
            part = dist[:, metric, :]
            part[part > limit] = FAR
        slots = np.zeros(dist.size, dtype=np.int64)
        none = np.empty(0, dtype=np.int64)
        return _Ranges(dist, slots, slots, none, none, none)


@dataclass
class Limits:
    """Supply ranges in MPs and hexes (7.2, 7.3.1), halved in bad weather (7.3.3)."""

    hexes: float
    mp: float
    division: float

    @property
    def hexes_n(self) -> int:
        """The hex range as a whole number of hexes."""
        return int(self.hexes)

    @property
    def mp_n(self) -> int:
        """The MP range in sixths of an MP (the search kernels' unit)."""
        return round(self.mp * SIXTHS)

    @property
    def division_n(self) -> int:
        """The division range (7.6.1) in sixths of an MP."""
        return round(self.division * SIXTHS)


__all__ = ["RANGE_SLACK_MP", "EdgeCosts", "Limits", "TraceNet", "supply_edge_costs"]
