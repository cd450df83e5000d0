"""Stepping through phases and days, and the study's edits: apply, undo, redo, remove."""

from __future__ import annotations

from typing import Any

from normandy_lab.engine.edits import apply_edit
from normandy_lab.engine.state import GameState
from normandy_lab.engine.study import Study
from normandy_lab.errors import RefusedError
from normandy_lab.grids import grid
from normandy_lab.session import Session
from normandy_lab.views import layers, wording
from normandy_lab.views.explorer._common import refuse_unknown, shown
from normandy_lab.views.explorer.phases import PhaseController


def _session_field(name: str, doc: str) -> property:
    """Return a property reading and setting the explorer's session's ``name`` (the session holds it)."""

    def read(self: Any) -> Any:
        return getattr(self.session, name)

    def write(self: Any, value: Any) -> None:
        setattr(self.session, name, value)

    return property(read, write, doc=doc)


class _History:
    """A part of the explorer (:class:`~normandy_lab.views.explorer.Explorer`), in its own module.

    What is worked on, and every action on it, is the explorer's :class:`~normandy_lab.session.Session`
    (no widgets); this part draws what each action leaves: the map, the banner, the rings.
    """

    session: Session
    phases: PhaseController

    # -- what the session holds, read and set through the explorer -----------------------------------

    @property
    def states(self) -> list[GameState]:
        """Every state so far (scenario, then one per edit or step)."""
        return self.session.states

    @property
    def state(self) -> GameState:
        """The state shown."""
        return self.session.state

    @property
    def report(self) -> Any:
        """The engine's supply report of the state shown."""
        return self.session.report

    @property
    def study(self) -> Study | None:
        """The study worked on (None for a bare state)."""
        return self.session.study

    position = _session_field("position", "The index of the state shown among :attr:`states`.")
    message = _session_field("message", "The banner's words: what the last action did, or why refused.")
    changed_units = _session_field("changed_units", "The units whose verdict the last action changed.")
    selected_unit = _session_field("selected_unit", "The unit selected on the map.")
    selected_formation = _session_field("selected_formation", "The formation selected on the map.")
    pending_hex = _session_field("pending_hex", "The first hex of a two-click action (a bridge's hexside).")

    @property
    def redo_stack(self) -> list[dict[str, Any]]:
        """The edits taken back, last first out."""
        return self.session.redo_stack

    # -- phases and edits: the session acts, the explorer draws ----------------------------------------

    def phase_ends(self) -> list[int]:
        """Return, for each phase reached so far, the position of its last state (after its edits).

        The phase slider walks these: edits are listed beside the map, not slid over.
        """
        return self.session.phase_ends()

    def phase_number(self) -> int:
        """Return the index of the phase shown among :meth:`phase_ends`."""
        return self.session.phase_number()

    def _drawn(self, changed: bool) -> bool:
        """Draw what a session action left: the map when it changed something, always the banner."""
        if changed:
            said, rings = self.session.message, self.session.changed_units
            self.refresh()  # draws the state shown (and clears the banner, as any redraw does)
            self.session.message, self.session.changed_units = said, rings
            self.layers.set_features("changed", layers.unit_positions(self.sources["units"].data, rings))
        self._refresh_text()
        return changed

    def apply(self, edit: dict[str, Any], from_redo: bool = False) -> bool:
        """Apply an edit (the form studies store, see :func:`normandy_lab.engine.edits.apply_edit`).

        The edit goes at the end of the history and the map is redrawn.  A
        refused edit changes nothing: the banner gives the engine's reason
        and False is returned.  A new edit empties the redo list;
        ``from_redo`` (used by :meth:`redo`) keeps the rest of it.
        """
        return self._drawn(self.session.apply(edit, from_redo=from_redo))

    def step(self) -> None:
        """Step to the next phase (the next one reached already, or a new state at the end)."""
        self.phases.step()

    def step_until(self, done: Any, limit: int = 40) -> None:
        """Step until ``done(state)`` holds (at most ``limit`` phases), one redraw at the end.

        Raises
        ------
        RefusedError
            When ``done`` is not callable or ``limit`` is not a whole number of at least 1; nothing changes.
        """
        self.phases.step_until(done, limit)

    def next_movement_phase(self) -> None:
        """Step to the next movement phase of either side."""
        self.phases.next_movement_phase()

    def next_day(self) -> None:
        """Step to the first phase of the next day."""
        self.phases.next_day()

    def back(self) -> None:
        """Show the previous phase."""
        self.phases.back()

    def _show_position(self, position: int) -> None:
        self._drawn(self.session.show(position))

    def undo(self) -> None:
        """Take back the last edit."""
        if self.session.undo():
            self._drawn(True)

    def redo(self) -> None:
        """Apply again the last edit taken back."""
        if self.redo_stack:
            self._drawn(self.session.redo())

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
        return self._drawn(self.session.remove_edit(index))

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
        return compare(self.state, other, titles=titles)  # by default "as it is" and what differs

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
