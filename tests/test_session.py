"""The widget-free Session (issue 32, section 3): a study in progress, tested without a browser or a widget."""

from __future__ import annotations

import sys

import pytest

import normandy_lab as nl
from normandy_lab.engine.scenario import ScenarioError
from normandy_lab.errors import RefusedError
from normandy_lab.session import Session

SMALL = "bfn_1944-06-13_am"


@pytest.fixture
def session():
    return Session(SMALL)


def test_a_session_imports_no_widget_library():
    """What a class server holds per student: no ipywidgets, no bokeh behind it."""
    import subprocess

    code = (
        "import sys; from normandy_lab.session import Session; s = Session('bfn_1944-06-13_am'); "
        "s.step(); s.report; print(sorted(m for m in ('ipywidgets', 'bokeh', 'jupyter_bokeh') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_an_edit_moves_the_position_says_what_changed_and_undo_redo_walk_it(session):
    start = session.state
    unit = next(u for u in start.units if u.side == "allied" and u.status == "active")
    assert session.apply({"op": "weather", "weather": "Storm"})
    assert session.state.weather == "Storm" and session.position == 1 and session.message
    assert session.undo() and session.state is start and session.message.startswith("Undone")
    assert session.redo() and session.state.weather == "Storm"
    assert not session.redo()  # nothing left to redo
    assert session.edits == [{"op": "weather", "weather": "Storm"}]
    assert unit.id in {u.id for u in session.state.units}


def test_a_refused_edit_changes_nothing_and_says_why(session):
    before = (session.state, session.position, list(session.edits))
    assert not session.apply({"op": "move", "unit": "no-such-unit", "to": "A0101"})
    assert session.message.startswith("Refused: ")
    assert (session.state, session.position, list(session.edits)) == before


def test_stepping_back_then_editing_is_refused_until_at_the_latest_phase(session):
    assert session.step() and session.phase_number() == 1
    assert session.back() and session.phase_number() == 0
    assert not session.back()  # the first phase: nothing before it
    assert not session.apply({"op": "weather", "weather": "Storm"})
    assert "latest phase" in session.message
    assert session.step() and session.position == len(session.states) - 1


def test_remove_edit_replays_the_others_or_refuses_with_the_reason(session):
    session.apply({"op": "weather", "weather": "Storm"})
    session.apply({"op": "weather", "weather": "Clear"})
    assert session.remove_edit(0) and session.edits == [{"op": "weather", "weather": "Clear"}]
    with pytest.raises(RefusedError, match="remove_edit: index: 5 is not allowed"):
        session.remove_edit(5)


def test_step_until_stops_where_asked_and_refuses_a_bad_limit(session):
    day = session.state.date
    assert session.next_day() and session.state.date > day
    with pytest.raises(RefusedError, match="limit"):
        session.step_until(lambda s: True, limit=0)


def test_the_report_is_the_engine_s_and_is_worked_out_once_a_state(session):
    first = session.report
    assert first is session.report  # the same state: the same report
    assert {u: r.general for u, r in first.units.items()} == {
        u: r.general for u, r in nl.supply(session.state).units.items()
    }
    session.step()
    assert session.report is not first and session.report.state is session.state


def test_two_sessions_of_one_scenario_are_independent():
    """Each student's session is their own: one's edits never reach another's."""
    one, two = Session(SMALL), Session(SMALL)
    assert one.state.weather != "Storm"
    one.apply({"op": "weather", "weather": "Storm"})
    assert one.state.weather == "Storm" and two.state.weather == one.states[0].weather
    assert two.edits == [] and len(two.states) == 1


def test_a_bare_state_keeps_its_own_edits_and_a_bad_source_is_refused():
    state = nl.load_scenario(SMALL)
    bare = Session(state)
    assert bare.study is None and bare.apply({"op": "weather", "weather": "Storm"})
    assert bare.edits == [{"op": "weather", "weather": "Storm"}] and bare.undo() and bare.edits == []
    with pytest.raises(ScenarioError, match="Session: source: None is not a scenario's name"):
        Session(None)
    assert "Session(" in repr(bare) and "edits=0" in repr(bare)


def test_the_explorer_draws_its_session():
    """The explorer holds a Session and shows its state; an action on either is the same action."""
    explorer = nl.explore(SMALL)
    assert isinstance(explorer.session, Session) and explorer.state is explorer.session.state
    explorer.apply({"op": "weather", "weather": "Storm"})
    assert explorer.session.edits == [{"op": "weather", "weather": "Storm"}]
    assert explorer.status.value and explorer.message == explorer.session.message
    explorer.undo()
    assert explorer.session.edits == [] and explorer.weather.value == explorer.state.weather
