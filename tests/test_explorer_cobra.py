"""The explorer on a Cobra scenario (issues 15 and 16): the same application, nothing Cobra-specific in views.

Driven as a user would, without a browser, through the methods the buttons call.
"""

from __future__ import annotations

import html
from dataclasses import replace

import pytest

import normandy_lab as nl
from normandy_lab.views.explorer import Explorer
from normandy_lab.views.sequence import save_sequence_html

SCENARIO = "cobra_1944-07-16_gt15"
MOVED = {"US-30-ID": "A1112", "UK-4-ARMBDE": "A4520"}  # driven behind the German line: cut off


@pytest.fixture(scope="module")
def explorer() -> Explorer:
    state = nl.load_scenario(SCENARIO)
    state = state.evolve(units=tuple(replace(u, hex=MOVED.get(u.id, u.hex)) for u in state.units))
    return nl.explore(state)


def test_a_cobra_scenario_opens_with_its_units_zones_and_supply(explorer):
    assert "GT 15" in explorer.label.value
    units = explorer.sources["units"].data
    assert len(units["unit_id"]) == len(explorer.state.units)
    out = {r.unit_id for r in explorer.report.out_of_supply()}
    assert out == set(MOVED)
    shown_out = {uid for uid, general in zip(units["unit_id"], units["general"], strict=True) if not general}
    assert shown_out == out
    assert explorer.layer_hexes("zoc_allied") or explorer.layer_hexes("zoc_german")


def test_clicking_units_explains_in_cobra_s_own_rules(explorer):
    explorer.select_unit("UK-4-ARMBDE")
    text = html.unescape(explorer.inspector.value)
    assert "10.3" in text and "(UK-4-ARMBDE)" in text
    row = next(r for r in explorer.report.units.values() if r.general and len(r.path) >= 3)
    explorer.select_unit(row.unit_id)
    assert explorer.sources["paths"].data["unit_id"] == [row.unit_id]
    assert " → ".join(row.path) in explorer.inspector.value


def test_interdicting_a_hex_on_a_line_reroutes_it(explorer):
    row = next(r for r in explorer.report.units.values() if r.general and len(r.path) >= 4)
    middle = row.path[len(row.path) // 2]
    explorer.select_unit(row.unit_id)
    explorer.mode.value = "interdict hex"
    explorer.click_hex(middle)
    assert middle in explorer.state.interdicted_hexes
    assert middle not in explorer.report[row.unit_id].path
    explorer.undo()
    assert not explorer.state.interdicted_hexes


def test_stepping_through_a_game_turn_and_into_the_next(explorer):
    phases = nl.rules.get("cobra").sequence["GT 15"]
    for _ in range(len(phases) - 1):
        explorer.step()
    assert explorer.state.turn == "GT 15" and explorer.state.phase_index == len(phases) - 1
    explorer.next_day()
    assert explorer.state.turn == "GT 16" and str(explorer.state.date) == "1944-07-19"


def test_exports_of_a_cobra_state(explorer, check_exports, tmp_path):
    check_exports(explorer)
    sequence = save_sequence_html(explorer.states[:2], tmp_path / "sequence.html")
    assert sequence.exists()


def test_cobra_s_own_controls_plan_a_carpet_bombing_as_an_edit():
    explorer = nl.explore(SCENARIO)
    assert {"carpet_plan", "allied_exited", "south_edge_lost"} <= set(explorer.single_widgets)
    while (
        explorer.state.rules.sequence[explorer.state.turn][explorer.state.phase_index].name != "Allied Combat"
    ):
        explorer.step()
    explorer.single_widgets["carpet_plan"].value = "A1305"
    explorer.single_buttons["carpet_plan"].click()
    assert explorer.state.markers["carpet_plan"] == {"hex": "A1305", "gt": 15}
    explorer.single_widgets["allied_exited"].value = True
    explorer.single_buttons["allied_exited"].click()
    assert explorer.state.markers["allied_exited"] is True
    explorer.undo()
    assert (
        explorer.state.markers["allied_exited"] is False
        and not explorer.single_widgets["allied_exited"].value
    )


def test_compare_on_a_cobra_state_shows_cobra_s_supply_states():
    from normandy_lab.views.compare import difference_table

    before = nl.load_scenario(SCENARIO)
    after = before.evolve(units=tuple(replace(u, hex=MOVED.get(u.id, u.hex)) for u in before.units))
    table, changed = difference_table(before, after)
    assert set(changed) == set(MOVED)
    assert "<th>supply</th><th>attack supply</th>" in table and "Combat Supply" not in table
    assert table.count("yes → no") == 2 * len(MOVED)  # both of Cobra's states, for each unit cut off


def test_counter_colours_come_from_the_game_s_look(monkeypatch):
    from normandy_lab import rules

    state = nl.load_scenario(SCENARIO)
    grey = replace(rules.look("cobra"), side_colours={"allied": "#00aa00", "german": "#333333"})
    monkeypatch.setitem(rules._LOOKS, "cobra", grey)  # Cobra shown with other colours (Look.side_colours)
    data = nl.explore(state).sources["units"].data
    colours = {
        side: {c for s, c in zip(data["side"], data["colour"], strict=True) if s == side}
        for side in ("allied", "german")
    }
    assert colours == {"allied": {"#00aa00"}, "german": {"#333333"}}


def test_the_boundary_extension_is_an_explorer_control_and_an_edit():
    from normandy_lab.engine.sequence import current_phase, next_phase
    from normandy_lab.engine.state import Unit

    state = nl.load_scenario(SCENARIO)
    raid = Unit(
        id="US-S", name="US-S", side="allied", nationality="US", type="infantry", mechanized=False,
        size="regiment", formation=None, corps=None, hq=None, hex="A2119", steps=2,
    )  # fmt: skip
    state = state.evolve(units=(*state.units, raid))
    while current_phase(state).name != "Game Turn Indication":
        state = next_phase(state)
    explorer = nl.explore(next_phase(state))  # GT 16: the turn after one ended with a unit south of Vire
    assert explorer.single_widgets["boundary_extension"].value == ""
    explorer.single_widgets["boundary_extension"].value = "A2117, A5117"
    explorer.single_buttons["boundary_extension"].click()
    assert explorer.state.markers["boundary_extension"] == ("A2117", "A5117")
    assert explorer.single_widgets["boundary_extension"].value == "A2117 A5117"
    explorer.single_widgets["boundary_extension"].value = ""
    explorer.single_buttons["boundary_extension"].click()
    assert explorer.state.markers["boundary_extension"] is None
