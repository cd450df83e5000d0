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
import html
from pathlib import Path
from typing import Any

import numpy as np
from bokeh.core.property.descriptors import UnsetValueError

from normandy_lab.engine import supply
from normandy_lab.engine.edits import apply_edit
from normandy_lab.engine.state import GameState
from normandy_lab.engine.study import Study, load_study, save_study
from normandy_lab.engine.whatif import supply_summary
from normandy_lab.errors import NormandyLabError
from normandy_lab.grid import grid
from normandy_lab.views import layers, wording
from normandy_lab.views.basemap import basemap
from normandy_lab.views.sectors import SECTORS
from normandy_lab.views.situation import COUNTER_ZOOM_HEXES, add_state_layers

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
FRONT_VIEW = "the scenario's front"


def _default_extent(state: GameState) -> tuple[float, float, float, float]:
    g = grid(state.system)
    points = [g.center(u.hex) for u in state.units]
    lons = sorted(p[0] for p in points)
    lats = sorted(p[1] for p in points)
    # The middle 96 % of the units, with a margin: one far-off unit does not shrink the map.
    lo, hi = int(len(points) * 0.02), max(int(len(points) * 0.98) - 1, 0)
    return (lons[lo] - 0.08, lats[lo] - 0.05, lons[hi] + 0.08, lats[hi] + 0.05)


def _edit_ops(explorer: Explorer) -> list[dict[str, Any]]:
    return explorer.study.edits if explorer.study is not None else explorer._edits


class Explorer:
    """The state of one explorer session: a study (scenario + edits), its map and its controls."""

    def __init__(
        self,
        source: Any,
        extent: tuple[float, float, float, float] | None = None,
        width: int | None = None,
        height: int = 640,
    ) -> None:
        self._size = (width, height)
        self.changed_units: list[str] = []
        self._set_source(source)
        state = self.state
        self.system = state.system
        self._build_figure(extent)
        self._build_widgets()
        self.refresh()
        # The map widget is made once its layers hold data: jupyter_bokeh sends the
        # document as it is at creation, and patches sent before a front end shows
        # the widget would be lost.
        self._mount_map()

    def _build_figure(self, extent: tuple[float, float, float, float] | None) -> None:
        from bokeh.events import Tap

        width, height = self._size
        self.fig = basemap(
            self.system, extent=extent or _default_extent(self.state), width=width or 900, height=height
        )
        if width is None:  # fill the cell's width beside the side panel
            self.fig.sizing_mode = "stretch_width"
            self.fig.min_width = 480
        self.layers = add_state_layers(self.fig, self.system)
        self.sources = self.layers.sources
        self.layers.set_features("bridges", layers.bridge_data(self.system))
        # Clicks arrive as Tap events with map coordinates, once per click.  (Selection
        # changes would do too, but jupyter_bokeh runs on_change callbacks twice for
        # changes made in the browser, and a second click on the same hex would be
        # no change at all.)
        self.fig.on_event(Tap, self._on_tap)

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
        self._edits: list[dict[str, Any]] = []
        self.redo_stack: list[dict[str, Any]] = []
        self.selected_unit: str | None = None
        self.selected_formation: str | None = None
        self.pending_hex: str | None = None
        self.position = len(self.states) - 1
        self.message = ""
        self.changed_units = []

    def open(self, source: Any) -> None:
        """Show another scenario (name or path), study (object or saved file) or state in this explorer.

        A saved study (``.json``) is loaded and replayed; a scenario on another
        game's map gets a new map.
        """
        self._set_source(source)
        if self.state.system != self.system:
            self.system = self.state.system
            self._build_figure(None)
            self.refresh()
            self._mount_map()
        else:
            self.go_to(FRONT_VIEW)
            self.refresh()
        self.inspector.value = "Click a unit or a hex on the map."
        self.message = f"Opened {source if isinstance(source, str | Path) else self.state.scenario}"
        self._refresh_text()

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
        """Step until ``done(state)`` holds (at most ``limit`` phases), one redraw at the end."""
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

    def remove_edit(self, index: int) -> bool:
        """Remove one edit from the study's list and replay the others; False (and why) if refused.

        The edits after it are replayed on the new history; if one of them no
        longer applies (a move that needed the removed one), nothing changes.
        """
        edits = list(_edit_ops(self))
        if not 0 <= index < len(edits):
            return False
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
        """
        from normandy_lab.views.compare import compare

        if isinstance(other, dict):
            words = wording.edit_words(self.system, other)
            other = apply_edit(self.state, other)
            titles = titles or ("as it is", f"if: {words}")
        return compare(self.state, other, titles=titles or ("shown", "other"))

    def layer_hexes(self, name: str) -> list[str]:
        """Return the hex ids a hex layer shows (``zoc_allied``, ``zoc_german``, ``range``, ``moves``...)."""
        ids = grid(self.system).ids()
        return [ids[i] for i in self.layers.hexes(name)]

    def viewing_side(self) -> str:
        """Return the side the map is seen from ("allied" or "german"), or "" for both sides."""
        choice = self.view.value
        if choice == "phasing side":
            return self.state.phasing_side
        return "" if choice == "both sides" else choice

    # -- map interaction ---------------------------------------------------

    def zoomed_in(self) -> bool:
        """Tell whether the map shows counters (zoomed in) rather than formation symbols."""
        span = float(self.fig.x_range.end) - float(self.fig.x_range.start)
        return span / (grid(self.system).georeference.hex_size_m * 1.5) < COUNTER_ZOOM_HEXES

    def go_to(self, sector: str) -> None:
        """Show a named sector (:data:`normandy_lab.views.sectors.SECTORS`) or the scenario's front."""
        from normandy_lab.views.mapview import to_mercator

        west, south, east, north = _default_extent(self.state) if sector == FRONT_VIEW else SECTORS[sector]
        (x0, x1), (y0, y1) = to_mercator([west, east], [south, north])
        self._set_view(float(x0), float(x1), float(y0), float(y1))

    def _set_view(self, x0: float, x1: float, y0: float, y1: float) -> None:
        # Keep the map's shape: widen the shorter side round the centre.
        width, height = self.fig.width or 900, self.fig.height or 640
        aspect = height / width
        cx, cy, sx, sy = (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0
        if sy / sx > aspect:
            sx = sy / aspect
        else:
            sy = sx * aspect
        self.fig.x_range.update(start=cx - sx / 2, end=cx + sx / 2)
        self.fig.y_range.update(start=cy - sy / 2, end=cy + sy / 2)

    def select_unit(self, unit_id: str | None) -> None:
        """Select a unit: show its report (and its stack), its line, its blocking hex and movement range."""
        self.selected_unit = unit_id
        self.selected_formation = None
        if self.mode.value == "remove unit" and unit_id:
            self.apply({"op": "remove_unit", "unit": unit_id})
            return
        self.refresh()

    def select_formation(self, key: str) -> None:
        """List a formation's units in the side panel and zoom the map to them (the zoomed-out click)."""
        from normandy_lab.views.mapview import to_mercator

        self.selected_formation = key
        self.selected_unit = None
        ids = layers.formation_units(self.state, key)
        g = grid(self.system)
        lon, lat = np.array([g.center(self.state.unit(u).hex) for u in ids]).T
        x, y = to_mercator(lon, lat)
        margin = g.georeference.hex_size_m * 1.5 * 3
        self._set_view(x.min() - margin, x.max() + margin, y.min() - margin, y.max() + margin)
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
                self.message = (
                    f"{wording.place_of(self.system, hex_id)} chosen: now click the hex across the bridge."
                )
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

    def hex_report_html(self, hex_id: str) -> str:
        """Return everything about a hex, in words: terrain, place, control, zones, HQ ranges, hexsides."""
        from normandy_lab.engine.zoc import hex_control, zoc_mask
        from normandy_lab.terrain import terrain_map

        g = grid(self.system)
        state = self.state
        tmap = terrain_map(self.system, progress=False)
        row = tmap.hex(hex_id)
        units = [u for u in state.units if u.hex == hex_id and u.status == "active"]
        sides = tmap.hexsides[(tmap.hexsides["a"] == hex_id) | (tmap.hexsides["b"] == hex_id)]
        features = []
        for a, b, water, name, road, bridge in zip(
            sides["a"], sides["b"], sides["water_feature"], sides["water_name"], sides["road"],
            sides["road_bridge"], strict=True,
        ):  # fmt: skip
            other = b if a == hex_id else a
            bits = [
                f"{water} {name}".strip() if name else "",
                f"{road} road" if road != "none" else "",
                "bridge" + (" (destroyed)" if f"{min(a, b)}|{max(a, b)}" in state.destroyed_bridges else "")
                if bridge
                else "",
            ]
            bits = [x for x in bits if x]
            if bits:
                features.append(f"towards {other}: {', '.join(bits)}")
        i = g.index(hex_id)
        zocs = [side for side in ("allied", "german") if zoc_mask(state, side)[i]]
        control = hex_control(state)[i] or "nobody"
        ranges = [hq for hq, reach in self._hq_ranges().items() if hex_id in reach]
        settlement = f" with a {str(row['settlement']).lower()}" if row["settlement"] else ""
        unit_words = ", ".join(f"{html.escape(u.name)} ({html.escape(u.id)})" for u in units) or "none"
        lines = [
            f"<b>Hex {html.escape(wording.place_of(self.system, hex_id))}</b>, sheet {g.sheet_of(hex_id)}",
            f"Terrain: {html.escape(str(row['terrain']))}{html.escape(settlement)}.",
            f"Held by {control} ({wording.rule_ref(self.system, 'control')}); "
            f"in the zone of control of {' and '.join(zocs) or 'neither side'} "
            f"({wording.rule_ref(self.system, 'zoc')}).",
            f"Units here: {unit_words}.",
            f"Within the supply range of: {html.escape(', '.join(ranges) or 'no HQ')} "
            f"({wording.rule_ref(self.system, 'unit_supply_range')}).",
            f"Hexsides: {html.escape('; '.join(features) or 'nothing special')}.",
        ]
        if hex_id in state.interdicted_hexes:
            lines.append("<b>Interdicted</b> (what-if): no line of supply passes through it.")
        return "<br>".join(lines)

    def inspect_hex(self, hex_id: str) -> None:
        """Show everything about a hex in the side panel (and the selected unit's report if it is there)."""
        text = self.hex_report_html(hex_id)
        if self.selected_unit and any(
            u.id == self.selected_unit and u.hex == hex_id for u in self.state.units
        ):
            # The click was on the selected unit: its report first, then its hex.
            text = self.unit_report_html(self.selected_unit) + "<hr>" + text
        self.inspector.value = text
        self._bump()

    # -- picking what was clicked ---------------------------------------------

    def _reach(self, pixels: float) -> float:
        """Return how far (Mercator metres) ``pixels`` are on the map as it is shown now."""
        span = float(self.fig.x_range.end) - float(self.fig.x_range.start)
        try:  # the plot's drawn width, as the browser last reported it
            width = self.fig.inner_width or self.fig.width or 900
        except UnsetValueError:  # never drawn (no browser): the width asked for
            width = self.fig.width or 900
        return pixels * span / max(width, 1)

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

    def formation_at(self, x: float, y: float) -> str | None:
        """Return the formation whose symbol (zoomed out) is drawn at a map point, if any."""
        data = self.sources["formations"].data
        if not data.get("x"):
            return None
        d = np.hypot(np.asarray(data["x"]) - x, np.asarray(data["y"]) - y)
        nearest = int(np.argmin(d))
        return data["key"][nearest] if d[nearest] <= self._reach(18) else None

    def bridge_at(self, x: float, y: float) -> tuple[str, str] | None:
        """Return the bridge (its two hexes) drawn nearest a map point, if within a quarter hex."""
        data = self.sources["bridges"].data
        if not data.get("x"):
            return None
        d = np.hypot(np.asarray(data["x"]) - x, np.asarray(data["y"]) - y)
        nearest = int(np.argmin(d))
        if d[nearest] > grid(self.system).georeference.hex_size_m * 1.5 * 0.25:
            return None
        return data["a"][nearest], data["b"][nearest]

    def hex_at(self, x: float, y: float) -> str | None:
        """Return the hex under a map point (Web Mercator), or None off the map."""
        from normandy_lab.views.mapview import from_mercator

        lon, lat = from_mercator(x, y)
        return grid(self.system).locate(float(lon), float(lat))

    def tap(self, x: float, y: float) -> None:
        """Act on a click at a map point (Web Mercator), as the mode says: what a click on the map does."""
        mode = self.mode.value
        if mode in ("inspect", "remove unit"):
            if self.zoomed_in():
                unit_id = self.unit_at(x, y)
                if unit_id is not None:
                    self.select_unit(unit_id)
                    return
            else:
                key = self.formation_at(x, y)
                if key is not None and mode == "inspect":
                    self.select_formation(key)
                    return
        if mode in ("destroy bridge", "repair bridge") and self.pending_hex is None:
            bridge = self.bridge_at(x, y)
            if bridge is not None:  # a click on a bridge's mark acts on that bridge at once
                op = "destroy_bridge" if mode == "destroy bridge" else "repair_bridge"
                self.apply({"op": op, "hexside": list(bridge)})
                return
        hex_id = self.hex_at(x, y)
        if hex_id is None:
            self.message = "That point is off the game map."
            self._refresh_text()
        elif mode != "remove unit":
            self.click_hex(hex_id)

    def _on_tap(self, event: Any) -> None:
        self.tap(event.x, event.y)

    # -- drawing ------------------------------------------------------------------

    def refresh(self) -> None:
        """Recompute the engine's reports for the shown state and send what changed to the map."""
        state = self.state
        self.report = supply(state)
        report = self.report
        selected = self.selected_unit if any(u.id == self.selected_unit for u in state.units) else None
        chosen = None if self.show_all_paths.value else [selected] if selected else []
        owner = None
        if selected and state.unit(selected).hq:
            owner = selected if report[selected].general else None
        viewer = self.viewing_side()
        # Seen from one side, the zones that matter are the enemy's (EZOC, 5.4), and
        # "all lines of supply" means that side's lines.
        zoc_sides = ("allied", "german") if viewer == "" else (ENEMY[viewer],)
        units = layers.unit_data(state, report)
        move_indices, move_costs = layers.move_hexes(state, report, selected)
        g = grid(self.system)
        blocking = report[selected].blocking_hex if selected else ""
        hexes = {
            "zoc_allied": layers.zoc_hexes(state, "allied") if "allied" in zoc_sides else [],
            "zoc_german": layers.zoc_hexes(state, "german") if "german" in zoc_sides else [],
            "range": (
                layers.range_hexes(state, report, owner)
                if owner or not self.show_sources.value
                else layers.source_range_hexes(state, report, (viewer,) if viewer else ("allied", "german"))
            ),
            "moves": move_indices,
            "interdiction": layers.interdiction_hexes(state),
            "blocking": [g.index(blocking)] if blocking else [],
        }
        features = {
            "units": units,
            "formations": layers.formation_data(state, report),
            "paths": layers.path_data(
                state, report, chosen, side=(viewer or None) if chosen is None else None
            ),
            "move_costs": move_costs,
            "regional": layers.regional_interdiction_data(state),
            "history": layers.history_front_data(state),
            "implied": layers.implied_front_data(state),
            "broken_bridges": layers.broken_bridge_data(state),
            "selection": {
                key: values
                for key, values in layers.unit_positions(units, [selected] if selected else []).items()
                if key in ("x", "y")
            },
            "changed": layers.unit_positions(units, []),
        }
        for name, indices in hexes.items():
            self.layers.set_hexes(name, indices)
        for name, data in features.items():
            # Whole columns at once, and only for layers that changed: a phase
            # step that moves nothing sends the browser almost nothing.
            self.layers.set_features(name, data)
        # The controls follow the state shown (setting the state's own weather applies no edit).
        self._quiet = True
        try:
            self.weather.value = state.weather
            for key, boxes in self.control_boxes.items():
                for sheet, box in boxes.items():
                    box.value = int(state.markers.get(key, {}).get(sheet, 0))
            self.slider.max = max(len(self.phase_ends()) - 1, 0)
            self.slider.value = self.phase_number()
        finally:
            self._quiet = False
        if selected:
            self.inspector.value = self.unit_report_html(selected)
        elif self.selected_formation:
            self.inspector.value = self.formation_report_html(self.selected_formation)
        self._refresh_edits()
        self.changed_units = []
        self.message = ""
        self._refresh_text()

    def _refresh_text(self) -> None:
        state = self.state
        self.label.value = (
            f"<b>{html.escape(state.label)}</b> — {html.escape(layers.supply_summary(state, self.report))} — "
            f"seen by: {self.viewing_side() or 'both sides'}"
            f"<br><small class='nl-why-summary'>{html.escape(supply_summary(self.report))}</small>"
            f"<br>{wording.phase_line(state)}<br>{layers.RING_KEY_HTML}"
        )
        self.status.value = (
            f"<div style='background:#fff8dc;border-left:4px solid #e0a800;padding:4px 8px'>"
            f"{html.escape(self.message)}</div>"
            if self.message
            else ""
        )
        self._bump()

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
            remove.on_click(lambda _, k=index: self.remove_edit(k))
            words = w.HTML(html.escape(wording.edit_words(self.system, edit)), layout=w.Layout(width="320px"))
            rows.append(w.HBox([remove, words]))
        self.edits_box.children = [
            w.HTML(f"<b>Edits of this study</b> ({len(rows)})" if rows else "<i>No edits yet.</i>"),
            *rows,
        ]

    def unit_report_html(self, unit_id: str) -> str:
        """Return the side panel's text for a unit: verdict in sentences, chain, strengths, its stack."""
        from normandy_lab.engine.movement import allowance

        state = self.state
        unit = state.unit(unit_id)
        r = self.report[unit_id]
        shown_attack, defense = state.rules.unit_strength(state, unit, r.general)
        halved = " (halved, out of supply)" if not r.general else ""
        lines = [
            wording.unit_report(state, self.report, unit_id),
            f"Combat Supply chain ({wording.rule_ref(self.system, 'combat_supply_chain')}): "
            f"{self._combat_chain(unit)}",
            f"Line: {html.escape(' → '.join(r.path)) if r.path else 'none'}",
            f"Strength: attack {shown_attack}{halved}, defense {defense}; "
            f"movement allowance now {allowance(state, unit, r.general, r.isolated):g}",
        ]
        stack = [u for u in state.units if u.hex == unit.hex and u.status == "active" and u.id != unit_id]
        if stack:
            lines.append(
                "<b>Also in this hex:</b><br>"
                + "<br>".join(
                    f"&nbsp;&nbsp;{html.escape(u.name)} ({html.escape(u.id)}): "
                    f"{'in supply' if self.report[u.id].general else 'OUT OF SUPPLY'}"
                    for u in stack
                )
            )
        return "<br>".join(lines)

    def formation_report_html(self, key: str) -> str:
        """Return the side panel's list of a formation's units and their supply (a click on its symbol)."""
        ids = layers.formation_units(self.state, key)
        rows = []
        for uid in ids:
            u = self.state.unit(uid)
            r = self.report[uid]
            state_words = "in supply" if r.general else "<b style='color:#c0392b'>OUT OF SUPPLY</b>"
            rows.append(
                f"&nbsp;&nbsp;{html.escape(u.name)} ({html.escape(uid)}), "
                f"{html.escape(wording.place_of(self.system, u.hex))}: {state_words}"
            )
        out = sum(not self.report[u].general for u in ids)
        return (
            f"<b>{html.escape(key)}</b>: {len(ids)} units, {out} out of General Supply. "
            "Zoomed in on them; click a counter for its report.<br>" + "<br>".join(rows)
        )

    def _combat_chain(self, unit: Any) -> str:
        """Describe the links of a unit's Combat Supply: its division HQ, and what that HQ traces to."""
        yes_no = {True: "yes", False: "no"}
        if unit.hq in ("corps", None) and not unit.formation:
            r = self.report[unit.id]
            return (
                f"{html.escape(unit.id)} → {html.escape(r.traced_to or 'nothing')} "
                f"(Combat Supply {yes_no[r.combat]})"
            )
        hq = next(
            (u for u in self.state.units if u.hq in ("division", "kg") and u.formation == unit.formation),
            None,
        )
        if hq is None or hq.id == unit.id:
            r = self.report[unit.id]
            return (
                f"{html.escape(unit.id)} → {html.escape(r.traced_to or 'nothing')} "
                f"(Combat Supply {yes_no[r.combat]})"
            )
        h = self.report[hq.id]
        return (
            f"{html.escape(unit.id)} → {html.escape(hq.id)} (HQ in Combat Supply: {yes_no[h.combat]}) → "
            f"{html.escape(h.traced_to or 'nothing')}"
        )

    # -- widgets ---------------------------------------------------------------

    def _build_widgets(self) -> None:
        import ipywidgets as w

        from normandy_lab.engine.scenario import SCENARIO_DIR

        self._quiet = False
        small = w.Layout(width="auto")
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
        self.speed.observe(
            lambda change: setattr(self.play, "interval", int(change["new"] * 1000)), names="value"
        )
        self.slider = w.IntSlider(
            value=0,
            min=0,
            max=0,
            description="Phase",
            continuous_update=False,
            layout=w.Layout(width="300px"),
        )
        self.label = w.HTML()
        self.status = w.HTML()
        self.inspector = w.HTML("Click a unit or a hex on the map.")
        self.edits_box = w.VBox()
        self.mode = w.ToggleButtons(
            options=MODES, value="inspect", description="Click to:", style={"button_width": "auto"}
        )
        self.show_all_paths = w.Checkbox(value=False, description="all lines of supply", indent=False)
        self.view = w.Dropdown(options=VIEWS, value="phasing side", description="Seen by:", layout=small)
        self.show_sources = w.Checkbox(value=False, description="supply ranges of the sources", indent=False)
        self.sector = w.Dropdown(
            options=["", FRONT_VIEW, *SECTORS], value="", description="Go to:", layout=w.Layout(width="300px")
        )
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

        # The rule system's own controls (RuleSet.controls), grouped by the edit they make.
        controls = [c for c in self.state.rules.controls if c.kind == "points_per_map"]
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
        self.undo_button = w.Button(description="Undo", layout=small)
        self.redo_button = w.Button(description="Redo", layout=small)
        self.save_path = w.Text(value="study.json", description="Study:")
        self.save_button = w.Button(description="Save study", layout=small)
        self.export_button = w.Button(description="Export page", layout=small)
        self.back_button.on_click(lambda _: self.back())
        self.step_button.on_click(lambda _: self.step())
        self.movement_button.on_click(lambda _: self.next_movement_phase())
        self.day_button.on_click(lambda _: self.next_day())
        self.undo_button.on_click(lambda _: self.undo())
        self.redo_button.on_click(lambda _: self.redo())
        self.play.observe(self._on_play, names="value")
        self.slider.observe(self._on_slider, names="value")
        self.show_all_paths.observe(lambda _: self.refresh(), names="value")
        self.view.observe(lambda _: self.refresh(), names="value")
        self.show_sources.observe(lambda _: self.refresh(), names="value")
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
        self.map_box = w.Box(layout=w.Layout(flex="1 1 auto", min_width="480px"))
        panel = w.VBox(
            [self.status, self.inspector, self.edits_box],
            layout=w.Layout(width="360px", min_width="300px", max_height=f"{self._size[1] + 90}px",
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
        self.show_key = w.ToggleButton(
            value=True, description="map key", tooltip="show or hide the map's key"
        )
        self.show_key.observe(
            lambda change: setattr(self.fig.legend[0], "visible", change["new"]), names="value"
        )
        self.app = w.VBox(
            [
                style,
                w.HBox([self.picker, self.open_button, self.sector]),
                w.HBox(
                    [
                        self.back_button,
                        self.step_button,
                        self.movement_button,
                        self.day_button,
                        self.play,
                        self.speed,
                        self.slider,
                    ]
                ),
                self.label,
                w.HBox([self.mode]),
                w.HBox([self.view, self.show_all_paths, self.show_sources, self.show_key]),
                w.HBox([self.map_box, panel], layout=w.Layout(width="100%")),
                w.HBox([self.weather, self.undo_button, self.redo_button]),
                *self._control_rows(w),
                w.HBox([self.save_path, self.save_button, self.export_button]),
                self.refresh_count,
            ]
        )
        self.app.add_class("nl-explorer")

    def _apply_controls(self, op: str, group: list) -> None:
        """Apply one group of the rule system's controls as the one edit they make."""
        edit = {"op": op}
        for control in group:
            edit[control.edit_field] = {s: box.value for s, box in self.control_boxes[control.key].items()}
        self.apply(edit)

    def _control_rows(self, w: Any) -> list:
        """Lay out the rule system's controls: per group its help, a row of boxes per control, its button."""
        rows: list = []
        for op, group in self.control_groups.items():
            said = " ".join(c.help for c in group if c.help)
            if said:
                rows.append(w.HTML(f"<small>{wording.link_rules(said, self.system)}</small>"))
            for n, control in enumerate(group):
                boxes = list(self.control_boxes[control.key].values())
                tail = [self.apply_buttons[op]] if n == len(group) - 1 else []
                rows.append(w.HBox([*boxes, *tail], layout=w.Layout(flex_flow="row wrap")))
        return rows

    def _on_play(self, change: dict[str, Any]) -> None:
        """Step once per Play tick, skipping ticks that queued up while a step was being drawn.

        The Play widget ticks in the browser; ticks sent while the kernel was
        busy arrive together afterwards.  A tick that arrives sooner than half
        an interval after the last step ended is such a leftover: skipped, so
        Play never falls behind and Pause takes effect at once.
        """
        import time

        if change["new"] <= change["old"] or not self.play.playing:
            return
        now = time.monotonic()
        if now - getattr(self, "_play_done", 0.0) < self.play.interval / 2000:
            return
        self.step()
        self._play_done = time.monotonic()

    def _mount_map(self) -> None:
        import ipywidgets as w
        from jupyter_bokeh.widgets import BokehModel

        self.map_widget = BokehModel(self.fig, layout=w.Layout(width="100%"))
        self.map_box.children = [self.map_widget]

    def _open_from_picker(self) -> None:
        try:
            self.open(self.picker.value)
        except (NormandyLabError, OSError) as exc:  # a bad name or file: say so, keep what is shown
            self.message = f"Could not open {self.picker.value!r}: {exc}"
            self._refresh_text()

    def _on_slider(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        ends = self.phase_ends()
        if 0 <= change["new"] < len(ends) and ends[change["new"]] != self.position:
            self._show_position(ends[change["new"]])

    def _ipython_display_(self) -> None:  # pragma: no cover - needs a front end
        from IPython.display import display

        display(self.app)

    # -- saving and exports ----------------------------------------------------

    def _save_from_box(self) -> None:
        try:
            self.save(self.save_path.value)
        except (OSError, NormandyLabError) as exc:
            self.message = f"Could not save: {exc}"
            self._refresh_text()

    def _export_from_box(self) -> None:
        # The page goes beside the study with its own suffix, never over the study itself.
        study = Path(self.save_path.value)
        target = study.with_name(f"{study.stem.removesuffix('.study')}.page.html")
        try:
            written = self.export_html(target)
        except OSError as exc:
            self.message = f"Could not export: {exc}"
        else:
            self.message = f"Exported the page to {written.resolve()}"
        self._refresh_text()

    def save(self, path: str | Path) -> Path:
        """Save the study (scenario + edits) atomically."""
        if self.study is None:
            raise ValueError(
                "this explorer was opened on a bare state: open it on a scenario or a study to save"
            )
        saved = save_study(self.study, path)
        self.message = f"Saved the study to {Path(saved).resolve()}"
        self._refresh_text()
        return saved

    def title_block_html(self) -> str:
        """Return the exported page's title block: date, phase, weather, supply counts, ring key, edits."""
        edits = [
            wording.edit_words(self.system, e)
            for e in _edit_ops(self)[: self.position]
            if e.get("op") != "next_phase"
        ]
        listed = "".join(f"<li>{html.escape(e)}</li>" for e in edits) or "<li>none</li>"
        return (
            f"<h3 style='margin:4px 0'>{html.escape(self.state.label)}</h3>"
            f"<div>{html.escape(layers.supply_summary(self.state, self.report))}</div>"
            f"<div>{wording.phase_line(self.state)}</div><div>{layers.RING_KEY_HTML}</div>"
            f"<div><b>Edits:</b><ul style='margin:2px 0'>{listed}</ul></div>"
        )

    def export_html(self, path: str | Path) -> Path:
        """Save the current map as a standalone HTML page with a title block (INLINE BokehJS, no kernel).

        The title block gives the date, phase, weather, supply counts, the ring
        key and the study's edits.
        """
        from normandy_lab.views.export import save_html

        return save_html(self.fig, path, title=self.state.label, header_html=self.title_block_html())

    def export_png(self, path: str | Path) -> Path:
        """Save the current map as PNG, rendered by headless Chromium."""
        from normandy_lab.views.export import save_png

        return save_png(self.fig, path)

    def export_geopackage(self, path: str | Path) -> Path:
        """Write the current state's layers to a GeoPackage (units, lines of supply, ZOCs, interdiction)."""
        from normandy_lab.views.export import layers_to_geopackage

        return layers_to_geopackage(self.state, self.report, path)


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
