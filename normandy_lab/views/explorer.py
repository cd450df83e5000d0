"""The explorer: an ipywidgets application around a bokeh map of a situation.

``normandy_lab.explore(scenario_or_state_or_study)`` returns an
:class:`Explorer`; display ``explorer.app`` (or the explorer itself) in
JupyterLab.  Phases are stepped with Back / Step / Play and a slider over
the states so far; the map shows terrain, units (out-of-supply ones ringed
in orange), both sides' zones of control, the lines of supply, the supply
range of the selected HQ, and the analyst's interdictions.  Clicking a unit
shows its supply report; in an edit mode a click moves the selected unit,
interdicts a hex, or destroys or repairs the bridge between two clicked
hexes.  Undo and redo walk the edits; the study saves and reopens.

Views never compute rules: every number shown comes from the engine.
"""

from __future__ import annotations

import contextlib
import html
from pathlib import Path
from typing import Any

import numpy as np

from normandy_lab.engine import supply
from normandy_lab.engine.edits import apply_edit
from normandy_lab.engine.state import GameState
from normandy_lab.engine.study import Study, load_study, save_study
from normandy_lab.grid import grid
from normandy_lab.views import layers
from normandy_lab.views.basemap import basemap

ENEMY = {"allied": "german", "german": "allied"}
VIEWS = ("phasing side", "allied", "german", "both sides")
MODES = (
    "inspect",
    "move unit",
    "interdict hex",
    "destroy bridge",
    "repair bridge",
    "add unit",
    "remove unit",
)


def _default_extent(state: GameState) -> tuple[float, float, float, float]:
    g = grid(state.system)
    points = [g.center(u.hex) for u in state.units]
    lons = sorted(p[0] for p in points)
    lats = sorted(p[1] for p in points)
    # The middle 96 % of the units, with a margin: one far-off unit does not shrink the map.
    lo, hi = int(len(points) * 0.02), max(int(len(points) * 0.98) - 1, 0)
    return (lons[lo] - 0.08, lats[lo] - 0.05, lons[hi] + 0.08, lats[hi] + 0.05)


class Explorer:
    """The state of one explorer session: a study (scenario + edits), its map and its controls."""

    def __init__(
        self,
        source: Any,
        extent: tuple[float, float, float, float] | None = None,
        width: int = 900,
        height: int = 720,
    ) -> None:
        self._size = (width, height)
        self._set_source(source)
        state = self.state
        self.system = state.system
        self.fig = basemap(state.system, extent=extent or _default_extent(state), width=width, height=height)
        self._add_layers()
        self._build_widgets()
        self.refresh()
        # The map widget is made once its layers hold data: jupyter_bokeh sends the
        # document as it is at creation, and patches sent before a front end shows
        # the widget would be lost.
        self._mount_map()

    def _set_source(self, source: Any) -> None:
        # Everything that can fail (reading the scenario or study) happens before
        # anything shown is replaced.
        if isinstance(source, str | Path) and str(source).endswith(".json"):
            source = load_study(source)
        if isinstance(source, Study):
            self.study = source
        elif isinstance(source, GameState):
            self.study = None
            self._states = [source]
        else:
            self.study = Study(str(source))
        self.redo_stack: list[dict[str, Any]] = []
        self.selected_unit: str | None = None
        self.pending_hex: str | None = None
        self.position = len(self.states) - 1
        self.message = ""

    def open(self, source: Any) -> None:
        """Show another scenario (name or path), study (object or saved file) or state in this explorer.

        A saved study (``.json``) is loaded and replayed; a scenario on another
        game's map gets a new map.
        """
        self._set_source(source)
        if self.state.system != self.system:
            self.system = self.state.system
            width, height = self._size
            self.fig = basemap(self.system, extent=_default_extent(self.state), width=width, height=height)
            self._add_layers()
            self.refresh()
            self._mount_map()
        else:
            self.refresh()
        self.message = f"Opened {source if isinstance(source, str | Path) else self.state.scenario}"
        self._refresh_text()

    # -- states ------------------------------------------------------------

    @property
    def states(self) -> list[GameState]:
        """Every state so far (scenario, then one per edit or step)."""
        return self.study.states if self.study is not None else self._states

    @property
    def state(self) -> GameState:
        """The state shown."""
        return self.states[self.position]

    def apply(self, edit: dict[str, Any], from_redo: bool = False) -> bool:
        """Apply an edit (the form studies store, see :func:`normandy_lab.engine.edits.apply_edit`).

        The edit goes at the end of the history and the map is redrawn.  A
        refused edit changes nothing: the status line gives the engine's
        reason and False is returned.  A new edit empties the redo list;
        ``from_redo`` (used by :meth:`redo`) keeps the rest of it.
        """
        if self.position != len(self.states) - 1:
            self.message = "Go to the latest state (the slider's end) to edit."
            self._refresh_text()
            return False
        try:
            if self.study is not None:
                self.study.apply(edit)
            else:
                self._states.append(apply_edit(self.states[-1], edit))
        except Exception as exc:  # the engine's refusal, with its reason
            self.message = f"Refused: {exc}"
            self._refresh_text()
            return False
        if not from_redo:  # a new edit starts a new future; a redo walks the old one
            self.redo_stack.clear()
        self.position = len(self.states) - 1
        self.message = f"Done: {edit['op']}"
        self.refresh()
        return True

    def step(self) -> None:
        """Step to the next phase (a new state at the end of the history)."""
        if self.position < len(self.states) - 1:
            self.position += 1
            self.refresh()
        else:
            self.apply({"op": "next_phase"})

    def back(self) -> None:
        """Show the previous state."""
        if self.position > 0:
            self.position -= 1
            self.refresh()

    def undo(self) -> None:
        """Take back the last edit."""
        if len(self.states) <= 1:
            return
        if self.study is not None:
            self.redo_stack.append(self.study.edits[-1])
            self.study.undo()
        else:
            self._states.pop()
        self.position = len(self.states) - 1
        self.message = "Undone"
        self.refresh()

    def redo(self) -> None:
        """Apply again the last edit taken back."""
        if self.redo_stack:
            self.apply(self.redo_stack.pop(), from_redo=True)

    def viewing_side(self) -> str:
        """Return the side the map is seen from ("allied" or "german"), or "" for both sides."""
        choice = self.view.value
        if choice == "phasing side":
            return self.state.phasing_side
        return "" if choice == "both sides" else choice

    # -- map interaction ---------------------------------------------------

    def select_unit(self, unit_id: str | None) -> None:
        """Select a unit: show its supply report, its line and (for an HQ) its supply range."""
        self.selected_unit = unit_id
        if self.mode.value == "remove unit" and unit_id:
            self.apply({"op": "remove_unit", "unit": unit_id})
            return
        self.refresh()

    def click_hex(self, hex_id: str) -> None:
        """Act on a clicked hex according to the edit mode."""
        mode = self.mode.value
        g = grid(self.system)
        hex_id = g.canonical(hex_id)
        if mode == "move unit":
            if not self.selected_unit:
                self.message = "Select a unit first (switch to inspect and click it)."
                self._refresh_text()
                return
            self.apply({"op": "move", "unit": self.selected_unit, "to": hex_id})
        elif mode == "interdict hex":
            op = "clear_interdiction" if hex_id in self.state.interdicted_hexes else "interdict"
            self.apply({"op": op, "hex": hex_id})
        elif mode in ("destroy bridge", "repair bridge"):
            if self.pending_hex is None:
                self.pending_hex = hex_id
                self.message = f"{hex_id} chosen: now click the hex across the bridge."
                self._refresh_text()
                return
            first, self.pending_hex = self.pending_hex, None
            op = "destroy_bridge" if mode == "destroy bridge" else "repair_bridge"
            self.apply({"op": op, "hexside": [first, hex_id]})
        elif mode == "add unit":
            self.add_copy(hex_id)
        else:
            self.inspect_hex(hex_id)

    def add_copy(self, hex_id: str) -> bool:
        """Add a copy of the selected unit at a hex (a what-if reinforcement); False if refused."""
        if not self.selected_unit:
            self.message = "Select a unit to copy first (switch to inspect and click it)."
            self._refresh_text()
            return False
        template = self.state.unit(self.selected_unit)
        taken = {u.id for u in self.state.units}
        number = 1
        while f"{template.id}+{number}" in taken:
            number += 1
        record = {
            field: getattr(template, field)
            for field in ("name", "side", "nationality", "type", "mechanized", "size", "formation", "corps")
        }
        record.update(
            id=f"{template.id}+{number}",
            name=f"{template.name} (what-if copy {number})",
            hq=None,  # a copy is a combat unit: HQs come from the scenario
            hex=hex_id,
            steps=template.steps,
            ma=template.ma,
            attack=template.attack,
            defense=template.defense,
            note=f"what-if copy of {template.id}",
        )
        return self.apply({"op": "add_unit", "unit": record})

    def _hq_ranges(self) -> dict[str, set[str]]:
        """Return the supply range of every in-supply HQ of the state shown (computed once per state)."""
        key = id(self.report)
        if getattr(self, "_ranges_key", None) != key:
            self._ranges = {
                u.id: self.report.supply_range(u.id)
                for u in self.state.units
                if u.hq and u.status == "active" and self.report[u.id].general
            }
            self._ranges_key = key
        return self._ranges

    def inspect_hex(self, hex_id: str) -> None:
        """Show everything about a hex in the inspector."""
        from normandy_lab.terrain import terrain_map

        g = grid(self.system)
        state = self.state
        tmap = terrain_map(self.system, progress=False)
        row = tmap.hex(hex_id)
        units = [u for u in state.units if u.hex == hex_id]
        sides = tmap.hexsides[(tmap.hexsides["a"] == hex_id) | (tmap.hexsides["b"] == hex_id)]
        features = []
        for a, b, water, name, road, bridge in zip(
            sides["a"],
            sides["b"],
            sides["water_feature"],
            sides["water_name"],
            sides["road"],
            sides["road_bridge"],
            strict=True,
        ):
            other = b if a == hex_id else a
            bits = [
                f"{water} {name}".strip() if name else "",
                f"{road} road" if road != "none" else "",
                "bridge" if bridge else "",
            ]
            bits = [x for x in bits if x]
            if bits:
                features.append(f"{other}: {', '.join(bits)}")
        from normandy_lab.engine.zoc import hex_control, zoc_mask

        i = g.index(hex_id)
        zocs = [side for side in ("allied", "german") if zoc_mask(state, side)[i]]
        control = hex_control(state)[i] or "none"
        ranges = [hq for hq, reach in self._hq_ranges().items() if hex_id in reach]
        text = (
            f"<b>Hex {hex_id}</b> (sheet {g.sheet_of(hex_id)}): {row['terrain']} {row['settlement']}"
            f"<br>place: {html.escape(str(row['place']) or '-')}; control: {control}; "
            f"ZOC of: {', '.join(zocs) or 'none'}"
            f"<br>units: {', '.join(u.id for u in units) or 'none'}"
            f"<br>within the supply range of: {', '.join(ranges) or 'no HQ'} (7.3.1)"
            f"<br>hexsides: {html.escape('; '.join(features) or 'nothing')}"
        )
        if self.selected_unit and any(u.id == self.selected_unit for u in units):
            # The click was on the selected unit: its report first, then its hex.
            text = self.unit_report_html(self.selected_unit) + "<hr>" + text
        self.inspector.value = text

    # -- layers ---------------------------------------------------------------

    def _add_layers(self) -> None:
        from bokeh.events import Tap
        from bokeh.models import HoverTool

        self.sources = add_state_layers(self.fig)
        # The terrain hexes' hover also tells control, EZOC and HQ ranges; those
        # columns are patched cell by cell as the situation changes.
        self.hex_source = self.fig.select_one({"name": "hexes"})
        if self.hex_source is not None:
            count = len(self.hex_source.data["hex_id"])
            self.hex_source.data.update({name: [""] * count for name in layers.SITUATION_COLUMNS})
            for tool in self.fig.select({"type": HoverTool}):
                if self.hex_source in {r.data_source for r in tool.renderers}:
                    tool.tooltips = [
                        *tool.tooltips,
                        ("control", "@control"),
                        ("EZOC", "@ezoc"),
                        ("HQ ranges", "@hq_ranges"),
                    ]
        # Clicks arrive as Tap events with map coordinates, once per click.  (Selection
        # changes would do too, but jupyter_bokeh runs on_change callbacks twice for
        # changes made in the browser, and a second click on the same hex would be
        # no change at all.)
        self.fig.on_event(Tap, self._on_tap)

    def unit_at(self, x: float, y: float) -> str | None:
        """Return the unit whose counter is drawn nearest a map point (Web Mercator), if within reach."""
        data = self.sources["units"].data
        if not data.get("x"):
            return None
        dx = np.asarray(data["x"]) - x
        dy = np.asarray(data["y"]) - y
        nearest = int(np.argmin(dx * dx + dy * dy))
        # Within about a third of a hex of the counter's centre (Mercator m are ~1.5 ground m here).
        reach = grid(self.system).georeference.hex_size_m * 1.5 * 0.35
        return data["unit_id"][nearest] if np.hypot(dx[nearest], dy[nearest]) <= reach else None

    def hex_at(self, x: float, y: float) -> str | None:
        """Return the hex under a map point (Web Mercator), or None off the map."""
        from normandy_lab.views.mapview import from_mercator

        lon, lat = from_mercator(x, y)
        return grid(self.system).locate(float(lon), float(lat))

    def tap(self, x: float, y: float) -> None:
        """Act on a click at a map point (Web Mercator), as the mode says: what a click on the map does."""
        mode = self.mode.value
        unit_id = self.unit_at(x, y) if mode in ("inspect", "remove unit") else None
        if unit_id is not None:
            self.select_unit(unit_id)
            return
        hex_id = self.hex_at(x, y)
        if hex_id is None:
            self.message = "That point is off the game map."
            self._refresh_text()
        elif mode != "remove unit":
            self.click_hex(hex_id)

    def _on_tap(self, event: Any) -> None:
        self.tap(event.x, event.y)

    def refresh(self) -> None:
        """Recompute the engine's reports for the shown state and replace whole layer columns."""
        state = self.state
        self.report = supply(state)
        chosen = None if self.show_all_paths.value else [self.selected_unit] if self.selected_unit else []
        owner = None
        if self.selected_unit and any(u.id == self.selected_unit and u.hq for u in state.units):
            owner = self.selected_unit if self.report[self.selected_unit].general else None
        viewer = self.viewing_side()
        # Seen from one side, the zones that matter are the enemy's (EZOC, 5.4), and
        # "all lines of supply" means that side's lines.
        zoc_sides = ("allied", "german") if viewer == "" else (ENEMY[viewer],)
        fresh = {
            "units": layers.unit_data(state, self.report),
            "ezoc": layers.ezoc_data(state, zoc_sides),
            "paths": layers.path_data(
                state, self.report, chosen, side=(viewer or None) if chosen is None else None
            ),
            "range": (
                layers.range_data(state, self.report, owner)
                if owner or not self.show_sources.value
                else layers.source_ranges_data(
                    state, self.report, (viewer,) if viewer else ("allied", "german")
                )
            ),
            "moves": layers.move_data(state, self.report, self.selected_unit),
            "interdiction": layers.interdiction_data(state),
            "regional": layers.regional_interdiction_data(state),
            "history": layers.history_front_data(state),
            "implied": layers.implied_front_data(state),
        }
        for name, data in fresh.items():
            # Whole columns at once, and only for layers that changed: a phase
            # step that moves nothing sends the browser almost nothing.
            if not layers.same_layer(self.sources[name].data, data):
                self.sources[name].data = data
        if self.hex_source is not None:
            # Only the hexes whose control, EZOC or HQ ranges changed travel to the browser.
            patches = layers.changed_cells(self.hex_source.data, layers.hex_situation(state, self.report))
            if patches:
                self.hex_source.patch(patches)
        # The controls follow the state shown (setting the state's own weather applies no edit).
        self.weather.value = state.weather
        for sheet, box in self.air.items():
            box.value = int(state.air_points.get(sheet, 0))
        for sheet, box in self.aa.items():
            box.value = int(state.aa_points.get(sheet, 0))
        self.slider.max = max(len(self.states) - 1, 0)
        if self.slider.value != self.position:
            self.slider.value = self.position
        self._refresh_text()

    def _refresh_text(self) -> None:
        state = self.state
        self.label.value = (
            f"<b>{html.escape(state.label)}</b> — {layers.supply_summary(state, self.report)} — "
            f"seen by: {self.viewing_side() or 'both sides'}"
            f"<br>{layers.RING_KEY_HTML}"
        )
        self.status.value = html.escape(self.message)
        if self.selected_unit and any(u.id == self.selected_unit for u in state.units):
            self.inspector.value = self.unit_report_html(self.selected_unit)

    def _combat_chain(self, unit: Any) -> str:
        """Describe the links of a unit's Combat Supply: its division HQ, and what that HQ traces to."""
        yes_no = {True: "yes", False: "no"}
        if unit.hq in ("corps", None) and not unit.formation:
            r = self.report[unit.id]
            return f"{unit.id} → {html.escape(r.traced_to or 'nothing')} (Combat Supply {yes_no[r.combat]})"
        hq = next(
            (u for u in self.state.units if u.hq in ("division", "kg") and u.formation == unit.formation),
            None,
        )
        if hq is None or hq.id == unit.id:
            r = self.report[unit.id]
            return f"{unit.id} → {html.escape(r.traced_to or 'nothing')} (Combat Supply {yes_no[r.combat]})"
        h = self.report[hq.id]
        return (
            f"{unit.id} → {hq.id} (HQ in Combat Supply: {yes_no[h.combat]}) → "
            f"{html.escape(h.traced_to or 'nothing')}"
        )

    def unit_report_html(self, unit_id: str) -> str:
        """Return the inspector's text for a unit: supply report, combat supply chain, strengths."""
        from normandy_lab.engine.movement import allowance
        from normandy_lab.engine.sequence import supplied_strength

        state = self.state
        unit = state.unit(unit_id)
        r = self.report[unit_id]
        shown_attack, defense = supplied_strength(state, unit, r.general)
        halved = " (halved, out of supply)" if not r.general else ""
        yes_no = {True: "yes", False: "no"}
        lines = [
            f"<b>{html.escape(unit.name)}</b> ({unit.id}), {unit.nationality} {unit.type} {unit.size}, "
            f"{unit.steps} steps, hex {unit.hex}",
            f"formation: {html.escape(unit.formation or 'corps troops')}; "
            f"corps: {html.escape(unit.corps or '-')}",
            f"General Supply: <b>{'yes' if r.general else 'NO'}</b>; Combat Supply: {yes_no[r.combat]}; "
            f"isolated: {yes_no[r.isolated]}",
            f"traced to: {html.escape(r.traced_to or '-')}; limit: {html.escape(r.limit)}; "
            + (f"length: {r.length_hexes:g} hexes, {r.length_mp:g} MP" if r.path else "no line found"),
            f"line: {' → '.join(r.path) if r.path else '-'}",
            f"Combat Supply chain (7.6.1): {self._combat_chain(unit)}",
        ]
        if not r.general:
            lines.append(f"<span style='color:#c0392b'>why: {html.escape(r.reason)}</span>")
            if r.blocking_hex:
                lines.append(f"blocked at {r.blocking_hex} by {', '.join(r.blocking_units) or 'the terrain'}")
        lines.append(
            f"strength: attack {shown_attack}{halved}, defense {defense}; "
            f"movement allowance now {allowance(state, unit, r.general):g}"
        )
        return "<br>".join(lines)

    # -- widgets ---------------------------------------------------------------

    def _build_widgets(self) -> None:
        import ipywidgets as w

        self.back_button = w.Button(description="◀ Back", layout=w.Layout(width="90px"))
        self.step_button = w.Button(
            description="Step ▶", layout=w.Layout(width="90px"), button_style="primary"
        )
        self.play = w.Play(value=0, min=0, max=200, step=1, interval=1500, description="Play")
        self.speed = w.FloatSlider(
            value=1.5, min=0.3, max=5.0, step=0.1, description="s / step", layout=w.Layout(width="260px")
        )
        self.speed.observe(
            lambda change: setattr(self.play, "interval", int(change["new"] * 1000)), names="value"
        )
        self.slider = w.IntSlider(
            value=0,
            min=0,
            max=0,
            description="State",
            continuous_update=False,
            layout=w.Layout(width="360px"),
        )
        self.label = w.HTML()
        self.status = w.HTML()
        self.inspector = w.HTML("Click a unit (inspect mode) to see its supply; click a hex for its terrain.")
        self.mode = w.ToggleButtons(
            options=MODES, value="inspect", description="Mode:", style={"button_width": "105px"}
        )
        self.show_all_paths = w.Checkbox(value=False, description="all lines of supply")
        self.view = w.Dropdown(options=VIEWS, value="phasing side", description="Seen by:")
        self.show_sources = w.Checkbox(value=False, description="supply ranges of the sources")
        from normandy_lab.rules import ruleset

        self.weather = w.Dropdown(
            options=list(ruleset(self.system).weather_effects),
            value=self.state.weather,
            description="Weather:",
        )
        sheets = sorted(grid(self.system).scheme.sheets)

        def point_boxes(points: Any, label: str) -> dict[str, Any]:
            # One box per map sheet (11.1.2: each map is a region).
            return {
                s: w.BoundedIntText(
                    value=int(points.get(s, 0)),
                    min=0,
                    max=999,
                    description=f"{label} {s}",
                    layout=w.Layout(width="130px"),
                )
                for s in sheets
            }

        self.air = point_boxes(self.state.air_points, "air")
        self.aa = point_boxes(self.state.aa_points, "AA")
        self.apply_air = w.Button(description="Apply air")
        self.undo_button = w.Button(description="Undo")
        self.redo_button = w.Button(description="Redo")
        self.save_path = w.Text(value="study.json", description="Study:")
        self.save_button = w.Button(description="Save study")
        self.export_button = w.Button(description="Export HTML")
        self.back_button.on_click(lambda _: self.back())
        self.step_button.on_click(lambda _: self.step())
        self.undo_button.on_click(lambda _: self.undo())
        self.redo_button.on_click(lambda _: self.redo())
        self.play.observe(
            lambda change: self.step() if change["new"] > change["old"] else None, names="value"
        )
        self.slider.observe(self._on_slider, names="value")
        self.show_all_paths.observe(lambda _: self.refresh(), names="value")
        self.view.observe(lambda _: self.refresh(), names="value")
        self.show_sources.observe(lambda _: self.refresh(), names="value")
        self.weather.observe(
            lambda change: (
                self.apply({"op": "weather", "weather": change["new"]})
                if change["new"] != self.state.weather
                else None
            ),
            names="value",
        )
        self.apply_air.on_click(
            lambda _: self.apply(
                {
                    "op": "air",
                    "allied": {s: x.value for s, x in self.air.items()},
                    "german_aa": {s: x.value for s, x in self.aa.items()},
                }
            )
        )
        self.save_button.on_click(lambda _: self.save(self.save_path.value))
        self.export_button.on_click(
            lambda _: self.export_html(Path(self.save_path.value).with_suffix(".html"))
        )
        from normandy_lab.engine.scenario import SCENARIO_DIR

        scenarios = sorted(p.stem for p in SCENARIO_DIR.glob("*.yaml"))
        self.picker = w.Combobox(
            options=scenarios,
            placeholder="scenario name, or a saved study .json",
            description="Open:",
            ensure_option=False,
            layout=w.Layout(width="420px"),
        )
        self.open_button = w.Button(description="Open")
        self.open_button.on_click(lambda _: self._open_from_picker())
        self.map_box = w.Box()
        self.app = w.VBox(
            [
                w.HBox([self.picker, self.open_button]),
                w.HBox([self.back_button, self.step_button, self.play, self.speed, self.slider]),
                self.label,
                w.HBox([self.mode]),
                w.HBox([self.view, self.show_all_paths, self.show_sources]),
                self.map_box,
                self.status,
                self.inspector,
                w.HBox([self.weather, self.undo_button, self.redo_button]),
                w.HBox([*self.air.values()]),
                w.HBox([*self.aa.values(), self.apply_air]),
                w.HBox([self.save_path, self.save_button, self.export_button]),
            ]
        )

    def _mount_map(self) -> None:
        from jupyter_bokeh.widgets import BokehModel

        self.map_widget = BokehModel(self.fig)
        self.map_box.children = [self.map_widget]

    def _open_from_picker(self) -> None:
        try:
            self.open(self.picker.value)
        except Exception as exc:  # a bad name or file: say so, keep what is shown
            self.message = f"Could not open {self.picker.value!r}: {exc}"
            self._refresh_text()

    def _on_slider(self, change: dict[str, Any]) -> None:
        if change["new"] != self.position and 0 <= change["new"] < len(self.states):
            self.position = change["new"]
            self.refresh()

    def _ipython_display_(self) -> None:  # pragma: no cover - needs a front end
        from IPython.display import display

        display(self.app)

    # -- saving and exports ----------------------------------------------------

    def save(self, path: str | Path) -> Path:
        """Save the study (scenario + edits) atomically."""
        if self.study is None:
            raise ValueError(
                "this explorer was opened on a bare state: open it on a scenario or a study to save"
            )
        saved = save_study(self.study, path)
        self.message = f"Saved {saved}"
        self._refresh_text()
        return saved

    def export_html(self, path: str | Path) -> Path:
        """Save the current map as a standalone HTML page (INLINE BokehJS, no kernel)."""
        from normandy_lab.views.export import save_html

        return save_html(self.fig, path, title=self.state.label)

    def export_png(self, path: str | Path) -> Path:
        """Save the current map as PNG, rendered by headless Chromium."""
        from normandy_lab.views.export import save_png

        return save_png(self.fig, path)

    def export_geopackage(self, path: str | Path) -> Path:
        """Write the current state's layers to a GeoPackage (units, lines of supply, ZOCs, interdiction)."""
        from normandy_lab.views.export import layers_to_geopackage

        return layers_to_geopackage(self.state, self.report, path)


def add_state_layers(fig: Any) -> dict[str, Any]:
    """Add the situation layers (ZOCs, supply range, interdiction, lines of supply, units) to a basemap.

    Returns the (empty) ``ColumnDataSource`` of each layer by name; callers
    fill them with whole columns from :mod:`normandy_lab.views.layers`.
    Every layer has a legend entry, so a click on the legend hides it.
    """
    from bokeh.models import ColumnDataSource, HoverTool, LabelSet

    names = ("regional", "ezoc", "range", "moves", "interdiction", "history", "implied", "paths", "units")
    sources = {name: ColumnDataSource(name=name) for name in names}
    regional = fig.patches(
        "xs", "ys", source=sources["regional"], fill_color="#ff00ff", fill_alpha="alpha",
        line_color="#8b008b", line_width=3, line_dash="dashed", legend_label="air interdiction by map (11.2)",
    )  # fmt: skip
    fig.add_tools(HoverTool(renderers=[regional], tooltips=[("interdiction", "@text")]))
    moves = fig.patches(
        "xs", "ys", source=sources["moves"], fill_color="#2ca02c", fill_alpha=0.18, line_color="#1a7f1a",
        line_width=1.5, legend_label="movement range of the selected unit",
    )  # fmt: skip
    fig.add_tools(HoverTool(renderers=[moves], tooltips=[("hex", "@hex_id"), ("to enter", "@mp")]))
    ezoc = fig.patches(
        "xs", "ys", source=sources["ezoc"], fill_color="colour", fill_alpha=0.12, line_alpha=0.0,
        hatch_pattern="diagonal_cross", hatch_color="colour", hatch_alpha=0.3, hatch_scale=8,
        legend_label="zones of control (purple: both)",
    )  # fmt: skip
    fig.add_tools(HoverTool(renderers=[ezoc], tooltips=[("hex", "@hex_id"), ("in", "@zoc")]))
    fig.patches(
        "xs", "ys", source=sources["range"], fill_color="#ffd700", fill_alpha=0.25, line_color="#b8860b",
        line_alpha=0.5, legend_label="supply range (selected HQ, or the sources)",
    )  # fmt: skip
    fig.patches(
        "xs", "ys", source=sources["interdiction"], fill_color="#ff00ff", fill_alpha=0.35,
        line_color="#8b008b", line_width=2, legend_label="interdicted hexes (what-if)",
    )  # fmt: skip
    fronts = [
        fig.multi_line(
            "xs", "ys", source=sources["history"], line_color="#111111", line_width=3, line_dash="dashed",
            legend_label="historical front line (issue 6 record)",
        ),
        fig.multi_line(
            "xs", "ys", source=sources["implied"], line_color="#e67e22", line_width=2, line_alpha=0.9,
            legend_label="front implied by the units",
        ),
    ]  # fmt: skip
    fig.add_tools(HoverTool(renderers=fronts, tooltips=[("", "@label")]))
    fig.multi_line(
        "xs", "ys", source=sources["paths"], line_color="colour", line_width=2.5, line_alpha=0.8,
        legend_label="lines of supply",
    )  # fmt: skip
    # A unit is drawn as a counter: a side-coloured frame with its type inside, its
    # size (echelon) above and its attack-defense strength below (attack halved out
    # of supply, 7.5); the frame's ring is its supply state.
    units = fig.scatter(
        "x", "y", source=sources["units"], marker="square", size=24, fill_color="colour", line_color="line",
        line_width=3, legend_label="units (ring: supply, see above)",
    )  # fmt: skip
    for column, offset, size in (("glyph", 0, "6pt"), ("echelon", 17, "7pt"), ("strength", -17, "7pt")):
        fig.add_layout(
            LabelSet(
                x="x",
                y="y",
                text=column,
                source=sources["units"],
                text_font_size=size,
                y_offset=offset,
                text_color="white" if column == "glyph" else "#111111",
                text_align="center",
                text_baseline="middle",
                text_font_style="bold",
            )
        )
    fig.add_tools(
        HoverTool(
            renderers=[units],
            tooltips=[
                ("unit", "@unit_id (@glyph @echelon, @steps steps, attack-defense @strength)"),
                ("", "@name"),
                ("formation", "@formation"),
                ("stack", "@stack unit(s) in @hex_id"),
                ("supply", "@supply"),
                ("why", "@reason"),
            ],
        )
    )
    # The legend goes beside the map, where it hides nothing (a click on an entry hides that layer).
    legend = fig.legend[0]
    if legend in fig.center:
        fig.center.remove(legend)
    legend.location = "top_left"
    fig.add_layout(legend, "right")
    return sources


def explore(source: Any, **kwargs: Any) -> Explorer:
    """Open the explorer on a scenario (name or path), a :class:`GameState` or a :class:`Study` (or its file).

    Loads BokehJS from the installed package first (INLINE: nothing is
    fetched), then returns the :class:`Explorer`; display it (or
    ``explorer.app``) in a notebook cell.
    """
    from normandy_lab.views.mapview import show_inline

    # Outside a notebook there is nothing to load BokehJS into.
    with contextlib.suppress(Exception):
        show_inline()
    return Explorer(source, **kwargs)
