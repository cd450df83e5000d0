"""Hex cells drawn the cheap way: one ``ngon`` per hex from four numbers, shared by every hex layer.

A grid's hexes are regular hexagons in Lambert-93, and both Lambert-93 and
Web Mercator are conformal, so each hex is also a regular hexagon in Web
Mercator to within 0.3 % (checked in the tests).  Its circumradius grows
with the Mercator scale, linearly in y over Normandy, and its rotation with
the meridian convergence, linearly in x (both to within 0.25 m, checked in
the tests).  A hex is therefore sent to the browser as its centre alone (two
float32 numbers, through bokeh's binary array encoding) and a terrain code
(one byte); BokehJS computes the radius and angle with two linear
transforms and draws the hex with its ``Ngon`` glyph.  The hex ids travel as
one packed string that the hover reads (a JSON list of 14,130 ids would cost
twice as much).

Every per-hex layer of the explorer (zones of control, supply ranges,
movement range, interdicted hexes) is then a second renderer on the *same*
terrain source with an ``IndexFilter``: changing a layer sends the browser a
list of hex indices, never geometry, and each renderer has one fill colour
(no per-row visual properties, which make BokehJS build an object per glyph).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import shapely

from normandy_lab.grids import grid
from normandy_lab.views.mapview import to_mercator

#: Name of the terrain hexes' data source in a basemap (the source every hex layer shares).
TERRAIN_SOURCE = "hexes"


@lru_cache(maxsize=4)
def cell_geometry(system: str) -> dict[str, np.ndarray]:
    """Return the Web Mercator centre, circumradius and ngon angle of every hex, in grid order.

    ``angle`` is in BokehJS's ngon convention (radians; vertex ``i`` lies at
    ``x + r sin(angle + i π/3)``, ``y + r cos(angle + i π/3)`` in data space).  Kept on disk
    (:func:`normandy_lab.terrain.derived.derived`): a first map in a kernel need not place every hex again.
    """
    from normandy_lab.terrain.derived import derived, map_key

    return derived("hex_cells", lambda: _cell_geometry(system), system, map_key(system))


def _cell_geometry(system: str) -> dict[str, np.ndarray]:
    frame = grid(system).to_geodataframe()
    corners = shapely.get_coordinates(frame.geometry.values).reshape(len(frame), -1, 2)[:, :6]
    mx, my = to_mercator(corners[..., 0], corners[..., 1])
    cx, cy = mx.mean(axis=1), my.mean(axis=1)
    radius = np.hypot(mx - cx[:, None], my - cy[:, None]).mean(axis=1)
    # The data-space angle of the first corner, theta, is pi/2 - angle in BokehJS's terms.
    theta = np.arctan2(my[:, 0] - cy, mx[:, 0] - cx)
    angle = np.mod(np.pi / 2 - theta, np.pi / 3)
    return {
        "x": cx.astype(np.float32),
        "y": cy.astype(np.float32),
        "radius": radius.astype(np.float32),
        "angle": angle.astype(np.float32),
    }


def sheet_outlines(system: str) -> dict[str, tuple[list[float], list[float]]]:
    """Return the Web Mercator outline of each map sheet (its largest piece), for drawing.

    The union of a sheet's hexes takes about half a second on the campaign map, and a sheet never changes:
    kept on disk like :func:`cell_geometry`, so a first map in a kernel does not union them again.
    """
    from normandy_lab.terrain.derived import derived, map_key

    return derived("sheet_outlines", lambda: _sheet_outlines(system), system, map_key(system))


def _sheet_outlines(system: str) -> dict[str, tuple[list[float], list[float]]]:
    frame = grid(system).to_geodataframe()
    outlines = {}
    for sheet, part in frame.groupby("sheet"):
        shape = shapely.union_all(part.geometry.values)
        # A sheet is one block of hexes; keep its largest piece if the union splits.
        polygon = max(getattr(shape, "geoms", [shape]), key=lambda p: p.area)
        coords = np.asarray(polygon.exterior.coords)
        mx, my = to_mercator(coords[:, 0], coords[:, 1])
        outlines[str(sheet)] = (np.round(mx, 1).tolist(), np.round(my, 1).tolist())
    return outlines


@lru_cache(maxsize=4)
def cell_model(system: str) -> dict[str, tuple[float, float]]:
    """Return the linear models the browser uses: radius = a + b·y, angle = a + b·x (Web Mercator).

    Fitted by least squares to :func:`cell_geometry`; the tests check every
    hex's drawn corners against the grid's own polygon.
    """
    geometry = cell_geometry(system)
    x, y = geometry["x"].astype(float), geometry["y"].astype(float)
    radius = np.polyfit(y, geometry["radius"].astype(float), 1)
    angle = np.polyfit(x, geometry["angle"].astype(float), 1)
    return {"radius": (float(radius[1]), float(radius[0])), "angle": (float(angle[1]), float(angle[0]))}


def modelled_geometry(system: str) -> dict[str, np.ndarray]:
    """Return centres with the radius and angle of :func:`cell_model`: exactly what the browser draws."""
    geometry = cell_geometry(system)
    model = cell_model(system)
    x, y = geometry["x"].astype(float), geometry["y"].astype(float)
    return {
        "x": x,
        "y": y,
        "radius": model["radius"][0] + model["radius"][1] * y,
        "angle": model["angle"][0] + model["angle"][1] * x,
    }


def ngon_specs(system: str) -> dict[str, Any]:
    """Return an ngon glyph's ``radius`` and ``angle`` over a terrain source (browser-side transforms)."""
    from bokeh.models import CustomJSTransform

    specs = {}
    for name, column in (("radius", "y"), ("angle", "x")):
        a, b = cell_model(system)[name]
        transform = CustomJSTransform(args={"a": a, "b": b}, v_func=NGON_TRANSFORM_JS)
        specs[name] = {"field": column, "transform": transform}
    return specs


#: The radius or angle of every hex from its centre's y or x (``a + b * v``).  Every hex layer is a filtered
#: view of the one terrain source, and BokehJS transforms the whole column again whenever a layer's filter
#: changes (a move changes two layers): the result is kept per column and model, in the page, for as long as
#: the column lives (the terrain's columns never change).
NGON_TRANSFORM_JS = """
const kept = (globalThis.__nl_ngon_transforms ??= new Map());
const key = `${a} ${b}`;
let by_column = kept.get(key);
if (by_column === undefined) {
    by_column = new WeakMap();
    kept.set(key, by_column);
}
let out = by_column.get(xs);
if (out === undefined) {
    out = Float64Array.from(xs, (v) => a + b * v);
    by_column.set(xs, out);
}
return out;
"""


def packed_ids(system: str) -> tuple[str, int]:
    """Return every hex id in grid order as one string of fixed-width fields, and the width."""
    ids = [str(h) for h in grid(system).ids()]
    width = max(len(h) for h in ids)
    return "".join(h.ljust(width) for h in ids), width


def ngon_corners(geometry: dict[str, np.ndarray], i: int) -> np.ndarray:
    """Return the six corners (x, y) that BokehJS draws for hex ``i`` of :func:`cell_geometry`."""
    alpha = geometry["angle"][i] + np.arange(6) * np.pi / 3
    x = geometry["x"][i] + geometry["radius"][i] * np.sin(alpha)
    y = geometry["y"][i] + geometry["radius"][i] * np.cos(alpha)
    return np.column_stack([x, y])


def terrain_columns(system: str, colours: dict[str, str]) -> tuple[dict[str, Any], list[str], list[str]]:
    """Return the terrain source's columns, and the class names and palette its ``code`` indexes.

    A hex's class is its terrain, or its settlement where it has one (so a
    town hex is drawn as a town); ``code`` is a uint8 index into the classes.
    """
    from normandy_lab.terrain import terrain_map

    hexes = terrain_map(system, progress=False).hexes
    terrain = hexes["terrain"].astype(str).to_numpy()
    settlement = hexes["settlement"].astype(str).to_numpy()
    sea = np.isin(terrain, ["Sea", "All Sea", "Impassable"])
    label = np.where((settlement != "") & ~sea, settlement, terrain)
    shown = np.where((settlement != "") & ~sea, np.char.add(np.char.add(terrain, ", "), settlement), terrain)
    classes, code = np.unique(shown, return_inverse=True)
    first = {name: label[np.argmax(shown == name)] for name in classes}
    palette = [colours.get(first[name], "#cccccc") for name in classes]
    geometry = cell_geometry(system)
    columns: dict[str, Any] = {"x": geometry["x"], "y": geometry["y"], "code": code.astype(np.uint8)}
    return columns, [str(c) for c in classes], palette
