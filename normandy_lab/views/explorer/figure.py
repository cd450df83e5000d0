"""The explorer's figure: the bokeh map of a situation, its layers, and drawing a state on them.

A :class:`MapFigure` is built from a state (its map and the view to start on)
and draws a state with its supply report when told what is selected and which
layers are asked for, as plain values.  It reads no widget, so it can be built
and checked without the explorer's controls or a browser (issue 32, section 3).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from normandy_lab.engine.state import GameState
from normandy_lab.grids import grid
from normandy_lab.views import layers
from normandy_lab.views.basemap import basemap, slim
from normandy_lab.views.declutter import NOMINAL_FRAME_PX, declutter, metres_per_pixel
from normandy_lab.views.explorer._common import ENEMY, _default_extent
from normandy_lab.views.mapview import to_mercator
from normandy_lab.views.situation import add_state_layers, empty_columns


class MapFigure:
    """The map of one game's sheets with the explorer's layers on it.

    Parameters
    ----------
    state
        A state of the game drawn: its map is the one shown, and the first view is its front unless
        ``extent`` is given.
    extent
        The first view, (west, south, east, north) in degrees.
    width, height
        The map's size in pixels; None lets it follow the page (:func:`fit_to_screen`).

    Attributes
    ----------
    fig
        The bokeh figure.
    layers
        Its layers (:func:`normandy_lab.views.situation.add_state_layers`); ``sources`` are their data.
    symbol_scale
        Metres per screen pixel of the first view: the scale formation symbols are laid out for.
    """

    def __init__(
        self,
        state: GameState,
        extent: tuple[float, float, float, float] | None = None,
        width: int | None = None,
        height: int | None = None,
    ) -> None:
        self.system = state.system
        extent = extent or _default_extent(state)
        self.fig = basemap(self.system, extent=extent, width=width or 900, height=height or 640)
        # The scale the formation symbols are laid out for: the default view in the smallest frame it gets
        # (views.declutter); a map of given pixels is laid out for those.
        (x0, x1), (y0, y1) = to_mercator([extent[0], extent[2]], [extent[1], extent[3]])
        frame = (width - 60, height - 60) if width and height else NOMINAL_FRAME_PX
        self.symbol_scale = metres_per_pixel((float(x0), float(y0), float(x1), float(y1)), frame)
        self.layers = add_state_layers(self.fig, self.system)
        fit_to_screen(self.fig, width, height)
        self.sources = self.layers.sources
        self.layers.set_features("bridges", layers.bridge_data(self.system))
        quiet_hovers_after_a_click(self.fig)
        slim(self.fig)

    def on_tap(self, callback: Callable[[Any], Any]) -> None:
        """Call ``callback`` with each click's bokeh ``Tap`` event (map coordinates in ``x`` and ``y``)."""
        from bokeh.events import Tap

        # Clicks arrive as Tap events, once per click.  (Selection changes would do too, but jupyter_bokeh
        # runs on_change callbacks twice for changes made in the browser, and a second click on the same
        # hex would be no change at all.)
        self.fig.on_event(Tap, callback)

    def laid_out(self, formations: dict[str, list]) -> dict[str, list]:
        """Group or move apart the symbols that would overlap at the default zoom (views.declutter)."""
        scale = self.symbol_scale
        return declutter(formations, scale, layers.worse_ring_colour) if scale else formations

    def draw(
        self,
        state: GameState,
        report: Any,
        *,
        selected: str | None = None,
        all_paths: bool = False,
        viewer: str = "",
        show_sources: bool = False,
        show_zones: bool = False,
    ) -> None:
        """Draw ``state`` with its supply ``report`` on the layers; only the layers that changed are sent.

        Parameters
        ----------
        selected
            The unit selected (a unit of ``state``) or None: its line, range, moves and blocking hex.
        all_paths
            Every line of supply (of ``viewer``'s side, or both) rather than the selected unit's.
        viewer
            The side the map is seen from ("allied", "german"), or "" for both.
        show_sources, show_zones
            The supply ranges of the sources (when no HQ is selected); the rule system's zones and paths.
        """
        chosen = None if all_paths else [selected] if selected else []
        owner = None
        if selected and state.unit(selected).hq:
            owner = selected if report[selected].general else None
        # Seen from one side, the zones that matter are the enemy's (EZOC, 5.4), and
        # "all lines of supply" means that side's lines.
        zoc_sides = ("allied", "german") if viewer == "" else (ENEMY[viewer],)
        units = layers.unit_data(state, report)
        move_indices, move_costs = layers.move_hexes(state, report, selected)
        blocking = report[selected].blocking_hex if selected else ""
        hexes = {
            "zoc_allied": layers.zoc_hexes(state, "allied") if "allied" in zoc_sides else [],
            "zoc_german": layers.zoc_hexes(state, "german") if "german" in zoc_sides else [],
            "range": (
                layers.range_hexes(state, report, owner)
                if owner or not show_sources
                else layers.source_range_hexes(state, report, (viewer,) if viewer else ("allied", "german"))
            ),
            "moves": move_indices,
            "interdiction": layers.interdiction_hexes(state),
            "blocking": [grid(self.system).index(blocking)] if blocking else [],
        }
        if show_zones:
            zones, zone_labels = layers.zone_data(report)
            routes, route_breaks = layers.route_data(report)
        else:
            zones, zone_labels, routes, route_breaks = map(
                empty_columns, ("zones", "zone_labels", "routes", "route_breaks")
            )
        features = {
            "units": units,
            "zones": zones,
            "zone_labels": zone_labels,
            "routes": routes,
            "route_breaks": route_breaks,
            "formations": self.laid_out(layers.formation_data(state, report)),
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


def fit_to_screen(fig: Any, width: int | None, height: int | None) -> None:
    """Size the explorer's map to the page: the cell's width and the window's height, unless given in pixels.

    The map fills what the cell leaves beside the side panel (or the whole width once the panel has wrapped
    under it, on a narrow screen), and its height follows :data:`MAP_HEIGHT_CSS` through its widget.  The
    longitude and latitude axes are left out: degrees mean nothing to a class, the hover names each hex,
    and their 60 px go to the map.  The key starts folded (the "map key" toggle opens it under the map).
    """
    fig.sizing_mode = {
        (True, True): "stretch_both", (True, False): "stretch_width", (False, True): "stretch_height",
    }.get((width is None, height is None), "fixed")  # fmt: skip
    if width is None:
        fig.min_width = 480
    if height is None:
        fig.min_height = 380
    fig.xaxis.visible = False
    fig.yaxis.visible = False
    for legend in fig.legend:
        legend.visible = False


#: How far (screen pixels) the pointer must leave a clicked spot before the hover tooltips come back.
HOVER_BACK_PX = 24


def quiet_hovers_after_a_click(fig: Any) -> None:
    """Keep the hover tooltips off what was just clicked, until the pointer moves away from it.

    A click on a unit or a bridge leaves the pointer on it, and the hover tooltips (the hex's, the unit's,
    the bridge's) then covered the counter, the new bridge mark and the panel beside it (ux-2).  In the
    browser: a click turns every hover tool of the map off and notes where; a move of the pointer more
    than :data:`HOVER_BACK_PX` pixels from there turns them on again.  Nothing goes to the kernel.
    """
    from bokeh.events import MouseMove, Tap
    from bokeh.models import CustomJS, HoverTool

    # The toolbar's own list: fig.select would walk every model of the map (a twentieth of an opening).
    hovers = [tool for tool in fig.toolbar.tools if isinstance(tool, HoverTool)]
    if not hovers:
        return
    fig.js_on_event(
        Tap,
        CustomJS(
            args={"hovers": hovers},
            code="for (const h of hovers) { h.active = false; } hovers[0]._nl_tap = [cb_obj.sx, cb_obj.sy];",
        ),
    )
    fig.js_on_event(
        MouseMove,
        CustomJS(
            args={"hovers": hovers, "far": HOVER_BACK_PX},
            code="""
                const at = hovers[0]._nl_tap;
                if (at && Math.hypot(cb_obj.sx - at[0], cb_obj.sy - at[1]) > far) {
                    for (const h of hovers) { h.active = true; }
                    hovers[0]._nl_tap = null;
                }
            """,
        ),
    )
