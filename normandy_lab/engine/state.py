"""The immutable game state.

A :class:`GameState` is a frozen snapshot: units, hex control overrides,
markers (destroyed bridges, interdicted hexes), weather, air allocation,
date, turn and phase, and the seed and number of dice drawn so far.
Everything that changes returns a new state (:func:`dataclasses.replace`);
a history is simply a list of states, so stepping back and branching a
what-if cost nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, overload

import numpy as np

from normandy_lab.errors import RefusedError, UnknownNameError
from normandy_lab.words import EXPECTED_WHY, UNIT_ID_PATTERN  # noqa: F401 - both still importable from here

SIDES = ("allied", "german")


def other_side(side: str) -> str:
    """Return the enemy of ``side``."""
    return "german" if side == "allied" else "allied"


@dataclass(frozen=True)
class Unit:
    """A unit on the map.

    Attributes
    ----------
    id
        Unique id.
    side, nationality
        ``allied``/``german``; ``US``, ``UK``, ``CA``, ``FR``, ``PL``, ``DE``.
    type, mechanized, size
        Unit type (see the RuleSet's ``unit_types``), whether it moves and
        traces as mechanized, and its size (``battalion``, ``division_hq``...).
    formation
        Its division or independent brigade (None for corps troops).
    corps
        Its corps.
    hq
        ``"division"``, ``"corps"`` or ``"kg"`` for HQs, else None.
    hex
        Canonical hex id.
    steps
        Remaining steps.
    ma
        Movement allowance (None: the RuleSet's default for its type).
    cut_off
        The historical record says the unit was cut off behind the enemy's
        line on the scenario's date (e.g. an airborne pocket): comparisons
        with the historical front expect it on the wrong side.
    breakdown
        A breakdown company (BfN 15.0): a company split off a battalion of
        its division, which the rule system may trace as a corps unit.
    attrs
        The game's own fields of the unit (its unit schema's fields beyond these: Cobra's ``within``,
        The Killing Ground's ``zoc`` class and marks), as sorted (name, value) pairs; read them with
        :meth:`attr`.
    box
        The off-map box the unit stands in (a place its rule system declares in ``RuleSet.boxes``, such
        as The Killing Ground's off-map movement areas), or None on the map.  A unit in a box is
        ``off_map``; its ``hex`` is the box's first entry hex, where it would come onto the map.
    """

    id: str
    name: str
    side: str
    nationality: str
    type: str
    mechanized: bool
    size: str
    formation: str | None
    corps: str | None
    hq: str | None
    hex: str
    steps: int
    ma: int | None = None
    attack: int | None = None
    defense: int | None = None
    status: str = "active"
    note: str = ""
    source: str = ""
    cut_off: bool = False
    breakdown: bool = False
    # Left out of a fingerprint while None, so that the studies saved before boxes existed still open.
    box: str | None = field(default=None, metadata={"canonical": "omit_if_none"})
    # Left out of a fingerprint while empty, for the same reason.
    attrs: tuple[tuple[str, Any], ...] = field(default=(), metadata={"canonical": "omit_if_empty"})

    def attr(self, name: str, default: Any = None) -> Any:
        """Return one of the game's own fields of the unit (``default`` when the scenario gave none)."""
        for key, value in self.attrs:
            if key == name:
                return value
        return default


class EditLog(Sequence[str]):
    """The log of what changed a state, shared with the states before it.

    Each state keeps one new entry and a link to the log it extends, so a
    history of N edits holds N entries, not N logs of up to N entries each
    (a tuple copied into every state grew as N squared).  It reads like a
    tuple of strings; ``log.then("entry")`` makes the next one.
    """

    __slots__ = ("_cache", "_entry", "_length", "_parent")

    def __init__(self, entries: Sequence[str] = ()) -> None:
        self._parent: EditLog | None = None
        self._entry: str | None = None
        self._length = 0
        self._cache: tuple[str, ...] | None = None
        if entries:  # become the last link of a chain holding the entries
            last = EditLog() + tuple(entries)
            self._parent, self._entry, self._length = last._parent, last._entry, last._length

    def __add__(self, more: Sequence[str]) -> EditLog:
        log = self
        for entry in more:
            log = log.then(entry)
        return log

    def then(self, entry: str) -> EditLog:
        """Return this log with one more entry (the states before keep theirs)."""
        node = EditLog.__new__(EditLog)
        node._parent, node._entry, node._length, node._cache = self, str(entry), self._length + 1, None
        return node

    def as_tuple(self) -> tuple[str, ...]:
        """Return the entries, oldest first."""
        if self._cache is None:
            entries, node = [], self
            while node is not None and node._length:
                entries.append(node._entry)
                node = node._parent
            self._cache = tuple(reversed(entries))
        return self._cache

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...
    def __getitem__(self, index):
        if isinstance(index, int) and index in (-1, self._length - 1) and self._length:
            return self._entry  # the newest entry, without walking the chain
        return self.as_tuple()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self.as_tuple())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EditLog | tuple | list):
            return len(self) == len(other) and self.as_tuple() == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.as_tuple())

    def __repr__(self) -> str:
        return f"EditLog({list(self.as_tuple())!r})"


UNIT_ID_RULE = "letters, digits and . _ : + - only, starting with a letter or digit, at most 64 characters"


def check_unit_id(unit_id: object) -> str | None:
    """Return what is wrong with a unit id, or None when it is acceptable (:data:`UNIT_ID_PATTERN`)."""
    if not isinstance(unit_id, str):
        return f"{unit_id!r} is not text"
    if not UNIT_ID_PATTERN.fullmatch(unit_id):
        return f"{unit_id!r} is not a valid unit id ({UNIT_ID_RULE})"
    return None



@dataclass(frozen=True)
class ExpectedOut:
    """A unit a scenario expects out of General Supply, and why (the scenario's ``expected_out_of_supply``).

    Attributes
    ----------
    unit_id
        The unit.
    why
        ``"history"``: it really was cut off or out of reach on that date;
        ``"rules"``: it was supplied in 1944, but the rules' ranges leave it
        out (a rear garrison, a formation spread wider than one HQ reaches);
        ``"setup"``: an artefact the scenario's estimated positions still
        cause, said plainly; ``"map"``: a gap in the 1944 map (a road or
        crossing the side used that the map lacks).
    reason
        In words, for people.
    source
        Where the historical claim comes from ("" for a rules reason).
    date, turn
        The later turn the verdict is expected on, when the entry names one (a game whose Allied lines
        are traced from Turn 3, KG 26.11.1, expects its verdicts there); unset: the scenario's own turn.
    """

    unit_id: str
    why: str
    reason: str
    source: str = ""
    # Left out of a fingerprint while unset (an entry for the scenario's own turn), so that the studies
    # saved before an entry could name a later turn still open.
    date: dt.date | None = field(default=None, metadata={"canonical": "omit_if_none"})
    turn: str = field(default="", metadata={"canonical": "omit_if_empty"})


def _freeze(mapping: dict[str, Any] | None) -> MappingProxyType:
    return MappingProxyType(dict(mapping or {}))


class UnknownMarkerError(UnknownNameError, TypeError):
    """A state given a field it does not have nor its rules a marker of that name (``evolve(bogus=1)``).

    Also a ``TypeError``, as Python's own answer to an unexpected keyword is, and as it was before it was in
    the project's tree.
    """


@dataclass(frozen=True)
class GameState:
    """A snapshot of the game.  Immutable: use :meth:`evolve` to change it."""

    system: str
    scenario: str
    date: dt.date
    turn: str
    phase_index: int
    weather: str
    #: In the scenario file's order; a fingerprint takes them by id, since no rule depends on the order
    #: (tested: a scenario with its units in another order gives the same supply report).
    units: tuple[Unit, ...] = field(metadata={"canonical": "unordered"})
    destroyed_bridges: frozenset[str] = frozenset()
    interdicted_hexes: frozenset[str] = frozenset()
    #: The map sheets in play (empty: every sheet of the game); their outer edges are "the map edge".
    maps: frozenset[str] = field(default=frozenset(), metadata={"canonical": "omit_if_empty"})
    control: MappingProxyType = field(default_factory=lambda: _freeze({}))
    #: What the rule system keeps beside the units (for BfN its sources, supply points, air points per map:
    #: :mod:`normandy_lab.rules.bfn.scenario`), read as attributes (``state.seed`` style) and changed with
    #: :meth:`evolve` (``state.evolve(name=value)``).  The rule system gives the defaults
    #: (``RuleSet.markers``); in a fingerprint they stand beside the other fields, as before they moved here.
    markers: MappingProxyType = field(default_factory=lambda: _freeze({}), metadata={"canonical": "flatten"})
    seed: int = 0
    draws: int = 0
    #: The units the scenario expects out of General Supply on its date, with why.
    expected_out: tuple[ExpectedOut, ...] = field(default=(), metadata={"canonical": "unordered"})
    options: MappingProxyType = field(default_factory=lambda: _freeze({}))
    log: EditLog = field(default_factory=EditLog)
    #: A rule system given in code for this state (:meth:`with_rules`), or the key of a game registered on
    #: this map under a key of its own (its scenario's ``system:``); None: the registry's for ``system``.
    #: Left out of a state's fingerprint while None, so that the studies saved before it existed still open.
    variant: Any = field(default=None, repr=False, metadata={"canonical": "omit_if_none"})
    #: The date and turn the scenario opens on (what an expected verdict without a turn is for).  Left out of
    #: a fingerprint: the scenario's name already stands for it.
    opening: tuple[dt.date, str] | None = field(default=None, repr=False, metadata={"canonical": "omit"})

    def __post_init__(self) -> None:
        # Canonical order: results never depend on the order units were listed in.
        object.__setattr__(self, "units", tuple(sorted(self.units, key=lambda u: u.id)))
        for name in ("control", "options"):
            value = getattr(self, name)
            if not isinstance(value, MappingProxyType):
                object.__setattr__(self, name, _freeze(value))
        # Every marker the rule system keeps, its default where none is given; a mapping is frozen.
        markers = {**self.rules.markers, **self.markers}
        unknown = sorted(set(markers) - set(self.rules.markers))
        if unknown:
            import difflib

            names = [*self.__dataclass_fields__, *self.rules.markers]
            close = difflib.get_close_matches(unknown[0], names, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            said = f"{', '.join(unknown)}: not a field of a state nor a marker of the {self.system!r} rules"
            raise UnknownMarkerError(said + hint)
        frozen = {k: _freeze(v) if isinstance(v, dict) else v for k, v in markers.items()}
        object.__setattr__(self, "markers", MappingProxyType(frozen))
        if not isinstance(self.log, EditLog):
            object.__setattr__(self, "log", EditLog(self.log))

    def __getattr__(self, name: str) -> Any:
        # Only for names that are not fields: the rule system's markers.
        markers = self.__dict__.get("markers")
        if markers is not None and name in markers:
            return markers[name]
        raise AttributeError(f"{type(self).__name__!s} has no field or marker {name!r}")

    def __repr__(self) -> str:
        # The dataclass repr lists every unit (150 kB): a state says what it is in one line.
        return (
            f"GameState({self.system!r}, {self.scenario!r}, {self.label!r}, weather={self.weather!r}, "
            f"units={len(self.units)}, edits={len(self.log)})"
        )

    def evolve(self, **changes: Any) -> GameState:
        """Return a copy with ``changes`` applied: fields, or markers of the rule system."""
        fields_of = self.__dataclass_fields__
        markers = {k: changes.pop(k) for k in list(changes) if k not in fields_of}
        if markers:
            changes["markers"] = {**changes.get("markers", self.markers), **markers}
        return replace(self, **changes)

    def unit(self, unit_id: str) -> Unit:
        """Return a unit by id; ``KeyError`` naming close ids when unknown."""
        for u in self.units:
            if u.id == unit_id:
                return u
        import difflib

        close = difflib.get_close_matches(unit_id, [u.id for u in self.units], n=3)
        raise UnknownNameError(
            f"no unit {unit_id!r}" + (f"; did you mean {', '.join(close)}?" if close else "")
        )

    def units_of(self, side: str) -> tuple[Unit, ...]:
        """Return the active units of ``side``."""
        return tuple(u for u in self.units if u.side == side and u.status == "active")

    def expected_now(self) -> tuple[ExpectedOut, ...]:
        """Return the expected verdicts of the scenario that are for this state's date and turn."""
        now = (self.date, self.turn)
        return tuple(e for e in self.expected_out if ((e.date, e.turn) if e.date else self.opening) == now)

    def stacks(self) -> dict[str, list[Unit]]:
        """Return the active units by hex (both sides), in the state's order."""
        by_hex: dict[str, list[Unit]] = {}
        for u in self.units:
            if u.status == "active":
                by_hex.setdefault(u.hex, []).append(u)
        return by_hex

    def rng(self) -> np.random.Generator:
        """Return the seeded generator positioned after the draws made so far.

        Every random draw of the engine goes through this generator and
        then records how many numbers it used (:meth:`after_draws`), so a
        state replays identically.
        """
        generator = np.random.default_rng(self.seed)
        if self.draws:
            generator.integers(0, 10, size=self.draws)
        return generator

    def after_draws(self, count: int) -> GameState:
        """Return a copy that records ``count`` more random draws."""
        return self.evolve(draws=self.draws + count)

    @property
    def rules(self) -> Any:  # -> RuleSet
        """The rule system this state is played under: its own variant, or the registered one of its game."""
        # In the function: the registry imports the games, and each game imports this module (the plug-in
        # cycle core -> registry -> game -> core that .importlinter allows; the state names no game).
        from normandy_lab.rules import get

        if isinstance(self.variant, str):  # a game registered on this map under a key of its own
            return get(self.variant)
        if self.variant is not None:
            return self.variant

        return get(self.system)

    @property
    def game(self) -> str:
        """The key of the game this state is played in: ``system``, or a game's sharing that map."""
        return self.variant if isinstance(self.variant, str) else self.system

    def with_rules(self, rules: Any) -> GameState:
        """Return this state played under another rule system of the same game (a variant made in code).

        Every determination (supply, zones of control, movement, the sequence of
        play) then reads ``rules``: ``state.with_rules(dataclasses.replace(state.rules,
        supply={**state.rules.supply, "unit_range_hexes": 8}, variant="8-hex range"))``.
        """
        from normandy_lab.rules import get  # the registry, in the function as in `rules` above

        rules = get(rules)
        if rules.system != self.system:
            raise RefusedError(
                f"the rules of {rules.system!r} cannot play a state on the {self.system!r} maps; "
                "make the variant from this game's rules (dataclasses.replace(state.rules, ...))"
            )
        return self.evolve(variant=None if rules is get(self.system) else rules)

    @property
    def phasing_side(self) -> str:
        """The side whose phase it is ("allied" or "german"), or "" for a phase both sides share."""
        return self.rules.sequence[self.turn][self.phase_index].side or ""

    @property
    def label(self) -> str:
        """A readable label: date, turn and phase."""
        phases = self.rules.sequence[self.turn]
        phase = phases[self.phase_index]
        side = f" ({phase.side})" if phase.side else ""
        return f"{self.date:%d %B %Y}, {self.turn} — {phase.name}{side}"
