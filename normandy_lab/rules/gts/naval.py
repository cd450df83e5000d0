"""Ranges at sea: the Assault Force markers, the ships' range boxes and the German coastal batteries (4.4).

Every ship lives in a range box of its Assault Force; a range is counted in hexes from the target to the
force's Assault Force marker, plus the number printed in the ship's range box (4.4.5).  A coastal battery
(black Fire Rating) counts the same way to a ship, and to a Landing Craft in a Landing Wave box by the hexes
to the marker alone (4.4.7a).  It may fire so in Step 3 of the Naval Sequence of Play unless it is under a
Barrage marker or next to an enemy unit (4.4.7).  The range boxes' numbers are on the Naval Display (a GAP):
the 4.4.7 example fixes them (a battery 10 hexes from the marker reaches Landing Craft at 10, destroyers in
the Short Range box at 20, cruisers in the Medium Range box at 30, the Long Range box at 40), INFERRED as
10, 20 and 30.  The markers stay in their sectors (4.4.3).
"""

from __future__ import annotations

from typing import Any

from normandy_lab.engine.state import GameState

RANGE_BOXES = {"landing waves": 0, "short": 10, "medium": 20, "long": 30}  # 4.4.7 example (INFERRED)
# 4.4.3: where each Utah Assault Force marker may be placed (its sector, along the coast).
SECTORS = {"UtN": ("29.017", "44.002"), "UtS": ("16.032", "28.018")}


def naval_range(system: str, target: str, marker: str, box: str) -> int:
    """Return the range from a range box of an Assault Force to a hex (4.4.5, 4.4.7a)."""
    from normandy_lab.grids import grid

    return grid(system).distance(target, marker) + RANGE_BOXES[box]


def battery_fire(state: GameState, battery_id: str, marker: str, battery_range: int) -> dict[str, Any]:
    """Say what a coastal battery may fire at in Step 3 of the Naval Sequence of Play (4.4.7).

    Returns ``eligible`` (False under a Barrage marker or next to an enemy unit, with ``why``) and, per
    range box, the range and whether it is within the battery's ``battery_range`` (printed on the counter).
    """
    from normandy_lab.grids import grid

    g = grid(state.system)
    battery = state.unit(battery_id)
    near = {g.canonical(h) for h in g.neighbors(battery.hex)}
    enemies = sorted(
        u.id for u in state.units if u.side != battery.side and u.status == "active" and u.hex in near
    )
    why = ""
    if battery.attr("barrage"):
        why = "under a Barrage marker"
    elif enemies:
        why = f"next to {', '.join(enemies)}"
    boxes = {}
    for box in RANGE_BOXES:
        reach = naval_range(state.system, battery.hex, marker, box)
        boxes[box] = {"range": reach, "in_range": reach <= battery_range}
    return {"eligible": not why, "why": why, "boxes": boxes}
