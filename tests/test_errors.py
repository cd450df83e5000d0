"""Issue 15: one error tree, so that a refusal with its reason is told from a defect of the program."""

from __future__ import annotations

import pytest

import normandy_lab as nl
from normandy_lab.engine.edits import EditError
from normandy_lab.engine.movement import IllegalMoveError
from normandy_lab.engine.scenario import ScenarioError
from normandy_lab.engine.study import StudyError
from normandy_lab.errors import FileRefusedError, NormandyLabError, RefusedError, UnknownNameError
from normandy_lab.geo.gazetteer import GazetteerDataError, UnknownPlaceError
from normandy_lab.geo.geography import GeographyDataError
from normandy_lab.grids.coastfit import CoastHexError
from normandy_lab.grids.georef import ControlPointError
from normandy_lab.grids.numbering import HexIdError
from normandy_lab.history.lodgement import HistoryError

FILES = (ScenarioError, StudyError, HistoryError, GeographyDataError, GazetteerDataError, ControlPointError)
REFUSALS = (EditError, IllegalMoveError, HexIdError)


@pytest.mark.parametrize("kind", [*FILES, CoastHexError])
def test_a_file_error_is_a_refused_file_and_still_a_value_error(kind):
    assert (
        issubclass(kind, FileRefusedError)
        and issubclass(kind, NormandyLabError)
        and issubclass(kind, ValueError)
    )


@pytest.mark.parametrize("kind", REFUSALS)
def test_a_refusal_is_refused_and_still_a_value_error(kind):
    assert issubclass(kind, RefusedError) and issubclass(kind, ValueError)


def test_an_unknown_name_is_still_a_key_error_and_reads_as_a_sentence():
    state = nl.load_scenario("bfn_1944-06-13_am")
    with pytest.raises(UnknownNameError) as raised:
        state.unit("US-101AB-HQQ")
    assert isinstance(raised.value, KeyError) and str(raised.value).startswith(
        "no unit 'US-101AB-HQQ'; did you mean"
    )
    assert issubclass(UnknownPlaceError, UnknownNameError)


def test_the_engine_refuses_with_the_tree_not_a_bare_value_error():
    from normandy_lab.engine.edits import apply_edit

    state = nl.load_scenario("bfn_1944-06-13_am")
    with pytest.raises(RefusedError, match="not destroyed"):
        apply_edit(state, {"op": "repair_bridge", "hexside": ["C3014", "C3013"]})
    with pytest.raises(RefusedError, match=r"sea hex|cannot"):
        apply_edit(state, {"op": "move", "unit": state.units[0].id, "to": "A0101"})


def test_the_explorer_shows_a_refusal_but_lets_a_defect_through(monkeypatch):
    explorer = nl.explore("bfn_1944-06-13_am")
    assert explorer.apply({"op": "repair_bridge", "hexside": ["C3014", "C3013"]}) is False
    assert explorer.message.startswith("Refused: ") and "not destroyed" in explorer.message

    def broken(edit):
        raise ZeroDivisionError("a defect")

    monkeypatch.setattr(explorer.session, "_append_edit", broken)  # the session acts, the explorer draws
    with pytest.raises(ZeroDivisionError):  # a bug is not dressed up as a refusal
        explorer.apply({"op": "interdict", "hex": explorer.state.units[0].hex})
