"""Compare two situations: which units a what-if puts out of supply, or back in, and why.

The explorer and the notebooks use these to answer "what does this change?"
in one table instead of two reports read side by side.
"""

from __future__ import annotations

import pandas as pd

from normandy_lab.engine.reasons import (
    ATTACHMENT_FULL,
    BLOCKED,
    CUT_OFF,
    HQ_OUT_OF_SUPPLY,
    NOT_DESIGNATED,
    OUT_OF_RANGE,
)
from normandy_lab.engine.state import GameState
from normandy_lab.engine.supply import SupplyReport, UnitSupply, supply
from normandy_lab.terrain.places import hex_place, with_places

# What binds, in teaching terms, by the report's reason code (never by parsing its words).
CAUSES = {
    HQ_OUT_OF_SUPPLY: "division HQ out of supply (7.2)",
    BLOCKED: "a single block on the line",
    OUT_OF_RANGE: "too far from a source or HQ (7.3.1, 7.2)",
    CUT_OFF: "cut off (7.3)",
    ATTACHMENT_FULL: "no attachment place left (7.2)",
}
# A binding block, by kind.
BLOCK_CAUSES = {
    "water": "unbridged river or stream (7.3.2)",
    "ezoc": "enemy zone of control (5.4, 7.3)",
    "enemy": "enemy unit on the line (7.3)",
    "interdicted": "interdicted hex (what-if)",
}


def cause(r: UnitSupply) -> str:
    """Return what binds a unit's supply, in teaching terms ("" for a unit in supply)."""
    if r.general or not r.code:
        return ""
    if r.code == BLOCKED:
        binding = next((b for b in r.blocks if b.binding), None)
        return BLOCK_CAUSES.get(binding.kind, CAUSES[BLOCKED]) if binding else CAUSES[BLOCKED]
    text = CAUSES.get(r.code, r.code)
    if r.weather_bound:
        text += ", only under the bad-weather halving (7.3.3)"
    return text


def supply_table(report: SupplyReport) -> pd.DataFrame:
    """Return one row per unit: name, side, hex, General and Combat Supply, isolation, and why.

    The ``code`` column is the report's reason code (what the views and
    comparisons read); ``cause`` says it in teaching terms; ``rule`` gives the
    rule numbers; ``binding`` names the block that alone causes it, if one
    does; ``expected`` is the scenario's word for a unit it expects out of
    supply ("" when it does not).  Indexed by unit id and sorted by side then
    id, so tables of two states line up.  :func:`supply_summary` sums it up.
    """
    state = report.state
    rows = []
    for unit in state.units:
        r = report[unit.id]
        binding = next((b for b in r.blocks if b.binding), None)
        rows.append(
            {
                "unit_id": unit.id,
                "name": unit.name,
                "side": unit.side,
                "formation": unit.formation or "corps troops",
                "hex": unit.hex,
                "general": r.general,
                "combat": r.combat,
                "isolated": r.isolated,
                "traced_to": r.traced_to,
                "code": r.code,
                "cause": cause(r),
                "rule": r.rule,
                "binding": binding.words() if binding else "",
                "weather_bound": r.weather_bound,
                "cut_off_in_history": bool(unit.cut_off),
                "reason": r.reason,
            }
        )
    frame = pd.DataFrame(rows).set_index("unit_id")
    return frame.sort_values(["side"], kind="stable")


def supply_summary(report: SupplyReport) -> str:
    """Say in one line why units are out of General Supply.

    For example ``"20 out of General Supply: 3 cut off (2 of them cut off in
    history), 12 beyond range (4 only under the Storm halving), 3 whose
    division HQ is out, 2 held by a single block"``, then how many of them
    the scenario's ``expected_out_of_supply`` list expects, and why.
    """
    out = report.out_of_supply()
    state = report.state
    supplied = state.rules.supply_states[0].label  # BfN: "General Supply"; Cobra: "supply"
    if not out:
        return _lead(state, f"Every unit is in {supplied}.")
    by_code: dict[str, list[UnitSupply]] = {}
    for r in out:
        by_code.setdefault(r.code, []).append(r)
    parts = []
    cut = by_code.get(CUT_OFF, [])
    if cut:
        history = sum(bool(state.unit(r.unit_id).cut_off) for r in cut)
        parts.append(f"{len(cut)} cut off" + (f" ({history} of them cut off in history)" if history else ""))
    far = by_code.get(OUT_OF_RANGE, [])
    if far:
        weather = sum(r.weather_bound for r in far)
        halving = f" ({weather} only under the {state.weather} halving, 7.3.3)" if weather else ""
        parts.append(f"{len(far)} beyond range{halving}")
    if by_code.get(HQ_OUT_OF_SUPPLY):
        parts.append(f"{len(by_code[HQ_OUT_OF_SUPPLY])} whose division HQ is out of supply")
    if by_code.get(BLOCKED):
        kinds: dict[str, int] = {}
        for r in by_code[BLOCKED]:
            binding = next(b for b in r.blocks if b.binding)
            kinds[binding.kind] = kinds.get(binding.kind, 0) + 1
        said = ", ".join(f"{n} by {BLOCK_NAMES[k]}" for k, n in sorted(kinds.items()))
        parts.append(f"{len(by_code[BLOCKED])} held by a single block ({said})")
    if by_code.get(ATTACHMENT_FULL):
        parts.append(f"{len(by_code[ATTACHMENT_FULL])} with no attachment place left")
    if by_code.get(NOT_DESIGNATED):  # a game that designates its supplied formations (GTS 17.3)
        divisions = sorted({state.unit(r.unit_id).formation or "" for r in by_code[NOT_DESIGNATED]} - {""})
        parts.append(f"{len(by_code[NOT_DESIGNATED])} in divisions not designated ({', '.join(divisions)})")
    line = f"{len(out)} of {len(report.units)} out of {supplied}: " + "; ".join(parts) + "."
    expected = {e.unit_id: e for e in state.expected_now()}
    if expected:
        listed = [expected[r.unit_id] for r in out if r.unit_id in expected]
        kinds = {why: sum(e.why == why for e in listed) for why in ("history", "rules", "setup", "map")}
        said = ", ".join(
            f"{n} {words}"
            for n, words in (
                (kinds["history"], "cut off or out of reach in history"),
                (kinds["rules"], "left out by the rules though supplied in 1944"),
                (kinds["setup"], "set-up artefact" + ("s" if kinds["setup"] > 1 else "")),
                (kinds["map"], "map gap" + ("s" if kinds["map"] > 1 else "")),
            )
            if n
        )
        verb = "is" if len(listed) == 1 else "are"
        line += f" Of these, {len(listed)} {verb} expected by the scenario" + (f" ({said})" if said else "")
        unexpected = len(out) - len(listed)
        line += f"; {unexpected} not expected." if unexpected else "."
    caveat = getattr(state.rules, "supply_caveat", None)  # a game whose verdicts rest on a reconstruction
    said = caveat(state) if caveat is not None else ""
    line = f"{line} {said}" if said else line
    return _lead(state, line)


def _lead(state: GameState, line: str) -> str:
    """Put first what the rule system says must come before any count (GTS: no division designated yet)."""
    lead = getattr(state.rules, "supply_lead", None)
    said = lead(state) if lead is not None else ""
    return f"{said}. {line}" if said else line


BLOCK_NAMES = {
    "water": "unbridged water",
    "ezoc": "a zone of control",
    "enemy": "an enemy unit",
    "interdicted": "interdiction",
}


def supply_changes(before: GameState, after: GameState) -> pd.DataFrame:
    """Return the units whose General or Combat Supply differs between two states, with the new reason.

    Columns: ``name``, ``side``, ``hex``, ``place`` (the hex with where it is), ``general_before``,
    ``general_after``, ``combat_before``, ``combat_after``, ``code_after``, ``reason_after`` (the engine's
    words) and ``why_after`` (the same with each hex id followed by its place, as the explorer's panel
    says it).  Units present in only one state are left out (see the states' unit lists for those).
    """
    old, new = supply_table(supply(before)), supply_table(supply(after))
    common = old.index.intersection(new.index)
    old, new = old.loc[common], new.loc[common]
    changed = (old["general"] != new["general"]) | (old["combat"] != new["combat"])
    new = new[changed]
    old = old[changed]
    system = after.system
    table = pd.DataFrame(
        {
            "name": new["name"],
            "side": new["side"],
            "hex": new["hex"],
            "place": [hex_place(system, h) for h in new["hex"]],
            "general_before": old["general"],
            "general_after": new["general"],
            "combat_before": old["combat"],
            "combat_after": new["combat"],
            "code_after": new["code"],
            "reason_after": new["reason"],
            "why_after": [with_places(system, r) for r in new["reason"]],
        }
    )
    return table


def out_of_supply_counts(state: GameState) -> dict[str, int]:
    """Return how many units of each side are out of General Supply."""
    report = supply(state)
    return {side: len(report.out_of_supply(side)) for side in ("allied", "german")}
