"""The toy game's own map: a 10 x 10 hex board round Bayeux, numbered, named and placed by the toy alone.

Nothing here is in the package's tables: registering the game (``rules.register_game``) registers this
scheme, vocabulary and these control points under the map key ``"toy"``, and the grids, the terrain and the
views then find the map as they find the four shipped ones.
"""

from __future__ import annotations

import re

from normandy_lab.grids.georef import ControlPoint
from normandy_lab.grids.hexgrid import EVEN
from normandy_lab.grids.numbering import Scheme, Sheet
from normandy_lab.rules.game import MapData
from normandy_lab.terrain.vocab import TerrainVocabulary

KEY = "toy"

#: One sheet, columns and rows 01-10; ids print as ``T`` + column + row (``T0508``): the format is data.
SCHEME = Scheme(
    system=KEY,
    title="Toy",
    orientation="pointy",
    offset=EVEN,
    hex_size_m=2000.0,
    hex_size_source="toy rule 1: a hex is 2 km across",
    expected="T, then the column and the row, two digits each (e.g. 'T0508')",
    example="T0508",
    sheets={"": Sheet("", rows=(1, 10), cols=(1, 10), note="the toy's one board")},
    pattern=re.compile(r"T(?P<sheet>)(?P<a>\d{2})(?P<b>\d{2})"),
    row_first=False,
    id_format="T{col:02d}{row:02d}",
)

#: The toy's own terrain words, each with its colour; "Sea" is the one word it shares, because the core
#: closes sea hexes to every line by that word.
VOCABULARY = TerrainVocabulary(
    system=KEY,
    terrains=("Sea", "Meadow", "Hedges", "Copse", "Bog", "Strand"),
    water_names={"canal": "Ditch", "stream": "Brook", "river": "River", "major_river": "River"},
    rules={"Meadow": "toy 2", "Hedges": "toy 2", "Copse": "toy 2", "Bog": "toy 2", "Strand": "toy 2"},
    sea="Sea",
    marsh="Bog",
    flooded="Bog",
    woods="Copse",
    bocage="Hedges",
    open="Meadow",
    mixed="Meadow",
    beach="Strand",
    colours=(
        ("Meadow", "#e8f0b8"),
        ("Hedges", "#8fbf6a"),
        ("Copse", "#2f6f2a"),
        ("Bog", "#6fa8b8"),
        ("Strand", "#f0d890"),
    ),
)

#: Three towns of the gazetteer tie the board to the ground (toy rule 1).
CONTROL_POINTS = (
    ControlPoint(KEY, ("T0202",), "Bayeux", "toy rule 1: Bayeux stands in T0202", "fit"),
    ControlPoint(KEY, ("T0802",), "Creully", "toy rule 1: Creully stands in T0802", "fit"),
    ControlPoint(KEY, ("T0508",), "Tilly-sur-Seulles", "toy rule 1: Tilly stands in T0508", "fit"),
)

MAP = MapData(scheme=SCHEME, vocabulary=VOCABULARY, control_points=CONTROL_POINTS)
