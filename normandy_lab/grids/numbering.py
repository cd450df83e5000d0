"""The printed hex numbering of a map, and the table of maps' schemes by map key (mechanism only).

Each map prints hex ids its own way.  A :class:`Scheme` parses and formats those ids exactly as a
rulebook prints them and maps them to one *global offset lattice* per map, in which the sheets of a
multi-sheet map are windows.  The schemes themselves are data in each game's package
(``normandy_lab/rules/<game>/map.py``, the toy's ``tests/toy_game/map.py``): this module names no game.

The global lattice uses screen conventions: ``gcol`` grows to the east and
``grow`` to the south.  Every sheet maps its printed numbers onto it by a
sign and a shift per axis, so that the whole map is one grid and adjacency
across sheet edges is well defined.

How a map's scheme gets here: :func:`register_scheme`, which the registry
(:func:`normandy_lab.rules.register_game`) calls.  A game the package ships is registered without importing
its package, so the registry tells this module which maps it can bring (:func:`add_map_source`), and the
first look-up of such a map (``scheme("kg")``, ``SCHEMES["kg"]``, iterating :data:`SCHEMES`) has the
registry load and register it.  If nothing has imported the registry yet, the first look-up imports it
(a declared edge of the import contract): the core never imports a game, and reaches one only through the
registry.
"""

from __future__ import annotations

import re
from collections.abc import Callable, ItemsView, Iterable, Iterator, KeysView, ValuesView
from dataclasses import dataclass, field
from typing import Any, TypeVar

from normandy_lab.errors import RefusedError, UnknownNameError


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


V = TypeVar("V")

# (the map keys a source can bring, how it registers one): the registry adds itself as it is imported.
_SOURCES: list[tuple[Callable[[], Iterable[str]], Callable[[str], None]]] = []
# Maps being loaded now: a look-up of one of them while its game's package imports finds nothing (no loop).
_LOADING: set[str] = set()


def add_map_source(keys: Callable[[], Iterable[str]], load: Callable[[str], None]) -> None:
    """Add a source of maps: ``keys()`` names the maps it can bring, ``load(key)`` registers one.

    The registry (``normandy_lab.rules``) adds itself so, which lets a game's map stay in the game's
    package until first asked for.
    """
    _SOURCES.append((keys, load))


def _sources() -> list[tuple[Callable[[], Iterable[str]], Callable[[str], None]]]:
    if not _SOURCES:
        # The registry adds itself as it is imported.  The grids sit below the rules, and this is their one
        # way up: to the registry, never to a game (the core -> registry edge of the plug-in cycle).  A
        # plain import, not one by name, so that import-linter and grimp see the edge: .importlinter
        # declares it, and docs/architecture.md ("The registry and the one cycle") says why.
        import normandy_lab.rules  # noqa: F401  (imported for its registrations)
    return _SOURCES


def map_keys() -> list[str]:
    """Return the keys of every map a source can bring (in its order), then of any other registered map."""
    found: list[str] = []
    for keys, _ in _sources():
        found += [key for key in keys() if key not in found]
    return found + [key for key in dict.keys(SCHEMES) if key not in found]


def load_map(key: str) -> bool:
    """Have a source register the map ``key``; return whether one could (False for an unknown key)."""
    if key in _LOADING:
        return False
    for keys, load in _sources():
        if key in keys():
            _LOADING.add(key)
            try:
                load(key)
            finally:
                _LOADING.discard(key)
            return True
    return False


class MapTable(dict[str, V]):
    """A table by map key that a map's first look-up fills, by asking the sources of maps.

    Reading a key (``[]``, ``in``, ``get``) loads that map; iterating, ``len`` and the views load every
    map a source knows, so a listing shows the maps a user can name even before any game is loaded.
    """

    def __missing__(self, key: str) -> V:
        if load_map(key) and dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        raise UnknownNameError(key)  # a KeyError, as a mapping's missing key must be

    def __contains__(self, key: object) -> bool:
        if dict.__contains__(self, key):
            return True
        return isinstance(key, str) and load_map(key) and dict.__contains__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        """Return the entry of ``key`` (loading its map), or ``default``."""
        try:
            return self[key]
        except KeyError:
            return default

    def _fill(self) -> None:
        for key in map_keys():
            if not dict.__contains__(self, key):
                load_map(key)

    def __iter__(self) -> Iterator[str]:
        self._fill()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._fill()
        return dict.__len__(self)

    def keys(self) -> KeysView[str]:  # type: ignore[override]
        """Return the map keys, every known map loaded."""
        self._fill()
        return dict.keys(self)

    def values(self) -> ValuesView[V]:  # type: ignore[override]
        """Return the entries, every known map loaded."""
        self._fill()
        return dict.values(self)

    def items(self) -> ItemsView[str, V]:  # type: ignore[override]
        """Return ``(key, entry)`` pairs, every known map loaded."""
        self._fill()
        return dict.items(self)


SCHEMES: MapTable[Scheme] = MapTable()
"""The numbering schemes by map key: those registered, and any map a game can bring, loaded when asked."""


def __getattr__(name: str) -> Any:
    # The name that listed the shipped maps before they moved to the games' packages (issue 32); the sheet
    # shifts of BfN and KG are their maps' own now (rules/bfn/map.py BFN_SHIFTS, rules/kg/map.py
    # KG_E_COL_SHIFT), imported from there.
    if name == "SYSTEMS":
        return tuple(map_keys())
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def register_scheme(hex_scheme: Scheme) -> None:
    """Register the numbering scheme of a map under its key (``hex_scheme.system``).

    Registering the same scheme again is harmless (a game's module imported twice).

    Raises
    ------
    RefusedError
        For a different scheme under the key of another map already registered: a map key names one map.
    """
    held = dict.get(SCHEMES, hex_scheme.system)  # (not a look-up: that would load the map)
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
            f"unknown map {system!r}; the registered maps are {', '.join(map_keys())} "
            "(a game on a map of its own registers it: normandy_lab.rules.register_game)"
        ) from None
