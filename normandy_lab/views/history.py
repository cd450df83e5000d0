"""Maps of the historical record: the lodgement and front lines by date.

The column builders turn shapely geometries (lon/lat) into Web Mercator
columns for bokeh's ``multi_polygons`` and ``multi_line`` glyphs; they serve
the tour's date slider and the explorer's historical front-line layer.
:func:`history_map` draws one date as a static figure (used by
``scripts/render_history.py`` to check digitised records).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from normandy_lab.views.mapview import land_source_data, map_frame, places_source_data, to_mercator

ALLIED_FILL = "#4f7fbf"
FRONT_COLOUR = "#c0392b"
SIDE_COLOURS = {"allied": "#1f4e9c", "german": "#7a1f1f", "contested": "#d4a017"}


def polygon_columns(geometry: Any) -> dict[str, list]:
    """Return ``multi_polygons`` columns (``xs``, ``ys``), one row per polygon of ``geometry``."""
    xs, ys = [], []
    if geometry is None or geometry.is_empty:
        return {"xs": xs, "ys": ys}
    for polygon in getattr(geometry, "geoms", [geometry]):
        if polygon.geom_type != "Polygon" or polygon.is_empty:
            continue
        rings_x, rings_y = [], []
        for ring in [polygon.exterior, *polygon.interiors]:
            lon, lat = np.asarray(ring.coords).T
            mx, my = to_mercator(lon, lat)
            # Lists (one JSON message per update), to 0.1 m: full doubles would double the bytes.
            rings_x.append(np.round(mx, 1).tolist())
            rings_y.append(np.round(my, 1).tolist())
        xs.append([rings_x])
        ys.append([rings_y])
    return {"xs": xs, "ys": ys}


def line_columns(geometry: Any) -> dict[str, list]:
    """Return ``multi_line`` columns (``xs``, ``ys``), one row per line of ``geometry``."""
    xs, ys = [], []
    if geometry is None or geometry.is_empty:
        return {"xs": xs, "ys": ys}
    for line in getattr(geometry, "geoms", [geometry]):
        if line.is_empty or line.geom_type not in ("LineString", "LinearRing"):
            continue
        lon, lat = np.asarray(line.coords).T
        mx, my = to_mercator(lon, lat)
        xs.append(np.round(mx, 1).tolist())
        ys.append(np.round(my, 1).tolist())
    return {"xs": xs, "ys": ys}


def add_place_labels(fig: Any, colour: str = "#444444", y_offset: int = 3) -> None:
    """Draw the key places (:data:`~normandy_lab.views.mapview.LABELLED_PLACES`) as dots with names."""
    from bokeh.models import ColumnDataSource, LabelSet

    places = ColumnDataSource(places_source_data())
    fig.scatter("x", "y", source=places, color=colour, size=4)
    fig.add_layout(
        # On a pale box: a name stays legible where a division's square or a fill lies under it (ux-2).
        LabelSet(x="x", y="y", text="name", source=places, text_font_size="8pt", text_color=colour,
                 x_offset=3, y_offset=y_offset, background_fill_color="#ffffff", background_fill_alpha=0.7)
    )  # fmt: skip


def history_map(
    date: Any,
    extent: tuple[float, float, float, float] | None = None,
    files: Sequence[str | Path] | None = None,
    fact_files: Sequence[str | Path] | None = None,
    width: int = 1000,
    height: int = 800,
):  # -> bokeh Figure
    """Draw the Allied-held ground, the front line and the dated facts of one date.

    Parameters
    ----------
    date
        The date; the record in force on it is drawn.
    extent
        ``(west, south, east, north)``; default: the lodgement's bounds plus a margin.
    files, fact_files
        Lodgement and fact files to draw instead of the project's record.
    """
    from bokeh.models import ColumnDataSource, LabelSet

    from normandy_lab import history

    record = history.record(date, files)
    if extent is None:
        west, south, east, north = record.geometry.bounds
        margin = max(east - west, north - south) * 0.12 + 0.05
        extent = (west - margin, south - margin, east + margin, north + margin)
    title = (
        f"Allied-held ground, {record.date:%d %B %Y} ({record.time}); line good to ~{record.accuracy_km:g} km"
    )
    fig = map_frame(title, extent, width, height, background="#dbe9f4")
    fig.multi_polygons(
        source=ColumnDataSource(land_source_data()), fill_color="#f3efe4", line_color="#9c8f7a"
    )
    fig.multi_polygons(
        source=ColumnDataSource(polygon_columns(record.geometry)),
        fill_color=ALLIED_FILL, fill_alpha=0.35, line_color=ALLIED_FILL, line_alpha=0.6,
    )  # fmt: skip
    fig.multi_line(
        source=ColumnDataSource(line_columns(record.front)), line_color=FRONT_COLOUR, line_width=2.5
    )
    add_place_labels(fig, colour="#555555", y_offset=-12)
    table = history.facts(fact_files) if fact_files is not None or history.facts_available() else None
    if table is not None and len(table):
        shown = table[table["date"] == record.date]
        x, y = to_mercator(shown["lon"].to_numpy(), shown["lat"].to_numpy())
        source = ColumnDataSource(
            {"x": list(x), "y": list(y), "name": shown["place"].tolist(),
             "colour": [SIDE_COLOURS[s] for s in shown["side"]]}
        )  # fmt: skip
        fig.scatter("x", "y", source=source, color="colour", size=8, marker="circle")
        fig.add_layout(LabelSet(x="x", y="y", text="name", source=source, text_font_size="9pt", x_offset=5))
    return fig
