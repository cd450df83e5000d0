"""Named sectors of the Normandy front: the views a teacher jumps to.

Each sector is a view extent (west, south, east, north in degrees, WGS84)
drawn round the places that name it; they are framing choices, not facts
about 1944.  A game's map offers the sectors it shows (:func:`sectors_on`):
the Utah map has no Falaise pocket, and a map added later offers what it
covers without a list of its own.
"""

from __future__ import annotations

from functools import lru_cache

#: Sector name -> (west, south, east, north) in degrees.
SECTORS: dict[str, tuple[float, float, float, float]] = {
    "Cotentin and Cherbourg": (-1.95, 49.22, -1.10, 49.73),
    "Utah and Sainte-Mère-Église": (-1.45, 49.30, -1.10, 49.48),
    "Carentan to Saint-Lô": (-1.40, 49.03, -0.95, 49.34),
    "Omaha and the Aure": (-1.10, 49.18, -0.70, 49.40),
    "Caumont to Villers-Bocage": (-0.95, 49.00, -0.55, 49.25),
    "Bayeux and the British beaches": (-0.80, 49.18, -0.25, 49.38),
    "Caen and the Orne": (-0.60, 49.05, -0.15, 49.32),
    "Falaise and the pocket": (-0.45, 48.70, 0.15, 49.02),
}


#: The share of a sector's area a map must cover for the map to offer it.
COVERED = 0.5


@lru_cache(maxsize=16)
def sectors_on(system: str, maps: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """Return the sectors a game's map shows: those half of whose area or more lies on its hexes.

    Parameters
    ----------
    system
        The game's key.
    maps
        The map sheets in play (a scenario's ``maps``); None for every sheet of the game.
    """
    import shapely

    from normandy_lab.terrain import terrain_map

    hexes = terrain_map(system, progress=False).hexes
    if maps is not None and "sheet" in hexes:
        hexes = hexes[hexes["sheet"].isin(list(maps))]
    area = shapely.union_all(hexes.geometry.values)
    shown = []
    for name, (west, south, east, north) in SECTORS.items():
        box = shapely.box(west, south, east, north)
        if shapely.intersection(box, area).area >= COVERED * box.area:
            shown.append(name)
    return tuple(shown)
