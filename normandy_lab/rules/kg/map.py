"""The map of The Killing Ground with OVERLORD: its printed hex numbering and its terrain words, as data.

The core (``grids.numbering``, ``terrain.vocab``) holds only the mechanism; the registry
(:func:`normandy_lab.rules.register_game`) registers this map's :data:`MAP_DATA` in the core's tables the
first time the map is asked for.  The control points that place the map stay in
``maps/grids/control_points.yaml`` (the grid files the schemas check).  The scheme, read from the rulebook
(evidence in ``../shared/rules/*.md`` and ``docs/grids.md``):

``kg`` -- The Killing Ground with OVERLORD
    ``N3139``: sheet N, W or E, then row ``RR`` and column ``CC``.  On N rows
    grow south and columns east (rule 26.18.1); pointy-top; even rows half a
    hex east (the destroyed-bridge hexsides N3436/N3337 and N3847/N3948 are
    adjacent only so).  The W and E sheets number rows from their south edge:
    W row = 92 - N row, W col = N col - 3 (the four double references of
    scenario 22.7); E col = N col - 35 from Falaise (E3715, rule 26.23.3h).
"""

from __future__ import annotations

import re

from normandy_lab.grids.georef import control_points
from normandy_lab.grids.hexgrid import EVEN
from normandy_lab.grids.numbering import Scheme, Sheet
from normandy_lab.rules.game import MapData
from normandy_lab.terrain.vocab import TerrainVocabulary

KG_E_COL_SHIFT = 35
"""Column shift of KG sheet E on the N lattice (E col = N col - 35)."""


def _kg() -> Scheme:
    sheets = {
        "N": Sheet(
            "N",
            (1, 49),
            (1, 55),
            stacking=1,
            placement="reference",
            note="the OVERLORD North Map; rows 12-49 and columns 05-54 are cited; "
            "it lies on top of the original maps (rule 26.2.1)",
        ),
        "W": Sheet(
            "W",
            (1, 47),
            (1, 35),
            row_sign=-1,
            row_shift=92,
            col_shift=3,
            stacking=0,
            placement="text",
            note="W row = 92 - N row, W col = N col - 3 from the four double references "
            "of scenario 22.7; extent assumed",
        ),
        "E": Sheet(
            "E",
            (1, 47),
            (1, 35),
            row_sign=-1,
            row_shift=92,
            col_shift=KG_E_COL_SHIFT,
            stacking=0,
            placement="fitted",
            note="E row = 92 - N row as on W; E col = N col - 35 from Falaise E3715 "
            "(rule 26.23.3h); extent assumed",
        ),
    }
    return Scheme(
        system="kg",
        title="The Killing Ground with OVERLORD",
        orientation="pointy",
        offset=EVEN,
        hex_size_m=2500.0,
        hex_size_source="rule 26.2.6: 2.5 km per hex",
        expected="a sheet letter N, W or E and four digits, row then column (e.g. 'N3139')",
        example="N3139",
        sheets=sheets,
        pattern=re.compile(r"(?P<sheet>[NWE])(?P<a>\d{2})(?P<b>\d{2})"),
        row_first=True,
    )


SCHEME = _kg()
"""The printed numbering of the map, on its global lattice."""

KG_CITY_CRITERION = (
    "a KG City hex is a hex the 1944 built-up layer (maps/geography/builtup.yaml) gives to a city or a town "
    "(about 3,000 people or more in 1936, the layer's class): the hex holding the outline's centre, and any "
    "hex the outline covers by a quarter or more (TerrainConfig.builtup_fraction); the layer's villages are "
    "town hexes, not cities"
)
"""How The Killing Ground's city hexes are RECONSTRUCTED (26.11.2's German city supply, 26.4.3's rail, no ZOC
into a city hex): the printed map's city hexes are not in the text beyond Cherbourg's N1410 (26.11.2) and
"Caen city hexes" (26.23.2).  At 2.5 km a hex a 1944 market town of a few thousand people is the largest
place for miles and the map's obvious city symbol; a village is not.  ``normandy_lab.rules.kg.cities`` lists
them with their provenance."""

KG = TerrainVocabulary(
    system="kg",
    terrains=("All Sea", "Clear", "Hedgerow", "Bocage", "Woods", "Marsh", "Beach"),
    water_names={"canal": "", "stream": "", "river": "River", "major_river": "Major River"},
    rules={
        "Clear": "KG base terrain (the KG terrain chart is not in the seeds)",
        "Hedgerow": "26.8.1-26.8.2: exempts its occupant from attacking adjacent units",
        "Bocage": "26.8.1: a German final step loss may become a retreat",
        "Beach": "treated as clear (26.4.5)",
        "Major River": "bridge repair over a major river (26.19.5)",
        "All Sea": "naval fire protection ranges (26.8.2)",
        "City": "German city supply (26.11.2); Cherbourg's N1410",
    },
    sea="All Sea",
    marsh="Marsh",
    flooded="Marsh",
    woods="Woods",
    bocage="Bocage",
    open="Clear",
    mixed="Hedgerow",
    beach="Beach",
    forced_city_hexes=("N1410",),
    towns_are_cities=True,  # RECONSTRUCTED: KG_CITY_CRITERION
    # 22.6.8 sets landed units on these coastal hexes (Omaha N2931, N2932, N3032; Utah N2522; the east
    # coast of the Cotentin N2120), 22.7 German units on N2019 and a US recon unit on N2220, and 26.4.2
    # needs an Allied unit in Mulberry B's hex N3139: their centres lie within 0.7 hex of the GSHHG
    # shoreline, but less than half of each is land at 2.5 km.
    forced_land_hexes=("N2019", "N2120", "N2220", "N2522", "N2931", "N2932", "N3032", "N3139"),
)
"""The Killing Ground with OVERLORD: 26.4.5, 26.8.1-26.8.2, 26.19.5.  The
base KG terrain chart is not in the seeds; woods and marsh follow the other
systems (marked as a reconstruction).  Mixed hedged farmland is Hedgerow,
dominant bocage Bocage.  The Caen canal adds no hexside beside the Orne at
2.5 km a hex."""


VOCABULARY = KG
"""The map's terrain words (under the shorter name the registry's loaders read)."""

MAP_DATA = MapData(SCHEME, VOCABULARY, control_points(SCHEME.system))
"""The map as the registry registers it: scheme, vocabulary and the control points of the grid files."""
