"""Movement: ranges and validated moves, with the costs and allowances the state's rule system gives.

The core searches (a unit may not enter an enemy-occupied hex unless its rule system opens it,
``RuleSet.open_enemy_hexes``, and a refusal cites the game's own rule, ``rule_refs["enemy_hex"]``;
entering an enemy zone of control ends a move; a move of one hex is always allowed, using the whole
allowance); what a move does beyond placing the unit is the rule system's (``RuleSet.after_move``); the
rule system says what each step costs (``RuleSet.movement_costs``), what leaving an enemy zone of control
costs or whether it may (``RuleSet.leaving_ezoc_cost``) and the allowance (``RuleSet.movement_allowance``).
For The Battle for Normandy (:mod:`normandy_lab.rules.bfn.movement`):

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
* 7.5o -- an isolated mechanized unit (no line of any length to a friendly
  corps HQ) has an allowance of 2 and may not move in the Mechanized
  Movement Phase.
* 10.7 -- until July, Allied allowances are halved at night.
* 10.5 -- in the Mechanized Movement phase, mechanized units move at half
  their allowance (rounded up), mechanized recon units (light-blue MA) at
  their full allowance, others not at all.
* 11.2 -- German units lose the interdiction penalty of the map they start on.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from normandy_lab.engine.lines import in_play
from normandy_lab.engine.recent import Recent
from normandy_lab.engine.state import GameState, Unit, other_side
from normandy_lab.engine.supply import supply
from normandy_lab.engine.zoc import zoc_mask
from normandy_lab.errors import RefusedError
from normandy_lab.gamemap import game_map
from normandy_lab.grids import grid
from normandy_lab.network import edge_arrays


class IllegalMoveError(RefusedError):
    """A move the rules refuse; the message gives the reason and the rule."""


@dataclass
class MoveCheck:
    """The outcome of checking a move."""

    legal: bool
    cost: float
    allowance: float
    path: list[str]
    reason: str = ""


def allowance(state: GameState, unit: Unit, in_supply: bool = True, isolated: bool = False) -> float:
    """Return the unit's movement allowance now, as the state's rule system says (``movement_allowance``).

    BfN: after interdiction (11.2), the Mechanized Movement phase (10.5), night (10.7), supply (7.5) and
    isolation (7.5o); :func:`normandy_lab.rules.bfn.movement.allowance`.
    """
    return float(state.rules.movement_allowance(state, unit, in_supply, isolated))


class _EdgeCosts:
    """The cost of every move between adjacent hexes for one unit, looked up by the hex left.

    Costs are computed for all edges at once with numpy; the lists of moves
    out of a hex (and their notes) are built only for the hexes a search visits.
    """

    def __init__(
        self,
        order: np.ndarray,
        indptr: np.ndarray,
        dst: np.ndarray,
        cost: np.ndarray,
        note_parts: tuple[Any, ...],
    ) -> None:
        self._order, self._indptr, self._dst, self._cost = order, indptr, dst, cost
        self._note_parts = note_parts

    def get(self, here: int, default: Iterable[tuple[int, float, str]] = ()) -> list[tuple[int, float, str]]:
        lo, hi = self._indptr[here], self._indptr[here + 1]
        if lo == hi:
            return list(default)
        label, on_road, on_rail, feature = self._note_parts
        out = []
        for k in self._order[lo:hi]:
            cost = self._cost[k]
            if np.isnan(cost):
                continue  # prohibited
            b = int(self._dst[k])
            if on_road[k]:
                note = "road"
            elif on_rail[k]:
                note = "railway"
            elif feature[k]:
                note = f"{label[b]} across {feature[k]}"
            else:
                note = str(label[b])
            out.append((b, float(cost), note))
        return out

    def __getitem__(self, here: int) -> list[tuple[int, float, str]]:
        return self.get(here)


def _edge_order(system: str) -> tuple[np.ndarray, np.ndarray]:
    """Edges sorted by the hex they leave, with CSR offsets (the map's own table)."""
    return game_map(system).edge_order


def lookup_costs(values: np.ndarray, table: dict[Any, Any], all_value: float) -> np.ndarray:
    """Map labels to costs: a number, ``"all"`` (the whole allowance) or missing (prohibited, NaN)."""
    out = np.full(len(values), np.nan)
    for label in set(values.tolist()):
        cost = table.get(label)
        if cost is not None:
            out[values == label] = all_value if cost == "all" else float(cost)
    return out


def _costs(state: GameState, unit: Unit, in_supply: bool, isolated: bool = False) -> tuple[_EdgeCosts, float]:
    """Return the cost of every move for ``unit``: the rule system's (``RuleSet.movement_costs``), on the map.

    The core closes what no game lets a unit cross: all-sea hexsides and the sheets not in play; and adds
    the analyst's what-if interdiction as an MP cost where the state's option says so.
    """
    ma = allowance(state, unit, in_supply, isolated)
    costs = state.rules.movement_costs(state, unit, in_supply, ma)
    e = edge_arrays(state.system)
    cost = np.array(costs.cost, dtype=float)
    cost[e.all_sea] = np.nan
    cost[~in_play(state.system, state.maps)[e.dst]] = np.nan  # a sheet not in play is not there
    what_if = state.options.get("what_if_interdiction", "block")
    if what_if != "block" and state.interdicted_hexes:
        g = grid(state.system)
        blocked = np.zeros(len(g), dtype=bool)
        blocked[[g.index(h) for h in state.interdicted_hexes]] = True
        cost = np.where(blocked[e.dst], cost + float(str(what_if).lstrip("+")), cost)
    order, indptr = _edge_order(state.system)
    notes = (costs.label, costs.on_road, costs.on_rail, costs.feature)
    return _EdgeCosts(order, indptr, e.dst, cost, notes), ma


def movement_range(
    state: GameState, unit_id: str, in_supply: bool | None = None, isolated: bool | None = None
) -> dict[str, float]:
    """Return every hex the unit can reach this phase, with the MPs it costs (5.2, 10.x, 7.5, 7.5o)."""
    unit = state.unit(unit_id)
    in_supply, isolated = _supply_state(state, unit_id, in_supply, isolated)
    reach, _ = _reach(state, unit, in_supply, isolated)
    g = grid(state.system)
    may_end = state.rules.end_problem  # a hex a unit may cross but not stop in (Cobra 5.9) is not in range
    return {str(g.id_array[i]): cost for i, (cost, _) in reach.items() if may_end(state, unit, i) is None}


def _supply_state(
    state: GameState, unit_id: str, in_supply: bool | None, isolated: bool | None
) -> tuple[bool, bool]:
    """Return the unit's General Supply and isolation at the start of its move (7.1, 7.5o)."""
    if in_supply is None or isolated is None:
        report = supply(state)[unit_id]
        in_supply = report.general if in_supply is None else in_supply
        isolated = report.isolated if isolated is None else isolated
    return bool(in_supply), bool(isolated)


#: The searches of the last few (state, unit) asked about: the explorer draws a selected unit's range, then
#: a move of it checks the same search, and an undo draws the range of a state drawn a moment ago.
_RANGES: Recent[tuple[dict[int, tuple[float, int | None]], float]] = Recent(8)


def _reach(
    state: GameState, unit: Unit, in_supply: bool, isolated: bool
) -> tuple[dict[int, tuple[float, int | None]], float]:
    """Return :func:`_search` for a unit of ``state``, kept for the last few asked (read, never written)."""
    return _RANGES.get(
        state, lambda: _search(state, unit, in_supply, isolated), key=(unit.id, in_supply, isolated)
    )


def _search(
    state: GameState, unit: Unit, in_supply: bool, isolated: bool = False
) -> tuple[dict[int, tuple[float, int | None]], float]:
    g = grid(state.system)
    edges, ma = _costs(state, unit, in_supply, isolated)
    enemy_zoc = zoc_mask(state, other_side(unit.side))
    stops = state.rules.move_stops(state, unit)  # where the game ends a move besides (Cobra 14.3i)
    forbidden = state.rules.forbidden_steps(state, unit) or ()  # steps the game refuses (Cobra 5.1e)
    enemy = np.zeros(len(g), dtype=bool)
    friends_here = 0
    for u in state.units:
        if u.status != "active":
            continue
        if u.side != unit.side:
            enemy[g.index(u.hex)] = True
        elif u.hex == unit.hex and u.id != unit.id:
            friends_here += 1
    opened = state.rules.open_enemy_hexes(state, unit)  # enemy hexes the game lets it enter (Cobra 5.1b)
    if opened is not None:
        enemy &= ~opened
    start = g.index(unit.hex)
    # What leaving an enemy ZOC costs, or None where the rules forbid it (BfN 5.2: +2 MP; Cobra 5.1d: no).
    leaving = state.rules.leaving_ezoc_cost(state, unit, friends_here > 0)
    disengaging = enemy_zoc[start] and leaving is not None  # the move starts by leaving an EZOC
    after = state.rules.disengaging(state, unit)
    best: dict[int, tuple[float, int | None]] = {start: (0.0, None)}
    heap = [(0.0, start)]
    while heap:
        cost, here = heapq.heappop(heap)
        if cost > best[here][0] + 1e-9:
            continue
        if here != start and (enemy_zoc[here] or (stops is not None and stops[here])):
            continue  # entering an EZOC ends the move (5.2), or a hex the game says
        for there, step, _ in edges.get(here, []):
            if enemy[there] or (here, there) in forbidden:
                continue
            extra = 0.0
            if here == start and enemy_zoc[start]:
                if leaving is None or enemy_zoc[there]:
                    continue  # no EZOC to EZOC (BfN 5.2), or no leaving at all
                extra = leaving
            elif disengaging and not after.reenter and enemy_zoc[there]:
                continue  # no EZOC again after disengaging (Cobra 5.5a)
            total = cost + step + extra
            if total > ma + 1e-9:
                if here != start:
                    continue
                always = after.always_into is not None and disengaging and bool(after.always_into[there])
                if disengaging and not after.one_hex_minimum and not always:
                    continue  # leaving an EZOC takes its MP (Cobra 5.0, 5.5b)
                total = ma  # 10.3: a move of one hex is always allowed; it uses the whole allowance
            if total < best.get(there, (math.inf, None))[0] - 1e-9:
                best[there] = (total, here)
                heapq.heappush(heap, (total, there))
    best.pop(start)
    return best, ma


def check_move(
    state: GameState,
    unit_id: str,
    destination: str,
    in_supply: bool | None = None,
    isolated: bool | None = None,
) -> MoveCheck:
    """Check a move to ``destination``: cost, allowance, path and, if refused, why."""
    g = grid(state.system)
    unit = state.unit(unit_id)
    target = g.index(destination)
    in_supply, isolated = _supply_state(state, unit_id, in_supply, isolated)
    reach, ma = _reach(state, unit, in_supply, isolated)
    if target == g.index(unit.hex):
        return MoveCheck(False, 0.0, ma, [unit.hex], "the unit is already there")
    opened = state.rules.open_enemy_hexes(state, unit)
    for u in state.units:
        if u.side != unit.side and u.status == "active" and g.index(u.hex) == target:
            if opened is not None and opened[target]:
                break
            rule = state.rules.rule_refs.get("enemy_hex")  # the game's own rule, never another game's
            cited = f" ({rule})" if rule else ""
            return MoveCheck(
                False, math.inf, ma, [], f"{destination} is occupied by the enemy ({u.id}){cited}"
            )
    if ma <= 0:
        return MoveCheck(False, math.inf, ma, [], f"{unit.id} has no movement allowance this phase")
    problem = state.rules.end_problem(state, unit, target)
    if problem:
        return MoveCheck(False, math.inf, ma, [], problem)
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
            if isolated and unit.mechanized:
                why += " (isolated: 2 MP, 7.5o)"
            elif not in_supply:
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
        previous = reach[path[-1]][1]
        assert previous is not None  # only the start has no predecessor, and the walk stops there
        path.append(previous)
    path.reverse()
    return MoveCheck(True, reach[target][0], ma, [str(g.id_array[i]) for i in path])


def move_unit(state: GameState, unit_id: str, destination: str) -> GameState:
    """Return the state after a legal move; raise :class:`IllegalMoveError` with the reason otherwise."""
    g = grid(state.system)
    check = check_move(state, unit_id, destination)
    if not check.legal:
        raise IllegalMoveError(f"{unit_id} cannot move to {destination}: {check.reason}")
    canonical = g.canonical(destination)
    units = tuple(replace(u, hex=canonical) if u.id == unit_id else u for u in state.units)
    moved = state.evolve(
        units=units, log=state.log.then(f"move {unit_id} to {canonical} ({check.cost:g} MP)")
    )
    # What the game's rules do next (Cobra 9.1b).
    after: GameState = state.rules.after_move(moved, unit_id, check.path)
    return after
