"""What runs where the work is done: one variant's situation, its supply, and its rows of the tidy table.

Nothing here knows about Dask: :func:`run_chunk` takes the base situations (shipped to each worker once)
and a few variants, and returns plain rows, so that the same code runs on a cluster and in this process.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from normandy_lab.engine.state import GameState
from normandy_lab.sweeps.variants import Variant

COLUMNS = (
    "variant", "base", "system", "date", "turn", "weather", "side", "formation", "unit", "in_supply", "code",
    "rule", "length",
)  # fmt: skip


def situation(bases: Mapping[str, GameState], variant: Variant) -> GameState:
    """Return the state a variant describes: its base, weather, readings, cuts and edits applied."""
    from normandy_lab.engine.edits import apply_edit
    from normandy_lab.interdiction.candidates import Target

    if variant.base not in bases:
        raise KeyError(f"variant {variant.name!r}: no base {variant.base!r} (bases: {', '.join(bases)})")
    state = bases[variant.base]
    if variant.weather:
        state = state.evolve(weather=variant.weather)
    if variant.options:
        state = state.evolve(options={**state.options, **dict(variant.options)})
    for key in variant.cuts:
        state = Target("bridge" if "|" in key else "hex", key).cut(state)
    for edit in variant.edits:
        state = apply_edit(state, dict(edit))
    return state


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
            got = {c: [""] for c in COLUMNS}
            got |= {"variant": [variant.name], "base": [variant.base], "code": ["error"]}
            got |= {"rule": [f"{type(exc).__name__}: {exc}"], "in_supply": [False], "length": [math.nan]}
        for column, values in got.items():
            out[column] += values
    return out
