"""Compiled searches over a map's hex graph: the supply engine's fast path.

Every search here runs on one static graph per map (both directions of every
hexside, kept in compressed rows) with per-call masks, so nothing is rebuilt
when units move: a *blocked* mask over hexes (a line may neither enter nor
leave them, 7.3) and an *open* mask over edges (all-sea hexsides and
unbridged water are closed, 7.3.2).  The kernels are compiled with numba
and touch only the hexes a search reaches, which is what makes the many
short searches of a supply determination cheap: six hexes around each
division HQ, twenty MPs around the sources.  Costs are integers (hexes, or
sixths of an MP), so each search is Dial's bucket-queue Dijkstra: exact,
with no heap.

Searches run in *reverse*: from the targets of a line (sources, HQs)
outwards over the edges that lead into them, so the distance found at a hex
is the cost of a line running from that hex to the nearest target.  The
weight of an edge is the cost of entering its far hex (7.3.2).

The tracing unit's own first step may cross unbridged water (7.3.2); that
step is never propagated (a line may not cross further water), so it is
applied after a search, at the hexes asked about (``_best_first_step``).

The kernels share one :class:`Workspace` of scratch arrays per map (and
thread), and leave it clean after every call: allocating megabytes per
search cost more than the searches themselves.

``tests/test_engine_search.py`` proves the kernels equal networkx's
Dijkstra on the same masked graph.
"""

from __future__ import annotations

import threading

import numpy as np
from numba import njit

# MapGraph is the map's own table (gamemap builds it); the kernels here search it.  Still importable here.
from normandy_lab.gamemap import MapGraph as MapGraph
from normandy_lab.gamemap import game_map


def map_graph(system: str) -> MapGraph:
    """Return the static graph of a map (made once, by the map's :class:`~normandy_lab.gamemap.GameMap`)."""
    return game_map(system).graph


# -- one search -----------------------------------------------------------------
#
# Costs are integers: hexes count 1, supply MPs are counted in sixths (the
# rates are 1/3, 1/2 and whole MPs), so a search is Dial's algorithm, a
# Dijkstra whose queue is a ring of buckets, one per distance, with no heap
# and no rounding.

FAR = np.int64(2**62)  # "no line": larger than any distance
SIXTHS = 6
MAX_STEP = 255  # the largest cost of one step the bucket ring holds (42 MP)
NO_COSTS = np.empty(0, dtype=np.int64)  # "every root starts at 0" for the seeded searches
NO_COSTS.flags.writeable = False


class Workspace:
    """Scratch arrays of the kernels for one map: distances at FAR, marks cleared, between calls."""

    def __init__(self, graph: MapGraph) -> None:
        n = graph.n
        capacity = len(graph.rev_nbr) + n + 1  # one queue entry per improvement, at most
        self.dist = np.full(n, FAR)
        self.pred = np.full(n, -1, dtype=np.int64)
        self.pred_edge = np.full(n, -1, dtype=np.int64)
        self.touched = np.empty(n, dtype=np.int64)
        self.stop = np.zeros(n, dtype=np.bool_)
        self.stamp = np.full(n, -1, dtype=np.int64)
        self.head = np.full(MAX_STEP + 1, -1, dtype=np.int64)
        self.entry_next = np.empty(capacity, dtype=np.int64)
        self.entry_node = np.empty(capacity, dtype=np.int64)
        self.entry_dist = np.empty(capacity, dtype=np.int64)

    def arrays(self) -> tuple[np.ndarray, ...]:
        """Return the scratch arrays in the order the kernels take them."""
        return (
            self.dist, self.pred, self.pred_edge, self.touched, self.stop, self.stamp, self.head,
            self.entry_next, self.entry_node, self.entry_dist,
        )  # fmt: skip


_workspaces = threading.local()


def workspace(graph: MapGraph) -> Workspace:
    """Return this thread's workspace for a map."""
    spaces = getattr(_workspaces, "by_size", None)
    if spaces is None:
        spaces = _workspaces.by_size = {}
    key = (graph.n, len(graph.rev_nbr))
    if key not in spaces:
        spaces[key] = Workspace(graph)
    return spaces[key]


def discard_workspace(graph: MapGraph) -> None:
    """Forget this thread's workspace for a map (after a kernel failed half-way)."""
    getattr(_workspaces, "by_size", {}).pop((graph.n, len(graph.rev_nbr)), None)


# -- one search -----------------------------------------------------------------
#
# Costs are integers: hexes count 1, supply MPs are counted in sixths (the
# rates are 1/3, 1/2 and whole MPs), so a search is Dial's algorithm, a
# Dijkstra whose queue is a ring of buckets, one per distance, with no heap
# and no rounding.


@njit(cache=True)
def _dial(
    rev_ptr, rev_nbr, open_edge, weight, max_weight, blocked, roots, root_cost, limit, n_stop,
    dist, pred, pred_edge, touched, stop, head, entry_next, entry_node, entry_dist,
):  # fmt: skip
    """Multi-source search in reverse over integer costs; returns how many hexes it touched.

    Root ``i`` starts at distance ``root_cost[i]`` (0 for every root when ``root_cost`` is empty): a
    line that ends at that root costs that much more.  ``max_weight`` must bound the step weights and
    the root costs (the bucket ring spans it).

    ``open_edge`` and ``weight`` are in reverse-row order; ``pred_edge``
    records the row position of the step taken.

    ``dist`` must be FAR (and ``pred`` -1) wherever it is not in ``touched``
    from an earlier call that was reset.  Stops early once the ``n_stop``
    hexes marked in ``stop`` are settled (0: run to the limit; -1: stop at
    the first of them).  ``head`` holds at least ``max_weight + 1`` empty (-1)
    buckets and is left so.
    """
    n_buckets = max_weight + 1
    n_touched = 0
    n_entries = 0
    live = 0
    seeded = len(root_cost) > 0
    for i in range(len(roots)):
        r = roots[i]
        start = root_cost[i] if seeded else 0
        if start > limit:
            continue
        if dist[r] == FAR:
            touched[n_touched] = r
            n_touched += 1
        if dist[r] > start:
            dist[r] = start
            pred[r] = -1
            pred_edge[r] = -1
            slot = start % n_buckets
            entry_node[n_entries] = r
            entry_dist[n_entries] = start
            entry_next[n_entries] = head[slot]
            head[slot] = n_entries
            n_entries += 1
            live += 1
    remaining = n_stop
    current = 0
    while live > 0:
        bucket = current % n_buckets
        while head[bucket] < 0:
            current += 1
            bucket = current % n_buckets
        i = head[bucket]
        head[bucket] = entry_next[i]
        live -= 1
        b = entry_node[i]
        if entry_dist[i] != dist[b]:
            continue  # a stale entry: b was reached more cheaply since
        if n_stop != 0 and stop[b]:
            remaining -= 1
            if remaining == 0 or n_stop < 0:
                break
        if blocked[b]:
            continue  # reached (it may be a target) but a line cannot run on through it
        for k in range(rev_ptr[b], rev_ptr[b + 1]):
            if not open_edge[k]:
                continue
            a = rev_nbr[k]
            if blocked[a]:
                continue
            nd = current + weight[k]
            if nd <= limit and nd < dist[a]:
                if dist[a] == FAR:
                    touched[n_touched] = a
                    n_touched += 1
                dist[a] = nd
                pred[a] = b
                pred_edge[a] = k
                slot = nd % n_buckets
                entry_node[n_entries] = a
                entry_dist[n_entries] = nd
                entry_next[n_entries] = head[slot]
                head[slot] = n_entries
                n_entries += 1
                live += 1
    # Leave the buckets empty for the next search (an early stop may leave entries).
    for bucket in range(n_buckets):
        head[bucket] = -1
    return n_touched


@njit(cache=True)
def _reset(dist, pred, pred_edge, touched, n_touched):
    for i in range(n_touched):
        v = touched[i]
        dist[v] = FAR
        pred[v] = -1
        pred_edge[v] = -1


@njit(cache=True)
def _max(values):
    top = 1
    for v in values:
        top = max(top, v)
    return top


@njit(cache=True)
def _best_first_step(fwd_ptr, fwd_nbr, first_edge, first_weight, blocked, dist, o):
    """Return (distance, far hex or -1) of hex ``o``, its own first step across water included.

    ``first_edge`` and ``first_weight`` are in forward-row order.
    """
    best = dist[o]
    via = -1
    for k in range(fwd_ptr[o], fwd_ptr[o + 1]):
        if not first_edge[k]:
            continue
        x = fwd_nbr[k]
        if blocked[x] or dist[x] == FAR:
            continue
        value = dist[x] + first_weight[k]
        if value < best:
            best = value
            via = x
    return best, via


@njit(cache=True)
def _append_line(flat, used, pred, o, via):
    """Write the line from ``o`` (through ``via`` when its first step crossed water) to its root."""
    count = 1  # the line's length: o (and via), then the roots' chain
    v = via if via >= 0 else o
    while pred[v] >= 0:
        count += 1
        v = pred[v]
    if used + count + 1 > len(flat):  # grown by doubling, to this line's room at least
        grown = np.empty(max(2 * len(flat), used + count + 1), dtype=np.int64)
        grown[:used] = flat[:used]
        flat = grown
    v = o
    if via >= 0:
        flat[used] = o
        used += 1
        v = via
    while v >= 0:
        flat[used] = v
        used += 1
        v = pred[v]
    return flat, used


@njit(cache=True)
def search_full(rev_ptr, rev_nbr, open_edge, weight, blocked, roots, limit, stop_nodes, root_cost):
    """Run one search on fresh arrays; return full ``dist`` (FAR: no line), ``pred``, ``pred_edge``.

    ``root_cost`` gives each root its starting distance (empty: all 0).
    """
    n = len(rev_ptr) - 1
    dist = np.full(n, FAR)
    pred = np.full(n, -1, dtype=np.int64)
    pred_edge = np.full(n, -1, dtype=np.int64)
    stop = np.zeros(n, dtype=np.bool_)
    n_stop = 0
    for v in stop_nodes:
        if not stop[v]:
            stop[v] = True
            n_stop += 1
    max_weight = _max(weight)
    if len(root_cost):
        max_weight = max(max_weight, _max(root_cost))
    capacity = len(rev_nbr) + n + 1
    _dial(
        rev_ptr, rev_nbr, open_edge, weight, max_weight, blocked, roots, root_cost, limit, n_stop,
        dist, pred, pred_edge, np.empty(n, dtype=np.int64), stop, np.full(max_weight + 1, -1, dtype=np.int64),
        np.empty(capacity, dtype=np.int64), np.empty(capacity, dtype=np.int64),
        np.empty(capacity, dtype=np.int64),
    )  # fmt: skip
    return dist, pred, pred_edge


@njit(cache=True)
def lines_from(
    rev_ptr, rev_nbr, fwd_ptr, fwd_nbr, open_edge, weight, first_edge, first_weight,
    blocked, roots, limit, origins,
    dist, pred, pred_edge, touched, stop, stamp, head, entry_next, entry_node, entry_dist,
):  # fmt: skip
    """Return each origin's distance to the nearest root (its own first step included), and its line.

    The search stops once every origin and the far bank of its first step
    are settled, or at ``limit``.  Returns the distances (FAR beyond the
    limit) and the lines within it, origin first, as ragged ``ptr``/``flat``.
    """
    n_stop = 0
    for o in origins:
        if not stop[o]:
            stop[o] = True
            n_stop += 1
        for k in range(fwd_ptr[o], fwd_ptr[o + 1]):
            x = fwd_nbr[k]
            if first_edge[k] and not blocked[x] and not stop[x]:
                stop[x] = True
                n_stop += 1
    n_touched = _dial(
        rev_ptr, rev_nbr, open_edge, weight, _max(weight), blocked, roots, np.empty(0, dtype=np.int64),
        limit, n_stop,
        dist, pred, pred_edge, touched, stop, head, entry_next, entry_node, entry_dist,
    )  # fmt: skip
    m = len(origins)
    best = np.full(m, FAR)
    ptr = np.zeros(m + 1, dtype=np.int64)
    flat = np.empty(256, dtype=np.int64)
    used = 0
    for j in range(m):
        value, via = _best_first_step(fwd_ptr, fwd_nbr, first_edge, first_weight, blocked, dist, origins[j])
        if value <= limit:
            best[j] = value
            flat, used = _append_line(flat, used, pred, origins[j], via)
        ptr[j + 1] = used
    for o in origins:
        stop[o] = False
        for k in range(fwd_ptr[o], fwd_ptr[o + 1]):
            stop[fwd_nbr[k]] = False
    _reset(dist, pred, pred_edge, touched, n_touched)
    return best, ptr, flat[:used]


@njit(cache=True)
def group_ranges(
    rev_ptr, rev_nbr, fwd_ptr, fwd_nbr, open_edge, rev_first, fwd_first, blocked,
    weights, rev_first_weights, fwd_first_weights, limits, range_limits, group_ptr, group_nodes,
    asked_ptr, asked, asked_line, query,
    dist, pred, pred_edge, touched, stop, stamp, head, entry_next, entry_node, entry_dist,
):  # fmt: skip
    """For each group of targets and each metric, the distance of some query hexes, their lines and the range.

    ``weights[m]`` and the first-step weights describe metric ``m`` (hexes,
    sixths of MPs), in row order; ``limits[m]`` bounds the search (distances beyond it
    are FAR), ``range_limits[m]`` is the supply range.  Group ``g`` is asked
    about the query hexes ``asked[asked_ptr[g]:asked_ptr[g + 1]]``, and
    wants the line of each only where ``asked_line`` says so.
    Returns ``dist[g, m, q]`` (first step included), the lines of the hexes
    asked about within range (``lines[line_start[s]:line_stop[s]]`` for
    slot ``s`` of ``(g, m, q)``; a line runs from the query hex to a target),
    and each group's range (the hexes within range in either metric) as
    ragged ``cover_ptr``/``cover``.
    """
    n_groups = len(group_ptr) - 1
    n_metrics = len(limits)
    n_query = len(query)
    out = np.full((n_groups, n_metrics, n_query), FAR)
    line_start = np.zeros(n_groups * n_metrics * n_query, dtype=np.int64)
    line_stop = np.zeros(n_groups * n_metrics * n_query, dtype=np.int64)
    lines = np.empty(4096, dtype=np.int64)
    n_lines = 0
    cover_ptr = np.zeros(n_groups + 1, dtype=np.int64)
    cover = np.empty(4096, dtype=np.int64)
    n_cover = 0
    max_weight = 1
    for m in range(n_metrics):
        max_weight = max(max_weight, _max(weights[m]))
    for g in range(n_groups):
        roots = group_nodes[group_ptr[g] : group_ptr[g + 1]]
        for m in range(n_metrics):
            limit = limits[m]
            in_range = range_limits[m]
            n_touched = _dial(
                rev_ptr, rev_nbr, open_edge, weights[m], max_weight, blocked, roots,
                np.empty(0, dtype=np.int64), limit, 0,
                dist, pred, pred_edge, touched, stop, head, entry_next, entry_node, entry_dist,
            )  # fmt: skip
            # The range: every hex reached, and every hex whose own first step reaches one in time.
            # ``stamp`` marks the hexes already counted in this group's range.
            for i in range(n_touched):
                x = touched[i]
                if dist[x] > in_range:
                    continue
                if n_cover + 8 > len(cover):
                    grown = np.empty(2 * len(cover), dtype=np.int64)
                    grown[:n_cover] = cover[:n_cover]
                    cover = grown
                if stamp[x] != g:
                    stamp[x] = g
                    cover[n_cover] = x
                    n_cover += 1
                if blocked[x]:
                    continue
                for k in range(rev_ptr[x], rev_ptr[x + 1]):
                    o = rev_nbr[k]
                    if rev_first[k] and stamp[o] != g and dist[x] + rev_first_weights[m][k] <= in_range:
                        stamp[o] = g
                        cover[n_cover] = o
                        n_cover += 1
            for i in range(asked_ptr[g], asked_ptr[g + 1]):
                q = asked[i]
                value, via = _best_first_step(
                    fwd_ptr, fwd_nbr, fwd_first, fwd_first_weights[m], blocked, dist, query[q]
                )
                if value <= limit:
                    out[g, m, q] = value
                if value <= in_range and asked_line[i]:
                    slot = (g * n_metrics + m) * n_query + q
                    line_start[slot] = n_lines
                    lines, n_lines = _append_line(lines, n_lines, pred, query[q], via)
                    line_stop[slot] = n_lines
            _reset(dist, pred, pred_edge, touched, n_touched)
        cover_ptr[g + 1] = n_cover
    for i in range(n_cover):
        stamp[cover[i]] = -1
    return out, line_start, line_stop, lines[:n_lines], cover_ptr, cover[:n_cover]


@njit(cache=True)
def nearest_each(
    rev_ptr, rev_nbr, fwd_ptr, fwd_nbr, open_edge, first_edge, blocked, ones,
    origins, is_target,
    dist, pred, pred_edge, touched, stop, stamp, head, entry_next, entry_node, entry_dist,
):  # fmt: skip
    """For each origin, its nearest target in hexes and the line to it (any length).

    Hex counts are the same both ways along a line, so each origin is
    searched from, stopping at the first target settled; the origin's own
    first step across water is free (an HQ bridges the river for itself,
    7.3.2 exception).  ``is_target`` is the ``stop`` mask of the search.
    Returns the distances (FAR: none) and the lines, origin first, as ragged
    ``ptr``/``flat``.
    """
    m = len(origins)
    out = np.full(m, FAR)
    ptr = np.zeros(m + 1, dtype=np.int64)
    flat = np.empty(256, dtype=np.int64)
    used = 0
    for j in range(m):
        o = origins[j]
        roots = [np.int64(o)]
        for k in range(fwd_ptr[o], fwd_ptr[o + 1]):
            if first_edge[k] and not blocked[fwd_nbr[k]]:
                roots.append(np.int64(fwd_nbr[k]))
        root_array = np.array(roots, dtype=np.int64)
        n_touched = _dial(
            rev_ptr, rev_nbr, open_edge, ones, 1, blocked, root_array, np.empty(0, dtype=np.int64), FAR, -1,
            dist, pred, pred_edge, touched, is_target, head, entry_next, entry_node, entry_dist,
        )  # fmt: skip
        best = FAR
        found = -1
        for i in range(n_touched):  # the target settled first is the nearest
            v = touched[i]
            if is_target[v] and dist[v] < best:
                best, found = dist[v], v
        if found >= 0:
            out[j] = best
            count = 0
            v = found
            last = v
            while v >= 0:
                count += 1
                last = v
                v = pred[v]
            lead = 1 if last != o else 0  # reached through the free first step: the origin leads
            if used + count + lead > len(flat):
                grown = np.empty(max(2 * len(flat), used + count + lead), dtype=np.int64)
                grown[:used] = flat[:used]
                flat = grown
            if lead:
                flat[used] = o
            position = used + lead + count  # the line is written backwards from the target
            v = found
            while v >= 0:
                position -= 1
                flat[position] = v
                v = pred[v]
            used += count + lead
        ptr[j + 1] = used
        _reset(dist, pred, pred_edge, touched, n_touched)
    return out, ptr, flat[:used]


@njit(cache=True)
def components(rev_ptr, rev_nbr, open_edge, blocked):  # pragma: no cover - compiled
    """Label the connected pieces of the graph of open edges between unblocked hexes.

    Open edges come in both directions of a hexside with the same verdict,
    so lines of any length exist exactly within a piece.  A blocked hex is a
    piece of its own.
    """
    n = len(rev_ptr) - 1
    label = np.full(n, -1, dtype=np.int64)
    stack = np.empty(n, dtype=np.int64)
    current = 0
    for start in range(n):
        if label[start] >= 0:
            continue
        label[start] = current
        if not blocked[start]:
            stack[0] = start
            top = 1
            while top > 0:
                top -= 1
                b = stack[top]
                for k in range(rev_ptr[b], rev_ptr[b + 1]):
                    if not open_edge[k]:
                        continue
                    a = rev_nbr[k]
                    if label[a] >= 0 or blocked[a]:
                        continue
                    label[a] = current
                    stack[top] = a
                    top += 1
        current += 1
    return label


@njit(cache=True)
def reach_flags(fwd_ptr, fwd_nbr, first_edge, blocked, label, flagged, nodes):
    """Whether each hex reaches a flagged piece at any length, its own first step included."""
    out = np.zeros(len(nodes), dtype=np.bool_)
    for j in range(len(nodes)):
        o = nodes[j]
        if flagged[label[o]]:
            out[j] = True
            continue
        for k in range(fwd_ptr[o], fwd_ptr[o + 1]):
            x = fwd_nbr[k]
            if first_edge[k] and not blocked[x] and flagged[label[x]]:
                out[j] = True
                break
    return out
