"""The map of Cobra: its printed hex numbering and its terrain words, as data.

The core (``grids.numbering``, ``terrain.vocab``) holds only the mechanism; the registry
(:func:`normandy_lab.rules.register_game`) registers this map's :data:`MAP_DATA` in the core's tables the
first time the map is asked for.  The control points that place the map stay in
``maps/grids/control_points.yaml`` (the grid files the schemas check).  The scheme, read from the rulebook
(evidence in ``../shared/rules/*.md`` and ``docs/grids.md``):

``cobra`` -- Cobra (Decision Games)
    ``A2116``: sheet A (south) or B (north), then column ``CC`` (grows east)
    and row ``RR`` (grows south).  Flat-top hexes; even columns sit half a hex
    south (the Bayeux hexes B3620/A2601/A2701 of rule 17.3.6c are mutually
    adjacent only so).  B column = A column + 10 and B row 20 abuts A row 1
    (the AAB markers A2519/B3519 of rule 5.9 lie in one column).
"""

from __future__ import annotations

import re

from normandy_lab.grids.georef import control_points
from normandy_lab.grids.hexgrid import EVEN
from normandy_lab.grids.numbering import Scheme, Sheet
from normandy_lab.rules.game import MapData
from normandy_lab.terrain.vocab import TerrainVocabulary, TextHex, TextRoad


def _cobra() -> Scheme:
    sheets = {
        # Map A, the south map: columns 01-51 (east edge A5101-A5134, rule
        # 10.4a), rows 01-34 in odd columns and 01-33 in even ones (rules
        # 10.4b and 13.1b).
        "A": Sheet(
            "A",
            (1, 34),
            (1, 51),
            row_shift=20,
            col_shift=10,
            stacking=0,
            placement="text",
            note="extent from rules 10.4a-b, 13.1a-b; placement B col = A col + 10, "
            "B row 20 abuts A row 01 (rules 5.9, 17.3.6c)",
            last_row_by_col_parity={0: 33},
        ),
        # Map B, the north map: rows 01-20 (B row 20 abuts A row 01); columns
        # assumed 01-51 like map A (B cites columns up to 48, rule 14.4).
        "B": Sheet(
            "B",
            (1, 20),
            (1, 51),
            stacking=1,
            placement="reference",
            note="rows from the A/B join (rule 17.3.6c); columns assumed equal to map A's",
        ),
    }
    return Scheme(
        system="cobra",
        title="Cobra",
        orientation="flat",
        offset=EVEN,
        hex_size_m=2 * 1609.344,
        hex_size_source="rule 2.4: a hex is two miles (3.2 km) across",
        expected="a sheet letter A or B and four digits, column then row (e.g. 'A2116')",
        example="A2116",
        sheets=sheets,
        pattern=re.compile(r"(?P<sheet>[AB])(?P<a>\d{2})(?P<b>\d{2})"),
        row_first=False,
    )


SCHEME = _cobra()
"""The printed numbering of the map, on its global lattice."""

COBRA = TerrainVocabulary(
    system="cobra",
    terrains=("All Sea", "Clear", "Bocage", "Light Woods", "Marsh", "Beach"),
    water_names={"canal": "", "stream": "", "river": "Minor River", "major_river": "Major River"},
    rules={
        "Clear": "1 MP (5.1a)",
        "Bocage": "Bocage Area, hedge pattern (8.3.2a); supply counts 2 hexes off road (10.3d)",
        "Light Woods": "light forest (5.6 example)",
        "Marsh": "mechanized only along a road (5.2f); CS halved (8.3.2b)",
        "Beach": "Allied supply and entry (17.3.6f, 17.3.9)",
        "City": "Caen, Cherbourg (7.0b); Bayeux, St-Lô (16.2)",
        "Major River": "blocks ZOC (7.0a); supply 6 hexes off road (10.3g)",
        "Minor River": "cost added to the hex (5.6)",
        "All Sea": "blocks movement, supply, combat, command and ZOC (5.6d)",
    },
    sea="All Sea",
    marsh="Marsh",
    flooded="Marsh",
    woods="Light Woods",
    bocage="Bocage",
    open="Clear",
    mixed="Clear",
    beach="Beach",
    forced_city_names=("Caen", "Cherbourg", "Bayeux", "Saint-Lô"),
    forced_city_hexes=("B1207", "B1307", "B1308", "B1407", "B3620", "A2601", "A2701"),
    text_hexes=(
        TextHex(
            "B1307",
            rule="16.1",
            says="a hex of Cherbourg (map B 1207, 1307, 1308, 1407): a land City hex",
            why="69% of it lies under the GSHHG sea (Cherbourg's harbour and roadstead), so the "
            "derivation draws All Sea",
            land=True,
            settlement="City",
        ),
        TextHex(
            "B4119",
            rule="17.3 (Step 4 example)",
            says="a Juno beach hex, where the British land both units",
            why="the 1944 sector lines put Gold's King Green and King Red (Ver-sur-Mer) in it on this "
            "grid, and Juno's sectors in B4319 and B4419",
            beach="Juno",
        ),
    ),
    text_roads=(
        TextRoad(
            ("A1909", "A1809", "A1808"),
            road="primary",
            name="N174",
            rule="10.3 (example)",
            says="a major road runs from A1809 to Isigny",
            why="the 1944 N174 (Torigni-Saint-Lô) passes from Torigni's A1909 straight to A1808, within "
            "0.2-0.8 km of A1809 but not through it; the text's major road is taken through A1809 "
            "between the two hexes of the derived course beside it",
        ),
    ),
)
"""Cobra: 5.x, 7.0, 8.3.2, 10.3 (digest 5.2).  At 3.2 km a hex, only
dominant bocage makes a Bocage hex; mixed country is Clear.  Streams are
below the map's scale (no hexside), and the Caen canal runs beside the Orne
within a hex, so it adds no hexside of its own.  The rules' city hexes
(Cherbourg 16.1, Bayeux 17.3.6c) and cities (Caen, St-Lô, 16.2) are City.
Where the text states a hex's terrain or a road's course (16.1's B1307,
17.3's Juno hex B4119, 10.3's major road from A1809), the map follows the
text, and the hex or hexside's ``from_text`` names the rule."""


VOCABULARY = COBRA
"""The map's terrain words (under the shorter name the registry's loaders read)."""

MAP_DATA = MapData(SCHEME, VOCABULARY, control_points(SCHEME.system))
"""The map as the registry registers it: scheme, vocabulary and the control points of the grid files."""
