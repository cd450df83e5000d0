"""Each game's own section of a scenario: one check per marker, for a file, a study edit and a control alike.

The cases of issue 28, section 2 (``docs/files.md``, "One schema per game"), each refused now with the
project's error at the file's line (a scenario) or naming the marker (an edit); then property tests per
game, whose values are drawn from the game's exported JSON Schema (``schemas/scenario_<game>.schema.json``):
whatever a section holds, the scenario loads and draws, or is refused at ``file:line: field``; a value
with no rule beyond its type always loads; and a marker is accepted by a scenario exactly when an edit
setting it is.
"""

from __future__ import annotations

import ast
import functools
import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, settings

import normandy_lab as nl
from normandy_lab.engine import ScenarioError, load_scenario_text
from normandy_lab.engine.edits import EditError, apply_edit, check_edit
from normandy_lab.errors import NormandyLabError, RefusedError

# What every property test here shares: no deadline (a load runs the engine), no example database, and no
# health check on generation that the filters of a game's schema make slow or selective.
_PROPERTY = settings(
    deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much], database=None
)

ROOT = Path(__file__).resolve().parents[1]
BASES = {
    "cobra": ROOT / "scenarios" / "cobra_1944-06-06_gt01.yaml",
    "kg": ROOT / "scenarios" / "kg_1944-06-07_t02.yaml",
    "gts": ROOT / "tests" / "data" / "gts_utah_1944-06-08_small.yaml",
    "bfn": ROOT / "tests" / "data" / "bfn_pegasus_1944-06-07.yaml",
}
KIND = {"bfn": "scenario", "cobra": "scenario_cobra", "kg": "scenario_kg", "gts": "scenario_gts"}
# The whole-file fields every game shares (normandy_lab.schemas.ScenarioSchema): not a game's section.
CORE = {
    "format", "system", "name", "date", "turn", "phase", "weather", "seed", "maps", "destroyed_bridges",
    "interdiction", "control", "units", "sources", "description", "off_map", "options",
    "independent_formations", "expected_out_of_supply",
}  # fmt: skip
LINE = re.compile(r"^x\.yaml:\d+: ")


@functools.cache
def _text(system: str) -> str:
    return BASES[system].read_text(encoding="utf-8")


@functools.cache
def _base(system: str) -> Any:
    return load_scenario_text(_text(system), "x.yaml")


def _without(text: str, names: set[str]) -> str:
    """Return YAML text without the top-level fields ``names`` (each line and the block under it)."""
    kept, skipping = [], False
    for line in text.splitlines(keepends=True):
        if skipping and (line.startswith((" ", "-", "\t")) or not line.strip()):
            continue
        skipping = any(line.startswith(f"{name}:") for name in names)
        if not skipping:
            kept.append(line)
    return "".join(kept)


def _with(system: str, **fields: Any) -> str:
    """Return the base scenario's text with ``fields`` of its section given (a YAML line each)."""
    # Each field on one line, its value in flow style ({k: v} without its braces), so its line is known.
    lines = "".join(
        yaml.safe_dump({k: v}, default_flow_style=True, width=10**6).strip()[1:-1] + "\n"
        for k, v in fields.items()
    )
    text = _without(_text(system), set(fields))
    at = text.index("\nunits:")  # before the units, so that the line numbers of the fields are known
    return text[: at + 1] + lines + text[at + 1 :]


def _refused(system: str, field: str, **fields: Any) -> str:
    """Load the base with ``fields``; return the ScenarioError's message, which must name file, line, field."""
    text = _with(system, **fields)
    with pytest.raises(ScenarioError) as caught:
        load_scenario_text(text, "x.yaml")
    message = str(caught.value)
    line = text[: text.index(f"\n{field.split('[')[0].split('.')[0]}:")].count("\n") + 2
    assert message.startswith(f"x.yaml:{line}: {field}: "), message
    assert "; " in message.split(f"{field}: ", 1)[1]  # what is wrong; how to fix it
    return message


def _draws(state: Any) -> None:
    """Determine supply and build the explorer's zone and route layers, as a map draws the state."""
    from normandy_lab.views.layers import route_data, zone_data

    report = nl.supply(state)
    zone_data(report)
    route_data(report)


# -- GTS (17.1, 17.3, 17.6) ------------------------------------------------------------------------------

US4, US82, US101 = "4th Infantry Division", "82nd Airborne Division", "101st Airborne Division"


@pytest.mark.parametrize(
    ("divisions", "says"),
    [
        (["Banana"], r"supplied_divisions\[0\]: 'Banana' is not allowed;.*'4th Infantry Division'"),
        (["Banana", "Banana", "Banana"], r"supplied_divisions\[0\]: 'Banana' is not allowed"),
        ([US4, US4, US4], r"supplied_divisions: exactly 3 different divisions .*\(17\.3\)"),
        ([US4, US82, US101, "90th Infantry Division"], r"supplied_divisions: .*at most 3 items"),
        (["709. Infanterie-Division", US4, US82], r"supplied_divisions\[0\]: '709\. Infanterie-Division'"),
        (["V Corps", US4, US82], r"V Corps is always supplied"),
    ],
)
def test_17_3_a_scenario_s_designation_is_checked_as_the_edit_s_is(divisions, says):
    field = "supplied_divisions[0]" if r"\[0\]" in says else "supplied_divisions"
    assert re.search(says, _refused("gts", field, supplied_divisions=divisions))
    with pytest.raises(RefusedError, match="marker 'supplied_divisions'"):
        apply_edit(_base("gts"), {"op": "marker", "name": "supplied_divisions", "value": divisions})


def test_17_3_a_scenario_may_designate_three_divisions_and_the_day_follows_it():
    state = load_scenario_text(_with("gts", supplied_divisions=[US4, US82, US101]), "x.yaml")
    assert state.markers["supplied_divisions"] == (US4, US82, US101)
    _draws(state)


def test_a_bad_gts_reinforcement_hex_is_refused_at_its_line_not_as_a_bare_hex_error():
    said = _refused("gts", "german_reinforcement_hexes[1]", german_reinforcement_hexes=["30.027", "Z9999"])
    assert "'Z9999' is not a hex id" in said and "correct the hex id" in said


def test_17_1_a_scenario_puts_no_more_planes_on_interdiction_than_its_weather_allows():
    text = _with("gts", fighter_bombers_on_interdiction=3).replace("weather: Clear", "weather: Overcast")
    with pytest.raises(
        ScenarioError, match=r"^x\.yaml:\d+: fighter_bombers_on_interdiction: 0 to 2 .*\(17\.1\)"
    ):
        load_scenario_text(text, "x.yaml")


# -- Cobra (5.9.1b, 17.3.6f) -----------------------------------------------------------------------------


def test_5_9_1b_south_of_vire_gt_may_not_be_a_turn_not_yet_played():
    said = _refused("cobra", "south_of_vire_gt", south_of_vire_gt=28)
    assert "GT 28 is later than the scenario's turn (GT 1)" in said and "(5.9.1b)" in said


@pytest.mark.parametrize("hex_id", ["A2116", "B2020"])  # Vire, and a hex inland of the beaches
def test_17_3_6f_only_a_beach_hex_is_wrecked(hex_id):
    said = _refused("cobra", "wrecked_beaches[0]", wrecked_beaches=[hex_id])
    assert f"{hex_id} is not a beach hex" in said and "(17.3.6f)" in said


def test_17_3_6f_a_wrecked_beach_is_listed_once():
    beach = sorted(_beaches())[0]
    assert "listed twice" in _refused("cobra", "wrecked_beaches[1]", wrecked_beaches=[beach, beach.lower()])


def test_a_bad_wrecked_beach_hex_is_refused_at_its_line_not_as_a_bare_hex_error():
    said = _refused("cobra", "wrecked_beaches[0]", wrecked_beaches=["Z9999"])
    assert "'Z9999' is not a hex id" in said


def test_17_3_6f_a_beach_hex_may_be_wrecked_and_the_state_draws():
    beach = sorted(_beaches())[0]
    state = load_scenario_text(_with("cobra", wrecked_beaches=[beach.lower()]), "x.yaml")
    assert state.markers["wrecked_beaches"] == (beach,)
    _draws(state)


def _beaches() -> frozenset[str]:
    from normandy_lab.rules.cobra.section import beach_hexes

    return beach_hexes("cobra")


# -- KG (26.2.4, 26.4.3-4, 26.10, 26.15.4, 26.19.2) --------------------------------------------------


def test_26_15_4_air_units_go_only_on_a_german_omm_box_named_in_a_scenario():
    said = _refused("kg", "air_omm_targets.NOPE", air_omm_targets={"NOPE": 2})
    assert "'NOPE' is not allowed" in said and "'OMM 13'" in said


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("mulberry_A", 10**6, r"mulberry\.A: 1000000: .*at most 10 \(26\.19\.2\)"),
        ("mulberry_A", 11, r"mulberry\.A: 11: .*at most 10"),
        ("rail_capacity", 10**12, r"rail_capacity: 1000000000000: .*at most 20"),
        ("depot_sp_US", 10**9, r"depot_sp\.US: 1000000000: .*at most 99"),
        ("rail_interdiction_level", 13, r"rail_interdiction_level: 13: .*at most 12 \(26\.4\.4\)"),
    ],
)
def test_a_kg_marker_edit_keeps_the_range_a_scenario_must_keep(name, value, says):
    with pytest.raises(RefusedError, match=f"^marker '{name}': {says}"):
        apply_edit(_base("kg"), {"op": "marker", "name": name, "value": value})
    study = nl.Study(str(BASES["kg"]))
    with pytest.raises(RefusedError):
        study.apply({"op": "marker", "name": name, "value": value})


@pytest.mark.parametrize(
    ("nest", "field", "says"),
    [
        (
            {"name": "X WN", "hex": "N9206", "state": "set_up"},
            "weapons_nests[0].hex",
            "'N9206' is off the map",
        ),
        ({"name": "X WN", "hex": "Z9999", "state": "set_up"}, "weapons_nests[0].hex", "not a hex id"),
        ({"name": "X WN", "hex": "<b>x</b>", "state": "set_up"}, "weapons_nests[0].hex", "not in the form"),
        ({"name": "X WN", "state": "banana"}, "weapons_nests[0].state", "'banana' is not allowed"),
        ({"name": "X WN", "state": "removed", "colour": "red"}, "weapons_nests[0].colour", "unknown field"),
        ({}, "weapons_nests[0].name", "missing required field"),
    ],
)
def test_26_2_4_a_weapons_nest_is_a_name_a_state_and_a_hex_on_the_kg_map(nest, field, says):
    assert says in _refused("kg", field, weapons_nests=[nest])


def test_26_2_4_a_weapons_nest_at_sea_is_refused():
    sea = _sea_hex("kg")
    said = _refused(
        "kg", "weapons_nests[0].hex", weapons_nests=[{"name": "X WN", "hex": sea, "state": "set_up"}]
    )
    assert "sea hex" in said


def test_26_2_4_a_nest_s_hex_is_canonical_so_the_zone_layer_and_the_geopackage_draw_it(tmp_path):
    state = load_scenario_text(
        _with("kg", weapons_nests=[{"name": "Greville WN", "hex": "n1206", "state": "set_up"}]), "x.yaml"
    )
    assert dict(state.markers["weapons_nests"][0])["hex"] == "N1206"
    _draws(state)
    from normandy_lab.views.export import layers_to_geopackage

    layers_to_geopackage(state, nl.supply(state), tmp_path / "nests.gpkg")


def test_the_kg_explorer_control_is_refused_as_the_edit_is():
    explorer = nl.explore(_base("kg"))
    before = dict(explorer.state.markers["mulberry"])
    explorer.single_widgets["mulberry_A"].value = 999  # the box allows up to 999; the rules, 10
    explorer.single_buttons["mulberry_A"].click()
    assert dict(explorer.state.markers["mulberry"]) == before
    assert "Refused: marker 'mulberry_A': mulberry.A: 999" in explorer.message


@functools.cache
def _sea_hex(system: str) -> str:
    from normandy_lab.terrain import terrain_map

    terrain = terrain_map(system, progress=False).hexes["terrain"]
    return str(terrain[terrain.isin(["Sea", "All Sea"])].index[0])


# -- the errors of the rules packages ------------------------------------------------------------------


def test_the_rules_packages_raise_only_the_projects_errors():
    """errors.py: anything outside NormandyLabError is a defect; no plain ValueError/TypeError on purpose."""
    plain = {"ValueError", "TypeError", "KeyError", "IndexError", "RuntimeError", "HexIdError"}
    found = []
    for path in sorted((ROOT / "normandy_lab" / "rules").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                name = getattr(node.exc.func, "id", getattr(node.exc.func, "attr", ""))
                if name in plain:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name}")
    assert not found, found


def test_cobra_s_calendar_refuses_with_the_projects_error():
    from normandy_lab.rules.cobra.data import turn_dates, turn_of

    with pytest.raises(RefusedError, match="outside Cobra's calendar"):
        turn_of(nl.load_scenario(BASES["cobra"]).date.replace(year=1945))
    with pytest.raises(RefusedError, match="run from 1 to 28"):
        turn_dates(29)


def test_the_exported_scenario_schemas_are_the_models():
    """schemas/scenario*.schema.json are each game's model; re-run `python -m normandy_lab.schemas`."""
    from normandy_lab.schemas import SCHEMA_DIR, json_schema

    for kind in KIND.values():
        written = json.loads((SCHEMA_DIR / f"{kind}.schema.json").read_text())
        assert written == json.loads(json.dumps(json_schema(kind))), f"schemas/{kind}.schema.json is stale"


# -- property tests: values drawn from each game's JSON Schema -----------------------------------------


def _section_fields(system: str) -> dict[str, dict]:
    from normandy_lab.schemas import json_schema

    schema = json_schema(KIND[system])
    return {k: v for k, v in schema["properties"].items() if k not in CORE}


@functools.cache
def _hexes(system: str) -> Any:
    """Hex ids a section may name: the map's (some in lower case), its beaches, and some not on it."""
    from hypothesis import strategies as st

    ids = sorted(nl.grid(system).ids())
    on_map = st.sampled_from(ids[:: max(1, len(ids) // 400)])
    special = sorted(_beaches()) if system == "cobra" else ids[:1]
    return st.one_of(
        on_map,
        on_map.map(str.lower),
        st.sampled_from(special),
        st.sampled_from(["Z9999", "N9206", "A9999", "1"]),
    )


def _strategy(node: dict, defs: dict, system: str) -> Any:
    """Return a hypothesis strategy of the values a JSON Schema node describes, and a little beyond it.

    Whole numbers reach one past each bound and lists one item past their length, so that the refusals are
    drawn as well as the values allowed; hex ids come from the game's map (:func:`_hexes`).
    """
    from hypothesis import strategies as st

    from normandy_lab.schemas import HEX_ID, UNIT_ID

    if "$ref" in node:
        return _strategy(defs[node["$ref"].split("/")[-1]], defs, system)
    if "anyOf" in node:
        return st.one_of([_strategy(n, defs, system) for n in node["anyOf"]])
    if "enum" in node:
        return st.sampled_from(node["enum"])
    if "const" in node:
        return st.just(node["const"])
    kind = node.get("type")
    if kind == "null":
        return st.none()
    if kind == "boolean":
        return st.booleans()
    if kind == "integer":
        low = node.get("minimum", 0)
        return st.integers(low - 1, node.get("maximum", low + 30) + 1)
    if kind == "string":
        if node.get("pattern") == HEX_ID:
            return _hexes(system)
        if node.get("pattern") == UNIT_ID:
            return st.sampled_from([*[u.id for u in _base(system).units][:5], "NOBODY"])
        return st.text("ABC xyz-/", min_size=node.get("minLength", 0), max_size=8)
    if kind == "array":
        most = node.get("maxItems", 3) + 1
        items = node.get("items", {})
        drawn = _strategy(items, defs, system)
        lists = st.lists(drawn, min_size=node.get("minItems", 0), max_size=most)
        if "enum" in items:  # a choice of names (a designation): distinct ones as often as repeats
            return lists | st.lists(drawn, min_size=node.get("minItems", 0), max_size=most, unique=True)
        return lists
    if kind == "object":
        if "properties" in node:
            props = {k: _strategy(v, defs, system) for k, v in node["properties"].items()}
            required = set(node.get("required", ()))
            return st.fixed_dictionaries(
                {k: s for k, s in props.items() if k in required},
                optional={k: s for k, s in props.items() if k not in required},
            )
        keys = node.get("propertyNames", {})
        key_strategy = _strategy(keys, defs, system) if keys else st.sampled_from(["A", "B", "NOPE"])
        value = _strategy(node.get("additionalProperties", {"type": "integer"}), defs, system)
        return st.dictionaries(key_strategy, value, max_size=3)
    return st.none()


def _sections(system: str) -> Any:
    """Return a strategy of (field, value) pairs of the game's section, from its exported JSON Schema."""
    from hypothesis import strategies as st

    from normandy_lab.schemas import json_schema

    defs = json_schema(KIND[system]).get("$defs", {})
    fields = _section_fields(system)
    return st.sampled_from(sorted(fields)).flatmap(
        lambda f: st.tuples(st.just(f), _strategy(fields[f], defs, system))
    )


def _load_or_refuse(system: str, field: str, value: Any) -> Any:
    """Load the base with ``field: value``; return the state (drawn), or None after a proper refusal."""
    text = _with(system, **{field: value})
    try:
        state = load_scenario_text(text, "x.yaml")
    except ScenarioError as refused:
        said = str(refused)
        assert LINE.match(said), said
        assert said.split(": ", 2)[1].startswith(field.split(".")[0]), said  # the field is named
        return None
    _draws(state)
    return state


SYSTEMS = ["bfn", "cobra", "kg", "gts"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_any_section_drawn_from_the_schema_loads_and_draws_or_is_refused_at_its_line(system):
    from hypothesis import given

    @settings(_PROPERTY, max_examples=40)
    @given(_sections(system))
    def check(pair):
        _load_or_refuse(system, *pair)

    check()


@pytest.mark.parametrize("system", ["cobra", "kg", "gts"])
def test_a_schema_valid_value_of_a_marker_with_no_rule_beyond_its_type_always_loads(system):
    """A value the JSON Schema accepts, of a marker whose check is its type and map alone, loads and draws."""
    from hypothesis import assume, given

    jsonschema = pytest.importorskip("jsonschema")
    from normandy_lab.rules.section import section_of
    from normandy_lab.schemas import json_schema

    schema = json_schema(KIND[system])
    plain = {name for name, m in section_of(nl.rules.get(system)).items() if m.check is None}

    @settings(_PROPERTY, max_examples=40)
    @given(_sections(system))
    def check(pair):
        field, value = pair
        assume(field in plain)
        sub = {"$defs": schema.get("$defs", {}), **schema["properties"][field]}
        assume(jsonschema.Draft202012Validator(sub).is_valid(value))
        assume(not _has_off_map_hex(system, value))
        if isinstance(value, list) and all(
            isinstance(h, str) for h in value
        ):  # a hex given twice, in any case
            assume(len({h.upper() for h in value}) == len(value))
        assert _load_or_refuse(system, field, value) is not None, (field, value)

    check()


def _has_off_map_hex(system: str, value: Any) -> bool:
    from normandy_lab.grids.numbering import HexIdError
    from normandy_lab.schemas import HEX_ID

    if isinstance(value, dict):
        return any(_has_off_map_hex(system, v) for v in value.values())
    if isinstance(value, list):
        return any(_has_off_map_hex(system, v) for v in value)
    if isinstance(value, str) and re.fullmatch(HEX_ID, value):
        try:
            nl.grid(system).canonical(value)
        except HexIdError:
            return True
    return False


# The section markers an edit sets with no rule of its own beyond the value (a transition rule such as
# the boundary moving one column a turn, or a Fortress declared once, is an edit's alone).
SAME_BOTH_WAYS = {
    "cobra": ("supply_points", "allied_income", "command_limits", "south_edge_lost"),
    "kg": ("army_sp", "mulberry", "depot_sp", "cherbourg_sp", "rail_capacity", "air_rail_value",
           "rail_interdiction_level", "air_supply_ap", "air_rail", "air_omm_targets"),
    "gts": ("supplied_divisions", "fighter_bombers_on_interdiction", "supply_drop_zone", "hypothetical_82nd",
            "abandoned_transport"),
}  # fmt: skip


@pytest.mark.parametrize("system", ["cobra", "kg", "gts"])
def test_a_marker_is_accepted_by_a_scenario_exactly_when_an_edit_setting_it_is(system):
    """One validation path: a file and a study edit (and so an explorer control) agree on every value."""
    from hypothesis import assume, given

    base = _base(system)

    @settings(_PROPERTY, max_examples=60)
    @given(_sections(system))
    def check(pair):
        field, value = pair
        assume(field in SAME_BOTH_WAYS[system])
        edit = {"op": "marker", "name": field, "value": value}
        try:
            check_edit(edit)  # the study's envelope (normandy_lab.schemas.MarkerEdit): not the marker's check
        except EditError:
            assume(False)
        by_file = _load_or_refuse(system, field, value) is not None
        try:
            edited = apply_edit(base, edit)
        except NormandyLabError as refused:
            assert str(refused).startswith(f"marker {field!r}: "), refused  # the marker's own check
            by_edit = False
        else:
            by_edit = True
            _draws(edited)
        assert by_file == by_edit, (field, value, by_file, by_edit)

    check()
