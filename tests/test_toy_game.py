"""A fifth game on a map of its own, added from its folder alone (issue 32, section 1, "Done when").

``tests/toy_game/`` brings a 10 x 10 board round Bayeux (its numbering scheme, terrain words and colours,
control points), its rules (written against ``normandy_lab.rules.api``), its look and one scenario file
with ``system: toy``; importing it registers it (one ``register_game`` line).  These tests show it plays
everywhere the four shipped games do: the grid, the terrain, a scenario, the supply, a session and the
explorer, a saved study, side by side.  ``tests/test_contract.py`` runs the contract's invariants on it.
``tests/toy_system/`` is the other case: a rule system on BfN's map, registered under its own key.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import normandy_lab as nl
from normandy_lab import rules
from normandy_lab.errors import RefusedError

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import toy_game  # noqa: E402 - beside the tests, outside the package: importing it registers the game
import toy_system  # noqa: E402 - the toy rule system on BfN's map, under the key toy_bfn


@pytest.fixture(scope="module")
def state():
    return nl.load_scenario(toy_game.SCENARIO)


def test_the_game_is_registered_by_its_package_with_its_own_map():
    game = rules.game("toy")
    assert game is toy_game.GAME and game.map == "toy" and "toy" in rules.available()
    g = nl.grid("toy")
    assert len(g) == 100 and g.ids()[:2] == ["T0101", "T0201"]  # its own id format (data: Scheme.id_format)
    assert g.distance("T0202", "T0802") == 6
    assert {p.place for p in g.control_points().itertuples()} == {"Bayeux", "Creully", "Tilly-sur-Seulles"}
    assert g.residuals()["hexes_off"].max() == 0  # each control point lands in its own hex
    words = set(nl.terrain_map("toy", progress=False).hexes["terrain"])
    assert words and words <= set(toy_game.map.VOCABULARY.terrains)  # the toy's words, not BfN's


def test_the_views_draw_its_words_in_its_colours_and_offer_its_sectors_only():
    from normandy_lab.views.basemap import terrain_colours
    from normandy_lab.views.sectors import sectors_on

    assert terrain_colours("toy")["Hedges"] == "#8fbf6a"
    assert sectors_on("toy") == ("Bayeux to Tilly",)
    assert "Falaise and the pocket" not in sectors_on("toy")


def test_its_scenario_file_names_it_and_its_rules_decide(state):
    assert (state.system, state.game, state.rules.title) == ("toy", "toy", "Toy")
    report = nl.supply(state)
    out = {r.unit_id: r for r in report.out_of_supply()}
    assert set(out) == {"UK-3"}  # six hexes from its HQ; the limit is 4 (toy rule 4)
    assert out["UK-3"].rule == "toy 4" and "6 hexes away; the limit is 4" in out["UK-3"].reason
    assert report["UK-1"].path == ["T0404", "T0403", "T0303"]
    stormy = nl.supply(state.evolve(weather="Storm"))  # half the range: the German 3 hexes out
    assert {r.unit_id for r in stormy.out_of_supply()} == {"UK-3", "DE-2"}


def test_a_session_plays_it_and_a_study_of_it_round_trips(state, tmp_path):
    from normandy_lab.session import Session

    session = Session(str(toy_game.SCENARIO))
    assert session.system == "toy"
    assert session.apply({"op": "move", "unit": "UK-3", "to": "T0306"}), session.message
    assert not {r.unit_id for r in session.report.out_of_supply()}  # three hexes from its HQ now
    path = nl.save_study(session.study, tmp_path / "toy.json")
    again = nl.load_study(path)
    assert again.state.game == "toy" and again.state.unit("UK-3").hex == "T0306"
    assert nl.supply(again.state)["UK-3"].general


def test_it_appears_side_by_side():
    from normandy_lab.sidebyside import marker_of, scenarios_on, side_by_side

    on_13 = scenarios_on("1944-06-13", stepped=False)
    assert on_13["toy"] == str(toy_game.SCENARIO) and "bfn" in on_13
    assert marker_of("toy") == "star"
    both = side_by_side("1944-06-13", scenarios={"bfn": "bfn_1944-06-13_am", "toy": str(toy_game.SCENARIO)})
    assert set(both.table["system"]) == {"bfn", "toy"}


def test_it_opens_in_the_explorer():
    from normandy_lab.views.explorer import Explorer

    explorer = Explorer(str(toy_game.SCENARIO))
    assert explorer.system == "toy" and explorer.sectors() == ("Bayeux to Tilly",)
    explorer.go_to("Bayeux to Tilly")


def test_a_game_on_a_shared_map_has_its_own_key_file_and_study(tmp_path):
    """The toy rule system on BfN's map: named in a scenario (system: toy_bfn), saved and reopened."""
    state = nl.load_scenario(toy_system.SCENARIO)
    assert (state.system, state.game, state.rules.title) == ("bfn", "toy_bfn", "Toy")
    assert rules.get("bfn").title == "The Battle for Normandy"  # BfN keeps its own key
    out = {r.unit_id for r in nl.supply(state).out_of_supply()}
    study = nl.Study(str(toy_system.SCENARIO))
    again = nl.load_study(nl.save_study(study, tmp_path / "toy_bfn.json"))
    assert (
        again.state.game == "toy_bfn" and {r.unit_id for r in nl.supply(again.state).out_of_supply()} == out
    )


def test_a_game_whose_map_is_neither_brought_nor_registered_is_refused():
    with pytest.raises(RefusedError, match=r"plays on the map 'nowhere', which is not registered"):
        rules.register_game(rules.Game("lost", "Lost", "nowhere", toy_game.RULES))
    bad_map = rules.MapData(toy_game.MAP.scheme, toy_game.MAP.vocabulary, toy_game.MAP.control_points[:1])
    with pytest.raises(RefusedError, match="at least two control points"):
        rules.register_game(rules.Game("lonely", "Lonely", "toy", toy_game.RULES, map_data=bad_map))
    assert "lost" not in rules.available() and "lonely" not in rules.available()


def test_the_walk_through_in_the_docs_runs_and_says_what_it_finds():
    """docs/rule-systems.md's toy block: run as written (from the repository root), its comment is true."""
    import os
    import re

    text = (HERE.parent / "docs" / "rule-systems.md").read_text(encoding="utf-8")
    section = text.split("**The registration**", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    said = re.search(r"# '(.*)'\n", code).group(1)
    namespace: dict = {}
    cwd = os.getcwd()
    os.chdir(HERE.parent)
    try:
        exec(compile(code, "docs/rule-systems.md", "exec"), namespace)
    finally:
        os.chdir(cwd)
    assert namespace["nl"].supply(namespace["state"])["UK-3"].reason == said
