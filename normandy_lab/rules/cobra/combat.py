"""What Cobra's combat phases put on the table (8.1, 8.3-8.4, 10.0b, 11.0-11.2), short of rolling.

Every enemy-occupied hex a side's units stand next to is a possible attack.  The Allied armies do not
mix: US and French units attack together, British, Canadian and Polish units together, never the two
(8.1d-e).  Each attack is listed with its strengths and odds (8.4: attack over defence, rounded in the
defender's favour) as it would go in with supply points, and without them: an attack costs the Allies 1
SP from the pool of the attacking army, the Germans 2 (11.0a-b, 11.2), and an attack made without SP
counts its units out of supply, at half strength (10.0b, 10.6).  An HQ stacked with a combat unit adds nothing
to the defence; HQs alone defend with one (9.1d).  Once the Cotentin is cut off,
Cherbourg supplies one German attack a game turn (17.3.5g): an attack with a unit whose line runs to a
Cherbourg city hex says so, and the player picks which.  The Combat Results Table's body is printed on the
map (GAP): the attack is not rolled.  The Allied command limits (11.3) are compared with the attacks on offer
where the text or the analyst gives them (:mod:`.points`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from normandy_lab.engine.state import GameState
from normandy_lab.engine.supply import supply
from normandy_lab.gamemap import game_map
from normandy_lab.grids import grid
from normandy_lab.rules.cobra.data import ARMIES as ALLIED_ARMIES

SP_COST = {"allied": 1, "german": 2}  # 11.0a-b
ARMIES = {**ALLIED_ARMIES, "DE": "DE"}  # 2.3.4, 8.1d-e; SP pools 11.2


def odds(attack: int, defense: int) -> str:
    """Return the odds of an attack, rounded in the defender's favour (8.4): ``"2:1"``, ``"1:2"``."""
    if defense <= 0:
        return "automatic"
    if attack <= 0:
        return "none"
    if attack >= defense:
        return f"{attack // defense}:1"
    return f"1:{math.ceil(defense / attack)}"


# 14.4: naval support points by game turn (GT 1: 0; GTs 2-3: 6; GTs 4-10: 3; GTs 11-27: 2), at most one
# usable in storms; an attack within 3 hexes of an all-sea hex of map B on or west of its column 48 shifts
# one column per NSP, within 4-6 hexes per two NSP (14.4c-d); never from map A's west coast.
NAVAL_RANGES = ((3, 1), (6, 2))  # (hexes, NSP a shift)
NAVAL_WEST_OF = 48


def naval_points(gt: int, weather: str) -> int:
    """Return the naval support points the Allies may use in game turn ``gt`` (14.4)."""
    points = 0 if gt <= 1 else 6 if gt <= 3 else 3 if gt <= 10 else 2 if gt <= 27 else 0
    return min(points, 1) if weather == "Storm" else points


def naval_reach(system: str) -> np.ndarray:
    """Return, per hex, the hexes to the nearest all-sea hex of map B on or west of its column 48 (14.4)."""
    gmap = game_map(system)
    sheets, cols, _ = gmap.printed
    sea = np.nonzero(
        (sheets == "B") & (cols <= NAVAL_WEST_OF) & (gmap.terrain.hexes["terrain"].to_numpy() == "All Sea")
    )[0]
    q, r = gmap.grid.q, gmap.grid.r
    best = np.full(len(q), 10**6)
    for start in range(0, len(sea), 256):  # in blocks, to keep the distance table small
        block = sea[start : start + 256]
        dq = q[:, None] - q[block][None, :]
        dr = r[:, None] - r[block][None, :]
        distance = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr)).min(axis=1)
        best = np.minimum(best, distance)
    return best


def naval_words(distance: int) -> str:
    """Say what naval support an attack at ``distance`` from the qualifying sea can have (14.4c-d)."""
    for reach, cost in NAVAL_RANGES:
        if distance <= reach:
            return f"{cost} NSP a column shift, at most two NSP (14.4b-d)"
    return "out of naval range (14.4c-d)"


def _defense(state: GameState, defenders: list[Any], report: Any) -> int:
    """Return a hex's defence strength: its combat units'; HQs add nothing to them (9.1d).

    9.1d: an HQ stacked with a combat unit contributes no strength to the defence; HQs attacked alone in
    a hex defend with one (their strength by :meth:`unit_strength`, a step of 1).
    """
    rules = state.rules
    combat_units = [u for u in defenders if u.hq is None]
    counted = combat_units or defenders
    return sum(rules.unit_strength(state, u, report[u.id].general)[1] for u in counted)


def possible_attacks(state: GameState, side: str) -> list[dict[str, Any]]:
    """List the attacks ``side`` could make now, each with its odds with and without supply points."""
    # In-function: system.py imports this module at its top, so a top-level import here is a cycle.
    from normandy_lab.rules.cobra.system import city_hexes

    rules = state.rules
    g = grid(state.system)
    report = supply(state)
    by_hex = state.stacks()
    points = state.markers["supply_points"]
    reach = naval_reach(state.system) if side == "allied" else None
    cherbourg = {str(g.id_array[i]) for i in city_hexes(state.system, "Cherbourg")}
    out = []
    for hex_id, defenders in sorted(by_hex.items()):
        if defenders[0].side == side:
            continue
        near = [u for n in g.neighbors(hex_id) for u in by_hex.get(g.canonical(n), []) if u.side == side]
        near = [u for u in near if u.hq is None]  # 9.1: HQs lend shifts, not strength
        armies: dict[str, list] = {}
        for u in near:
            armies.setdefault(ARMIES[u.nationality], []).append(u)
        defense = _defense(state, defenders, report)
        for army, attackers in sorted(armies.items()):
            with_sp = sum(rules.unit_strength(state, u, report[u.id].general)[0] for u in attackers)
            without_sp = sum(rules.unit_strength(state, u, False)[0] for u in attackers)
            out.append(
                {
                    "defender_hex": hex_id,
                    "defenders": [u.id for u in defenders],
                    "army": army,
                    "attackers": [u.id for u in attackers],
                    "attack": with_sp,
                    "defense": defense,
                    "odds": odds(with_sp, defense),
                    "sp_cost": SP_COST[side],
                    "sp_in_pool": points.get(army, 0),
                    "odds_without_sp": odds(without_sp, defense),
                }
            )
            if reach is not None:
                out[-1]["naval_support"] = naval_words(int(reach[g.index(hex_id)]))
            drawing = [
                u.id for u in attackers if report[u.id].general and report[u.id].traced_id in cherbourg
            ]
            if side == "german" and drawing:
                out[-1]["cherbourg"] = (
                    f"{', '.join(drawing)} supplied from Cherbourg: one such attack a game turn (17.3.5g)"
                )
    return out
