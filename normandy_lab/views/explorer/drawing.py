"""Drawing the state: the layers, the caption, the inspector, the banner and the list of edits."""

from __future__ import annotations

import html

from normandy_lab.engine.whatif import supply_summary
from normandy_lab.rules import look
from normandy_lab.views import layers, wording
from normandy_lab.views.explorer._common import _edit_ops
from normandy_lab.views.explorer.controls import single_value
from normandy_lab.views.explorer.figure import MapFigure
from normandy_lab.views.explorer.inspector import Inspector


class _Drawing:
    """A part of the explorer (:class:`~normandy_lab.views.explorer.Explorer`), in its own module."""

    panel: Inspector
    figure: MapFigure

    # -- drawing ------------------------------------------------------------------

    def refresh(self) -> None:
        """Recompute the engine's reports for the shown state and send what changed to the map."""
        state = self.state
        selected = self.selected_unit if any(u.id == self.selected_unit for u in state.units) else None
        self.figure.draw(
            state, self.report, selected=selected, all_paths=self.show_all_paths.value,
            viewer=self.viewing_side(), show_sources=self.show_sources.value,
            show_zones=self.show_zones.value,
        )  # fmt: skip
        # The controls follow the state shown (setting the state's own weather applies no edit).
        self._quiet = True
        try:
            self.weather.value = state.weather
            for key, boxes in self.control_boxes.items():
                for sheet, box in boxes.items():
                    box.value = int(state.markers.get(key, {}).get(sheet, 0))
            for control in self.single_controls:
                shown = look(state).control_value(state, control.key)
                self.single_widgets[control.key].value = single_value(control, shown)
            self.phases.sync()
        finally:
            self._quiet = False
        if selected:
            self.inspector.value = self.unit_report_html(selected)
        elif self.selected_formation:
            # The formation may have no unit left in this state (all removed): its list says so.
            self.inspector.value = self._formation_report(self.selected_formation)
        self._refresh_edits()
        self.changed_units = []
        self.message = ""
        self._refresh_text()

    def _refresh_text(self) -> None:
        self._write_label(self._why_line())
        self.status.value = (
            f"<div style='background:#fff8dc;border-left:4px solid #e0a800;padding:4px 8px'>"
            f"{html.escape(self.message)}</div>"
            if self.message
            else ""
        )
        self._bump()

    def _write_label(self, why: str) -> None:
        state = self.state
        self.label.value = (
            f"<b>{html.escape(state.label)}</b> — {html.escape(layers.supply_summary(state, self.report))} — "
            f"seen by: {self.viewing_side() or 'both sides'}"
            f"<br><small class='nl-why-summary'>{html.escape(why)}</small>"
            f"<br>{wording.phase_line(state)}<br>{layers.ring_key_html(state.rules)}"
        )

    def _why_line(self) -> str:
        """Return the line saying why units are out of supply, or a placeholder while it is worked out.

        Its causes need the engine to explain every unit out of supply (a counterfactual trial for each:
        the Storm's ~200 units took 85 % of the edit, issue 33, section 4).  In a kernel the map, the
        banner and the counts are sent first, and the line follows as soon as the kernel is free again
        (a callback of its event loop); with no loop running (a script, the tests) it is worked out here.
        """
        import asyncio

        report = self.report
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return supply_summary(report)
        token = object()
        self._why_token = token

        def fill() -> None:
            if getattr(self, "_why_token", None) is token and self.report is report:
                self._write_label(supply_summary(report))
                self._bump()

        loop.call_soon(fill)
        return "Working out why each unit is out of supply…"

    def _bump(self) -> None:
        # Last of every update: the browser (and the browser benchmark) can tell it is all sent.
        self.refresh_count.value = str(int(self.refresh_count.value) + 1)

    def _refresh_edits(self) -> None:
        """List the study's edits (phase steps excepted), each with a button that removes it."""
        import json

        import ipywidgets as w

        listed = [(k, e) for k, e in enumerate(_edit_ops(self)) if e.get("op") != "next_phase"]
        signature = json.dumps(listed, sort_keys=True, default=str)
        if signature == getattr(self, "_edits_signature", None):
            return  # the same list: no new widgets (each one is a comm in the page)
        self._edits_signature = signature
        for old in self.edits_box.children:
            for part in getattr(old, "children", ()):
                part.close()
            old.close()
        rows = []
        for index, edit in enumerate(_edit_ops(self)):
            if edit.get("op") == "next_phase":
                continue
            remove = w.Button(
                description="✕",
                tooltip="remove this edit",
                layout=w.Layout(width="28px", min_width="28px", height="24px"),
            )
            remove.on_click(lambda _, k=index: self._remove_from_button(k))
            words = w.HTML(html.escape(wording.edit_words(self.system, edit)), layout=w.Layout(width="320px"))
            rows.append(w.HBox([remove, words]))
        self.edits_box.children = [
            w.HTML(f"<b>Edits of this study</b> ({len(rows)})" if rows else "<i>No edits yet.</i>"),
            *rows,
        ]

    def _inspect(self) -> Inspector:
        """Return the side panel's inspector, fed the state shown and its report (new on each move)."""
        return self.panel.feed(self.state, self.report)

    def unit_report_html(self, unit_id: str) -> str:
        """Return the side panel's text for a unit: verdict in sentences, chain, strengths, its stack.

        Raises
        ------
        UnknownNameError
            For an id that is no unit of the state shown, with the nearest ids.
        """
        self._check_unit("unit_report_html", unit_id)
        return self._inspect().unit_html(unit_id)

    def _laid_out(self, formations: dict[str, list]) -> dict[str, list]:
        """Group or move apart the symbols that would overlap at the default zoom (views.declutter)."""
        return self.figure.laid_out(formations)

    def formation_report_html(self, key: str) -> str:
        """Return the side panel's list of a formation's units and their supply (a click on its symbol).

        Raises
        ------
        UnknownNameError
            For a key that is not one of :meth:`formations`, with the nearest.
        """
        self._check_formation("formation_report_html", key)
        return self._formation_report(key)

    def _formation_report(self, key: str) -> str:
        return self._inspect().formation_html(key)
