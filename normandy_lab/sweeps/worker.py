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


def rows_of(variant: Variant, state: GameState, reasons: bool = True) -> list[dict[str, Any]]:
    """Return the tidy rows of one variant: one a unit, with its verdict, reason code and line length.

    ``reasons=False`` leaves the code, rule and length of a unit out of supply empty (working them out is
    most of a determination's cost in some games).
    """
    from normandy_lab.engine.supply import supply

    report = supply(state)
    stamp = (variant.name, variant.base, state.system, state.date.isoformat(), state.turn, state.weather)
    rows = []
    for row in report.units.values():
        unit = state.unit(row.unit_id)
        explained = row.general or reasons
        length = (
            (row.length_mp if math.isfinite(row.length_mp) else row.length_hexes) if explained else math.nan
        )
        rows.append(
            dict(
                zip(COLUMNS, (*stamp, row.side, unit.formation or "", row.unit_id, bool(row.general),
                              row.code if explained else "", row.rule if explained else "",
                              float(length) if math.isfinite(length) else math.nan), strict=True)
            )
        )  # fmt: skip
    return rows


def run_chunk(bases: Mapping[str, GameState], chunk: Sequence[Variant], reasons: bool = True) -> list[dict]:
    """Evaluate some variants against the base situations and return their rows.

    A variant that fails gives one row saying why (code ``error``), so that one bad variant does not lose
    a sweep.
    """
    out: list[dict[str, Any]] = []
    for variant in chunk:
        try:
            out += rows_of(variant, situation(bases, variant), reasons)
        except Exception as exc:
            failed = dict.fromkeys(COLUMNS, "")
            failed.update(
                variant=variant.name, base=variant.base, code="error", rule=f"{type(exc).__name__}: {exc}"
            )
            failed["in_supply"] = False
            failed["length"] = math.nan
            out.append(failed)
    return out
