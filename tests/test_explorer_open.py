"""Opening a scenario of another game in an explorer shown (issue 32, section 3), without a browser.

``Explorer.open`` on a scenario of another game gives every part that game: its map and key, its
weathers, its sectors, its view choices and its own control rows, in the application already shown (the
widgets a page shows change, not a copy of them); an edit through the new controls applies to the new
state.  An open that fails (a scenario that is not there, a map or controls that cannot be made) leaves
everything shown as it was.
"""

from __future__ import annotations

import dataclasses
import html
import sys
from pathlib import Path

import ipywidgets as w
import pytest

import normandy_lab as nl
from normandy_lab.engine.scenario import ScenarioError
from normandy_lab.rules import look
from normandy_lab.session import Session
from normandy_lab.views import classroom
from normandy_lab.views.explorer import FRONT_VIEW, Explorer
from normandy_lab.views.explorer import controls as controls_module
from normandy_lab.views.explorer.controls import Callbacks, Controls
from normandy_lab.views.explorer.interaction import sectors
from normandy_lab.views.explorer.phases import PhaseController

sys.path.insert(0, str(Path(__file__).resolve().parent))
import toy_game  # beside the tests, outside the package: importing it registers the game
import toy_system  # the toy rule system on BfN's map, under the key toy_bfn

BFN, GTS = "bfn_1944-06-13_am", "gts_1944-06-08_0700"


@pytest.fixture(scope="module")
def explorer() -> Explorer:
    return nl.explore(BFN)


def _tree(widget) -> list:
    """Every widget shown inside ``widget`` (itself included), depth first."""
    found = [widget]
    for child in getattr(widget, "children", ()):
        found += _tree(child)
    return found


def _game_rows(explorer: Explorer) -> list[str]:
    """The descriptions of the game's own controls, as the application shown holds them."""
    (box,) = [child for child in explorer.app.children if child is explorer.controls.game_box]
    return [x.description for x in _tree(box) if getattr(x, "description", "")]


def _follows(explorer: Explorer) -> None:
    """Check that every part shows the state's game: map, weathers, sectors, view choices, control rows."""
    state = explorer.state
    assert explorer.system == explorer.figure.system == state.system and explorer.game == state.game
    assert explorer.map_box.children == (explorer.map_widget,) and explorer.map_widget in _tree(explorer.app)
    assert explorer.weather.options == tuple(state.rules.weather_effects)
    assert explorer.weather.value == state.weather
    assert explorer.sector.options == ("", FRONT_VIEW, *sectors(state))
    features = look(state).map_features
    assert (explorer.show_zones.layout.display != "none") == bool(features)
    shown = _tree(explorer.app)
    for spec in look(state).controls:
        widgets = explorer.control_boxes.get(spec.key, {}).values() or [explorer.single_widgets[spec.key]]
        assert all(x in shown and x.comm is not None for x in widgets), spec.key


def test_opening_another_game_swaps_every_part_in_the_app_shown_and_edits_the_new_state(explorer):
    assert _game_rows(explorer)[0].startswith("air ")  # BfN's air points per map sheet
    air_box = next(iter(explorer.control_boxes["air_points"].values()))
    bfn_map = explorer.map_widget
    explorer.open(GTS)
    _follows(explorer)
    assert bfn_map.comm is None and explorer.map_widget.comm is not None  # BfN's map left the kernel too
    rows = _game_rows(explorer)
    assert "Supplied divisions" in rows and "Fighter-bombers on interdiction" in rows
    assert not any(r.startswith(("air ", "AA ")) for r in rows) and explorer.control_boxes == {}
    assert air_box.comm is None  # BfN's boxes left the page and the kernel
    assert "Falaise and the pocket" not in explorer.sector.options
    assert explorer.weather.options == ("Clear", "Overcast", "Storm")
    assert explorer.session.edits == []  # switching the weathers offered made no edit
    # An edit through GTS's own controls applies to the GTS state shown.
    explorer.single_widgets["fighter_bombers_on_interdiction"].value = 2  # 17.1: at most 2 when overcast
    explorer.single_buttons["fighter_bombers_on_interdiction"].click()
    assert explorer.state.markers["fighter_bombers_on_interdiction"] == 2
    explorer.weather.value = "Storm"
    assert explorer.state.weather == "Storm" and explorer.state.game == "gts"
    explorer.go_to("Utah and Sainte-Mère-Église")
    # And back: BfN's rows, weathers and sectors again, and its air boxes make BfN's edit.
    explorer.open(BFN)
    _follows(explorer)
    assert _game_rows(explorer)[0].startswith("air ") and explorer.single_widgets == {}
    sheet, box = next(iter(explorer.control_boxes["air_points"].items()))
    box.value = 7
    explorer.apply_buttons["air"].click()
    assert explorer.state.markers["air_points"][sheet] == 7 and explorer.state.game == "bfn"
    explorer.sector.value = "Falaise and the pocket"  # BfN's sector, framed again
    assert "Opened" not in explorer.message


def test_an_open_that_fails_leaves_every_part_as_it_was(explorer, monkeypatch):
    explorer.open(BFN)
    explorer.weather.value = "Storm"

    def as_shown() -> tuple:
        c = explorer.controls
        return (
            explorer.session, explorer.figure, explorer.map_widget, explorer.system, explorer.game,
            c.game_box.children, c.control_boxes, c.single_widgets, c.weather.options, c.weather.value,
            c.sector.options, c.show_zones.layout.display, c.system,
        )  # fmt: skip

    before = as_shown()
    with pytest.raises(ScenarioError, match="no_such_scenario"):
        explorer.open("no_such_scenario")
    assert as_shown() == before
    explorer.picker.value = "no_such_scenario"
    explorer.open_button.click()
    assert "Could not open 'no_such_scenario'" in html.unescape(explorer.status.value)
    assert as_shown() == before and explorer.state.weather == "Storm"

    # Another game's map that cannot be made: nothing is replaced, the controls included.
    def broken_map(*args, **kwargs):
        raise RuntimeError("no map today")

    monkeypatch.setattr("normandy_lab.views.explorer.MapFigure", broken_map)
    with pytest.raises(RuntimeError, match="no map today"):
        explorer.open(GTS)
    assert as_shown() == before
    monkeypatch.undo()

    # Another game's controls that cannot be made: nothing is replaced either.
    def broken_widget(*args, **kwargs):
        raise RuntimeError("no widget today")

    monkeypatch.setattr(controls_module, "_single_widget", broken_widget)
    with pytest.raises(RuntimeError, match="no widget today"):
        explorer.open(GTS)
    assert as_shown() == before and all(x.comm is not None for x in _tree(explorer.controls.game_box))
    monkeypatch.undo()
    # The controls still act on the state shown.
    sheet, box = next(iter(explorer.control_boxes["aa_points"].items()))
    box.value = 2
    explorer.apply_buttons["air"].click()
    assert explorer.state.markers["aa_points"][sheet] == 2 and explorer.state.weather == "Storm"


def test_the_toy_game_on_its_own_map_and_the_toy_on_bfn_s_map_open_in_an_explorer_shown(explorer):
    explorer.open(str(toy_game.SCENARIO))
    _follows(explorer)
    assert explorer.game == "toy" and explorer.weather.options == ("Fair", "Storm")
    assert explorer.controls.game_box.children == () and explorer.sector.options[2:] == ("Bayeux to Tilly",)
    explorer.go_to("Bayeux to Tilly")
    unit = explorer.state.units[0]
    explorer.inspect_hex(unit.hex)
    assert unit.id in explorer.inspector.value
    explorer.weather.value = "Storm"
    assert explorer.state.weather == "Storm" and explorer.state.game == "toy"
    # A game on BfN's map under a key of its own: the same map, but its own rules' weathers.
    explorer.open(str(toy_system.SCENARIO))
    _follows(explorer)
    assert (explorer.system, explorer.game) == ("bfn", "toy_bfn")
    explorer.open(BFN)
    _follows(explorer)


def test_another_game_s_controls_keep_a_class_page_locked_and_make_no_edit(monkeypatch):
    """On a class server the Study box, Save, Export and Open stay off the page when the game changes."""
    monkeypatch.setenv(classroom.CLASS_ENV, "1")
    seen: list = []
    names = [field.name for field in dataclasses.fields(Callbacks)]
    callbacks = Callbacks(**{name: (lambda *a, name=name: seen.append((name, *a))) for name in names})
    bfn = Session(BFN)
    controls = Controls(bfn.state, (), callbacks, phases=PhaseController(bfn, lambda changed: None),
                        panel=w.HTML())  # fmt: skip
    gone = [controls.save_path, controls.save_button, controls.export_button, controls.picker,
            controls.open_button]  # fmt: skip
    assert not set(map(id, gone)) & set(map(id, _tree(controls.app)))
    gts = nl.load_scenario(GTS)
    controls.show_game(gts, sectors(gts))
    shown = _tree(controls.app)
    assert not set(map(id, gone)) & set(map(id, shown)) and all(x.comm is None for x in gone)
    assert controls.single_widgets["supplied_divisions"] in shown and controls.weather.value == gts.weather
    controls.show_zones.value = True  # GTS draws the link-up routes
    controls.show_game(bfn.state, ())
    assert controls.show_zones.value is False and controls.show_zones.layout.display == "none"
    assert seen == [("redraw",)], "switching games made an edit or a redraw of its own"
