"""The basemap: 1944 Normandy drawn from the project's own layers, optionally with a grid's terrain.

Everything is in Web Mercator (EPSG:3857); nothing is fetched from a tile
server.  Each layer is one ``ColumnDataSource`` (named after the layer), so
that callers can replace whole columns at once.  Town labels thin out as
the view zooms out: cities always, towns below about 120 km of view width,
villages below about 40 km (a small ``CustomJS`` on the x-range, so it also
works in a saved HTML page with no kernel).
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from normandy_lab.geo import geography
from normandy_lab.grids.numbering import SCHEMES
from normandy_lab.terrain.derived import derived, map_key
from normandy_lab.terrain.vocab import vocabulary
from normandy_lab.views.hexcells import TERRAIN_SOURCE, ngon_specs, packed_ids, terrain_columns
from normandy_lab.views.mapview import land_source_data, map_frame, to_mercator

# The shared palette of the hex terrain, by rule-system label: a game's vocabulary may give its own words
# their colours (TerrainVocabulary.colours), which win over these (terrain_colours).
TERRAIN_COLOURS = {
    "Sea": "#9ec9e8",
    "All Sea": "#9ec9e8",
    "Impassable": "#9ec9e8",
    "Clear": "#f4efc7",
    "Farmland": "#d9e6a8",
    "Bocage": "#9cc47a",
    "Hedgerow": "#9cc47a",
    "Forest": "#3f7f3a",
    "Woods": "#3f7f3a",
    "Light Woods": "#5d9a4f",
    "Flooded/Marsh": "#7fb7c9",
    "Marsh": "#7fb7c9",
    "Flooded": "#a6d3e3",
    "Beach": "#f2d68c",
    "Village": "#c9b79c",
    "Town": "#a88f76",
    "City": "#7a6a5e",
}
_RIVER_WIDTH = {"major_river": 3.0, "river": 2.0, "stream": 1.2, "canal": 2.0}
# Roads in red and browns, sectors in dark brown: orange is kept for the out-of-supply ring and
# cyan for lines of supply, so that neither is mistaken for a map feature.
_ROAD_STYLE = {"highway": ("#c0392b", 2.6), "primary": ("#a0522d", 1.8), "secondary": ("#8d6e63", 1.0)}
_LANDCOVER_STYLE = {"forest": ("#2e7d32", 0.55), "bocage": ("#9ccc65", 0.25), "open": ("#fff3b0", 0.35)}


def terrain_colours(system: str) -> dict[str, str]:
    """Return the map colour of each terrain word of a game: its vocabulary's own, over the shared palette.

    Parameters
    ----------
    system
        The map's key (``nl.grid(system)``).

    Returns
    -------
    dict
        Word -> ``"#rrggbb"``: :data:`TERRAIN_COLOURS`, updated with the game's
        :attr:`~normandy_lab.terrain.vocab.TerrainVocabulary.colours`.
    """
    return {**TERRAIN_COLOURS, **dict(vocabulary(system).colours)}


#: Display simplification of the geography (degrees, about 8 m): under a pixel at any zoom the
#: explorer is used at, and it halves what the browser must parse.
DISPLAY_TOLERANCE_DEG = 0.0001


def mercator32(coords: Any) -> tuple[np.ndarray, np.ndarray]:
    """Project lon/lat coordinates to Web Mercator as float32 (0.5 m steps here; half the bytes)."""
    coords = np.asarray(coords)
    mx, my = to_mercator(coords[:, 0], coords[:, 1])
    return mx.astype(np.float32), my.astype(np.float32)


def _lines(frame, **columns: Any) -> dict[str, list]:
    xs, ys = [], []
    for geometry in frame.geometry:
        mx, my = mercator32(geometry.simplify(DISPLAY_TOLERANCE_DEG).coords)
        xs.append(mx)
        ys.append(my)
    data: dict[str, list] = {"xs": xs, "ys": ys}  # no names: no hover reads them, and they cost bytes
    for key, values in columns.items():
        data[key] = list(values)
    return data


def _polygons(frame, **columns: Any) -> dict[str, list]:
    xs, ys = [], []
    for geometry in frame.geometry:
        geometry = geometry.simplify(DISPLAY_TOLERANCE_DEG, preserve_topology=True)
        rings_x, rings_y = [], []
        for ring in [geometry.exterior, *geometry.interiors]:
            mx, my = mercator32(ring.coords)
            rings_x.append(mx)
            rings_y.append(my)
        xs.append([rings_x])
        ys.append([rings_y])
    data: dict[str, list] = {"xs": xs, "ys": ys}  # no names, as in _lines
    for key, values in columns.items():
        data[key] = list(values)
    return data


def _places_by_rank():
    """Split the labelled places into cities, towns and villages."""
    places = geography.layer("places")
    builtup = geography.layer("builtup")
    cities = set(builtup.loc[builtup["class"] == "city", "name"])
    towns = set(builtup.loc[builtup["class"] == "town", "name"])
    populated = places[places["kind"].isin(["populated place", "village", "town"])]
    ranks = []
    for name, population in zip(populated["name"], populated["population"], strict=True):
        if name in cities or population >= 20_000:
            ranks.append(1)
        elif name in towns or population >= 3_000:
            ranks.append(2)
        else:
            ranks.append(3)
    populated = populated.assign(rank=ranks)
    west, south, east, north = geography.AREA
    inside = populated.cx[west:east, south:north]
    return inside


def hex_source_data(system: str) -> dict[str, Any]:
    """Return the columns of a grid's terrain hexes as the basemap sends them.

    One row per hex in grid order: centre (float32, Web Mercator) and
    ``code`` (uint8, the terrain class).  See :mod:`normandy_lab.views.hexcells`
    for how the browser draws them; what lies on a hex's
    sides is looked up when the hex is clicked, not sent for every hex.
    """
    columns, _, _ = terrain_columns(system, terrain_colours(system))
    return columns


def _terrain_hexes(fig: Any, system: str, alpha: float) -> None:
    """Draw a grid's terrain hexes: one ngon glyph, colour from a palette by terrain class."""
    from bokeh.models import ColumnDataSource, CustomJSHover, HoverTool, LinearColorMapper

    tables = _tables(system)
    columns, classes, palette = tables["hexes"], tables["hex_classes"], tables["hex_palette"]
    source = ColumnDataSource(dict(columns), name=TERRAIN_SOURCE)
    # Codes 0..K-1 map to palette entries exactly with the bounds half a step outside.
    mapper = LinearColorMapper(palette=palette, low=-0.5, high=len(palette) - 0.5)
    renderer = fig.ngon(
        "x", "y", n=6, source=source, **ngon_specs(system),
        fill_color={"field": "code", "transform": mapper}, fill_alpha=alpha,
        line_color="#555555", line_alpha=0.35, line_width=0.4,
        legend_label="terrain hexes", name="layer:terrain",
    )  # fmt: skip
    name_of = CustomJSHover(args={"names": classes}, code="return names[value] ?? ''")
    ids, width = tables["hex_ids"]
    id_of = CustomJSHover(
        args={"ids": ids, "width": width},
        code="const i = special_vars.index; return ids.substr(i * width, width).trim();",
    )
    fig.add_tools(
        HoverTool(
            renderers=[renderer],
            tooltips=[("hex", "$index{hexid}"), ("terrain", "@code{custom}")],
            formatters={"@code": name_of, "$index": id_of},
            # Left of the pointer, so that a unit's tooltip (to its right) never covers it.
            attachment="left",
        )
    )


def _tables(system: str | None) -> dict[str, Any]:
    """Return the columns of the basemap's layers (``system`` None) or of a grid's terrain hexes.

    They depend on the map data alone, so a kernel derives them once (kept in memory) and a new kernel
    reads them from the disk cache (:func:`normandy_lab.terrain.derived.derived`): the explorer's first
    opening in a kernel used to spend a large part of its time here (issue 33, section 4).
    """
    if system is None:
        return derived("basemap", _geography_tables, repr(DISPLAY_TOLERANCE_DEG))
    colours = repr(sorted(terrain_colours(system).items()))  # a game's own colours may come from outside
    return derived("basemap_hexes", lambda: _hex_tables(system), system, map_key(system), colours)


def _hex_tables(system: str) -> dict[str, Any]:
    columns, classes, palette = terrain_columns(system, terrain_colours(system))
    return {"hexes": columns, "hex_classes": classes, "hex_palette": palette, "hex_ids": packed_ids(system)}


def _geography_tables() -> dict[str, Any]:
    """Derive every geography layer's columns (Web Mercator, simplified for display), by source name."""
    tables: dict[str, Any] = {"land": land_source_data(simplify_deg=DISPLAY_TOLERANCE_DEG)}
    cover = geography.layer("landcover")
    for cls in _LANDCOVER_STYLE:
        part = cover[cover["class"] == cls]
        if len(part):
            tables[f"landcover_{cls}"] = _polygons(part)
    for name in ("wetlands", "builtup"):
        frame = geography.layer(name)
        if len(frame):
            tables[name] = _polygons(frame)
    rivers = geography.layer("rivers")
    if len(rivers):
        tables["rivers"] = _lines(rivers, width=[_RIVER_WIDTH[c] for c in rivers["class"]])
    roads = geography.layer("roads")
    if len(roads):
        styles = [_ROAD_STYLE[c] for c in roads["class"]]
        tables["roads"] = _lines(roads, colour=[s[0] for s in styles], width=[s[1] for s in styles])
    rails = geography.layer("railways")
    if len(rails):
        tables["railways"] = _lines(rails)
    coast = geography.layer("coast_features")
    lines = coast[coast.geometry.geom_type == "LineString"]
    if len(lines):
        widths = [5.0 if c == "beach" else 3.0 for c in lines["class"]]
        colours = ["#e0b040" if c == "beach" else "#6e2c00" for c in lines["class"]]
        tables["beaches"] = _lines(lines, width=widths, colour=colours)
    points = coast[coast.geometry.geom_type == "Point"]
    if len(points):
        px, py = to_mercator(points.geometry.x.values, points.geometry.y.values)
        tables["coast_points"] = {"x": px, "y": py}
    places = _places_by_rank()
    for rank in (1, 2, 3):
        part = places[places["rank"] == rank]
        x, y = to_mercator(part.geometry.x.values, part.geometry.y.values)
        tables[f"places_rank{rank}"] = {"x": x, "y": y, "name": part["name"].tolist()}
    return tables


def basemap(
    system: str | None = None,
    width: int = 1000,
    height: int = 800,
    extent: tuple[float, float, float, float] | None = None,
    hex_alpha: float = 0.45,
    ranges: tuple[Any, Any] | None = None,
):  # -> bokeh Figure
    """Return a bokeh figure of 1944 Normandy, optionally with ``system``'s terrain hexes.

    Parameters
    ----------
    system
        ``"bfn"``, ``"cobra"``, ``"kg"`` or ``"gts"`` to draw that grid's
        terrain hexes on top (hover: hex id, terrain, hexside features);
        None for the geography alone.
    width, height
        Figure size in pixels.
    extent
        ``(west, south, east, north)`` in degrees; the campaign area by default.
    hex_alpha
        Opacity of the terrain hexes.
    ranges
        Another map's x and y ranges, to pan and zoom with it (side-by-side views).

    Returns
    -------
    bokeh.plotting.figure
        Layers can be hidden by clicking the legend.
    """
    from bokeh.models import ColumnDataSource, CustomJS, LabelSet

    title = "Normandy, 1944" + (f" — {SCHEMES[system].title}" if system else "")
    fig = map_frame(title, extent or geography.AREA, width, height, background="#b7d7ee", ranges=ranges)
    tables = _tables(None)

    def source(name: str) -> Any:
        # A new source per figure over the kept columns (a model belongs to one document).
        return ColumnDataSource(dict(tables[name]), name=name)

    fig.multi_polygons(
        "xs", "ys", source=source("land"), fill_color="#f6f2e4", line_color="#7d7458", line_width=0.6,
        legend_label="land",
    )  # fmt: skip
    for cls, (colour, alpha) in _LANDCOVER_STYLE.items():
        if f"landcover_{cls}" in tables:
            fig.multi_polygons(
                "xs", "ys", source=source(f"landcover_{cls}"), fill_color=colour, fill_alpha=alpha,
                line_alpha=0.0, legend_label="woods" if cls == "forest" else f"{cls} country",
            )  # fmt: skip
    if "wetlands" in tables:
        fig.multi_polygons(
            "xs", "ys", source=source("wetlands"), fill_color="#4f9fc0", fill_alpha=0.35,
            line_color="#2c7fa3", line_alpha=0.6, hatch_pattern="horizontal_line", hatch_color="#2c7fa3",
            hatch_alpha=0.5, hatch_scale=6, legend_label="marsh and inundations",
        )  # fmt: skip
    if "builtup" in tables:
        fig.multi_polygons(
            "xs", "ys", source=source("builtup"), fill_color="#8a7f78", fill_alpha=0.6,
            line_color="#5a524c", line_width=0.5, legend_label="built-up areas",
        )  # fmt: skip
    if "rivers" in tables:
        fig.multi_line(
            "xs", "ys", source=source("rivers"), line_color="#2b7bba", line_width="width",
            legend_label="rivers and canals",
        )  # fmt: skip
    if "roads" in tables:
        fig.multi_line(
            "xs", "ys", source=source("roads"), line_color="colour", line_width="width",
            legend_label="1944 roads",
        )  # fmt: skip
    if "railways" in tables:
        fig.multi_line(
            "xs", "ys", source=source("railways"), line_color="#222222", line_width=1.4,
            line_dash="dashed", legend_label="1944 railways",
        )  # fmt: skip
    if "beaches" in tables:
        fig.multi_line(
            "xs", "ys", source=source("beaches"), line_color="colour", line_width="width",
            legend_label="beaches and sectors",
        )  # fmt: skip
    if "coast_points" in tables:
        fig.scatter(
            "x", "y", source=source("coast_points"), marker="triangle", size=7, color="#6e2c00",
            legend_label="draws, exits, harbours",
        )  # fmt: skip
    if system is not None:
        _terrain_hexes(fig, system, hex_alpha)
    label_sets = []
    for rank, size in ((1, "10pt"), (2, "9pt"), (3, "8pt")):
        places = source(f"places_rank{rank}")
        fig.scatter("x", "y", source=places, size=6 - rank, color="#222222", visible=rank == 1)
        labels = LabelSet(
            x="x",
            y="y",
            text="name",
            source=places,
            x_offset=3,
            y_offset=2,
            text_font_size=size,
            visible=rank == 1,
        )
        fig.add_layout(labels)
        label_sets.append((labels, fig.renderers[-1]))
    # Labels thin out as the view zooms out (works without a kernel).
    thin = CustomJS(
        args={
            "xr": fig.x_range,
            "towns": label_sets[1][0],
            "villages": label_sets[2][0],
            "town_dots": label_sets[1][1],
            "village_dots": label_sets[2][1],
        },
        code="""
            const span = xr.end - xr.start;
            towns.visible = span < 160000; town_dots.visible = towns.visible;
            villages.visible = span < 50000; village_dots.visible = villages.visible;
        """,
    )
    fig.x_range.js_on_change("start", thin)
    fig.x_range.js_on_change("end", thin)
    fig.legend.click_policy = "hide"
    fig.legend.label_text_font_size = "8pt"
    fig.legend.background_fill_alpha = 0.7
    # The key beside the map, not on it: inside, it covered the names under it (Hérouville on the Caen
    # map, ux-2).  The explorer moves it under the map (views.situation).
    legend = fig.legend[0]
    if legend in fig.center:
        fig.center.remove(legend)
    fig.add_layout(legend, "right")
    return fig


def slim(fig: Any) -> None:
    """Leave out of a map's document the models BokehJS would never use or can share (issue 33, section 4).

    The page builds every model of the document before it draws the map, and the kernel serialises each
    one, so the opening pays for each: the explorer's map had ~540.  Called once the map's layers are
    drawn; four kinds go without changing a pixel:

    - each renderer's *non-selection* and *muted* glyphs (bokeh's plotting interface makes both for every
      renderer): the map has no selection tool and its key hides layers rather than mutes them, so the
      browser's own defaults (``"auto"``) are never drawn either;
    - the hex layers' radius and angle transforms: every ``Ngon`` over the terrain source computes them
      alike (:func:`normandy_lab.views.hexcells.ngon_specs`), so all use the terrain's;
    - the key's swatches' data: each swatch (``views.situation``) holds one row of NaN in a source of its
      own, three models each; one such source serves them all;
    - the views' "all rows" filter, one per renderer: it holds nothing, so one serves every view;
    - a **folded key** (a legend made invisible before this call: the explorer's starts folded, the
      side-by-side view's is hidden): the legend, its entries and the swatch renderers only it shows are
      kept aside (:func:`fold_keys`) and put back by :func:`show_key` when it is opened; folded, the page
      still built them all (about 80 models).
    """
    import math

    from bokeh.models import AllIndices, ColumnDataSource, GlyphRenderer, Ngon

    renderers = [r for r in fig.renderers if isinstance(r, GlyphRenderer)]
    terrain = next((r.glyph for r in renderers if str(r.name).endswith("layer:terrain")), None)
    nothing = None
    every_row = AllIndices()
    for renderer in renderers:
        if isinstance(renderer.view.filter, AllIndices):
            renderer.view.filter = every_row
        renderer.nonselection_glyph = "auto"
        renderer.muted_glyph = "auto"
        glyph = renderer.glyph
        if terrain is not None and isinstance(glyph, Ngon) and glyph is not terrain:
            glyph.radius, glyph.angle = terrain.radius, terrain.angle
        data = renderer.data_source.data
        if renderer.name is None and renderer.data_source.name is None and set(data) == {"x", "y"} and all(
            isinstance(v, float) and math.isnan(v) for column in data.values() for v in column
        ):
            nothing = nothing or ColumnDataSource({"x": [math.nan] * 2, "y": [math.nan] * 2})
            renderer.data_source = nothing
    fold_keys(fig)


#: A figure's folded key: its legend, the side panel it sat in and where, its entries and the swatch renderers
#: only it shows (:func:`fold_keys`, :func:`show_key`).
_FOLDED: weakref.WeakKeyDictionary[Any, tuple[Any, str, int, list, list]] = weakref.WeakKeyDictionary()


def fold_keys(fig: Any) -> None:
    """Take ``fig``'s first legend out of its document while it is invisible, until :func:`show_key`.

    The legend leaves its side panel, its entries leave the legend, and a swatch renderer (one row of NaN,
    no name: ``views.situation``'s legend proxies) that only the key lists leaves the figure's renderers;
    none of them draws anything while the key is folded.  Measured in a standalone page, the invisible
    legend's view alone cost 150-270 ms of an opening, its entries nothing the noise showed.
    """
    from bokeh.models import GlyphRenderer

    legends = list(fig.legend)
    if not legends or fig in _FOLDED:
        return
    legend = legends[0]
    if legend.visible or not legend.items:
        return
    side, panel = next((name, getattr(fig, name)) for name in PANELS if legend in getattr(fig, name))
    listed = {id(r) for item in legend.items for r in item.renderers}
    swatches = [
        r for r in fig.renderers
        if isinstance(r, GlyphRenderer) and id(r) in listed and r.name is None
        and r.data_source.name is None and _only_nan(r.data_source.data)
    ]  # fmt: skip
    _FOLDED[fig] = (legend, side, panel.index(legend), list(legend.items), swatches)
    setattr(fig, side, [m for m in panel if m is not legend])
    legend.items = []
    kept = {id(r) for r in swatches}
    fig.renderers = [r for r in fig.renderers if id(r) not in kept]


#: The figure's side panels, where a legend may sit.
PANELS = ("below", "right", "center", "above", "left")


def show_key(fig: Any, shown: bool) -> None:
    """Show or fold the key of ``fig`` (its first legend), putting back what :func:`fold_keys` kept aside.

    The legend goes back where it was, its entries as they were, the swatch renderers after the map's
    other renderers, where they were made.  Once put back they stay: folding again only hides the key.
    """
    if shown and fig in _FOLDED:
        legend, side, index, items, swatches = _FOLDED.pop(fig)
        legend.items = items
        fig.renderers = [*fig.renderers, *swatches]
        panel = list(getattr(fig, side))
        panel.insert(min(index, len(panel)), legend)
        legend.visible = True
        setattr(fig, side, panel)
        return
    if fig.legend:
        fig.legend[0].visible = shown


def _only_nan(data: Any) -> bool:
    """Tell whether a source's columns hold nothing but NaN (a legend swatch's row)."""
    import math

    return bool(data) and all(
        isinstance(v, float) and math.isnan(v) for column in data.values() for v in column
    )
