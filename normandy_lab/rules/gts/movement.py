"""Where The Greatest Day lets a unit go, and what the text adds to a step: 1.2 and 2.1-2.4.

The text gives what a unit may not do and a few surcharges, not the base cost of a step: the Terrain
Effects Chart is in the series rules (GAP), so a step costs 1 MP whatever the terrain (RECONSTRUCTED, as the
core's default), and what the text says is played on it:

* 2.1.14, 2.1.8: no unit enters an Impassable hex (nor the sea); a Beach hex exists only on the beach
  overlays (the map's other beach is Impassable) and no German unit enters one.  4.1.4, 4.3.3: once the
  beach is cleared its hexes are out of play; from 8 June no American unit enters one either (the reading
  ``beach_from_8_june``, :func:`beach_out_of_play`).
* 2.1 (the grey portions): a water feature with an effect cuts the hex; a unit does not cross it except by a
  bridge (2.4.1).  Which water has that effect is on the map (GAP): the hexsides the derived map calls
  *River* stand for the grey portions (RECONSTRUCTED).  2.1's own example holds: 28.049 is entered from
  28.048, not from 28.050 across the Douve.
* 2.2.3: a leg unit crossing a *Stream* hexside not along a road pays 2 MP more (1 in Column); a wheeled or
  tracked unit crosses one only along a road.
* 2.4.3: a vehicle does not cross a railway bridge (one with no road bridge on the same hexside) unless it
  is "improved"; no bridge is improved: that is an Engineer Action in play, and the derived map and the
  scenario know of none (GAP).
* 2.1.2, 2.1.7: a wheeled or tracked unit enters and leaves Woods and Marsh hexes only along a road;
  2.1.4-2.1.6: it enters Town, City and Fortified hexes in Column, from any side (the text asks Column, not
  a road; off the road it pays the base cost, 2.3.1).
* 2.3.3-2.3.5: a leg unit not in Column entering a Raised, Embankment or Sunken Road/Railroad hex pays
  double; a vehicle (in Column) enters one only through a hexside its road touches.  No source places such a
  road (``data.RAISED_OR_SUNKEN_ROAD_HEXES`` is empty, the reasons there): the rule is ready for the hexes.
* 1.2: in a Storm the MP to enter a hex are doubled, stream surcharge included, "unless a Unit is in Column
  and moving along a Road/Railroad".

Column itself is not modelled.  The reading ``storm_column`` (``data.OPTIONS``) says when a step counts as
in Column for 1.2: ``along_roads`` (default: every step along a road or railway, as a unit on the road
would move) or ``never`` (every step doubles).  Off the roads a leg unit is taken as not in Column (2.2.3's
+2), a vehicle as in Column wherever a rule requires it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from normandy_lab.engine.state import GameState
from normandy_lab.gamemap import game_map
from normandy_lab.rules.base import MoveCosts
from normandy_lab.rules.gts import data
from normandy_lab.rules.gts.data import SUPPLY_LIMITS_FROM, reading

NO_ENTRY = ("Impassable", "All Sea", "Sea")  # 2.1.14
ROAD_ONLY_FOR_VEHICLES = ("Woods", "Marsh")  # 2.1.2, 2.1.7 ("traveling along a Road")
COLUMN_FOR_VEHICLES = ("Town", "City", "Fortified")  # 2.1.4-2.1.6: Column, not a road
CUTTING_WATER = "River"  # the derived map's class standing for 2.1's grey portions (RECONSTRUCTED)
STREAM = "Stream"
STREAM_SURCHARGE = 2  # 2.2.3: a Leg Unit not in Column (1 in Column)
STORM_FACTOR = 2  # 1.2


def beach_out_of_play(state: GameState) -> bool:
    """Say whether the Beach hexes are out of play for every unit (reading ``beach_from_8_june``).

    4.1.4: once a beach is cleared "all Beach hexes become out of play for all players"; 4.3.3: "No Allied
    Unit may enter a Beach hex on a Beach Overlay with a cleared Beach".  Utah was cleared on D-Day; the
    booklets' 8 June set-up is a GAP.  ``out_of_play`` (default): from 8 June no unit enters a Beach hex;
    ``enterable``: the overlay kept, American units may.
    """
    return state.date >= SUPPLY_LIMITS_FROM and reading(state, "beach_from_8_june") == "out_of_play"


def movement_costs(state: GameState, unit: Any) -> MoveCosts:
    """Return what each step costs ``unit`` and where it may not go (NaN), by 1.2 and 2.1-2.4."""
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
    if unit.side == "german" or beach_out_of_play(state):
        closed |= terrain[e.dst] == "Beach"  # 2.1.8; 4.1.4, 4.3.3 (reading beach_from_8_june)
    along_road = e.road > 0
    across_stream = (feature == STREAM) & ~along_road

    raised = np.zeros(len(cost), dtype=bool)
    if data.RAISED_OR_SUNKEN_ROAD_HEXES:  # 2.3.3-2.3.5 (none placed by a source)
        ids = hexes.index.astype(str).to_numpy()
        raised = np.isin(ids[e.dst], list(data.RAISED_OR_SUNKEN_ROAD_HEXES)) & ~along_road
    if unit.mechanized:  # wheeled or tracked
        closed |= raised  # 2.3.3(2), (3): in Column, through a hexside the raised or sunken road touches
        vehicle_only_road = np.isin(terrain[e.dst], ROAD_ONLY_FOR_VEHICLES) | np.isin(
            terrain[e.src], ROAD_ONLY_FOR_VEHICLES
        )
        closed |= vehicle_only_road & ~along_road
        closed |= across_stream  # 2.2.3
        closed |= e.rail_bridge & ~e.road_bridge  # 2.4.3: none is improved (GAP)
    else:
        cost[raised] *= 2  # 2.3.3(4), 2.3.5(4): "double the terrain cost" for a leg unit not in Column
        cost[across_stream] += STREAM_SURCHARGE  # 2.2.3
    if state.weather == "Storm":  # 1.2
        in_column = (
            (along_road | e.railway.astype(bool))
            if state.options.get("storm_column", "along_roads") == "along_roads"
            else np.zeros(len(cost), dtype=bool)
        )
        cost[~in_column] *= STORM_FACTOR
    cost[closed] = np.nan
    crossing = np.where(feature == CUTTING_WATER, names, "")
    return MoveCosts(
        cost, terrain.astype(object), e.road > 0, e.railway.astype(bool), crossing.astype(object)
    )
