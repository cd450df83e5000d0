"""What a click on the map does in each mode, and finding what was clicked."""

from __future__ import annotations

import html
from typing import Any

import numpy as np
from bokeh.core.property.descriptors import UnsetValueError

from normandy_lab.errors import UnknownNameError
from normandy_lab.grids import grid
from normandy_lab.grids.numbering import HexIdError
from normandy_lab.views import layers, wording
from normandy_lab.views.declutter import GROUP_JOIN
from normandy_lab.views.explorer._common import (
    FRONT_VIEW,
    _default_extent,
    map_coordinate,
    refuse_unknown,
    shown,
)
from normandy_lab.views.sectors import SECTORS, sectors_on
from normandy_lab.views.situation import COUNTER_ZOOM_HEXES


class _Interaction:
    """A part of the explorer (:class:`~normandy_lab.views.explorer.Explorer`), in its own module."""

    # -- map interaction ---------------------------------------------------

    def zoomed_in(self) -> bool:
        """Tell whether the map shows counters (zoomed in) rather than formation symbols."""
        span = float(self.fig.x_range.end) - float(self.fig.x_range.start)
        return span / (grid(self.system).georeference.hex_size_m * 1.5) < COUNTER_ZOOM_HEXES

    def sectors(self) -> tuple[str, ...]:
        """Return the named sectors this map shows (:func:`normandy_lab.views.sectors.sectors_on`)."""
        maps = self.state.maps
        return sectors_on(self.system, tuple(sorted(maps)) if maps else None)

    def go_to(self, sector: str) -> None:
        """Show a named sector this map shows (:meth:`sectors`) or the scenario's front.

        Raises
        ------
        UnknownNameError
            For anything but a sector's name or :data:`FRONT_VIEW`, with the nearest sectors.
        """
        from normandy_lab.views.mapview import to_mercator

        offered = self.sectors()
        if not (isinstance(sector, str) and (sector == FRONT_VIEW or sector in offered)):
            refuse_unknown("go_to", "sector", sector, [FRONT_VIEW, *offered], "a sector of the map")
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
        """Refuse a unit id that is not text or names no unit of the state shown (before any change)."""
        said = (
            f"the ids of the {len(self.state.units):,} units of the state shown are in "
            "explorer.state.units; None selects none"
        )
        if not isinstance(unit_id, str):
            raise UnknownNameError(f"{function}: unit_id: {shown(unit_id)} is not a unit's id; {said}")
        try:
            self.state.unit(unit_id)
        except UnknownNameError as exc:  # its message has the nearest ids
            raise UnknownNameError(f"{function}: unit_id: {exc}; {said}") from None

    def formations(self) -> list[str]:
        """Return the formations of the state shown (the keys of the zoomed-out symbols), sorted."""
        return sorted({layers.formation_key(u) for u in self.state.units if u.status == "active"})

    def _check_formation(self, function: str, key: object) -> None:
        """Refuse a formation that has no active unit in the state shown, with the nearest formations."""
        names = self.formations()
        # A symbol standing for several formations (views.declutter) has their keys joined.
        parts = key.split(GROUP_JOIN) if isinstance(key, str) and key not in names else [key]
        if not all(isinstance(part, str) and part in names for part in parts):
            refuse_unknown(function, "key", key, names, "a formation of the state shown")

    def select_formation(self, key: str) -> None:
        """List a formation's units in the side panel and zoom the map to them (the zoomed-out click).

        Raises
        ------
        UnknownNameError
            For a key that is not one of :meth:`formations`, with the nearest; nothing changes.
        """
        from normandy_lab.views.mapview import to_mercator

        self._check_formation("select_formation", key)
        self.selected_formation = key
        self.selected_unit = None
        ids = layers.formation_units(self.state, key)
        g = grid(self.system)
        lon, lat = np.array([g.center(self.state.unit(u).hex) for u in ids]).T
        x, y = to_mercator(lon, lat)
        margin = g.georeference.hex_size_m * 1.5 * 3
        self._set_view(x.min() - margin, x.max() + margin, y.min() - margin, y.max() + margin)
        self.refresh()

    def _hex_argument(self, function: str, hex_id: object) -> str:
        """Return the visible id of a hex given as text, refusing anything else with :class:`HexIdError`."""
        g = grid(self.system)
        if not isinstance(hex_id, str):
            example = self.state.units[0].hex if self.state.units else str(g.ids()[0])
            raise HexIdError(
                f"{function}: hex_id: {shown(hex_id)} is not a hex id; give a hex of the map as text, "
                f"e.g. {example!r}"
            )
        try:
            return g.canonical(hex_id)
        except HexIdError as exc:  # its message says what an id of this map looks like
            raise HexIdError(f"{function}: hex_id: {exc}") from None

    def click_hex(self, hex_id: str) -> None:
        """Act on a clicked hex according to the edit mode.

        Raises
        ------
        HexIdError
            For anything but the id of a hex of the map (a ``RefusedError``); nothing changes.
        """
        mode = self.mode.value
        hex_id = self._hex_argument("click_hex", hex_id)
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
        hex_id = self._hex_argument("add_copy", hex_id)
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

        hex_id = self._hex_argument("hex_report_html", hex_id)
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
        control = hex_control(state, at=np.array([i]))[0] or "nobody"
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
        hex_id = self._hex_argument("inspect_hex", hex_id)
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
        x, y = map_coordinate("unit_at", "x", x), map_coordinate("unit_at", "y", y)
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
        x, y = map_coordinate("formation_at", "x", x), map_coordinate("formation_at", "y", y)
        data = self.sources["formations"].data
        if not data.get("x"):
            return None
        d = np.hypot(np.asarray(data["x"]) - x, np.asarray(data["y"]) - y)
        nearest = int(np.argmin(d))
        return data["key"][nearest] if d[nearest] <= self._reach(18) else None

    def bridge_at(self, x: float, y: float) -> tuple[str, str] | None:
        """Return the bridge (its two hexes) drawn nearest a map point, if within a quarter hex."""
        x, y = map_coordinate("bridge_at", "x", x), map_coordinate("bridge_at", "y", y)
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

        x, y = map_coordinate("hex_at", "x", x), map_coordinate("hex_at", "y", y)
        lon, lat = from_mercator(x, y)
        return grid(self.system).locate(float(lon), float(lat))

    def tap(self, x: float, y: float) -> None:
        """Act on a click at a map point (Web Mercator), as the mode says: what a click on the map does.

        Raises
        ------
        RefusedError
            When ``x`` or ``y`` is not a finite number; nothing changes.
        """
        x, y = map_coordinate("tap", "x", x), map_coordinate("tap", "y", y)
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
