"""An analyst's edits of a state (what-ifs).  Each returns a new state and logs what it did.

Moves go through :func:`normandy_lab.engine.movement.move_unit`, which checks
them against the rules and refuses an illegal one with the reason.
"""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from typing import Any

from normandy_lab.engine import scenario as scenario_file
from normandy_lab.engine.interdiction import clear_interdiction, interdict_hex
from normandy_lab.engine.movement import move_unit
from normandy_lab.engine.scenario import Checker, ScenarioError, unit_from_entry
from normandy_lab.engine.sequence import next_phase
from normandy_lab.engine.state import GameState, Unit, check_unit_id
from normandy_lab.errors import RefusedError
from normandy_lab.grids import grid
from normandy_lab.schemas.study import EDIT, check_game_fields
from normandy_lab.schemas.validation import validate
from normandy_lab.terrain import terrain_map

__all__ = [
    "add_unit",
    "apply_edit",
    "clear_interdiction",
    "destroy_bridge",
    "interdict_hex",
    "move_unit",
    "remove_unit",
    "repair_bridge",
    "set_air",
    "set_weather",
]


def _side_key(state: GameState, a: str, b: str) -> str:
    g = grid(state.system)
    a, b = g.canonical(a), g.canonical(b)
    if g.distance(a, b) != 1:
        raise RefusedError(
            f"{a} and {b} are not adjacent: a bridge is on the hexside between two adjacent hexes"
        )
    return f"{a}|{b}" if a < b else f"{b}|{a}"


def destroy_bridge(state: GameState, a: str, b: str) -> GameState:
    """Destroy the bridge on the a|b hexside (14.1, 11.3): the water there is unbridged."""
    key = _side_key(state, a, b)
    side = terrain_map(state.system, progress=False).hexsides.loc[key]
    if not (side["road_bridge"] or side["rail_bridge"]):
        raise RefusedError(
            f"there is no bridge on the {key} hexside "
            f"(water: {side['water'] or 'none'}, road: {side['road']})"
        )
    return state.evolve(
        destroyed_bridges=state.destroyed_bridges | {key}, log=state.log.then(f"destroy bridge {key}")
    )


def repair_bridge(state: GameState, a: str, b: str) -> GameState:
    """Repair a destroyed bridge (14.2)."""
    key = _side_key(state, a, b)
    if key not in state.destroyed_bridges:
        raise RefusedError(f"the bridge on {key} is not destroyed")
    return state.evolve(
        destroyed_bridges=state.destroyed_bridges - {key}, log=state.log.then(f"repair bridge {key}")
    )


def set_weather(state: GameState, weather: str) -> GameState:
    """Set the day's weather (an analyst's what-if; 8.0 lists the weathers)."""
    rules = state.rules
    if weather not in rules.weather_effects:
        raise RefusedError(f"unknown weather {weather!r}; choose one of {', '.join(rules.weather_effects)}")
    return state.evolve(weather=weather, log=state.log.then(f"weather {weather}"))


def set_air(
    state: GameState, allied: dict[str, int] | None = None, german_aa: dict[str, int] | None = None
) -> GameState:
    """Set Allied air points and German AA points per map (BfN 11.1).

    Only a game whose state keeps air points by map sheet (The Battle for Normandy) has this edit; the
    others keep their air as their own markers (KG's 26.15 allocations, Cobra's carpet bombing), set by
    the marker edit.
    """
    if "air_points" not in state.markers or "aa_points" not in state.markers:
        title = state.rules.title or state.system
        raise RefusedError(
            f"air: {title} keeps no air points by map sheet (that is The Battle for Normandy's 11.1); set "
            "its own air markers with {'op': 'marker', 'name': ..., 'value': ...} (docs/rule-systems.md)"
        )
    sheets = sorted(s for s in grid(state.system).scheme.sheets if s)
    for name, values in (("allied", allied or {}), ("german_aa", german_aa or {})):
        for sheet, points in values.items():
            if sheet not in sheets or points < 0:
                raise RefusedError(
                    f"air: {name}: map {sheet!r} with {points} points: give a map of {', '.join(sheets)} "
                    "and points of 0 or more"
                )
    return state.evolve(
        air_points={**state.air_points, **(allied or {})},
        aa_points={**state.aa_points, **(german_aa or {})},
        log=state.log.then(f"air {allied or {}} AA {german_aa or {}}"),
    )


def add_unit(state: GameState, unit: Unit, independent_formation: bool = False) -> GameState:
    """Add a unit (its hex must be a land hex, its id new and of the allowed characters).

    The game's checks of a scenario's units hold for it (BfN 7.2: a unit of a new formation needs that
    formation's HQ, unless ``independent_formation`` says it has none, as a scenario's
    ``independent_formations`` does; 6.0 stacking).
    """
    problem = check_unit_id(unit.id)
    if problem:
        raise RefusedError(f"cannot add the unit: {problem}")
    # What a scenario file may hold, a study may not outgrow: the loader's limit, read where it is set.
    limit = scenario_file.MAX_UNITS
    if len(state.units) >= limit:
        raise RefusedError(f"cannot add {unit.id}: a state holds at most {limit:,} units")
    if any(u.id == unit.id for u in state.units):
        raise RefusedError(f"a unit with id {unit.id!r} already exists")
    hex_id = grid(state.system).canonical(unit.hex)
    if terrain_map(state.system, progress=False).hex(hex_id)["terrain"] in ("Sea", "All Sea", "Impassable"):
        raise RefusedError(f"{hex_id} is a sea hex")
    unit = replace(unit, hex=hex_id)
    state, unit = state.rules.unit_arrives(state, unit)  # what arriving does in the game (KG 26.16.2)
    _refuse_what_a_scenario_may_not_hold(state, unit, independent_formation)
    return state.evolve(units=(*state.units, unit), log=state.log.then(f"add {unit.id} at {hex_id}"))


def _refuse_what_a_scenario_may_not_hold(state: GameState, unit: Unit, independent: bool = False) -> None:
    """Refuse an added unit that a scenario file could not hold: the game's checks of the units together.

    The same check the scenario loader makes (``RuleSet.units_problem``: BfN 7.2 a division's units need
    its HQ, 6.0 stacking; Cobra 6.0-6.1 stacking), so a study cannot build what a file may not say.  A
    formation already in the state passed at loading (it has its HQ, or the scenario lists it as
    independent), so only a new formation needs its HQ.
    """
    one = state.rules.unit_problem(asdict(unit))  # the game's check of one unit's entry (BfN 3.4, GTS 17.3)
    if one is not None:
        field_name, what, fix = one
        raise RefusedError(f"cannot add {unit.id}: {field_name}: {what}; {fix}")
    units = [*state.units, unit]
    known = sorted(
        {u.formation for u in state.units if u.formation}
        | ({unit.formation} if independent and unit.formation else set())
    )
    data: dict[str, Any] = {"units": [{} for _ in units], "independent_formations": known}
    problem = state.rules.units_problem(data, units)
    if problem is None:
        return
    before = state.rules.units_problem({**data, "units": data["units"][:-1]}, units[:-1])
    if problem[0] == len(units) - 1 or before is None:  # the new unit makes it, not a later move
        _, _, what, _ = problem
        advice = (
            "; add its HQ first, or give the edit independent_formation: true for a formation without one"
            if "no HQ" in what
            else ""
        )
        raise RefusedError(f"cannot add {unit.id} at {unit.hex}: {what}{advice}")


def remove_unit(state: GameState, unit_id: str) -> GameState:
    """Remove a unit."""
    state.unit(unit_id)  # raises with suggestions when unknown
    return state.evolve(
        units=tuple(u for u in state.units if u.id != unit_id), log=state.log.then(f"remove {unit_id}")
    )


class EditError(RefusedError):
    """An edit given as data that is not well formed: the field, what is wrong and how to fix it."""


def check_edit(edit: object) -> dict[str, Any]:
    """Check an edit's form and return it; raise :class:`EditError` naming the op and the field.

    The form is the edit's typed schema (:data:`normandy_lab.schemas.Edit`:
    its op, its fields and their types, no unknown field), the one a study
    file's edits are checked with at loading.  The edit is checked as the JSON
    a study saves it as, so a tuple given from code reads as the list it is saved as.
    """
    if not isinstance(edit, dict):
        raise EditError(f"an edit is a mapping with an 'op', not {type(edit).__name__}")
    try:
        as_saved = json.loads(json.dumps(edit, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise EditError(f"edit {edit.get('op')!r} holds a value a study cannot save: {exc}") from None
    validate(EDIT, as_saved, "edit", EditError)
    return edit


def _unit_of_edit(state: GameState, fields: dict[str, Any]) -> Unit:
    """Check an added unit's fields as a scenario's units are checked (types, categories, hex)."""
    rules = state.rules
    unit_schema = scenario_file.scenario_format(state).unit_schema()  # the game's file format's
    check_game_fields(rules, unit_schema, {"op": "add_unit", "unit": fields}, "add_unit edit", EditError)
    try:
        return unit_from_entry(Checker("add_unit edit"), dict(fields), "unit", rules, grid(state.system))
    except ScenarioError as exc:
        raise EditError(str(exc).split(": ", 1)[-1]) from None


def apply_edit(state: GameState, edit: dict[str, Any]) -> GameState:
    """Apply one edit given as data (the form studies store): ``{"op": ..., ...}``.

    The edit's form is checked first (:func:`check_edit`); an added unit is
    checked as a scenario's units are.
    """
    check_edit(edit)
    try:
        return _apply(state, edit)
    except KeyError as exc:  # an unknown unit id: the message names close ones
        raise EditError(str(exc.args[0]) if exc.args else "unknown unit") from None


def _apply(state: GameState, edit: dict[str, Any]) -> GameState:
    op = edit.get("op")
    if op == "move":
        return move_unit(state, edit["unit"], edit["to"])
    if op == "interdict":
        return interdict_hex(state, edit["hex"])
    if op == "clear_interdiction":
        return clear_interdiction(state, edit["hex"])
    if op == "destroy_bridge":
        return destroy_bridge(state, *edit["hexside"])
    if op == "repair_bridge":
        return repair_bridge(state, *edit["hexside"])
    if op == "weather":
        return set_weather(state, edit["weather"])
    if op == "air":
        return set_air(state, edit.get("allied"), edit.get("german_aa"))
    if op == "add_unit":
        return add_unit(state, _unit_of_edit(state, edit["unit"]), bool(edit.get("independent_formation")))
    if op == "remove_unit":
        return remove_unit(state, edit["unit"])
    if op == "next_phase":
        return next_phase(state)
    if op == "marker":  # the game's own markers: its rule system checks and sets them
        changed: GameState = state.rules.set_marker(state, edit["name"], edit.get("value"))
        return changed.evolve(log=changed.log.then(f"{edit['name']}: {edit.get('value')!r}"))
    raise RefusedError(f"unknown edit {op!r}")
