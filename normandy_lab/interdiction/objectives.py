"""How much a set of cuts hurts a side's supply: the measures an interdiction study maximises.

An objective turns a supply report into a number for one side, the larger the worse for that side; a study
maximises its rise over the uncut state.  ``"units_out"`` counts the side's units out of supply (the rule
system's first supply state: BfN's General Supply, Cobra's and KG's supply, GTS's designation).
``"line_mp"`` adds up how much longer the side's lines get: each unit in supply before the cuts counts the
length of its line after them (MP where the game counts MP, else hexes), or, once out of supply, the length
it had (so a unit put out is not a gain here: ``units_out`` counts those).  A callable
``objective(report, side) -> float`` is used as given.

``formations=`` narrows ``units_out`` to chosen formations (:func:`formation_units`): "Panzer Lehr and 12. SS"
is ``formations=["DE lehr pz div", "DE 12 SS pz div"]``, the keys :func:`normandy_lab.side_by_side` uses
(:func:`normandy_lab.sidebyside.formation_key`), or the game's own names ("Panzer-Lehr-Division").  It reads
the units' formations from the state once, so it costs what ``units_out`` costs; going through
``supply_table`` works out every reason and is several times slower.
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


def units_out_of(units: frozenset[str]) -> Objective:
    """Return the objective that counts only these units (ids) among the side's units out of supply."""

    def count(report: Any, side: str) -> float:
        return float(sum(1 for r in report.out_of_supply(side) if r.unit_id in units))

    return count


def formation_units(state: Any, side: str, formations: Any, caller: str) -> tuple[frozenset[str], list[str]]:
    """Return the ids of ``side``'s units in the named formations, and the formations as named.

    A formation is named by its cross-game key (``"DE lehr pz div"``, as :func:`normandy_lab.side_by_side`
    keys them) or by the game's own name for it (``"Panzer-Lehr-Division"``), case aside.  A name that is no
    formation of the side on this map is refused with the nearest keys, so a misspelling never counts 0.
    """
    import difflib

    from normandy_lab.sidebyside.formations import formation_key

    if isinstance(formations, str):
        formations = [formations]
    if (
        not isinstance(formations, list | tuple | set | frozenset)
        or not formations
        or not all(isinstance(f, str) for f in formations)
    ):
        raise RefusedError(
            f"{caller}: formations: {formations!r:.60} is not allowed; give a formation's key or name, or a "
            "list of them, e.g. formations=['DE lehr pz div', 'DE 12 SS pz div']"
        )
    ours = [u for u in state.units if u.side == side]
    keys = {formation_key(u).casefold(): formation_key(u) for u in ours if u.formation}
    names = {(u.formation or "").casefold(): u.formation for u in ours if u.formation}
    wanted: set[str] = set()
    for text in formations:
        folded = text.strip().casefold()
        if folded not in keys and folded not in names:
            close = difflib.get_close_matches(folded, [*keys, *names], n=3, cutoff=0.5)
            shown = [keys.get(c) or names[c] for c in close]
            hint = f"did you mean {' or '.join(repr(c) for c in shown)}? " if shown else ""
            some = ", ".join(sorted(set(keys.values()))[:12])
            raise RefusedError(
                f"{caller}: formations: {text!r} is no {side} formation on {state.system}'s map; "
                f"{hint}give a key as side_by_side writes it (one of {some}, ...) or the game's own name"
            )
        wanted.add(folded)
    units = frozenset(
        u.id
        for u in ours
        if u.formation and (formation_key(u).casefold() in wanted or u.formation.casefold() in wanted)
    )
    return units, [f.strip() for f in formations]


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


def resolve(
    objective: str | Objective, baseline: Any, side: str, units: frozenset[str] | None = None
) -> tuple[Objective, str]:
    """Return the objective function and its name for ``objective`` (a name or a callable).

    With ``units`` (a per-formation objective), ``"units_out"`` counts only those units.
    """
    if callable(objective):
        return objective, getattr(objective, "__name__", "custom")
    if objective == "units_out":
        return (units_out, "units_out") if units is None else (units_out_of(units), "units_out")
    if objective == "line_mp":
        return line_mp(baseline, side), "line_mp"
    raise RefusedError(
        f"objective is 'units_out', 'line_mp' or a function (report, side) -> float, not {objective!r}"
    )


def from_rows(
    name: str, baseline: Any, side: str, units: frozenset[str] | None = None
) -> Callable[[Any], float]:
    """Return a named objective computed from a sweep's rows of one variant (:mod:`normandy_lab.sweeps`).

    The same numbers as the objective over the report: ``units_out`` counts the side's rows out of supply,
    ``line_mp`` reads each line's length from its row.
    """
    if name == "units_out":
        if units is not None:
            chosen = sorted(units)

            def count(rows: Any) -> float:
                out = (rows["side"] == side) & ~rows["in_supply"].astype(bool) & rows["unit"].isin(chosen)
                return float(out.sum())

            return count
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
