"""The scenarios read are kept parsed and checked (issue 33 section 4: the explorer's warm opening).

``load_scenario_text`` parses and checks a text once per path and set of registered games; every call
returns a state object of its own, equal to the first.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

import normandy_lab as nl
import normandy_lab.engine.scenario as scenario
from normandy_lab import rules
from normandy_lab.engine.scenario import ScenarioError, load_scenario_text, scenario_path

NAME = "bfn_1944-06-13_am"
KEY = "bfn_kept"


@pytest.fixture
def text() -> str:
    return scenario_path(NAME).read_text(encoding="utf-8")


@pytest.fixture
def parses(monkeypatch) -> list[str]:
    """The texts actually parsed from now on."""
    seen: list[str] = []
    parse = scenario.load_yaml_with_lines

    def counting(text, *args, **kwargs):
        seen.append(text)
        return parse(text, *args, **kwargs)

    monkeypatch.setattr(scenario, "load_yaml_with_lines", counting)
    return seen


def test_the_same_text_is_parsed_once_and_each_call_has_its_own_equal_state(text, parses):
    path = "kept/once.yaml"  # a path of its own: no other test has read this text under it
    first = load_scenario_text(text, path)
    second = load_scenario_text(text, path)
    assert len(parses) == 1
    assert second is not first and second == first
    assert all(getattr(second, f.name) == getattr(first, f.name) for f in dataclasses.fields(first))


def test_another_text_or_path_is_parsed_afresh(text, parses):
    load_scenario_text(text, "kept/a.yaml")
    stormy = re.sub(r"^weather: .*$", "weather: Storm", text, count=1, flags=re.M)
    if stormy == text:  # the file gives no weather: add one
        stormy = text.replace("\nturn: ", "\nweather: Storm\nturn: ", 1)
    assert load_scenario_text(stormy, "kept/a.yaml").weather == "Storm"
    load_scenario_text(text, "kept/b.yaml")
    assert len(parses) == 3


def test_a_game_unregistered_since_is_refused_as_before(text):
    named = re.sub(r"^system: bfn$", f"system: {KEY}", text, count=1, flags=re.M)
    rules.register_game(dataclasses.replace(rules.game("bfn"), key=KEY, rules=rules.get("bfn")))
    try:
        assert load_scenario_text(named, "kept/variant.yaml").game == KEY
    finally:
        rules.unregister_game(KEY)
    with pytest.raises(ScenarioError, match=f"system: '{KEY}' is not allowed"):
        load_scenario_text(named, "kept/variant.yaml")


def test_a_game_registered_again_checks_the_text_again(text, parses):
    named = re.sub(r"^system: bfn$", f"system: {KEY}", text, count=1, flags=re.M)
    for _ in range(2):  # the same key, another game object each time
        rules.register_game(dataclasses.replace(rules.game("bfn"), key=KEY, rules=rules.get("bfn")))
        try:
            load_scenario_text(named, "kept/again.yaml")
        finally:
            rules.unregister_game(KEY)
    assert len(parses) == 2


def test_load_scenario_reads_the_file_each_time(tmp_path):
    path = tmp_path / f"{NAME}.yaml"
    text = scenario_path(NAME).read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    before = nl.load_scenario(path)
    path.write_text(text.replace(f"\nturn: {before.turn}", f"\nturn: {before.turn}\nweather: Storm", 1))
    assert nl.load_scenario(path).weather == "Storm"
