"""The widgets around the map: buttons, modes, the game's own controls, and their layout."""

from __future__ import annotations

from typing import Any

from normandy_lab.errors import NormandyLabError
from normandy_lab.grids import grid
from normandy_lab.rules import look
from normandy_lab.views import classroom, wording
from normandy_lab.views.explorer._common import FRONT_VIEW, MODES, VIEWS
from normandy_lab.views.explorer.inspector import Inspector
from normandy_lab.views.explorer.phases import PhaseController


class _Controls:
    """A part of the explorer (:class:`~normandy_lab.views.explorer.Explorer`), in its own module."""

    # -- widgets ---------------------------------------------------------------

    def _build_widgets(self) -> None:
        import ipywidgets as w

        from normandy_lab.engine.scenario import SCENARIO_DIR

        self._quiet = False
        small = w.Layout(width="auto")
        # Back / Step / Play and the slider move the session; the explorer only draws (issue 32, section 3).
        self.phases = PhaseController(self.session, self._drawn)
        self.back_button, self.step_button = self.phases.back_button, self.phases.step_button
        self.movement_button, self.day_button = self.phases.movement_button, self.phases.day_button
        self.play, self.speed, self.slider = self.phases.play, self.phases.speed, self.phases.slider
        self.label = w.HTML()
        self.status = w.HTML()
        # The side panel's words about a clicked unit or formation come from the report alone (issue 32).
        self.panel = Inspector(self.state, self.report)
        self.inspector = self.panel.output
        self.edits_box = w.VBox()
        self.mode = w.ToggleButtons(
            options=MODES, value="inspect", description="Click to:", style={"button_width": "auto"}
        )
        self.show_all_paths = w.Checkbox(value=False, description="all lines of supply", indent=False)
        self.view = w.Dropdown(options=VIEWS, value="phasing side", description="Seen by:", layout=small)
        self.show_sources = w.Checkbox(value=False, description="supply ranges of the sources", indent=False)
        # The areas and paths the rule system draws besides ranges (KG: HQ support radius and SP bands,
        # 26.10.5; GTS: the 82nd's link-up, 17.6).
        self.show_zones = w.Checkbox(value=False, description="rule zones and paths", indent=False)
        if not look(self.state).map_features:  # a game that draws neither (Look.map_features)
            self.show_zones.layout.display = "none"
        self.sector = w.Dropdown(  # the sectors this map shows (the Utah map has no Falaise pocket)
            options=["", FRONT_VIEW, *self.sectors()], value="", description="Go to:",
            layout=w.Layout(width="300px"),
        )  # fmt: skip
        self.weather = w.Dropdown(
            options=list(self.state.rules.weather_effects),
            value=self.state.weather,
            description="Weather:",
        )
        sheets = sorted(grid(self.system).scheme.sheets)

        def point_boxes(points: Any, label: str) -> dict[str, Any]:
            # One box per map sheet (a "points_per_map" control: BfN's air and AA, each map a region).
            return {
                s: w.BoundedIntText(
                    value=int(points.get(s, 0)), min=0, max=999, description=f"{label} {s}",
                    layout=w.Layout(width="120px"), style={"description_width": "50px"},
                )
                for s in sheets
            }  # fmt: skip

        # The game's own controls (its look's: Look.controls), grouped by the edit they make.
        controls = [c for c in look(self.state).controls if c.kind == "points_per_map"]
        self.control_boxes = {
            c.key: point_boxes(self.state.markers.get(c.key, {}), c.label) for c in controls
        }
        self.control_groups: dict[str, list] = {}
        for c in controls:
            self.control_groups.setdefault(c.edit_op, []).append(c)
        self.apply_buttons = {
            op: w.Button(description=group[0].button, layout=small)
            for op, group in self.control_groups.items()
        }
        # One-value controls (a hex, a flag, a number), each with its own button: one edit setting one
        # of the game's markers ({"op": "marker", "name": ..., "value": ...}, RuleSet.set_marker).
        self.single_controls = [c for c in look(self.state).controls if c.kind in SINGLE_KINDS]
        self.single_widgets = {
            c.key: _single_widget(w, c, self.state.markers.get(c.key)) for c in self.single_controls
        }
        self.single_buttons = {
            c.key: w.Button(description=c.button, layout=small) for c in self.single_controls
        }
        for c in self.single_controls:
            self.single_buttons[c.key].on_click(lambda _, c=c: self._apply_single(c))
        self.undo_button = w.Button(description="Undo", layout=small)
        self.redo_button = w.Button(description="Redo", layout=small)
        self.save_path = w.Text(value="study.json", description="Study:")
        self.save_button = w.Button(description="Save study", layout=small)
        self.export_button = w.Button(description="Export page", layout=small)
        self.undo_button.on_click(lambda _: self.undo())
        self.redo_button.on_click(lambda _: self.redo())
        self.show_all_paths.observe(lambda _: self.refresh(), names="value")
        self.view.observe(lambda _: self.refresh(), names="value")
        self.show_sources.observe(lambda _: self.refresh(), names="value")
        self.show_zones.observe(lambda _: self.refresh(), names="value")
        self.sector.observe(
            lambda change: self.go_to(change["new"]) if change["new"] else None, names="value"
        )
        self.weather.observe(
            lambda change: (
                self.apply({"op": "weather", "weather": change["new"]})
                if change["new"] != self.state.weather and not self._quiet
                else None
            ),
            names="value",
        )
        for op, group in self.control_groups.items():
            self.apply_buttons[op].on_click(lambda _, op=op, group=group: self._apply_controls(op, group))
        self.save_button.on_click(lambda _: self._save_from_box())
        self.export_button.on_click(lambda _: self._export_from_box())
        scenarios = sorted(p.stem for p in SCENARIO_DIR.glob("*.yaml"))
        self.picker = w.Combobox(
            options=scenarios, placeholder="scenario name, or a saved study .json", description="Open:",
            ensure_option=False, layout=w.Layout(width="380px"),
        )  # fmt: skip
        self.open_button = w.Button(description="Open", layout=small)
        self.open_button.on_click(lambda _: self._open_from_picker())
        # The map takes what the cell leaves beside a 330 px panel; where that is under 900 px (a 1366 px
        # laptop) the panel wraps under the map, which then takes the whole width (issue 33, section 3).
        self.map_box = w.Box(layout=w.Layout(flex="1000 1 900px", min_width="min(480px, 100%)"))
        tall = f"{self._size[1] + 90}px" if self._size[1] else "calc(100vh - 150px)"
        panel = w.VBox(
            [self.status, self.inspector, self.edits_box],
            layout=w.Layout(flex="1 1 330px", min_width="300px", max_width="760px", max_height=tall,
                            overflow="auto", padding="0 0 0 8px"),
        )  # fmt: skip
        # A counter the browser can watch: it changes once an update has sent everything.
        self.refresh_count = w.HTML("0", layout=w.Layout(display="none"))
        for widget, css in (
            (self.step_button, "nl-step"), (self.back_button, "nl-back"), (self.undo_button, "nl-undo"),
            (self.redo_button, "nl-redo"), (self.view, "nl-seen-by"), (self.weather, "nl-weather"),
            (self.mode, "nl-mode"), (self.status, "nl-banner"), (self.label, "nl-label"),
            (self.inspector, "nl-panel"), (self.refresh_count, "nl-refresh-count"), (self.play, "nl-play"),
            (self.edits_box, "nl-edits"), (self.sector, "nl-sector"), (panel, "nl-side"),
        ):  # fmt: skip
            widget.add_class(css)
        # Compact text in the side panel and the label (JupyterLab's widget text is spaced for
        # one-line controls); scoped to the explorer's own classes.
        style = w.HTML(
            "<style>.nl-side .widget-html-content, .nl-label .widget-html-content "
            "{line-height: 1.35; font-size: 12.5px; padding-top: 2px; padding-bottom: 2px}"
            ".nl-edits .widget-html-content {line-height: 1.25; font-size: 12px}</style>",
            layout=w.Layout(display="none"),
        )
        # Folded at first: the map gets the room (views.explorer.fit_to_screen).
        self.show_key = w.ToggleButton(
            value=False, description="map key", tooltip="show or hide the map's key (under the map)"
        )
        self.show_key.observe(
            lambda change: setattr(self.fig.legend[0], "visible", change["new"]), names="value"
        )
        self.app = w.VBox(
            [
                style,
                w.HBox([self.picker, self.open_button, self.sector]),
                self.phases.row,
                self.label,
                w.HBox([self.mode]),
                w.HBox([self.view, self.show_all_paths, self.show_sources, self.show_zones, self.show_key]),
                w.HBox([self.map_box, panel], layout=w.Layout(width="100%", flex_flow="row wrap")),
                w.HBox([self.weather, self.undo_button, self.redo_button]),
                *self._control_rows(w),
                w.HBox([self.save_path, self.save_button, self.export_button]),
                self.refresh_count,
            ]
        )
        self.app.add_class("nl-explorer")
        if classroom.serving_class():  # a class server's page writes nothing on the server (docs/class.md)
            classroom.lock_for_class(self)

    def _apply_controls(self, op: str, group: list) -> None:
        """Apply one group of the rule system's controls as the one edit they make."""
        edit = {"op": op}
        for control in group:
            edit[control.edit_field] = {s: box.value for s, box in self.control_boxes[control.key].items()}
        self.apply(edit)

    def _apply_single(self, control: Any) -> None:
        """Apply a one-value control as the edit it makes (an empty hex clears the marker)."""
        value = self.single_widgets[control.key].value
        if control.kind == "hex":
            value = value.strip() or None
        if control.kind == "hexes":  # hex ids apart by spaces or commas; none clears the marker
            value = [h for h in value.replace(",", " ").split() if h] or None
        if control.kind == "choices":  # none chosen clears the designation
            value = list(value)
        self.apply({"op": control.edit_op, "name": control.edit_field, "value": value})

    def _control_rows(self, w: Any) -> list:
        """Lay out the rule system's controls: per group its help, a row of boxes per control, its button."""
        rows: list = []
        for control in self.single_controls:
            if control.help:
                rows.append(w.HTML(f"<small>{wording.link_rules(control.help, self.system)}</small>"))
            rows.append(w.HBox([self.single_widgets[control.key], self.single_buttons[control.key]]))
        for op, group in self.control_groups.items():
            said = " ".join(c.help for c in group if c.help)
            if said:
                rows.append(w.HTML(f"<small>{wording.link_rules(said, self.system)}</small>"))
            for n, control in enumerate(group):
                boxes = list(self.control_boxes[control.key].values())
                tail = [self.apply_buttons[op]] if n == len(group) - 1 else []
                rows.append(w.HBox([*boxes, *tail], layout=w.Layout(flex_flow="row wrap")))
        return rows

    def _mount_map(self) -> None:
        import ipywidgets as w
        from jupyter_bokeh.widgets import BokehModel

        from normandy_lab.views.explorer import MAP_HEIGHT_CSS

        # The widget's height is the page's to set (the figure stretches to it) unless one was given.
        tall = "auto" if self._size[1] else MAP_HEIGHT_CSS
        self.map_widget = BokehModel(self.fig, layout=w.Layout(width="100%", height=tall))
        self.show_key.value = False
        self.map_box.children = [self.map_widget]
        self._map_changed = False
        self.fig.document.on_change(self._note_map_change)

    def _note_map_change(self, event: Any) -> None:
        """Remember that the figure changed after its widget was made (see ``_ipython_display_``)."""
        self._map_changed = True

    def _open_from_picker(self) -> None:
        try:
            self.open(self.picker.value)
        except (NormandyLabError, OSError) as exc:  # a bad name or file: say so, keep what is shown
            self.message = f"Could not open {self.picker.value!r}: {exc}"
            self._refresh_text()

    def _ipython_display_(self) -> None:  # pragma: no cover - needs a front end
        from IPython.display import display

        if not getattr(self, "_displayed", False):
            # The map's widget carries the figure as it was when the widget was made, and changes made
            # before any browser shows it have nowhere to go: shown the first time, a changed figure is
            # sent again through the same widget (a second widget would get every later patch too), so
            # a cell that sets the explorer up (ticks a box, selects a unit) and then shows it works.
            if self._map_changed:
                self.map_widget.update_from_model(self.fig)
            self._displayed = True
        display(self.app)


SINGLE_KINDS = ("hex", "hexes", "flag", "number", "choices")


def _single_widget(w: Any, control: Any, value: Any) -> Any:
    """Return the widget of a one-value control, showing the marker's value now."""
    style = {"description_width": "initial"}
    shown = single_value(control, value)
    if control.kind == "flag":
        return w.Checkbox(value=shown, description=control.label, style=style, indent=False)
    if control.kind == "number":
        return w.BoundedIntText(value=shown, min=0, max=999, description=control.label, style=style)
    if control.kind == "choices":  # some of the names offered, chosen together (GTS 17.3's three divisions)
        return w.SelectMultiple(
            options=control.choices, value=shown, rows=len(control.choices), description=control.label,
            style=style,
        )  # fmt: skip
    placeholder = "hex ids, e.g. A2117 A5117" if control.kind == "hexes" else "hex id"
    return w.Text(value=shown, placeholder=placeholder, description=control.label, style=style)


def single_value(control: Any, value: Any) -> Any:
    """Return what a one-value control shows for a marker's value (a planned hex, a flag, a number)."""
    if control.kind == "flag":
        return bool(value)
    if control.kind == "number":
        return int(value or 0)
    if control.kind == "hexes":
        return " ".join(value or ())
    if control.kind == "choices":
        return tuple(v for v in (value or ()) if v in control.choices)
    return str(value.get("hex", "") if isinstance(value, dict) else (value or ""))
