"""The map views: built from the project's layers, INLINE resources, whole-column updates."""

from __future__ import annotations

import pytest
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
    assert len(hexes.data["code"]) == len(hexes.data["x"]) == len(grid("kg"))
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


@pytest.mark.parametrize("system", ["bfn", "cobra", "kg", "gts"])
def test_hex_cells_draw_each_grid_hex_where_the_grid_puts_it(system):
    """Issue 12: a hex goes to the browser as its centre; the browser computes radius and angle with
    two linear models; the ngon BokehJS draws from them must land on the grid's own hexagon (every
    corner within 1 % of the radius)."""
    import numpy as np
    import shapely

    from normandy_lab.views.hexcells import modelled_geometry, ngon_corners
    from normandy_lab.views.mapview import to_mercator

    geometry = modelled_geometry(system)
    frame = grid(system).to_geodataframe()
    corners = shapely.get_coordinates(frame.geometry.values).reshape(len(frame), -1, 2)[:, :6]
    mx, my = to_mercator(corners[..., 0], corners[..., 1])
    for i in range(0, len(frame), 53):
        drawn = ngon_corners(geometry, i)
        true = np.column_stack([mx[i], my[i]])
        nearest = np.sqrt(((true[:, None, :] - drawn[None, :, :]) ** 2).sum(-1)).min(axis=1)
        assert nearest.max() < 0.01 * geometry["radius"][i], (system, frame.index[i])


def test_terrain_hexes_are_one_ngon_glyph_coloured_by_class():
    from bokeh.models import LinearColorMapper, Ngon

    from normandy_lab.views import basemap
    from normandy_lab.views.basemap import terrain_colours

    fig = basemap("bfn")
    renderer = next(r for r in fig.renderers if r.name == "layer:terrain")
    assert isinstance(renderer.glyph, Ngon)
    mapper = renderer.glyph.fill_color.transform
    assert isinstance(mapper, LinearColorMapper)
    code = renderer.data_source.data["code"]
    ids = grid("bfn").ids()
    # The hover's packed ids give each row's hex id.
    from normandy_lab.views.hexcells import packed_ids

    packed, width = packed_ids("bfn")
    assert [packed[k * width : (k + 1) * width].strip() for k in (0, 5000, len(ids) - 1)] == [
        ids[0],
        ids[5000],
        ids[-1],
    ]
    import normandy_lab as nl

    hexes = nl.terrain_map("bfn", progress=False).hexes
    # Each hex's colour (palette entry of its code, as BokehJS maps it) is its terrain's colour.
    for k in range(0, len(ids), 211):
        row = hexes.loc[ids[k]]
        label = row["settlement"] if row["settlement"] and row["terrain"] != "Sea" else row["terrain"]
        palette_index = int((code[k] - mapper.low) / (mapper.high - mapper.low) * len(mapper.palette))
        assert mapper.palette[palette_index] == terrain_colours("bfn")[label]


def test_a_games_vocabulary_colours_its_own_words_over_the_shared_palette(monkeypatch):
    """TerrainVocabulary.colours: a game's own word gets its colour, and its colour of a shared word wins."""
    from dataclasses import replace

    from normandy_lab.terrain import vocab
    from normandy_lab.views.basemap import TERRAIN_COLOURS, terrain_colours

    assert terrain_colours("kg") == TERRAIN_COLOURS  # no game gives colours of its own today
    own = replace(vocab.VOCABULARIES["kg"], colours=(("Polder", "#123456"), ("Clear", "#abcdef")))
    monkeypatch.setitem(vocab.VOCABULARIES, "kg", own)
    colours = terrain_colours("kg")
    assert colours["Polder"] == "#123456" and colours["Clear"] == "#abcdef"
    assert colours["Bocage"] == TERRAIN_COLOURS["Bocage"]


def test_the_implied_front_is_kept_per_placement_of_the_units_and_worked_out_again_after_a_change():
    """Issue 33, section 4: a weather change redraws the map without working out the implied front again;
    with the German units of one sector removed the front is worked out anew, as the engine's own function."""
    import numpy as np

    import normandy_lab as nl
    from normandy_lab.engine.edits import remove_unit, set_weather
    from normandy_lab.history.compare import implied_front
    from normandy_lab.views.history import line_columns
    from normandy_lab.views.layers import implied_front_data

    def same(a: dict, b: dict) -> bool:
        return len(a["xs"]) == len(b["xs"]) and all(
            np.array_equal(np.asarray(x), np.asarray(y)) for x, y in zip(a["xs"], b["xs"], strict=True)
        )

    state = nl.load_scenario("bfn_1944-06-13_am")
    first = implied_front_data(state)
    assert same(first, line_columns(implied_front(state)))
    assert implied_front_data(set_weather(state, "Storm"))["xs"] == first["xs"]  # the same places: kept
    thinned = state
    for unit in [u for u in state.units_of("german") if u.formation and "Lehr" in u.formation]:
        thinned = remove_unit(thinned, unit.id)
    fresh = line_columns(implied_front(thinned))
    assert not same(fresh, first)  # Panzer Lehr's ground changes hands
    assert same(implied_front_data(thinned), fresh)


def test_a_few_changed_rows_reach_the_page_as_a_patch_of_those_rows():
    """A moved counter sends its own row, not the whole units' layer (issue 33, section 4)."""
    from bokeh.document import Document
    from bokeh.document.events import ColumnDataChangedEvent, ColumnsPatchedEvent
    from bokeh.models import ColumnDataSource

    from normandy_lab.views.situation import StateLayers

    source = ColumnDataSource({"x": [0.0] * 8, "label": ["a"] * 8, "xs": [[0.0, 1.0]] * 8})
    document = Document()
    document.add_root(source)
    events: list = []
    document.on_change(lambda event: events.append(event))
    layers = StateLayers(sources={"units": source})
    first = {"x": [float(i) for i in range(8)], "label": ["a"] * 8, "xs": [[0.0, 1.0]] * 8}
    assert layers.set_features("units", first) and isinstance(events[-1], ColumnDataChangedEvent)
    moved = {"x": list(first["x"]), "label": list(first["label"]), "xs": list(first["xs"])}
    moved["x"][3], moved["xs"][3] = 30.0, [3.0, 4.0]
    kept = {key: list(column) for key, column in moved.items()}
    assert layers.set_features("units", moved)
    assert isinstance(events[-1], ColumnsPatchedEvent)
    assert events[-1].patches == {"x": [(3, 30.0)], "xs": [(3, [3.0, 4.0])]}  # the label did not change
    assert {key: list(column) for key, column in source.data.items()} == moved
    assert moved == kept and first["x"][3] == 3.0  # the caller's columns are not changed by a patch
    assert not layers.set_features("units", moved)  # nothing differs: nothing is sent
    many = dict(moved, x=[-1.0] * 8)  # most rows changed: whole columns are the smaller message
    assert layers.set_features("units", many) and isinstance(events[-1], ColumnDataChangedEvent)
    # ... but only the columns that changed (a weather change: 5 of the units' 19 columns), in one event
    assert events[-1].cols == ["x"] and {key: list(column) for key, column in source.data.items()} == many
    assert source.data["x"] is not many["x"]  # the source's own list: a later patch leaves the caller's
    both = dict(many, x=[-2.0] * 8, label=["b"] * 8)
    assert layers.set_features("units", both) and sorted(events[-1].cols) == ["label", "x"]
    fewer = {key: column[:5] for key, column in both.items()}  # rows gone: whole columns
    assert layers.set_features("units", fewer) and isinstance(events[-1], ColumnDataChangedEvent)
    assert sorted(events[-1].cols or []) in ([], ["label", "x", "xs"])  # every column, the source's data
    assert {key: list(column) for key, column in source.data.items()} == fewer
