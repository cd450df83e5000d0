"""Cherbourg Unit Withdrawal (OVERLORD 26.20.6): units of the new fortress that try to slip away south.

At the start of the German Tactical Movement Segment of the turn Fortress Cherbourg is declared, the German
player picks Cherbourg Units one at a time (none of the 709th Division, each within 6 hexes of a west coast
hex) and rolls a die for each: 6 or less succeeds, with 1 added for each unit rolled for before, and the
first failure ends the attempts.  A unit that succeeds moves up to twice its movement allowance in hexes,
every hex entered south of the one it left (in a hex row further down the printed map), terrain and enemy
ZOCs ignored; it ends under a Regroup marker, and Disorganized if it ends in an enemy ZOC.

Here the player's choices come as a study edit, ``{"op": "marker", "name": "cherbourg_withdrawal",
"value": [{"unit": id, "to": hex}, ...]}``, in the order rolled: the state's seeded dice decide.  What the
text leaves open is read plainly (INFERRED): a withdrawing unit enters no hex an enemy unit holds and no
all-sea hex, and a west coast hex is a land hex with the sea on its west side (the Cotentin's west coast).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

import numpy as np

from normandy_lab.engine.sequence import current_phase
from normandy_lab.engine.state import GameState
from normandy_lab.engine.supply import supply
from normandy_lab.engine.zoc import zoc_mask
from normandy_lab.errors import RefusedError
from normandy_lab.gamemap import game_map
from normandy_lab.grids import grid

COAST_REACH = 6  # hexes from a west coast hex
WEST_OF_LON = -1.35
SUCCESS_AT_MOST = 6  # a modified roll of 6 or less succeeds; +1 for each unit rolled for before


@lru_cache(maxsize=4)
def west_coast(system: str) -> np.ndarray:
    """Return the west coast hexes (indices): land hexes whose sea lies to their west.

    The directions to a hex's all-sea neighbours, added up, point within 45 degrees of due west: a coast
    facing west, not a north or south coast that happens to have the sea at its north-west.
    """
    gmap = game_map(system)
    lon, lat = gmap.grid.centers()
    sea = gmap.terrain.hexes["terrain"].to_numpy() == "All Sea"
    e = gmap.edges
    toward = ~sea[e.src] & sea[e.dst]
    dx = (lon[e.dst] - lon[e.src]) * np.cos(np.radians(lat[e.src]))
    dy = lat[e.dst] - lat[e.src]
    norm = np.hypot(dx, dy)
    n = len(lon)
    sum_x = np.bincount(e.src[toward], weights=(dx / norm)[toward], minlength=n)
    sum_y = np.bincount(e.src[toward], weights=(dy / norm)[toward], minlength=n)
    # West of 1 deg 21' W: the Channel coast of the Cotentin and the bay of Mont-Saint-Michel, not the bays of
    # the east coast (the Veys, Saint-Vaast), which face west too.
    found = np.nonzero((sum_x < 0) & (np.abs(sum_y) < -sum_x) & (lon < WEST_OF_LON))[0]
    found.setflags(write=False)
    return found


def candidates(state: GameState) -> list[str]:
    """Return the Cherbourg Units that may try to withdraw: not the 709th's, within 6 of the west coast."""
    if not state.markers["fortress_cherbourg"]:
        return []
    g = grid(state.system)
    coast = [str(g.id_array[i]) for i in west_coast(state.system)]
    report = supply(state)
    found = []
    for u in state.units_of("german"):
        row = report[u.id]  # a Cherbourg Unit in supply says so in its line, one out of supply in its reason
        if "709" in (u.formation or "") or "a Cherbourg Unit" not in f"{row.traced_to} {row.reason}":
            continue
        if min((g.distance(u.hex, c) for c in coast), default=COAST_REACH + 1) <= COAST_REACH:
            found.append(u.id)
    return found


def succeeds(die: int, rolled_before: int) -> bool:
    """Tell whether a withdrawal roll succeeds: the die plus 1 a unit rolled for before is 6 or less."""
    return die + rolled_before <= SUCCESS_AT_MOST


def southward_reach(state: GameState, unit: Any, steps: int) -> dict[str, int]:
    """Return the hexes a withdrawing unit may reach in ``steps`` hexes, each south of the one before.

    "Each hex entered must be south of the hex it moved from" (26.20.6): south on the printed map, whose
    hex rows run east-west and are numbered southward (26.18.1's boundary runs "straight south" down a
    column, N3033 to N3133 and N3233): a hex in the next row down, never one along the same row.  The
    KG grid is turned about 0.5 degrees from true north, so true latitude would count some steps along a
    row as south.
    """
    gmap = game_map(state.system)
    g = gmap.grid
    row = g.r  # the global lattice's row: it grows southward on every sheet (N, W, E)
    sea = gmap.terrain.hexes["terrain"].to_numpy() == "All Sea"
    enemy = {g.index(u.hex) for u in state.units_of("allied")}
    start = g.index(unit.hex)
    reach = {start: 0}
    frontier = [start]
    for n in range(1, steps + 1):
        nxt = []
        for at in frontier:
            for hex_id in g.neighbors(str(g.id_array[at])):
                i = g.index(hex_id)
                if i in reach or row[i] <= row[at] or sea[i] or i in enemy:
                    continue
                reach[i] = n
                nxt.append(i)
        frontier = nxt
    return {str(g.id_array[i]): n for i, n in reach.items() if i != start}


def withdraw(state: GameState, orders: Any) -> GameState:
    """Roll for and move the Cherbourg Units the orders name, in their order, until one fails (26.20.6)."""
    if state.markers["fortress_declared_on"] != state.date.isoformat():
        raise RefusedError("Cherbourg Units withdraw in the turn Fortress Cherbourg is declared (26.20.6)")
    if current_phase(state).name != "German Movement":
        raise RefusedError("Cherbourg Units withdraw as the German movement begins (26.20.6)")
    if state.markers["withdrawal_done"]:
        raise RefusedError("the Cherbourg Units' withdrawal is made once, in that turn (26.20.6)")
    if not isinstance(orders, list) or not all(
        isinstance(o, dict) and {"unit", "to"} <= set(o) for o in orders
    ):
        raise RefusedError('cherbourg_withdrawal is a list of {"unit": id, "to": hex}, in the order rolled')
    allowed = set(candidates(state))
    g = grid(state.system)
    rng = state.rng()
    rolled = 0
    units = {u.id: u for u in state.units}
    words = []
    for order in orders:
        uid, to = str(order["unit"]), g.canonical(str(order["to"]))
        if uid not in allowed:
            raise RefusedError(
                f"{uid} may not withdraw: a Cherbourg Unit, not of the 709th, within {COAST_REACH} hexes of "
                f"the west coast may (26.20.6); these may: {', '.join(sorted(allowed)) or 'none'}"
            )
        unit = units[uid]
        ma = int(unit.ma if unit.ma is not None else state.rules.unit_defaults[unit.type]["ma"])
        reach = southward_reach(state.evolve(units=tuple(units.values())), unit, 2 * ma)
        if to not in reach:
            raise RefusedError(
                f"{uid} cannot reach {to}: every hex entered south of the last, {2 * ma} at most (26.20.6)"
            )
        die = int(rng.integers(1, 7))
        modified = die + rolled
        rolled += 1
        if not succeeds(die, rolled - 1):
            words.append(f"{uid} rolled {die}+{modified - die}: fails, the withdrawal ends")
            break
        zoc = _in_enemy_zoc(state, to)
        attrs = dict(unit.attrs) | {"regroup": True} | ({"disorganized": True} if zoc else {})
        units[uid] = replace(unit, hex=to, attrs=tuple(sorted(attrs.items())))
        words.append(
            f"{uid} rolled {die}+{modified - die}: withdraws to {to}{', Disorganized' if zoc else ''}"
        )
    return state.after_draws(rolled).evolve(
        units=tuple(units.values()),
        withdrawal_done=True,
        log=state.log.then("Cherbourg Unit Withdrawal (26.20.6): " + "; ".join(words)),
    )


def _in_enemy_zoc(state: GameState, hex_id: str) -> bool:
    """Tell whether a hex lies in an Allied zone of control."""
    return bool(zoc_mask(state, "allied")[grid(state.system).index(hex_id)])
