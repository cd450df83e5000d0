"""What runs where the work is done: one variant's situation, its supply, and its rows of the tidy table.

Nothing here knows about Dask: :func:`run_chunk` takes the base situations (shipped to each worker once)
and a few variants, and returns plain rows, so that the same code runs on a cluster and in this process.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from pydantic import TypeAdapter

from normandy_lab.engine.state import GameState
from normandy_lab.errors import RefusedError, UnknownNameError
from normandy_lab.sweeps.variants import Variant

COLUMNS = (
    "variant", "base", "system", "date", "turn", "weather", "side", "formation", "unit", "in_supply", "code",
    "rule", "length",
)  # fmt: skip


def situation(bases: Mapping[str, GameState], variant: Variant) -> GameState:
    """Return the state a variant describes: its base, weather, readings, cuts and edits applied.

    Raises
    ------
    RefusedError
        A malformed variant (:attr:`Variant.problem`), or options its game does not have or values of the
        wrong kind: the checker of a scenario file's ``options``, so that a sweep cannot run a reading
        that does not exist (``what_if_interdiction: blok`` is refused, not taken as the default); a
        weather that is not the game's (with the nearest), a cut that is not a hex of its map or a bridge
        on it, an edit its rules refuse: each message begins with the variant and the field
        (``variant 'x': cuts[1]: ...``), never a bare ``KeyError``.
    UnknownNameError
        A base that is not among the sweep's.
    """
    from normandy_lab.engine.edits import apply_edit
    from normandy_lab.errors import NormandyLabError
    from normandy_lab.interdiction.candidates import Target
    from normandy_lab.sweeps.variants import field_problems

    problem = variant.problem or "; ".join(field_problems(variant.weather, variant.cuts, variant.edits))
    if problem:  # a Variant made directly is checked as its mapping form is
        raise RefusedError(f"variant {variant.name!r}: {problem}")
    if variant.base not in bases:
        known = ", ".join(repr(b) for b in bases)
        raise UnknownNameError(f"variant {variant.name!r}: no base {variant.base!r} (bases: {known})")
    state = bases[variant.base]
    if variant.weather:
        state = state.evolve(weather=_weather(state, variant))
    if variant.options:
        given = checked_options(state.rules, dict(variant.options), f"variant {variant.name!r}: options")
        state = state.evolve(options={**state.options, **given})
    for n, key in enumerate(variant.cuts):
        try:
            state = Target("bridge" if "|" in key else "hex", key.strip()).cut(state)
        except NormandyLabError as exc:  # a hex off the map, a hexside without a bridge: named as the cut
            raise RefusedError(f"variant {variant.name!r}: cuts[{n}]: {exc}") from None
    for n, edit in enumerate(variant.edits):
        try:
            state = apply_edit(state, dict(edit))
        except NormandyLabError as exc:
            raise RefusedError(f"variant {variant.name!r}: edits[{n}]: {exc}") from None
    return state


def _weather(state: GameState, variant: Variant) -> str:
    """Return a variant's weather, refusing one that is not its game's, with the nearest names."""
    import difflib

    weathers = list(state.rules.weather_effects)
    given = str(variant.weather)
    if given in weathers:
        return given
    by_case = {w.casefold(): w for w in weathers}
    close = [by_case[given.casefold()]] if given.casefold() in by_case else []
    close = close or difflib.get_close_matches(given, weathers, n=2)
    hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
    title = state.rules.title or state.system
    raise RefusedError(
        f"variant {variant.name!r}: weather: {given!r} is not a weather of {title}; {hint}"
        f"give one of {', '.join(repr(w) for w in weathers)}"
    )


@lru_cache(maxsize=16)
def _options_schema(rules: Any) -> TypeAdapter:
    """Return the type a scenario file's ``options`` has in this game's schema (``KgOptionsSchema``, ...)."""
    from normandy_lab.rules import scenario_format  # the game's file format (its handle's), by its rules

    annotation = scenario_format(rules).scenario_schema().model_fields["options"].annotation
    return TypeAdapter(annotation)


def checked_options(rules: Any, given: dict[str, Any], where: str) -> dict[str, Any]:
    """Return the options a variant sets, checked as a scenario file's are; refuse any other.

    ``where`` begins the message (``variant 'x': options``); the message then names the option, the value
    and what the game allows, with the nearest option's name for a misspelt one.
    """
    from normandy_lab.schemas.validation import validate

    validate(_options_schema(rules), given, where, RefusedError)
    from normandy_lab.engine.scenario import option_value

    out = {}
    for key, value in given.items():  # what a type cannot say, checked as a scenario file's options are
        out[key], problem = option_value(rules, key, value)
        if problem:
            raise RefusedError(f"{where}: {key}: {problem[0]}; {problem[1]}")
    return out


def error_rows(variant: Variant, exc: BaseException) -> dict[str, list[Any]]:
    """Return the one row that says why a variant failed (code ``error``, the exception in ``rule``)."""
    got: dict[str, list[Any]] = {c: [""] for c in COLUMNS}
    got |= {"variant": [variant.name], "base": [variant.base], "code": ["error"]}
    got |= {"rule": [f"{type(exc).__name__}: {exc}"], "in_supply": [False], "length": [math.nan]}
    return got


#: The code of the one row a variant has when the sweep did not run it (the cluster lost it, or the sweep
#: was stopped first); ``rule`` says why.  Unlike ``error`` (the variant itself is at fault), sweeping it
#: again may well succeed.
NOT_RUN = "not_run"

#: Why a variant was not run when the sweep was interrupted.
INTERRUPTED = "not run: the sweep was interrupted"


def not_run_rows(variant: Variant, why: str) -> dict[str, list[Any]]:
    """Return the one row listing a variant the sweep did not run (code :data:`NOT_RUN`, why in ``rule``)."""
    got = error_rows(variant, RuntimeError(why))
    got |= {"code": [NOT_RUN], "rule": [why]}
    return got


def rows_of(variant: Variant, state: GameState, reasons: bool = True) -> dict[str, list[Any]]:
    """Return the tidy rows of one variant, by column: one a unit, with its verdict, reason code and length.

    ``reasons=False`` leaves the code, rule and length of a unit out of supply empty (working them out is
    most of a determination's cost in some games).  Columns, not a mapping a row: a sweep makes hundreds of
    thousands of rows, and the table is built from columns at the end.
    """
    from normandy_lab.engine.supply import supply

    report = supply(state)
    formation = {u.id: u.formation or "" for u in state.units}
    rows = list(report.units.values())
    n = len(rows)
    out: dict[str, list[Any]] = {
        "variant": [variant.name] * n, "base": [variant.base] * n, "system": [state.system] * n,
        "date": [state.date.isoformat()] * n, "turn": [state.turn] * n, "weather": [state.weather] * n,
        "side": [r.side for r in rows], "formation": [formation[r.unit_id] for r in rows],
        "unit": [r.unit_id for r in rows], "in_supply": [bool(r.general) for r in rows],
        "code": [], "rule": [], "length": [],
    }  # fmt: skip
    for r in rows:
        if r.general or reasons:
            length = r.length_mp if math.isfinite(r.length_mp) else r.length_hexes
            out["code"].append(r.code)
            out["rule"].append(r.rule)
            out["length"].append(float(length) if math.isfinite(length) else math.nan)
        else:
            out["code"].append("")
            out["rule"].append("")
            out["length"].append(math.nan)
    return out


def run_chunk(
    bases: Mapping[str, GameState], chunk: Sequence[Variant], reasons: bool = True
) -> dict[str, list[Any]]:
    """Evaluate some variants against the base situations and return their rows, by column.

    A variant that fails gives one row saying why (code ``error``), so that one bad variant does not lose
    a sweep.
    """
    out: dict[str, list[Any]] = {c: [] for c in COLUMNS}
    for variant in chunk:
        try:
            got = rows_of(variant, situation(bases, variant), reasons)
        except Exception as exc:
            got = error_rows(variant, exc)
        for column, values in got.items():
            out[column] += values
    return out
