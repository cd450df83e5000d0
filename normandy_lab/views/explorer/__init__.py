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

from normandy_lab.session import Session
from normandy_lab.views import layers
from normandy_lab.views.basemap import basemap
from normandy_lab.views.declutter import NOMINAL_FRAME_PX, metres_per_pixel
from normandy_lab.views.explorer._common import (
    ENEMY,
    FRONT_VIEW,
    MODES,
    VIEWS,
    _default_extent,
    _edit_ops,
)
from normandy_lab.views.explorer.controls import _Controls
from normandy_lab.views.explorer.drawing import _Drawing
from normandy_lab.views.explorer.exports import _Exports
from normandy_lab.views.explorer.history import _History
from normandy_lab.views.explorer.interaction import _Interaction
from normandy_lab.views.mapview import to_mercator
from normandy_lab.views.situation import add_state_layers


class Explorer(_History, _Interaction, _Drawing, _Controls, _Exports):
    """The state of one explorer session: a study (scenario + edits), its map and its controls."""

    def __init__(
        self,
        source: Any,
        extent: tuple[float, float, float, float] | None = None,
        width: int | None = None,
        height: int | None = None,
    ) -> None:
        self._size = (width, height)
        self._set_source(source, "explore")
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
        extent = extent or _default_extent(self.state)
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
        # Clicks arrive as Tap events with map coordinates, once per click.  (Selection
        # changes would do too, but jupyter_bokeh runs on_change callbacks twice for
        # changes made in the browser, and a second click on the same hex would be
        # no change at all.)
        self.fig.on_event(Tap, self._on_tap)
        quiet_hovers_after_a_click(self.fig)

    def _set_source(self, source: Any, function: str) -> None:
        # Everything that can fail (reading the scenario or study) happens in the new session, before
        # anything shown is replaced.
        self.session = Session(source, function)
        if hasattr(self, "phases"):  # the controller moves the session shown, the new one from now on
            self.phases.session = self.session

    def open(self, source: Any) -> None:
        """Show another scenario (name or path), study (object or saved file) or state in this explorer.

        A saved study (``.json``) is loaded and replayed; a scenario on another
        game's map gets a new map.

        Raises
        ------
        ScenarioError
            For a source that is none of these (``None``, a number) or a scenario that is not there;
            :class:`~normandy_lab.engine.study.StudyError` for a study file that cannot be read.
            What is shown stays as it was.
        """
        self._set_source(source, "open")
        if self.state.system != self.system:
            self.system = self.state.system
            self._build_figure(None)
            self.refresh()
            self._mount_map()
        else:
            self.go_to(FRONT_VIEW)
            self.refresh()
        self.sector.options = ["", FRONT_VIEW, *self.sectors()]  # the new map's (its sheets may differ)
        self.panel.clear()
        self.message = f"Opened {source if isinstance(source, str | Path) else self.state.scenario}"
        self._refresh_text()


#: The map's height when none is given: the browser window's, less the rows of controls above it, so that on
#: a 1366x768 laptop and a 1920x1080 projector the map takes over 60 % of the screen's height (ux-2 found
#: 365 px of 768) and the Step row and the map can be seen together.
MAP_HEIGHT_CSS = "max(380px, calc(100vh - 230px))"


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

    hovers = list(fig.select({"type": HoverTool}))
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
    from normandy_lab.views.mapview import show_inline

    # Outside a notebook there is nothing to load BokehJS into.
    with contextlib.suppress(Exception):
        show_inline()
    return Explorer(source, **kwargs)


__all__ = [
    "ENEMY", "FRONT_VIEW", "MAP_HEIGHT_CSS", "MODES", "VIEWS", "Explorer", "_default_extent", "_edit_ops",
    "explore",
]  # fmt: skip
