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
from normandy_lab.views.explorer.figure import (
    HOVER_BACK_PX,
    MapFigure,
    fit_to_screen,
    quiet_hovers_after_a_click,
)
from normandy_lab.views.explorer.history import _History
from normandy_lab.views.explorer.interaction import _Interaction


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
        width, height = self._size
        self.figure = MapFigure(self.state, extent, width, height)
        # The figure's parts under the names the explorer has always had.
        self.fig, self.layers, self.sources = self.figure.fig, self.figure.layers, self.figure.sources
        self.symbol_scale = self.figure.symbol_scale
        self.figure.on_tap(self._on_tap)

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
    "ENEMY", "FRONT_VIEW", "HOVER_BACK_PX", "MAP_HEIGHT_CSS", "MODES", "VIEWS", "Explorer", "MapFigure",
    "_default_extent", "_edit_ops", "explore", "fit_to_screen", "quiet_hovers_after_a_click",
]  # fmt: skip
