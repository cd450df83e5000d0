"""Geography layers of 1944 Normandy, loaded from ``maps/``.

``layer(name)`` returns a GeoDataFrame in EPSG:4326.  Every layer's sources,
licence and accuracy are in ``maps/README.md``.

Two kinds of data:

* extracts from registry packages, made by scripts in ``scripts/``:
  ``land`` (GSHHG full resolution);
* hand-digitised features in ``maps/geography/*.yaml``, each with a
  ``source`` and an ``accuracy_m``.  Their geometry is a list of points, each
  either ``[lon, lat]`` or the name of a gazetteer place, so that the same
  town is the same point in every layer.  Lines are densified so that no two
  vertices are more than :data:`MAX_VERTEX_SPACING_M` apart.

Layers: ``land``, ``sea``, ``places``, ``rivers``, ``wetlands``, ``roads``,
``railways``, ``builtup``, ``landcover``, ``heights``, ``coast_features``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import yaml

from normandy_lab import yamllines
from normandy_lab.errors import FileRefusedError, UnknownNameError
from normandy_lab.geo import gazetteer
from normandy_lab.geo.crs import lonlat_to_metric, metric_to_lonlat
from normandy_lab.paths import map_file

if TYPE_CHECKING:  # for annotations only: these load when a frame is asked for
    import geopandas

AREA = (-2.0, 48.3, 0.6, 49.8)
"""The campaign area, ``(west, south, east, north)`` in degrees."""

DATA_BOUNDS = (-2.6, 48.0, 1.2, 50.1)
"""Where the data layers are complete: the area with a margin for every grid."""

MAX_VERTEX_SPACING_M = 500.0
"""Lines are densified so that consecutive vertices are at most this far apart."""

# What each hand-digitised file may contain: its geometry key and classes.
HAND_LAYERS: dict[str, dict[str, Any]] = {
    "rivers": {
        "file": "rivers.yaml",
        "geometry": "path",
        "classes": ("major_river", "river", "stream", "canal"),
    },
    "wetlands": {"file": "wetlands.yaml", "geometry": "ring", "classes": ("inundation", "marsh")},
    "roads": {"file": "roads_1944.yaml", "geometry": "path", "classes": ("highway", "primary", "secondary")},
    "railways": {"file": "railways_1944.yaml", "geometry": "path", "classes": ("main_line", "branch_line")},
    "builtup": {"file": "builtup.yaml", "geometry": "ring", "classes": ("city", "town", "village")},
    "landcover": {"file": "landcover.yaml", "geometry": "ring", "classes": ("bocage", "open", "forest")},
    "heights": {"file": "heights.yaml", "geometry": "point", "classes": ("height",)},
    "coast_features": {
        "file": "invasion_coast.yaml",
        "geometry": None,  # per class: path, point or ring
        "classes": ("beach", "sector", "landing", "draw", "exit", "mulberry"),
    },
}
_REQUIRED = ("name", "class", "source", "accuracy_m")


class GeographyDataError(FileRefusedError):
    """A malformed geography file: the message names the file, entry and field."""


def _resolve_point(path: Path, where: str, item: Any) -> tuple[float, float]:
    if isinstance(item, str):
        try:
            return gazetteer.lookup(item)
        except KeyError as exc:
            raise GeographyDataError(f"{path}: {where}: {exc}") from None
    if (
        isinstance(item, list | tuple)
        and len(item) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in item)
    ):
        lon, lat = float(item[0]), float(item[1])
        west, south, east, north = DATA_BOUNDS
        if not (west <= lon <= east and south <= lat <= north):
            raise GeographyDataError(
                f"{path}: {where}: point [{lon}, {lat}] is outside the data area "
                f"(lon {west}..{east}, lat {south}..{north}); check for swapped lon/lat"
            )
        return lon, lat
    raise GeographyDataError(f"{path}: {where}: a point must be [lon, lat] or a gazetteer name, got {item!r}")


def densify_lonlat(coords: np.ndarray, max_spacing_m: float = MAX_VERTEX_SPACING_M) -> np.ndarray:
    """Insert vertices so that consecutive ones are at most ``max_spacing_m`` apart.

    The spacing is measured in Lambert-93; new vertices lie on the straight
    segment between the original ones (in that projection).
    """
    x, y = lonlat_to_metric(coords[:, 0], coords[:, 1])
    out_x, out_y = [x[0]], [y[0]]
    for i in range(1, len(x)):
        length = float(np.hypot(x[i] - x[i - 1], y[i] - y[i - 1]))
        pieces = max(1, int(np.ceil(length / max_spacing_m)))
        t = np.arange(1, pieces + 1) / pieces
        out_x.extend(x[i - 1] + (x[i] - x[i - 1]) * t)
        out_y.extend(y[i - 1] + (y[i] - y[i - 1]) * t)
    lon, lat = metric_to_lonlat(np.array(out_x), np.array(out_y))
    return np.column_stack([lon, lat])


def _geometry(path: Path, where: str, key: str, value: Any) -> Any:  # a shapely geometry
    import shapely

    if key == "point":
        return shapely.Point(_resolve_point(path, where, value))
    if not isinstance(value, list) or len(value) < (3 if key == "ring" else 2):
        need = "three" if key == "ring" else "two"
        raise GeographyDataError(f"{path}: {where}: field {key!r} needs a list of at least {need} points")
    coords = np.array(
        [_resolve_point(path, f"{where}, {key} point {i + 1}", item) for i, item in enumerate(value)]
    )
    if key == "path":
        return shapely.LineString(densify_lonlat(coords))
    ring = np.vstack([coords, coords[:1]])
    polygon = shapely.Polygon(densify_lonlat(ring))
    if not polygon.is_valid:
        reason = shapely.is_valid_reason(polygon)
        raise GeographyDataError(
            f"{path}: {where}: field 'ring' makes an invalid polygon ({reason}); "
            "reorder the points so that the boundary does not cross itself"
        )
    return polygon


def _load_hand_layer(name: str) -> geopandas.GeoDataFrame:
    import geopandas as gpd

    spec = HAND_LAYERS[name]
    path = map_file("geography", spec["file"])
    try:
        with open(path, encoding="utf-8") as handle:
            entries = yamllines.safe_load(handle) or []
    except yaml.YAMLError as exc:
        raise GeographyDataError(f"{path}: not valid YAML: {exc}") from exc
    if not isinstance(entries, list):
        raise GeographyDataError(f"{path}: expected a YAML list of features")
    rows: list[dict[str, Any]] = []
    for index, entry in enumerate(entries, start=1):
        where = f"entry {index}"
        if not isinstance(entry, dict):
            raise GeographyDataError(f"{path}: {where}: expected a mapping, got {entry!r}")
        if "name" in entry:
            where = f"entry {index} ({entry['name']!r})"
        for key in _REQUIRED:
            if key not in entry or entry[key] in (None, ""):
                raise GeographyDataError(f"{path}: {where}: missing field {key!r}")
        if entry["class"] not in spec["classes"]:
            raise GeographyDataError(
                f"{path}: {where}: field 'class' is {entry['class']!r}; "
                f"expected one of {', '.join(spec['classes'])}"
            )
        keys = [k for k in ("path", "ring", "point") if k in entry]
        wanted = spec["geometry"]
        if wanted is not None and keys != [wanted]:
            raise GeographyDataError(f"{path}: {where}: needs exactly one geometry field, {wanted!r}")
        if wanted is None and len(keys) != 1:
            raise GeographyDataError(f"{path}: {where}: needs exactly one of 'path', 'ring' or 'point'")
        key = keys[0]
        row = {k: v for k, v in entry.items() if k not in ("path", "ring", "point")}
        row["geometry"] = _geometry(path, where, key, entry[key])
        rows.append(row)
    frame = gpd.GeoDataFrame(rows, geometry="geometry", crs="EPSG:4326")
    for column in frame.columns:
        if column != "geometry" and frame[column].map(lambda v: isinstance(v, list | dict)).any():
            frame[column] = frame[column].map(lambda v: "|".join(map(str, v)) if isinstance(v, list) else v)
    return frame


def _land() -> geopandas.GeoDataFrame:
    import geopandas as gpd

    frame = gpd.read_file(map_file("coast", "gshhg_land.geojson"))
    return frame.set_crs("EPSG:4326", allow_override=True)


def _sea() -> geopandas.GeoDataFrame:
    import geopandas as gpd
    import shapely

    land = shapely.union_all(_cached("land").geometry.values)
    sea = shapely.box(*DATA_BOUNDS).difference(land)
    return gpd.GeoDataFrame({"kind": ["sea"]}, geometry=[sea], crs="EPSG:4326")


def _hand_layer(name: str) -> Callable[[], geopandas.GeoDataFrame]:
    """Return a loader of one hand-drawn layer (a function per name, as the table below holds)."""
    return lambda: _load_hand_layer(name)


_LAYERS: dict[str, Callable[[], geopandas.GeoDataFrame]] = {
    "land": _land,
    "sea": _sea,
    "places": gazetteer.places,
    **{name: _hand_layer(name) for name in HAND_LAYERS},
}


def layer_names() -> list[str]:
    """Return the names of the available layers."""
    return sorted(_LAYERS)


@cache
def _cached(name: str) -> geopandas.GeoDataFrame:
    return _LAYERS[name]()


def layer(name: str) -> geopandas.GeoDataFrame:
    """Return a geography layer as a GeoDataFrame in EPSG:4326 (a copy: edit freely).

    Raises
    ------
    KeyError
        When ``name`` is not a layer; the message lists the layers.
    GeographyDataError
        When its file is malformed; the message names the file, entry and field.
    """
    if name not in _LAYERS:
        raise UnknownNameError(f"unknown geography layer {name!r}; available: {', '.join(layer_names())}")
    return _cached(name).copy()


def input_files() -> list[Path]:
    """Return every data file the layers are built from (for cache keys)."""
    files = [map_file("coast", "gshhg_land.geojson")]
    files += [
        map_file("gazetteer", f) for f in ("geonames_normandy.csv", "names_1944.yaml", *gazetteer.HAND_FILES)
    ]
    files += [map_file("geography", spec["file"]) for spec in HAND_LAYERS.values()]
    return files


def clear_cache() -> None:
    """Forget loaded layers (after editing a data file)."""
    _cached.cache_clear()
    gazetteer.clear_cache()
