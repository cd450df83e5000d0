"""The two path tests of The Greatest Day (17.6 link-up, 15.0 remount), on the real map's roads.

* Link-up (17.6): "a path of continuous Road hexes from the Supply Drop Zone to the Utah Beach
  Reinforcement hex".  Read here as a road path (hexes joined across a road hexside) from a hex of the
  82nd's drop zone (LZ 4 or LZ 5, the marker ``supply_drop_zone``) to one of the Utah Beach Reinforcement
  hexes (:data:`~normandy_lab.rules.gts.data.UTAH_REINFORCEMENT_HEXES`, INFERRED), through no hex a German
  unit holds (INFERRED: a link-up cannot run through the enemy).
* Remount (15.0): from the unit to the nearest road hex, then "at least 10 Road hexes toward the friendly
  board edge" (German: north, west or south) or to a Beach Reinforcement hex (American), "free of Enemy
  Units or Fire Zones".  "Toward" is read as: the road hex reached ten road hexes on lies nearer the
  friendly edge than the road hex the path joined (INFERRED).

Fire Zones are the series' (not in the text); the stand-in is every hex an enemy unit stands in or is next
to, an HQ's excepted (the option ``fire_zone_stand_in``, on by default, switchable off; said in every
result that uses it).

Each test returns a :class:`PathResult`: whether it holds, the path, and when it does not, the first
break: the first hex that closes the shortest road path once the enemy is ignored, and what closes it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from normandy_lab.engine.state import GameState, other_side
from normandy_lab.gamemap import game_map
from normandy_lab.rules.gts.data import LZ_4, LZ_5, REMOUNT_ROAD_HEXES, UTAH_REINFORCEMENT_HEXES


@dataclass
class PathResult:
    """A path test's verdict: ``ok``, the ``path`` (hex ids), and why not: the first break and its cause."""

    ok: bool
    rule: str
    path: list[str] = field(default_factory=list)
    first_break: str = ""
    cause: str = ""
    words: str = ""


def fire_zone(state: GameState, side: str) -> np.ndarray:
    """Return the hexes in the Fire Zones of ``side``'s enemies: the stand-in (see the module), by hex."""
    g = game_map(state.system).grid
    zone = np.zeros(len(g), dtype=bool)
    if not state.options.get("fire_zone_stand_in", True):
        return zone
    for u in state.units_of(other_side(side)):
        if u.hq:
            continue
        zone[g.index(u.hex)] = True
        for n in g.neighbors(u.hex):
            zone[g.index(n)] = True
    return zone


@lru_cache(maxsize=4)
def _roads(system: str) -> dict[int, list[int]]:
    """Return each hex's neighbours across a road hexside (they depend on the map alone)."""
    e = game_map(system).edges
    return _neighbours(e.src[(e.road > 0) & ~e.all_sea], e.dst[(e.road > 0) & ~e.all_sea])


@lru_cache(maxsize=4)
def _land(system: str) -> dict[int, list[int]]:
    """Return each hex's neighbours across a land hexside (they depend on the map alone)."""
    e = game_map(system).edges
    return _neighbours(e.src[~e.all_sea], e.dst[~e.all_sea])


def _neighbours(src: np.ndarray, dst: np.ndarray) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for a, b in zip(src.tolist(), dst.tolist(), strict=True):
        out.setdefault(a, []).append(b)
    return out


def _bfs(
    starts: list[int], step: dict[int, list[int]], closed: np.ndarray
) -> tuple[dict[int, int], dict[int, int]]:
    """Breadth-first search from ``starts`` over ``step``.

    Returns each reached hex -> the hex it was reached from (-1 for a start), and -> its number of steps.
    """
    came = {s: -1 for s in starts if not closed[s]}
    steps = dict.fromkeys(came, 0)
    queue = deque(came)
    while queue:
        h = queue.popleft()
        for n in step.get(h, ()):
            if n not in came and not closed[n]:
                came[n], steps[n] = h, steps[h] + 1
                queue.append(n)
    return came, steps


def _back(came: dict[int, int], end: int, ids) -> list[str]:
    path = []
    while end >= 0:
        path.append(str(ids[end]))
        end = came[end]
    return path[::-1]


def _occupied(state: GameState, side: str) -> np.ndarray:
    g = game_map(state.system).grid
    held = np.zeros(len(g), dtype=bool)
    for u in state.units_of(side):
        held[g.index(u.hex)] = True
    return held


def linked_up(state: GameState) -> PathResult:
    """Tell whether the 82nd's drop zone is linked up with Utah Beach by road (17.6).

    From the drop zone to its nearest road hexes over land, then along continuous road hexes to a road hex
    at or next to a Utah Beach Reinforcement hex (the beach itself has no road: the causeways end beside
    it), through no hex a German unit holds (all INFERRED readings of 17.6's "path of continuous Road
    hexes").
    """
    gmap = game_map(state.system)
    g = gmap.grid
    zone_name = state.markers["supply_drop_zone"]
    zone = [g.index(h) for h in (LZ_5 if zone_name == "LZ 5" else LZ_4)]
    roads, land = _roads(state.system), _land(state.system)
    beach = {g.index(h) for h in UTAH_REINFORCEMENT_HEXES}
    targets = {
        h for h in roads if h in beach or any(g.index(n) in beach for n in g.neighbors(str(g._ids[h])))
    }
    german = _occupied(state, "german")

    def search(closed: np.ndarray):
        """Return the road search from the zone's nearest road hexes, its steps, the targets and the leads."""
        to_road, over_land = _bfs(zone, land, closed)
        entry = [h for h in to_road if h in roads]
        if not entry:
            return {}, {}, [], {}
        first = min(over_land[h] for h in entry)
        entry = [h for h in entry if over_land[h] == first]
        came, steps = _bfs(entry, roads, closed)
        lead = {h: _back(to_road, h, g._ids) for h in entry}
        return came, steps, [t for t in targets if t in came], lead

    came, steps, reached, lead = search(german)
    if reached:
        end = min(reached, key=lambda t: (steps[t], str(g._ids[t])))
        road = _back(came, end, g._ids)
        path = lead[g.index(road[0])][:-1] + road
        return PathResult(
            True,
            "17.6",
            path,
            words=f"linked up: from {zone_name} by road to {path[-1]}, beside the beach (17.6)",
        )
    free, free_steps, open_targets, free_lead = search(np.zeros(len(g), dtype=bool))
    if not open_targets:
        return PathResult(
            False, "17.6", cause="no road", words=f"no road joins {zone_name} to Utah Beach (17.6)"
        )
    end = min(open_targets, key=lambda t: (free_steps[t], str(g._ids[t])))
    road = _back(free, end, g._ids)
    path = free_lead[g.index(road[0])][:-1] + road
    first = next(h for h in path if german[g.index(h)])
    holders = sorted(u.id for u in state.units_of("german") if u.hex == first)
    words = (
        f"not linked up: the way from {zone_name} to Utah Beach is held at {first} by {', '.join(holders)}"
    )
    return PathResult(False, "17.6", path=path, first_break=first, cause="enemy", words=f"{words} (17.6)")


def remount_path(state: GameState, unit_id: str) -> PathResult:
    """Tell whether a unit could remount its abandoned transport (15.0): its path, or the first break."""
    gmap = game_map(state.system)
    g = gmap.grid
    unit = state.unit(unit_id)
    enemy = _occupied(state, other_side(unit.side))
    zone = fire_zone(state, unit.side)
    closed = enemy | zone | gmap.closed(state.maps)
    start = g.index(unit.hex)
    closed[start] = False  # the unit's own hex (15.0 asks where the path goes, not where it starts)
    roads = _roads(state.system)
    to_road, over_land = _bfs([start], _land(state.system), closed)
    on_road = [h for h in to_road if h in roads]
    stand_in = " (Fire Zones: the stand-in, every hex next to an enemy unit)" if zone.any() else ""
    if not on_road:
        return PathResult(
            False, "15.0", cause="no road", words=f"no road reached free of the enemy{stand_in} (15.0)"
        )
    nearest = min(on_road, key=lambda h: (over_land[h], str(g._ids[h])))
    lead = _back(to_road, nearest, g._ids)
    along, road_steps = _bfs([nearest], roads, closed)
    if unit.side == "allied":
        beach = {g.index(h) for h in UTAH_REINFORCEMENT_HEXES}
        goal = [h for h in along if h in beach]
    else:
        edge = _edge_distance(state.system)
        # The road path's hexes (its first included) number road_steps + 1.
        goal = [h for h in along if road_steps[h] + 1 > REMOUNT_ROAD_HEXES and edge[h] < edge[nearest]]
    if goal:
        end = min(goal, key=lambda h: (road_steps[h], str(g._ids[h])))
        path = lead + _back(along, end, g._ids)[1:]
        return PathResult(
            True, "15.0", path, words=f"a remount path of {len(path) - len(lead)} road hexes (15.0)"
        )
    # Why not: the same search with the enemy and its zones ignored, and the first closed hex on it.
    free, _ = _bfs([nearest], roads, gmap.closed(state.maps).copy())
    words = (
        f"no road path of {REMOUNT_ROAD_HEXES} hexes towards a friendly edge or the beach is free{stand_in} "
        "(15.0)"
    )
    for h in free:
        if closed[h]:
            kind = "enemy" if enemy[h] else "fire zone"
            return PathResult(False, "15.0", lead, str(g._ids[h]), kind, words)
    return PathResult(False, "15.0", lead, cause="road too short", words=words)


def _edge_distance(system: str) -> np.ndarray:
    """Return each hex's distance in hexes to the nearest German friendly edge (north, west or south)."""
    g = game_map(system).grid
    col, row = g._gcol, g._grow  # the grid's columns grow eastwards, its rows southwards
    north, south, west = row - row.min(), row.max() - row, col - col.min()
    return np.minimum(np.minimum(north, south), west)


def road_hexes_on_edge(system: str, edge: str) -> tuple[str, ...]:
    """Return the road hexes on one edge of the map ("north", "south", "east" or "west"), by id.

    Where reinforcements by road would come in (the booklets name the real reinforcement hexes: GAP).
    """
    g = game_map(system).grid
    col, row = g._gcol, g._grow
    on_edge = {
        "north": row == row.min(), "south": row == row.max(),
        "west": col == col.min(), "east": col == col.max(),
    }[edge]  # fmt: skip
    return tuple(sorted(str(g._ids[h]) for h in _roads(system) if on_edge[h]))
