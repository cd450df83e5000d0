"""A map of Normandy with a rule system's hex grid over it.

Everything is drawn in Web Mercator (EPSG:3857) from the project's own
vector layers: no tile server is reachable offline.  Each layer is one bokeh
``ColumnDataSource``; changing the grid replaces whole columns at once.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

import numpy as np
from pyproj import Transformer

from normandy_lab.geo import geography
from normandy_lab.grids import grid
from normandy_lab.grids.numbering import SCHEMES, SYSTEMS, map_keys

# One colour per sheet letter, so that the sheets of a map can be told apart.
_SHEET_COLOURS = {
    "A": "#1f77b4",
    "B": "#d62728",
    "C": "#2ca02c",
    "D": "#9467bd",
    "E": "#8c564b",
    "F": "#e377c2",
    "G": "#17becf",
    "N": "#1f77b4",
    "W": "#d62728",
    "": "#1f77b4",
}

# The places labelled on the overview map: the towns that matter in all
# four rule systems (supply cities, beaches' towns, the objectives).
LABELLED_PLACES = (
    "Cherbourg",
    "Valognes",
    "Sainte-Mère-Église",
    "Carentan",
    "Isigny-sur-Mer",
    "Bayeux",
    "Caen",
    "Saint-Lô",
    "Coutances",
    "Avranches",
    "Vire",
    "Falaise",
    "Argentan",
    "Flers",
    "Mortain",
    "Villers-Bocage",
    "Lisieux",
    "Alençon",
    "Granville",
    "Periers",
    "Lessay",
)


@lru_cache(maxsize=2)
def _mercator() -> Transformer:
    return Transformer.from_crs("EPSG:4326", "EPSG:3857", always_xy=True)


def to_mercator(lon: Any, lat: Any) -> tuple[np.ndarray, np.ndarray]:
    """Project longitudes and latitudes to Web Mercator metres."""
    x, y = _mercator().transform(np.asarray(lon, float), np.asarray(lat, float))
    return np.asarray(x), np.asarray(y)


def from_mercator(x: Any, y: Any) -> tuple[np.ndarray, np.ndarray]:
    """Return the longitudes and latitudes of Web Mercator points."""
    lon, lat = _mercator().transform(np.asarray(x, float), np.asarray(y, float), direction="INVERSE")
    return np.asarray(lon), np.asarray(lat)


_LOADED_BUNDLES: set[str] = set()


@contextmanager
def collection_after_the_cell() -> Iterator[None]:
    """Hold Python's cyclic garbage collector while a map is built; in a kernel, let it run once idle.

    Building a map makes tens of thousands of objects that live on (bokeh's models), and every few
    openings they set off a full collection of the kernel's heap (hundreds of thousands of objects of
    terrain, rules and tables): 0.2-0.6 s of CPU in the middle of an opening, the largest part of how much
    two warm openings differed (issue 33, section 4).  In a kernel (an event loop running) the collector
    is switched on again by a callback of the loop, once the cell has sent the map, so a collection that
    falls due runs while the page builds the map; with no loop (a script, the tests) at the block's end.
    A collector the caller had switched off stays off.
    """
    import asyncio
    import gc

    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        try:
            asyncio.get_running_loop().call_soon(gc.enable)
        except RuntimeError:
            gc.enable()


def show_inline(widgets: bool = False, force: bool = False) -> None:
    """Load BokehJS into the notebook from the installed package (no CDN), and keep it out of the file.

    Only the core bundle is loaded (1.3 MB), plus bokeh's widget bundle when
    ``widgets`` is true (figures with bokeh sliders or buttons); never the
    MathJax, tables or WebGL bundles (2.3 MB more), which no map here uses.
    The loader runs in the page when its output is shown and is then
    replaced by a one-line note, so a saved notebook does not carry the
    bundle.  A kernel sends each bundle once: later calls (every
    ``explore()``) send nothing unless ``force``.  After reloading the
    browser page, call ``show_inline(force=True)`` before the map cells.
    """
    import bokeh
    import bokeh.io.notebook as bokeh_notebook
    from bokeh.io import output_notebook
    from bokeh.resources import Resources
    from IPython import get_ipython
    from IPython.display import display

    if get_ipython() is None:
        return  # plain Python (a script, the tests): there is no page to load BokehJS into
    if os.environ.get("NORMANDY_LAB_CLASS") == "1":
        return  # a class server's page: its Voilà template loaded BokehJS (views.classroom, docs/class.md)

    # Never fewer bundles than an earlier call of this kernel loaded: figures shown
    # before may need them when the page is re-rendered.
    wanted = {"bokeh", "bokeh-widgets"} if widgets else {"bokeh"}
    if wanted <= _LOADED_BUNDLES and not force:
        return  # this kernel already sent them to the page
    _LOADED_BUNDLES.update(wanted)
    components = [c for c in ("bokeh", "bokeh-widgets") if c in _LOADED_BUNDLES]
    # bokeh publishes its loader straight away; take it, to show it under a display id
    # that can be replaced once shown.
    published: list[dict[str, Any]] = []
    original = bokeh_notebook.publish_display_data
    bokeh_notebook.publish_display_data = lambda data, metadata=None, **_: published.append(data)
    try:
        output_notebook(resources=Resources(mode="inline", components=components), hide_banner=True)
    finally:
        bokeh_notebook.publish_display_data = original
    # Only the JupyterLab form of the loader (rendered by jupyter_bokeh's extension, which the map
    # widgets need anyway): bokeh also publishes a classic-notebook copy, which would double the bytes.
    loader = {key: value for key, value in published[-1].items() if key == bokeh_notebook.LOAD_MIME_TYPE}
    loader["text/plain"] = "Loading BokehJS..."
    handle = display(loader, raw=True, display_id=True)
    note = f"BokehJS {bokeh.__version__} ({', '.join(components)}) loaded from the installed package"
    if handle is not None:
        handle.update({"text/plain": note, "text/html": f"<small>{note}</small>"}, raw=True)


@lru_cache(maxsize=2)
def land_source_data(simplify_deg: float = 0.0) -> dict[str, list]:
    """Return ``multi_polygons`` columns (``xs``, ``ys``) of the GSHHG land layer.

    ``simplify_deg`` simplifies the coast for display (degrees); the coordinates are float32.
    """
    land = geography.layer("land")
    xs, ys = [], []
    for geometry in land.geometry:
        if simplify_deg:
            geometry = geometry.simplify(simplify_deg, preserve_topology=True)
        for polygon in getattr(geometry, "geoms", [geometry]):
            rings_x, rings_y = [], []
            for ring in [polygon.exterior, *polygon.interiors]:
                lon, lat = np.asarray(ring.coords).T
                mx, my = to_mercator(lon, lat)
                rings_x.append(mx.astype(np.float32))
                rings_y.append(my.astype(np.float32))
            xs.append([rings_x])
            ys.append([rings_y])
    return {"xs": xs, "ys": ys}


@lru_cache(maxsize=1)
def places_source_data(names: tuple[str, ...] = LABELLED_PLACES) -> dict[str, list]:
    """Return point columns (``x``, ``y``, ``name``) of the labelled places."""
    from normandy_lab.geo import gazetteer

    entries = [gazetteer.place(name) for name in names]
    x, y = to_mercator([p.lon for p in entries], [p.lat for p in entries])
    return {"x": list(x), "y": list(y), "name": [p.name for p in entries]}


@lru_cache(maxsize=len(SYSTEMS))
def grid_source_data(system: str) -> dict[str, list]:
    """Return ``patches`` columns of every hex of a grid: outline, id, sheet, colour."""
    frame = grid(system).to_geodataframe()
    xs, ys = [], []
    for polygon in frame.geometry:
        lon, lat = np.asarray(polygon.exterior.coords).T
        mx, my = to_mercator(lon, lat)
        xs.append(mx)
        ys.append(my)
    sheets = frame["sheet"].tolist()
    return {
        "xs": xs,
        "ys": ys,
        "hex_id": frame["hex_id"].tolist(),
        "sheet": [s or "-" for s in sheets],
        "colour": [_SHEET_COLOURS.get(s, "#444444") for s in sheets],
    }


def _title(system: str) -> str:
    g = grid(system)
    info = g.describe()
    return (
        f"{SCHEMES[system].title} ({system}): {info['hexes']:,} hexes of "
        f"{info['fitted_hex_m'] / 1000:.2f} km, sheets {', '.join(s or '-' for s in info['sheets'])}"
    )


def map_frame(
    title: str,
    extent: tuple[float, float, float, float],
    width: int,
    height: int,
    background: str,
    ranges: tuple[Any, Any] | None = None,
):  # -> bokeh Figure
    """Return an empty Web Mercator figure of ``extent`` (west, south, east, north in degrees).

    Equal scales on both axes, pan and wheel zoom, no grid lines: the frame every map view draws into.
    ``ranges`` (another figure's x and y ranges) makes the new map pan and zoom with that one.
    """
    from bokeh.plotting import figure

    west, south, east, north = extent
    (x0, x1), (y0, y1) = to_mercator([west, east], [south, north])
    x_range, y_range = ranges or ((float(x0), float(x1)), (float(y0), float(y1)))
    fig = figure(
        title=title,
        x_range=x_range,
        y_range=y_range,
        width=width,
        height=height,
        match_aspect=True,
        x_axis_type="mercator",
        y_axis_type="mercator",
        tools="pan,wheel_zoom,box_zoom,reset,save",
        active_scroll="wheel_zoom",
        background_fill_color=background,
        # No level-of-detail decimation: above 2,000 glyphs bokeh draws one in ten while a wheel turns or a
        # drag runs, and a map of thousands of hexes then flashes a sparse frame at every zoom (ux-2).
        lod_threshold=None,
    )
    fig.grid.visible = False
    return fig


def grid_figure(system: str | None = None, width: int = 900, height: int = 700):  # -> bokeh Figure
    """Return a bokeh figure of Normandy (coast and towns) with ``system``'s grid over it.

    The grid is one ``patches`` glyph; the hover shows each hex's printed id
    and sheet.  The figure's grid source is named ``"grid"`` so that a
    caller can swap its columns for another system.  ``system`` defaults to the first map the registry
    knows (the first registered game's: :func:`~normandy_lab.grids.numbering.map_keys`).
    """
    from bokeh.models import ColumnDataSource, HoverTool, LabelSet

    system = system or map_keys()[0]
    fig = map_frame(_title(system), geography.AREA, width, height, background="#cfe3f3")
    land = ColumnDataSource(land_source_data(), name="land")
    fig.multi_polygons("xs", "ys", source=land, fill_color="#f1ecd9", line_color="#8a7f5a", line_width=0.6)
    hexes = ColumnDataSource(grid_source_data(system), name="grid")
    renderer = fig.patches(
        "xs",
        "ys",
        source=hexes,
        fill_alpha=0.0,
        line_color="colour",
        line_alpha=0.55,
        line_width=0.5,
        hover_fill_color="colour",
        hover_fill_alpha=0.35,
    )
    fig.add_tools(HoverTool(renderers=[renderer], tooltips=[("hex", "@hex_id"), ("sheet", "@sheet")]))
    places = ColumnDataSource(places_source_data(), name="places")
    fig.scatter("x", "y", source=places, size=5, color="#222222")
    fig.add_layout(
        LabelSet(x="x", y="y", text="name", source=places, x_offset=4, y_offset=3, text_font_size="9pt")
    )
    return fig


def grid_picker(system: str | None = None):  # -> ipywidgets.VBox
    """Return an ipywidgets application: a dropdown of the registered maps' grids above the map.

    Choosing a grid replaces the whole columns of the figure's grid source
    (one message), and its title.  ``system`` (the grid shown first) defaults to the first map.
    """
    import ipywidgets as widgets
    from jupyter_bokeh.widgets import BokehModel

    system = system or map_keys()[0]
    fig = grid_figure(system)
    source = fig.select_one({"name": "grid"})
    choice = widgets.Dropdown(
        options=[(f"{SCHEMES[s].title} ({s})", s) for s in SYSTEMS],
        value=system,
        description="Grid:",
        layout=widgets.Layout(width="420px"),
    )

    def _switch(change: dict[str, Any]) -> None:
        source.data = grid_source_data(change["new"])
        fig.title.text = _title(change["new"])

    choice.observe(_switch, names="value")
    app = widgets.VBox([choice, BokehModel(fig)])
    app.grid_choice = choice  # exposed for tests and scripting
    app.figure = fig
    return app
