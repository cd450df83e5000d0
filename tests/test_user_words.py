"""What an analyst or a class reads: a study's repr, the scenarios one can open, a saved file's name (ux-2)."""

from __future__ import annotations

import os
from pathlib import Path

import normandy_lab as nl
from normandy_lab.engine.scenario import SCENARIO_DIR


def test_a_study_says_what_it_is():
    study = nl.Study("bfn_1944-06-13_am", [{"op": "weather", "weather": "Storm"}], title="storm lesson")
    said = repr(study)
    assert said.startswith("Study('storm lesson', 'bfn_1944-06-13_am': 1 edit and 0 phase steps, now ")
    assert "object at 0x" not in said


def test_nl_scenarios_lists_every_scenario_it_can_open():
    table = nl.scenarios()
    assert list(table["name"]) == sorted(p.stem for p in SCENARIO_DIR.glob("*.yaml"))
    assert set(table["game"]) == {"bfn", "cobra", "kg", "gts"}
    row = table.set_index("name").loc["kg_1944-06-19_t14"]
    assert (row["game"], row["date"], row["turn"]) == ("kg", "1944-06-19", "Turn 14")
    assert nl.load_scenario(table["name"].iloc[0]).system == table["game"].iloc[0]


def test_the_saved_banner_names_the_file_not_the_server_path(tmp_path, monkeypatch):
    from normandy_lab.views.explorer.exports import _shown_path

    monkeypatch.chdir(tmp_path)
    assert _shown_path(Path("lessons/day1.study.json")) == os.path.join("lessons", "day1.study.json")
    elsewhere = tmp_path.parent / "other" / "day1.study.json"
    said = _shown_path(elsewhere)
    assert said == "day1.study.json (in the folder other)" and str(tmp_path.parent) not in said


def test_supply_changes_says_where_each_unit_is_and_why_with_places():
    from normandy_lab.engine.edits import set_weather
    from normandy_lab.engine.whatif import supply_changes

    state = nl.load_scenario("bfn_1944-06-13_am")
    table = supply_changes(state, set_weather(state, "Storm"))
    assert len(table) and {"place", "why_after", "reason_after"} <= set(table.columns)
    row = table.iloc[0]
    assert row["place"].startswith(row["hex"]) and len(row["place"]) > len(row["hex"])
    assert len(row["why_after"]) >= len(row["reason_after"])  # each hex id followed by its place


def test_a_comparison_is_titled_by_what_differs():
    from normandy_lab.engine.edits import destroy_bridge, set_weather
    from normandy_lab.views.compare import difference_words

    state = nl.load_scenario("bfn_1944-06-13_am")
    vire = nl.terrain_map("bfn", progress=False).bridges("Vire")
    cut = state
    for a, b in zip(vire.a[:3], vire.b[:3], strict=True):
        cut = destroy_bridge(cut, a, b)
    assert difference_words(state, cut) == "3 bridges cut"
    assert difference_words(state, set_weather(state, "Storm")) == f"Storm (was {state.weather})"
    assert difference_words(state, state) == "the same situation"


def test_a_readable_table_is_left_aligned_and_wraps_whole():
    import pandas as pd

    from normandy_lab.views.tables import readable

    html = readable(pd.DataFrame({"why": ["a long reason " * 20]})).to_html()
    assert "text-align: left" in html and "white-space: normal" in html


def test_a_map_frame_draws_every_glyph_while_zooming():
    """Bokeh's level of detail would draw one glyph in ten during a wheel zoom: a sparse frame (ux-2)."""
    from normandy_lab.views.mapview import map_frame

    fig = map_frame("t", (-1.0, 49.0, -0.5, 49.3), 400, 300, "#ffffff")
    assert fig.lod_threshold is None


def test_the_campaign_key_shows_each_side_s_squares_and_the_sea_is_drawn_over_the_allied_ground():
    """ux-2: the key's square was blue only, for red German squares too; in August the Allied fill hid the coast."""
    from bokeh.models import Legend

    from normandy_lab.views.campaign import campaign_map

    layout = campaign_map()
    [legend] = list(layout.select({"type": Legend}))
    labels = [item.label["value"] for item in legend.items]
    assert "Allied divisions and brigades (scenario dates)" in labels
    assert "German divisions and brigades (scenario dates)" in labels
    from bokeh.plotting import figure as figure_type

    [fig] = list(layout.select({"type": figure_type}))
    fills = [r.glyph.fill_color for r in fig.renderers if type(r.glyph).__name__ == "MultiPolygons"]
    assert fills.index("#e6f1fb") > fills.index("#4f7fbf")  # the sea after (over) the Allied ground
    # ux-2: the squares hid Saint-Lô and Villers-Bocage.  The place names are labels (drawn over every glyph,
    # the squares among them) on a pale box.
    from bokeh.models import LabelSet

    names = [a for a in fig.center if isinstance(a, LabelSet) and "Saint-Lô" in a.source.data.get("name", [])]
    assert names and all(a.background_fill_color is not None and a.background_fill_alpha > 0.5 for a in names)


def test_a_basemap_keeps_its_key_beside_the_map():
    """ux-2: the terrain key covered the names under it (Hérouville on the Caen map)."""
    from normandy_lab.views import basemap

    fig = basemap("bfn", extent=(-0.75, 49.0, -0.1, 49.36), width=900, height=650)
    assert fig.legend[0] in fig.right and fig.legend[0] not in fig.center


def test_a_click_turns_the_map_s_hover_tooltips_off_until_the_pointer_moves_away():
    """ux-2: after a click the hex's and unit's tooltips covered the counter (and the bridge's the new mark)."""
    from bokeh.models import HoverTool

    from normandy_lab.views.explorer import HOVER_BACK_PX, quiet_hovers_after_a_click
    from normandy_lab.views.mapview import map_frame

    fig = map_frame("t", (-1.0, 49.0, -0.5, 49.3), 400, 300, "#ffffff")
    quiet_hovers_after_a_click(fig)
    assert fig.js_event_callbacks == {}  # no hover tool: nothing to quiet
    hover = HoverTool(tooltips=[("hex", "@id")])
    fig.add_tools(hover)
    quiet_hovers_after_a_click(fig)
    [tap] = fig.js_event_callbacks["tap"]
    [move] = fig.js_event_callbacks["mousemove"]
    assert tap.args["hovers"] == [hover] and "h.active = false" in tap.code
    assert move.args["far"] == HOVER_BACK_PX and "h.active = true" in move.code


def test_the_comparison_table_gives_each_reason_with_places_and_counts_one_unit_as_one():
    """ux-2: the table under two maps side by side gave reasons as hex ids, and "1 units change supply"."""
    from normandy_lab.engine.edits import destroy_bridge
    from normandy_lab.engine.whatif import supply_changes
    from normandy_lab.views.compare import difference_table

    state = nl.load_scenario("bfn_1944-06-13_am")
    cut = destroy_bridge(state, "B2215", "B2214")  # over the Vire by Isigny: one American unit cut off
    table, changed = difference_table(state, cut)
    [row] = supply_changes(state, cut).itertuples()
    assert changed == [row.Index] and table.startswith("<b>1 unit changes supply</b>")
    assert "Isigny-sur-Mer" in row.why_after and row.why_after != row.reason_after
    assert row.why_after in table.replace("&#x27;", "'") and row.reason_after not in table


def test_every_rule_reading_a_verdict_rests_on_is_said_in_words():
    """ux-2: the panel said "combat_supply_chain = own_army": each game's look words every value of each
    reading its verdicts name (the values its options schema allows), and the panel uses those words."""
    import typing

    from normandy_lab import rules
    from normandy_lab.rules.bfn.schema import BfnOptionsSchema
    from normandy_lab.rules.cobra.schema import CobraOptionsSchema
    from normandy_lab.rules.kg.schema import KgOptionsSchema
    from normandy_lab.views import wording

    schemas = {"bfn": BfnOptionsSchema, "cobra": CobraOptionsSchema, "kg": KgOptionsSchema}
    named = {"bfn": "bfn_1944-06-13_am", "cobra": "cobra_1944-07-16_gt15", "kg": "kg_1944-06-19_t14"}
    for game, schema in schemas.items():
        words = rules.look(game).reading_words
        for key, said in words.items():
            allowed = {v for arg in typing.get_args(schema.model_fields[key].annotation) for v in typing.get_args(arg)}
            assert set(said) == allowed, (game, key)  # every value the schema allows, and no other
            assert all(phrase and "_" not in phrase for phrase in said.values()), (game, key)
        state = nl.load_scenario(named[game])
        used = {key for row in nl.supply(state).units.values() for key in row.readings}
        assert used and used <= set(words), (game, used - set(words))
        row = next(row for row in nl.supply(state).units.values() if row.readings)
        text = wording.reading_words(state.rules, row.readings)
        assert "_" not in text and all(words[k][str(v)] in text for k, v in row.readings.items())


def test_a_comparison_s_titles_say_what_differs_on_a_line_of_its_own():
    """ux-2: "Storm (was Overcast): 13 June 1944, AM — Allied Artillery Ready (allied)" was cut at the right
    map's edge; what differs now has its own line, the state's label the next."""
    from normandy_lab.engine.edits import set_weather
    from normandy_lab.views.compare import compare

    state = nl.load_scenario("bfn_1944-06-13_am")
    left, right = compare(state, set_weather(state, "Storm")).figures
    assert left.title.text == f"as it is\n{state.label}"
    assert right.title.text == f"Storm (was {state.weather})\n{state.label}"
