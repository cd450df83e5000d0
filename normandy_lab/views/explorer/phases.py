"""The explorer's phase controller: Back, Step, Play, the speed and the phase slider (issue 32, section 3).

A :class:`PhaseController` holds these widgets and the logic that moves a
:class:`~normandy_lab.session.Session` through its phases.  It draws nothing:
after each move it calls the ``drawn`` function it was given (the explorer's
redraw) with whether anything changed.  So it can be built and tested on a
bare session, without a map or a browser.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from normandy_lab.engine.state import GameState
from normandy_lab.session import Session


class PhaseController:
    """Back / Step / Play / phase slider over one session, with the widgets that drive them.

    Parameters
    ----------
    session
        The session moved.  The explorer sets :attr:`session` again when it opens another source.
    drawn
        Called with True after a move that changed what is shown, with False after one that did not
        (a step refused at the end of the game still has words for the banner).  Its result is ignored.
    clock
        Seconds from a fixed point, for telling a live Play tick from one that queued up while a step
        was drawn; a test gives its own so that it need not sleep.

    Attributes
    ----------
    back_button, step_button, movement_button, day_button, play, speed, slider
        The widgets, laid out in a row by :attr:`row`.
    """

    def __init__(
        self,
        session: Session,
        drawn: Callable[[bool], Any],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        import ipywidgets as w

        self.session = session
        self._drawn = drawn
        self._clock = clock
        # While the slider is set to follow the session, its observer must not move the session back.
        self._quiet = False
        self._play_done = float("-inf")
        self.back_button = w.Button(description="◀ Back", layout=w.Layout(width="80px"))
        self.step_button = w.Button(
            description="Step ▶", layout=w.Layout(width="80px"), button_style="primary"
        )
        self.movement_button = w.Button(
            description="next movement phase", layout=w.Layout(width="180px", min_width="180px")
        )
        self.day_button = w.Button(description="next day", layout=w.Layout(width="80px", min_width="80px"))
        self.play = w.Play(value=0, min=0, max=200, step=1, interval=1500, description="Play")
        self.speed = w.FloatSlider(
            value=1.5, min=0.3, max=5.0, step=0.1, description="s / step", layout=w.Layout(width="230px")
        )
        self.slider = w.IntSlider(
            value=0, min=0, max=0, description="Phase", continuous_update=False,
            layout=w.Layout(width="300px"),
        )  # fmt: skip
        self.speed.observe(
            lambda change: setattr(self.play, "interval", int(change["new"] * 1000)), names="value"
        )
        self.back_button.on_click(lambda _: self.back())
        self.step_button.on_click(lambda _: self.step())
        self.movement_button.on_click(lambda _: self.next_movement_phase())
        self.day_button.on_click(lambda _: self.next_day())
        self.play.observe(self._on_play, names="value")
        self.slider.observe(self._on_slider, names="value")
        self.row = w.HBox(
            [
                self.back_button, self.step_button, self.movement_button, self.day_button, self.play,
                self.speed, self.slider,
            ]
        )  # fmt: skip

    # -- moves: the session moves, ``drawn`` shows it ---------------------------------------------------

    def step(self) -> bool:
        """Step to the next phase (one reached already, or a new state at the end); True if it moved."""
        return self._done(self.session.step())

    def step_until(self, done: Callable[[GameState], bool], limit: int = 40) -> bool:
        """Step until ``done(state)`` holds, at most ``limit`` phases, with one redraw at the end.

        Raises
        ------
        RefusedError
            When ``done`` is not callable or ``limit`` is not a whole number of at least 1; nothing moves.
        """
        return self._done(self.session.step_until(done, limit))

    def next_movement_phase(self) -> bool:
        """Step to the next movement phase of either side."""
        return self._done(self.session.next_movement_phase())

    def next_day(self) -> bool:
        """Step to the first phase of the next day."""
        return self._done(self.session.next_day())

    def back(self) -> bool:
        """Show the previous phase; at the first one nothing moves and nothing is drawn."""
        moved = self.session.back()
        if moved:
            self._drawn(True)
        return moved

    def show_phase(self, number: int) -> bool:
        """Show the phase ``number`` among the session's :meth:`~normandy_lab.session.Session.phase_ends`.

        The phase is shown as it stood after its edits.  A number outside the phases reached, or the
        phase already shown, moves nothing and draws nothing; False is returned.
        """
        ends = self.session.phase_ends()
        if not 0 <= number < len(ends) or ends[number] == self.session.position:
            return False
        return self._done(self.session.show(ends[number]))

    def _done(self, changed: bool) -> bool:
        self._drawn(changed)
        return changed

    # -- the widgets follow the session ------------------------------------------------------------------

    def sync(self) -> None:
        """Set the slider to the phases reached and the one shown, without moving the session."""
        self._quiet = True
        try:
            self.slider.max = max(len(self.session.phase_ends()) - 1, 0)
            self.slider.value = self.session.phase_number()
        finally:
            self._quiet = False

    def _on_slider(self, change: dict[str, Any]) -> None:
        if not self._quiet:
            self.show_phase(change["new"])

    def _on_play(self, change: dict[str, Any]) -> None:
        """Step once per Play tick, skipping ticks that queued up while a step was being drawn.

        The Play widget ticks in the browser; ticks sent while the kernel was busy arrive together
        afterwards.  A tick that arrives sooner than half an interval after the last step ended is such
        a leftover: skipped, so Play never falls behind and Pause takes effect at once.
        """
        if change["new"] <= change["old"] or not self.play.playing:
            return
        if self._clock() - self._play_done < self.play.interval / 2000:
            return
        self.step()
        self._play_done = self._clock()
