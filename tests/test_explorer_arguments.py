"""The explorer's public methods refuse a bad argument before any work (issue 28).

Each refusal is one of the project's errors (the ``NormandyLabError`` tree), names the method, the
argument and the value, says what is allowed and, for a name, the nearest ones; nothing shown or
written changes.  The buttons that take text (Save, Export) put the same care in the banner instead.
One explorer per scenario for the whole module: a small BfN scenario, and a KG one where unit ids,
formations and hex ids differ.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

import normandy_lab as nl
from normandy_lab.engine.scenario import ScenarioError, ScenarioNotFoundError
from normandy_lab.errors import NormandyLabError, PathRefusedError, RefusedError, UnknownNameError
from normandy_lab.grids import grid
from normandy_lab.grids.numbering import HexIdError
from normandy_lab.views.explorer import FRONT_VIEW, Explorer

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "tests" / "data" / "bfn_pegasus_1944-06-07.yaml"
KG = "kg_1944-06-07_t02"


@pytest.fixture(scope="module")
def explorer() -> Explorer:
    return nl.explore(str(SMALL))


@pytest.fixture(scope="module")
def kg() -> Explorer:
    return nl.explore(KG)


def _view(explorer: Explorer) -> tuple[float, float, float, float]:
    return (
        explorer.fig.x_range.start,
        explorer.fig.x_range.end,
        explorer.fig.y_range.start,
        explorer.fig.y_range.end,
    )


# -- the Save and Export buttons ------------------------------------------------------------------


@pytest.mark.parametrize("button, verb", [("_export_from_box", "export"), ("_save_from_box", "save")])
@pytest.mark.parametrize("typed", ["", "   ", "work/", "folder"])
def test_the_buttons_say_what_to_type_for_no_name_or_a_folder(
    explorer, tmp_path, monkeypatch, button, verb, typed
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    explorer.save_path.value = typed
    getattr(explorer, button)()  # no exception escapes the button's callback
    assert explorer.message.startswith(f"Could not {verb}: the Study box")
    assert "Type a study file name" in explorer.message and "nothing was written" in explorer.message
    if typed.strip():  # a folder: the example is a file in it
        assert "is a folder" in explorer.message and "study.json" in explorer.message
    else:
        assert "has no file name" in explorer.message
    # Nothing written: not the page in the parent folder (work.page.html), not a study named "work".
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]
    assert list((tmp_path / "folder").iterdir()) == []


def test_the_buttons_still_save_and_export_beside_a_named_study(explorer, tmp_path):
    explorer.save_path.value = str(tmp_path / "lesson.study.json")
    explorer._save_from_box()
    assert explorer.message.startswith("Saved the study to")
    explorer._export_from_box()
    assert explorer.message.startswith("Exported the page to")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lesson.page.html", "lesson.study.json"]


# -- writing from code ----------------------------------------------------------------------------


@pytest.mark.parametrize("method", ["export_html", "export_png", "export_geopackage", "save"])
@pytest.mark.parametrize(
    "path, why",
    [
        ("a" * 300 + ".html", "longer than 255 bytes"),
        ("", "has no file name"),
        ("work/", "is a folder"),
        (None, "is not a file's path"),
        (5, "is not a file's path"),
        ("bad\x00name.html", "NUL"),
    ],
)
def test_a_path_no_file_can_have_is_refused_before_any_work(
    explorer, tmp_path, monkeypatch, method, path, why
):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PathRefusedError) as raised:
        getattr(explorer, method)(path)
    error = raised.value
    assert isinstance(error, OSError) and isinstance(error, RefusedError)  # `except OSError` still catches it
    assert (
        str(error).startswith(f"{method}: path: ")
        and why in str(error)
        and "nothing was written" in str(error)
    )
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_still_refused_by_the_export_itself(explorer, tmp_path):
    from normandy_lab.errors import ExportRefusedError

    with pytest.raises(ExportRefusedError, match="not a regular file"):
        explorer.export_html(tmp_path)


# -- names: sectors, formations, units, layers ----------------------------------------------------


@pytest.mark.parametrize("sector", ["Nowhere", None, 3, ["Caen and the Orne"]])
def test_go_to_refuses_what_is_not_a_sector(explorer, sector):
    before = _view(explorer)
    with pytest.raises(UnknownNameError) as raised:
        explorer.go_to(sector)
    message = str(raised.value)
    assert message.startswith(f"go_to: sector: {sector!r} is not a sector")
    assert all(repr(name) in message for name in explorer.sectors()) and FRONT_VIEW in message
    assert _view(explorer) == before


def test_go_to_suggests_the_nearest_sector_and_still_goes_to_one(explorer):
    with pytest.raises(UnknownNameError, match="did you mean 'Caen and the Orne'"):
        explorer.go_to("Caen and Orne")
    explorer.go_to("Caen and the Orne")
    explorer.go_to(FRONT_VIEW)


@pytest.mark.parametrize("key", ["NOPE", None, 7])
@pytest.mark.parametrize("method", ["select_formation", "formation_report_html"])
def test_a_formation_that_is_not_there_is_refused(explorer, method, key):
    explorer.select_unit(None)
    before = _view(explorer)
    with pytest.raises(UnknownNameError) as raised:
        getattr(explorer, method)(key)
    message = str(raised.value)
    assert message.startswith(f"{method}: key: {key!r} is not a formation")
    assert all(repr(name) in message for name in explorer.formations())
    assert explorer.selected_formation is None and _view(explorer) == before


def test_formations_are_suggested_and_a_real_one_still_reports(explorer, kg):
    with pytest.raises(UnknownNameError, match="did you mean '6th Airborne'"):
        explorer.select_formation("6th Airbone")
    assert "6th Airborne" in explorer.formation_report_html("6th Airborne")
    name = kg.formations()[-1]
    with pytest.raises(UnknownNameError, match=f"did you mean {name!r}"):
        kg.formation_report_html(name + "x")
    assert name in kg.formation_report_html(name)


@pytest.mark.parametrize("unit_id", ["NOPE", "", 5])
def test_select_unit_refuses_a_unit_that_is_not_there(explorer, unit_id):
    explorer.select_unit(None)
    with pytest.raises(UnknownNameError) as raised:
        explorer.select_unit(unit_id)
    assert str(raised.value).startswith("select_unit: unit_id: ") and repr(unit_id) in str(raised.value)
    assert "None selects none" in str(raised.value)
    assert explorer.selected_unit is None


def test_select_unit_names_the_nearest_ids(kg):
    real = kg.state.units[0].id
    with pytest.raises(UnknownNameError, match=f"did you mean {real}"):
        kg.select_unit(real + "Z")
    kg.select_unit(real)
    assert kg.selected_unit == real
    kg.select_unit(None)  # None still selects none
    assert kg.selected_unit is None


def test_layer_hexes_refuses_a_layer_that_is_not_there(explorer):
    with pytest.raises(UnknownNameError) as raised:
        explorer.layer_hexes("nope")
    message = str(raised.value)
    assert message.startswith("layer_hexes: name: 'nope' is not a hex layer")
    assert all(repr(name) in message for name in ("zoc_allied", "zoc_german", "range", "moves"))
    with pytest.raises(UnknownNameError, match="did you mean 'range'"):
        explorer.layer_hexes("rnage")
    assert isinstance(explorer.layer_hexes("range"), list)


# -- hexes and map points -------------------------------------------------------------------------


@pytest.mark.parametrize("hex_id", [None, 5, ("C3014",)])
def test_click_hex_refuses_what_is_not_a_hex_id(explorer, kg, hex_id):
    for shown in (explorer, kg):
        with pytest.raises(HexIdError) as raised:
            shown.click_hex(hex_id)
        assert isinstance(raised.value, RefusedError)
        assert str(raised.value).startswith(f"click_hex: hex_id: {hex_id!r} is not a hex id")
        assert repr(shown.state.units[0].hex) in str(raised.value)  # an example of this map's ids


def test_a_malformed_hex_id_is_refused_naming_the_argument(kg):
    with pytest.raises(HexIdError, match=r"^click_hex: hex_id: .*'ZZ99'"):
        kg.click_hex("ZZ99")
    with pytest.raises(HexIdError, match="is not a hex id"):
        grid(kg.system).index(None)  # the grid too refuses what is not text


@pytest.mark.parametrize(
    "x, y, named",
    [("a", "b", "x"), (0.0, "b", "y"), (math.nan, 0.0, "x"), (0.0, math.inf, "y"), (True, 0.0, "x")],
)
def test_tap_refuses_what_is_not_a_map_point(explorer, x, y, named):
    with pytest.raises(RefusedError) as raised:
        explorer.tap(x, y)
    assert str(raised.value).startswith(f"tap: {named}: ")
    assert "a finite number of Web Mercator metres" in str(raised.value)
    with pytest.raises(RefusedError, match=f"^hex_at: {named}: "):
        explorer.hex_at(x, y)


def test_tap_still_takes_numpy_numbers(explorer):
    import numpy as np

    assert explorer.hex_at(np.float64(1e9), np.int64(1e9)) is None  # off the map: None, as before


# -- compare and the list of edits ----------------------------------------------------------------


@pytest.mark.parametrize("other", [5, "Storm", None, [{"op": "weather", "weather": "Storm"}]])
def test_compare_says_what_it_takes(explorer, other):
    with pytest.raises(RefusedError) as raised:
        explorer.compare(other)
    message = str(raised.value)
    assert message.startswith(f"compare: other: {other!r} is not allowed")
    assert "GameState" in message and "'op': 'weather'" in message


def test_compare_refuses_titles_that_are_not_two_texts(explorer):
    with pytest.raises(RefusedError, match=r"^compare: titles: 'ab' is not allowed; give two texts"):
        explorer.compare(explorer.state, titles="ab")


@pytest.mark.parametrize("index", ["x", 5, -1, True, 0.0, None])
def test_remove_edit_refuses_an_index_that_is_no_edit(explorer, index):
    assert explorer.apply({"op": "weather", "weather": "Storm"})
    try:
        states = len(explorer.states)
        with pytest.raises(RefusedError) as raised:
            explorer.remove_edit(index)
        message = str(raised.value)
        assert message.startswith(f"remove_edit: index: {index!r} is not allowed")
        assert "from 0 to 0" in message
        assert len(explorer.states) == states
        explorer._remove_from_button(3)  # the ✕ button: the banner says so, nothing escapes
        assert explorer.message.startswith("Cannot remove that edit: remove_edit: index: 3")
    finally:
        assert explorer.remove_edit(0) is True  # a real index still removes the edit
    with pytest.raises(RefusedError, match="there are no edits to remove"):
        explorer.remove_edit(0)


# -- what the explorer opens ----------------------------------------------------------------------


@pytest.mark.parametrize("source", [None, 5, True, 1.5])
def test_explore_and_open_refuse_what_is_not_a_scenario(explorer, source):
    with pytest.raises(ScenarioError) as raised:
        nl.explore(source)
    assert str(raised.value).startswith(f"explore: source: {source!r} is not a scenario's name or path")
    assert "no scenario 'None'" not in str(raised.value)
    shown = explorer.state
    with pytest.raises(ScenarioError, match=f"^open: source: {source!r} is not"):
        explorer.open(source)
    assert explorer.state is shown


def test_the_launcher_refuses_a_scenario_it_does_not_list():
    from normandy_lab.views.launcher import scenario_launcher

    launcher = scenario_launcher()
    with pytest.raises(ScenarioNotFoundError, match="did you mean 'bfn_1944-06-13_am'"):
        launcher.open("bfn_1944-06-13_a")
    with pytest.raises(ScenarioNotFoundError, match=r"^open: name: 5 is not a scenario"):
        launcher.open(5)
    assert launcher.explorer is None


def test_every_refusal_here_is_in_the_tree():
    for error in (PathRefusedError, HexIdError, UnknownNameError, ScenarioError):
        assert issubclass(error, NormandyLabError)


def test_step_until_and_the_unit_report_refuse_bad_arguments(explorer):
    shown = explorer.state
    with pytest.raises(RefusedError, match=r"^step_until: done: 5 is not allowed"):
        explorer.step_until(5)
    with pytest.raises(RefusedError, match=r"^step_until: limit: 0 is not allowed"):
        explorer.step_until(lambda s: True, limit=0)
    assert explorer.state is shown
    with pytest.raises(UnknownNameError, match=r"^unit_report_html: unit_id: no unit 'NOPE'"):
        explorer.unit_report_html("NOPE")
