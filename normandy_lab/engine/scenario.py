"""Scenario files: a documented YAML format, validated with errors that say where and how to fix.

Format ``normandy_lab.scenario/1`` (see ``docs/scenarios.md``)::

    format: normandy_lab.scenario/1
    system: bfn
    name: "13 June 1944, AM"
    date: 1944-06-13
    turn: AM                      # Night | AM | PM
    phase: Allied Movement        # optional: the first phase of the turn
    weather: Overcast             # optional: the historical weather, else Overcast
    seed: 1944
    csp: 120                      # Allied Combat Supply Points
    air: {allied: {A: 0, B: 20, C: 40}, german_aa: {A: 5, B: 10, C: 10}}
    beachheads: [{name: Omaha, nationality: US, hex: C1748}]
    german_supply_cities: [Cherbourg, Caen, Argentan, Flers, Vire]
    destroyed_bridges: [[C3014, C3013]]
    expected_out_of_supply:       # optional: the units expected out of General Supply, and why
      - {unit: DE-DOUVRES, why: history, reason: "held out behind the Allied line", source: "..."}
    interdiction: [B2020]
    control: {C3014: german}
    units: [...]                  # see Unit
    sources: [...]

Every error names the file, the line, the field, what is wrong and how to fix it.
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from normandy_lab.engine.state import (
    EXPECTED_WHY,
    SIDES,
    UNIT_ID_RULE,
    Beachhead,
    ExpectedOut,
    GameState,
    Unit,
    check_unit_id,
)
from normandy_lab.grid import grid
from normandy_lab.numbering import HexIdError
from normandy_lab.paths import REPO_ROOT
from normandy_lab.rules import ruleset
from normandy_lab.yamllines import LineDict, load_yaml_with_lines, read_user_text

FORMAT = "normandy_lab.scenario/1"
SCENARIO_DIR = REPO_ROOT / "scenarios"

TOP_FIELDS = {
    "format": False,
    "system": True,
    "name": True,
    "date": True,
    "turn": True,
    "phase": False,
    "weather": False,
    "seed": False,
    "csp": False,
    "air": False,
    "beachheads": False,
    "mulberries": False,
    "pathfinders": False,
    "german_supply_cities": False,
    "destroyed_bridges": False,
    "interdiction": False,
    "control": False,
    "units": True,
    "sources": False,
    "description": False,
    "off_map": False,
    "options": False,
    "independent_formations": False,
    "expected_out_of_supply": False,
}
UNIT_FIELDS = {
    "id": True,
    "name": True,
    "side": True,
    "nationality": True,
    "type": True,
    "mechanized": False,
    "size": True,
    "formation": False,
    "corps": False,
    "hq": False,
    "hex": True,
    "steps": True,
    "ma": False,
    "attack": False,
    "defense": False,
    "status": False,
    "cut_off": False,
    "breakdown": False,
    "near": False,
    "source": False,
    "note": False,
}
NATIONALITIES = {"allied": ("US", "UK", "CA", "FR", "PL"), "german": ("DE",)}
HQ_KINDS = ("division", "corps", "kg")
# A regiment or brigade entry stands for its (up to three or four) battalions.
MAX_STEPS = {"regiment": 9, "brigade": 12}


class ScenarioError(ValueError):
    """A scenario file that cannot be loaded; the message says where and how to fix it."""


class _Checker:
    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, where: Any, field: str, problem: str, fix: str) -> ScenarioError:
        line = where if isinstance(where, int) else getattr(where, "line", 0)
        if isinstance(where, LineDict) and field.split(".")[-1] in where.key_lines:
            line = where.key_lines[field.split(".")[-1]]
        return ScenarioError(f"{self.path}:{line}: {field}: {problem}; {fix}")


def _suggest(value: str, options: list[str] | tuple[str, ...]) -> str:
    close = difflib.get_close_matches(str(value), [str(o) for o in options], n=1)
    return f"did you mean {close[0]!r}? " if close else ""


def load_scenario_text(text: str, path: str = "<text>") -> GameState:
    """Parse and validate a scenario given as YAML text."""
    check = _Checker(path)
    data = load_yaml_with_lines(text, path, ScenarioError)
    if not isinstance(data, dict):
        raise ScenarioError(
            f"{path}:1: the file must be a YAML mapping of fields (system, name, date, turn, units, ...)"
        )
    for key in data:
        if key not in TOP_FIELDS:
            raise check.fail(
                data,
                str(key),
                "unknown field",
                f"{_suggest(key, list(TOP_FIELDS))}the fields are {', '.join(TOP_FIELDS)}",
            )
    for key, required in TOP_FIELDS.items():
        if required and key not in data:
            raise check.fail(
                data.line, key, "missing required field", f"add '{key}:' (see docs/scenarios.md)"
            )
    _check_shapes(check, data)
    if data.get("format", FORMAT) != FORMAT:
        raise check.fail(
            data, "format", f"unknown format {data['format']!r}", f"this version reads {FORMAT!r}"
        )
    for key in ("system", "name", "turn", "phase", "weather"):
        value = data.get(key)
        if key in data and (not isinstance(value, str) or not value.strip()):
            raise check.fail(
                data, key, f"{value!r} is not text", f"write the {key} as text (docs/scenarios.md)"
            )
    system = data["system"]
    try:
        rules = ruleset(str(system))
    except NotImplementedError as exc:
        raise check.fail(data, "system", str(exc), "use system: bfn") from None
    g = grid(rules.system)

    date = data["date"]
    if isinstance(date, dt.datetime):
        raise check.fail(
            data,
            "date",
            f"{date!r} has a time of day",
            "write the date alone, YYYY-MM-DD; the turn gives the time",
        )
    if isinstance(date, str):
        try:
            date = dt.date.fromisoformat(date)
        except ValueError:
            raise check.fail(
                data, "date", f"{date!r} is not a date", "write it as YYYY-MM-DD, e.g. 1944-06-13"
            ) from None
    if not isinstance(date, dt.date):
        raise check.fail(data, "date", f"{date!r} is not a date", "write it as YYYY-MM-DD, e.g. 1944-06-13")
    first, last = (dt.date.fromisoformat(d) for d in rules.campaign)
    if not first <= date <= last:
        raise check.fail(
            data, "date", f"{date} is outside the campaign ({first} to {last})", "choose a date inside it"
        )

    turn = data["turn"]
    turns = list(rules.sequence)
    if turn not in rules.sequence:
        raise check.fail(
            data, "turn", f"unknown turn {turn!r}", f"{_suggest(turn, turns)}use one of {', '.join(turns)}"
        )
    if turn.startswith("6 June") and date != dt.date(1944, 6, 6):
        raise check.fail(
            data, "turn", f"the {turn!r} turn exists only on 6 June (3.7)", "use Night, AM or PM"
        )
    phases = [p.name for p in rules.sequence[turn]]
    phase_name = data.get("phase", phases[0])
    if phase_name not in phases:
        raise check.fail(
            data,
            "phase",
            f"{phase_name!r} is not a phase of the {turn} turn",
            f"{_suggest(phase_name, phases)}phases: {', '.join(phases)}",
        )

    weathers = list(rules.weather_effects)
    weather = data.get("weather") or rules.historical_weather.get(date.isoformat(), "Overcast")
    if weather not in rules.weather_effects:
        raise check.fail(
            data,
            "weather",
            f"unknown weather {weather!r}",
            f"{_suggest(weather, weathers)}use one of {', '.join(weathers)}",
        )

    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise check.fail(
            data, "seed", f"{seed!r} is not a non-negative integer", "give a whole number, e.g. seed: 1944"
        )
    csp = data.get("csp", 0)
    if isinstance(csp, bool) or not isinstance(csp, int) or csp < 0:
        raise check.fail(
            data,
            "csp",
            f"{csp!r} is not a non-negative integer",
            "give the Allied Combat Supply Points as a whole number",
        )

    air_points, aa_points = _air(check, data.get("air"), data, g)
    units = _units(check, data, rules, g)
    beachheads = _beachheads(check, data, g)
    bridges = _bridges(check, data, g)
    interdicted = _hex_list(check, data, "interdiction", g)
    pathfinders = _hex_list(check, data, "pathfinders", g)
    mulberries = data.get("mulberries") or []
    beach_names = [b.name for b in beachheads]
    if not isinstance(mulberries, list) or any(m not in beach_names for m in mulberries):
        raise check.fail(
            data,
            "mulberries",
            f"{mulberries!r} is not a list of the scenario's beachheads",
            f"name the beachheads whose Mulberry is complete (19.4), from {', '.join(beach_names) or 'none'}",
        )
    control = _control(check, data, g)
    cities = data.get("german_supply_cities", list(rules.supply["german_supply_cities"]))
    if not isinstance(cities, list):
        raise check.fail(
            data, "german_supply_cities", "must be a list of city names", "e.g. [Cherbourg, Caen]"
        )
    for city in cities:
        if city not in rules.supply["german_supply_cities"]:
            raise check.fail(
                data,
                "german_supply_cities",
                f"{city!r} is not a German supply city (7.4)",
                f"choose from {', '.join(rules.supply['german_supply_cities'])}",
            )
    options = _options(check, data, rules)
    expected = _expected_out(check, data, {u.id for u in units})

    # The file's typed schema (normandy_lab.schemas, exported to schemas/): what the checks above
    # did not already refuse with their own words is refused here, at its line.
    from normandy_lab.schemas import ScenarioSchema, validate

    validate(ScenarioSchema, data, path, ScenarioError)
    return GameState(
        system=rules.system,
        scenario=str(data["name"]),
        date=date,
        turn=turn,
        phase_index=phases.index(phase_name),
        weather=weather,
        units=tuple(units),
        beachheads=tuple(beachheads),
        air_points=air_points,
        aa_points=aa_points,
        destroyed_bridges=frozenset(bridges),
        interdicted_hexes=frozenset(interdicted),
        control=control,
        german_supply_cities=frozenset(cities),
        csp=csp,
        pathfinders=frozenset(pathfinders),
        mulberries=tuple(mulberries),
        seed=seed,
        options=options,
        expected_out=expected,
    )


# Options with a fixed set of values (the others are checked against the type of their default).
_OPTION_VALUES = {
    "german_artillery_attach": ("counts", "free"),
    "combat_supply_chain": ("own_army", "any_army"),
    "isolation_corps_hq": ("in_supply", "any"),
    "hq_bridging": ("own_line", "for_its_units"),
    "mulberry_sources": ("beach_rows", "beachhead_only"),
}


def _options(check: _Checker, data: LineDict, rules) -> dict[str, Any]:
    """Return the rule system's options with the scenario's, each key known and each value checked."""
    options = dict(rules.options)
    given = data.get("options")
    if given is None:
        return options
    if not isinstance(given, dict):
        raise check.fail(
            data,
            "options",
            f"{given!r} is not a mapping",
            "write option: value lines, e.g. historical_weather: false",
        )
    for key, value in given.items():
        if key not in rules.options:
            raise check.fail(
                given,
                f"options.{key}",
                "unknown option",
                f"{_suggest(str(key), list(rules.options))}options are {', '.join(rules.options)}",
            )
        default = rules.options[key]
        if key in _OPTION_VALUES and value not in _OPTION_VALUES[key]:
            raise check.fail(
                given,
                f"options.{key}",
                f"{value!r} is not one of {', '.join(_OPTION_VALUES[key])}",
                f"{_suggest(str(value), _OPTION_VALUES[key])}choose one of them",
            )
        if key == "what_if_interdiction" and not (
            value == "block" or (isinstance(value, str) and value.startswith("+") and value[1:].isdigit())
        ):
            raise check.fail(
                given,
                f"options.{key}",
                f"{value!r} is not 'block' or '+N'",
                "write block, or e.g. '+2' (MPs)",
            )
        if key == "night_halving_until":
            try:
                dt.date.fromisoformat(str(value))
            except ValueError:
                raise check.fail(
                    given, f"options.{key}", f"{value!r} is not a date", "write YYYY-MM-DD"
                ) from None
            value = str(value)
        elif type(value) is not type(default) and not (isinstance(default, dict) and isinstance(value, dict)):
            raise check.fail(
                given,
                f"options.{key}",
                f"{value!r} is not a {type(default).__name__}",
                f"give a {type(default).__name__} like the default {default!r}"[:200],
            )
        options[key] = value
    return options


def _expected_out(check: _Checker, data: LineDict, unit_ids: set[str]) -> tuple[ExpectedOut, ...]:
    """Read ``expected_out_of_supply``: each entry a unit of the scenario, a why, a reason and a source."""
    entries = data.get("expected_out_of_supply")
    if entries is None:
        return ()
    if not isinstance(entries, list):
        raise check.fail(
            data,
            "expected_out_of_supply",
            "must be a list",
            "give one entry per unit: {unit: ID, why: history|rules|setup|map, reason: ..., source: ...}",
        )
    found: list[ExpectedOut] = []
    seen: set[str] = set()
    for n, entry in enumerate(entries):
        field = f"expected_out_of_supply[{n}]"
        if not isinstance(entry, dict):
            raise check.fail(
                data, field, f"{entry!r} is not a mapping", "write {unit: ID, why: ..., reason: ...}"
            )
        unknown = sorted(set(entry) - {"unit", "why", "reason", "source"})
        if unknown:
            raise check.fail(
                entry, field, f"unknown field {unknown[0]!r}", "use unit, why, reason and source"
            )
        unit = entry.get("unit")
        if unit not in unit_ids:
            raise check.fail(
                entry,
                f"{field}.unit",
                f"{unit!r} is not a unit of the scenario",
                f"{_suggest(str(unit), sorted(unit_ids))}name a unit id from units",
            )
        if unit in seen:
            raise check.fail(entry, f"{field}.unit", f"{unit} is listed twice", "keep one entry per unit")
        seen.add(unit)
        why = entry.get("why")
        if why not in EXPECTED_WHY:
            raise check.fail(
                entry,
                f"{field}.why",
                f"{why!r} is not one of {', '.join(EXPECTED_WHY)}",
                f"{_suggest(str(why), EXPECTED_WHY)}say whether history, the rules or the set-up puts it out",
            )
        reason, source = entry.get("reason"), entry.get("source", "")
        if not isinstance(reason, str) or not reason.strip():
            raise check.fail(entry, f"{field}.reason", "missing or empty", "say in words why it is out")
        if not isinstance(source, str):
            raise check.fail(entry, f"{field}.source", f"{source!r} is not text", "give the source as text")
        found.append(ExpectedOut(unit, why, reason.strip(), source.strip()))
    return tuple(found)


def _canonical_hex(check: _Checker, where: Any, field: str, value: Any, g) -> str:
    if not isinstance(value, str):
        raise check.fail(
            where,
            field,
            f"{value!r} is not a hex id",
            f"write it as the map prints it, e.g. {g.scheme.example!r} (in quotes)",
        )
    try:
        return g.canonical(value)
    except HexIdError as exc:
        raise check.fail(where, field, str(exc), "correct the hex id") from None


def _air(check: _Checker, air: Any, data: LineDict, g) -> tuple[dict[str, int], dict[str, int]]:
    if air is None:
        return {}, {}
    if not isinstance(air, dict):
        raise check.fail(
            data,
            "air",
            "must be a mapping with 'allied' and 'german_aa'",
            "e.g. air: {allied: {A: 10}, german_aa: {A: 5}}",
        )
    sheets = sorted(g.scheme.sheets)
    out: list[dict[str, int]] = []
    for key in ("allied", "german_aa"):
        part = air.get(key)
        if part is None:
            part = {}
        if not isinstance(part, dict):
            raise check.fail(
                air, f"air.{key}", f"{part!r} is not a mapping of map: points", "e.g. allied: {C: 20, B: 10}"
            )
        for sheet, points in part.items():
            if sheet not in sheets:
                raise check.fail(air, f"air.{key}", f"unknown map {sheet!r}", f"maps are {', '.join(sheets)}")
            if isinstance(points, bool) or not isinstance(points, int) or points < 0:
                raise check.fail(
                    air,
                    f"air.{key}",
                    f"map {sheet}: {points!r} is not a non-negative whole number",
                    "give the points as a whole number",
                )
        out.append({str(k): int(v) for k, v in part.items()})
    for key in air:
        if key not in ("allied", "german_aa"):
            raise check.fail(air, f"air.{key}", "unknown field", "use 'allied' and 'german_aa'")
    return out[0], out[1]


# What a unit's status may be: in play on the map, or out of it.
STATUSES = ("active", "eliminated", "off_map")
# The unit fields that are text: required ones may not be blank; optional ones are text or left out.
_TEXT_FIELDS = ("id", "name", "side", "nationality", "type", "size")  # a hex id is checked as one
_OPTIONAL_TEXT_FIELDS = ("formation", "corps", "hq", "status", "note", "source")


# The shape of each top-level field that holds a list or a mapping (an empty one may be left blank).
_LIST_FIELDS = (
    "beachheads", "mulberries", "pathfinders", "german_supply_cities", "destroyed_bridges", "interdiction",
    "units", "sources", "off_map", "independent_formations", "expected_out_of_supply",
)  # fmt: skip
_MAPPING_FIELDS = ("air", "control", "options")
# Lists whose entries must be text.
_TEXT_LISTS = ("mulberries", "german_supply_cities", "independent_formations", "pathfinders", "interdiction")


def _check_shapes(check: _Checker, data: LineDict) -> None:
    """Refuse a top-level field of the wrong shape before it is used: a list where a list belongs, and so on.

    A blank field (``beachheads:`` with nothing after it) is an empty one; a
    wrong value that happens to be empty (``destroyed_bridges: ""``) is refused.
    """
    for key in _LIST_FIELDS:
        value = data.get(key)
        if key in data and value is not None and not isinstance(value, list):
            raise check.fail(
                data, key, f"{value!r} is not a list", f"write {key} as a list (docs/scenarios.md)"
            )
    for key in _MAPPING_FIELDS:
        value = data.get(key)
        if key in data and value is not None and not isinstance(value, dict):
            raise check.fail(data, key, f"{value!r} is not a mapping", f"write {key} as key: value lines")
    for key in _TEXT_LISTS:
        for n, item in enumerate(data.get(key) or []):
            if not isinstance(item, str) or not item.strip():
                raise check.fail(data, f"{key}[{n}]", f"{item!r} is not text", "write each entry as text")
    for n, entry in enumerate(data.get("beachheads") or []):
        if isinstance(entry, dict):
            for field in ("name", "nationality", "hex"):
                if field in entry and (not isinstance(entry[field], str) or not entry[field].strip()):
                    raise check.fail(
                        entry,
                        f"beachheads[{n}].{field}",
                        f"{entry[field]!r} is not text",
                        f"write the {field} as text",
                    )
    description = data.get("description")
    if description is not None and not isinstance(description, str):
        raise check.fail(data, "description", f"{description!r} is not text", "write the description as text")


def _check_unit_types(check: _Checker, entry: dict, field: str) -> None:
    """Refuse a unit field of the wrong type before it is used (a list is never turned into text)."""
    for key in _TEXT_FIELDS:
        value = entry.get(key)
        if key in entry and (not isinstance(value, str) or not value.strip()):
            raise check.fail(entry, f"{field}.{key}", f"{value!r} is not text", f"write the {key} as text")
    for key in _OPTIONAL_TEXT_FIELDS:
        value = entry.get(key)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise check.fail(
                entry, f"{field}.{key}", f"{value!r} is not text", f"write the {key} as text or leave it out"
            )
    status = entry.get("status", "active")
    if status not in STATUSES:
        raise check.fail(
            entry,
            f"{field}.status",
            f"{status!r} is not a status",
            f"{_suggest(str(status), STATUSES)}use one of {', '.join(STATUSES)} (exactly, in lower case)",
        )
    near = entry.get("near")
    if near is not None and not isinstance(near, str):
        pair = isinstance(near, list) and len(near) == 2
        if not pair or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in near):
            raise check.fail(
                entry, f"{field}.near", f"{near!r} is not a place", "give a place name or [lon, lat]"
            )


def unit_from_entry(check: _Checker, entry: dict, field: str, rules, g) -> Unit:
    """Check one unit's fields (the scenario's units, and units added by an edit) and return the unit.

    Every field has its type and, where it names a category, one of the
    listed values; a wrong one is refused with the field and the fix.
    """
    from normandy_lab.terrain import terrain_map

    terrain = terrain_map(rules.system, progress=False).hexes["terrain"]
    for key in entry:
        if key not in UNIT_FIELDS:
            raise check.fail(
                entry,
                f"{field}.{key}",
                "unknown field",
                f"{_suggest(key, list(UNIT_FIELDS))}unit fields are {', '.join(UNIT_FIELDS)}",
            )
    for key, required in UNIT_FIELDS.items():
        if required and key not in entry:
            raise check.fail(entry, f"{field}.{key}", "missing required field", f"add '{key}:' to this unit")
    _check_unit_types(check, entry, field)
    problem = check_unit_id(entry["id"])
    if problem:
        raise check.fail(entry, f"{field}.id", problem, "write the id with " + UNIT_ID_RULE)
    uid = str(entry["id"])
    side = entry["side"]
    if side not in SIDES:
        raise check.fail(
            entry,
            f"{field}.side",
            f"unknown side {side!r}",
            f"{_suggest(side, SIDES)}use allied or german",
        )
    nationality = entry["nationality"]
    if nationality not in NATIONALITIES[side]:
        raise check.fail(
            entry,
            f"{field}.nationality",
            f"{nationality!r} is not a {side} nationality",
            f"use one of {', '.join(NATIONALITIES[side])}",
        )
    utype = entry["type"]
    if utype not in rules.unit_types:
        raise check.fail(
            entry,
            f"{field}.type",
            f"unknown unit type {utype!r}",
            f"{_suggest(utype, rules.unit_types)}types are {', '.join(rules.unit_types)}",
        )
    size = entry["size"]
    if size not in rules.sizes:
        raise check.fail(
            entry,
            f"{field}.size",
            f"unknown size {size!r}",
            f"{_suggest(size, rules.sizes)}sizes are {', '.join(rules.sizes)}",
        )
    hq = entry.get("hq")
    if hq is not None and hq not in HQ_KINDS:
        raise check.fail(
            entry,
            f"{field}.hq",
            f"unknown HQ kind {hq!r}",
            f"use one of {', '.join(HQ_KINDS)} or leave it out",
        )
    if (hq is not None) != (utype == "hq"):
        raise check.fail(
            entry,
            f"{field}.hq",
            f"type {utype!r} and hq {hq!r} disagree",
            "an HQ has type: hq and hq: division, corps or kg",
        )
    mech = entry.get("mechanized", rules.unit_defaults[utype]["mechanized"])
    if not isinstance(mech, bool):
        raise check.fail(
            entry, f"{field}.mechanized", f"{mech!r} is not true or false", "write true or false"
        )
    steps = entry["steps"]
    most = MAX_STEPS.get(size, 3)
    if isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= most:
        raise check.fail(
            entry,
            f"{field}.steps",
            f"{steps!r} is not between 1 and {most} for a {size}",
            "BfN units have 1 to 3 steps (3.4); a regiment or brigade entry stands for its battalions",
        )
    ma = entry.get("ma")
    if ma is not None and (isinstance(ma, bool) or not isinstance(ma, int) or ma < 0):
        raise check.fail(
            entry,
            f"{field}.ma",
            f"{ma!r} is not a non-negative whole number",
            "give the movement allowance as a whole number",
        )
    hex_id = _canonical_hex(check, entry, f"{field}.hex", entry["hex"], g)
    at_sea = terrain.loc[hex_id] in ("Sea", "All Sea", "Impassable")
    if at_sea and utype != "ship":
        raise check.fail(
            entry,
            f"{field}.hex",
            f"{entry['hex']} is a sea hex",
            "put land units on land; check the hex id",
        )
    if utype == "ship" and terrain.loc[hex_id] not in ("Sea", "All Sea"):
        raise check.fail(
            entry, f"{field}.hex", f"{entry['hex']} is a land hex", "put ships on a sea hex off the coast"
        )
    return Unit(
        id=uid,
        name=str(entry["name"]),
        side=side,
        nationality=nationality,
        type=utype,
        mechanized=mech,
        size=size,
        formation=entry.get("formation"),
        corps=entry.get("corps"),
        hq=hq,
        hex=hex_id,
        steps=steps,
        ma=ma,
        attack=_strength(check, entry, f"{field}.attack"),
        defense=_strength(check, entry, f"{field}.defense"),
        status=str(entry.get("status", "active")),
        note=str(entry.get("note", "") or ""),
        source=str(entry.get("source", "") or ""),
        cut_off=_flag(check, entry, f"{field}.cut_off"),
        breakdown=_flag(check, entry, f"{field}.breakdown"),
    )


def _units(check: _Checker, data: LineDict, rules, g) -> list[Unit]:
    raw = data["units"]
    if not isinstance(raw, list) or not raw:
        raise check.fail(
            data, "units", "must be a non-empty list of units", "list each unit as a mapping under 'units:'"
        )
    units: list[Unit] = []
    seen: dict[str, int] = {}
    for n, entry in enumerate(raw):
        field = f"units[{n}]"
        if not isinstance(entry, dict):
            raise check.fail(
                data,
                "units",
                f"entry {n} is not a mapping",
                "each unit needs id, name, side, nationality, type, size, hex, steps",
            )
        unit = unit_from_entry(check, entry, field, rules, g)
        if unit.id in seen:
            raise check.fail(
                entry,
                f"{field}.id",
                f"two units have the id {unit.id!r} (the other at line {seen[unit.id]})",
                "give each unit its own id",
            )
        seen[unit.id] = getattr(entry, "line", 0)
        units.append(unit)
    # Every division unit needs its division HQ (7.2); independent brigades
    # and regiments, declared as such, trace like corps units.
    independent = data.get("independent_formations") or []
    if not isinstance(independent, list):
        raise check.fail(
            data, "independent_formations", "must be a list of formation names", "e.g. [30. Schnelle Brigade]"
        )
    hqs = {(u.side, u.formation) for u in units if u.hq in ("division", "kg")}
    for n, (entry, unit) in enumerate(zip(raw, units, strict=True)):
        if (
            unit.formation
            and unit.hq is None
            and (unit.side, unit.formation) not in hqs
            and unit.formation not in independent
        ):
            raise check.fail(
                entry,
                f"units[{n}].formation",
                f"no HQ of {unit.formation!r} in the scenario",
                "add its division HQ (type: hq, hq: division), list it under independent_formations, "
                "or clear 'formation' for a corps unit",
            )
    # Stacking (6.0): at most the RuleSet's stacking points per hex and side.
    stacks: dict[tuple[str, str], int] = defaultdict(int)
    first_line: dict[tuple[str, str], int] = {}
    for entry, unit in zip(raw, units, strict=True):
        key = (unit.hex, unit.side)
        stacks[key] += rules.stacking_points[unit.type] * max(1, -(-unit.steps // 3))
        first_line.setdefault(key, entry.line)
        if stacks[key] > rules.stacking_limit:
            raise check.fail(
                entry,
                "units",
                f"hex {unit.hex} holds {stacks[key]} stacking points of {unit.side} units "
                f"(the limit is {rules.stacking_limit}, 6.0)",
                f"move some of the units stacked there (first one at line {first_line[key]})",
            )
    sides = Counter(u.side for u in units)
    if units and not (sides["allied"] or sides["german"]):  # pragma: no cover - sides were checked
        raise check.fail(data, "units", "no unit has a side", "set side on every unit")
    return units


def _flag(check: _Checker, entry: LineDict, field: str) -> bool:
    value = entry.get(field.rsplit(".", 1)[-1], False)
    if not isinstance(value, bool):
        raise check.fail(entry, field, f"{value!r} is not true or false", "write true or false")
    return value


def _strength(check: _Checker, entry: LineDict, field: str) -> int | None:
    value = entry.get(field.rsplit(".", 1)[1])
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise check.fail(
            entry, field, f"{value!r} is not a non-negative whole number", "give the printed strength"
        )
    return value


def _beachheads(check: _Checker, data: LineDict, g) -> list[Beachhead]:
    out = []
    for n, entry in enumerate(data.get("beachheads") or []):
        field = f"beachheads[{n}]"
        if not isinstance(entry, dict) or not {"name", "nationality", "hex"} <= set(entry):
            raise check.fail(
                data,
                "beachheads",
                f"entry {n} needs name, nationality and hex",
                "e.g. {name: Omaha, nationality: US, hex: C1748}",
            )
        if entry["nationality"] not in ("US", "UK", "CA"):
            raise check.fail(
                entry,
                f"{field}.nationality",
                f"{entry['nationality']!r} is not US, UK or CA",
                "US beaches are Utah and Omaha, British Gold, Juno and Sword (7.4)",
            )
        out.append(
            Beachhead(
                name=str(entry["name"]),
                nationality=entry["nationality"],
                hex=_canonical_hex(check, entry, f"{field}.hex", entry["hex"], g),
            )
        )
    return out


def _bridges(check: _Checker, data: LineDict, g) -> list[str]:
    out = []
    for n, pair in enumerate(data.get("destroyed_bridges") or []):
        if not isinstance(pair, list) or len(pair) != 2:
            raise check.fail(
                data,
                "destroyed_bridges",
                f"entry {n} is not a pair of hexes",
                "write each hexside as [HEX1, HEX2]",
            )
        a = _canonical_hex(check, data, "destroyed_bridges", pair[0], g)
        b = _canonical_hex(check, data, "destroyed_bridges", pair[1], g)
        if g.distance(a, b) != 1:
            raise check.fail(
                data,
                "destroyed_bridges",
                f"{pair[0]} and {pair[1]} are not adjacent",
                "a hexside joins two adjacent hexes",
            )
        out.append(f"{a}|{b}" if a < b else f"{b}|{a}")
    return out


def _hex_list(check: _Checker, data: LineDict, field: str, g) -> list[str]:
    values = data.get(field) or []
    if not isinstance(values, list):
        raise check.fail(data, field, "must be a list of hex ids", f"e.g. {field}: [{g.scheme.example}]")
    return [_canonical_hex(check, data, field, v, g) for v in values]


def _control(check: _Checker, data: LineDict, g) -> dict[str, str]:
    control = data.get("control") or {}
    if not isinstance(control, dict):
        raise check.fail(
            data, "control", "must be a mapping of hex id to side", "e.g. control: {C3014: german}"
        )
    out = {}
    for hex_id, side in control.items():
        if side not in SIDES:
            raise check.fail(control, f"control.{hex_id}", f"unknown side {side!r}", "use allied or german")
        out[_canonical_hex(check, control, f"control.{hex_id}", str(hex_id), g)] = side
    return out


def historical_scenarios() -> list[str]:
    """Return the names of the historical scenarios (``scenarios/bfn_1944-*.yaml``), in date order."""
    return sorted(p.stem for p in SCENARIO_DIR.glob("bfn_1944-*.yaml"))


def scenario_path(path_or_name: str | Path) -> Path:
    """Resolve a scenario file: a path, or a name in ``scenarios/`` (with or without ``.yaml``)."""
    path = Path(path_or_name)
    if path.exists():
        return path
    for candidate in (SCENARIO_DIR / path, SCENARIO_DIR / f"{path}.yaml"):
        if candidate.exists():
            return candidate
    names = sorted(p.stem for p in SCENARIO_DIR.glob("*.yaml"))
    raise FileNotFoundError(f"no scenario {str(path_or_name)!r}; scenarios are: {', '.join(names)}")


def load_scenario(path_or_name: str | Path) -> GameState:
    """Load and validate a scenario file (a path, or a name in ``scenarios/``).

    Raises
    ------
    ScenarioError
        With the file, line and field, what is wrong and how to fix it.
    """
    path = scenario_path(path_or_name)
    return load_scenario_text(read_user_text(path, ScenarioError, "scenario file"), str(path))
