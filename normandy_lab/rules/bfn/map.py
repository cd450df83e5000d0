"""The map of The Battle for Normandy: its printed hex numbering and its terrain words, as data.

The core (``grids.numbering``, ``terrain.vocab``) holds only the mechanism; the registry
(:func:`normandy_lab.rules.register_game`) registers this map's :data:`MAP_DATA` in the core's tables the
first time the map is asked for.  The control points that place the map stay in
``maps/grids/control_points.yaml`` (the grid files the schemas check).  The scheme, read from the rulebook
(evidence in ``../shared/rules/*.md`` and ``docs/grids.md``):

``bfn`` -- The Battle for Normandy (GMT 2013)
    ``A4218``: sheet letter A-G, then the row ``RR`` (grows south) and the
    column ``CC`` (grows *west*: the drop example of rule 17.2 moves A4118
    east to A4116).  Pointy-top hexes; even rows sit half a hex east (the
    drop example and the Gold landing queue 1829-1728-1628-1527 of rule 18.1).
"""

from __future__ import annotations

import re

from normandy_lab.grids.georef import control_points
from normandy_lab.grids.hexgrid import EVEN
from normandy_lab.grids.numbering import Scheme, Sheet
from normandy_lab.rules.game import MapData
from normandy_lab.terrain.vocab import TerrainVocabulary

BFN_SHIFTS: dict[str, tuple[int, int]] = {"B": (34, 9), "C": (36, 61)}
"""(row_shift, col_shift) of BfN sheets B and C on sheet A's lattice."""


def _bfn() -> Scheme:
    # Sheet extents are not printed in the rules.  The rows and columns cover
    # every id the rulebook cites (rows up to 42 on A, columns up to 48 on C)
    # and a GMT 22"x34" sheet; see docs/grids.md.  Shifts of B and C are
    # searched on the lattice to fit the control points (georef.py); D-G are
    # placed by rule 2.21's arrangement (D below B, E below C, F and G half
    # a sheet further south), and their shifts are set in grid.py from B/C.
    note = "extent assumed from the ids the rules cite (docs/grids.md)"
    rows, cols = (1, 44), (1, 54)
    # Shifts of B and C against A, found by normandy_lab.grids.sheetfit from the
    # control points (the test suite re-runs the search).
    b_shift, c_shift = BFN_SHIFTS["B"], BFN_SHIFTS["C"]
    # Rule 2.21: D and E lie below B and C, and F and G are "placed half-way
    # over" D and E.  No control point is printed for them, so they are
    # placed by that arrangement: D abuts B's last row, E abuts C's; F and G
    # are shifted half a sheet south (22 rows, even, which keeps the row
    # parity) and half a sheet east of D and E.  The eastward half is our
    # reading: Argentan, a German supply city (rule 7.4), lies east of the
    # east edge of C and E and must be on some sheet.
    height = rows[1] - rows[0] + 1
    width = cols[1] - cols[0] + 1
    d_shift = (b_shift[0] + height, b_shift[1])
    e_shift = (c_shift[0] + height, c_shift[1])
    f_shift = (d_shift[0] + height // 2, d_shift[1] + width // 2)
    g_shift = (e_shift[0] + height // 2, e_shift[1] + width // 2)

    def sheet(letter: str, shift: tuple[int, int], stacking: int, placement: str) -> Sheet:
        return Sheet(
            letter,
            rows,
            cols,
            row_shift=shift[0],
            col_sign=-1,
            col_shift=shift[1],
            stacking=stacking,
            placement=placement,
            note=note,
        )

    # Stacking follows rule 2.21: B over A and C, D and E over B and C, F and
    # G over D and E.
    sheets = {
        "A": sheet("A", (0, 0), 0, "reference"),
        "B": sheet("B", b_shift, 1, "fitted"),
        "C": sheet("C", c_shift, 0, "fitted"),
        "D": sheet("D", d_shift, 2, "arranged"),
        "E": sheet("E", e_shift, 2, "arranged"),
        "F": sheet("F", f_shift, 3, "arranged"),
        "G": sheet("G", g_shift, 3, "arranged"),
    }
    return Scheme(
        system="bfn",
        title="The Battle for Normandy",
        orientation="pointy",
        offset=EVEN,
        hex_size_m=1270 * 0.9144,
        hex_size_source="rule 2.5: a hex is about 1270 yards",
        expected="a sheet letter A-G and four digits, row then column (e.g. 'C3014')",
        example="C3014",
        sheets=sheets,
        pattern=re.compile(r"(?P<sheet>[A-G])(?P<a>\d{2})(?P<b>\d{2})"),
        row_first=True,
    )


SCHEME = _bfn()
"""The printed numbering of the map, on its global lattice."""

BFN = TerrainVocabulary(
    system="bfn",
    terrains=("Sea", "Clear", "Farmland", "Bocage", "Forest", "Flooded/Marsh", "Beach"),
    water_names={
        # The canals (the Caen canal beside the Orne, the Vire-Taute canal) bar like the major rivers;
        # the smaller named rivers (class "river": Aure, Drôme, Seulles, Odon, Elle, Taute, ...) are
        # Streams, as the docstring below and docs/terrain.md say.
        "canal": "Major River",
        "stream": "Stream",
        "river": "Stream",
        "major_river": "Major River",
    },
    rules={
        "Clear": "mandatory-attack terrain, 12.3",
        "Farmland": "light bocage: infantry 2 MP (10.x example), -1 combat (12.6.5)",
        "Bocage": "-3 combat, no advance unless all steps eliminated (12.6.5)",
        "Forest": "-2 firing into it (13.3)",
        "Flooded/Marsh": "all MPs; mechanized only by road (10.6); +2 DRM attacking into it",
        "Beach": "landing hexes (18.1)",
        "Sea": "all-sea: no ZOC across (5.3)",
        "City": "no ZOC into city hexes (5.3); German supply cities (7.4)",
        "Stream": "+2 MP, vehicles prohibited, supply only to an adjacent unit (7.3.2, 10.6)",
        "Major River": "infantry all MPs, mech only by bridge (10.6); the major rivers and the canals",
    },
    sea="Sea",
    marsh="Flooded/Marsh",
    flooded="Flooded/Marsh",
    woods="Forest",
    bocage="Bocage",
    open="Clear",
    mixed="Farmland",
    beach="Beach",
    forced_city_names=("Bayeux", "Cherbourg", "Caen", "Argentan", "Flers", "Vire"),
    villages=True,
)
"""The Battle for Normandy: 10.6 and the reconstructed TEC (digest 5.1).  Mixed
country (neither bocage nor open dominant) is Farmland, the rulebook's
"light bocage".  Only the major rivers (class ``major_river``: Seine, Orne,
Dives, Vire, Douve, Sée, Sélune, and the sea inlets) and the canals are Major
River hexsides: the bridging example treats the Caen canal as a river beside
the Orne, and the Vire-Taute canal, the layer's other canal, keeps the same
class.  The smaller named rivers (class ``river``) are Streams like the
brooks, or every valley would be a Major River line.  The six
German supply cities of 7.4 are City hexes whatever their size; a City
replaces the country in combat, a Town or Village adds to it (12.6.5)."""


VOCABULARY = BFN
"""The map's terrain words (under the shorter name the registry's loaders read)."""

MAP_DATA = MapData(SCHEME, VOCABULARY, control_points(SCHEME.system))
"""The map as the registry registers it: scheme, vocabulary and the control points of the grid files."""
