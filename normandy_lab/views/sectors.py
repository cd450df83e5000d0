"""Named sectors: the views a teacher jumps to, each game's own (its look, ``rules/<game>/look.py``).

A sector is a view extent (west, south, east, north in degrees, WGS84) drawn round the places that name
it; a framing choice, not a fact about 1944.  Each game lists the sectors it offers in its
:class:`~normandy_lab.rules.game.Look`; of those, a state's map shows the ones it covers
(:func:`sectors_on`): a scenario on OVERLORD's North map alone has no Falaise pocket, and a game without
sectors offers none.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

#: The share of a sector's area a map must cover for the map to offer it.
COVERED = 0.5


class _EverySector(Mapping[str, tuple[float, float, float, float]]):
    """Every registered game's sectors by name (the first game's extent where two games share a name)."""

    def _all(self) -> dict[str, tuple[float, float, float, float]]:
        from normandy_lab.rules import available, look

        out: dict[str, tuple[float, float, float, float]] = {}
        for key in available():
            for name, extent in look(key).sectors.items():
                out.setdefault(name, extent)
        return out

    def __getitem__(self, name: str) -> tuple[float, float, float, float]:
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


#: Sector name -> (west, south, east, north) in degrees, over every registered game.
SECTORS: Mapping[str, tuple[float, float, float, float]] = _EverySector()


def sectors_of(system: str) -> dict[str, tuple[float, float, float, float]]:
    """Return the sectors a game offers, by name, in its order (its look's; a map's key: its first game's)."""
    from normandy_lab.rules import look

    return dict(look(system).sectors)


@lru_cache(maxsize=16)
def sectors_on(system: str, maps: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """Return the game's sectors its map shows: those half of whose area or more lies on its hexes.

    Parameters
    ----------
    system
        The game's key (or its map's).
    maps
        The map sheets in play (a scenario's ``maps``); None for every sheet of the game.
    """
    from normandy_lab.rules import get
    from normandy_lab.terrain.derived import derived, map_key

    # Kept on disk (terrain.derived): the union of the map's hexes was a tenth of an explorer's first
    # opening in a kernel (issue 33, section 4).  A game's sectors may come from outside the package.
    words = (system, repr(maps), repr(sorted(sectors_of(system).items())), map_key(get(system).system))
    return derived("sectors_on", lambda: _sectors_on(system, maps), *words)


def _sectors_on(system: str, maps: tuple[str, ...] | None) -> tuple[str, ...]:
    import shapely

    from normandy_lab.rules import get
    from normandy_lab.terrain import terrain_map

    offered = sectors_of(system)
    if not offered:
        return ()
    hexes = terrain_map(get(system).system, progress=False).hexes
    if maps is not None and "sheet" in hexes:
        hexes = hexes[hexes["sheet"].isin(list(maps))]
    area = shapely.union_all(hexes.geometry.values)
    shown = []
    for name, (west, south, east, north) in offered.items():
        box = shapely.box(west, south, east, north)
        if shapely.intersection(box, area).area >= COVERED * box.area:
            shown.append(name)
    return tuple(shown)


def front_extent(state: Any) -> tuple[float, float, float, float]:
    """Return the view a map of ``state`` first shows, "the scenario's front": where its units stand.

    (west, south, east, north) in degrees, round the middle 96 % of the units with a margin, so that one
    far-off unit does not shrink the map.  The explorer, the side-by-side view and the sequence page all
    open on it.
    """
    from normandy_lab.grids import grid

    g = grid(state.system)
    points = [g.center(u.hex) for u in state.units]
    lons = sorted(p[0] for p in points)
    lats = sorted(p[1] for p in points)
    lo, hi = int(len(points) * 0.02), max(int(len(points) * 0.98) - 1, 0)
    return (lons[lo] - 0.08, lats[lo] - 0.05, lons[hi] + 0.08, lats[hi] + 0.05)
