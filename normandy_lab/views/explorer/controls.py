"""The widgets around the map: buttons, modes, the game's own controls, the banner and the list of edits.

A :class:`Controls` owns these widgets and lays them out round a map box, a phase controller's row and an
inspector's panel.  It edits nothing itself: a button or a box calls one of the :class:`Callbacks` it was
given (apply this edit, undo, redraw, open what was typed...), and :meth:`Controls.follow` sets the
widgets to a state shown.  So it can be built and driven with any callbacks, without a map, a session or
a browser (issue 32, section 3).
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from normandy_lab.engine.state import GameState
from normandy_lab.grids import grid
from normandy_lab.rules import look
from normandy_lab.views import classlock, wording
from normandy_lab.views.explorer._common import FRONT_VIEW, MODES, VIEWS
from normandy_lab.views.explorer.phases import PhaseController


@dataclass(frozen=True)
class Callbacks:
    """What the controls call: each is the explorer's (or a test's) own function.

    Attributes
    ----------
    apply
        Apply an edit (a dict, as studies store it): the weather, the game's controls.
    undo, redo
        The Undo and Redo buttons.
    redraw
        A view choice changed (seen by, all lines, source ranges, zones): draw again.
    go_to
        A sector was chosen in "Go to:".
    save, export, open
        Save study, Export page and Open were pressed (each reads the box it needs from the controls).
    show_key
        The "map key" toggle, with whether the key is now shown.
    remove_edit
        A ✕ of the list of edits was pressed, with the edit's index among every edit.
    """

    apply: Callable[[dict[str, Any]], Any]
    undo: Callable[[], Any]
    redo: Callable[[], Any]
    redraw: Callable[[], Any]
    go_to: Callable[[str], Any]
    save: Callable[[], Any]
    export: Callable[[], Any]
    open: Callable[[], Any]
    show_key: Callable[[bool], Any]
    remove_edit: Callable[[int], Any]


class Controls:
    """The explorer's widgets, laid out as one application (:attr:`app`) round the map.

    Parameters
    ----------
    state
        The first state shown: its game's controls (:attr:`~normandy_lab.rules.game.Look.controls`), its
        weathers, its map's sheets and the values shown at first.
    sectors
        The named sectors "Go to:" offers (besides the scenario's front).
    callbacks
        What each control calls (:class:`Callbacks`).
    phases
        The phase controller, whose row of widgets (Back, Step, Play, the slider) goes over the map.
    panel
        The inspector's widget, shown in the side panel between the banner and the list of edits.
    height
        The map's height in pixels when one was given (the side panel is as tall), or None.

    Attributes
    ----------
    app
        The whole application: display it.
    map_box
        The box the map's widget goes in.
    mode, view, show_all_paths, show_sources, show_zones, show_key, sector, weather
        The click mode and the view's choices.
    control_boxes, apply_buttons, single_widgets, single_buttons
        The game's own controls: per-sheet boxes with a button per edit, and one-value widgets.
    label, status, edits_box, refresh_count
        The caption over the map, the banner, the list of edits, and a counter bumped after each update.
    """

    def __init__(
        self,
        state: GameState,
        sectors: Sequence[str],
        callbacks: Callbacks,
        *,
        phases: PhaseController,
        panel: Any,
        height: int | None = None,
    ) -> None:
        import ipywidgets as w

        self.callbacks = callbacks
        self.system, self.game = state.system, state.game
        # While the widgets are set to follow a state, their observers must not make edits.
        self._quiet = False
        self._edits_signature: str | None = None
        # The list of edits' widgets, kept from one redraw to the next (show_edits): its heading, and the
        # row of each edit by its index among every edit.
        self._edits_heading: Any = None
        self._edit_rows: dict[int, Any] = {}
        self._edit_looks: dict[str, Any] = {}
        self._weather_shown = state.weather
        small = w.Layout(width="auto")
        self.label = w.HTML()
        self.status = w.HTML()
        self.inspector = panel
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
        if not look(state).map_features:  # a game that draws neither (Look.map_features)
            self.show_zones.layout.display = "none"
        self.sector = w.Dropdown(  # the sectors this map shows (the Utah map has no Falaise pocket)
            options=["", FRONT_VIEW, *sectors], value="", description="Go to:",
            layout=w.Layout(width="300px"),
        )  # fmt: skip
        self.weather = w.Dropdown(
            options=list(state.rules.weather_effects), value=state.weather, description="Weather:"
        )
        self._make_game_controls(w, state)
        self.undo_button = w.Button(description="Undo", layout=small)
        self.redo_button = w.Button(description="Redo", layout=small)
        self.save_path = w.Text(value="study.json", description="Study:")
        self.save_button = w.Button(description="Save study", layout=small)
        self.export_button = w.Button(description="Export page", layout=small)
        self.picker = w.Combobox(
            options=_scenario_names(), placeholder="scenario name, or a saved study .json",
            description="Open:", ensure_option=False, layout=w.Layout(width="380px"),
        )  # fmt: skip
        self.open_button = w.Button(description="Open", layout=small)
        # Folded at first: the map gets the room (views.explorer.fit_to_screen).
        self.show_key = w.ToggleButton(
            value=False, description="map key", tooltip="show or hide the map's key (under the map)"
        )
        # A counter the browser can watch: it changes once an update has sent everything.
        self.refresh_count = w.HTML("0", layout=w.Layout(display="none"))
        self._connect()
        self._lay_out(w, phases, height)
        if classlock.serving_class():  # a class server's page writes nothing on the server (docs/class.md)
            classlock.lock_for_class(self)

    def _make_game_controls(self, w: Any, state: GameState) -> None:
        """Make the game's own controls (its look's :attr:`~normandy_lab.rules.game.Look.controls`).

        Nothing is replaced unless all of them could be made (the attributes are set together at the end).
        """
        small = w.Layout(width="auto")
        sheets = sorted(grid(state.system).scheme.sheets)

        def point_boxes(points: Any, label: str) -> dict[str, Any]:
            # One box per map sheet (a "points_per_map" control: BfN's air and AA, each map a region).
            return {
                s: w.BoundedIntText(
                    value=int(points.get(s, 0)), min=0, max=999, description=f"{label} {s}",
                    layout=w.Layout(width="120px"), style={"description_width": "50px"},
                )
                for s in sheets
            }  # fmt: skip

        # Per-sheet controls, grouped by the edit they make.
        controls = [c for c in look(state).controls if c.kind == "points_per_map"]
        control_boxes = {c.key: point_boxes(state.markers.get(c.key, {}), c.label) for c in controls}
        control_groups: dict[str, list[Any]] = {}
        for c in controls:
            control_groups.setdefault(c.edit_op, []).append(c)
        apply_buttons = {
            op: w.Button(description=group[0].button, layout=small) for op, group in control_groups.items()
        }
        # One-value controls (a hex, a flag, a number), each with its own button: one edit setting one
        # of the game's markers ({"op": "marker", "name": ..., "value": ...}, RuleSet.set_marker).
        single_controls = [c for c in look(state).controls if c.kind in SINGLE_KINDS]
        single_widgets = {c.key: _single_widget(w, c, state.markers.get(c.key)) for c in single_controls}
        single_buttons = {c.key: w.Button(description=c.button, layout=small) for c in single_controls}
        self.control_boxes, self.control_groups = control_boxes, control_groups
        self.apply_buttons, self.single_controls = apply_buttons, single_controls
        self.single_widgets, self.single_buttons = single_widgets, single_buttons

    def _connect(self) -> None:
        """Make each widget call its callback."""
        calls = self.callbacks
        self.undo_button.on_click(lambda _: calls.undo())
        self.redo_button.on_click(lambda _: calls.redo())
        for box in (self.show_all_paths, self.view, self.show_sources, self.show_zones):
            box.observe(lambda _: None if self._quiet else calls.redraw(), names="value")
        self.sector.observe(
            lambda change: calls.go_to(change["new"]) if change["new"] else None, names="value"
        )
        self.weather.observe(self._on_weather, names="value")
        self._connect_game()
        self.save_button.on_click(lambda _: calls.save())
        self.export_button.on_click(lambda _: calls.export())
        self.open_button.on_click(lambda _: calls.open())
        self.show_key.observe(lambda change: calls.show_key(change["new"]), names="value")

    def _connect_game(self) -> None:
        """Make each of the game's own buttons apply the edit its controls make."""
        calls = self.callbacks
        for op in self.control_groups:
            self.apply_buttons[op].on_click(lambda _, op=op: calls.apply(self.points_edit(op)))
        for c in self.single_controls:
            self.single_buttons[c.key].on_click(lambda _, key=c.key: calls.apply(self.single_edit(key)))

    def _on_weather(self, change: dict[str, Any]) -> None:
        # A weather chosen by hand is an edit; one set to follow the state shown is not.
        if not self._quiet and change["new"] != self._weather_shown:
            self.callbacks.apply({"op": "weather", "weather": change["new"]})

    def _lay_out(self, w: Any, phases: PhaseController, height: int | None) -> None:
        # The map takes what the cell leaves beside a 330 px panel; where that is under 900 px (a 1366 px
        # laptop) the panel wraps under the map, which then takes the whole width (issue 33, section 3).
        self.map_box = w.Box(layout=w.Layout(flex="1000 1 900px", min_width="min(480px, 100%)"))
        # The game's own rows in a box of their own: another game's are swapped in (show_game).
        self.game_box = w.VBox(self._control_rows(w, self.system))
        tall = f"{height + 90}px" if height else "calc(100vh - 150px)"
        panel = w.VBox(
            [self.status, self.inspector, self.edits_box],
            layout=w.Layout(flex="1 1 330px", min_width="300px", max_width="760px", max_height=tall,
                            overflow="auto", padding="0 0 0 8px"),
        )  # fmt: skip
        for widget, css in (
            (phases.step_button, "nl-step"), (phases.back_button, "nl-back"), (phases.play, "nl-play"),
            (self.undo_button, "nl-undo"), (self.redo_button, "nl-redo"), (self.view, "nl-seen-by"),
            (self.weather, "nl-weather"), (self.mode, "nl-mode"), (self.status, "nl-banner"),
            (self.label, "nl-label"), (self.inspector, "nl-panel"), (self.refresh_count, "nl-refresh-count"),
            (self.edits_box, "nl-edits"), (self.sector, "nl-sector"), (panel, "nl-side"),
            (self.game_box, "nl-game-controls"), (self.picker, "nl-open"),
            (self.open_button, "nl-open-button"),
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
        self.app = w.VBox(
            [
                style,
                w.HBox([self.picker, self.open_button, self.sector]),
                phases.row,
                self.label,
                w.HBox([self.mode]),
                w.HBox([self.view, self.show_all_paths, self.show_sources, self.show_zones, self.show_key]),
                w.HBox([self.map_box, panel], layout=w.Layout(width="100%", flex_flow="row wrap")),
                w.HBox([self.weather, self.undo_button, self.redo_button]),
                self.game_box,
                w.HBox([self.save_path, self.save_button, self.export_button]),
                self.refresh_count,
            ]
        )
        self.app.add_class("nl-explorer")

    def _control_rows(self, w: Any, system: str) -> list[Any]:
        """Lay out the game's own controls: per group its help, a row of boxes per control, its button.

        ``system`` is the map's key the help's rule references link to.
        """
        rows: list[Any] = []
        for control in self.single_controls:
            if control.help:
                rows.append(w.HTML(f"<small>{wording.link_rules(control.help, system)}</small>"))
            rows.append(w.HBox([self.single_widgets[control.key], self.single_buttons[control.key]]))
        for op, group in self.control_groups.items():
            said = " ".join(c.help for c in group if c.help)
            if said:
                rows.append(w.HTML(f"<small>{wording.link_rules(said, system)}</small>"))
            for n, control in enumerate(group):
                boxes = list(self.control_boxes[control.key].values())
                tail = [self.apply_buttons[op]] if n == len(group) - 1 else []
                rows.append(w.HBox([*boxes, *tail], layout=w.Layout(flex_flow="row wrap")))
        return rows

    # -- the edits the game's controls make ----------------------------------------------------------------

    def points_edit(self, op: str) -> dict[str, Any]:
        """Return the one edit a group of per-sheet controls makes, from what their boxes hold."""
        edit: dict[str, Any] = {"op": op}
        for control in self.control_groups[op]:
            edit[control.edit_field] = {s: box.value for s, box in self.control_boxes[control.key].items()}
        return edit

    def single_edit(self, key: str) -> dict[str, Any]:
        """Return the edit a one-value control makes from what its widget holds (empty clears the marker)."""
        control = next(c for c in self.single_controls if c.key == key)
        value = self.single_widgets[key].value
        if control.kind == "hex":
            value = value.strip() or None
        if control.kind == "hexes":  # hex ids apart by spaces or commas; none clears the marker
            value = [h for h in value.replace(",", " ").split() if h] or None
        if control.kind == "choices":  # none chosen clears the designation
            value = list(value)
        return {"op": control.edit_op, "name": control.edit_field, "value": value}

    # -- the widgets follow what is shown ------------------------------------------------------------------

    def follow(self, state: GameState) -> None:
        """Set the weather and the game's controls to ``state``'s, making no edit."""
        self._quiet = True
        self._weather_shown = state.weather
        try:
            self.weather.value = state.weather
            for key, boxes in self.control_boxes.items():
                for sheet, box in boxes.items():
                    box.value = int(state.markers.get(key, {}).get(sheet, 0))
            for control in self.single_controls:
                shown = look(state).control_value(state, control.key)
                self.single_widgets[control.key].value = single_value(control, shown)
        finally:
            self._quiet = False

    def show_game(self, state: GameState, sectors: Sequence[str]) -> None:
        """Show another game's controls, set to ``state``, in place of the game's shown: making no edit.

        Its weathers in "Weather:", its sectors in "Go to:", "rule zones and paths" when its look draws
        any (:attr:`~normandy_lab.rules.game.Look.map_features`), and its own control rows in
        :attr:`game_box`, the box the application shows (the old rows' widgets are closed).  The other
        widgets stay: the mode, the view's choices, Undo/Redo, Study/Save/Export and Open (on a class
        server, taken off once and for all).  If the new rows cannot be made, nothing changes.
        """
        import ipywidgets as w

        old = {name: getattr(self, name) for name in GAME_PARTS}
        old_rows = self.game_box.children
        try:
            self._make_game_controls(w, state)
            rows = self._control_rows(w, state.system)
        except Exception:
            for name, value in old.items():  # the game's controls shown stay the ones it reads
                setattr(self, name, value)
            raise
        features = look(state).map_features
        self._quiet = True
        try:
            self.system, self.game = state.system, state.game
            self._weather_shown = state.weather
            self.weather.options = list(state.rules.weather_effects)
            self.weather.value = state.weather
            self.offer_sectors(sectors)
            if not features:
                self.show_zones.value = False
            self.show_zones.layout.display = None if features else "none"
            self._connect_game()
            self.game_box.children = rows
            self._edits_signature = None  # the edits' words are the new map's (its places)
        finally:
            self._quiet = False
        for row in old_rows:
            _close_all(row)

    def offer_sectors(self, sectors: Sequence[str]) -> None:
        """Offer these sectors in "Go to:" (a new map's: its sheets may differ)."""
        self.sector.options = ["", FRONT_VIEW, *sectors]

    def seen_by(self, phasing_side: str) -> str:
        """Return the side the map is seen from ("allied" or "german"), or "" for both sides."""
        choice = self.view.value
        if choice == "phasing side":
            return phasing_side
        return "" if choice == "both sides" else str(choice)

    def show_banner(self, message: str) -> None:
        """Write the banner: what the last action did or why it was refused (nothing when "")."""
        self.status.value = (
            f"<div style='background:#fff8dc;border-left:4px solid #e0a800;padding:4px 8px'>"
            f"{html.escape(message)}</div>"
            if message
            else ""
        )

    def bump(self) -> None:
        """Count one more update (last of every update: the browser can tell it is all sent).

        Counted once the map's held patch is sent (views/mapwidget.py), so the count never reaches the
        page before the map's new picture.
        """
        # Imported here: the map widget's module loads jupyter_bokeh, which building controls never needs.
        from normandy_lab.views.mapwidget import after_the_patch

        after_the_patch(lambda: setattr(self.refresh_count, "value", str(int(self.refresh_count.value) + 1)))

    def show_edits(self, edits: Sequence[dict[str, Any]]) -> None:
        """List the study's edits (phase steps excepted), each with a ✕ that calls ``remove_edit``.

        The list changes by what changed (issue 33, section 4): each widget is a model the page builds
        and lays out, so a row whose edit is listed at the same index keeps its widgets (its words are
        set again only when they differ), an added edit adds one row, an undone one closes one, and the
        heading's text is set rather than the heading made anew.
        """
        import ipywidgets as w

        listed = [(k, e) for k, e in enumerate(edits) if e.get("op") != "next_phase"]
        signature = json.dumps(listed, sort_keys=True, default=str)
        if signature == self._edits_signature:
            return  # the same list: nothing to set
        self._edits_signature = signature
        if self._edits_heading is None:
            self._edits_heading = w.HTML()
            # One layout and one style for each kind of a row's widgets, shared by every row: a new row
            # is then three models in the page (its button, words and box), not eight.
            self._edit_looks = {
                "button": w.Layout(width="28px", min_width="28px", height="24px"),
                "button style": w.ButtonStyle(), "words": w.Layout(width="320px"),
                "words style": w.widget_string.HTMLStyle(), "row": w.Layout(),
            }  # fmt: skip
        looks = self._edit_looks
        rows = []
        for index, edit in listed:
            words = html.escape(wording.edit_words(self.system, edit))
            row = self._edit_rows.get(index)
            if row is None:
                remove = w.Button(
                    description="✕", tooltip="remove this edit", layout=looks["button"],
                    style=looks["button style"],
                )  # fmt: skip
                # The row stays the one of this index among every edit, whatever edit it lists later.
                remove.on_click(lambda _, k=index: self.callbacks.remove_edit(k))
                said = w.HTML(words, layout=looks["words"], style=looks["words style"])
                row = self._edit_rows[index] = w.HBox([remove, said], layout=looks["row"])
            else:
                row.children[1].value = words  # sends nothing when the words are the same
            rows.append(row)
        kept = {index for index, _ in listed}
        for index in sorted(self._edit_rows.keys() - kept):
            _close_all(self._edit_rows.pop(index))
        self._edits_heading.value = (
            f"<b>Edits of this study</b> ({len(rows)})" if rows else "<i>No edits yet.</i>"
        )
        children = (self._edits_heading, *rows)
        if self.edits_box.children != children:  # one message: the new row added or the old one gone
            self.edits_box.children = children


#: The attributes holding the game's own controls (:meth:`Controls.show_game` replaces them together).
GAME_PARTS = (
    "control_boxes", "control_groups", "apply_buttons", "single_controls", "single_widgets", "single_buttons",
)  # fmt: skip


def _close_all(widget: Any) -> None:
    """Close a widget and every widget inside it (each is a comm in the page)."""
    for child in getattr(widget, "children", ()):
        _close_all(child)
    widget.close()


def _scenario_names() -> list[str]:
    from normandy_lab.engine.scenario import SCENARIO_DIR

    return sorted(p.stem for p in SCENARIO_DIR.glob("*.yaml"))


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
