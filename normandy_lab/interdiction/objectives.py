"""How much a set of cuts hurts a side's supply: the measures an interdiction study maximises.

An objective turns a supply report into a number for one side, the larger the worse for that side; a study
maximises its rise over the uncut state.  ``"units_out"`` counts the side's units out of supply (the rule
system's first supply state: BfN's General Supply, Cobra's and KG's supply, GTS's designation).
``"line_mp"`` adds up how much longer the side's lines get: each unit in supply before the cuts counts the
length of its line after them (MP where the game counts MP, else hexes), or, once out of supply, the length
it had (so a unit put out is not a gain here: ``units_out`` counts those).  A callable
``objective(report, side) -> float`` is used as given.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from normandy_lab.errors import RefusedError

Objective = Callable[[Any, str], float]


def units_out(report: Any, side: str) -> float:
    """Return the number of ``side``'s units out of supply in ``report``."""
    return float(len(report.out_of_supply(side)))


def _length(row: Any) -> float:
    """Return a line's length: MP where the game counts them, else hexes."""
    return row.length_mp if math.isfinite(row.length_mp) else row.length_hexes


def line_mp(baseline: Any, side: str) -> Objective:
    """Return the ``line_mp`` objective measured against ``baseline`` (the report before any cut)."""
    before = {
        r.unit_id: _length(r)
        for r in baseline.units.values()
        if r.side == side and r.general and math.isfinite(_length(r))
    }

    def total(report: Any, side_asked: str) -> float:
        value = 0.0
        for unit_id, length in before.items():
            row = report.units.get(unit_id)
            after = _length(row) if row is not None and row.general else length
            value += after if math.isfinite(after) else length
        return value

    return total


def resolve(objective: str | Objective, baseline: Any, side: str) -> tuple[Objective, str]:
    """Return the objective function and its name for ``objective`` (a name or a callable)."""
    if callable(objective):
        return objective, getattr(objective, "__name__", "custom")
    if objective == "units_out":
        return units_out, "units_out"
    if objective == "line_mp":
        return line_mp(baseline, side), "line_mp"
    raise RefusedError(
        f"objective is 'units_out', 'line_mp' or a function (report, side) -> float, not {objective!r}"
    )


def from_rows(name: str, baseline: Any, side: str) -> Callable[[Any], float]:
    """Return a named objective computed from a sweep's rows of one variant (:mod:`normandy_lab.sweeps`).

    The same numbers as the objective over the report: ``units_out`` counts the side's rows out of supply,
    ``line_mp`` reads each line's length from its row.
    """
    if name == "units_out":
        return lambda rows: float(((rows["side"] == side) & ~rows["in_supply"].astype(bool)).sum())
    if name == "line_mp":
        before = {
            r.unit_id: _length(r)
            for r in baseline.units.values()
            if r.side == side and r.general and math.isfinite(_length(r))
        }

        def total(rows: Any) -> float:
            by_unit = rows.set_index("unit")
            value = 0.0
            for unit_id, length in before.items():
                after = length
                if unit_id in by_unit.index and bool(by_unit.at[unit_id, "in_supply"]):
                    after = float(by_unit.at[unit_id, "length"])
                value += after if math.isfinite(after) else length
            return value

        return total
    raise RefusedError(f"a sweep computes 'units_out' and 'line_mp', not {name!r}: run it without a client")
