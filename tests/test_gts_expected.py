"""The Greatest Day's 8 June scenario as it was: its default designation, its expected list, its pockets.

The designation (17.3) is a reading of history shipped as the default; the units it leaves Non-Supplied
are held exactly by the scenario's ``expected_out_of_supply``; the 82nd's groups west of the Merderet are
``cut_off``; and a state with no designation says so first, never a count that looks like history.
"""

from __future__ import annotations

import normandy_lab as nl
from normandy_lab.engine.edits import apply_edit
from normandy_lab.engine.whatif import supply_summary

NAME = "gts_1944-06-08_0700"
THREE = ("4th Infantry Division", "82nd Airborne Division", "101st Airborne Division")
WEST_OF_THE_MERDERET = {"US-82AB-508-2", "US-82AB-507-T", "US-82AB-507-M"}  # Shanley, Timmes, Millett


def test_the_default_designation_is_the_reading_of_history():
    state = nl.load_scenario(NAME)
    assert state.markers["supplied_divisions"] == THREE
    import yaml

    from normandy_lab.engine.scenario import SCENARIO_DIR

    built = yaml.safe_load((SCENARIO_DIR / f"{NAME}.yaml").read_text(encoding="utf-8"))
    assert "reading of history" in built["description"]


def test_the_engine_leaves_non_supplied_exactly_the_expected_units_at_most_three():
    state = nl.load_scenario(NAME)
    out = {r.unit_id for r in nl.supply(state).out_of_supply()}
    expected = {e.unit_id: e for e in state.expected_now()}
    assert out == set(expected) == {"US-90ID-359"}
    assert len(out) <= 3
    for e in expected.values():
        assert e.why in ("history", "rules") and len(e.reason) > 20 and e.source
        if e.why == "history":
            assert state.unit(e.unit_id).cut_off


def test_the_groups_west_of_the_merderet_are_cut_off_and_nobody_else():
    state = nl.load_scenario(NAME)
    assert {u.id for u in state.units if u.cut_off} == WEST_OF_THE_MERDERET


def test_without_a_designation_the_summary_leads_with_the_choice():
    state = nl.load_scenario(NAME)
    blank = apply_edit(state, {"op": "marker", "name": "supplied_divisions", "value": []})
    line = supply_summary(nl.supply(blank))
    assert line.startswith("No division designated yet: choose three (17.3)")
    from normandy_lab.views import layers

    banner = layers.supply_summary(blank, nl.supply(blank))
    assert banner.startswith("No division designated yet: choose three (17.3) — weather")
    # With the designation the line gives the count, and no such lead.
    assert not supply_summary(nl.supply(state)).startswith("No division")


def test_the_explorer_offers_the_designation_as_a_control():
    explorer = nl.explore(NAME)
    widget = explorer.single_widgets["supplied_divisions"]
    assert widget.value == THREE  # the scenario's default, shown
    assert "90th Infantry Division" in widget.options
    widget.value = ("4th Infantry Division", "101st Airborne Division", "90th Infantry Division")
    explorer.single_buttons["supplied_divisions"].click()
    assert explorer.state.markers["supplied_divisions"] == widget.value
    out = {explorer.state.unit(r.unit_id).formation for r in nl.supply(explorer.state).out_of_supply()}
    assert out == {"82nd Airborne Division"}
    widget.value = ()  # none chosen: the designation cleared, and the banner says so first
    explorer.single_buttons["supplied_divisions"].click()
    assert explorer.state.markers["supplied_divisions"] == ()
    assert "No division designated yet: choose three" in explorer.label.value
    explorer.undo()
    assert explorer.single_widgets["supplied_divisions"].value[2] == "90th Infantry Division"


def test_the_summary_counts_one_expected_unit_in_the_singular():
    """A class reads the line: "Of these, 1 is expected", never "1 are"."""
    import normandy_lab as nl

    said = nl.supply_summary(nl.supply(nl.load_scenario("gts_1944-06-08_0700")))
    assert "Of these, 1 is expected by the scenario" in said and "1 are" not in said
