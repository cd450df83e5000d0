"""The explorer's phase controller on a bare session: no map, no browser (issue 32, section 3)."""

from __future__ import annotations

import pytest

from normandy_lab.session import Session
from normandy_lab.views.explorer.phases import PhaseController

SMALL = "bfn_1944-06-13_am"


class FakeClock:
    """Seconds that pass only when the test says so: Play's tick rule is tested without sleeping."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def start():
    # One scenario read for the module; each test gets its own session on a copy of the history.
    return Session(SMALL)


@pytest.fixture
def phases(start):
    session = Session(start.state)
    drawn: list[bool] = []
    controller = PhaseController(session, drawn.append, clock=FakeClock())
    controller.drawn = drawn  # what the explorer would have redrawn, in order
    return controller


def test_step_moves_the_session_and_asks_for_one_redraw(phases):
    assert phases.step() is True
    assert phases.session.position == 1 and phases.drawn == [True]
    assert phases.session.state.phase_index != phases.session.states[0].phase_index


def test_back_at_the_first_phase_moves_nothing_and_draws_nothing(phases):
    assert phases.back() is False
    assert phases.drawn == [] and phases.session.position == 0
    phases.step()
    assert phases.back() is True and phases.session.position == 0 and phases.drawn == [True, True]


def test_sync_sets_the_slider_without_moving_the_session(phases):
    phases.step()
    phases.step()
    phases.back()
    phases.sync()
    assert (phases.slider.max, phases.slider.value) == (2, 1)
    assert phases.session.position == 1  # the slider's change while following did not show another phase


def test_the_slider_shows_a_phase_reached(phases):
    phases.step()
    phases.step()
    phases.sync()
    phases.slider.value = 0
    assert phases.session.position == 0 and phases.drawn[-1] is True
    phases.drawn.clear()
    assert phases.show_phase(0) is False and phases.show_phase(9) is False  # shown already; not reached
    assert phases.drawn == []


def test_the_slider_walks_phases_not_edits(phases):
    phases.session.apply({"op": "weather", "weather": "Storm"})
    phases.step()
    phases.sync()
    assert len(phases.session.states) == 3 and phases.slider.max == 1
    phases.slider.value = 0  # the first phase as it stood after its edit
    assert phases.session.position == 1 and phases.session.state.weather == "Storm"


def test_play_steps_once_per_live_tick_and_skips_leftovers(phases):
    clock = phases._clock
    phases.play.playing = True
    phases.play.value = 1
    assert phases.session.position == 1
    phases.play.value = 2  # right behind the last step: queued while it was drawn, skipped
    assert phases.session.position == 1
    phases.speed.value = 0.3
    assert phases.play.interval == 300
    clock.now += 0.2  # more than half an interval since the last step: a live tick
    phases.play.value = 3
    assert phases.session.position == 2
    phases.play.playing = False  # Pause: a tick still on its way does nothing
    clock.now += 10
    phases.play.value = 4
    assert phases.session.position == 2


def test_a_new_session_is_the_one_moved(phases, start):
    other = Session(start.state)
    phases.session = other
    phases.step()
    assert other.position == 1
