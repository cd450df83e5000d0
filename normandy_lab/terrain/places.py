"""Hexes described by the places around them: ``"C3622 (Caen)"``, ``"C4146, 1 km NW of Juaye-Mondaye"``.

These read a game's grid and terrain map and the gazetteer's places; they moved here from
:mod:`normandy_lab.geo.gazetteer` (where the old names still resolve for one release), so that ``geo``
imports nothing of the rooms above it.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

import numpy as np

from normandy_lab.geo.gazetteer import compass_point, offset_km, places
from normandy_lab.grids import grid
from normandy_lab.grids.numbering import HexIdError
from normandy_lab.terrain import terrain_map

# Populated places and the landmarks a reader would know: what a hex is named after.
_HEX_PLACE_KINDS = ("populated place", "village", "hamlet", "bridge", "hill", "landmark", "forest", "fort")


@lru_cache(maxsize=4)
def _hex_places(system: str) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Coordinates and names of the places a hex can be described by (``system`` keys the cache)."""
    frame = places()
    frame = frame[frame["kind"].isin(_HEX_PLACE_KINDS)]
    lon, lat = frame.geometry.x.to_numpy(), frame.geometry.y.to_numpy()
    return lon, lat, frame["name"].astype(str).tolist()


_HEX_TOKEN = re.compile(r"\b[A-Z]?\d{2,4}(?:\.\d{3})?\b")


def with_places(system: str, text: str) -> str:
    """Return ``text`` with each hex id of the game's map followed by where it is (:func:`hex_place`).

    ``"vacant hex C3434 in an EZOC"`` becomes ``"vacant hex C3434, 1 km N of Cristot in an EZOC"``; a word
    that only looks like a hex id (not a hex of this map) stays as it is.
    """
    g = grid(system)

    def place(match: re.Match[str]) -> str:
        token = match.group(0)
        try:
            return hex_place(system, g.canonical(token))
        except HexIdError:
            return token

    return _HEX_TOKEN.sub(place, text)


@lru_cache(maxsize=65536)
def hex_place(system: str, hex_id: str) -> str:
    """Return a hex id with where it is: ``"C3622 (Caen)"`` or ``"C4146, 1 km NW of Juaye-Mondaye"``.

    A hex that holds a named place is named after it; any other hex by its
    nearest place, with the distance and compass direction from that place.
    """
    tmap = terrain_map(system, progress=False)
    own = str(tmap.hexes.at[hex_id, "place"]) if hex_id in tmap.hexes.index else ""
    if own:
        return f"{hex_id} ({own})"
    lon, lat, names = _hex_places(system)
    # Offsets of the places from the hex, turned round: the hex as seen from its nearest place.
    east, north = offset_km(grid(system).center(hex_id), lon, lat)
    nearest = int(np.argmin(east * east + north * north))
    km = float(math.hypot(east[nearest], north[nearest]))
    if km < 0.5:
        return f"{hex_id} (at {names[nearest]})"
    bearing = compass_point(-float(east[nearest]), -float(north[nearest]))
    return f"{hex_id}, {km:.0f} km {bearing} of {names[nearest]}"


__all__ = ["hex_place", "with_places"]
