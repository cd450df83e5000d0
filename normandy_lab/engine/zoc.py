"""Zones of control and hex control, as the state's rule system defines them.

The rule system says which units exert a zone of control (``RuleSet.exerts_zoc``: BfN 5.1, every ground
unit) and across which hexsides into which hexes it extends (``RuleSet.zoc_crosses``: BfN 5.3, not across
all-sea hexsides nor into City hexes); this module makes the masks, the coverage and hex control (BfN 3.3:
a hex is controlled by the side that occupies it, or whose ZOC alone covers it; a vacant hex in both
sides' ZOCs keeps its control).  A unit that exerts no ZOC still holds its hex.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from normandy_lab.engine.state import GameState, other_side
from normandy_lab.grids import grid
from normandy_lab.network import edge_arrays

if TYPE_CHECKING:  # for annotations only: geopandas loads when the frame is asked for
    import geopandas


def _occupied(state: GameState, side: str) -> np.ndarray:
    """Return the hexes held by ``side``'s units that exert a zone of control (BfN 5.1: ground units)."""
    g = grid(state.system)
    mask = np.zeros(len(g), dtype=bool)
    exerts = state.rules.exerts_zoc
    exempt = state.rules.zoc_exempt(state)
    for unit in state.units_of(side):
        if exerts(unit) and unit.id not in exempt:
            mask[g.index(unit.hex)] = True
    return mask


@lru_cache(maxsize=8)
def _zoc_reach(rules: Any) -> np.ndarray:  # a RuleSet (the registry's, typed Any here)
    """Return, per hex, the hexes a unit there exerts its ZOC into (-1 padded), as the rule system says.

    It depends only on the map and the rules (cached per rule system).
    """
    system = rules.system
    edges = edge_arrays(system)
    keep = np.asarray(rules.zoc_crosses(edges), dtype=bool)
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
    reach = _zoc_reach(state.rules)[occupied].ravel()
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


def ezoc_coverage(state: GameState) -> geopandas.GeoDataFrame:
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
    state: GameState,
    zoc: dict[str, np.ndarray] | None = None,
    occupied: dict[str, np.ndarray] | None = None,
    at: np.ndarray | None = None,
) -> np.ndarray:
    """Return the controlling side of every hex ("allied", "german" or "") (3.3).

    Occupied hexes belong to the occupant; hexes in one side's ZOC only
    belong to that side; the rest keep the scenario's explicit control.
    ``zoc`` and ``occupied`` may pass both sides' :func:`zoc_mask` and
    occupied hexes when already computed.  With ``at`` (hex indices), only
    those hexes' control, in that order: a rule that asks about a few hexes
    (the supply cities) does not pay for the whole map.
    """
    g = grid(state.system)
    hexes = np.arange(len(g)) if at is None else np.asarray(at, dtype=np.int64)
    control = np.full(len(hexes), "", dtype=object)
    if state.control:
        where = {g.index(hex_id): side for hex_id, side in state.control.items()}
        control[:] = [where.get(h, "") for h in hexes.tolist()]
    if zoc is None:
        zoc = {side: zoc_mask(state, side) for side in ("allied", "german")}
    allied_zoc, german_zoc = zoc["allied"][hexes], zoc["german"][hexes]
    control[allied_zoc & ~german_zoc] = "allied"
    control[german_zoc & ~allied_zoc] = "german"
    if occupied is None:
        occupied = {side: _occupied(state, side) for side in ("allied", "german")}
    control[occupied["allied"][hexes]] = "allied"
    control[occupied["german"][hexes]] = "german"
    return control
