"""What a click on the map is on, and what it does in each mode; framing the map on a sector or units.

A :class:`MapPointer` is fed a :class:`~normandy_lab.views.explorer.figure.MapFigure`: it reads the figure's
view and the positions its layers drew (counters, formation symbols, bridge marks) to tell what is under a
point, and sets the figure's view.  :func:`hex_action` and :func:`copy_edit` say what a click on a hex does
in a mode, from the state alone.  Neither draws nor edits: each returns an :class:`Action` that the explorer
carries out (select, apply an edit, say something).  So both run without the explorer's widgets or a
browser (issue 32, section 3).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from bokeh.core.property.descriptors import UnsetValueError

from normandy_lab.engine.state import GameState
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
from normandy_lab.views.sectors import sectors_of, sectors_on
from normandy_lab.views.situation import COUNTER_ZOOM_HEXES

#: The modes in which a click on a bridge's hexside is the second click of a pair.
BRIDGE_MODES = {"destroy bridge": "destroy_bridge", "repair bridge": "repair_bridge"}


class Action(NamedTuple):
    """What a click does, for the explorer to carry out.

    ``kind`` is one of "select unit", "select formation", "edit" (``value`` the edit), "hex" (a click on
    that hex, :func:`hex_action` says what it does), "pending" (``value`` the first hex of a bridge's
    pair), "copy" (add a copy of the selected unit at ``value``), "inspect" (show everything about the
    hex ``value``), "say" (only ``words`` for the banner) or "nothing".
    """

    kind: str
    value: Any = None
    words: str = ""


class MapPointer:
    """Tell what is drawn under a point of a figure's map, and set the map's view.

    Parameters
    ----------
    figure
        The map (:class:`~normandy_lab.views.explorer.figure.MapFigure`): its ``fig`` (view and size),
        its ``sources`` (what its layers drew) and its ``system`` (the map's grid).
    """

    def __init__(self, figure: Any) -> None:
        self.figure = figure

    @property
    def _hex_m(self) -> float:
        # Mercator metres across a hex (Mercator m are ~1.5 ground m here).
        return float(grid(self.figure.system).georeference.hex_size_m) * 1.5

    def zoomed_in(self) -> bool:
        """Tell whether the map shows counters (zoomed in) rather than formation symbols."""
        fig = self.figure.fig
        span = float(fig.x_range.end) - float(fig.x_range.start)
        return span / self._hex_m < COUNTER_ZOOM_HEXES

    def reach(self, pixels: float) -> float:
        """Return how far (Mercator metres) ``pixels`` are on the map as it is shown now."""
        fig = self.figure.fig
        span = float(fig.x_range.end) - float(fig.x_range.start)
        try:  # the plot's drawn width, as the browser last reported it
            width = fig.inner_width or fig.width or 900
        except UnsetValueError:  # never drawn (no browser): the width asked for
            width = fig.width or 900
        return pixels * span / max(width, 1)

    def _nearest(
        self, layer: str, function: str, x: float, y: float
    ) -> tuple[dict[str, Any], int, float] | None:
        """Return a layer's data, the index of its mark nearest a point and how far it is; None if empty."""
        x, y = map_coordinate(function, "x", x), map_coordinate(function, "y", y)
        data = self.figure.sources[layer].data
        if not data.get("x"):
            return None
        d = np.hypot(np.asarray(data["x"]) - x, np.asarray(data["y"]) - y)
        nearest = int(np.argmin(d))
        return data, nearest, float(d[nearest])

    def unit_at(self, x: float, y: float) -> str | None:
        """Return the unit whose counter is drawn nearest a map point (Web Mercator), if within reach."""
        found = self._nearest("units", "unit_at", x, y)
        # Within about a third of a hex of the counter's centre.
        if found is None or found[2] > self._hex_m * 0.35:
            return None
        return str(found[0]["unit_id"][found[1]])

    def formation_at(self, x: float, y: float) -> str | None:
        """Return the formation whose symbol (zoomed out) is drawn at a map point, if any."""
        found = self._nearest("formations", "formation_at", x, y)
        if found is None or found[2] > self.reach(18):
            return None
        return str(found[0]["key"][found[1]])

    def bridge_at(self, x: float, y: float) -> tuple[str, str] | None:
        """Return the bridge (its two hexes) drawn nearest a map point, if within a quarter hex."""
        found = self._nearest("bridges", "bridge_at", x, y)
        if found is None or found[2] > self._hex_m * 0.25:
            return None
        data, nearest, _ = found
        return data["a"][nearest], data["b"][nearest]

    def hex_at(self, x: float, y: float) -> str | None:
        """Return the hex under a map point (Web Mercator), or None off the map."""
        from normandy_lab.views.mapview import from_mercator

        x, y = map_coordinate("hex_at", "x", x), map_coordinate("hex_at", "y", y)
        lon, lat = from_mercator(x, y)
        return grid(self.figure.system).locate(float(lon), float(lat))

    def tap_action(self, x: float, y: float, mode: str, pending_hex: str | None = None) -> Action:
        """Return what a click at a map point (Web Mercator) does in ``mode``.

        Inspecting (or removing) zoomed in, a click on a counter selects its unit; inspecting zoomed out,
        one on a formation's symbol selects the formation.  Cutting or repairing, a first click on a
        bridge's mark acts on that bridge at once.  Anything else is a click on the hex under the point.

        Raises
        ------
        RefusedError
            When ``x`` or ``y`` is not a finite number.
        """
        x, y = map_coordinate("tap", "x", x), map_coordinate("tap", "y", y)
        if mode in ("inspect", "remove unit"):
            if self.zoomed_in():
                unit_id = self.unit_at(x, y)
                if unit_id is not None:
                    return Action("select unit", unit_id)
            else:
                key = self.formation_at(x, y)
                if key is not None and mode == "inspect":
                    return Action("select formation", key)
        if mode in BRIDGE_MODES and pending_hex is None:
            bridge = self.bridge_at(x, y)
            if bridge is not None:
                return Action("edit", {"op": BRIDGE_MODES[mode], "hexside": list(bridge)})
        hex_id = self.hex_at(x, y)
        if hex_id is None:
            return Action("say", words="That point is off the game map.")
        return Action("nothing") if mode == "remove unit" else Action("hex", hex_id)

    # -- the view -----------------------------------------------------------------------------------------

    def frame(self, x0: float, x1: float, y0: float, y1: float) -> None:
        """Show the box (Web Mercator) on the map, its shorter side widened round its centre to fit."""
        fig = self.figure.fig
        width, height = fig.width or 900, fig.height or 640
        aspect = height / width
        cx, cy, sx, sy = (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0
        if sy / sx > aspect:
            sx = sy / aspect
        else:
            sy = sx * aspect
        fig.x_range.update(start=cx - sx / 2, end=cx + sx / 2)
        fig.y_range.update(start=cy - sy / 2, end=cy + sy / 2)

    def frame_sector(self, state: GameState, sector: str) -> None:
        """Show a named sector of the state's map (:func:`sectors`), or its front (:data:`FRONT_VIEW`).

        Raises
        ------
        UnknownNameError
            For anything but a sector's name or :data:`FRONT_VIEW`, with the nearest sectors.
        """
        from normandy_lab.views.mapview import to_mercator

        offered = sectors(state)
        if not (isinstance(sector, str) and (sector == FRONT_VIEW or sector in offered)):
            refuse_unknown("go_to", "sector", sector, [FRONT_VIEW, *offered], "a sector of the map")
        # The game's own extent of the sector (two games may frame one name differently).
        box = _default_extent(state) if sector == FRONT_VIEW else sectors_of(state.game)[sector]
        west, south, east, north = box
        (x0, x1), (y0, y1) = to_mercator([west, east], [south, north])
        self.frame(float(x0), float(x1), float(y0), float(y1))

    def frame_units(self, state: GameState, unit_ids: list[str]) -> None:
        """Show the units (of ``state``), with three hexes round them."""
        from normandy_lab.views.mapview import to_mercator

        g = grid(self.figure.system)
        lon, lat = np.array([g.center(state.unit(u).hex) for u in unit_ids]).T
        x, y = to_mercator(lon, lat)
        margin = self._hex_m * 3
        self.frame(x.min() - margin, x.max() + margin, y.min() - margin, y.max() + margin)


def sectors(state: GameState) -> tuple[str, ...]:
    """Return the sectors of the state's game (its look's) its map shows (``views.sectors.sectors_on``)."""
    maps = state.maps
    return sectors_on(state.game, tuple(sorted(maps)) if maps else None)


def formations(state: GameState) -> list[str]:
    """Return the formations of a state (the keys of the zoomed-out symbols), sorted."""
    return sorted({layers.formation_key(u) for u in state.units if u.status == "active"})


# -- what a click on a hex does -----------------------------------------------------------------------------


def hex_action(
    mode: str, hex_id: str, state: GameState, selected: str | None, pending_hex: str | None
) -> Action:
    """Return what a click on ``hex_id`` does in ``mode``, with ``selected`` the unit selected.

    Moving, the selected unit moves there; interdicting, the hex is interdicted or cleared; cutting or
    repairing a bridge, the first click notes the hex (a "pending" action) and the second edits the bridge
    between the two; adding, a copy of the selected unit goes there; inspecting, the hex is shown.
    """
    if mode == "move unit":
        if not selected:
            return Action("say", words="Select a unit first (switch to inspect and click it).")
        return Action("edit", {"op": "move", "unit": selected, "to": hex_id})
    if mode == "interdict hex":
        op = "clear_interdiction" if hex_id in state.interdicted_hexes else "interdict"
        return Action("edit", {"op": op, "hex": hex_id})
    if mode in BRIDGE_MODES:
        if pending_hex is None:
            words = f"{wording.place_of(state.system, hex_id)} chosen: now click the hex across the bridge."
            return Action("pending", hex_id, words)
        return Action("edit", {"op": BRIDGE_MODES[mode], "hexside": [pending_hex, hex_id]})
    if mode == "add unit":
        return Action("copy", hex_id)
    return Action("inspect", hex_id)


def copy_edit(state: GameState, unit_id: str, hex_id: str) -> dict[str, Any]:
    """Return the edit adding a what-if copy of a unit of ``state`` at ``hex_id`` (the first free id)."""
    template = state.unit(unit_id)
    taken = {u.id for u in state.units}
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
    return {"op": "add_unit", "unit": record}


# -- refusing what names nothing of the state ---------------------------------------------------------------


def check_unit(state: GameState, function: str, unit_id: object) -> None:
    """Refuse a unit id that is not text or names no unit of ``state`` (before any change).

    Raises
    ------
    UnknownNameError
        Naming ``function``, with the nearest ids.
    """
    said = (
        f"the ids of the {len(state.units):,} units of the state shown are in "
        "explorer.state.units; None selects none"
    )
    if not isinstance(unit_id, str):
        raise UnknownNameError(f"{function}: unit_id: {shown(unit_id)} is not a unit's id; {said}")
    try:
        state.unit(unit_id)
    except UnknownNameError as exc:  # its message has the nearest ids
        raise UnknownNameError(f"{function}: unit_id: {exc}; {said}") from None


def check_formation(state: GameState, function: str, key: object) -> None:
    """Refuse a formation that has no active unit in ``state``, with the nearest formations.

    Raises
    ------
    UnknownNameError
        Naming ``function``, with the nearest formations.
    """
    names = formations(state)
    # A symbol standing for several formations (views.declutter) has their keys joined.
    parts = key.split(GROUP_JOIN) if isinstance(key, str) and key not in names else [key]
    if not all(isinstance(part, str) and part in names for part in parts):
        refuse_unknown(function, "key", key, names, "a formation of the state shown")


def hex_argument(state: GameState, function: str, hex_id: object) -> str:
    """Return the visible id of a hex of the state's map given as text.

    Raises
    ------
    HexIdError
        For anything but text naming a hex of the map, naming ``function`` and what an id looks like.
    """
    g = grid(state.system)
    if not isinstance(hex_id, str):
        example = state.units[0].hex if state.units else str(g.ids()[0])
        raise HexIdError(
            f"{function}: hex_id: {shown(hex_id)} is not a hex id; give a hex of the map as text, "
            f"e.g. {example!r}"
        )
    try:
        return g.canonical(hex_id)
    except HexIdError as exc:  # its message says what an id of this map looks like
        raise HexIdError(f"{function}: hex_id: {exc}") from None
