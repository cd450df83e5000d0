"""A study being worked on, without widgets: its states, its edits, undo and redo, and where one stands.

A :class:`Session` is what the explorer shows and what a class server holds for each student: a study (a
scenario and its edits, :class:`~normandy_lab.engine.study.Study`) or a bare state with edits of its own,
the position shown among its states, the edits taken back (to redo), what is selected, and what the last
action changed, in words.  It computes no picture: the explorer draws ``session.state`` and
``session.report`` after each action, and the same actions run in a test or a script with no browser.

Every action returns ``True`` when it changed what is shown; a refused one changes nothing and puts the
engine's reason in :attr:`Session.message` (the views catch only
:class:`~normandy_lab.errors.NormandyLabError`: anything else is a bug).
"""

from __future__ import annotations

import numbers
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from normandy_lab.engine.edits import apply_edit
from normandy_lab.engine.recent import keep_for
from normandy_lab.engine.scenario import SCENARIO_DIR, ScenarioError
from normandy_lab.engine.state import GameState
from normandy_lab.engine.study import Study, load_study
from normandy_lab.errors import NormandyLabError, RefusedError

__all__ = ["Session"]


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:60]}... ({len(text):,} characters)"


class Session:
    """One analyst's (or student's) study in progress: states, edits, undo/redo, position and selection.

    Parameters
    ----------
    source
        A scenario's name or path, a saved study (``.json``), a :class:`~normandy_lab.engine.study.Study`,
        or a :class:`~normandy_lab.engine.state.GameState`.
    function
        The name a refusal of ``source`` quotes (the caller's: ``explore``, ``open``...).

    Attributes
    ----------
    study
        The study worked on, or None for a bare state (whose edits the session keeps itself).
    position
        The index of the state shown among :attr:`states`.
    redo_stack
        The edits taken back by :meth:`undo`, last first out.
    selected_unit, selected_formation, pending_hex
        What is selected on the map, and the first hex of a two-click action (a bridge's hexside).
    message
        What the last action did or why it was refused, in words ("" when nothing to say).
    changed_units
        The units whose supply verdict the last action changed (the map rings them).

    Raises
    ------
    ScenarioError
        For a source that is none of these (``None``, a number) or a scenario that is not there;
        :class:`~normandy_lab.engine.study.StudyError` for a study file that cannot be read.
    """

    def __init__(self, source: Any, function: str = "Session") -> None:
        self.open(source, function)

    # -- what is worked on ---------------------------------------------------------------------------

    def open(self, source: Any, function: str = "open") -> None:
        """Work on another source (see the class); what can fail happens before anything is replaced."""
        if isinstance(source, bool) or not isinstance(source, str | os.PathLike | Study | GameState):
            names = sorted(p.stem for p in SCENARIO_DIR.glob("*.yaml"))
            example = names[0] if names else "bfn_1944-06-13_am"
            raise ScenarioError(
                f"{function}: source: {_shown(source)} is not a scenario's name or path; give a scenario's "
                f"name (e.g. {example!r}), a scenario file's path, a saved study (.json), a Study or a "
                "GameState"
            )
        if isinstance(source, str | Path) and str(source).endswith(".json"):
            source = load_study(source)
        study, states = None, []
        if isinstance(source, Study):
            study = source
        elif isinstance(source, GameState):
            states = [source]
        else:
            study = Study(str(source))
        self.study: Study | None = study
        self._states: list[GameState] = states
        self._edits: list[dict[str, Any]] = []
        self.redo_stack: list[dict[str, Any]] = []
        self.selected_unit: str | None = None
        self.selected_formation: str | None = None
        self.pending_hex: str | None = None
        self.position = len(self.states) - 1
        self.message = ""
        self.changed_units: list[str] = []
        self._reports: tuple[GameState, Any] | None = None

    @property
    def states(self) -> list[GameState]:
        """Every state so far (the scenario, then one per edit or phase step)."""
        return self.study.states if self.study is not None else self._states

    @property
    def state(self) -> GameState:
        """The state shown."""
        return self.states[self.position]

    @property
    def report(self) -> Any:
        """The engine's supply report of the state shown (worked out once per state)."""
        from normandy_lab.engine import supply

        state = self.state
        if self._reports is None or self._reports[0] is not state:
            # The engine keeps what it works out for the states a session shows (the report, a unit's
            # movement search): an undo shows a state worked out a moment ago (issue 33, section 4).
            keep_for(state)
            self._reports = (state, supply(state))
        return self._reports[1]

    @property
    def edits(self) -> list[dict[str, Any]]:
        """Every edit so far, phase steps included (the study's, or the session's own for a bare state)."""
        return self.study.edits if self.study is not None else self._edits

    @property
    def system(self) -> str:
        """The game of the state shown."""
        return self.state.system

    # -- phases -------------------------------------------------------------------------------------

    def phase_ends(self) -> list[int]:
        """Return, for each phase reached so far, the position of its last state (after its edits)."""
        ops = [edit.get("op") for edit in self.edits]
        starts = [0] + [k + 1 for k, op in enumerate(ops) if op == "next_phase"]
        return [nxt - 1 for nxt in starts[1:]] + [len(self.states) - 1]

    def phase_number(self) -> int:
        """Return the index of the phase shown among :meth:`phase_ends`."""
        ends = self.phase_ends()
        return next(k for k, end in enumerate(ends) if self.position <= end)

    # -- actions ------------------------------------------------------------------------------------

    def apply(self, edit: dict[str, Any], from_redo: bool = False) -> bool:
        """Apply an edit at the end of the history (see :func:`normandy_lab.engine.edits.apply_edit`).

        A refused edit changes nothing and returns False, :attr:`message` saying why.  A new edit empties
        the redo list; ``from_redo`` (used by :meth:`redo`) keeps the rest of it.
        """
        from normandy_lab.views import wording

        if self.position != len(self.states) - 1:
            self.message = "Go to the latest phase (the slider's end) to edit."
            return False
        before, before_report = self.state, self.report
        try:
            self._append_edit(edit)
        except NormandyLabError as exc:  # the engine's refusal, with its reason (anything else is a bug)
            self.message = f"Refused: {exc}"
            return False
        if not from_redo:  # a new edit starts a new future; a redo walks the old one
            self.redo_stack.clear()
        self.position = len(self.states) - 1
        self._summarise(before, before_report, wording.edit_words(self.system, edit, self.state))
        return True

    def _append_edit(self, edit: dict[str, Any]) -> None:
        """Put an edit at the end of the history (the study's, or the session's own); raises if refused."""
        if self.study is not None:
            self.study.apply(edit)
        else:
            self._states.append(apply_edit(self.states[-1], edit))
            self._edits.append(dict(edit))

    def _summarise(self, before: GameState, before_report: Any, what: str) -> None:
        """Say what changed, and whose verdicts changed (``views.wording.change_summary``)."""
        from normandy_lab.views import wording

        self.message, self.changed_units = wording.change_summary(
            before, before_report, self.state, self.report, what
        )

    def step(self) -> bool:
        """Step to the next phase (the next one reached already, or a new state at the end)."""
        ends = self.phase_ends()
        k = self.phase_number()
        if k + 1 < len(ends):
            return self.show(ends[k + 1])
        return self.apply({"op": "next_phase"})

    def step_until(self, done: Callable[[GameState], bool], limit: int = 40) -> bool:
        """Step until ``done(state)`` holds, at most ``limit`` phases; the message says where it stopped.

        Raises
        ------
        RefusedError
            When ``done`` is not callable or ``limit`` is not a whole number of at least 1; nothing changes.
        """
        if not callable(done):
            raise RefusedError(
                f"step_until: done: {_shown(done)} is not allowed; give a function of a state that says when "
                "to stop (e.g. lambda s: s.turn == 3)"
            )
        if isinstance(limit, bool) or not isinstance(limit, numbers.Integral) or limit < 1:
            raise RefusedError(
                f"step_until: limit: {_shown(limit)} is not allowed; limit is the most phases to step: "
                "a whole number, at least 1"
            )
        before, before_report = self.state, self.report
        refused = ""
        for _ in range(limit):
            ends = self.phase_ends()
            k = self.phase_number()
            if k + 1 < len(ends):
                self.position = ends[k + 1]
            else:
                try:
                    self._append_edit({"op": "next_phase"})
                except NormandyLabError as exc:  # the sequence cannot go on (the campaign's end)
                    refused = f" (stopped: {exc})"
                    break
                self.position = len(self.states) - 1
            if done(self.state):
                break
        self._summarise(before, before_report, f"Now {self.state.label}{refused}")
        return True

    def next_movement_phase(self) -> bool:
        """Step to the next movement phase of either side."""
        rules = self.state.rules
        return self.step_until(
            lambda s: rules.sequence[s.turn][s.phase_index].kind in ("movement", "mech_movement")
        )

    def next_day(self) -> bool:
        """Step to the first phase of the next day."""
        today = self.state.date
        return self.step_until(lambda s: s.date > today, limit=80)

    def back(self) -> bool:
        """Show the previous phase (False at the first)."""
        k = self.phase_number()
        return self.show(self.phase_ends()[k - 1]) if k > 0 else False

    def show(self, position: int) -> bool:
        """Show the state at ``position`` among :attr:`states`."""
        before, before_report = self.state, self.report
        self.position = position
        self._summarise(before, before_report, f"Now {self.state.label}")
        return True

    def undo(self) -> bool:
        """Take back the last edit (False when there is none)."""
        if len(self.states) <= 1:
            return False
        before, before_report = self.state, self.report
        if self.study is not None:
            self.redo_stack.append(self.study.edits[-1])
            self.study.undo()
        else:
            self.redo_stack.append(self._edits.pop())
            self._states.pop()
        self.position = len(self.states) - 1
        self._summarise(before, before_report, "Undone")
        return True

    def redo(self) -> bool:
        """Apply again the last edit taken back (False when there is none)."""
        return self.apply(self.redo_stack.pop(), from_redo=True) if self.redo_stack else False

    def remove_edit(self, index: int) -> bool:
        """Remove one edit from the list and replay the others; False (and :attr:`message`) if refused.

        The edits after it are replayed; if one of them no longer applies (a move that needed the removed
        one), nothing changes and the message says why.

        Parameters
        ----------
        index
            The edit's place in :attr:`edits` (phase steps included), from 0.

        Raises
        ------
        RefusedError
            For an index that is not a whole number or is outside the list; nothing changes.
        """
        from normandy_lab.views import wording

        edits = list(self.edits)
        if isinstance(index, bool) or not isinstance(index, numbers.Integral) or not 0 <= index < len(edits):
            allowed = (
                f"a whole number from 0 to {len(edits) - 1}, the edit's place among the {len(edits)} edits "
                "(phase steps included)"
                if edits
                else "none: there are no edits to remove"
            )
            raise RefusedError(f"remove_edit: index: {_shown(index)} is not allowed; allowed: {allowed}")
        index = int(index)
        kept = edits[:index] + edits[index + 1 :]
        before, before_report = self.state, self.report
        try:
            if self.study is not None:
                self.study = Study(self.study.scenario, kept, title=self.study.title)
            else:
                states = [self._states[0]]
                for edit in kept:
                    states.append(apply_edit(states[-1], edit))
                self._states, self._edits = states, kept
        except NormandyLabError as exc:
            self.message = f"Cannot remove edit {index + 1}: a later edit depends on it ({exc})"
            return False
        self.redo_stack.clear()
        self.position = len(self.states) - 1
        self._summarise(before, before_report, f"Removed: {wording.edit_words(self.system, edits[index])}")
        return True

    def __repr__(self) -> str:
        what = self.study.title if self.study is not None and self.study.title else self.state.scenario
        return (
            f"Session({what!r}, {self.state.label!r}, edits={len(self.edits)}, "
            f"position={self.position + 1}/{len(self.states)})"
        )
