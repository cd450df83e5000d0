"""The printed hex-numbering schemes of the games' maps, in a registry of schemes by map key.

Each map prints hex ids its own way.  A game's package registers the scheme of a map of its own
(:func:`register_scheme`, called by :func:`normandy_lab.rules.register_game`); the four maps the package
ships are registered here.  This module parses and formats those
ids exactly as the rulebooks print them and maps them to one *global offset
lattice* per system, in which the sheets of a multi-sheet map are windows.

The global lattice uses screen conventions: ``gcol`` grows to the east and
``grow`` to the south.  Every sheet maps its printed numbers onto it by a
sign and a shift per axis, so that the whole map is one grid and adjacency
across sheet edges is well defined.

Evidence for each scheme is in ``../shared/rules/*.md`` and in
``docs/grids.md``; the summary:

``bfn`` -- The Battle for Normandy (GMT 2013)
    ``A4218``: sheet letter A-G, then the row ``RR`` (grows south) and the
    column ``CC`` (grows *west*: the drop example of rule 17.2 moves A4118
    east to A4116).  Pointy-top hexes; even rows sit half a hex east (the
    drop example and the Gold landing queue 1829-1728-1628-1527 of rule 18.1).
``cobra`` -- Cobra (Decision Games)
    ``A2116``: sheet A (south) or B (north), then column ``CC`` (grows east)
    and row ``RR`` (grows south).  Flat-top hexes; even columns sit half a hex
    south (the Bayeux hexes B3620/A2601/A2701 of rule 17.3.6c are mutually
    adjacent only so).  B column = A column + 10 and B row 20 abuts A row 1
    (the AAB markers A2519/B3519 of rule 5.9 lie in one column).
``kg`` -- The Killing Ground with OVERLORD
    ``N3139``: sheet N, W or E, then row ``RR`` and column ``CC``.  On N rows
    grow south and columns east (rule 26.18.1); pointy-top; even rows half a
    hex east (the destroyed-bridge hexsides N3436/N3337 and N3847/N3948 are
    adjacent only so).  The W and E sheets number rows from their south edge:
    W row = 92 - N row, W col = N col - 3 (the four double references of
    scenario 22.7); E col = N col - 35 from Falaise (E3715, rule 26.23.3h).
``gts`` -- The Greatest Day: Utah Beach (MMP)
    ``30.027``: one global ``CC.RRR`` scheme; ``CC`` grows *west*, ``RRR``
    grows south.  Flat-top hexes; odd columns sit half a hex south (every
    drop zone of rule 3.2 is then a compact cluster, and the St-Martin
    battery 30.027 is 10 hexes from 20.025 as rule 4.4.7 says).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from normandy_lab.errors import RefusedError, UnknownNameError
from normandy_lab.grids.hexgrid import EVEN, ODD


class HexIdError(RefusedError):
    """A hex id that is malformed or lies off the maps of its system."""


@dataclass(frozen=True)
class Sheet:
    """One printed map sheet: its numbers and where they sit on the global lattice.

    Parameters
    ----------
    letter
        The sheet letter printed in ids ("" for a scheme without letters).
    rows, cols
        Inclusive ranges of the printed row and column numbers.
    row_sign, row_shift, col_sign, col_shift
        ``grow = row_sign * row + row_shift`` and
        ``gcol = col_sign * col + col_shift``.
    stacking
        Higher sheets lie on top where sheets overlap; the visible sheet
        gives a hex its canonical id.
    placement
        How the shifts were found: ``"reference"`` (the sheet that defines
        the lattice), ``"text"`` (numbers given by the rules), ``"fitted"``
        (searched to fit the control points) or ``"arranged"`` (placed by the
        sheet arrangement the rules describe, with no control point).
    note
        Where the extent and placement come from.
    """

    letter: str
    rows: tuple[int, int]
    cols: tuple[int, int]
    row_sign: int = 1
    row_shift: int = 0
    col_sign: int = 1
    col_shift: int = 0
    stacking: int = 0
    placement: str = "reference"
    note: str = ""
    # Cobra's map A: even columns have one row fewer (rule 10.4b: the south
    # edge is rows 33 and 34).  Maps the column parity (0 even, 1 odd) to the
    # last printed row of such columns.
    last_row_by_col_parity: dict[int, int] = field(default_factory=dict)

    def to_global(self, row: int, col: int) -> tuple[int, int]:
        """Return ``(gcol, grow)`` of a printed ``(row, col)``."""
        return self.col_sign * col + self.col_shift, self.row_sign * row + self.row_shift

    def from_global(self, gcol: int, grow: int) -> tuple[int, int]:
        """Return the printed ``(row, col)`` of a global ``(gcol, grow)``."""
        return (grow - self.row_shift) * self.row_sign, (gcol - self.col_shift) * self.col_sign

    def contains(self, row: int, col: int) -> bool:
        """Return True when the printed ``(row, col)`` exists on this sheet."""
        if not (self.rows[0] <= row <= self.rows[1] and self.cols[0] <= col <= self.cols[1]):
            return False
        last = self.last_row_by_col_parity.get(col % 2)
        return last is None or row <= last


@dataclass(frozen=True)
class Scheme:
    """A rule system's numbering scheme and lattice.

    Parameters
    ----------
    system
        Short key: ``"bfn"``, ``"cobra"``, ``"kg"`` or ``"gts"``.
    title
        The game's name.
    orientation
        ``"pointy"`` (straight rows) or ``"flat"`` (straight columns).
    offset
        :data:`~normandy_lab.grids.hexgrid.EVEN` or :data:`~normandy_lab.grids.hexgrid.ODD`:
        which global rows (pointy) or columns (flat) are shoved east/south.
    hex_size_m
        Nominal hex size across the flats, metres, as the rules state it.
    expected
        The id form, in words, for error messages.
    example
        A real id from the rulebook.
    sheets
        The sheets by letter.
    pattern
        The regular expression of a printed id, with the groups ``sheet`` (may match nothing), ``a`` and
        ``b`` (the two numbers, in print order).
    row_first
        Whether ``a`` is the row (else the column).
    id_format
        How an id is printed, as a :meth:`str.format` template over ``sheet``, ``row`` and ``col``
        (``"{col:02d}.{row:03d}"``); "" for the sheet letter then two two-digit numbers in the order
        ``row_first`` says.  Data, so that a map with its own printed form needs no code here.
    """

    system: str
    title: str
    orientation: str
    offset: int
    hex_size_m: float
    hex_size_source: str
    expected: str
    example: str
    sheets: dict[str, Sheet]
    pattern: re.Pattern[str]
    row_first: bool
    id_format: str = ""

    def parse(self, hex_id: str) -> tuple[str, int, int]:
        """Parse a printed id into ``(sheet, row, col)``.

        Raises
        ------
        HexIdError
            When the id is malformed or off the printed sheet.
        """
        if not isinstance(hex_id, str):
            raise HexIdError(
                f"{self.system}: a hex id must be a string like {self.example!r} "
                f"({self.expected}); got {hex_id!r} of type {type(hex_id).__name__}"
            )
        text = hex_id.strip().upper()
        match = self.pattern.fullmatch(text)
        if match is None:
            raise HexIdError(
                f"{self.system} ({self.title}): {hex_id!r} is not a hex id; "
                f"expected {self.expected}, e.g. {self.example!r}"
            )
        letter = match.group("sheet") or ""
        first, second = int(match.group("a")), int(match.group("b"))
        row, col = (first, second) if self.row_first else (second, first)
        sheet = self.sheets.get(letter)
        if sheet is None:
            raise HexIdError(
                f"{self.system} ({self.title}): {hex_id!r} names sheet {letter!r}, "
                f"which does not exist; sheets are {', '.join(sorted(self.sheets))}"
            )
        if not sheet.contains(row, col):
            raise HexIdError(
                f"{self.system} ({self.title}): {hex_id!r} is off the map: sheet "
                f"{letter or '(single)'} has rows {sheet.rows[0]:02d}-{sheet.rows[1]:02d} and "
                f"columns {sheet.cols[0]:02d}-{sheet.cols[1]:02d}"
            )
        return letter, row, col

    def format(self, letter: str, row: int, col: int) -> str:
        """Format ``(sheet, row, col)`` as the rulebook prints it."""
        if self.id_format:
            return self.id_format.format(sheet=letter, row=row, col=col)
        first, second = (row, col) if self.row_first else (col, row)
        return f"{letter}{first:02d}{second:02d}"

    def to_global(self, hex_id: str) -> tuple[int, int]:
        """Return the global ``(gcol, grow)`` of a printed id."""
        letter, row, col = self.parse(hex_id)
        return self.sheets[letter].to_global(row, col)

    def ids_at(self, gcol: int, grow: int) -> list[str]:
        """Return every printed id of a global hex, the visible (top) sheet first."""
        found = []
        for sheet in sorted(self.sheets.values(), key=lambda s: -s.stacking):
            row, col = sheet.from_global(gcol, grow)
            if sheet.contains(row, col):
                found.append(self.format(sheet.letter, row, col))
        return found


BFN_SHIFTS: dict[str, tuple[int, int]] = {"B": (34, 9), "C": (36, 61)}
"""(row_shift, col_shift) of BfN sheets B and C on sheet A's lattice."""

KG_E_COL_SHIFT = 35
"""Column shift of KG sheet E on the N lattice (E col = N col - 35)."""


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


SCHEMES: dict[str, Scheme] = {s.system: s for s in (_bfn(), _cobra(), _kg(), _gts())}
"""The registered numbering schemes by map key: the four shipped maps', then any a game registers."""

SYSTEMS: tuple[str, ...] = tuple(SCHEMES)
"""The keys of the maps the package ships, in order (a map a game registers later is in :data:`SCHEMES`)."""


def register_scheme(hex_scheme: Scheme) -> None:
    """Register the numbering scheme of a map under its key (``hex_scheme.system``).

    Registering the same scheme again is harmless (a game's module imported twice).

    Raises
    ------
    RefusedError
        For a different scheme under the key of another map already registered: a map key names one map.
    """
    held = SCHEMES.get(hex_scheme.system)
    if held is not None and held != hex_scheme:
        raise RefusedError(
            f"a different numbering scheme is registered under the map key {hex_scheme.system!r} "
            f"({held.title}); give the new map a key of its own, or share that map by its key"
        )
    SCHEMES[hex_scheme.system] = hex_scheme


def scheme(system: str) -> Scheme:
    """Return the numbering scheme of the map ``system``.

    Raises
    ------
    UnknownNameError
        With the list of registered maps, when ``system`` is unknown.
    """
    try:
        return SCHEMES[system]
    except KeyError:
        raise UnknownNameError(
            f"unknown map {system!r}; the registered maps are {', '.join(SCHEMES)} "
            "(a game on a map of its own registers it: normandy_lab.rules.register_game)"
        ) from None
