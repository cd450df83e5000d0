"""Stepping through phases and days, and the study's edits: apply, undo, redo, remove."""

from __future__ import annotations

import numbers
from typing import Any

from normandy_lab.engine.edits import apply_edit
from normandy_lab.engine.state import GameState
from normandy_lab.engine.study import Study
from normandy_lab.errors import NormandyLabError, RefusedError
from normandy_lab.grids import grid
from normandy_lab.views import layers, wording
from normandy_lab.views.explorer._common import _edit_ops, refuse_unknown, shown


class _History:
    """A part of the explorer (:class:`~normandy_lab.views.explorer.Explorer`), in its own module."""

    # -- states and phases -------------------------------------------------

    @property
    def states(self) -> list[GameState]:
        """Every state so far (scenario, then one per edit or step)."""
        return self.study.states if self.study is not None else self._states

    @property
    def state(self) -> GameState:
        """The state shown."""
        return self.states[self.position]

    def phase_ends(self) -> list[int]:
        """Return, for each phase reached so far, the position of its last state (after its edits).

        The phase slider walks these: edits are listed beside the map, not slid over.
        """
        ops = [edit.get("op") for edit in _edit_ops(self)]
        starts = [0] + [k + 1 for k, op in enumerate(ops) if op == "next_phase"]
        return [nxt - 1 for nxt in starts[1:]] + [len(self.states) - 1]

    def phase_number(self) -> int:
        """Return the index of the phase shown among :meth:`phase_ends`."""
        ends = self.phase_ends()
        return next(k for k, end in enumerate(ends) if self.position <= end)

    def apply(self, edit: dict[str, Any], from_redo: bool = False) -> bool:
        """Apply an edit (the form studies store, see :func:`normandy_lab.engine.edits.apply_edit`).

        The edit goes at the end of the history and the map is redrawn.  A
        refused edit changes nothing: the banner gives the engine's reason
        and False is returned.  A new edit empties the redo list;
        ``from_redo`` (used by :meth:`redo`) keeps the rest of it.
        """
        if self.position != len(self.states) - 1:
            self.message = "Go to the latest phase (the slider's end) to edit."
            self._refresh_text()
            return False
        before, before_report = self.state, self.report
        try:
            self._append_edit(edit)
        except NormandyLabError as exc:  # the engine's refusal, with its reason (anything else is a bug)
            self.message = f"Refused: {exc}"
            self._refresh_text()
            return False
        if not from_redo:  # a new edit starts a new future; a redo walks the old one
            self.redo_stack.clear()
        self.position = len(self.states) - 1
        self.refresh()
        self._summarise(before, before_report, wording.edit_words(self.system, edit, self.state))
        return True

    def _append_edit(self, edit: dict[str, Any]) -> None:
        """Put an edit at the end of the history (the study's, or this explorer's own); raises if refused."""
        if self.study is not None:
            self.study.apply(edit)
        else:
            self._states.append(apply_edit(self.states[-1], edit))
            self._edits.append(dict(edit))

    def _summarise(self, before: GameState, before_report: Any, what: str) -> None:
        """Put what changed in the banner and ring the units whose verdict changed."""
        sentence, self.changed_units = wording.change_summary(
            before, before_report, self.state, self.report, what
        )
        self.layers.set_features(
            "changed", layers.unit_positions(self.sources["units"].data, self.changed_units)
        )
        self.message = sentence
        self._refresh_text()

    def step(self) -> None:
        """Step to the next phase (the next one reached already, or a new state at the end)."""
        ends = self.phase_ends()
        k = self.phase_number()
        if k + 1 < len(ends):
            self._show_position(ends[k + 1])
        else:
            self.apply({"op": "next_phase"})

    def step_until(self, done: Any, limit: int = 40) -> None:
        """Step until ``done(state)`` holds (at most ``limit`` phases), one redraw at the end.

        Raises
        ------
        RefusedError
            When ``done`` is not callable or ``limit`` is not a whole number of at least 1; nothing changes.
        """
        if not callable(done):
            raise RefusedError(
                f"step_until: done: {shown(done)} is not allowed; give a function of a state that says when "
                "to stop (e.g. lambda s: s.turn == 3)"
            )
        if isinstance(limit, bool) or not isinstance(limit, numbers.Integral) or limit < 1:
            raise RefusedError(
                f"step_until: limit: {shown(limit)} is not allowed; limit is the most phases to step: "
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
        self.refresh()
        self._summarise(before, before_report, f"Now {self.state.label}{refused}")

    def next_movement_phase(self) -> None:
        """Step to the next movement phase of either side."""
        rules = self.state.rules
        self.step_until(lambda s: rules.sequence[s.turn][s.phase_index].kind in ("movement", "mech_movement"))

    def next_day(self) -> None:
        """Step to the first phase of the next day."""
        today = self.state.date
        self.step_until(lambda s: s.date > today, limit=80)

    def back(self) -> None:
        """Show the previous phase."""
        k = self.phase_number()
        if k > 0:
            self._show_position(self.phase_ends()[k - 1])

    def _show_position(self, position: int) -> None:
        before, before_report = self.state, self.report
        self.position = position
        self.refresh()
        self._summarise(before, before_report, f"Now {self.state.label}")

    def undo(self) -> None:
        """Take back the last edit."""
        if len(self.states) <= 1:
            return
        before, before_report = self.state, self.report
        if self.study is not None:
            self.redo_stack.append(self.study.edits[-1])
            self.study.undo()
        else:
            self.redo_stack.append(self._edits.pop())
            self._states.pop()
        self.position = len(self.states) - 1
        self.refresh()
        self._summarise(before, before_report, "Undone")

    def redo(self) -> None:
        """Apply again the last edit taken back."""
        if self.redo_stack:
            self.apply(self.redo_stack.pop(), from_redo=True)

    def _remove_from_button(self, index: int) -> None:
        """Remove an edit from its ✕ button: a refusal goes to the banner, not to the notebook."""
        try:
            self.remove_edit(index)
        except RefusedError as exc:  # a button of a list that changed since: say so
            self.message = f"Cannot remove that edit: {exc}"
            self._refresh_text()

    def remove_edit(self, index: int) -> bool:
        """Remove one edit from the study's list and replay the others; False (and why) if refused.

        The edits after it are replayed on the new history; if one of them no
        longer applies (a move that needed the removed one), nothing changes,
        the banner says why and False is returned.

        Parameters
        ----------
        index
            The edit's place in the list of every edit, phase steps included (``explorer.study.edits``,
            or the explorer's own list for a bare state), from 0.

        Raises
        ------
        RefusedError
            For an index that is not a whole number or is outside the list; nothing changes.
        """
        edits = list(_edit_ops(self))
        if isinstance(index, bool) or not isinstance(index, numbers.Integral) or not 0 <= index < len(edits):
            allowed = (
                f"a whole number from 0 to {len(edits) - 1}, the edit's place among the {len(edits)} edits "
                "(phase steps included)"
                if edits
                else "none: there are no edits to remove"
            )
            raise RefusedError(f"remove_edit: index: {shown(index)} is not allowed; allowed: {allowed}")
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
            self._refresh_text()
            return False
        self.redo_stack.clear()
        self.position = len(self.states) - 1
        self.refresh()
        self._summarise(before, before_report, f"Removed: {wording.edit_words(self.system, edits[index])}")
        return True

    def compare(self, other: GameState | dict[str, Any], titles: tuple[str, str] | None = None) -> Any:
        """Show the state shown beside another, panned and zoomed together, with a table of differences.

        ``other`` is a state, or an edit to try on the state shown without
        keeping it (``{"op": "weather", "weather": "Storm"}``).

        Raises
        ------
        RefusedError
            When ``other`` is neither a state nor an edit (a ``dict``), or ``titles`` is not two texts;
            also when the edit is refused (the engine's reason).
        """
        from normandy_lab.views.compare import compare

        if not isinstance(other, GameState | dict):
            raise RefusedError(
                f"compare: other: {shown(other)} is not allowed; give a GameState of the same map, or an "
                "edit to try on the state shown, as a dict (e.g. {'op': 'weather', 'weather': 'Storm'})"
            )
        if titles is not None and not (
            isinstance(titles, tuple | list) and len(titles) == 2 and all(isinstance(t, str) for t in titles)
        ):
            raise RefusedError(
                f"compare: titles: {shown(titles)} is not allowed; give two texts, the words over each map "
                "(e.g. ('as it is', 'in a storm')), or None"
            )
        if isinstance(other, dict):
            words = wording.edit_words(self.system, other)
            other = apply_edit(self.state, other)
            titles = titles or ("as it is", f"if: {words}")
        return compare(self.state, other, titles=titles or ("shown", "other"))

    def layer_hexes(self, name: str) -> list[str]:
        """Return the hex ids a hex layer shows (``zoc_allied``, ``zoc_german``, ``range``, ``moves``...).

        Raises
        ------
        UnknownNameError
            For a name that is not one of the map's hex layers, with the nearest.
        """
        names = list(self.layers.filters)
        if not (isinstance(name, str) and name in names):
            refuse_unknown("layer_hexes", "name", name, names, "a hex layer of the map")
        ids = grid(self.system).ids()
        return [ids[i] for i in self.layers.hexes(name)]

    def viewing_side(self) -> str:
        """Return the side the map is seen from ("allied" or "german"), or "" for both sides."""
        choice = self.view.value
        if choice == "phasing side":
            return self.state.phasing_side
        return "" if choice == "both sides" else choice
