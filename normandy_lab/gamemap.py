"""One object per map: everything derived from a game's map alone, made once and kept together.

A :class:`GameMap` holds a map's grid, its terrain, its directed edges and their compressed rows, and the
small tables the engine reads from them (which hexes are sea, which lie on the sheets in play, where each
edge sits in the rows, which edge joins two hexes, each hex's printed sheet, column and row).  Each is made
the first time it is asked for.  :func:`game_map` returns the one object of a map; what depends on a rule
system as well (its costs, its zones of control) is cached by the rule system, not here.

Before this object, each module kept its own cache keyed by the system's name; the functions that read
them (``engine.search.map_graph``, ``engine.lines.in_play`` ...) now ask the map.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from normandy_lab.grids import grid
from normandy_lab.network import edge_arrays
from normandy_lab.terrain import terrain_map

SEA_TERRAINS = ("Sea", "All Sea", "Impassable")


@dataclass(frozen=True)
class MapGraph:
    """The static graph of one map in compressed rows, both orientations.

    Attributes
    ----------
    rev_ptr, rev_nbr, rev_eid
        Reverse rows: for hex ``b``, the hexes ``a`` with an edge ``a -> b``
        and that edge's row in :func:`~normandy_lab.network.edge_arrays`.
    fwd_ptr, fwd_nbr, fwd_eid
        Forward rows: for hex ``a``, the hexes it steps into, and the edge.

    The engine's kernels (:mod:`normandy_lab.engine.search`) take per-edge
    facts already laid out in row order (``facts[rev_eid]`` or
    ``facts[fwd_eid]``), so a search reads them in sequence.
    """

    n: int
    rev_ptr: np.ndarray
    rev_nbr: np.ndarray
    rev_eid: np.ndarray
    fwd_ptr: np.ndarray
    fwd_nbr: np.ndarray
    fwd_eid: np.ndarray


class GameMap:
    """The derived data of one game's map (``game_map(system)``), each table made when first read."""

    def __init__(self, system: str) -> None:
        self.system = system
        self._in_play: dict[frozenset[str], np.ndarray] = {}
        self._closed: dict[frozenset[str], np.ndarray] = {}

    @cached_property
    def grid(self) -> Any:
        """The hex grid (:func:`normandy_lab.grids.grid`)."""
        return grid(self.system)

    @cached_property
    def terrain(self) -> Any:
        """The derived terrain map (:func:`normandy_lab.terrain.terrain_map`)."""
        return terrain_map(self.system, progress=False)

    @cached_property
    def edges(self) -> Any:
        """The directed edges (:func:`normandy_lab.network.edge_arrays`)."""
        return edge_arrays(self.system)

    @cached_property
    def graph(self) -> MapGraph:
        """The static graph in compressed rows, both ways (:class:`MapGraph`): what the searches read."""
        e, n = self.edges, len(self.grid)

        def rows(key: np.ndarray, other: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            order = np.lexsort((other, key))
            ptr = np.zeros(n + 1, dtype=np.int64)
            np.cumsum(np.bincount(key, minlength=n), out=ptr[1:])
            return ptr, other[order].astype(np.int32), order.astype(np.int64)

        return MapGraph(n, *rows(e.dst, e.src), *rows(e.src, e.dst))

    @cached_property
    def edge_positions(self) -> tuple[np.ndarray, np.ndarray]:
        """Per directed edge, its position in the graph's reverse and forward rows."""
        graph = self.graph
        count = len(graph.rev_eid)
        rev_pos = np.empty(count, dtype=np.int64)
        rev_pos[graph.rev_eid] = np.arange(count)
        fwd_pos = np.empty(count, dtype=np.int64)
        fwd_pos[graph.fwd_eid] = np.arange(count)
        return rev_pos, fwd_pos

    @cached_property
    def edge_order(self) -> tuple[np.ndarray, np.ndarray]:
        """Edges sorted by the hex they leave, with the offsets of each hex's run."""
        order = np.argsort(self.edges.src, kind="stable")
        indptr = np.searchsorted(self.edges.src[order], np.arange(len(self.grid) + 1))
        return order, indptr

    @cached_property
    def edge_between(self) -> dict[tuple[int, int], int]:
        """The directed edge joining two hexes, by (from, to) (the first where two are drawn)."""
        found: dict[tuple[int, int], int] = {}
        for k, pair in enumerate(zip(self.edges.src.tolist(), self.edges.dst.tolist(), strict=True)):
            found.setdefault(pair, k)
        return found

    @cached_property
    def water_names(self) -> np.ndarray:
        """The name of the water each directed edge crosses ("" where none is named)."""
        names: np.ndarray = self.terrain.hexsides["water_name"].fillna("").to_numpy()
        per_edge: np.ndarray = names[self.edges.side]
        return per_edge

    @cached_property
    def sea(self) -> np.ndarray:
        """The hexes of sea and impassable terrain."""
        return np.isin(self.terrain.hexes["terrain"].to_numpy(), SEA_TERRAINS)

    @cached_property
    def printed(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each hex's sheet letter and printed column and row, for ids of the form sheet, column, row."""
        ids = self.grid.id_array.astype(str)
        return (
            np.array([i[0] for i in ids]),
            np.array([int(i[1:3]) for i in ids]),
            np.array([int(i[3:5]) for i in ids]),
        )

    def in_play(self, maps: frozenset[str] = frozenset()) -> np.ndarray:
        """Return which hexes lie on the sheets in play (every hex when ``maps`` is empty: all sheets)."""
        if maps not in self._in_play:
            if not maps:
                mask = np.ones(len(self.grid), dtype=bool)
            else:
                mask = np.isin(self.grid.sheet_array.astype(str), sorted(maps))
            mask.flags.writeable = False
            self._in_play[maps] = mask
        return self._in_play[maps]

    def closed(self, maps: frozenset[str] = frozenset()) -> np.ndarray:
        """Return the hexes no line or move may enter: sea, impassable terrain, the sheets not in play."""
        if maps not in self._closed:
            mask = self.sea | ~self.in_play(maps)
            mask.flags.writeable = False
            self._closed[maps] = mask
        return self._closed[maps]


@lru_cache(maxsize=8)
def game_map(system: str) -> GameMap:
    """Return the one :class:`GameMap` of a game's map."""
    return GameMap(system)
