"""The explorer (issue 5) driven as a user would, without a browser: the same methods the buttons call.

The browser tests (``test_explorer_browser.py``) drive the same application
in JupyterLab through Chromium.
"""

from __future__ import annotations

import html

import geopandas as gpd
import pyogrio
import pytest

import normandy_lab as nl
from normandy_lab.engine.study import Study, load_study
from normandy_lab.views import layers, wording
from normandy_lab.views.explorer import Explorer
from normandy_lab.views.sequence import save_sequence_html

SCENARIO = "bfn_1944-06-13_am"


# One explorer serves the module (building one is seconds of figure and widget set-up per test): before each
# test it is reset to what nl.explore(SCENARIO) returned, and checked against a fingerprint of that, so no test
# sees what another left behind. A test that leaves something the reset does not undo fails the next test's
# set-up, naming it, rather than changing that test's meaning in silence.
@pytest.fixture(scope="module")
def _built() -> tuple[Explorer, dict, dict]:
    explorer = nl.explore(SCENARIO)
    return explorer, _fingerprint(explorer), _inputs(explorer)


@pytest.fixture
def explorer(_built) -> Explorer:
    shared, pristine, inputs = _built
    if _fingerprint(shared) != pristine:
        _reset(shared, pristine, inputs)
        now = _fingerprint(shared)
        left = sorted(k for k in pristine.keys() | now.keys() if pristine.get(k) != now.get(k))
        assert not left, f"the shared explorer is not as built after the reset: {left[:10]}"
    return shared


def _widgets(explorer: Explorer) -> dict:
    """Every widget of the explorer by a stable name: its attributes, what they hold, and the app's tree."""
    import ipywidgets as w

    found: dict = {}

    def visit(name, obj):
        if isinstance(obj, dict):
            for key, value in obj.items():
                visit(f"{name}.{key}", value)
        elif isinstance(obj, w.Widget) and all(obj is not seen for seen in found.values()):
            found[name] = obj
            for k, child in enumerate(getattr(obj, "children", ())):
                visit(f"{name}[{k}]", child)
            for part in ("layout", "style"):
                visit(f"{name}.{part}", getattr(obj, part, None))

    # The explorer's own attributes, then its parts' (the widgets are the controls' and the phase controller's).
    for name, obj in vars(explorer).items():
        visit(name, obj)
    for part in ("controls", "phases"):
        for name, obj in vars(getattr(explorer, part)).items():
            visit(f"{part}.{name}", obj)
    return found


def _inputs(explorer: Explorer) -> dict:
    """The values of the widgets a user sets (not the panels the explorer writes into)."""
    import ipywidgets as w

    return {
        name: widget.value
        for name, widget in _widgets(explorer).items()
        if widget.has_trait("value") and not isinstance(widget, w.HTML | w.Label)
    }


def _is_plain(value) -> bool:
    if isinstance(value, tuple | frozenset):
        return all(_is_plain(v) for v in value)
    return isinstance(value, bool | int | float | str | type(None))


def _plain(obj) -> dict:
    """The attributes of an object that are plain values (flags, names, numbers, tuples of them)."""
    return {k: v for k, v in vars(obj).items() if _is_plain(v)}


def _fingerprint(explorer: Explorer) -> dict:
    """What a test can see of the explorer: widget states, the map's layers and view, session, flags."""
    import hashlib
    import pickle

    from jupyter_bokeh.widgets import BokehModel

    seen = {}
    for name, widget in _widgets(explorer).items():
        if isinstance(widget, BokehModel) or widget is explorer.refresh_count:  # the map; a redraw counter
            continue
        state = widget.get_state()
        seen[f"widget {name}"] = repr(
            {k: v for k, v in sorted(state.items()) if "IPY_MODEL_" not in repr(v) and k != "_view_count"}
        )
    for name, source in explorer.sources.items():
        seen[f"source {name}"] = hashlib.sha1(pickle.dumps(dict(source.data))).hexdigest()
    for name in explorer.layers.filters:
        seen[f"hexes {name}"] = explorer.layer_hexes(name)
    fig = explorer.fig
    seen["view"] = (fig.x_range.start, fig.x_range.end, fig.y_range.start, fig.y_range.end)
    seen["map widget patched"] = sorted(vars(explorer.map_widget).keys() & {"send"})
    session = explorer.session
    seen["session"] = repr((_plain(session), len(session.states), session.edits, session.redo_stack))
    seen["explorer"] = _plain(explorer)
    seen["controls"] = _plain(explorer.controls)
    return seen


def _reset(explorer: Explorer, pristine: dict, inputs: dict) -> None:
    """Put the shared explorer back as nl.explore(SCENARIO) made it, mostly through what a user can do."""
    explorer.play.playing = False
    explorer.open(SCENARIO)  # a new session on the scenario, the map redrawn, the slider at its start
    # The one layer drawn once, at construction, rather than by each redraw (a test may empty every layer).
    explorer.layers.set_features("bridges", layers.bridge_data(explorer.system))
    # The inputs back to their first values (the panels' texts are redrawn next, from the state).
    widgets = _widgets(explorer)
    for name, value in inputs.items():
        if name in widgets and widgets[name].value != value:
            widgets[name].value = value
    explorer.refresh()  # as at the start: no banner ("Opened ...")
    # The view as first drawn (open() goes to the front with the map's shape kept, a slightly taller view).
    x0, x1, y0, y1 = pristine["view"]
    explorer.fig.x_range.update(start=x0, end=x1)
    explorer.fig.y_range.update(start=y0, end=y1)
    for key in vars(explorer).keys() - pristine["explorer"].keys():
        if _is_plain(getattr(explorer, key)):
            delattr(explorer, key)  # a flag a test's actions set (the last Play tick's time)
    for key, value in pristine["explorer"].items():
        setattr(explorer, key, value)


def test_explore_returns_widgets_around_a_bokeh_map(explorer):
    import ipywidgets as w
    from jupyter_bokeh.widgets import BokehModel

    assert isinstance(explorer.app, w.VBox)
    assert isinstance(explorer.map_widget, BokehModel)
    assert "13 June 1944" in explorer.label.value
    # Every layer is filled from the engine's report of the first state.
    units = explorer.sources["units"].data
    assert len(units["unit_id"]) == sum(u.status == "active" for u in explorer.state.units)
    out = {r.unit_id for r in explorer.report.out_of_supply()}
    shown_out = {uid for uid, general in zip(units["unit_id"], units["general"], strict=True) if not general}
    assert shown_out == out
    assert len(explorer.layer_hexes("zoc_german")) > 100  # seen by the phasing (Allied) side: its EZOC
    assert explorer.layer_hexes("zoc_allied") == []
    # Zoomed out, one symbol per formation stands for its units.
    formations = explorer.sources["formations"].data
    assert sum(formations["units"]) == len(units["unit_id"])
    assert sum(formations["out"]) == len(out)


def test_step_back_and_slider_walk_the_sequence_of_play(explorer, monkeypatch):
    first_label = explorer.label.value
    explorer.step()
    assert explorer.label.value != first_label
    assert explorer.position == 1 and explorer.slider.max == 1
    assert explorer.state.phase_index != explorer.states[0].phase_index
    explorer.back()
    assert explorer.label.value == first_label
    explorer.slider.value = 1  # the slider moves through the states so far
    assert explorer.position == 1
    now = [100.0]  # Play's clock, moved by the test: no sleeping
    monkeypatch.setattr(explorer.phases, "_clock", lambda: now[0])
    monkeypatch.setattr(explorer.phases, "_play_done", float("-inf"))
    explorer.play.playing = True
    explorer.play.value = 1  # one tick of Play steps once more
    assert explorer.position == 2 and len(explorer.states) == 3
    explorer.play.value = 2  # a tick right behind it (queued while the step was drawn) is skipped
    assert explorer.position == 2
    explorer.speed.value = 0.3
    assert explorer.play.interval == 300
    now[0] += 0.2  # more than half an interval after the last step: a real tick
    explorer.play.value = 3
    assert explorer.position == 3
    explorer.play.playing = False  # Pause: a leftover tick does nothing
    now[0] += 0.2
    explorer.play.value = 4
    assert explorer.position == 3


def test_edits_stay_off_the_phase_slider_and_each_can_be_removed(explorer):
    explorer.mode.value = "interdict hex"
    explorer.click_hex("C3013")
    explorer.click_hex("C3014")
    explorer.step()
    explorer.click_hex("C3015")
    # Three edits and one phase step: the slider has two phases, the list three edits.
    assert explorer.slider.max == 1 and len(explorer.states) == 5
    assert len(explorer.edits_box.children) == 4  # a heading and one row per edit
    explorer.slider.value = 0  # the first phase is shown as it stood after its edits
    assert explorer.state.interdicted_hexes == {"C3013", "C3014"}
    explorer.slider.value = 1
    row = explorer.edits_box.children[2]  # the second edit (C3014), with its remove button
    assert "C3014" in row.children[1].value
    row.children[0].click()
    assert explorer.state.interdicted_hexes == {"C3013", "C3015"}
    assert "Removed: Hex C3014" in explorer.message and explorer.slider.max == 1
    # A step adds no listed edit: the list's widgets are kept, not made again.
    rows = explorer.edits_box.children
    explorer.step()
    assert explorer.edits_box.children is rows or explorer.edits_box.children == rows


def test_clicking_an_out_of_supply_unit_explains_why(explorer):
    unit = next(r for r in explorer.report.out_of_supply() if r.reason)
    explorer.select_unit(unit.unit_id)
    text = explorer.inspector.value
    assert f"({unit.unit_id})" in text and "Out of General Supply." in text
    assert "What binds:" in text and "In the engine's words:" in text
    assert "halved, out of supply" in text  # 7.5: strengths after supply effects
    # In plain words: where it is by place, each target it tried, the limit with its rule explained.
    record = explorer.state.unit(unit.unit_id)
    assert wording.place_of("bfn", record.hex) in html.unescape(text)
    for tried in unit.candidates:
        assert f"To {tried['target']}:" in html.unescape(text)
    assert "<abbr title='Units trace up to 6 hexes or 6 MP" in text
    if record.note:
        assert html.escape(record.note) in text  # the scenario's researched note is shown


def test_clicking_an_in_supply_unit_draws_its_line_and_an_hq_its_range(explorer):
    unit = next(r for r in explorer.report.units.values() if r.general and len(r.path) >= 3)
    explorer.select_unit(unit.unit_id)
    assert explorer.sources["paths"].data["unit_id"] == [unit.unit_id]
    assert " → ".join(unit.path) in explorer.inspector.value
    hq = next(u for u in explorer.state.units if u.hq and explorer.report[u.id].general)
    explorer.select_unit(hq.id)
    reach = explorer.report.supply_range(hq.id)
    assert set(explorer.layer_hexes("range")) == reach
    explorer.show_all_paths.value = True
    assert len(explorer.sources["paths"].data["unit_id"]) > 50


def test_interdicting_a_hex_on_a_line_changes_the_report_and_undo_redo_walk_it(explorer):
    unit = next(r for r in explorer.report.units.values() if r.general and len(r.path) >= 4)
    middle = unit.path[len(unit.path) // 2]
    explorer.select_unit(unit.unit_id)
    explorer.mode.value = "interdict hex"
    explorer.click_hex(middle)
    assert middle in explorer.state.interdicted_hexes
    assert explorer.layer_hexes("interdiction") == [middle]
    after = explorer.report[unit.unit_id]
    assert middle not in after.path  # a line never runs through an interdicted hex (11.2 option)
    assert after.path != unit.path or not after.general
    explorer.undo()
    assert not explorer.state.interdicted_hexes and explorer.report[unit.unit_id].path == unit.path
    explorer.redo()
    assert explorer.state.interdicted_hexes == {middle}
    explorer.click_hex(middle)  # a second click clears it
    assert not explorer.state.interdicted_hexes


def test_a_refused_move_is_explained_and_changes_nothing(explorer):
    unit = next(u for u in explorer.state.units if u.side == "allied" and not u.hq)
    explorer.select_unit(unit.id)
    explorer.mode.value = "move unit"
    before = len(explorer.states)
    explorer.click_hex("A0101")  # far away, and it is not the Allied movement phase
    assert explorer.message.startswith("Refused:")
    assert len(explorer.states) == before


def test_destroying_and_repairing_a_bridge_by_two_clicks(explorer):
    tmap = nl.terrain_map("bfn", progress=False)
    sides = tmap.hexsides
    already = set(explorer.state.destroyed_bridges)  # the scenario's own demolitions
    standing = sides[sides["road_bridge"]]
    bridge = standing[
        [f"{min(a, b)}|{max(a, b)}" not in already for a, b in zip(standing.a, standing.b, strict=True)]
    ].iloc[0]
    explorer.mode.value = "destroy bridge"
    explorer.click_hex(bridge["a"])
    assert "now click the hex across" in explorer.message
    explorer.click_hex(bridge["b"])
    assert len(explorer.state.destroyed_bridges - already) == 1
    explorer.mode.value = "repair bridge"
    explorer.click_hex(bridge["a"])
    explorer.click_hex(bridge["b"])
    assert explorer.state.destroyed_bridges == already


def test_a_tap_on_a_bridge_s_mark_cuts_it_and_the_save_button_says_where_it_saved(explorer, tmp_path):
    """The parts wired together: the pointer finds the mark, the explorer applies the edit, the banner says so."""
    already = set(explorer.state.destroyed_bridges)
    marks = explorer.sources["bridges"].data
    k = next(
        k for k, (a, b) in enumerate(zip(marks["a"], marks["b"], strict=True))
        if f"{min(a, b)}|{max(a, b)}" not in already
    )  # fmt: skip
    explorer.mode.value = "destroy bridge"
    explorer.tap(marks["x"][k], marks["y"][k])  # one click on the mark: no second hex asked for
    assert explorer.pending_hex is None
    cut = {f"{min(marks['a'][k], marks['b'][k])}|{max(marks['a'][k], marks['b'][k])}"}
    assert explorer.state.destroyed_bridges - already == cut and len(explorer.session.edits) == 1
    explorer.save_path.value = str(tmp_path / "cut.json")
    explorer.save_button.click()
    assert (tmp_path / "cut.json").exists()
    banner = html.unescape(explorer.status.value)
    assert "Saved the study to" in banner and "cut.json" in banner


class _WidgetMessages:
    """The comm messages the explorer's widgets send while recorded: models opened, updates, models closed."""

    def __init__(self, monkeypatch) -> None:
        from ipywidgets import Widget

        self.opened: list = []
        self.updated: list = []
        self.closed: list = []
        send, open_, close = Widget._send, Widget.open, Widget.close

        def sent(widget, msg, buffers=None):
            if msg.get("method") == "update":
                self.updated.extend((widget, key) for key in msg["state"])
            return send(widget, msg, buffers)

        def opened(widget):
            if widget.comm is None:
                self.opened.append(widget)
            return open_(widget)

        def closed(widget):
            if widget.comm is not None:
                self.closed.append(widget)
            return close(widget)

        monkeypatch.setattr(Widget, "_send", sent)
        monkeypatch.setattr(Widget, "open", opened)
        monkeypatch.setattr(Widget, "close", closed)

    def clear(self) -> None:
        self.opened.clear(), self.updated.clear(), self.closed.clear()


def test_an_edit_adds_one_row_to_the_list_and_an_undo_takes_it_off_rewriting_nothing_else(explorer, monkeypatch):
    """Issue 33, section 4: each widget model an edit makes, closes or updates is DOM work in the page, so an
    edit sends only the widgets whose content changes: its row of the list of edits (three models: the ✕,
    the words and their row), the list's heading and children, the caption, the banner and the count;
    the rows of the edits before are the same widgets, and nothing is sent twice. An undo closes that row."""
    import ipywidgets as w

    explorer.mode.value = "interdict hex"
    explorer.click_hex("C3013")
    heading, first = explorer.edits_box.children
    record = _WidgetMessages(monkeypatch)
    explorer.click_hex("C3014")
    assert explorer.edits_box.children[:2] == (heading, first) and len(explorer.edits_box.children) == 3
    added = explorer.edits_box.children[2]
    assert "C3014" in added.children[1].value
    assert sorted(type(x).__name__ for x in record.opened) == ["Button", "HBox", "HTML"]
    assert set(record.opened) == {added, *added.children} and record.closed == []
    assert len(record.updated) == len(set(record.updated)), "a widget's value was sent twice"
    assert {widget for widget, _ in record.updated} == {
        heading, explorer.edits_box, explorer.label, explorer.status, explorer.refresh_count
    }
    record.clear()
    explorer.undo()
    assert explorer.edits_box.children == (heading, first) and "(1)" in heading.value
    assert record.opened == [] and set(record.closed) == {added, *added.children}
    assert len(record.updated) == len(set(record.updated)), "a widget's value was sent twice"
    assert all(not isinstance(widget, w.Button) for widget, _ in record.updated)
    assert (explorer.edits_box, "children") in record.updated and (first.children[1], "value") not in record.updated


def test_weather_and_air_controls_are_edits(explorer):
    explorer.weather.value = "Storm"
    assert explorer.state.weather == "Storm" and "weather Storm" in explorer.label.value
    air = explorer.control_boxes["air_points"]  # BfN's own controls (its look: Look.controls)
    sheet = next(iter(air))
    air[sheet].value = 40
    explorer.apply_buttons["air"].click()
    assert explorer.state.air_points[sheet] == 40
    explorer.undo()
    explorer.undo()
    assert explorer.state.weather == explorer.states[0].weather
    assert explorer.weather.value == explorer.state.weather  # the controls follow the state shown


def test_an_edit_reaches_the_page_as_one_patch(explorer, monkeypatch):
    """A weather change redraws several layers; the page gets them in one message and paints once."""
    from test_mapwidget import _patches

    sent: list = []
    monkeypatch.setattr(explorer.map_widget, "send", lambda content, buffers=None: sent.append((content, [])))
    explorer.weather.value = "Storm"
    patches = _patches(sent)
    assert len(patches) == 1 and len({e["model"]["id"] for e in patches[0]["events"]}) > 1
    explorer.undo()
    assert explorer.state.weather == explorer.states[0].weather


def test_the_update_count_changes_after_the_maps_patch_is_sent(explorer, monkeypatch):
    """The count tells the page (and the browser benchmark) an update is all there: never before the map's patch."""
    from test_mapwidget import _patches

    sent: list = []
    order: list[str] = []

    def send(content, buffers=None):
        sent.append((content, []))
        order.append("map")

    def counted(_change):
        order.append("count")

    monkeypatch.setattr(explorer.map_widget, "send", send)
    explorer.refresh_count.observe(counted, names="value")
    try:
        explorer.weather.value = "Storm"
    finally:
        explorer.refresh_count.unobserve(counted, names="value")
    assert len(_patches(sent)) == 1 and "count" in order
    assert order.index("count") > max(i for i, part in enumerate(order) if part == "map")
    explorer.undo()


def test_inspecting_a_hex_lists_everything_about_it(explorer):
    unit = explorer.state.units[0]
    explorer.click_hex(unit.hex)
    text = html.unescape(explorer.inspector.value)
    assert f"Hex {wording.place_of('bfn', unit.hex)}" in text and unit.id in text
    assert "Held by " in text and "zone of control of" in text and "Hexsides:" in text
    # A unit supplied through its HQ stands in that HQ's supply range (7.3.1).
    fed = next(
        r for r in explorer.report.units.values() if r.general and r.traced_to.startswith("division HQ")
    )
    formation = explorer.state.unit(fed.unit_id).formation
    hq = next(u for u in explorer.state.units if u.hq == "division" and u.formation == formation)
    explorer.click_hex(fed.hex)
    ranges = explorer.inspector.value.split("Within the supply range of: ")[1].split(" (")[0]
    assert hq.id in ranges.split(", ")


def test_study_saves_and_reopens_with_the_same_state(explorer, tmp_path):
    explorer.mode.value = "interdict hex"
    explorer.click_hex("C3013")
    explorer.step()
    saved = explorer.save(tmp_path / "what_if.json")
    study = load_study(saved)
    assert isinstance(study, Study) and study.state.interdicted_hexes == {"C3013"}
    reopened = nl.explore(study)
    assert reopened.label.value == explorer.label.value
    assert nl.explore(saved).label.value == explorer.label.value  # straight from the saved file


def test_saving_an_explorer_on_a_bare_state_is_refused_clearly():
    explorer = nl.explore(nl.load_scenario(SCENARIO))
    with pytest.raises(ValueError, match="open it on a scenario or a study"):
        explorer.save("never.json")


def test_unknown_scenario_is_a_clear_error():
    with pytest.raises(FileNotFoundError, match="no_such_scenario"):
        nl.explore("no_such_scenario")


def test_exports_html_geopackage_and_sequence(explorer, tmp_path):
    explorer.mode.value = "interdict hex"
    explorer.click_hex("C3013")
    page = explorer.export_html(tmp_path / "view.html")
    text = page.read_text()
    assert "cdn.bokeh.org" not in text and '<script src="http' not in text
    package = explorer.export_geopackage(tmp_path / "layers.gpkg")
    names = {name for name, _ in pyogrio.list_layers(package)}
    assert names == {
        "units",
        "supply_paths",
        "supply_ranges",
        "zoc",
        "interdicted_hexes",
        "regional_interdiction",
    }
    units = gpd.read_file(package, layer="units")
    assert len(units) == len(explorer.report.units)
    assert set(units.loc[~units["general"].astype(bool), "unit_id"]) == {
        r.unit_id for r in explorer.report.out_of_supply()
    }
    assert list(gpd.read_file(package, layer="interdicted_hexes")["hex_id"]) == ["C3013"]
    explorer.step()
    sequence = save_sequence_html(explorer.states, tmp_path / "sequence.html")
    body = sequence.read_text()
    assert "cdn.bokeh.org" not in body and body.count("units_") >= len(explorer.states)


def test_a_redraw_sends_whole_columns_not_one_message_per_hex(explorer, monkeypatch):
    """Issue 5 speed: each changed layer goes to the browser as one PATCH-DOC (3 comm messages)."""
    sent: list[int] = []
    monkeypatch.setattr(
        explorer.map_widget, "send", lambda content, buffers=None: sent.append(len(buffers or []))
    )
    explorer.show_all_paths.value = True
    sent.clear()
    for source in explorer.sources.values():
        source.data = {key: [] for key in source.data}
    sent.clear()
    explorer.refresh()  # every layer has changed: units, ZOCs, every line of supply
    changed_layers = sum(bool(len(s.data.get("xs", s.data.get("x", [])))) for s in explorer.sources.values())
    assert changed_layers >= 3
    assert len(sent) <= 3 * len(explorer.sources)
    assert sum(sent) == 0  # no binary buffers: no per-array messages
    sent.clear()
    explorer.step()  # nothing on the map moves between these phases: no layer is re-sent
    assert sent == []


def test_the_map_is_seen_by_the_phasing_side_and_its_enemy_zoc_follows(explorer):
    """5.4: a side's EZOC is the other side's ZOC; by default the map is seen by the phasing side."""
    assert explorer.state.phasing_side == "allied"
    assert explorer.layer_hexes("zoc_german") and not explorer.layer_hexes("zoc_allied")
    for _ in range(30):
        explorer.step()
        if explorer.state.phasing_side == "german":
            break
    assert explorer.state.phasing_side == "german"
    assert explorer.layer_hexes("zoc_allied") and not explorer.layer_hexes("zoc_german")
    assert "seen by: german" in explorer.label.value
    explorer.view.value = "both sides"
    assert explorer.layer_hexes("zoc_allied") and explorer.layer_hexes("zoc_german")
    explorer.view.value = "allied"
    explorer.show_all_paths.value = True
    sides = {explorer.report[u].side for u in explorer.sources["paths"].data["unit_id"]}
    assert sides == {"allied"}


def test_the_picker_opens_a_saved_study_and_explains_a_bad_name(explorer, tmp_path):
    explorer.mode.value = "interdict hex"
    explorer.click_hex("C3013")
    saved = explorer.save(tmp_path / "what_if.json")
    explorer.picker.value = "no_such_scenario"
    explorer.open_button.click()
    assert "Could not open 'no_such_scenario'" in html.unescape(explorer.status.value)
    assert explorer.state.interdicted_hexes == {"C3013"}  # nothing shown was lost
    explorer.picker.value = SCENARIO
    explorer.open_button.click()
    assert not explorer.state.interdicted_hexes and len(explorer.states) == 1
    explorer.picker.value = str(saved)
    explorer.open_button.click()
    assert explorer.state.interdicted_hexes == {"C3013"}
    assert explorer.map_box.children == (explorer.map_widget,)


def test_adding_a_copy_of_a_unit_and_removing_it(explorer):
    template = next(u for u in explorer.state.units if u.side == "german" and u.hq is None)
    explorer.mode.value = "add unit"
    explorer.click_hex("C3013")
    assert "Select a unit to copy first" in explorer.message
    explorer.selected_unit = template.id
    explorer.click_hex("C3013")
    added = explorer.state.unit(f"{template.id}+1")
    assert added.hex == "C3013" and added.side == "german" and added.type == template.type
    assert added.id in explorer.report.units  # the engine traces its supply at once
    explorer.click_hex("A1010")  # a sea hex: refused with the engine's reason
    assert "sea hex" in explorer.message
    explorer.mode.value = "remove unit"
    explorer.select_unit(added.id)
    assert not any(u.id == added.id for u in explorer.state.units)


def test_a_click_on_the_map_selects_the_unit_under_it_or_acts_on_the_hex(explorer):
    from normandy_lab.views.mapview import from_mercator, to_mercator

    data = explorer.sources["units"].data
    k = next(i for i, n in enumerate(data["stack"]) if n == 1)
    # Zoomed out, a click near the unit finds its formation's symbol, not the counter.
    assert not explorer.zoomed_in()
    size = explorer.fig.x_range.end - explorer.fig.x_range.start
    explorer._set_view(data["x"][k] - 8000, data["x"][k] + 8000, data["y"][k] - 6000, data["y"][k] + 6000)
    assert explorer.zoomed_in() and explorer.fig.x_range.end - explorer.fig.x_range.start < size
    explorer.tap(data["x"][k], data["y"][k])
    assert explorer.selected_unit == data["unit_id"][k]
    assert f"({data['unit_id'][k]})" in explorer.inspector.value
    # In the interdict mode the same click is about the hex, and a second click takes it back.
    explorer.mode.value = "interdict hex"
    explorer.tap(data["x"][k], data["y"][k])
    assert explorer.state.interdicted_hexes == {data["hex_id"][k]}
    explorer.tap(data["x"][k], data["y"][k])
    assert not explorer.state.interdicted_hexes
    x, y = to_mercator(-5.0, 47.0)  # far outside every map sheet
    explorer.tap(float(x), float(y))
    assert "off the game map" in explorer.message
    lon, lat = from_mercator(*to_mercator(-0.37, 49.18))
    assert abs(lon + 0.37) < 1e-9 and abs(lat - 49.18) < 1e-9


def test_air_points_draw_the_regional_interdiction_of_each_map(explorer):
    """11.1.2 and 11.2: a map where Allied air beats the German AA is shaded with its MP penalty."""
    assert explorer.sources["regional"].data["sheet"] == []
    explorer.control_boxes["air_points"]["A"].value = 60
    explorer.control_boxes["aa_points"]["A"].value = 0
    explorer.apply_buttons["air"].click()
    data = explorer.sources["regional"].data
    assert data["sheet"] == ["A"] and data["penalty"][0] > 0
    assert "German units -" in data["text"][0] and "(11.2)" in data["text"][0]
    explorer.weather.value = "Storm"  # 11.1.1: no air in a storm, so no interdiction
    assert explorer.sources["regional"].data["sheet"] == []


def test_selecting_a_unit_draws_its_movement_range(explorer):
    from normandy_lab.engine.movement import movement_range

    unit = next(u for u in explorer.state.units if u.side == "allied" and u.mechanized and u.hq is None)
    explorer.select_unit(unit.id)
    reach = movement_range(explorer.state, unit.id)
    shown = explorer.layer_hexes("moves")
    assert set(shown) == set(reach) and len(reach) > 1
    # Each reachable hex is labelled with what it costs to get there, in the hexes' order.
    k = shown.index(next(h for h in reach if h != unit.hex))
    assert explorer.sources["move_costs"].data["text"][k] == f"{reach[shown[k]]:g}"
    explorer.select_unit(None)
    assert explorer.layer_hexes("moves") == [] and explorer.sources["move_costs"].data["text"] == []


def test_source_ranges_and_the_combat_supply_chain(explorer):
    """7.4 sources' ranges on demand; 7.6.1 the chain unit -> division HQ -> what the HQ reaches."""
    explorer.view.value = "allied"
    explorer.show_sources.value = True
    shown = set(explorer.layer_hexes("range"))
    expected = set().union(*(explorer.report.supply_range(s) for s in explorer.report.sources["allied"]))
    assert shown == expected and len(shown) > 50
    fed = next(
        r for r in explorer.report.units.values() if r.general and r.traced_to.startswith("division HQ")
    )
    explorer.select_unit(fed.unit_id)
    chain = explorer.inspector.value.split("Combat Supply chain (")[1].split("): ", 1)[1].split("<br>")[0]
    formation = explorer.state.unit(fed.unit_id).formation
    hq = next(u for u in explorer.state.units if u.hq == "division" and u.formation == formation)
    assert chain.startswith(f"{fed.unit_id} → {hq.id} (HQ in Combat Supply: ")


def test_the_terrain_goes_to_the_browser_compactly_and_a_hex_click_tells_the_situation(explorer):
    """Issue 12: no per-hex hover table in the first payload; a clicked hex tells control, EZOC, HQ ranges."""
    import numpy as np
    from bokeh.models import HoverTool

    terrain = explorer.fig.select_one({"name": "hexes"})
    assert set(terrain.data) == {"x", "y", "code"}
    for column in ("x", "y"):
        assert isinstance(terrain.data[column], np.ndarray) and terrain.data[column].dtype == np.float32
    assert terrain.data["code"].dtype == np.uint8
    hover = [
        t
        for t in explorer.fig.select({"type": HoverTool})
        if t.renderers and t.renderers[0].name == "layer:terrain"
    ]
    assert [label for label, _ in hover[0].tooltips] == ["hex", "terrain"]
    explorer.click_hex("C3013")
    text = html.unescape(explorer.inspector.value)
    assert "Held by allied" in text and "UK-6AB-HQ" in text.split("Within the supply range of: ")[1]
    # Removing the units of the HQ's hex changes what the hex report says.
    hex_id = explorer.state.unit("UK-6AB-HQ").hex
    for unit in [u for u in explorer.state.units if u.hex == hex_id]:
        explorer.apply({"op": "remove_unit", "unit": unit.id})
    explorer.click_hex("C3013")
    assert "UK-6AB-HQ" not in explorer.inspector.value


def test_a_click_on_a_formation_symbol_lists_its_units_and_zooms_to_them(explorer):
    """A symbol may stand for several formations that would overlap at the default zoom (views.declutter):
    its click lists the units of each of them."""
    formations = explorer.sources["formations"].data
    k = next(i for i, key in enumerate(formations["key"]) if "7th Armoured Division" in key.split(" + "))
    key = formations["key"][k]
    explorer.tap(formations["x"][k], formations["y"][k])
    assert explorer.selected_formation == key and explorer.zoomed_in()
    text = explorer.inspector.value
    assert f"<b>{key}</b>" in text
    members = key.split(" + ")
    listed = [u for u in explorer.sources["units"].data["unit_id"] if f"({u})" in text]
    assert listed and {layers.formation_key(explorer.state.unit(u)) for u in listed} == set(members)
    for uid in explorer.sources["units"].data["unit_id"]:
        if layers.formation_key(explorer.state.unit(uid)) in members:
            assert f"({uid})" in text
    assert sum(formations["units"][k : k + 1]) == len(listed)


def test_the_historical_and_implied_fronts_are_drawn_for_the_state_s_date(explorer):
    """Issue 5/6: the historical front line of the state's date (the evening before an AM turn)."""
    history_layer = explorer.sources["history"].data
    assert history_layer["xs"] and "12 June" in history_layer["label"][0]
    assert explorer.sources["implied"].data["xs"]


def test_the_tour_s_launcher_opens_each_historical_scenario_in_the_explorer():
    from normandy_lab.views.launcher import scenario_launcher

    launcher = scenario_launcher()
    names = [name for _, name in launcher.choice.options]
    assert {"bfn_1944-06-07_am", "bfn_1944-07-25_am", "bfn_1944-08-07_am"} <= set(names)
    launcher.choice.value = "bfn_1944-08-07_am"
    launcher.button.click()
    assert launcher.explorer is not None and launcher.explorer.state.date.isoformat() == "1944-08-07"
    assert "6 August" in launcher.explorer.sources["history"].data["label"][0]


def test_saved_files_have_the_users_normal_permissions_and_the_export_never_overwrites_the_study(
    explorer, tmp_path
):
    import os

    mask = os.umask(0o022)
    try:
        explorer.save_path.value = str(tmp_path / "lesson.study.json")
        explorer.save_button.click()
        study = tmp_path / "lesson.study.json"
        assert study.stat().st_mode & 0o777 == 0o644
        explorer.export_button.click()  # the page goes beside the study, never over it
        page = tmp_path / "lesson.page.html"
        assert page.exists() and page.name in explorer.message  # its name, not the server's whole path
        assert str(tmp_path.resolve()) not in explorer.message
        assert load_study(study).state.label == explorer.state.label
        assert page.stat().st_mode & 0o777 == 0o644
    finally:
        os.umask(mask)


def test_an_exported_page_carries_a_title_block(explorer, tmp_path):
    explorer.mode.value = "interdict hex"
    explorer.click_hex("C3013")
    text = explorer.export_html(tmp_path / "view.html").read_text()
    assert "13 June 1944" in text and "out of supply:" in text and "counter rings:" in text
    assert "Hex C3013" in text and "interdicted" in text  # the list of edits
    assert text.index("counter rings:") < text.index('<script type="application/json"')


def test_compare_shows_two_states_side_by_side_sharing_ranges_and_data(explorer):
    from normandy_lab.engine.whatif import supply_changes

    comparison = explorer.compare({"op": "weather", "weather": "Storm"})
    left, right = comparison.figures
    assert left.x_range is right.x_range and left.y_range is right.y_range
    terrain = [
        r.data_source for f in (left, right) for r in f.renderers if str(r.name).endswith("layer:terrain")
    ]
    assert terrain[0] is terrain[1]  # the browser receives the terrain once
    storm = nl.engine.edits.set_weather(explorer.state, "Storm")
    assert set(comparison.changed_units) == set(supply_changes(explorer.state, storm).index)
    assert f"<b>{len(comparison.changed_units)} units change supply</b>" in comparison.table_html
    assert explorer.state.weather != "Storm"  # trying an edit beside the map does not keep it
    # Two maps in one page: every named model keeps a name of its own (BokehJS looks models up by name).
    from bokeh.layouts import row

    names = [m.name for m in row(left, right).references() if m.name]
    assert len(names) == len(set(names))


def test_next_movement_phase_and_next_day_jump_ahead(explorer):
    from normandy_lab.rules import ruleset

    sequence = ruleset("bfn").sequence
    explorer.next_movement_phase()
    phase = sequence[explorer.state.turn][explorer.state.phase_index]
    assert phase.kind in ("movement", "mech_movement") and explorer.position > 0
    assert explorer.message.startswith(f"Now {explorer.state.label}")
    today = explorer.state.date
    explorer.next_day()
    assert explorer.state.date > today
    # The first phase of the new day: the one before it still belongs to the day before.
    assert explorer.states[explorer.position - 1].date == today
    assert explorer.slider.value == explorer.slider.max


def test_the_map_key_and_the_zones_box_only_for_a_game_that_draws_them(explorer):
    """A game lists rule zones and tested paths in its map key only if it draws them (Look.map_features)."""
    for scenario, shown in ((SCENARIO, set()), ("kg_1944-06-07_t02", {"rule zones"}),
                            ("gts_1944-06-08_0700", {"paths a rule tests", "where a tested path breaks"})):  # fmt: skip
        explorer = explorer if scenario == SCENARIO else nl.explore(scenario)
        explorer.show_key.value = True  # the key's entries are made when it is first opened
        items = [item for legend in explorer.fig.legend for item in legend.items]
        explorer.show_key.value = False
        labels = {str(getattr(item.label, "value", item.label)) for item in items}
        for words in ("rule zones", "paths a rule tests", "where a tested path breaks"):
            listed = any(label.startswith(words) for label in labels)
            assert listed == (words in shown), (scenario, words)
        assert (explorer.show_zones.layout.display != "none") == bool(shown)


def test_in_a_kernel_the_why_line_follows_the_map_and_says_what_the_engine_says(explorer):
    """Issue 33, section 4: with an event loop running (a kernel), an edit draws the map, the banner and the
    counts first; the line of why units are out (the engine explains each one) follows once the loop is
    free, and is then the engine's own summary."""
    import asyncio

    from normandy_lab.engine.supply import forget_reports

    async def storm() -> tuple[str, str]:
        forget_reports()  # no Storm shown before: its reasons are worked out anew
        explorer.apply({"op": "weather", "weather": "Storm"})
        first = explorer.label.value
        for _ in range(100):  # the callback runs at the loop's next turn; a few turns at most
            if "Working out why" not in explorer.label.value:
                break
            await asyncio.sleep(0)
        return first, explorer.label.value

    count = int(explorer.refresh_count.value)
    first, then = asyncio.run(storm())
    try:
        assert "Working out why" in first and "Storm" in first
        assert html.escape(nl.supply_summary(explorer.report)) in then
        assert int(explorer.refresh_count.value) > count + 1  # the picture, then the line
    finally:
        explorer.undo()


def test_in_a_kernel_a_why_line_already_known_goes_with_the_picture(explorer):
    """Issue 33, section 1: a step that changes nothing supply reads shows reasons worked out already (the
    phase before's); the line is then written with the map, in one update, not after it."""
    import asyncio

    async def step_in_a_storm() -> tuple[str, int, int]:
        explorer.apply({"op": "weather", "weather": "Storm"})
        for _ in range(100):  # the Storm's own line, worked out once the loop is free
            if "Working out why" not in explorer.label.value:
                break
            await asyncio.sleep(0)
        assert explorer.report.reasons_ready()
        before = int(explorer.refresh_count.value)
        explorer.step()
        first, after_step = explorer.label.value, int(explorer.refresh_count.value)
        for _ in range(5):
            await asyncio.sleep(0)
        assert explorer.label.value == first  # nothing followed
        return first, after_step - before, int(explorer.refresh_count.value) - before

    first, counted, then = asyncio.run(step_in_a_storm())
    try:
        assert "Working out why" not in first
        assert html.escape(nl.supply_summary(explorer.report)) in first
        assert counted == then == 1  # one update: the picture with its caption
    finally:
        explorer.back()
        explorer.undo()
