"""Views: bokeh figures and ipywidgets applications.  Views draw; they never compute rules."""

from __future__ import annotations

from normandy_lab.views.basemap import basemap, hex_source_data
from normandy_lab.views.compare import Comparison, compare
from normandy_lab.views.export import html_to_png, save_html, save_png
from normandy_lab.views.mapview import (
    grid_figure,
    grid_picker,
    grid_source_data,
    land_source_data,
    places_source_data,
    show_inline,
)

__all__ = [
    "Comparison",
    "basemap",
    "compare",
    "grid_figure",
    "grid_picker",
    "grid_source_data",
    "hex_source_data",
    "html_to_png",
    "land_source_data",
    "places_source_data",
    "save_html",
    "save_png",
    "show_inline",
]
