"""Scenario files: a documented YAML format, validated with errors that say where and how to fix.

Format ``normandy_lab.scenario/1`` (see ``docs/scenarios.md``): a core every game shares, and the game's
own section, which its rule system reads into the state's markers (``RuleSet.scenario_markers``; The
Battle for Normandy's in :mod:`normandy_lab.rules.bfn.scenario`)::

    format: normandy_lab.scenario/1
    system: bfn
    name: "13 June 1944, AM"
    date: 1944-06-13
    turn: AM                      # a turn of the game's sequence of play
    phase: Allied Movement        # optional: the first phase of the turn
    weather: Overcast             # optional: the historical weather, else Overcast
    seed: 1944
    destroyed_bridges: [[C3014, C3013]]
    expected_out_of_supply:       # optional: the units expected out of General Supply, and why
      - {unit: DE-DOUVRES, why: history, reason: "held out behind the Allied line", source: "..."}
    interdiction: [B2020]
    control: {C3014: german}
    units: [...]                  # see Unit
    sources: [...]
    # ... and the game's own fields

Every error names the file, the line, the field, what is wrong and how to fix it.
"""

from __future__ import annotations

import datetime as dt
import difflib
from dataclasses import replace
from pathlib import Path
from typing import Any

from normandy_lab.engine.state import ExpectedOut, GameState, Unit
from normandy_lab.errors import FileRefusedError
from normandy_lab.grids import grid
from normandy_lab.grids.numbering import HexIdError
from normandy_lab.paths import REPO_ROOT
from normandy_lab.terrain import terrain_map
from normandy_lab.yamllines import LineDict, load_yaml_with_lines, read_user_text

FORMAT = "normandy_lab.scenario/1"
SCENARIO_DIR = REPO_ROOT / "scenarios"

NATIONALITIES = {"allied": ("US", "UK", "CA", "FR", "PL"), "german": ("DE",)}
# The unit fields every game shares (``schemas.UnitSchema``); a game's others become the unit's ``attrs``.
CORE_UNIT_FIELDS = frozenset({
    "id", "name", "side", "nationality", "type", "size", "hex", "steps", "mechanized", "formation", "corps",
    "hq", "ma", "attack", "defense", "status", "cut_off", "breakdown", "box", "near", "source", "note",
})  # fmt: skip


class ScenarioError(FileRefusedError):
    """A scenario file that cannot be loaded; the message says where and how to fix it."""


class Checker:
    """Makes a scenario file's errors, each as ``file:line: field: problem; fix``.

    Parameters
    ----------
    path
        The file (or a name for the text, such as ``"add_unit edit"``) the errors are about.
    """

    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, where: Any, field: str, problem: str, fix: str) -> ScenarioError:
        """Return (not raise) the error of ``field`` at ``where``, at its line.

        Parameters
        ----------
        where
            A line number, or the :class:`~normandy_lab.yamllines.LineDict` the field is in (its key's
            line is used).
        field
            The field's dotted name, as the user wrote it.
        problem, fix
            What is wrong, and what the user should write instead.
        """
        line = where if isinstance(where, int) else getattr(where, "line", 0)
        if isinstance(where, LineDict) and field.split(".")[-1] in where.key_lines:
            line = where.key_lines[field.split(".")[-1]]
        return ScenarioError(f"{self.path}:{line}: {field}: {problem}; {fix}")


def _suggest(value: str, options: list[str] | tuple[str, ...]) -> str:
    close = difflib.get_close_matches(str(value), [str(o) for o in options], n=1)
    return f"did you mean {close[0]!r}? " if close else ""


#: The largest scenario text read (characters), and the most units a scenario may hold.  The largest
#: scenario of the project is 170 kB with 329 units; 5,000 units (about 2 MB) load in a few seconds, while
#: a file of 30,000 units took minutes to check, with nothing a user could do meanwhile.
MAX_SCENARIO_CHARS = 4 * 1024 * 1024
MAX_UNITS = 5_000


#: The last few scenarios read: (text, path) -> (the state, what its checks read from the registry).  An
#: explorer opened again on the same file read, parsed and checked its YAML each time (0.06 s of parsing,
#: and the garbage it made started a full collection of a kernel's heap, 0.2-0.3 s; issue 33 section 4).
_PARSED: dict[tuple[str, str], tuple[GameState, tuple[Any, ...]]] = {}
_PARSED_KEPT = 8


def _registry_seen(system: str) -> tuple[Any, ...]:
    """Return what a scenario's checks took from the registry: its game, rules, format, grid, every key."""
    # The registry's functions by the package's name: ``game`` is also the name of a module of the registry
    # (normandy_lab.rules.game), which the import contract would read as an import of that module.
    import normandy_lab.rules as registry

    rules = registry.ruleset(system)
    seen = (registry.game(system), rules, scenario_format(system), grid(rules.system))
    return (*seen, tuple(registry.available()))


def load_scenario_text(text: str, path: str = "<text>") -> GameState:
    """Parse and validate a scenario given as YAML text.

    The same text under the same path, with the same games registered, is parsed and checked once: a
    later call returns a new state object equal to the first (states are immutable; a new object, so that
    what is kept by a state's identity, such as a session's recent supply reports, is not shared).

    Raises
    ------
    ScenarioError
        With the file, line and field, what is wrong and how to fix it; a text longer than
        :data:`MAX_SCENARIO_CHARS` or with more than :data:`MAX_UNITS` units before any unit is checked.
    """
    kept = _PARSED.get((text, path))
    if kept is not None:
        state, seen = kept
        key = state.variant if isinstance(state.variant, str) else state.system
        try:
            now = _registry_seen(key)
        except Exception:  # the game is no longer registered: checked afresh, refused as a file names it
            now = (None, None, None, None, ())
        if all(a is b for a, b in zip(now[:4], seen[:4], strict=True)) and now[4] == seen[4]:
            return replace(state)
        del _PARSED[(text, path)]
    state = _load_scenario_text(text, path)
    key = state.variant if isinstance(state.variant, str) else state.system
    _PARSED[(text, path)] = (state, _registry_seen(key))
    while len(_PARSED) > _PARSED_KEPT:
        del _PARSED[next(iter(_PARSED))]
    return replace(state)


def _load_scenario_text(text: str, path: str) -> GameState:
    check = Checker(path)
    if len(text) > MAX_SCENARIO_CHARS:
        raise ScenarioError(
            f"{path}: {len(text):,} characters, more than the {MAX_SCENARIO_CHARS:,} a scenario may have (the"
            " largest shipped has 170,000); is it the right file? Split it into scenarios of at most 5,000"
            " units"
        )
    data = load_yaml_with_lines(text, path, ScenarioError)
    if not isinstance(data, dict):
        raise ScenarioError(
            f"{path}:1: the file must be a YAML mapping of fields (system, name, date, turn, units, ...)"
        )
    units = data.get("units")
    if isinstance(units, list) and len(units) > MAX_UNITS:  # before any unit is checked
        raise check.fail(
            data,
            "units",
            f"{len(units):,} units, more than the {MAX_UNITS:,} a scenario may hold",
            "split the scenario (the largest historical one has 329 units)",
        )
    # The file's typed schema (normandy_lab.schemas, exported to schemas/) checks every field's type, the
    # values of every category, the fields required and those unknown; what follows is what a type cannot
    # say: dates that do not exist or fall outside the campaign, hexes on the map, references between fields.
    # In the function: the registry imports the games, which import the engine (the plug-in cycle, the one
    # .importlinter allows); and pydantic with the file models (about 0.5 s) loads with the first file read,
    # not with the engine, which a Dask worker or a supply determination imports without reading a file.
    from normandy_lab.rules import available, ruleset, scenario_schema
    from normandy_lab.schemas.validation import validate

    system = data.get("system")
    kind = str(data.get("format", ""))
    if system is None and (kind.startswith("normandy_lab.study/") or "nbformat" in data):
        what = "a study" if "nbformat" not in data else "a Jupyter notebook"
        how = "open it with nl.load_study(path)" if "nbformat" not in data else "give a scenario's YAML file"
        raise ScenarioError(f"{path}:1: this is {what}, not a scenario; {how}")
    if system is None:
        raise check.fail(
            data.line, "system", "missing required field", f"add 'system:' ({', '.join(available())})"
        )
    if not isinstance(system, str) or system not in available():
        known = ", ".join(repr(k) for k in available())
        raise check.fail(
            data,
            "system",
            f"{system!r} is not allowed (no game is registered under it)",
            f"use one of {known}, or register the game first (import the package that calls "
            "normandy_lab.rules.register_game)",
        )
    rules = ruleset(system)
    file_format = scenario_format(system)  # the game's file format: its schemas, its section
    # The core and the game's section; `system` may be any registered game's key that reads this format
    # (a variant of the game on its map, under a key of its own).
    validate(scenario_schema(system), data, path, ScenarioError)
    g = grid(rules.system)
    date = data["date"]
    if isinstance(date, str):
        try:
            date = dt.date.fromisoformat(date)
        except ValueError:
            raise check.fail(
                data, "date", f"{date!r} is not a date", "write it as YYYY-MM-DD, e.g. 1944-06-13"
            ) from None
    first, last = (dt.date.fromisoformat(d) for d in rules.campaign)
    if not first <= date <= last:
        raise check.fail(
            data, "date", f"{date} is outside the campaign ({first} to {last})", "choose a date inside it"
        )

    turn = data["turn"]
    problem = rules.turn_problem(date, turn)  # a turn only some dates have
    if problem:
        raise check.fail(data, "turn", *problem)
    phases = [p.name for p in rules.sequence[turn]]
    phase_name = data.get("phase", phases[0])
    if phase_name not in phases:
        raise check.fail(
            data,
            "phase",
            f"{phase_name!r} is not a phase of the {turn} turn",
            f"{_suggest(phase_name, phases)}phases: {', '.join(phases)}",
        )

    weather = data.get("weather") or rules.historical_weather.get(date.isoformat(), "Overcast")
    seed = data.get("seed", 0)
    maps = frozenset(data.get("maps") or ())
    unknown = sorted(maps - set(g.scheme.sheets))
    if unknown:
        sheets = ", ".join(sorted(g.scheme.sheets))
        raise check.fail(
            data, "maps", f"{', '.join(unknown)}: not a map of the game", f"its maps are {sheets}"
        )
    units = _units(check, data, rules, g)
    for n, unit in enumerate(units):  # (units are in file order here)
        if maps and unit.status == "active" and g.sheet_of(unit.hex) not in maps:
            raise check.fail(
                data["units"][n],
                f"units[{n}].hex",
                f"{unit.hex} is on map {g.sheet_of(unit.hex)}, not in play ({', '.join(sorted(maps))})",
                "add its map to maps, or move the unit",
            )
    bridges = _bridges(check, data, g, rules)
    interdicted = hex_list(check, data, "interdiction", g)
    control = _control(check, data, g)
    options = _options(check, data, rules)
    expected = _expected_out(check, data, {u.id for u in units}, rules, (date, turn))
    markers = file_format.scenario_markers(rules, data, path, g)  # the game's own section of the file

    state = GameState(
        system=rules.system,
        scenario=str(data["name"]),
        date=date,
        turn=turn,
        phase_index=phases.index(phase_name),
        weather=weather,
        units=tuple(units),
        maps=maps,
        destroyed_bridges=frozenset(bridges),
        interdicted_hexes=frozenset(interdicted),
        control=control,
        markers=markers,
        seed=seed,
        options=options,
        expected_out=expected,
        opening=(date, turn),
        # A game registered on another game's map (rules.register_game) is kept by its key.
        variant=system if system != rules.system else None,
    )
    # The section's markers against the whole state (its turn, units, other markers): the checks a marker
    # edit makes too (normandy_lab.rules.section).  In the function: the registry's side (the plug-in cycle).
    from normandy_lab.rules.section import check_section

    check_section(state, data, path)
    return state


def scenario_format(source: Any) -> Any:
    """Return the scenario file format of a state's, a rule system's or a key's game (the registry's).

    The engine's modules reach a game's format here, the core's one edge to the registry
    (:func:`normandy_lab.rules.scenario_format`): a study's and an edit's added units are checked against
    the game's unit schema as a scenario's are.
    """
    # In the function: the registry imports the games, which import the engine (the plug-in cycle).
    from normandy_lab.rules import scenario_format as format_of

    return format_of(source)


def option_value(rules: Any, key: str, value: Any) -> tuple[Any, tuple[str, str] | None]:
    """Return an option's value as a state keeps it, and what is wrong with it beyond its type, if anything.

    The one check of a value a type cannot say, for a scenario file's ``options`` and a sweep's variants
    alike: ``night_halving_until`` (BfN 10.7) must be a real day of the campaign, kept as its ISO text.
    The problem is ``(what is wrong, how to fix it)``, or None.
    """
    if key != "night_halving_until":
        return value, None
    try:
        day = value if isinstance(value, dt.date) else dt.date.fromisoformat(str(value))
    except ValueError:
        return value, (f"{value!r} is not a real date", "write a day that exists, as YYYY-MM-DD")
    first, last = (dt.date.fromisoformat(d) for d in rules.campaign)
    if not first <= day <= last:
        return value, (
            f"{day} is outside the campaign ({first} to {last})",
            "give a day of the campaign (the rules' own is 1944-07-01, 10.7)",
        )
    return day.isoformat(), None


def _options(check: Checker, data: LineDict, rules) -> dict[str, Any]:
    """Return the rule system's options with the scenario's (their keys and values passed the schema)."""
    options = dict(rules.options)
    given = data.get("options") or {}
    for key, value in given.items():
        options[key], problem = option_value(rules, key, value)
        if problem:
            raise check.fail(given, f"options.{key}", *problem)
    return options


def _expected_out(
    check: Checker, data: LineDict, unit_ids: set[str], rules, start: tuple[dt.date, str]
) -> tuple[ExpectedOut, ...]:
    """Read ``expected_out_of_supply``: each entry a unit of the scenario, listed once a turn.

    An entry is for the scenario's own turn, or for the later one its ``date`` and ``turn`` name (a turn of
    the game that holds that date).
    """
    found: list[ExpectedOut] = []
    seen: set[tuple[str, dt.date | None, str]] = set()
    for n, entry in enumerate(data.get("expected_out_of_supply") or []):
        field = f"expected_out_of_supply[{n}]"
        unit = entry["unit"]
        if unit not in unit_ids:
            raise check.fail(
                entry,
                f"{field}.unit",
                f"{unit!r} is not a unit of the scenario",
                f"{_suggest(str(unit), sorted(unit_ids))}name a unit id from units",
            )
        date, turn = None, ""  # the scenario's own turn
        if ("date" in entry) != ("turn" in entry):
            raise check.fail(
                entry, field, "names a date or a turn alone", "give both date and turn, or neither"
            )
        if "date" in entry:
            # The schema checks the date's form only: a quoted '1944-06-31' has it and is no day.
            date, turn = _real_date(check, entry, f"{field}.date", entry["date"]), str(entry["turn"])
            problem = rules.turn_problem(date, turn) or (
                (f"{date} is before the scenario's date", "name a later date") if date < start[0] else None
            )
            if problem:
                raise check.fail(entry, f"{field}.turn", problem[0], problem[1])
            if (date, turn) == start:
                date, turn = None, ""  # the scenario's own turn, named: stored as if unnamed
        if (unit, date, turn) in seen:
            raise check.fail(
                entry, f"{field}.unit", f"{unit} is listed twice for {turn}", "keep one entry per unit a turn"
            )
        seen.add((unit, date, turn))
        source = entry.get("source", "").strip()
        found.append(ExpectedOut(unit, entry["why"], entry["reason"].strip(), source, date, turn))
    return tuple(found)


def _real_date(check: Checker, where: Any, field: str, value: Any) -> dt.date:
    """Return the date a field gives (a date, or its text), refusing one the calendar does not have."""
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        raise check.fail(
            where, field, f"{value!r} is not a real date", "write a day that exists, as YYYY-MM-DD"
        ) from None


def canonical_hex(check: Checker, where: Any, field: str, value: str, g) -> str:
    """Return the canonical id of a hex written in a scenario field, or raise its ``file:line`` error.

    Parameters
    ----------
    check
        The file's :class:`Checker`.
    where, field
        Where the value was written (see :meth:`Checker.fail`).
    value
        The hex id as written (any of its printed ids).
    g
        The map's :class:`~normandy_lab.grids.HexGrid`.
    """
    try:
        return g.canonical(value)
    except HexIdError as exc:
        raise check.fail(where, field, str(exc), "correct the hex id") from None


def unit_from_entry(check: Checker, entry: dict, field: str, rules, g) -> Unit:
    """Check one unit's fields (the scenario's units, and units added by an edit) and return the unit.

    The entry has passed the unit schema (:class:`normandy_lab.schemas.UnitSchema`: every field's type,
    the values of every category); this checks what a type cannot say: the nationality of the side, an
    HQ's kind against its type, the steps a size may have, a hex on the map and on land (a ship at sea).
    """
    terrain = terrain_map(rules.system, progress=False).hexes["terrain"]
    side = entry["side"]
    nationality = entry["nationality"]
    if nationality not in NATIONALITIES[side]:
        raise check.fail(
            entry,
            f"{field}.nationality",
            f"{nationality!r} is not a {side} nationality",
            f"use one of {', '.join(NATIONALITIES[side])}",
        )
    utype, size, hq = entry["type"], entry["size"], entry.get("hq")
    if (hq is not None) != (utype == "hq"):
        raise check.fail(
            entry,
            f"{field}.hq",
            f"type {utype!r} and hq {hq!r} disagree",
            "an HQ has type: hq and hq: division, corps or kg",
        )
    mech = entry.get("mechanized")
    if mech is None:
        mech = rules.unit_defaults[utype]["mechanized"]
    steps = entry["steps"]
    problem = rules.unit_problem(entry)  # what the game says of one unit (BfN: steps per size, 3.4)
    if problem:
        where, what, fix = problem
        raise check.fail(entry, f"{field}.{where}", what, fix)
    hex_id = canonical_hex(check, entry, f"{field}.hex", entry["hex"], g)
    box = entry.get("box")
    if box is not None:  # a unit in an off-map box: the rule system's box, entered by its hex
        if box not in rules.boxes:
            known = ", ".join(sorted(rules.boxes)) or "none"
            raise check.fail(
                entry, f"{field}.box", f"{box!r} is not an off-map box of the game", f"its boxes are: {known}"
            )
        entries = [g.canonical(h) for h in rules.boxes[box].entries]
        if hex_id not in entries or entry.get("status", "active") != "off_map":
            raise check.fail(
                entry,
                f"{field}.box",
                f"a unit in the box {box!r} is off the map, at one of its entry hexes",
                f"give it status: off_map and hex: one of {', '.join(entries)}",
            )
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
        id=entry["id"],
        name=entry["name"],
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
        ma=entry.get("ma"),
        attack=entry.get("attack"),
        defense=entry.get("defense"),
        status=entry.get("status", "active"),
        note=entry.get("note") or "",
        source=entry.get("source") or "",
        cut_off=entry.get("cut_off", False),
        breakdown=entry.get("breakdown", False),
        box=box,
        # The game's own fields (its unit schema's beyond the core's), kept with the unit.
        attrs=tuple(sorted((k, _frozen(v)) for k, v in entry.items() if k not in CORE_UNIT_FIELDS)),
    )


def _frozen(value: Any) -> Any:
    """Return a value a frozen unit can hold (lists as tuples)."""
    return tuple(_frozen(v) for v in value) if isinstance(value, list) else value


def _units(check: Checker, data: LineDict, rules, g) -> list[Unit]:
    raw = data["units"]
    units: list[Unit] = []
    seen: dict[str, int] = {}
    for n, entry in enumerate(raw):
        field = f"units[{n}]"
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
    formations = {u.formation for u in units if u.formation}
    for name in data.get("independent_formations") or []:
        if name not in formations:  # a misspelling would leave the formation it meant without its exemption
            close = difflib.get_close_matches(str(name), sorted(formations), n=3)
            hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
            raise check.fail(
                data,
                "independent_formations",
                f"{name!r} is the formation of no unit in the scenario",
                f"{hint}name formations as the units give them",
            )
    # What the game says of the units together (BfN: each division's HQ, 7.2; stacking, 6.0).
    problem = rules.units_problem(data, units)
    if problem:
        n, where, what, fix = problem
        raise check.fail(raw[n], where, what, fix)
    return units


def _bridges(check: Checker, data: LineDict, g, rules) -> list[str]:
    out = []
    for pair in data.get("destroyed_bridges") or []:
        a = canonical_hex(check, data, "destroyed_bridges", pair[0], g)
        b = canonical_hex(check, data, "destroyed_bridges", pair[1], g)
        if g.distance(a, b) != 1:
            raise check.fail(
                data,
                "destroyed_bridges",
                f"{pair[0]} and {pair[1]} are not adjacent",
                "a hexside joins two adjacent hexes",
            )
        out.append(f"{a}|{b}" if a < b else f"{b}|{a}")
    if out:  # as the destroy_bridge edit checks: a hexside with no bridge has none to destroy
        sides = terrain_map(g.system, progress=False).hexsides
        for n, key in enumerate(out):
            if key in rules.bridges_named_by_the_rules:
                continue
            side = sides.loc[key] if key in sides.index else None
            if side is None or not (side["road_bridge"] or side["rail_bridge"]):
                water = "none" if side is None else (side["water"] or "none")
                raise check.fail(
                    data,
                    "destroyed_bridges",
                    f"entry {n + 1}: there is no bridge on the {key} hexside of the {g.system} map "
                    f"(water: {water})",
                    "name a hexside that a road or railway crosses water on (the map's bridges layer)",
                )
    return out


def hex_list(check: Checker, data: LineDict, field: str, g) -> list[str]:
    """Return the canonical ids of the hex list ``data[field]`` (none when absent), as ``canonical_hex``."""
    return [canonical_hex(check, data, field, v, g) for v in data.get(field) or []]


def _control(check: Checker, data: LineDict, g) -> dict[str, str]:
    control = data.get("control") or {}
    return {canonical_hex(check, control, f"control.{h}", str(h), g): side for h, side in control.items()}


def historical_scenarios(system: str | None = None) -> list[str]:
    """Return the names of a game's historical scenarios (``scenarios/<system>_1944-*.yaml``), by date.

    ``system`` is a game's key; by default the registry's first game's
    (:func:`normandy_lab.rules.default_game`: The Battle for Normandy).
    """
    if system is None:
        # In the function: the registry imports the games (the plug-in cycle; .importlinter allows this edge).
        from normandy_lab.rules import default_game

        system = default_game().key
    return sorted(p.stem for p in SCENARIO_DIR.glob(f"{system}_1944-*.yaml"))


class ScenarioNotFoundError(ScenarioError, FileNotFoundError):
    """No scenario by that name or path; the message lists the nearest scenarios.

    Also a ``FileNotFoundError``, which is what callers caught before it was in the project's tree.
    """


# A path longer than this is no scenario's: the system would refuse it (ENAMETOOLONG), and echoing it back
# in the message would bury the advice.
MAX_NAME_CHARS = 1024


def scenario_path(path_or_name: str | Path) -> Path:
    """Resolve a scenario file: a path, or a name in ``scenarios/`` (with or without ``.yaml``).

    Raises
    ------
    ScenarioError
        For what is not a name or a path (``None``, a number); :class:`ScenarioNotFoundError` (also a
        ``FileNotFoundError``) for a name that is not there, with the nearest scenario names.
    """
    names = sorted(p.stem for p in SCENARIO_DIR.glob("*.yaml"))
    if not isinstance(path_or_name, str | Path) or isinstance(path_or_name, bool):
        raise ScenarioError(
            f"load_scenario: {path_or_name!r} is not a scenario's name or path; give text, the name of one "
            f"of {', '.join(names)}, or a file's path"
        )
    text = str(path_or_name)
    shown = repr(text) if len(text) <= 80 else f"{text[:60]!r}... ({len(text):,} characters)"
    if len(text) > MAX_NAME_CHARS or "\x00" in text or not text.strip():
        raise ScenarioNotFoundError(
            f"no scenario {shown}: not a name or path a file can have; scenarios are: {', '.join(names)}"
        )
    path = Path(path_or_name)
    for candidate in (path, SCENARIO_DIR / path, SCENARIO_DIR / f"{path}.yaml"):
        try:
            if candidate.exists():
                return candidate
        except OSError:  # a name the file system cannot hold (too long a part, a folder denied): not there
            continue
    close = difflib.get_close_matches(path.stem if path.suffix == ".yaml" else text, names, n=3)
    hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
    raise ScenarioNotFoundError(f"no scenario {shown}; {hint}scenarios are: {', '.join(names)}")


def scenarios() -> Any:
    """Return the project's scenarios, what ``load_scenario`` and ``explore`` open by name, one row each.

    Columns: ``name`` (what to pass), ``game`` (its key), ``title``, ``date`` and ``turn``, in name order.
    """
    import pandas as pd
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    rows = []
    for path in sorted(SCENARIO_DIR.glob("*.yaml")):
        head = yaml.load(path.read_text(encoding="utf-8").split("\nunits:", 1)[0], Loader=loader) or {}
        rows.append(
            {
                "name": path.stem, "game": head.get("system", ""), "title": head.get("name", ""),
                "date": str(head.get("date", "")), "turn": head.get("turn", ""),
            }
        )  # fmt: skip
    return pd.DataFrame(rows, columns=["name", "game", "title", "date", "turn"])


def load_scenario(path_or_name: str | Path) -> GameState:
    """Load and validate a scenario file (a path, or a name in ``scenarios/``).

    Raises
    ------
    ScenarioError
        With the file, line and field, what is wrong and how to fix it.
    """
    path = scenario_path(path_or_name)
    return load_scenario_text(read_user_text(path, ScenarioError, "scenario file"), str(path))
