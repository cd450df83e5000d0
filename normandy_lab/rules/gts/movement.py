"""Where The Greatest Day lets a unit go: the in-hex terrain and water restrictions of 2.1-2.4.

The text gives what a unit may not do, not what a step costs: the Terrain Effects Chart is in the series
rules (GAP), so a step costs 1 MP whatever the terrain (RECONSTRUCTED, as the core's default), and the
prohibitions are the text's:

* 2.1.14, 2.1.8: no unit enters an Impassable hex (nor the sea); a Beach hex exists only on the beach
  overlays (the map's other beach is Impassable) and no German unit enters one.
* 2.1 (the grey portions): a water feature with an effect cuts the hex; a unit does not cross it except by a
  bridge (2.4.1).  Which water has that effect is on the map (GAP): the hexsides the derived map calls
  *River* stand for the grey portions (RECONSTRUCTED), *Streams* have no effect.  2.1's own example holds:
  28.049 is entered from 28.048, not from 28.050 across the Douve.
* 2.1.2, 2.1.4, 2.1.5-2.1.7: a wheeled or tracked unit enters and leaves Woods, Town, City, Fortified and
  Marsh hexes only along a road (in Column; Column itself is not modelled).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from normandy_lab.engine.state import GameState
from normandy_lab.rules.base import MoveCosts

NO_ENTRY = ("Impassable", "All Sea", "Sea")  # 2.1.14
ROAD_ONLY_FOR_VEHICLES = ("Woods", "Town", "City", "Fortified", "Marsh")  # 2.1.2, 2.1.4-2.1.7
CUTTING_WATER = "River"  # the derived map's class standing for 2.1's grey portions (RECONSTRUCTED)


def movement_costs(state: GameState, unit: Any) -> MoveCosts:
    """Return what each step costs ``unit`` (1 MP) and where it may not go (NaN), by 2.1-2.4."""
    from normandy_lab.gamemap import game_map

    gmap = game_map(state.system)
    e = gmap.edges
    hexes = gmap.terrain.hexes
    terrain = hexes["terrain"].astype(str).to_numpy()
    sides = gmap.terrain.hexsides
    feature = sides["water_feature"].fillna("").astype(str).to_numpy()[e.side]
    names = sides["water_name"].fillna("").astype(str).to_numpy()[e.side]
    destroyed = sides.index.isin(list(state.destroyed_bridges))[e.side]
    bridged = (e.road_bridge | e.rail_bridge) & ~destroyed
    cost = np.ones(len(e.src))
    closed = np.isin(terrain[e.dst], NO_ENTRY)
    closed |= (feature == CUTTING_WATER) & ~bridged  # 2.1, 2.4.1
    if unit.side == "german":
        closed |= terrain[e.dst] == "Beach"  # 2.1.8
    if unit.mechanized:  # wheeled or tracked
        vehicle_only_road = np.isin(terrain[e.dst], ROAD_ONLY_FOR_VEHICLES) | np.isin(
            terrain[e.src], ROAD_ONLY_FOR_VEHICLES
        )
        closed |= vehicle_only_road & ~(e.road > 0)
    cost[closed] = np.nan
    crossing = np.where(feature == CUTTING_WATER, names, "")
    return MoveCosts(
        cost, terrain.astype(object), e.road > 0, e.railway.astype(bool), crossing.astype(object)
    )
