"""Bad scenario input gets a clear error: the file, the line, the field, what is wrong, how to fix it."""

from __future__ import annotations

from pathlib import Path

import pytest

from normandy_lab.engine import ScenarioError, load_scenario_text

BASE = (Path(__file__).parent / "data" / "bfn_pegasus_1944-06-07.yaml").read_text()


def _line_of(text: str, needle: str) -> int:
    for n, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return n
    raise AssertionError(needle)


CASES = [
    # (name, replace-from, replace-to, expected pieces of the message)
    ("yaml syntax", "turn: AM", "turn: [AM", ["YAML syntax error"]),
    ("unknown top field", "turn: AM", "turn: AM\nturns: AM", ["turns: unknown field", "did you mean 'turn'"]),
    ("missing name", 'name: "12.5.4 example: Hérouvillette"\n', "", ["name: missing required field"]),
    (
        "unknown system",
        "system: bfn",
        "system: tobruk",
        ["system: 'tobruk' is not allowed", "use one of 'bfn'"],
    ),
    (
        "bad format",
        "format: normandy_lab.scenario/1",
        "format: other/9",
        ["format: 'other/9' is not allowed", "normandy_lab.scenario/1"],
    ),
    ("date not a date", "date: 1944-06-07", "date: seventh of June", ["date:", "valid date", "YYYY-MM-DD"]),
    ("date before the campaign", "date: 1944-06-07", "date: 1944-05-01", ["outside the campaign"]),
    ("date after the campaign", "date: 1944-06-07", "date: 1944-12-25", ["outside the campaign"]),
    ("unknown turn", "turn: AM", "turn: Noon", ["turn: 'Noon' is not allowed", "'Night', 'AM', 'PM'"]),
    ("6 June turn on another day", "turn: AM", "turn: 6 June Night", ["only on 6 June"]),
    ("unknown phase", "turn: AM", "turn: AM\nphase: Lunch", ["phase:", "is not a phase of the AM turn"]),
    (
        "unknown weather",
        "weather: Overcast",
        "weather: Drizzle",
        ["weather: 'Drizzle' is not allowed", "'Overcast'"],
    ),
    (
        "negative seed",
        "weather: Overcast",
        "weather: Overcast\nseed: -3",
        ["seed: -3", "give a number at least 0"],
    ),
    (
        "csp not a number",
        "weather: Overcast",
        "weather: Overcast\ncsp: lots",
        ["csp: 'lots'", "give a whole number"],
    ),
    (
        "unknown map in air",
        "weather: Overcast",
        "weather: Overcast\nair: {allied: {Z: 3}}",
        ["air.allied", "unknown map 'Z'"],
    ),
    (
        "negative air points",
        "weather: Overcast",
        "weather: Overcast\nair: {allied: {A: -2}}",
        ["air.allied.A: -2", "at least 0"],
    ),
    ("unknown hex", "hex: C2913", "hex: C9913", ["units[3].hex", "off the map"]),
    ("malformed hex", "hex: C2913", "hex: 2913", ["units[3].hex: 2913 was read as a number", "quotes"]),
    ("unit on the sea", "hex: C2913", "hex: C1527", ["units[3].hex", "is a sea hex"]),
    ("duplicate id", "id: GB-3D-1,", "id: GB-3D-HQ,", ["units[3].id", "two units have the id 'GB-3D-HQ'"]),
    (
        "unknown side",
        "side: allied, nationality: UK, type: infantry",
        "side: axis, nationality: UK, type: infantry",
        ["units[3].side: 'axis' is not allowed", "'allied' or 'german'"],
    ),
    (
        "nationality of the wrong side",
        "side: allied, nationality: UK, type: infantry",
        "side: allied, nationality: DE, type: infantry",
        ["units[3].nationality", "not a allied nationality"],
    ),
    (
        "unknown unit type",
        "type: infantry, size: battalion, formation: 3rd Division",
        "type: infantery, size: battalion, formation: 3rd Division",
        ["units[3].type", "did you mean 'infantry'"],
    ),
    (
        "unknown size",
        "type: infantry, size: battalion, formation: 3rd Division",
        "type: infantry, size: platoon, formation: 3rd Division",
        ["units[3].size: 'platoon' is not allowed", "'battalion'"],
    ),
    (
        "missing division hq",
        "formation: 3rd Division, corps: I Corps, hex: C2913",
        "formation: 50th Division, corps: I Corps, hex: C2913",
        ["units[3].formation", "no HQ of '50th Division'"],
    ),
    ("impossible stack", "hex: C3212", "hex: C2913", None),  # replaced below
    (
        "steps out of range",
        "hex: C2913, steps: 3",
        "hex: C2913, steps: 7",
        ["units[3].steps", "between 1 and 3 for a battalion"],
    ),
    (
        "hq without type",
        "type: hq, hq: division, size: division_hq, formation: 3rd Division",
        "type: infantry, hq: division, size: division_hq, formation: 3rd Division",
        ["units[2].hq", "disagree"],
    ),
    (
        "unknown unit field",
        "hex: C2913, steps: 3",
        "hex: C2913, steps: 3, colour: red",
        ["units[3].colour", "unknown field"],
    ),
    (
        "mechanized not a boolean",
        "hex: C2913, steps: 3",
        "hex: C2913, steps: 3, mechanized: maybe",
        ["units[3].mechanized", "true or false"],
    ),
    (
        "beachhead nationality",
        "nationality: UK, hex: C2525",
        "nationality: FR, hex: C2525",
        ["beachheads[0].nationality"],
    ),
    (
        "bridge not adjacent",
        "weather: Overcast",
        "weather: Overcast\ndestroyed_bridges: [[C3014, C3020]]",
        ["destroyed_bridges", "not adjacent"],
    ),
    (
        "bad control side",
        "weather: Overcast",
        "weather: Overcast\ncontrol: {C3014: neutral}",
        ["control.C3014: 'neutral' is not allowed", "'allied' or 'german'"],
    ),
    (
        "unknown supply city",
        "weather: Overcast",
        "weather: Overcast\ngerman_supply_cities: [Paris]",
        ["german_supply_cities[0]: 'Paris' is not allowed", "'Caen'"],
    ),
    ("units not a list", "units:\n", "units: none\nold_units:\n", None),
]


@pytest.mark.parametrize(
    ("name", "old", "new", "expected"),
    [c for c in CASES if c[3] is not None],
    ids=[c[0] for c in CASES if c[3] is not None],
)
def test_bad_input_is_explained(name, old, new, expected):
    assert old in BASE, name
    text = BASE.replace(old, new, 1)
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, "scenario.yaml")
    message = str(info.value)
    assert message.startswith("scenario.yaml:"), message
    line = int(message.split(":")[1])
    assert line >= 1
    for piece in expected:
        assert piece in message, (piece, message)
    assert ";" in message  # what is wrong; how to fix it


def test_error_line_points_at_the_field():
    text = BASE.replace("hex: C2913", "hex: C9913", 1)
    with pytest.raises(ScenarioError) as info:
        load_scenario_text(text, "scenario.yaml")
    assert int(str(info.value).split(":")[1]) == _line_of(text, "C9913")


def test_an_impossible_stack_is_refused():
    extra = "\n".join(
        f"  - {{id: GB-X{n}, name: X{n}, side: allied, nationality: UK, type: infantry, size: battalion, formation: 3rd Division, hex: C2913, steps: 3}}"
        for n in range(3)
    )
    with pytest.raises(ScenarioError, match=r"hex C2913 holds 8 stacking points .* limit is 6, 6.0"):
        load_scenario_text(BASE + extra + "\n", "scenario.yaml")


def test_units_must_be_a_list():
    text = BASE.replace("units:\n", "units: none\nnotes:\n", 1)
    with pytest.raises(ScenarioError, match=r"unknown field|units: must be"):
        load_scenario_text(text, "scenario.yaml")


def test_at_least_25_cases_are_tested():
    assert len([c for c in CASES if c[3] is not None]) + 3 >= 25


def test_the_base_scenario_itself_loads():
    state = load_scenario_text(BASE, "scenario.yaml")
    assert state.turn == "AM" and len(state.units) == 9
