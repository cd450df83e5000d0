"""The explorer: an ipywidgets application around a bokeh map of a situation.

``normandy_lab.explore(scenario_or_state_or_study)`` returns an
:class:`Explorer`; display it in JupyterLab.  The map fills the cell's width
with a side panel beside it (no scrolling between a click and its answer):

* the **banner** says what the last edit or step changed, in words, and the
  units whose supply verdict changed are ringed on the map;
* the **report** gives the clicked unit's verdict in sentences (what it
  traces to, by name and place, how long against which limit, why not),
  the units of a clicked stack or formation, or everything about a hex;
* the **edits** of the study are listed, each with a button to remove it.

Phases are stepped with Back / Step / Play, "next movement phase" and "next
day"; the phase slider walks phases only (edits are listed, not slid over).
Zoomed out, each division or brigade is one symbol with the supply state of
its units as a bar; zoomed in, the battalion counters.  Views never compute
rules: every verdict shown comes from the engine.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from normandy_lab.engine.edits import apply_edit
from normandy_lab.engine.state import GameState
from normandy_lab.engine.study import Study
from normandy_lab.errors import NormandyLabError, RefusedError
from normandy_lab.grids import grid
from normandy_lab.session import Session
from normandy_lab.views import layers, wording
from normandy_lab.views.basemap import show_key
from normandy_lab.views.explorer._common import (
    ENEMY,
    FRONT_VIEW,
    MODES,
    VIEWS,
    _default_extent,
    _edit_ops,
    refuse_unknown,
    shown,
)
from normandy_lab.views.explorer.controls import Callbacks, Controls
from normandy_lab.views.explorer.drawing import Drawer
from normandy_lab.views.explorer.exports import Exporter, saved_words
from normandy_lab.views.explorer.figure import (
    HOVER_BACK_PX,
    MapFigure,
    fit_to_screen,
    quiet_hovers_after_a_click,
)
from normandy_lab.views.explorer.inspector import Inspector
from normandy_lab.views.explorer.interaction import (
    Action,
    MapPointer,
    check_formation,
    check_unit,
    copy_edit,
    formations,
    hex_action,
    hex_argument,
    sectors,
)
from normandy_lab.views.explorer.phases import PhaseController


def _session_field(name: str, doc: str) -> property:
    """Return a property reading and setting the explorer's session's ``name`` (the session holds it)."""

    def read(self: Explorer) -> Any:
        return getattr(self.session, name)

    def write(self: Explorer, value: Any) -> None:
        setattr(self.session, name, value)

    return property(read, write, doc=doc)


def _widget(part: str, name: str) -> property:
    """Return a property reading one of a part's widgets (``controls`` or ``phases``) under its own name."""

    def read(self: Explorer) -> Any:
        return getattr(getattr(self, part), name)

    return property(read, doc=f"The widget ``{part}.{name}``.")


class Explorer:
    """An explorer of one study (scenario + edits): its session, its map and the widgets round it.

    It is made of parts, each with its own narrow interface (issue 32, section 3): the
    :class:`~normandy_lab.session.Session` worked on (states, edits, undo/redo, selection; no widgets),
    the :class:`~normandy_lab.views.explorer.figure.MapFigure`, the
    :class:`~normandy_lab.views.explorer.interaction.MapPointer` that tells what a click is on, the
    :class:`~normandy_lab.views.explorer.phases.PhaseController` (Back/Step/Play/slider), the
    :class:`~normandy_lab.views.explorer.inspector.Inspector` (the side panel's words), the
    :class:`~normandy_lab.views.explorer.controls.Controls` (the other widgets), the
    :class:`~normandy_lab.views.explorer.exports.Exporter` (save and exports) and the
    :class:`~normandy_lab.views.explorer.drawing.Drawer` (one redraw of them all).  The explorer's own
    methods check their arguments, ask a part, and have the drawer draw what changed.
    """

    def __init__(
        self,
        source: Any,
        extent: tuple[float, float, float, float] | None = None,
        width: int | None = None,
        height: int | None = None,
    ) -> None:
        self._size = (width, height)
        self.session = Session(source, "explore")
        state = self.state
        self.system, self.game = state.system, state.game
        self._show_figure(MapFigure(state, extent, width, height))
        # Back / Step / Play and the slider move the session; the drawer draws what they leave.
        self.phases = PhaseController(self.session, self._drawn)
        # The side panel's words about a clicked unit, formation or hex come from the report alone.
        self.panel = Inspector(state, self.report)
        self.controls = Controls(
            state, self.sectors(), self._callbacks(), phases=self.phases, panel=self.panel.output,
            height=height,
        )  # fmt: skip
        self.drawer = Drawer(self.figure, self.controls, self.phases, self.panel)
        self.refresh()
        # The map widget is made once its layers hold data: jupyter_bokeh sends the
        # document as it is at creation, and patches sent before a front end shows
        # the widget would be lost.
        self._mount_map()

    def _callbacks(self) -> Callbacks:
        """Return what the controls call: the explorer's own actions (each draws what it changed)."""
        return Callbacks(
            apply=self.apply, undo=self.undo, redo=self.redo, redraw=self.refresh, go_to=self.go_to,
            save=self._save_from_box, export=self._export_from_box, open=self._open_from_picker,
            show_key=lambda shown: show_key(self.fig, shown),  # the key is built when first opened
            remove_edit=self._remove_from_button,
        )  # fmt: skip

    def _show_figure(self, figure: MapFigure) -> None:
        """Make ``figure`` the map shown, and point the parts at it and at the session."""
        self.figure = figure
        # The figure's parts under the names the explorer has always had.
        self.fig, self.layers, self.sources = figure.fig, figure.layers, figure.sources
        self.symbol_scale = figure.symbol_scale
        figure.on_tap(self._on_tap)
        self._follow()

    def _follow(self) -> None:
        """Point the parts at the session and the figure shown (both may be new after :meth:`open`)."""
        if hasattr(self, "phases"):  # the controller moves the session shown, the new one from now on
            self.phases.session = self.session
        if hasattr(self, "drawer"):
            self.drawer.figure = self.figure
        self.exporter = Exporter(self.session, self.figure)
        self.pointer = MapPointer(self.figure)

    def _mount_map(self) -> None:
        import ipywidgets as w

        from normandy_lab.views.mapwidget import MapWidget

        # The widget's height is the page's to set (the figure stretches to it) unless one was given.
        tall = "auto" if self._size[1] else MAP_HEIGHT_CSS
        self.map_widget = MapWidget(self.fig, layout=w.Layout(width="100%", height=tall))
        self.show_key.value = False
        self.map_box.children = [self.map_widget]
        self._map_changed = False
        self.fig.document.on_change(self._note_map_change)

    def _note_map_change(self, event: Any) -> None:
        """Remember that the figure changed after its widget was made (see ``_ipython_display_``)."""
        self._map_changed = True

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

    def open(self, source: Any) -> None:
        """Show another scenario (name or path), study (object or saved file) or state in this explorer.

        A saved study (``.json``) is loaded and replayed.  A scenario of another
        game (or on another map) gets that game's map, key, weathers, sectors and
        control rows, in the application already shown.

        Raises
        ------
        ScenarioError
            For a source that is none of these (``None``, a number) or a scenario that is not there;
            :class:`~normandy_lab.engine.study.StudyError` for a study file that cannot be read.
            What is shown stays as it was.
        """
        # Everything that can fail (reading the scenario or study, building another game's map and
        # controls) is done before anything shown is replaced.
        session = Session(source, "open")
        state = session.state
        other_game = (state.system, state.game) != (self.system, self.game)
        # Another game (or its map) gets a map of its own: the layers are the map's, the key the game's.
        figure = MapFigure(state, None, *self._size) if other_game else None
        offered = sectors(state)
        if other_game:  # its weathers, sectors, view choices and own control rows, in the app shown
            self.controls.show_game(state, offered)
        self.session = session
        if figure is not None:
            self.system, self.game = state.system, state.game
            self._show_figure(figure)
            self.refresh()
            old = self.map_widget
            self._mount_map()
            _close_map_widget(old)
        else:
            self._follow()
            self.controls.offer_sectors(offered)  # the same game on other sheets may show others
            self.go_to(FRONT_VIEW)
            self.refresh()
        self.panel.clear()
        self._say(f"Opened {source if isinstance(source, str | Path) else self.state.scenario}")

    def _open_from_picker(self) -> None:
        try:
            self.open(self.picker.value)
        except (NormandyLabError, OSError) as exc:  # a bad name or file: say so, keep what is shown
            self._say(f"Could not open {self.picker.value!r}: {exc}")

    # -- the widgets: the controls' and the phase controller's, under the names they have always had -------

    label = _widget("controls", "label")
    status = _widget("controls", "status")
    inspector = _widget("controls", "inspector")
    edits_box = _widget("controls", "edits_box")
    mode = _widget("controls", "mode")
    view = _widget("controls", "view")
    weather = _widget("controls", "weather")
    sector = _widget("controls", "sector")
    show_all_paths = _widget("controls", "show_all_paths")
    show_sources = _widget("controls", "show_sources")
    show_zones = _widget("controls", "show_zones")
    show_key = _widget("controls", "show_key")
    control_boxes = _widget("controls", "control_boxes")
    control_groups = _widget("controls", "control_groups")
    apply_buttons = _widget("controls", "apply_buttons")
    single_controls = _widget("controls", "single_controls")
    single_widgets = _widget("controls", "single_widgets")
    single_buttons = _widget("controls", "single_buttons")
    undo_button = _widget("controls", "undo_button")
    redo_button = _widget("controls", "redo_button")
    save_path = _widget("controls", "save_path")
    save_button = _widget("controls", "save_button")
    export_button = _widget("controls", "export_button")
    picker = _widget("controls", "picker")
    open_button = _widget("controls", "open_button")
    map_box = _widget("controls", "map_box")
    refresh_count = _widget("controls", "refresh_count")
    app = _widget("controls", "app")
    back_button = _widget("phases", "back_button")
    step_button = _widget("phases", "step_button")
    movement_button = _widget("phases", "movement_button")
    day_button = _widget("phases", "day_button")
    play = _widget("phases", "play")
    speed = _widget("phases", "speed")
    slider = _widget("phases", "slider")

    # -- what the session holds, read and set through the explorer -----------------------------------------

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

    # -- drawing: the drawer draws the session on the parts -------------------------------------------------

    def refresh(self) -> None:
        """Recompute the engine's reports for the shown state and send what changed to the map."""
        with self._one_patch():
            self.drawer.draw(self.session)

    def _drawn(self, changed: bool) -> bool:
        """Draw what a session action left: the map when it changed something, always the banner."""
        with self._one_patch():
            return self.drawer.drawn(self.session, changed)

    def _one_patch(self) -> contextlib.AbstractContextManager[None]:
        """Hold the map's changes of one action and send them to the page together (views/mapwidget.py)."""
        widget = getattr(self, "map_widget", None)  # none yet while the first picture is drawn
        return widget.one_patch() if widget is not None else contextlib.nullcontext()

    def _refresh_text(self) -> None:
        self.drawer.write(self.session)

    def _bump(self) -> None:
        self.controls.bump()

    def _say(self, words: str) -> None:
        self.message = words
        self._refresh_text()

    def viewing_side(self) -> str:
        """Return the side the map is seen from ("allied" or "german"), or "" for both sides."""
        return self.controls.seen_by(self.state.phasing_side)

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

    def formation_report_html(self, key: str) -> str:
        """Return the side panel's list of a formation's units and their supply (a click on its symbol).

        Raises
        ------
        UnknownNameError
            For a key that is not one of :meth:`formations`, with the nearest.
        """
        self._check_formation("formation_report_html", key)
        return self._inspect().formation_html(key)

    def _laid_out(self, formations: dict[str, list[Any]]) -> dict[str, list[Any]]:
        """Group or move apart the symbols that would overlap at the default zoom (views.declutter)."""
        return self.figure.laid_out(formations)

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

    # -- phases and edits: the session acts, the drawer draws ---------------------------------------------

    def phase_ends(self) -> list[int]:
        """Return, for each phase reached so far, the position of its last state (after its edits).

        The phase slider walks these: edits are listed beside the map, not slid over.
        """
        return self.session.phase_ends()

    def phase_number(self) -> int:
        """Return the index of the phase shown among :meth:`phase_ends`."""
        return self.session.phase_number()

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
            self._say(f"Cannot remove that edit: {exc}")

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

    # -- the map: what a click is on (the pointer), and what it does ----------------------------------------

    def zoomed_in(self) -> bool:
        """Tell whether the map shows counters (zoomed in) rather than formation symbols."""
        return self.pointer.zoomed_in()

    def sectors(self) -> tuple[str, ...]:
        """Return the named sectors this map shows (:func:`normandy_lab.views.sectors.sectors_on`)."""
        return sectors(self.state)

    def go_to(self, sector: str) -> None:
        """Show a named sector this map shows (:meth:`sectors`) or the scenario's front.

        Raises
        ------
        UnknownNameError
            For anything but a sector's name or :data:`FRONT_VIEW`, with the nearest sectors.
        """
        self.pointer.frame_sector(self.state, sector)

    def _set_view(self, x0: float, x1: float, y0: float, y1: float) -> None:
        self.pointer.frame(x0, x1, y0, y1)

    def select_unit(self, unit_id: str | None) -> None:
        """Select a unit: show its report (and its stack), its line, its blocking hex and movement range.

        ``None`` selects none.  In the "remove unit" mode the unit is removed instead (an edit).

        Raises
        ------
        UnknownNameError
            For an id that is no unit of the state shown, with the nearest ids; nothing changes.
        """
        if unit_id is not None:
            self._check_unit("select_unit", unit_id)
        self.selected_unit = unit_id
        self.selected_formation = None
        if self.mode.value == "remove unit" and unit_id:
            self.apply({"op": "remove_unit", "unit": unit_id})
            return
        self.refresh()

    def _check_unit(self, function: str, unit_id: object) -> None:
        check_unit(self.state, function, unit_id)

    def formations(self) -> list[str]:
        """Return the formations of the state shown (the keys of the zoomed-out symbols), sorted."""
        return formations(self.state)

    def _check_formation(self, function: str, key: object) -> None:
        check_formation(self.state, function, key)

    def select_formation(self, key: str) -> None:
        """List a formation's units in the side panel and zoom the map to them (the zoomed-out click).

        Raises
        ------
        UnknownNameError
            For a key that is not one of :meth:`formations`, with the nearest; nothing changes.
        """
        self._check_formation("select_formation", key)
        self.selected_formation = key
        self.selected_unit = None
        self.pointer.frame_units(self.state, layers.formation_units(self.state, key))
        self.refresh()

    def _hex_argument(self, function: str, hex_id: object) -> str:
        return hex_argument(self.state, function, hex_id)

    def click_hex(self, hex_id: str) -> None:
        """Act on a clicked hex according to the edit mode.

        Raises
        ------
        HexIdError
            For anything but the id of a hex of the map (a ``RefusedError``); nothing changes.
        """
        hex_id = self._hex_argument("click_hex", hex_id)
        action = hex_action(self.mode.value, hex_id, self.state, self.selected_unit, self.pending_hex)
        if action.kind == "edit" and self.pending_hex is not None:  # the second hex of a bridge's pair
            self.pending_hex = None
        self._act(action)

    def add_copy(self, hex_id: str) -> bool:
        """Add a copy of the selected unit at a hex (a what-if reinforcement); False if refused."""
        hex_id = self._hex_argument("add_copy", hex_id)
        if not self.selected_unit:
            self._say("Select a unit to copy first (switch to inspect and click it).")
            return False
        return self.apply(copy_edit(self.state, self.selected_unit, hex_id))

    def hex_report_html(self, hex_id: str) -> str:
        """Return everything about a hex, in words: terrain, place, control, zones, HQ ranges, hexsides.

        Raises
        ------
        HexIdError
            For anything but the id of a hex of the map (a ``RefusedError``).
        """
        hex_id = self._hex_argument("hex_report_html", hex_id)
        return self._inspect().hex_html(hex_id)

    def inspect_hex(self, hex_id: str) -> None:
        """Show everything about a hex in the side panel (and the selected unit's report if it is there).

        Raises
        ------
        HexIdError
            For anything but the id of a hex of the map (a ``RefusedError``); nothing changes.
        """
        hex_id = self._hex_argument("inspect_hex", hex_id)
        self._inspect().show_hex(hex_id, self.selected_unit)
        self._bump()

    def unit_at(self, x: float, y: float) -> str | None:
        """Return the unit whose counter is drawn nearest a map point (Web Mercator), if within reach."""
        return self.pointer.unit_at(x, y)

    def formation_at(self, x: float, y: float) -> str | None:
        """Return the formation whose symbol (zoomed out) is drawn at a map point, if any."""
        return self.pointer.formation_at(x, y)

    def bridge_at(self, x: float, y: float) -> tuple[str, str] | None:
        """Return the bridge (its two hexes) drawn nearest a map point, if within a quarter hex."""
        return self.pointer.bridge_at(x, y)

    def hex_at(self, x: float, y: float) -> str | None:
        """Return the hex under a map point (Web Mercator), or None off the map."""
        return self.pointer.hex_at(x, y)

    def tap(self, x: float, y: float) -> None:
        """Act on a click at a map point (Web Mercator), as the mode says: what a click on the map does.

        Raises
        ------
        RefusedError
            When ``x`` or ``y`` is not a finite number; nothing changes.
        """
        self._act(self.pointer.tap_action(x, y, self.mode.value, self.pending_hex))

    def _on_tap(self, event: Any) -> None:
        with self._one_patch():  # a click's framing and redraw reach the page as one patch
            self.tap(event.x, event.y)

    def _act(self, action: Action) -> None:
        """Carry out what a click does (:class:`~normandy_lab.views.explorer.interaction.Action`)."""
        kind, value = action.kind, action.value
        if kind == "select unit":
            self.select_unit(value)
        elif kind == "select formation":
            self.select_formation(value)
        elif kind == "edit":
            self.apply(value)
        elif kind == "hex":
            self.click_hex(value)
        elif kind == "copy":
            self.add_copy(value)
        elif kind == "inspect":
            self.inspect_hex(value)
        elif kind == "pending":
            self.pending_hex = value
        if action.words:
            self._say(action.words)

    # -- saving and exports: the Exporter writes, the explorer says so in the banner -------------------------

    def _save_from_box(self) -> None:
        self._say(self.exporter.save_from_box(self.save_path.value))

    def _export_from_box(self) -> None:
        self._say(self.exporter.export_from_box(self.save_path.value))

    def save(self, path: str | Path) -> Path:
        """Save the study (scenario + edits) atomically.

        Raises
        ------
        PathRefusedError
            For a path no file can be written at (no name, a folder, a name too long); nothing is written.
        ExportRefusedError
            For a file there that is not a study (:func:`normandy_lab.engine.study.save_study`).
        RefusedError
            For an explorer opened on a bare state (it has no study to save).
        """
        saved = self.exporter.save(path)
        self._say(saved_words(saved))
        return saved

    def title_block_html(self) -> str:
        """Return the exported page's title block: date, phase, weather, supply counts, ring key, edits."""
        return self.exporter.title_block_html()

    def export_html(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Save the current map as a standalone HTML page with a title block (INLINE BokehJS, no kernel).

        The title block gives the date, phase, weather, supply counts, the ring
        key and the study's edits.  A file at ``path`` is replaced only if it is
        a page exported before, or ``overwrite=True``
        (:func:`normandy_lab.views.save_html`).

        Raises
        ------
        PathRefusedError
            For a path no file can be written at (no name, a folder, a name too long), before any work.
        ExportRefusedError
            For a file there that the export did not write.
        """
        return self.exporter.export_html(path, overwrite=overwrite)

    def export_png(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Save the current map as PNG, rendered by headless Chromium (replacing only an earlier picture)."""
        return self.exporter.export_png(path, overwrite=overwrite)

    def export_geopackage(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Write the current state's layers to a GeoPackage (units, lines of supply, ZOCs, interdiction).

        A file at ``path`` is replaced only if it is a GeoPackage exported
        before, or ``overwrite=True``.
        """
        return self.exporter.export_geopackage(path, overwrite=overwrite)


def _close_map_widget(widget: Any) -> None:
    """Close a map's widget that left the page, so the kernel lets go of its figure (another game's map).

    Only the widget's own comm is closed here: jupyter_bokeh's ``close`` also unhooks the widget from its
    document, and runs again when the widget is collected, where a second unhooking raises.
    """
    import ipywidgets as w

    w.Widget.close(widget)


#: The map's height when none is given: the browser window's, less the rows of controls above it, so that on
#: a 1366x768 laptop and a 1920x1080 projector the map takes over 60 % of the screen's height (ux-2 found
#: 365 px of 768) and the Step row and the map can be seen together.
MAP_HEIGHT_CSS = "max(380px, calc(100vh - 230px))"


def explore(source: Any, **kwargs: Any) -> Explorer:
    """Open the explorer on a scenario (name or path), a :class:`GameState` or a :class:`Study` (or its file).

    Loads BokehJS from the installed package first (INLINE: nothing is
    fetched), then returns the :class:`Explorer`; display it (or
    ``explorer.app``) in a notebook cell.

    Raises
    ------
    ScenarioError
        For a source that is none of these (``None``, a number), or a scenario that is not there
        (:class:`~normandy_lab.engine.scenario.ScenarioNotFoundError`, with the nearest names).
    """
    from normandy_lab.views.mapview import collection_after_the_cell, show_inline

    # Outside a notebook there is nothing to load BokehJS into.
    with contextlib.suppress(Exception):
        show_inline()
    with collection_after_the_cell():  # no full collection of the heap in the middle of an opening
        return Explorer(source, **kwargs)


__all__ = [
    "ENEMY", "FRONT_VIEW", "HOVER_BACK_PX", "MAP_HEIGHT_CSS", "MODES", "VIEWS", "Explorer", "MapFigure",
    "_default_extent", "_edit_ops", "explore", "fit_to_screen", "quiet_hovers_after_a_click",
]  # fmt: skip
