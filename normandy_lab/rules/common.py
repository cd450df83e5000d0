"""Recipes several rule systems share: sources where roads leave the map, and HQ ranges by hex.

BfN (7.4), Cobra (10.4) and The Killing Ground (26.11.2) all supply one side from the roads that leave a map
edge; each game says which edges and which side, and calls these.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from normandy_lab.engine.lines import in_play
from normandy_lab.engine.state import GameState
from normandy_lab.grids import grid
from normandy_lab.network import edge_arrays
from normandy_lab.terrain import terrain_map


@lru_cache(maxsize=8)
def edge_road_hexes(system: str, maps: frozenset[str] = frozenset()) -> tuple[int, ...]:
    """Return the land hexes with a road on the east or south edge of the maps in play (all by default).

    The east edge: the eastward neighbour is off the maps in play; the south edge: both southward
    neighbours are.  A neighbour on a sheet not in play is off them.
    """
    from normandy_lab.grids.hexgrid import HEX_DIRECTIONS

    g = grid(system)
    tmap = terrain_map(system, progress=False)
    edges = edge_arrays(system)
    names = g.directions()
    on_map = g.index_of_axial

    playing = in_play(system, maps)

    def off(q: int, r: int, direction: str) -> bool:
        d = HEX_DIRECTIONS[names.index(direction)]
        there = on_map.get((q + d.q, r + d.r))
        return there is None or not playing[there]

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
    for i, (q, r) in enumerate(zip(g.q.tolist(), g.r.tolist(), strict=True)):
        land = terrain[i] not in ("Sea", "All Sea", "Impassable")
        if has_road[i] and land and playing[i] and on_edge(q, r):
            found.append(i)
    return tuple(found)


def hq_names_by_hex(
    state: GameState, supply_range: Callable[[str], set[str]], sides: tuple[str, ...] = ("allied", "german")
) -> dict[str, np.ndarray]:
    """Return, per side, the ids of the HQs whose ``supply_range`` covers each hex ("; "-joined, "" if none).

    The plain answer to ``hq_ranges_at`` for a game whose HQ ranges are sets of hex ids.
    """
    g = grid(state.system)
    out = {}
    for side in sides:
        text = np.full(len(g), "", dtype=object)
        for u in state.units_of(side):
            if u.hq:
                hit = np.isin(g.id_array, sorted(supply_range(u.id)))
                text[hit] = [f"{t}; {u.id}" if t else u.id for t in text[hit]]
        out[side] = text
    return out
