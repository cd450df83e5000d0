"""22.7.2's Reinforcement Track Adjustments, played as 26.16 places arrivals (normandy_lab.rules.kg.track)."""

from __future__ import annotations

import pytest
import yaml

import normandy_lab as nl
from normandy_lab.engine.scenario import ScenarioError, load_scenario_text
from normandy_lab.engine.sequence import current_phase, next_phase

SCENARIO = "scenarios/kg_1944-06-19_t14.yaml"


@pytest.fixture(scope="module")
def t14():
    return nl.load_scenario("kg_1944-06-19_t14")


def _to_phase(state, turn: str, name: str):
    while not (state.turn == turn and current_phase(state).name == name):
        state = next_phase(state)
    return state


def _printed(state, unit_id: str) -> str:
    return state.unit(unit_id).attr("printed")


def test_22_7_2_the_track_holds_what_the_adjustments_print(t14):
    """22.7.2 prints Turn 14: 752/84(I) for the Germans; Turn 15: 12 Corps HQ, 147/49/30, 231/50/30 and
    329/83, 330/83, 331/83; Turn 16: 3 AGRA/12(A), 59Hv(A) and 18(A) for the Allies."""
    track = {
        turn: sorted(dict(u)["printed"] for u in units) for turn, units in t14.markers["reinforcement_track"]
    }
    assert track == {
        "Turn 14": ["752/84(I)"],
        "Turn 15": sorted(["12 Corps HQ", "147/49/30", "231/50/30", "329/83", "330/83", "331/83"]),
        "Turn 16": sorted(["3 AGRA/12(A)", "59Hv(A)", "18(A)"]),
    }
    in_play = {u.id for u in t14.units}
    assert not in_play & {dict(u)["id"] for _, units in t14.markers["reinforcement_track"] for u in units}


def test_26_16_each_arrives_on_its_turn_in_the_box_the_rules_name(t14):
    """26.16.1: U.S. reinforcements in the U.S. Floating Reserve box, British and Canadian in the
    Commonwealth one, a British AGRA in the Allied Holding Box; 26.16.2: a German unit in an OMM box."""
    before = _to_phase(t14, "Turn 14", "Supply")
    assert "DE-752-84" not in {u.id for u in before.units}
    state = next_phase(before)  # Turn 14's Replacement and Reinforcement
    arrived = state.unit("DE-752-84")
    assert (arrived.status, arrived.box) == ("off_map", "OMM 15")
    assert [turn for turn, _ in state.markers["reinforcement_track"]] == ["Turn 15", "Turn 16"]
    said = state.rules.phase_results(state, current_phase(state))
    assert said["reinforcements_this_turn"] == [] and "22.7.2" in said["reinforcement_rule"]
    state = _to_phase(state, "Turn 15", "Replacement and Reinforcement")
    boxes = {_printed(state, u.id): u.box for u in state.units if u.id in _ids(t14, "Turn 15")}
    assert boxes == {
        "12 Corps HQ": "British Floating Reserve", "147/49/30": "British Floating Reserve",
        "231/50/30": "British Floating Reserve", "329/83": "US Floating Reserve",
        "330/83": "US Floating Reserve", "331/83": "US Floating Reserve",
    }  # fmt: skip
    state = _to_phase(state, "Turn 16", "Replacement and Reinforcement")
    boxes = {_printed(state, u.id): u.box for u in state.units if u.id in _ids(t14, "Turn 16")}
    assert boxes == {"3 AGRA/12(A)": "Allied Holding Box", "59Hv(A)": "British Floating Reserve",
                     "18(A)": "US Floating Reserve"}  # fmt: skip
    assert state.markers["reinforcement_track"] == ()


def _ids(state, turn: str) -> set[str]:
    return {dict(u)["id"] for t, units in state.markers["reinforcement_track"] if t == turn for u in units}


def test_the_track_leaves_the_supply_picture_of_turn_14_alone(t14):
    """Units still on the track are not in play: they trace nothing and are counted nowhere."""
    out = {r.unit_id for r in nl.supply(t14).out_of_supply()}
    assert len(out) == 30 and not out & _ids(t14, "Turn 15")


def _scenario() -> dict:
    with open(SCENARIO, encoding="utf-8") as f:
        return yaml.safe_load(f)


def _with_track(track) -> str:
    data = _scenario()
    data["reinforcement_track"] = track
    data.pop("expected_out_of_supply", None)
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def _entry(**changes):
    data = _scenario()
    unit = dict(data["reinforcement_track"][1]["units"][0])
    unit.update(changes)
    return unit


@pytest.mark.parametrize(
    ("track", "words"),
    [
        ([{"turn": "Turn 12", "units": [_entry()]}], "reinforcement_track[0].turn: Turn 12 is before"),
        ([{"turn": "Turn 15", "units": [_entry(id="US-7CorpsHQ")]}], "already in the scenario"),
        ([{"turn": "Turn 15", "units": [_entry(status="active")]}], "arrives off the map, in a box"),
        ([{"turn": "Turn 15", "units": [_entry(box="OMM 15")]}], "a box of its side"),
        ([{"turn": "Turn 15", "units": [_entry(hex="N9999")]}], "reinforcement_track"),
    ],
)
def test_a_track_a_scenario_may_not_hold_is_refused_at_its_line(track, words):
    with pytest.raises(ScenarioError, match=words.replace("[", r"\[").replace("]", r"\]")):
        load_scenario_text(_with_track(track), "t14.yaml")
