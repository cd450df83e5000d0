"""The map views: built from the project's layers, INLINE resources, whole-column updates."""

from __future__ import annotations

from bokeh.embed import file_html
from bokeh.resources import INLINE

from normandy_lab import SYSTEMS, grid
from normandy_lab.views import grid_figure, grid_picker, grid_source_data


def test_grid_source_has_one_patch_per_hex(system):
    data = grid_source_data(system)
    assert len(data["xs"]) == len(grid(system)) == len(data["hex_id"])


def test_figure_draws_land_grid_and_places():
    fig = grid_figure("kg")
    names = {r.data_source.name for r in fig.renderers}
    assert {"land", "grid", "places"} <= names


def test_picker_switches_the_whole_grid_source():
    app = grid_picker("bfn")
    source = app.figure.select_one({"name": "grid"})
    assert len(source.data["hex_id"]) == len(grid("bfn"))
    for system in SYSTEMS:
        app.grid_choice.value = system
        assert len(source.data["hex_id"]) == len(grid(system))
        assert system in app.figure.title.text


def test_standalone_html_needs_no_network():
    html = file_html(grid_figure("gts"), INLINE, "gts")
    assert "cdn.bokeh.org" not in html
    assert '<script src="http' not in html
