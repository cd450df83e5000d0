"""Drawing what a session shows on the explorer's parts: the map, the controls, the panel and the banner.

A :class:`Drawer` is the explorer's one redraw: given a :class:`~normandy_lab.session.Session` it draws its
state and report on the :class:`~normandy_lab.views.explorer.figure.MapFigure` with the choices the
:class:`~normandy_lab.views.explorer.controls.Controls` hold, sets the controls and the phase slider to the
state, rewrites the inspector's words for what is selected, lists the edits, and writes the caption and
the banner.  It changes nothing in the session but the last action's words, which a redraw clears.
"""

from __future__ import annotations

import html

from normandy_lab.engine.whatif import supply_summary
from normandy_lab.session import Session
from normandy_lab.views import layers, wording
from normandy_lab.views.explorer.controls import Controls
from normandy_lab.views.explorer.figure import MapFigure
from normandy_lab.views.explorer.inspector import Inspector
from normandy_lab.views.explorer.phases import PhaseController


class Drawer:
    """Draw a session on the explorer's figure, controls, phase controller and inspector.

    Parameters
    ----------
    figure, controls, phases, panel
        The parts drawn on.  The explorer sets :attr:`figure` again when it opens another game's map.
    """

    def __init__(
        self, figure: MapFigure, controls: Controls, phases: PhaseController, panel: Inspector
    ) -> None:
        self.figure, self.controls, self.phases, self.panel = figure, controls, phases, panel
        self._why_token: object | None = None

    def draw(self, session: Session, write: bool = True) -> None:
        """Draw the state shown and everything that follows it; the banner and the rings are cleared.

        ``write=False`` leaves the caption and the banner to the caller, who writes them once.
        """
        state, report = session.state, session.report
        controls = self.controls
        selected = session.selected_unit
        selected = selected if any(u.id == selected for u in state.units) else None
        self.figure.draw(
            state, report, selected=selected, all_paths=controls.show_all_paths.value,
            viewer=controls.seen_by(state.phasing_side), show_sources=controls.show_sources.value,
            show_zones=controls.show_zones.value,
        )  # fmt: skip
        # The controls follow the state shown (setting the state's own weather applies no edit).
        controls.follow(state)
        self.phases.sync()
        if selected:
            self.panel.feed(state, report).show_unit(selected)
        elif session.selected_formation:
            # The formation may have no unit left in this state (all removed): its list says so.
            self.panel.feed(state, report).show_formation(session.selected_formation)
        controls.show_edits(session.edits)
        session.changed_units = []
        session.message = ""
        if write:
            self.write(session)

    def drawn(self, session: Session, changed: bool) -> bool:
        """Draw what a session action left: all of it when it changed something, always the banner.

        The action's words and rings are kept through the redraw.  Returns ``changed``.
        """
        if changed:
            said, rings = session.message, session.changed_units
            # Clears the banner, as any redraw does; the caption is written once, below (one update).
            self.draw(session, write=False)
            session.message, session.changed_units = said, rings
            self.figure.layers.set_features(
                "changed", layers.unit_positions(self.figure.sources["units"].data, rings)
            )
        self.write(session)
        return changed

    def write(self, session: Session) -> None:
        """Write the caption over the map and the banner, then count the update."""
        self._write_label(session, self._why_line(session))
        self.controls.show_banner(session.message)
        self.controls.bump()

    def _write_label(self, session: Session, why: str) -> None:
        state = session.state
        seen_by = self.controls.seen_by(state.phasing_side)
        counts = layers.supply_summary(state, session.report)
        self.controls.label.value = (
            f"<b>{html.escape(state.label)}</b> — {html.escape(counts)} — seen by: {seen_by or 'both sides'}"
            f"<br><small class='nl-why-summary'>{html.escape(why)}</small>"
            f"<br>{wording.phase_line(state)}<br>{layers.ring_key_html(state)}"
        )

    def _why_line(self, session: Session) -> str:
        """Return the line saying why units are out of supply, or a placeholder while it is worked out.

        Its causes need the engine to explain every unit out of supply (a counterfactual trial for each:
        the Storm's ~200 units took 85 % of the edit, issue 33, section 4).  In a kernel the map, the
        banner and the counts are sent first, and the line follows as soon as the kernel is free again
        (a callback of its event loop); with no loop running (a script, the tests) it is worked out here.
        So it is when every reason is known already (a state shown before, or a step that changes nothing
        supply reads, issue 33, section 1): the line goes with the picture, in one update.
        """
        import asyncio

        report = session.report
        if report.reasons_ready():
            return supply_summary(report)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return supply_summary(report)
        token = object()
        self._why_token = token

        def fill() -> None:
            if self._why_token is token and session.report is report:
                self._write_label(session, supply_summary(report))
                self.controls.bump()

        loop.call_soon(fill)
        return "Working out why each unit is out of supply…"


