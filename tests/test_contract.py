"""The rule-system contract (issue 15): every registered rule system keeps the same invariants of supply.

The four games are tried with the example states below; a game package beside the tests (``tests/<name>/``
with a ``GAME``: the toy on a map of its own, ``tests/toy_game``, and the toy on BfN's map,
``tests/toy_system``) is imported, registers itself, and brings its own examples (issue 32).

Each system is tried on example states (a system registered without examples here fails the coverage
test, so a new game must add its own): adding an enemy unit never puts a unit into supply; removing an
interdiction never takes one out; a friendly unit never blocks a friendly line; the verdicts do not depend
on the order of the units; bad weather never lengthens a range; every report follows the schema; an
exemption names its rule.

The examples are drawn the same way on every run (``derandomize``): the suite is a regression check; a
search for new cases runs with ``--hypothesis-seed`` or with the setting removed.

Where a rule system shares out places of limited number (BfN's attachment to a division HQ, 7.2, at most
three, given as the owner's best choice), one unit can gain or lose a place because another lost or
gained its line: such a unit must be one traced to an attachment place, and the number of units in supply
must still move the right way.
"""

from __future__ import annotations

import datetime as dt
import functools
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import normandy_lab as nl
from normandy_lab import rules
from normandy_lab.engine.edits import add_unit, clear_interdiction, interdict_hex
from normandy_lab.engine.reasons import (
    ATTACHMENT_FULL,
    BLOCKED,
    CUT_OFF,
    EXEMPT,
    HQ_OUT_OF_SUPPLY,
    NOT_DESIGNATED,
    OUT_OF_RANGE,
)
from normandy_lab.engine.state import Unit

sys.path.insert(0, str(Path(__file__).parent))

SMALL = Path(__file__).parent / "data" / "bfn_pegasus_1944-06-07.yaml"
CODES = {OUT_OF_RANGE, CUT_OFF, BLOCKED, HQ_OUT_OF_SUPPLY, ATTACHMENT_FULL, NOT_DESIGNATED}
SHARED_PLACE = "attached"  # what a unit traced to a place of limited number is traced to


def _bfn(example: str):
    if example == "13 June":
        return nl.load_scenario("bfn_1944-06-13_am")
    pegasus = nl.load_scenario(SMALL)
    if example == "6 June Night":  # the 7.5 exceptions
        return pegasus.evolve(date=dt.date(1944, 6, 6), turn="6 June Night", phase_index=0)
    return pegasus


def _cobra(example: str):
    if example == "Campaign GT 1":  # 17.3.6: everyone in supply without a line
        return nl.load_scenario("cobra_1944-06-06_gt01")
    state = nl.load_scenario("cobra_1944-07-16_gt15")
    if example == "Breakthrough":  # Allied units driven deep behind the German line: some cut, some far
        for uid, hex_id in (
            ("US-30-ID", "A1112"),
            ("US-35-ID", "A1810"),
            ("UK-3-ID", "A3910"),
            ("UK-4-ARMBDE", "A4520"),
        ):
            state = state.evolve(
                units=tuple(replace(u, hex=hex_id) if u.id == uid else u for u in state.units)
            )
    return state


def _kg(example: str):
    state = nl.load_scenario("kg_1944-06-07_t02")
    if example == "22.6.8 Turn 3":  # 26.11.1: Allied tracing starts
        return state.evolve(date=dt.date(1944, 6, 8), turn="Turn 3")
    return state


def _gts(example: str):
    state = nl.load_scenario(Path(__file__).parent / "data" / "gts_utah_1944-06-08_small.yaml")
    if example == "8 June, three designated":  # 17.3
        divisions = ("4th Infantry Division", "82nd Airborne Division", "101st Airborne Division")
        return state.evolve(supplied_divisions=divisions)
    return state


# Per rule system, its example states: a name and how to make it.
EXAMPLES = {
    "kg": {name: (lambda name=name: _kg(name)) for name in ("22.6.8 Turn 2", "22.6.8 Turn 3")},
    "bfn": {name: (lambda name=name: _bfn(name)) for name in ("13 June", "Pegasus", "6 June Night")},
    "cobra": {
        name: (lambda name=name: _cobra(name))
        for name in ("Alternate Cobra", "Breakthrough", "Campaign GT 1")
    },
    "gts": {
        name: (lambda name=name: _gts(name))
        for name in ("8 June, none designated", "8 June, three designated")
    },
}
# A small combat unit of each map's game (that exerts a zone of control where the game has them): size, steps.
SMALL_UNIT = {
    "bfn": ("battalion", 3),
    "cobra": ("regiment", 2),
    "kg": ("regiment", 3),
    "gts": ("battalion", 3),
}


def _plug_in_games() -> list[str]:
    """Import every game package beside the tests (``tests/<name>/__init__.py`` that registers a ``GAME``).

    Each registers itself as it is imported and gives its example states (``EXAMPLES``) and, on a map of
    its own, its small unit (``SMALL_UNIT``): a game added this way needs no edit of this file.
    """
    import importlib

    found = []
    for init in sorted(Path(__file__).parent.glob("*/__init__.py")):
        if "GAME =" not in init.read_text(encoding="utf-8"):
            continue
        module = importlib.import_module(init.parent.name)
        EXAMPLES[module.GAME.key] = module.EXAMPLES
        if hasattr(module, "SMALL_UNIT"):
            SMALL_UNIT[module.GAME.map] = module.SMALL_UNIT
        found.append(module.GAME.key)
    return found


PLUG_INS = _plug_in_games()
CASES = [
    pytest.param(system, name, id=f"{system}-{name}") for system in EXAMPLES for name in EXAMPLES[system]
]


@functools.cache
def _example(system: str, name: str):
    return EXAMPLES[system][name]()


def test_every_registered_rule_system_has_example_states_here():
    assert set(rules.available()) <= set(EXAMPLES), "add example states for the new rule system"


def test_the_games_beside_the_tests_are_found_and_registered():
    """The toy on a map of its own and the toy on BfN's map: each found by its folder, registered by its key."""
    assert {"toy", "toy_bfn"} <= set(PLUG_INS) <= set(rules.available())
    assert rules.game("toy").map == "toy" and rules.game("toy_bfn").map == "bfn"


def _contract_gaps(state) -> list[str]:
    """Say what a state's rule system leaves unfilled of the contract (an empty list: nothing).

    ``isinstance(rules, RuleSystem)`` alone proves nothing: the Protocol only asks that its members exist,
    and a ``RuleSet`` subclass inherits them all, so one that overrides nothing passes it. What a game must
    give of its own is checked instead: a supply determination that answers for every unit with the supply
    states it declares, a title, and a sequence of play and weather for the state's own turn.
    """
    from normandy_lab.engine.report import SupplyReport
    from normandy_lab.rules import Phase, RuleSet, RuleSystem

    rules, gaps = state.rules, []
    if not isinstance(rules, RuleSystem):
        gaps.append("not a RuleSystem")
    if not rules.title:
        gaps.append("no title")
    if type(rules).determine_supply is RuleSet.determine_supply:
        gaps.append("no supply determination of its own (the base's raises NotImplementedError)")
    else:
        report = rules.determine_supply(state)
        if not isinstance(report, SupplyReport):
            gaps.append(f"determine_supply returned {type(report).__name__}, not a SupplyReport")
        elif missing := {u.id for u in state.units} - set(report.units):
            gaps.append(f"no report for {sorted(missing)[:5]}")
        else:
            for key in (s.key for s in rules.supply_states):
                if not all(isinstance(getattr(r, key), (bool, np.bool_)) for r in report.units.values()):
                    gaps.append(f"the supply state {key!r} is not a verdict of every report")
    turns = rules.turn_order(state.date)
    if state.turn not in turns:
        gaps.append(f"the state's turn {state.turn!r} is not among the turns of {state.date}: {turns}")
    for turn in turns:
        phases = rules.sequence.get(turn, ())
        if not phases or not all(isinstance(p, Phase) for p in phases):
            gaps.append(f"no sequence of play for the turn {turn!r}")
    if state.weather not in rules.weather_effects:
        gaps.append(f"no effects for the state's weather {state.weather!r}")
    return gaps


@pytest.mark.parametrize("system", sorted(EXAMPLES))
def test_every_rule_system_fills_the_contract(system):
    state = next(iter(EXAMPLES[system].values()))()
    assert _contract_gaps(state) == []


def test_a_rule_system_that_overrides_nothing_does_not_fill_the_contract():
    """The check above can fail: a RuleSet subclass with BfN's data and none of its verdicts is caught."""
    from dataclasses import fields

    from normandy_lab.rules import RuleSet

    bfn = rules.get("bfn")
    bare = type("Bare", (RuleSet,), {})(**{f.name: getattr(bfn, f.name) for f in fields(RuleSet)})
    gaps = _contract_gaps(_example("bfn", "Pegasus").with_rules(bare))
    assert gaps and "no supply determination" in gaps[0], gaps


# -- the game's two other parts: its look (what the views need) and its scenario format ---------------------

#: The kinds of control the explorer can show (``ControlSpec.kind``) and the layers a map key can list.
CONTROL_KINDS = {"points_per_map", "hex", "hexes", "flag", "number", "choices"}
MAP_FEATURES = {"zones", "routes"}


def _look_gaps(state, shown=None) -> list[str]:
    """Say what the look of a state's game leaves out that the views need to draw it (an empty list: nothing).

    A colour for each side, a label and an echelon mark for every unit type and size on the state, words
    for every supply ring its rules give a unit there (else the map key leaves a ring unexplained), controls
    the explorer can show and read on the state, layers its map key knows, and sectors that are areas.
    ``shown`` stands in for the registry's look (a broken copy, for the test that this can fail).
    """
    import re

    from normandy_lab.rules import Look, look
    from normandy_lab.rules.game import ControlSpec

    shown = look(state) if shown is None else shown
    if not isinstance(shown, Look):
        return [f"the look is a {type(shown).__name__}, not a Look"]
    gaps = []
    for side in ("allied", "german"):
        if not re.fullmatch(r"#[0-9a-fA-F]{6}", shown.side_colour(side)):
            gaps.append(f"no colour for the {side} side: {shown.side_colour(side)!r}")
    if missing := sorted({u.type for u in state.units} - {t for t, g in shown.glyphs.items() if g}):
        gaps.append(f"no counter label (glyphs) for the unit types {missing}")
    if missing := sorted({u.size for u in state.units} - set(shown.size_marks)):
        gaps.append(f"no echelon mark (size_marks) for the sizes {missing}")
    report = nl.supply(state)
    rings = {state.rules.supply_ring(row) for row in report.units.values()}
    if missing := sorted(rings - {ring for ring, words in shown.ring_words.items() if words}):
        gaps.append(f"no words (ring_words) for the rings {missing} its rules give")
    for control in shown.controls:
        if not isinstance(control, ControlSpec) or control.kind not in CONTROL_KINDS:
            gaps.append(f"the control {getattr(control, 'key', control)!r} is not one the explorer can show")
            continue
        if not (control.label and control.rule and control.edit_op and control.edit_field):
            gaps.append(f"the control {control.key!r} lacks a label, a rule or the edit it makes")
        try:
            shown.control_value(state, control.key)
        except Exception as exc:  # what the explorer reads at each redraw must not raise
            gaps.append(f"the control {control.key!r} cannot be read on this state: {exc!r}")
    if unknown := sorted(set(shown.map_features) - MAP_FEATURES):
        gaps.append(f"map_features {unknown} are no layer the map key lists ({sorted(MAP_FEATURES)})")
    for name, (west, south, east, north) in shown.sectors.items():
        if not (west < east and south < north):
            gaps.append(f"the sector {name!r} is not an area (west < east, south < north)")
    return gaps


def _format_gaps(state, file_format=None) -> list[str]:
    """Say what the scenario format of a state's game leaves unfilled (an empty list: nothing).

    Its scenario and unit schemas are pydantic models that keep every field of the core's (a game narrows
    and extends the core's file, never drops a field of it); every marker of its section is a field of its
    scenario schema (so a file may give it and the JSON Schema exports it) and a marker its rules keep, and
    so is every marker it leaves out of old studies' fingerprints (``late_markers``).
    """
    from pydantic import BaseModel

    from normandy_lab.rules import ScenarioFormat, scenario_format
    from normandy_lab.schemas import ScenarioSchema, UnitSchema

    file_format = scenario_format(state) if file_format is None else file_format
    if not isinstance(file_format, ScenarioFormat):
        return [f"the format is a {type(file_format).__name__}, not a ScenarioFormat"]
    gaps = []
    models = {
        "scenario": (file_format.scenario_schema(), ScenarioSchema),
        "unit": (file_format.unit_schema(), UnitSchema),
    }
    for what, (model, core) in models.items():
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            gaps.append(f"the {what} schema is not a pydantic model: {model!r}")
        elif dropped := sorted(set(core.model_fields) - set(model.model_fields)):
            gaps.append(f"the {what} schema drops the core's fields {dropped}")
    fields = getattr(file_format.scenario_schema(), "model_fields", {})
    for marker in file_format.section():
        if marker.name not in fields:
            gaps.append(f"the section's marker {marker.name!r} is no field of the scenario schema")
        if marker.name not in state.rules.markers:
            gaps.append(f"the section's marker {marker.name!r} is no marker of the rules")
    if unknown := sorted(set(file_format.late_markers) - set(state.rules.markers)):
        gaps.append(f"late_markers {unknown} are no markers of the rules (a fingerprint would keep them)")
    return gaps


@pytest.mark.parametrize("system", sorted(EXAMPLES))
def test_every_game_s_look_gives_what_the_views_need(system):
    for make in EXAMPLES[system].values():
        assert _look_gaps(make()) == [], system


@pytest.mark.parametrize("system", sorted(EXAMPLES))
def test_every_game_s_scenario_format_fills_the_contract(system):
    state = next(iter(EXAMPLES[system].values()))()
    assert _format_gaps(state) == []


def test_a_look_or_a_format_missing_a_part_does_not_fill_the_contract():
    """The checks above can fail: BfN shown with an empty look, and a section naming no field, are caught."""
    from normandy_lab.rules import Look, ScenarioFormat, look, scenario_format
    from normandy_lab.rules.section import Marker

    state = _example("bfn", "Pegasus")
    bare = Look(controls=look("bfn").controls)  # no glyphs, no echelon marks, no "partial" ring words
    gaps = _look_gaps(state, bare)
    assert any("glyphs" in g for g in gaps) and any("size_marks" in g for g in gaps), gaps
    grey = replace(look("bfn"), side_colours={"allied": "grey"})
    assert _look_gaps(state, grey) == ["no colour for the allied side: 'grey'"]
    stray = replace(scenario_format("cobra"), section=lambda: (Marker("not_in_the_file"),))
    gaps = _format_gaps(_example("cobra", "Breakthrough"), stray)
    assert any("no field of the scenario schema" in g for g in gaps), gaps
    misspelt = replace(scenario_format("cobra"), late_markers=frozenset({"hq_displace"}))
    assert _format_gaps(_example("cobra", "Breakthrough"), misspelt) == [
        "late_markers ['hq_displace'] are no markers of the rules (a fingerprint would keep them)"
    ]
    assert _format_gaps(state, ScenarioFormat(scenario_schema=lambda: dict)) == [
        "the scenario schema is not a pydantic model: <class 'dict'>"
    ]


def _in(report) -> set[str]:
    return {u for u, r in report.units.items() if r.general}


def _moved_only_by_shared_places(before, after, gained: set[str], lost: set[str]) -> None:
    """A unit may only change against the invariant through a place another unit gave up or took."""
    for uid in gained:
        assert after[uid].traced_kind == SHARED_PLACE, (uid, after[uid].traced_to)
    for uid in lost:
        assert before[uid].traced_kind == SHARED_PLACE, (uid, before[uid].traced_to, after[uid].reason)


def _vacant_land_hexes(state, near: str, count: int = 40) -> list[str]:
    g = nl.grid(state.system)
    taken = {u.hex for u in state.units}
    terrain = nl.terrain_map(state.system, progress=False).hexes["terrain"]
    centre = g.index(near)
    order = np.argsort([g.distance(near, h) for h in g.id_array[max(0, centre - 4000) : centre + 4000]])
    pool = g.id_array[max(0, centre - 4000) : centre + 4000][order]
    return [h for h in pool if h not in taken and terrain.loc[h] not in ("Sea", "All Sea", "Impassable")][
        :count
    ]


def _battalion(uid: str, side: str, hex_id: str, formation: str | None = None, system: str = "bfn") -> Unit:
    size, steps = SMALL_UNIT[system]
    return Unit(
        id=uid, name=uid, side=side, nationality="UK" if side == "allied" else "DE", type="infantry",
        mechanized=False, size=size, formation=formation, corps=None, hq=None, hex=hex_id, steps=steps,
    )  # fmt: skip


@pytest.mark.parametrize(("system", "name"), CASES)
def test_adding_an_enemy_unit_never_puts_a_unit_into_supply(system, name):
    state = _example(system, name)
    before = nl.supply(state)
    near = state.units_of("allied") or state.units  # a scenario may start with one side alone (Cobra 17.3)
    front = sorted(near, key=lambda u: u.id)[len(near) // 2].hex

    @settings(max_examples=6, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(st.sampled_from(_vacant_land_hexes(state, front)), st.sampled_from(["allied", "german"]))
    def check(hex_id, enemy_side):
        side = "german" if enemy_side == "allied" else "allied"
        after = nl.supply(add_unit(state, _battalion("NEW-ENEMY", enemy_side, hex_id, system=state.system)))
        was, now = (
            {u for u in _in(before) if before[u].side == side},
            {u for u in _in(after) if after[u].side == side},
        )
        assert len(now) <= len(was), name
        _moved_only_by_shared_places(before, after, now - was, set())

    check()


@pytest.mark.parametrize(("system", "name"), CASES)
def test_removing_an_interdiction_never_takes_a_unit_out_of_supply(system, name):
    state = _example(system, name)
    front = state.units[len(state.units) // 2].hex

    @settings(max_examples=6, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(st.sampled_from(_vacant_land_hexes(state, front)))
    def check(hex_id):
        blocked = interdict_hex(state, hex_id)
        with_it, without = nl.supply(blocked), nl.supply(clear_interdiction(blocked, hex_id))
        assert len(_in(without)) >= len(_in(with_it)), name
        _moved_only_by_shared_places(with_it, without, set(), _in(with_it) - _in(without))

    check()


@pytest.mark.parametrize(("system", "name"), CASES)
def test_a_friendly_unit_never_blocks_a_friendly_line(system, name):
    state = _example(system, name)
    before = nl.supply(state)
    anchors = [u for u in state.units if u.hq is None and u.formation and before[u.id].general]
    if not anchors:
        pytest.skip("no unit of a formation in supply")

    @settings(max_examples=6, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(st.sampled_from(anchors), st.integers(0, 5))
    def check(anchor, pick):
        # Beside a unit in supply, of its formation: a unit that needs no place of limited number.
        hex_id = _vacant_land_hexes(state, anchor.hex, 6)[pick]
        friend = _battalion("NEW-FRIEND", anchor.side, hex_id, anchor.formation, system=state.system)
        friend = replace(friend, nationality=anchor.nationality)
        after = nl.supply(add_unit(state, friend))
        was = {u for u in _in(before) if before[u].side == anchor.side}
        now = {u for u in _in(after) if after[u].side == anchor.side}
        # The newcomer may take a shared place (7.2) that another unit held: never a line.
        _moved_only_by_shared_places(before, after, set(), was - now)
        assert len(now) >= len(was), name

    check()


@pytest.mark.parametrize(("system", "name"), CASES)
def test_the_verdicts_do_not_depend_on_the_order_of_the_units(system, name):
    """The state keeps its units sorted; the determination is handed them in other orders and must agree."""
    state = _example(system, name)
    expected = nl.supply(state)
    for seed in (1, 2, 3):
        shuffled = list(state.units)
        np.random.default_rng(seed).shuffle(shuffled)
        other = state.evolve()
        object.__setattr__(other, "units", tuple(shuffled))  # past the sorting, on purpose
        assert [u.id for u in other.units] != [u.id for u in state.units]
        report = nl.supply(other)
        for uid, row in expected.units.items():
            got = report[uid]
            assert (got.general, got.combat, got.isolated, got.code, got.reason, got.path) == (
                row.general, row.combat, row.isolated, row.code, row.reason, row.path,
            ), (name, uid)  # fmt: skip


@pytest.mark.parametrize(("system", "name"), CASES)
def test_bad_weather_never_lengthens_a_range(system, name):
    state = _example(system, name)
    fair_weathers = [w for w, e in state.rules.weather_effects.items() if not e.get("supply_halved")]
    foul_weathers = [w for w, e in state.rules.weather_effects.items() if e.get("supply_halved")]
    fair = nl.supply(state.evolve(weather=fair_weathers[0]))
    for foul_weather in foul_weathers:
        foul = nl.supply(state.evolve(weather=foul_weather))
        assert _in(foul) <= _in(fair), (name, foul_weather)
        for hq in [u for u in state.units if u.hq][:6]:
            if fair[hq.id].general and foul[hq.id].general:
                assert foul.supply_range(hq.id) <= fair.supply_range(hq.id), (name, hq.id)


@pytest.mark.parametrize(("system", "name"), CASES)
def test_every_report_follows_the_schema_and_every_exemption_names_its_rule(system, name):
    state = _example(system, name)
    report = nl.supply(state)
    g = nl.grid(state.system)
    assert set(report.units) == {u.id for u in state.units}, name
    for unit in state.units:
        row = report[unit.id]
        assert (row.unit_id, row.side, row.hex) == (unit.id, unit.side, unit.hex)
        assert all(isinstance(v, bool) for v in (row.general, row.combat, row.isolated))
        states = report.states(unit.id)
        assert list(states) == [s.key for s in state.rules.supply_states] and states
        assert next(iter(states.values())) == row.general  # the first state is "in supply"
        if not row.general:
            assert row.code in CODES and row.rule and row.reason, (name, unit.id, row.code)
            continue
        if row.path:  # a line: from the unit, hex by hex
            assert row.path[0] == unit.hex
            assert all(g.distance(a, b) == 1 for a, b in zip(row.path, row.path[1:], strict=False))
        else:  # in supply with no line: an exemption, which says by which rule
            assert row.code == EXEMPT and row.rule and row.reason, (name, unit.id, row.traced_to)
