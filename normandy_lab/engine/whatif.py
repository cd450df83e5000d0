"""Compare two situations: which units a what-if puts out of supply, or back in, and why.

The explorer and the notebooks use these to answer "what does this change?"
in one table instead of two reports read side by side.
"""

from __future__ import annotations

import pandas as pd

from normandy_lab.engine.state import GameState
from normandy_lab.engine.supply import SupplyReport, supply

# The kinds of block the supply report names (its reasons start with these words), in teaching terms.
CAUSES = (
    ("its division HQ", "division HQ out of supply (7.2)"),
    ("unbridged", "unbridged river or stream (7.3.2)"),
    ("vacant hex", "enemy zone of control (5.4, 7.3)"),
    ("enemy units", "enemy unit on the line (7.3)"),
    ("out of range", "too far from a source or HQ (7.3.1)"),
    ("too far", "HQ too far from a source or corps HQ (7.2)"),
    ("no line of any length", "cut off (7.2)"),
    ("no legal line", "no legal line (7.3)"),
)


def cause(reason: str) -> str:
    """Return the kind of a supply report's reason ("" for a unit in supply)."""
    if not reason:
        return ""
    for start, kind in CAUSES:
        if reason.startswith(start):
            return kind
    if "interdicted" in reason:
        return "interdicted hex (what-if)"
    return "other"


def supply_table(report: SupplyReport) -> pd.DataFrame:
    """Return one row per unit: name, side, hex, General and Combat Supply, isolation, cause and reason.

    Indexed by unit id and sorted by side then id, so tables of two states line up.
    """
    state = report.state
    rows = []
    for unit in state.units:
        r = report[unit.id]
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
                "cause": cause(r.reason),
                "reason": r.reason,
            }
        )
    frame = pd.DataFrame(rows).set_index("unit_id")
    return frame.sort_values(["side"], kind="stable")


def supply_changes(before: GameState, after: GameState) -> pd.DataFrame:
    """Return the units whose General or Combat Supply differs between two states, with the new reason.

    Columns: ``name``, ``side``, ``hex``, ``general_before``, ``general_after``,
    ``combat_before``, ``combat_after``, ``reason_after``.  Units present in
    only one state are left out (see the states' unit lists for those).
    """
    old, new = supply_table(supply(before)), supply_table(supply(after))
    common = old.index.intersection(new.index)
    old, new = old.loc[common], new.loc[common]
    changed = (old["general"] != new["general"]) | (old["combat"] != new["combat"])
    table = pd.DataFrame(
        {
            "name": new["name"],
            "side": new["side"],
            "hex": new["hex"],
            "general_before": old["general"],
            "general_after": new["general"],
            "combat_before": old["combat"],
            "combat_after": new["combat"],
            "reason_after": new["reason"],
        }
    )
    return table[changed]


def out_of_supply_counts(state: GameState) -> dict[str, int]:
    """Return how many units of each side are out of General Supply."""
    report = supply(state)
    return {side: len(report.out_of_supply(side)) for side in ("allied", "german")}
