"""Geography layers of 1944 Normandy, loaded from ``maps/``.

``layer(name)`` returns a GeoDataFrame in EPSG:4326.  Every layer's sources,
licence and accuracy are in ``maps/README.md``.

Layers available now:

``land``
    GSHHG full-resolution land polygons (with the offshore islands: Îles
    Saint-Marcouf, Chausey, the Channel Islands), clipped to the campaign
    area; extracted by ``scripts/extract_coastline.py``.
``places``
    The gazetteer (:func:`normandy_lab.gazetteer.places`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from normandy_lab import gazetteer
from normandy_lab.paths import map_file

AREA = (-2.0, 48.3, 0.6, 49.8)
"""The campaign area, ``(west, south, east, north)`` in degrees."""


def _land():  # -> geopandas.GeoDataFrame
    import geopandas as gpd

    frame = gpd.read_file(map_file("coast", "gshhg_land.geojson"))
    return frame.set_crs("EPSG:4326", allow_override=True)


_LAYERS: dict[str, Callable[[], object]] = {
    "land": _land,
    "places": gazetteer.places,
}


def layer_names() -> list[str]:
    """Return the names of the available layers."""
    return sorted(_LAYERS)


@cache
def _cached(name: str):  # -> geopandas.GeoDataFrame
    return _LAYERS[name]()


def layer(name: str):  # -> geopandas.GeoDataFrame
    """Return a geography layer as a GeoDataFrame in EPSG:4326 (a copy: edit freely).

    Raises
    ------
    KeyError
        When ``name`` is not a layer; the message lists the layers.
    """
    if name not in _LAYERS:
        raise KeyError(f"unknown geography layer {name!r}; available: {', '.join(layer_names())}")
    return _cached(name).copy()
