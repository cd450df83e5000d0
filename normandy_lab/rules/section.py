"""A game's file format (:class:`ScenarioFormat`), and one check per marker of its section.

The format is the third part of a game behind its handle (:class:`~normandy_lab.rules.game.Game`), beside
its rules and its look: the pydantic models its scenario files and its units are checked against, and its
own section of a scenario file with how each marker of it is read and checked.  The loader, the study
reader and the JSON Schema export reach it through the registry (:func:`normandy_lab.rules.scenario_format`),
never through the rules.

One check per marker of a game's section serves a scenario file, a study edit and an explorer control alike.
A game's own section of a scenario (Cobra's supply points and boundary, KG's Mulberries and Weapons Nests,
GTS's designation ...) becomes the state's markers.  Each marker is checked in three steps, whichever way
its value comes in:

1. its **type**: the field of the game's scenario schema (``ScenarioFormat.scenario_schema``), so the
   ranges and the names allowed are those exported to ``schemas/`` (:func:`typed`);
2. its **reading** (:attr:`Marker.read`): the value as the state keeps it, every hex canonical and on the
   game's map;
3. its **rules** (:attr:`Marker.check`): what the value may be on that state, its date, turn and other
   markers (a Cobra wrecked beach is a beach hex, 17.3.6f; GTS's three Supplied divisions, 17.3).

A scenario runs 1 through its whole-file schema, 2 in ``ScenarioFormat.scenario_markers``
(:func:`read_section`) and 3 once its state is built (:func:`check_section`), each problem raised as a
``ScenarioError`` at the file's line: ``file:line: field: what is wrong; how to fix it``.  A marker edit (a
study's or an explorer control's, ``RuleSet.set_marker``) runs all three with :func:`checked`, and a
problem is a ``RefusedError`` naming the marker.  What only an edit is subject to (the boundary moving one
column a turn, a Fortress once declared) stays in ``set_marker``: it is about changing a value, not about
the value.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from normandy_lab.errors import RefusedError

if TYPE_CHECKING:
    from normandy_lab.engine.state import GameState


class MarkerValueError(RefusedError):
    """What is wrong with a marker's value, where inside it (``loc``), and how to fix it."""

    def __init__(self, what: str, fix: str, loc: tuple[str | int, ...] = ()) -> None:
        super().__init__(f"{what}; {fix}")
        self.what, self.fix, self.loc = what, fix, tuple(loc)


def _as_given(value: Any, rules: Any) -> Any:
    return value


@dataclass(frozen=True)
class Marker:
    """One marker of a game's section: the scenario field of that name and what makes its value right.

    ``read(raw, rules)`` returns the value the state keeps for what a file or an edit gives (``raw`` is
    None when a file leaves the field out); ``check(state, value)`` refuses a value the state's rules do
    not allow.  Both raise :class:`MarkerValueError`.
    """

    name: str
    read: Callable[[Any, Any], Any] = _as_given
    check: Callable[[GameState, Any], None] | None = None
    rule: str = ""  # the rule numbers a refusal of an edit cites


def _core_scenario_schema() -> Any:
    from normandy_lab.schemas.scenario import ScenarioSchema

    return ScenarioSchema


def _core_unit_schema() -> Any:
    from normandy_lab.schemas.scenario import UnitSchema

    return UnitSchema


def _no_section() -> tuple[Marker, ...]:
    return ()


@dataclass(frozen=True)
class ScenarioFormat:
    """A game's scenario file format: its schemas and its own section, what a file of the game may say.

    What the rules then make of a unit or a marker is the rules' (``RuleSet.unit_problem`` and
    ``units_problem``: steps per size, stacking, a division's HQ, which hold for a unit an edit adds as much
    as for one a file lists; ``RuleSet.set_marker``: what an edit may change).  Each part is a function, so
    that the pydantic models load with the first file read, not with the game.

    Parameters
    ----------
    scenario_schema
        Returns the pydantic model a scenario of the game is checked against (the core's by default); its
        JSON Schema is exported to ``schemas/`` (``Game.kind``).
    unit_schema
        Returns the pydantic model of one unit of the game (a scenario's, or one an ``add_unit`` edit adds).
    section
        Returns the markers of the game's section (:class:`Marker`: each read and checked as below); none by
        default.
    read
        ``read(rules, data, path, grid)``: the game's own reading of its section into the state's markers,
        for a game that reads it otherwise than marker by marker (BfN's beachheads and air points); None:
        every marker of :attr:`section` by its own reading (:func:`read_section`).
    late_markers
        Markers added after studies of the game were saved (a study file's compatibility, not a rule): a
        state's fingerprint leaves each out while it stands at its default, so that those studies still
        open (:func:`normandy_lab.engine.study.canonical`).
    """

    scenario_schema: Callable[[], Any] = _core_scenario_schema
    unit_schema: Callable[[], Any] = _core_unit_schema
    section: Callable[[], tuple[Marker, ...]] = field(default=_no_section)
    read: Callable[[Any, Any, str, Any], dict[str, Any]] | None = None
    late_markers: frozenset[str] = frozenset()

    def scenario_markers(self, rules: Any, data: Any, path: str, grid: Any) -> dict[str, Any]:
        """Read the game's section of a scenario file into the state's markers (after the file's schema).

        ``data`` is the line-aware mapping of the file; a problem is raised as
        :class:`~normandy_lab.engine.scenario.ScenarioError` at its line.
        """
        if self.read is not None:
            return self.read(rules, data, path, grid)
        return read_section(rules, data, path)


def format_of(rules: Any) -> ScenarioFormat:
    """Return the scenario format of the game ``rules`` plays (:func:`normandy_lab.rules.scenario_format`)."""
    from normandy_lab.rules import scenario_format

    return scenario_format(rules)


# -- the three steps ------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _field_model(schema: Any, name: str) -> Any:
    """Return a model of ``{name: value}`` with the scenario schema's field of that name (its constraints)."""
    from pydantic import ConfigDict, create_model

    field = schema.model_fields[name]
    return create_model(
        f"Marker_{name}",
        __config__=ConfigDict(extra="forbid", strict=True),
        **{name: (field.annotation, field)},
    )


def _plain(value: Any) -> Any:
    """Return ``value`` with tuples as lists, as a file or a study's JSON would give it."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def typed(rules: Any, name: str, value: Any, said: str) -> None:
    """Check ``value`` against the scenario schema's field ``name``; a refusal names the marker ``said``."""
    from normandy_lab.schemas.validation import validate

    validate(
        _field_model(format_of(rules).scenario_schema(), name),
        {name: _plain(value)},
        f"marker {said!r}",
        RefusedError,
    )


def checked(state: GameState, name: str, value: Any, said: str | None = None) -> Any:
    """Return the marker value an edit setting ``name`` to ``value`` leaves on ``state``, or refuse it.

    The type (the scenario schema's), the reading and the rules of the marker, as a scenario's are checked;
    ``said`` is the name the edit used (``mulberry_A`` for ``mulberry``), for the message.
    """
    said = said or name
    marker = section_of(state.rules)[name]
    cite = f" ({marker.rule})" if marker.rule else ""
    try:
        typed(state.rules, name, value, said)
    except RefusedError as refused:
        raise RefusedError(f"{refused}{cite}") from None
    try:
        value = marker.read(_plain(value), state.rules)
        if marker.check is not None:
            marker.check(state, value)
    except MarkerValueError as problem:
        field = _field((name, *problem.loc), {name: _plain(value)})
        raise RefusedError(f"marker {said!r}: {field}: {problem.what}; {problem.fix}{cite}") from None
    return value


def section_of(rules: Any) -> dict[str, Marker]:
    """Return the section of the game a rule system plays, by marker name (``ScenarioFormat.section``)."""
    return {m.name: m for m in format_of(rules).section()}


def read_section(rules: Any, data: Any, path: str) -> dict[str, Any]:
    """Read every marker of a game's section from a scenario file (its schema passed): step 2 above."""
    out = {}
    for marker in format_of(rules).section():
        try:
            out[marker.name] = marker.read(data.get(marker.name), rules)
        except MarkerValueError as problem:
            raise _at(path, data, marker.name, problem) from None
    return out


def check_section(state: GameState, data: Any, path: str) -> None:
    """Check the markers a scenario file gives against the state it loads into: step 3 above."""
    for marker in format_of(state.rules).section():
        if marker.check is not None and data.get(marker.name) is not None:
            try:
                marker.check(state, state.markers[marker.name])
            except MarkerValueError as problem:
                raise _at(path, data, marker.name, problem) from None


def _field(loc: tuple, data: Any) -> str:
    """Name a place inside a field as a file writes it: ``weapons_nests[3].hex``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _at(path: str, data: Any, name: str, problem: MarkerValueError) -> Exception:
    """Return the ScenarioError of a problem in the field ``name``: at its line, naming the place in it."""
    from normandy_lab.engine.scenario import ScenarioError
    from normandy_lab.rules.api import line_of

    loc = (name, *problem.loc)
    line = line_of(data, loc)
    where = f"{path}:{line}" if line else path
    return ScenarioError(f"{where}: {_field(loc, data)}: {problem.what}; {problem.fix}")


# -- readings and checks several games share ------------------------------------------------------------


def hex_on_map(rules: Any, value: Any, loc: tuple[str | int, ...] = ()) -> str:
    """Return a hex id canonical on the game's map, or a problem naming what the map allows."""
    from normandy_lab.grids import grid
    from normandy_lab.grids.numbering import HexIdError

    try:
        return grid(rules.system).canonical(value)
    except HexIdError as exc:
        raise MarkerValueError(str(exc), "correct the hex id", loc) from None


def hexes_on_map(rules: Any, values: Any, unique: bool = True) -> tuple[str, ...]:
    """Return hex ids canonical on the game's map, each once (a repeat is refused: it says nothing more)."""
    out: list[str] = []
    for n, value in enumerate(values or ()):
        hex_id = hex_on_map(rules, value, (n,))
        if unique and hex_id in out:
            raise MarkerValueError(f"{hex_id} is listed twice", "give each hex once", (n,))
        out.append(hex_id)
    return tuple(out)
