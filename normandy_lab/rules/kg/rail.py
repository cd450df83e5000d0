"""German rail movement and its interdiction (OVERLORD 26.4.3, 26.4.4).

* 26.4.3: the German Rail Capacity (a marker, ``rail_capacity``; 22.7 sets it at 2, 22.6.8 leaves it on the
  June 6 card, a GAP) is how many units the Rail Reinforcement box may hold.  A unit moved by rail is placed
  in a city hex, or a town hex with four or more roads leading out, that is German controlled, traceable to a
  German OMM box, and at least 4 hexes from any Allied unit (:func:`rail_destinations`).
* 26.4.4: at the end of the German Rail Movement segment the Allies roll two dice: at or under the Rail
  Interdiction level, the capacity drops by one and the level goes back to 1; above it, the level rises by the
  Interdiction value of the air unit on Rail Interdiction, or by 1 without one (:func:`interdiction_roll`).

The air unit's Interdiction value is printed on its counter (not in the text): the analyst gives it
(``air_rail_value``) and, where it is not given, the level rises by 1 and the log says why.  The level's
first space is INFERRED as 1 (the level the rule resets it to).  Each rail move is rolled as 26.4.3 prints
it (:func:`rail_move`); only the Rail Reinforcement box's own modifiers, printed on the map, are not in the
text (the reading ``rail_box_modifier``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from normandy_lab.engine.lines import Situation
from normandy_lab.engine.sequence import current_phase
from normandy_lab.engine.state import GameState
from normandy_lab.engine.zoc import hex_control
from normandy_lab.errors import RefusedError
from normandy_lab.gamemap import game_map
from normandy_lab.grids import grid
from normandy_lab.rules.kg.data import turn_of
from normandy_lab.rules.kg.supply import FAR, _net, _omm_graph

TOWN_ROADS = 4  # 26.4.3: a town hex with this many roads leading out may receive a unit by rail
ALLIED_CLEARANCE = 4  # 26.4.3: at least this many hexes from any Allied unit


def rail_capacity_now(state: GameState) -> int | None:
    """Return the German Rail Capacity in use now (26.4.3), None where the scenario does not give it.

    26.10.7: a rail point that brought Cherbourg SP this turn flips the Rail Capacity marker "to its -1 side"
    until "the end of the German Rail Movement Segment" (the German Movement phase here): one unit fewer
    may stand in the Rail Reinforcement box until then.
    """
    capacity = state.markers["rail_capacity"]
    if capacity is None or state.markers["cherbourg_rail_on"] != state.date.isoformat():
        return capacity
    names = [p.name for p in state.rules.sequence[state.turn]]
    if state.phase_index <= names.index("German Movement"):
        return max(capacity - 1, 0)
    return capacity


def roads_out(system: str) -> np.ndarray:
    """Return how many road hexsides lead out of each hex (26.4.3 counts a town's roads)."""
    gmap = game_map(system)
    e = gmap.edges
    out = np.zeros(len(gmap.grid), dtype=np.int64)
    np.add.at(out, e.src[(e.road > 0) & ~e.all_sea], 1)
    return out


def rail_destinations(state: GameState) -> dict[str, str]:
    """Return the hexes a German unit may be placed in by rail now (26.4.3), each with why it qualifies.

    A city hex, or a town hex with four or more roads leading out; German controlled (not taken by the
    Allies: held, or in their ZOC alone, as for supply); traceable to a German-controlled off-map box by a
    line of any length (KG 11.2.3 RECONSTRUCTED, as a corps HQ's); and at least 4 hexes from every Allied
    unit on the map.
    """
    gmap = game_map(state.system)
    g, hexes = gmap.grid, gmap.terrain.hexes
    settlement = hexes["settlement"].to_numpy()
    roads = roads_out(state.system)
    towns = (settlement == "City") | ((settlement == "Town") & (roads >= TOWN_ROADS))
    candidates = np.nonzero(towns)[0]
    situation = Situation.of(state)
    held = hex_control(state, situation.zoc, situation.occupied, at=candidates)
    net = _net(state, "german", situation)
    graph, omm = _omm_graph(state, road_only=False)
    blocked = graph.node_mask(net.blocked)
    dist, _ = graph.search(np.array([omm]), blocked)
    reach, _ = graph.from_origins(dist, blocked, candidates)
    allied = [u.hex for u in state.units_of("allied") if u.status == "active"]
    found: dict[str, str] = {}
    names = hexes["builtup_name"].to_numpy()
    for i, owner, line in zip(candidates.tolist(), held.tolist(), reach.tolist(), strict=True):
        hex_id = g.id_array[i]
        if owner == "allied" or line >= FAR:
            continue
        if any(g.distance(hex_id, a) < ALLIED_CLEARANCE for a in allied):
            continue
        kind = "city" if settlement[i] == "City" else f"town with {roads[i]} roads out"
        place = f" ({names[i]})" if names[i] else ""
        found[hex_id] = (
            f"{kind}{place}: German, traces to an off-map box, {ALLIED_CLEARANCE}+ hexes from Allied units"
        )
    return found


def interdiction_roll(state: GameState) -> GameState:
    """Roll the Allied two dice against the Rail Interdiction level as German rail movement ends (26.4.4).

    Nothing is rolled while the capacity is unknown (``rail_capacity`` None) or already 0 (nothing left to
    reduce).  Two dice from the state's seeded generator: at or under the level, the capacity drops by one
    and the level resets to 1; else the level rises by the air unit's Interdiction value on Rail
    Interdiction (``air_rail`` with ``air_rail_value``), or by 1 without an air unit there.
    """
    capacity = state.markers["rail_capacity"]
    if capacity is None or capacity <= 0:
        return state
    level = state.markers["rail_interdiction_level"]
    rng = state.rng()
    dice = int(rng.integers(1, 7)) + int(rng.integers(1, 7))
    gt = turn_of(state.date)
    if dice <= level:
        return state.after_draws(2).evolve(
            rail_capacity=capacity - 1,
            rail_interdiction_level=1,
            log=state.log.then(
                f"Turn {gt}: Rail Interdiction rolled {dice} against level {level}: German Rail Capacity "
                f"{capacity} -> {capacity - 1}, the level back to 1 (26.4.4)"
            ),
        )
    value = state.markers["air_rail_value"]
    if state.markers["air_rail"] and value is not None:
        rise, why = value, f"the Interdiction value of the air unit on Rail Interdiction ({value})"
    elif state.markers["air_rail"]:
        rise, why = 1, "1: the air unit's Interdiction value is on its counter, not given (air_rail_value)"
    else:
        rise, why = 1, "1, no air unit on Rail Interdiction"
    return state.after_draws(2).evolve(
        rail_interdiction_level=level + rise,
        log=state.log.then(
            f"Turn {gt}: Rail Interdiction rolled {dice} against level {level}: no effect; the level rises "
            f"by {why}, to {level + rise} (26.4.4)"
        ),
    )


def rail_words(state: GameState) -> dict[str, Any]:
    """Say what German rail movement may do this turn (26.4.3, 26.4.4) for the German Movement phase."""
    capacity = rail_capacity_now(state)
    places = rail_destinations(state)
    flipped = capacity is not None and capacity != state.markers["rail_capacity"]
    return {
        "rail_capacity": "not given by the scenario (a June 6 card marker, not in the text)"
        if capacity is None
        else f"{capacity} units may stand in the Rail Reinforcement box (26.4.3)"
        + (
            "; the marker is on its -1 side: a rail point brought Cherbourg SP this turn (26.10.7)"
            if flipped
            else ""
        ),
        "rail_interdiction_level": f"{state.markers['rail_interdiction_level']}: two dice at or under it as "
        "rail movement ends cut the capacity by one (26.4.4)",
        "rail_destinations": places,
        "rail_moves": "each unit moved by rail rolls a die plus the Rail Interdiction air unit's value: 5 or "
        "less stays, 6 or more goes back to the box ({'op': 'marker', 'name': 'rail_move', 'value': "
        "[{'unit': id, 'to': hex}]}; 26.4.3); the box's own modifiers are on the map: "
        "the reading rail_box_modifier",
    }


RAIL_STAYS_AT_MOST = 5  # 26.4.3: a modified roll of 5 or less, the unit stays where rail placed it


def rail_move(state: GameState, orders: Any) -> GameState:
    """Move German units by rail, one order after another (26.4.3): ``[{"unit": id, "to": hex}, ...]``."""
    if not isinstance(orders, list) or not orders:
        raise RefusedError('rail_move is a list of {"unit": id, "to": hex}, in the order they move (26.4.3)')
    for order in orders:
        state = _rail_move_one(state, order)
    return state


def _rail_move_one(state: GameState, order: Any) -> GameState:
    """Move a German unit by rail in the German Movement phase (26.4.3), with the state's seeded die.

    ``order``: ``{"unit": id, "to": hex}``, a German unit off the map (waiting in the Rail Reinforcement
    box: placed there in the German Replacement Segment) and a destination :func:`rail_destinations`
    allows.  At most as many units a turn as the Rail Capacity in use (:func:`rail_capacity_now`).  One die,
    plus the Interdiction value of the air unit on Rail Interdiction (``air_rail_value``), plus the box's
    own modifiers (printed on the map, not in the text: the reading ``rail_box_modifier``, 0 by default);
    General Air Interdiction's bold number is read on its table, not in the text: not added, and the log
    says so.  5 or less: the unit stays on the hex; 6 or more: it goes back to the box.
    """
    from dataclasses import replace


    if current_phase(state).name != "German Movement":
        raise RefusedError("units move by rail in the German Rail Movement Segment (26.4.3): German Movement")
    if not isinstance(order, dict) or not {"unit", "to"} <= set(order):
        raise RefusedError('rail_move is {"unit": id, "to": hex} (26.4.3)')
    uid = str(order["unit"])
    unit = next((u for u in state.units if u.id == uid), None)
    if unit is None or unit.side != "german" or unit.status != "off_map":
        raise RefusedError(f"{uid} is not a German unit off the map, in the Rail Reinforcement box (26.4.3)")
    capacity = rail_capacity_now(state)
    if capacity is None:
        raise RefusedError("the German Rail Capacity is not given in this scenario: set rail_capacity first")
    moves = state.markers["rail_moves"]
    done = moves.get("n", 0) if moves.get("on") == state.date.isoformat() else 0
    if done >= capacity:
        raise RefusedError(f"the Rail Capacity ({capacity}) is used up this turn (26.4.3)")
    to = grid(state.system).canonical(str(order["to"]))
    places = rail_destinations(state)
    if to not in places:
        raise RefusedError(
            f"{to} takes no unit by rail: a German city hex, or a town hex with {TOWN_ROADS} or more roads "
            f"out, traceable to a German off-map box and {ALLIED_CLEARANCE}+ hexes from Allied units (26.4.3)"
        )
    air = 0
    if state.markers["air_rail"]:
        if state.markers["air_rail_value"] is None:
            raise RefusedError(
                "an Allied air unit is on Rail Interdiction: set its Interdiction value (air_rail_value), "
                "added to each rail move's die (26.4.3, 26.4.4)"
            )
        air = int(state.markers["air_rail_value"])
    box = int(state.options.get("rail_box_modifier", state.rules.options["rail_box_modifier"]))
    die = int(state.rng().integers(1, 7))
    total = die + air + box
    stays = total <= RAIL_STAYS_AT_MOST
    units = tuple(
        replace(u, hex=to, status="active", box=None) if u.id == uid and stays else u for u in state.units
    )
    words = (
        f"{die}" + (f" +{air} Rail Interdiction" if air else "") + (f" {box:+d} box (reading)" if box else "")
    )
    return state.after_draws(1).evolve(
        units=units,
        rail_moves={"on": state.date.isoformat(), "n": done + 1},
        log=state.log.then(
            f"{uid} by rail to {to}: rolled {words} = {total}: "
            + ("stays on the map" if stays else "back to the Rail Reinforcement box")
            + " (26.4.3; the Rail Reinforcement box's own modifiers are on the map, not in the text: "
            f"rail_box_modifier={box}; General Air Interdiction's bold number is on its table: not added)"
        ),
    )
