"""The map of The Greatest Day: Utah Beach: its printed hex numbering and its terrain words, as data.

The core (``grids.numbering``, ``terrain.vocab``) holds only the mechanism; the registry
(:func:`normandy_lab.rules.register_game`) registers this map's :data:`MAP_DATA` in the core's tables the
first time the map is asked for.  The control points that place the map stay in
``maps/grids/control_points.yaml`` (the grid files the schemas check).  The scheme, read from the rulebook
(evidence in ``../shared/rules/*.md`` and ``docs/grids.md``):

``gts`` -- The Greatest Day: Utah Beach (MMP)
    ``30.027``: one global ``CC.RRR`` scheme; ``CC`` grows *west*, ``RRR``
    grows south.  Flat-top hexes; odd columns sit half a hex south (every
    drop zone of rule 3.2 is then a compact cluster, and the St-Martin
    battery 30.027 is 10 hexes from 20.025 as rule 4.4.7 says).
"""

from __future__ import annotations

import re

from normandy_lab.grids.georef import control_points
from normandy_lab.grids.hexgrid import ODD
from normandy_lab.grids.numbering import Scheme, Sheet
from normandy_lab.rules.game import MapData
from normandy_lab.terrain.vocab import TerrainVocabulary


def _gts() -> Scheme:
    sheets = {
        "": Sheet(
            "",
            (1, 60),
            (1, 90),
            col_sign=-1,
            placement="reference",
            note="one global numbering over all sheets; columns 16-89 and rows 002-050 are "
            "cited; extent assumed to reach Isigny (Map 6) and Carentan",
        ),
    }
    return Scheme(
        system="gts",
        title="The Greatest Day: Utah Beach",
        orientation="flat",
        offset=ODD,
        hex_size_m=500.0,
        hex_size_source="GTS series rules 1.1: hexes about 500 m across",
        expected="two digits, a dot and three digits, column then row (e.g. '30.027')",
        example="30.027",
        sheets=sheets,
        pattern=re.compile(r"(?P<sheet>)(?P<a>\d{2})\.(?P<b>\d{3})"),
        row_first=False,
        id_format="{col:02d}.{row:03d}",
    )


SCHEME = _gts()
"""The printed numbering of the map, on its global lattice."""

GTS = TerrainVocabulary(
    system="gts",
    terrains=(
        "Impassable",
        "Clear",
        "Hedgerow",
        "Woods",
        "Marsh",
        "Flooded",
        "Beach",
        "Village",
        "Town",
        "City",
    ),
    water_names={"canal": "River", "stream": "Stream", "river": "River", "major_river": "River"},
    rules={
        "Clear": "2.1.1",
        "Woods": "2.1.2: blocking, -2",
        "Village": "2.1.3",
        "Town": "2.1.4",
        "City": "2.1.5",
        "Marsh": "2.1.7: the 1944 inundations; vehicles only in column on a road",
        "Beach": "2.1.8: only on the Beach Overlay",
        "Hedgerow": "2.1.9: the bocage; allows German Bocage markers (16.3)",
        "Flooded": "2.1.11: wet, ditched farmland; passable",
        "Impassable": "2.1.14: the sea",
        "Stream": "2.2.3: +2 MP leg, vehicles by road only",
        "River": "2.2.4: crossed only at bridges or ferries",
    },
    sea="Impassable",
    marsh="Flooded",
    flooded="Marsh",
    woods="Woods",
    bocage="Hedgerow",
    open="Clear",
    mixed="Hedgerow",
    beach="Beach",
    settlement_replaces_country=True,
    villages=True,
    # 4.5.2: the eight Sub-Beach hexes of the Utah overlay (planned: Tare Green 22.023, 23.022, Uncle Red
    # 21.023, 21.024; actual: Tare Green 18.026, 19.025, Uncle Red 17.026, 17.027) are Beach on the overlay
    # (2.1.8); at 500 m most of each lies under the GSHHG sea.
    forced_land_hexes=("22.023", "23.022", "21.023", "21.024", "18.026", "19.025", "17.026", "17.027"),
    # 2.1's example: a unit moving from 28.048 into 28.049 "is in the Clear hex terrain" (the hex's dot),
    # where the wetland data alone would make it Marsh; the Douve's grey portion is on its 28.050 side.
    forced_terrain=(("28.049", "Clear"),),
)
"""The Greatest Day: Utah Beach, exclusive rules 2.1-2.2 (digest 3.1-3.2).
One centre dot decides a hex's terrain, so a village, town or city replaces
the country; mixed country in the Cotentin is hedgerow.  The 1944
inundations, which vehicles crossed only on the causeways and which drowned
paratroopers, are Marsh (2.1.7: vehicles only on roads, drop +3); other wet
ground is Flooded (2.1.11: ditched farmland, passable)."""


VOCABULARY = GTS
"""The map's terrain words (under the shorter name the registry's loaders read)."""

MAP_DATA = MapData(SCHEME, VOCABULARY, control_points(SCHEME.system))
"""The map as the registry registers it: scheme, vocabulary and the control points of the grid files."""
