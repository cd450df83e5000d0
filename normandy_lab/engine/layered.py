"""Searches over a map's hexes in layers: lines whose cost depends on what the line did before.

Some games count a line of supply in a way no cost per step can say.  Cobra counts a whole run along a
major road as one hex however long it is, and lets a line cross at most one marsh hex off the roads
(10.3); The Killing Ground sends German lines off the map into boxes that are not hexes (26.11.2).  Each
such rule is a little state the line carries ("on a major road", "its marsh hex used") or a place that is
not a hex, and a search over *(hex, state)* pairs plus a few extra nodes is an ordinary shortest-path
search again.  A :class:`LayeredGraph` is that graph: ``n_layers`` copies of the map's hexes, the moves a
rule system allows between them (:class:`Move`: along which edges of the map, from which layer into
which, at what cost), and ``n_virtual`` nodes beyond the hexes joined by explicit links.

It is searched with the same compiled Dial kernel as every other line (:func:`search_full`), in reverse
from the targets, with a per-hex blocked mask (the same in every layer) and optional starting costs per
target.  ``tests/test_engine_layered.py`` proves it equal to networkx's Dijkstra over the same graph.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numba import njit

from normandy_lab.engine.search import FAR, NO_COSTS, _append_line, _best_first_step, search_full


@dataclass(frozen=True)
class Move:
    """The edges of the map a line may take from one layer into another, and what each step costs.

    ``edges`` is a mask over the directed edges of the map
    (:func:`normandy_lab.network.edge_arrays` order) and ``cost`` the whole-number cost of each step (an
    array over the same edges, or one number for all); a step from hex ``a`` in layer ``source`` along
    edge ``a -> b`` arrives at ``b`` in layer ``target``.
    """

    source: int
    target: int
    edges: np.ndarray
    cost: np.ndarray | int


@dataclass(frozen=True)
class Link:
    """One extra directed edge between any two nodes (a hex in a layer, or a virtual node), with its cost."""

    source: int
    target: int
    cost: int


class LayeredGraph:
    """A map's hexes in layers, with virtual nodes: one static graph a rule system searches its lines on.

    Node ``layer * n_hexes + hex`` is a hex in a layer; nodes from ``n_layers * n_hexes`` on are the
    virtual ones.  The graph is kept in reverse compressed rows (for each node, the nodes with an edge
    into it) for the searches, and in forward rows for a line's first step.
    """

    def __init__(
        self,
        n_hexes: int,
        n_layers: int,
        src: np.ndarray,
        dst: np.ndarray,
        moves: Sequence[Move],
        n_virtual: int = 0,
        links: Sequence[Link] = (),
    ) -> None:
        self.n_hexes, self.n_layers, self.n_virtual = n_hexes, n_layers, n_virtual
        self.n = n_hexes * n_layers + n_virtual
        tails, heads, costs = [], [], []
        for move in moves:
            for layer in (move.source, move.target):
                if not 0 <= layer < n_layers:
                    raise ValueError(f"layer {layer} is not one of the {n_layers} layers")
            keep = np.asarray(move.edges, dtype=bool)
            cost = np.broadcast_to(np.asarray(move.cost, dtype=np.int64), keep.shape)[keep]
            if (cost < 0).any():
                raise ValueError("a step may not cost less than nothing")
            tails.append(src[keep] + move.source * n_hexes)
            heads.append(dst[keep] + move.target * n_hexes)
            costs.append(cost)
        for link in links:
            if not (0 <= link.source < self.n and 0 <= link.target < self.n) or link.cost < 0:
                raise ValueError(f"{link} joins a node that does not exist or costs less than nothing")
        tails.append(np.array([k.source for k in links], dtype=np.int64))
        heads.append(np.array([k.target for k in links], dtype=np.int64))
        costs.append(np.array([k.cost for k in links], dtype=np.int64))
        self.tail = np.concatenate(tails).astype(np.int64)
        self.head = np.concatenate(heads).astype(np.int64)
        self.cost = np.concatenate(costs).astype(np.int64)
        self.rev_ptr, self.rev_nbr, rev = _rows(self.head, self.tail, self.n)
        self.rev_weight = self.cost[rev]
        self.fwd_ptr, self.fwd_nbr, fwd = _rows(self.tail, self.head, self.n)
        self.fwd_weight = self.cost[fwd]
        self._open = np.ones(len(self.tail), dtype=np.bool_)
        self._fwd_open = self._open  # every edge may be a line's first step (same length, forward order)

    def node(self, hexes: np.ndarray | int, layer: int = 0) -> np.ndarray | int:
        """Return the node of hex(es) in a layer."""
        if np.ndim(hexes):
            return np.asarray(hexes, dtype=np.int64) + layer * self.n_hexes
        return int(hexes) + layer * self.n_hexes

    def in_every_layer(self, hexes: np.ndarray) -> np.ndarray:
        """Return the nodes of some hexes in every layer: targets a line may reach in whatever state."""
        hexes = np.asarray(hexes, dtype=np.int64)
        return (hexes[None, :] + self.n_hexes * np.arange(self.n_layers)[:, None]).ravel()

    def virtual(self, k: int) -> int:
        """Return the node of virtual place ``k``."""
        if not 0 <= k < self.n_virtual:
            raise ValueError(f"there are {self.n_virtual} virtual nodes, not {k + 1}")
        return self.n_hexes * self.n_layers + k

    def hex_of(self, nodes: np.ndarray) -> np.ndarray:
        """Return the hex of each node (-1 for a virtual node)."""
        nodes = np.asarray(nodes, dtype=np.int64)
        return np.where(nodes < self.n_hexes * self.n_layers, nodes % self.n_hexes, -1)

    def node_mask(self, hexes_blocked: np.ndarray, virtual_blocked: np.ndarray | None = None) -> np.ndarray:
        """Return a per-node mask from a per-hex one (the same in every layer) and one per virtual node."""
        extra = np.zeros(self.n_virtual, dtype=bool) if virtual_blocked is None else virtual_blocked
        return np.concatenate([np.tile(np.asarray(hexes_blocked, dtype=bool), self.n_layers), extra])

    def search(
        self,
        roots: np.ndarray,
        blocked: np.ndarray,
        limit: int = FAR,
        root_costs: np.ndarray | None = None,
        stop: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Return every node's distance to the nearest root (FAR: none within ``limit``) and its next node.

        ``blocked`` is per node (:meth:`node_mask`): a line may neither enter nor leave a blocked node, but a
        blocked root is still reached.  ``root_costs`` gives each root the cost a line pays on arriving
        there (none by default).  ``stop``: the search may end once these nodes are settled; their
        distances are then final, the others' are not (use :meth:`line_of` for one origin's line).
        """
        costs = NO_COSTS if root_costs is None else np.asarray(root_costs, dtype=np.int64)
        stops = np.empty(0, dtype=np.int64) if stop is None else np.asarray(stop, dtype=np.int64)
        dist, pred, _ = search_full(
            self.rev_ptr, self.rev_nbr, self._open, self.rev_weight, np.asarray(blocked, dtype=np.bool_),
            np.asarray(roots, dtype=np.int64), int(limit), stops, costs,
        )  # fmt: skip
        return dist, pred

    def line_of(self, roots: np.ndarray, blocked: np.ndarray, origin: int) -> tuple[int, list[int]]:
        """Return one origin's distance to the nearest root and its line (nodes), searching no further.

        The search stops once the origin and the nodes of its first step are settled: an origin near its
        roots costs a small part of a whole search.  The same answer as :meth:`search` then :meth:`lines`.
        """
        start, end = self.fwd_ptr[origin], self.fwd_ptr[origin + 1]
        stop = np.unique(np.r_[origin, self.fwd_nbr[start:end]])
        dist, pred = self.search(roots, blocked, stop=stop)
        best, ptr, flat = self.lines(dist, pred, blocked, np.array([origin], dtype=np.int64))
        return int(best[0]), flat[ptr[0] : ptr[1]].tolist()

    def from_origins(
        self, dist: np.ndarray, blocked: np.ndarray, origins: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Return each origin node's distance with its own node never blocking it, and its first next node.

        A line is traced *from* a unit's hex, not into it: a hex the unit stands in may block others' lines
        (an HQ alone in an enemy zone of control, Cobra 9.1h) but not the unit's own.  Returns the
        distances (FAR: no line) and the node each line steps to first (the origin itself when it is
        a target, -1 when there is no line).
        """
        origins = np.asarray(origins, dtype=np.int64)
        return _first_steps(
            self.fwd_ptr, self.fwd_nbr, self._fwd_open, self.fwd_weight, np.asarray(blocked, dtype=np.bool_),
            dist, origins,
        )  # fmt: skip

    def lines(
        self, dist: np.ndarray, pred: np.ndarray, blocked: np.ndarray, origins: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return each origin's distance (as :meth:`from_origins`) and its line, in one compiled pass.

        The lines are the nodes from each origin to its root, as ragged rows: origin ``j``'s line is
        ``flat[ptr[j]:ptr[j + 1]]`` (empty when it has none), the same nodes :meth:`path` gives.
        """
        return _lines_of(
            self.fwd_ptr, self.fwd_nbr, self._fwd_open, self.fwd_weight, np.asarray(blocked, dtype=np.bool_),
            dist, pred, np.asarray(origins, dtype=np.int64),
        )  # fmt: skip

    def path(self, pred: np.ndarray, origin: int, first: int) -> list[int]:
        """Return the nodes of the line from ``origin`` through ``first`` to its root (empty if none)."""
        if first < 0:
            return []
        nodes = [origin] if first != origin else []
        v = first
        while v >= 0:
            nodes.append(int(v))
            v = int(pred[v])
        return nodes

    def step_cost(self, a: int, b: int) -> int:
        """Return the cheapest cost of the graph's edges from node ``a`` to node ``b``."""
        row = slice(self.fwd_ptr[a], self.fwd_ptr[a + 1])
        hit = self.fwd_nbr[row] == b
        if not hit.any():
            raise ValueError(f"no edge from node {a} to node {b}")
        return int(self.fwd_weight[row][hit].min())


def _rows(key: np.ndarray, other: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Return compressed rows of ``other`` grouped by ``key`` (ptr, neighbours, each entry's edge)."""
    order = np.lexsort((other, key))
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(key, minlength=n), out=ptr[1:])
    return ptr, other[order].astype(np.int64), order.astype(np.int64)


def box_links(n_hexes: int, n_layers: int, boxes: Sequence, index_of, cost: int = 0) -> list[Link]:
    """Return the links that join each off-map box (virtual node ``k`` for ``boxes[k]``) to its entry hexes.

    A line may step from an entry hex, in any layer, into its box at ``cost``, and out of the box onto
    any of its entry hexes in layer 0 (a line leaving a box starts afresh).  ``index_of`` turns a hex id
    into its dense index.  Build the graph with ``n_virtual=len(boxes)`` and these links.
    """
    links = []
    for k, box in enumerate(boxes):
        node = n_hexes * n_layers + k
        for hex_id in box.entries:
            h = index_of(hex_id)
            links.extend(Link(h + layer * n_hexes, node, cost) for layer in range(n_layers))
            links.append(Link(node, h, cost))
    return links


@njit(cache=True)
def _first_steps(fwd_ptr, fwd_nbr, fwd_open, fwd_weight, blocked, dist, origins):  # pragma: no cover
    """Compiled :meth:`LayeredGraph.from_origins`: each origin's best value and first node."""
    m = len(origins)
    best = np.empty(m, dtype=np.int64)
    first = np.empty(m, dtype=np.int64)
    for j in range(m):
        o = origins[j]
        value, via = _best_first_step(fwd_ptr, fwd_nbr, fwd_open, fwd_weight, blocked, dist, o)
        best[j] = value
        first[j] = via if via >= 0 else (o if value < FAR else -1)
    return best, first


@njit(cache=True)
def _lines_of(fwd_ptr, fwd_nbr, fwd_open, fwd_weight, blocked, dist, pred, origins):  # pragma: no cover
    """Compiled :meth:`LayeredGraph.lines`: each origin's best value and its line as ragged rows."""
    m = len(origins)
    best = np.empty(m, dtype=np.int64)
    ptr = np.zeros(m + 1, dtype=np.int64)
    flat = np.empty(256, dtype=np.int64)
    used = 0
    for j in range(m):
        value, via = _best_first_step(fwd_ptr, fwd_nbr, fwd_open, fwd_weight, blocked, dist, origins[j])
        best[j] = value
        if value < FAR:
            flat, used = _append_line(flat, used, pred, origins[j], via)
        ptr[j + 1] = used
    return best, ptr, flat[:used]
