"""The projections: WGS84 longitudes and latitudes to Lambert-93 metres and back.

The grids fit their hexes in Lambert-93 (:mod:`normandy_lab.grids.georef`), and the geography densifies its
lines there (:mod:`normandy_lab.geo.geography`); the helpers live here, below both, so that ``geo`` needs
nothing of ``grids`` (the import contract's layers, ``.importlinter``).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt
from pyproj import Transformer

METRIC_CRS = "EPSG:2154"
"""Lambert-93: the metric CRS every fit and distance on the maps uses."""


@lru_cache(maxsize=4)
def _transformer(src: str, dst: str) -> Transformer:
    return Transformer.from_crs(src, dst, always_xy=True)


def lonlat_to_metric(lon: npt.ArrayLike, lat: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Project WGS84 longitudes and latitudes to Lambert-93 metres."""
    x, y = _transformer("EPSG:4326", METRIC_CRS).transform(np.asarray(lon, float), np.asarray(lat, float))
    return np.asarray(x), np.asarray(y)


def metric_to_lonlat(x: npt.ArrayLike, y: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Unproject Lambert-93 metres to WGS84 longitudes and latitudes."""
    lon, lat = _transformer(METRIC_CRS, "EPSG:4326").transform(np.asarray(x, float), np.asarray(y, float))
    return np.asarray(lon), np.asarray(lat)


__all__ = ["METRIC_CRS", "lonlat_to_metric", "metric_to_lonlat"]
