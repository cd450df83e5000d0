"""The explorer's parts on their own, without an Explorer or a browser (issue 32, section 3).

Each part is built from what it needs (a session, a state and its report, a figure) and driven through
its own narrow interface; the explorer's own tests (``test_explorer.py``) check that they are wired
together.  One session serves the module: the parts only read it, or act on a copy.
"""

from __future__ import annotations

import dataclasses
import html
import json

import pytest
from bokeh.plotting import figure as bokeh_figure

from normandy_lab.engine.edits import apply_edit
from normandy_lab.errors import PathRefusedError, RefusedError, UnknownNameError
from normandy_lab.grids import grid
from normandy_lab.grids.numbering import HexIdError
from normandy_lab.session import Session
from normandy_lab.views import wording
from normandy_lab.views.explorer import FRONT_VIEW
from normandy_lab.views.explorer.controls import Callbacks, Controls
from normandy_lab.views.explorer.drawing import Drawer
from normandy_lab.views.explorer.exports import Exporter
from normandy_lab.views.explorer.figure import MapFigure
from normandy_lab.views.explorer.inspector import Inspector
from normandy_lab.views.explorer.interaction import (
    Action,
    MapPointer,
    check_formation,
    check_unit,
    copy_edit,
    formations,
    hex_action,
    hex_argument,
)
from normandy_lab.views.explorer.phases import PhaseController
from normandy_lab.views.mapview import from_mercator

SCENARIO = "bfn_1944-06-13_am"
WEATHER = {"op": "weather", "weather": "Storm"}


@pytest.fixture(scope="module")
def session() -> Session:
    return Session(SCENARIO)


class Figure:
    """The one thing an Exporter reads of a MapFigure: its bokeh figure (a blank one here)."""

    def __init__(self) -> None:
        self.fig = bokeh_figure(width=200, height=150)
        self.fig.scatter([0, 1], [0, 1])


# -- Exporter: saving and exports ---------------------------------------------------------------------------


def test_the_exporter_saves_the_session_s_study_and_says_so_for_the_banner(tmp_path):
    session = Session(SCENARIO)
    assert session.apply(WEATHER)
    exporter = Exporter(session, None)
    saved = exporter.save(tmp_path / "s.json")
    assert json.loads(saved.read_text())["edits"] == session.edits
    said = exporter.save_from_box(str(tmp_path / "t.json"))
    assert said.startswith("Saved the study to ") and "t.json" in said
    assert (tmp_path / "t.json").exists()


@pytest.mark.parametrize("typed, words", [("", "has no file name"), ("x/", "is a folder, not a file")])
def test_a_bad_study_box_gives_the_banner_its_reason_and_writes_nothing(session, typed, words, tmp_path):
    exporter = Exporter(session, None)
    for verb, act in (("save", exporter.save_from_box), ("export", exporter.export_from_box)):
        said = act(typed)
        assert said.startswith(f"Could not {verb}: the Study box") and words in said
        assert "nothing was written" in said
    assert not list(tmp_path.iterdir())


def test_the_exporter_refuses_a_bare_state_and_a_path_no_file_can_have(session, tmp_path):
    bare = Exporter(Session(session.state), None)
    with pytest.raises(RefusedError, match="bare state"):
        bare.save(tmp_path / "s.json")
    assert bare.save_from_box(str(tmp_path / "s.json")).startswith("Could not save: ")
    with pytest.raises(PathRefusedError, match="export_html: path"):
        Exporter(session, Figure()).export_html("a\x00b.html")


def test_the_title_block_lists_the_edits_up_to_the_position_shown(tmp_path):
    session = Session(SCENARIO)
    assert session.apply(WEATHER)
    exporter = Exporter(session, Figure())
    assert "Storm" in exporter.title_block_html() and session.state.label in exporter.title_block_html()
    assert session.undo()
    assert "<li>none</li>" in exporter.title_block_html()
    page = exporter.export_from_box(str(tmp_path / "day.study.json"))
    assert page.startswith("Exported the page to ") and (tmp_path / "day.page.html").exists()
    assert exporter.title_block_html() in (tmp_path / "day.page.html").read_text()


# -- Inspector: everything about a hex, from the state and its report --------------------------------------


class Ranges:
    """The engine's report with every HQ's supply range replaced by one hex: the words must follow it."""

    def __init__(self, report, hex_id):
        self._report, self._hex = report, hex_id

    def supply_range(self, unit_id):
        return {self._hex}

    def __getitem__(self, unit_id):
        return self._report[unit_id]


def test_the_hex_words_give_the_units_there_and_the_hq_ranges_of_the_report(session):
    unit = next(u for u in session.state.units if u.status == "active")
    inspector = Inspector(session.state, session.report)
    text = html.unescape(inspector.hex_html(unit.hex))
    assert f"Hex {wording.place_of('bfn', unit.hex)}" in text and unit.id in text
    assert "Held by " in text and "zone of control of" in text and "Hexsides:" in text
    reaching = {hq for hq, reach in inspector.hq_ranges().items() if unit.hex in reach}
    said = text.split("Within the supply range of: ")[1].split(" (")[0]
    assert set(said.split(", ")) == (reaching or {"no HQ"})
    # Fed a report whose every HQ reaches only this hex, the inspector names them all, and no others.
    inspector.feed(session.state, Ranges(session.report, unit.hex))
    every = {
        u.id for u in session.state.units if u.hq and u.status == "active" and session.report[u.id].general
    }
    said = html.unescape(inspector.hex_html(unit.hex)).split("Within the supply range of: ")[1].split(" (")[0]
    assert set(said.split(", ")) == every and every
    other = next(u.hex for u in session.state.units if u.hex != unit.hex)
    assert "Within the supply range of: no HQ" in inspector.hex_html(other)


def test_a_click_on_the_selected_unit_s_hex_shows_its_report_then_the_hex(session):
    unit = next(u for u in session.state.units if u.status == "active")
    inspector = Inspector(session.state, session.report)
    inspector.show_hex(unit.hex, unit.id)
    assert inspector.output.value == inspector.unit_html(unit.id) + "<hr>" + inspector.hex_html(unit.hex)
    elsewhere = next(u for u in session.state.units if u.hex != unit.hex)
    inspector.show_hex(elsewhere.hex, unit.id)  # the selected unit is not there: the hex alone
    assert inspector.output.value == inspector.hex_html(elsewhere.hex)


# -- MapPointer and hex_action: what a click is on, and what it does ----------------------------------------


@pytest.fixture(scope="module")
def figure(session):
    drawn = MapFigure(session.state)
    drawn.draw(session.state, session.report)
    return drawn


@pytest.fixture
def pointer(figure, session) -> MapPointer:
    pointer = MapPointer(figure)
    pointer.frame_sector(session.state, FRONT_VIEW)
    return pointer


def _at(figure, layer: str, k: int = 0) -> tuple[float, float]:
    data = figure.sources[layer].data
    return float(data["x"][k]), float(data["y"][k])


def test_the_pointer_finds_what_the_figure_drew_under_a_point(pointer, figure):
    data = figure.sources["units"].data
    x, y = _at(figure, "units")
    assert pointer.unit_at(x, y) == data["unit_id"][0]
    far = grid("bfn").georeference.hex_size_m * 1.5  # a hex away from the counter: nothing is there
    others = [u for u in data["unit_id"] if u != data["unit_id"][0]]
    assert pointer.unit_at(x + far, y + far) in (None, *others)
    bx, by = _at(figure, "bridges")
    bridges = figure.sources["bridges"].data
    assert pointer.bridge_at(bx, by) == (bridges["a"][0], bridges["b"][0])
    fx, fy = _at(figure, "formations")
    assert pointer.formation_at(fx, fy) == figure.sources["formations"].data["key"][0]
    lon, lat = from_mercator(x, y)
    assert pointer.hex_at(x, y) == grid("bfn").locate(float(lon), float(lat))
    with pytest.raises(RefusedError, match="unit_at: x"):
        pointer.unit_at(float("nan"), y)


def test_a_tap_s_action_follows_the_mode_and_the_zoom(pointer, figure, session):
    fx, fy = _at(figure, "formations")
    assert not pointer.zoomed_in()  # the front, zoomed out: symbols
    key = figure.sources["formations"].data["key"][0]
    assert pointer.tap_action(fx, fy, "inspect") == Action("select formation", key)
    assert pointer.tap_action(fx, fy, "remove unit").kind in ("nothing", "say")  # no symbol is removed
    pointer.frame_units(session.state, [figure.sources["units"].data["unit_id"][0]])
    assert pointer.zoomed_in()
    x, y = _at(figure, "units")
    unit_id = figure.sources["units"].data["unit_id"][0]
    assert pointer.tap_action(x, y, "inspect") == Action("select unit", unit_id)
    assert pointer.tap_action(x, y, "interdict hex") == Action("hex", pointer.hex_at(x, y))
    bx, by = _at(figure, "bridges")
    hexside = list(pointer.bridge_at(bx, by))
    cut = {"op": "destroy_bridge", "hexside": hexside}
    assert pointer.tap_action(bx, by, "destroy bridge") == Action("edit", cut)
    # The second click of a pair is a click on its hex, even on a bridge's mark.
    assert pointer.tap_action(bx, by, "repair bridge", pending_hex="A0101").kind == "hex"
    off = pointer.tap_action(-2.0e7, -2.0e7, "inspect")
    assert off.kind == "say" and "off the game map" in off.words


def test_framing_keeps_the_map_s_shape(pointer, figure, session):
    fig = figure.fig
    pointer.frame(0.0, 1000.0, 0.0, 10.0)
    width = fig.x_range.end - fig.x_range.start
    height = fig.y_range.end - fig.y_range.start
    shape = (fig.height or 640) / (fig.width or 900)
    assert width == pytest.approx(1000.0) and height / width == pytest.approx(shape)
    with pytest.raises(UnknownNameError, match="go_to: sector: 'Nowhere' is not a sector of the map"):
        pointer.frame_sector(session.state, "Nowhere")


def test_a_click_on_a_hex_is_the_mode_s_edit(session):
    state = session.state
    unit = state.units[0]
    hex_id = unit.hex
    assert hex_action("move unit", hex_id, state, unit.id, None) == Action(
        "edit", {"op": "move", "unit": unit.id, "to": hex_id}
    )
    assert hex_action("move unit", hex_id, state, None, None).words.startswith("Select a unit first")
    assert hex_action("interdict hex", hex_id, state, None, None).value == {"op": "interdict", "hex": hex_id}
    first = hex_action("destroy bridge", hex_id, state, None, None)
    assert first.kind == "pending" and first.value == hex_id and "click the hex across" in first.words
    assert hex_action("repair bridge", "B", state, None, hex_id).value == {
        "op": "repair_bridge", "hexside": [hex_id, "B"]
    }
    assert hex_action("add unit", hex_id, state, unit.id, None) == Action("copy", hex_id)
    assert hex_action("inspect", hex_id, state, unit.id, None) == Action("inspect", hex_id)


def test_a_copy_of_a_unit_takes_the_first_free_id(session):
    state = session.state
    unit = next(u for u in state.units if not u.hq and u.status == "active")
    edit = copy_edit(state, unit.id, unit.hex)
    record = edit["unit"]
    assert edit["op"] == "add_unit" and record["id"] == f"{unit.id}+1" and record["hq"] is None
    assert record["side"] == unit.side and record["attack"] == unit.attack and record["hex"] == unit.hex
    after = apply_edit(state, edit)
    assert copy_edit(after, unit.id, unit.hex)["unit"]["id"] == f"{unit.id}+2"


def test_names_that_are_no_unit_formation_or_hex_are_refused_with_the_function_named(session):
    state = session.state
    with pytest.raises(UnknownNameError, match="select_unit: unit_id: 3 is not a unit's id"):
        check_unit(state, "select_unit", 3)
    with pytest.raises(UnknownNameError, match="formation_report_html: key"):
        check_formation(state, "formation_report_html", "no such formation")
    check_formation(state, "f", formations(state)[0])
    with pytest.raises(HexIdError, match="click_hex: hex_id: None is not a hex id"):
        hex_argument(state, "click_hex", None)
    assert hex_argument(state, "click_hex", state.units[0].hex) == state.units[0].hex


# -- Controls: widgets that call back; Drawer: one redraw of every part ------------------------------------


class Calls:
    """Callbacks that record what the controls called, in order."""

    def __init__(self) -> None:
        self.seen: list[tuple] = []

    def callbacks(self) -> Callbacks:
        def record(name):
            return lambda *args: self.seen.append((name, *args))

        return Callbacks(**{field.name: record(field.name) for field in dataclasses.fields(Callbacks)})


@pytest.fixture(scope="module")
def phases(session) -> PhaseController:
    return PhaseController(session, lambda changed: None)


@pytest.fixture
def calls() -> Calls:
    return Calls()


@pytest.fixture
def controls(session, calls, phases) -> Controls:
    panel = Inspector(session.state, session.report).output
    return Controls(session.state, ("Caen",), calls.callbacks(), phases=phases, panel=panel)


def test_each_control_calls_its_callback(controls, calls):
    controls.undo_button.click()
    controls.redo_button.click()
    controls.save_button.click()
    controls.export_button.click()
    controls.open_button.click()
    controls.view.value = "both sides"
    controls.show_key.value = True
    controls.sector.value = "Caen"
    controls.weather.value = "Storm"
    assert calls.seen == [
        ("undo",), ("redo",), ("save",), ("export",), ("open",), ("redraw",), ("show_key", True),
        ("go_to", "Caen"), ("apply", {"op": "weather", "weather": "Storm"}),
    ]
    assert controls.seen_by("allied") == "" and controls.sector.options == ("", FRONT_VIEW, "Caen")


def test_the_game_s_own_controls_make_one_edit_each(controls, calls, session):
    assert controls.control_groups, "BfN has per-sheet air and AA points"
    op, group = next(iter(controls.control_groups.items()))
    for control in group:
        for box in controls.control_boxes[control.key].values():
            box.value = 3
    controls.apply_buttons[op].click()
    (name, edit), = calls.seen
    assert name == "apply" and edit == controls.points_edit(op) and edit["op"] == op
    assert all(set(edit[c.edit_field].values()) == {3} for c in group)


def test_following_a_state_sets_the_widgets_and_makes_no_edit(controls, calls, session):
    stormy = apply_edit(session.state, WEATHER)
    controls.follow(stormy)
    assert controls.weather.value == "Storm" and calls.seen == []
    controls.follow(session.state)
    assert controls.weather.value == session.state.weather and calls.seen == []


def test_the_list_of_edits_has_a_button_that_removes_each(controls, calls):
    edits = [WEATHER, {"op": "next_phase"}, {"op": "interdict", "hex": "C3328"}]
    controls.show_edits(edits)
    heading, *rows = controls.edits_box.children
    assert "(2)" in heading.value and len(rows) == 2  # the phase step is not listed
    rows[1].children[0].click()
    assert calls.seen == [("remove_edit", 2)]  # its index among every edit, the step included
    controls.show_edits(edits)
    assert controls.edits_box.children[1] is rows[0]  # the same list: no new widgets
    controls.show_edits([])
    assert "No edits yet" in controls.edits_box.children[0].value


def test_the_list_of_edits_keeps_each_row_whose_index_stays_and_rewrites_only_its_words(controls, calls):
    """Issue 33, section 4: a row is widgets the page has built; one removed from the middle of the list leaves
    the rows before it as they were, the next edits' words move up into the rows kept, the last row is
    closed, and each ✕ still removes the edit its row lists."""
    edits = [WEATHER, {"op": "interdict", "hex": "C3328"}, {"op": "interdict", "hex": "C3329"}]
    controls.show_edits(edits)
    heading, *rows = controls.edits_box.children
    words = [row.children[1].value for row in rows]
    controls.show_edits([edits[0], edits[2]])  # the second edit removed
    assert controls.edits_box.children == (heading, rows[0], rows[1]) and "(2)" in heading.value
    assert [row.children[1].value for row in rows[:2]] == [words[0], words[2]]
    assert rows[2].comm is None and all(part.comm is None for part in rows[2].children)  # closed
    rows[1].children[0].click()
    assert calls.seen == [("remove_edit", 1)]
    controls.show_edits([])
    assert controls.edits_box.children == (heading,) and "No edits yet" in heading.value


def test_the_drawer_draws_a_session_on_every_part(controls, phases, figure, session):
    shared, session = session, Session(SCENARIO)  # a session of its own: this one is edited
    panel = Inspector(session.state, session.report)
    drawer = Drawer(figure, controls, phases, panel)
    phases.session = session
    try:
        count = int(controls.refresh_count.value)
        session.selected_unit = session.state.units[0].id
        session.message = "said before"
        drawer.draw(session)
        assert panel.output.value == panel.unit_html(session.selected_unit)
        assert len(figure.sources["selection"].data["x"]) == 1
        assert session.message == "" and controls.status.value == ""  # a redraw clears the banner
        assert session.state.label in controls.label.value and int(controls.refresh_count.value) == count + 1
        assert drawer.drawn(session, session.apply(WEATHER))
        assert "Storm" in session.message and "Storm" in controls.status.value  # kept through the redraw
        assert controls.weather.value == "Storm" and "(1)" in controls.edits_box.children[0].value
        rings = len(figure.sources["changed"].data["x"])
        assert rings == len(session.changed_units)
    finally:
        phases.session = shared
        figure.draw(shared.state, shared.report)
