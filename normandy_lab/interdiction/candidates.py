"""What an interdiction study may cut: bridges, road hexes, a list of hexes, the hexes of an area.

A :class:`Target` is one thing air power could strike: a bridge (a hexside with a road or rail bridge; cut,
it is destroyed, as ``destroy_bridge`` does) or a hex (cut, it is interdicted by the analyst, as
``interdict_hex`` does: the state's option ``what_if_interdiction`` says whether that blocks lines or costs
MP).  :func:`targets` lists them for a map, filtered by what 1944 air power could reach: the bridges over a
named river, inside an area (a shapely geometry in longitude and latitude), not already down.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from normandy_lab.engine.state import GameState


@dataclass(frozen=True)
class Target:
    """One thing to cut: ``kind`` ``"bridge"`` (``key`` its hexside, ``"A1|A2"``) or ``"hex"`` (its id).

    ``label`` says it in words (the river and the road a bridge carries, say).
    """

    kind: str
    key: str
    label: str = ""

    def hexes(self) -> tuple[str, ...]:
        """Return the hex ids the target touches (a bridge's two, a hex's own)."""
        return tuple(self.key.split("|")) if self.kind == "bridge" else (self.key,)

    def cut(self, state: GameState) -> GameState:
        """Return ``state`` with this target cut: the bridge destroyed, or the hex interdicted.

        The same edits a study makes (``destroy_bridge``, ``interdict_hex``): a key that names no bridge
        is refused there, with its reason.
        """
        from normandy_lab.engine.edits import destroy_bridge
        from normandy_lab.engine.interdiction import interdict_hex

        if self.kind == "bridge":
            return destroy_bridge(state, *self.hexes())
        return interdict_hex(state, self.key)

    def edit(self) -> dict[str, Any]:
        """Return the study edit that makes this cut (``Study.apply``)."""
        if self.kind == "bridge":
            a, b = self.key.split("|")
            return {"op": "destroy_bridge", "hexside": [a, b]}
        return {"op": "interdict", "hex": self.key}


def targets(
    state: GameState,
    candidates: str | Iterable[str] | Any = "bridges",
    river: str | None = None,
    within: Any = None,
) -> list[Target]:
    """List what may be cut on ``state``'s map.

    Parameters
    ----------
    candidates
        ``"bridges"`` (every road or rail bridge still standing), ``"road_hexes"`` (every land hex a road
        runs through), a list of hex ids, a shapely geometry (longitude, latitude): the land hexes whose
        centres lie inside it, or a list of :class:`Target` (a shortlist, taken as it is).
    river
        Keep only the bridges over water of this name (``"Orne"``, ``"Vire"``: the map's ``water_name``,
        matched without regard to case).
    within
        Keep only the targets inside this shapely geometry (longitude, latitude): a bridge by its middle, a
        hex by its centre.

    Returns
    -------
    list of Target
        In the map's order, each once.
    """
    from normandy_lab.grids import grid
    from normandy_lab.terrain import terrain_map

    if isinstance(candidates, list | tuple) and candidates and all(isinstance(c, Target) for c in candidates):
        if river is not None or within is not None:
            raise ValueError("river= and within= choose among the map's targets, not a list of Targets")
        return list(dict.fromkeys(candidates))  # chosen already (another study's picks, a shortlist)
    tmap = terrain_map(state.system, progress=False)
    g = grid(state.system)
    if isinstance(candidates, str) and candidates == "bridges":
        sides = tmap.hexsides
        standing = ~sides.index.isin(list(state.destroyed_bridges))
        keep = (sides["road_bridge"] | sides["rail_bridge"]) & standing
        if river is not None:
            keep &= sides["water_name"].fillna("").str.casefold().str.contains(river.casefold(), regex=False)
        if state.maps:  # only the sheets in play
            keep &= sides["a"].map(g.sheet_of).isin(state.maps) & sides["b"].map(g.sheet_of).isin(state.maps)
        chosen = sides[keep]
        if within is not None:
            middles = [geom.interpolate(0.5, normalized=True) for geom in chosen.geometry]
            chosen = chosen[[within.contains(point) for point in middles]]
        return [Target("bridge", str(key), _bridge_words(row)) for key, row in chosen.iterrows()]
    if river is not None:
        raise ValueError("river= filters bridges: use candidates='bridges'")
    hexes = tmap.hexes
    land = hexes["terrain"].astype(str).map(lambda t: t not in ("Sea", "All Sea", "Impassable"))
    if isinstance(candidates, str) and candidates == "road_hexes":
        ids = [h for h in _road_hexes(state.system) if land[h]]
    elif isinstance(candidates, str):
        raise ValueError(
            f"candidates is 'bridges', 'road_hexes', a list of hex ids or a geometry, not {candidates!r}"
        )
    elif hasattr(candidates, "contains"):  # an area
        from shapely import contains_xy

        inside = contains_xy(candidates, *_centres(state.system))
        ids = [str(g._ids[i]) for i in inside.nonzero()[0] if land[str(g._ids[i])]]
    else:
        ids = [g.canonical(h) for h in candidates]
    if within is not None:
        from shapely import contains_xy

        lon, lat = _centres(state.system)
        inside = contains_xy(within, lon, lat)
        ids = [h for h in ids if inside[g.index(h)]]
    seen: dict[str, None] = dict.fromkeys(ids)
    return [Target("hex", h, f"hex {h}") for h in seen]


def _bridge_words(row: Any) -> str:
    water = row["water_name"] or row["water"] or "water"
    road = row["road"] if row["road"] not in ("", "none", None) else ""
    carries = row["road_name"] or road or ("railway" if row["rail_bridge"] else "track")
    return f"bridge over the {water} ({carries})"


def _road_hexes(system: str) -> list[str]:
    """Return the hexes a road enters or leaves, in the map's order."""
    import numpy as np

    from normandy_lab.gamemap import game_map

    gmap = game_map(system)
    e = gmap.edges
    on = np.zeros(len(gmap.grid), dtype=bool)
    on[e.src[e.road > 0]] = True
    return [str(gmap.grid._ids[i]) for i in np.nonzero(on)[0]]


def _centres(system: str) -> tuple[Any, Any]:
    """Return the hexes' centres in longitude and latitude, in the dense order."""
    from normandy_lab.grids import grid

    return grid(system).centers()
