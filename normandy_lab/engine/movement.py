"""Movement: ranges and validated moves (BfN 10.x, 5.2, 7.5, 11.2).

Rules implemented:

* 10.1 -- a unit may not enter an enemy-occupied hex; unused MPs are lost.
* 10.2 -- following a road or railway uses its rate and negates the hex's
  terrain; an out-of-supply unit may not use the road rate, but the road
  still negates the terrain (7.5).
* 10.3 -- a unit may always move one hex unless the terrain forbids it or
  EZOCs restrict it.
* 10.6 (reconstructed TEC, :mod:`normandy_lab.rules.bfn`) -- terrain
  costs; Flooded/Marsh takes an infantry unit's whole allowance and is
  closed to mechanized units except by road; streams +2 MP and closed to
  vehicles; major rivers take an infantry unit's whole allowance and are
  closed to the others except over a bridge.
* 5.2 -- entering an EZOC ends the move; leaving one costs +2 MP (not at
  night, nor when a friendly unit stays behind: holding the line); a unit
  may not move from one EZOC directly into another.
* 7.5 -- out of supply: movement allowance halved (rounded up).
* 10.7 -- until July, Allied allowances are halved at night.
* 10.5 -- in the Mechanized Movement phase, mechanized units move at half
  their allowance.
* 11.2 -- German units lose the interdiction penalty of the map they start on.
"""

from __future__ import annotations

import datetime as dt
import heapq
import math
from dataclasses import dataclass, replace

import numpy as np

from normandy_lab.engine.interdiction import interdiction_penalty
from normandy_lab.engine.state import GameState, Unit, other_side
from normandy_lab.engine.zoc import zoc_mask
from normandy_lab.grid import grid
from normandy_lab.network import edge_arrays
from normandy_lab.rules import ruleset
from normandy_lab.terrain import ROAD_CLASSES, terrain_map


class IllegalMoveError(ValueError):
    """A move the rules refuse; the message gives the reason and the rule."""


@dataclass
class MoveCheck:
    """The outcome of checking a move."""

    legal: bool
    cost: float
    allowance: float
    path: list[str]
    reason: str = ""


def allowance(state: GameState, unit: Unit, in_supply: bool = True) -> float:
    """Return the unit's movement allowance now, after interdiction, supply, night and phase."""
    from normandy_lab.engine.sequence import current_phase

    rules = ruleset(state.system)
    ma = float(unit.ma if unit.ma is not None else rules.unit_defaults[unit.type]["ma"])
    ma = max(0.0, ma - interdiction_penalty(state, unit))  # 11.2: before any other effect
    phase = current_phase(state)
    if phase.kind == "mech_movement":
        ma = math.ceil(ma / 2) if unit.mechanized else 0.0
    night_until = dt.date.fromisoformat(state.options.get("night_halving_until", "1944-07-01"))
    if state.turn == "Night" and unit.side == "allied" and state.date < night_until:
        ma = math.ceil(ma / 2)
    if not in_supply:
        ma = math.ceil(ma / 2)
    return float(ma)


def _costs(state: GameState, unit: Unit, in_supply: bool):
    rules = ruleset(state.system)
    g = grid(state.system)
    tmap = terrain_map(state.system, progress=False)
    e = edge_arrays(state.system)
    cls = "mechanized" if unit.mechanized else "infantry"
    terrain = tmap.hexes["terrain"].to_numpy()
    settlement = tmap.hexes["settlement"].to_numpy()
    table = rules.terrain_cost[cls]
    hexside = rules.terrain_cost["hexside"][cls]
    names = tmap.hexsides["water_feature"].to_numpy()
    destroyed = (
        tmap.hexsides.index.isin(list(state.destroyed_bridges))
        if state.destroyed_bridges
        else np.zeros(len(names), dtype=bool)
    )
    bridged = (e.road_bridge | e.rail_bridge) & ~destroyed[e.side]
    ma = allowance(state, unit, in_supply)
    out: dict[int, list[tuple[int, float, str]]] = {}
    for k in range(len(e)):
        if e.all_sea[k]:
            continue
        a, b = int(e.src[k]), int(e.dst[k])
        t = "City" if settlement[b] == "City" else terrain[b]
        on_road = e.road[k] > 0 and bridged[k] if e.water[k] else e.road[k] > 0
        on_rail = bool(e.railway[k]) and (bridged[k] or not e.water[k])
        if on_road or on_rail:
            # Out of supply, the road or railway still negates the terrain (7.5, 10.2).
            cost = rules.road_cost[ROAD_CLASSES[e.road[k]]] if in_supply and on_road else 1.0
            note = "road" if on_road else "railway"
        else:
            base = table.get(t)
            if base is None:
                continue  # prohibited terrain
            cost = ma if base == "all" else float(base)
            note = t
            feature = names[e.side[k]]
            if e.water[k] and feature:
                extra = hexside.get(feature)
                if extra is None:
                    continue  # vehicles may not cross (10.6)
                cost = ma if extra == "all" else cost + float(extra)
                note = f"{t} across {feature}"
        if (
            state.options.get("what_if_interdiction", "block") != "block"
            and g._ids[b] in state.interdicted_hexes
        ):
            cost += float(str(state.options["what_if_interdiction"]).lstrip("+"))
        out.setdefault(a, []).append((b, cost, note))
    return out, ma


def movement_range(state: GameState, unit_id: str, in_supply: bool | None = None) -> dict[str, float]:
    """Return every hex the unit can reach this phase, with the MPs it costs (5.2, 10.x)."""
    from normandy_lab.engine.supply import supply

    unit = state.unit(unit_id)
    if in_supply is None:
        in_supply = supply(state)[unit_id].general
    reach, _ = _search(state, unit, in_supply)
    g = grid(state.system)
    return {str(g._ids[i]): cost for i, (cost, _) in reach.items()}


def _search(state: GameState, unit: Unit, in_supply: bool):
    g = grid(state.system)
    edges, ma = _costs(state, unit, in_supply)
    enemy_zoc = zoc_mask(state, other_side(unit.side))
    enemy = np.zeros(len(g), dtype=bool)
    friends_here = 0
    for u in state.units:
        if u.status != "active":
            continue
        if u.side != unit.side:
            enemy[g.index(u.hex)] = True
        elif u.hex == unit.hex and u.id != unit.id:
            friends_here += 1
    start = g.index(unit.hex)
    night = state.turn == "Night"
    holding = friends_here > 0  # 5.2: a friendly unit stays behind
    best: dict[int, tuple[float, int | None]] = {start: (0.0, None)}
    heap = [(0.0, start)]
    while heap:
        cost, here = heapq.heappop(heap)
        if cost > best[here][0] + 1e-9:
            continue
        if here != start and enemy_zoc[here]:
            continue  # entering an EZOC ends the move (5.2)
        for there, step, _ in edges.get(here, []):
            if enemy[there]:
                continue
            extra = 0.0
            if here == start and enemy_zoc[start]:
                if enemy_zoc[there]:
                    continue  # no EZOC to EZOC (5.2)
                if not night and not holding:
                    extra = 2.0
            total = cost + step + extra
            if total > ma + 1e-9:
                if here != start:
                    continue
                total = ma  # 10.3: a move of one hex is always allowed; it uses the whole allowance
            if total < best.get(there, (math.inf, None))[0] - 1e-9:
                best[there] = (total, here)
                heapq.heappush(heap, (total, there))
    best.pop(start)
    return best, ma


def check_move(state: GameState, unit_id: str, destination: str, in_supply: bool | None = None) -> MoveCheck:
    """Check a move to ``destination``: cost, allowance, path and, if refused, why."""
    from normandy_lab.engine.supply import supply

    g = grid(state.system)
    unit = state.unit(unit_id)
    target = g.index(destination)
    if in_supply is None:
        in_supply = supply(state)[unit_id].general
    reach, ma = _search(state, unit, in_supply)
    if target == g.index(unit.hex):
        return MoveCheck(False, 0.0, ma, [unit.hex], "the unit is already there")
    for u in state.units:
        if u.side != unit.side and u.status == "active" and g.index(u.hex) == target:
            return MoveCheck(
                False, math.inf, ma, [], f"{destination} is occupied by the enemy ({u.id}) (10.1)"
            )
    if ma <= 0:
        return MoveCheck(False, math.inf, ma, [], f"{unit.id} has no movement allowance this phase")
    if target not in reach:
        unlimited = replace(unit, ma=10_000)
        far, _ = _search(
            state.evolve(units=tuple(unlimited if u.id == unit.id else u for u in state.units)),
            unlimited,
            in_supply,
        )
        if target in far:
            need = far[target][0]
            why = f"it costs {need:g} MP and {unit.id} has {ma:g} this phase"
            if not in_supply:
                why += " (halved: out of supply, 7.5)"
            return MoveCheck(False, need, ma, [], why)
        return MoveCheck(
            False,
            math.inf,
            ma,
            [],
            (
                f"{destination} cannot be reached: prohibited terrain, water without a bridge "
                "for this unit, or enemy zones of control (5.2, 10.6)"
            ),
        )
    start = g.index(unit.hex)
    path = [target]
    while path[-1] != start:
        path.append(reach[path[-1]][1])
    path.reverse()
    return MoveCheck(True, reach[target][0], ma, [str(g._ids[i]) for i in path])


def move_unit(state: GameState, unit_id: str, destination: str) -> GameState:
    """Return the state after a legal move; raise :class:`IllegalMoveError` with the reason otherwise."""
    g = grid(state.system)
    check = check_move(state, unit_id, destination)
    if not check.legal:
        raise IllegalMoveError(f"{unit_id} cannot move to {destination}: {check.reason}")
    canonical = g.canonical(destination)
    units = tuple(replace(u, hex=canonical) if u.id == unit_id else u for u in state.units)
    return state.evolve(units=units, log=(*state.log, f"move {unit_id} to {canonical} ({check.cost:g} MP)"))
