"""Views: bokeh figures and ipywidgets applications.  Views draw; they never compute rules."""

from __future__ import annotations

from normandy_lab.views.mapview import (
    grid_figure,
    grid_picker,
    grid_source_data,
    land_source_data,
    places_source_data,
    show_inline,
)

__all__ = [
    "grid_figure",
    "grid_picker",
    "grid_source_data",
    "land_source_data",
    "places_source_data",
    "show_inline",
]
