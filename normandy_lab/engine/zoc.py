"""Zones of control and hex control (BfN 5.x, 3.3).

Rules implemented (The Battle for Normandy):

* 5.1 -- every ground unit exerts a ZOC into the six hexes around it
  (artillery and strongpoints included; several ZOCs add nothing); ships
  are not ground units and exert none;
* 5.3 -- ZOCs extend across every hexside except all-sea hexsides, and
  into every hex except City hexes;
* 3.3 -- a hex is controlled by the side that occupies it, or whose ZOC
  alone covers it; a vacant hex in both sides' ZOCs keeps its control.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from normandy_lab.engine.state import GameState, other_side
from normandy_lab.grid import grid
from normandy_lab.network import edge_arrays
from normandy_lab.terrain import terrain_map

# Unit types that are not ground units: they exert no ZOC (5.1).
NOT_GROUND = ("ship",)


def _occupied(state: GameState, side: str) -> np.ndarray:
    """Return the hexes held by ``side``'s active ground units (those that exert a ZOC, 5.1)."""
    g = grid(state.system)
    mask = np.zeros(len(g), dtype=bool)
    for unit in state.units_of(side):
        if unit.type not in NOT_GROUND:
            mask[g.index(unit.hex)] = True
    return mask


@lru_cache(maxsize=8)
def _zoc_reach(system: str) -> np.ndarray:
    """Return, per hex, the hexes a unit there exerts its ZOC into (-1 padded).

    Not across all-sea hexsides, never into City hexes (5.3); it depends only on the map.
    """
    edges = edge_arrays(system)
    settlement = terrain_map(system, progress=False).hexes["settlement"].to_numpy()
    keep = ~edges.all_sea & (settlement[edges.dst] != "City")
    src, dst = edges.src[keep], edges.dst[keep]
    order = np.argsort(src, kind="stable")
    src, dst = src[order], dst[order]
    slot = np.arange(len(src)) - np.searchsorted(src, src)  # position among the hex's neighbours
    table = np.full((len(grid(system)), int(slot.max()) + 1 if len(slot) else 1), -1, dtype=np.int64)
    table[src, slot] = dst
    return table


def zoc_mask(state: GameState, side: str, occupied: np.ndarray | None = None) -> np.ndarray:
    """Return a mask over the dense hex index of the hexes in ``side``'s ZOC (5.1, 5.3).

    ``occupied`` may pass the mask of the hexes ``side``'s active ground units hold.
    """
    if occupied is None:
        occupied = _occupied(state, side)
    reach = _zoc_reach(state.system)[occupied].ravel()
    mask = np.zeros(len(occupied), dtype=bool)
    mask[reach[reach >= 0]] = True
    return mask


def ezoc(state: GameState, side: str) -> set[str]:
    """Return the hexes in the enemy zone of control of ``side`` (the ZOC of ``side``'s enemy).

    Examples
    --------
    ``ezoc(state, "allied")`` is every hex an Allied unit entering would
    find in a German ZOC.
    """
    g = grid(state.system)
    ids = np.asarray(g.ids(), dtype=object)
    return set(ids[zoc_mask(state, other_side(side))])


def ezoc_coverage(state: GameState):  # -> geopandas.GeoDataFrame
    """Return the ZOC coverage of both sides as a GeoDataFrame of hexes.

    Columns: ``hex_id``, ``allied_zoc``, ``german_zoc``, ``contested`` and
    the hex polygon.  Only hexes in some ZOC are listed.
    """
    g = grid(state.system)
    allied, german = zoc_mask(state, "allied"), zoc_mask(state, "german")
    keep = allied | german
    frame = g.to_geodataframe()[keep]
    frame = frame.assign(allied_zoc=allied[keep], german_zoc=german[keep], contested=(allied & german)[keep])
    return frame[["hex_id", "allied_zoc", "german_zoc", "contested", "geometry"]]


def hex_control(
    state: GameState, zoc: dict[str, np.ndarray] | None = None, occupied: dict[str, np.ndarray] | None = None
) -> np.ndarray:
    """Return the controlling side of every hex ("allied", "german" or "") (3.3).

    Occupied hexes belong to the occupant; hexes in one side's ZOC only
    belong to that side; the rest keep the scenario's explicit control.
    ``zoc`` and ``occupied`` may pass both sides' :func:`zoc_mask` and
    occupied hexes when already computed.
    """
    g = grid(state.system)
    control = np.full(len(g), "", dtype=object)
    for hex_id, side in state.control.items():
        control[g.index(hex_id)] = side
    if zoc is None:
        zoc = {side: zoc_mask(state, side) for side in ("allied", "german")}
    allied_zoc, german_zoc = zoc["allied"], zoc["german"]
    control[allied_zoc & ~german_zoc] = "allied"
    control[german_zoc & ~allied_zoc] = "german"
    if occupied is None:
        occupied = {side: _occupied(state, side) for side in ("allied", "german")}
    allied, german = occupied["allied"], occupied["german"]
    control[allied] = "allied"
    control[german] = "german"
    return control
