"""Ranges at sea: the Assault Force markers, the ships' range boxes and the German coastal batteries (4.4).

Every ship lives in a range box of its Assault Force; a range is counted in hexes from the target to the
force's Assault Force marker, plus the number printed in the ship's range box (4.4.5).  A coastal battery
(black Fire Rating) counts the same way to a ship, and to a Landing Craft in a Landing Wave box by the hexes
to the marker alone (4.4.7a).  It may fire so in Step 3 of the Naval Sequence of Play unless it is under a
Barrage marker or next to an enemy unit (4.4.7).  The range boxes' numbers are on the Naval Display (a GAP):
the 4.4.7 example fixes them (a battery 10 hexes from the marker reaches Landing Craft at 10, destroyers in
the Short Range box at 20, cruisers in the Medium Range box at 30, the Long Range box at 40), INFERRED as
10, 20 and 30.

4.4.3: each Utah Assault Force marker "must stay in its assigned Sector" (UtN "between hexes 29.017 and
44.002", UtS "between hexes 16.032 and 28.018"), in "any Impassable hex that is adjacent to a hex that has a
center dot along the coast", or a Beach hex while the Beach Overlay is in place.  Where the markers stand
is the marker ``assault_force_markers`` (4.4.7's example hexes by default), checked so in a scenario and in
an edit (:func:`marker_problem`), and the ranges of ships and batteries count to it (4.4.4a, 4.4.7a; a
Landing Craft's marker is Utah South, 4.7.2).  "Between" two hexes is read as the block of columns and rows
the two end hexes span (INFERRED: the coast runs between them; the text's examples 17.029, 18.027 and 20.025
for UtS, 37.010 for UtN lie in them).  The markers move in Step 7 of the Naval Sequence of Play, which the
engine does not play: an edit may move them at any time.
"""

from __future__ import annotations

from typing import Any

from normandy_lab.engine.state import GameState
from normandy_lab.gamemap import game_map
from normandy_lab.grids import grid
from normandy_lab.rules.gts.movement import beach_out_of_play

RANGE_BOXES = {"landing waves": 0, "short": 10, "medium": 20, "long": 30}  # 4.4.7 example (INFERRED)
# 4.4.3: where each Utah Assault Force marker may be placed (its sector, along the coast).
SECTORS = {"UtN": ("29.017", "44.002"), "UtS": ("16.032", "28.018")}
# 4.7.2: "If firing at a Landing Craft the corresponding Assault Force Marker is Utah South".
LANDING_CRAFT_FORCE = "UtS"


def _col_row(hex_id: str) -> tuple[int, int]:
    column, row = hex_id.split(".")
    return int(column), int(row)


def in_sector(force: str, hex_id: str) -> bool:
    """Say whether ``hex_id`` lies in ``force``'s sector: the columns and rows its two end hexes span."""
    (c1, r1), (c2, r2) = (_col_row(h) for h in SECTORS[force])
    c, r = _col_row(hex_id)
    return min(c1, c2) <= c <= max(c1, c2) and min(r1, r2) <= r <= max(r1, r2)


def marker_problem(state: GameState, force: str, hex_id: str) -> str | None:
    """Say why ``force``'s Assault Force marker may not stand in ``hex_id`` (4.4.1, 4.4.3), or None."""
    if force not in SECTORS:
        return f"{force!r} is not a Utah Assault Force (they are {', '.join(SECTORS)}, 4.4.3)"
    gmap = game_map(state.system)
    g = gmap.grid
    terrain = gmap.terrain.hexes["terrain"]
    a, b = SECTORS[force]
    if not in_sector(force, hex_id):
        return f"{hex_id} is outside the {force} sector (between {a} and {b}, 4.4.3)"
    kind = terrain.iloc[g.index(hex_id)]
    beach_ok = kind == "Beach" and not beach_out_of_play(state)
    if kind != "Impassable" and not beach_ok:
        where = "an Impassable hex" + ("" if beach_out_of_play(state) else " or a Beach hex")
        return f"{hex_id} is {kind}: an Assault Force marker stands in {where} (4.4.1, 4.4.3)"
    # "adjacent to a hex that has a center dot along the coast" (the example's playable hexes happen to lie in
    # the sector too; the rule asks only that the marker be next to one).
    coast = [h for h in map(g.canonical, g.neighbors(hex_id)) if terrain.iloc[g.index(h)] != "Impassable"]
    if kind == "Impassable" and not coast:
        return f"{hex_id} is next to no playable hex: the marker stays along the coast (4.4.3)"
    return None


def marker_hex(state: GameState, force: str) -> str:
    """Return the hex of ``force``'s Assault Force marker on ``state`` (marker ``assault_force_markers``)."""
    return state.markers["assault_force_markers"][force]


def naval_range(system: str, target: str, marker: str, box: str) -> int:
    """Return the range from a range box of an Assault Force to a hex (4.4.5, 4.4.7a)."""
    return grid(system).distance(target, marker) + RANGE_BOXES[box]


def ship_range(state: GameState, force: str, box: str, target: str) -> int:
    """Return a ship's range to ``target`` from ``force``'s range box ``box``, to its marker (4.4.4a)."""
    return naval_range(state.system, target, marker_hex(state, force), box)


def battery_fire(
    state: GameState, battery_id: str, marker: str = LANDING_CRAFT_FORCE, battery_range: int = 0
) -> dict[str, Any]:
    """Say what a coastal battery may fire at in Step 3 of the Naval Sequence of Play (4.4.7).

    ``marker`` is an Assault Force (``UtN``, ``UtS``: its marker's hex on the state) or a hex.  Returns
    ``eligible`` (False under a Barrage marker or next to an enemy unit, with ``why``) and, per range box,
    the range and whether it is within the battery's ``battery_range`` (printed on the counter).
    """
    if marker in SECTORS:
        marker = marker_hex(state, marker)
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
