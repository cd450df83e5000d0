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


def test_basemap_draws_every_layer_and_terrain_hexes():
    from normandy_lab.views import basemap

    fig = basemap("kg")
    names = {r.data_source.name for r in fig.renderers}
    for layer in ("land", "rivers", "roads", "railways", "wetlands", "builtup", "beaches", "hexes"):
        assert layer in names, layer
    assert any(name.startswith("landcover_") for name in names)
    hexes = fig.select_one({"name": "hexes"})
    assert len(hexes.data["hex_id"]) == len(grid("kg"))
    # Hexes are one patches glyph, not one glyph per hex.
    assert sum(1 for r in fig.renderers if r.data_source.name == "hexes") == 1


def test_basemap_without_a_grid_and_label_thinning():
    from bokeh.models import CustomJS

    from normandy_lab.views import basemap

    fig = basemap(None, width=600, height=500)
    assert fig.select_one({"name": "hexes"}) is None
    callbacks = fig.x_range.js_property_callbacks
    assert any(isinstance(cb, CustomJS) for cbs in callbacks.values() for cb in cbs)
    ranks = [fig.select_one({"name": f"places_rank{rank}"}) for rank in (1, 2, 3)]
    assert all(r is not None and len(r.data["name"]) > 0 for r in ranks)
    assert len(ranks[2].data["name"]) > len(ranks[0].data["name"])
