"""The two path tests of The Greatest Day (17.6 link-up, 15.0 remount), on the real map's roads.

* Link-up (17.6): "a path of continuous Road hexes from the Supply Drop Zone to the Utah Beach
  Reinforcement hex".  Read here as a road path (hexes joined across a road hexside) from a hex of the
  82nd's drop zone (LZ 4 or LZ 5, the marker ``supply_drop_zone``) to one of the Utah Beach Reinforcement
  hexes (:data:`~normandy_lab.rules.gts.data.UTAH_REINFORCEMENT_HEXES`: the shore end of each causeway,
  INFERRED, the reasons there), through no hex a German unit holds (INFERRED: a link-up cannot run through
  the enemy).  Two readings (``data.READINGS``): ``link_up_destroyed_bridge`` (does a road go on across a
  destroyed bridge?) and ``link_up_german_units`` (does a German unit next to the road close it?).
* Remount (15.0): "a path from the Unit, traversable by its organic transportation, to the nearest Road
  hex, then along a continuous path of at least 10 Road hexes toward the friendly board edge for the
  Germans (north, west or south board edges) or to a Beach Reinforcement hex for the Americans", "free of
  Enemy Units or Fire Zones", and "the Unit must be in terrain accessible by vehicle".  Every step of it is
  one a wheeled or tracked unit may take by the movement rules (:mod:`.movement`: no Marsh or Woods but
  along a road, no stream but along a road, no unimproved railway bridge, no river but by a standing bridge,
  no Impassable hex, no Beach hex where the reading ``beach_from_8_june`` takes the beach out of play), so a
  unit in a roadless Marsh, or in a pocket a stream closes, does not remount.  "Toward" is the reading
  ``remount_toward``; an American path ends at a Beach Reinforcement hex, whatever its length (the "at least
  10" is read with "toward", INFERRED).

Fire Zones are the series' (not in the text); :func:`fire_zone` builds them on what the text implies (the
reading ``fire_zones``; the option ``fire_zone_stand_in`` switches them off; said in every result that uses
them).

Each test returns a :class:`PathResult`: whether it holds, the path, and when it does not, the first
break: the first hex that closes the shortest road path once the enemy is ignored, and what closes it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np

from normandy_lab.engine.state import GameState, other_side
from normandy_lab.gamemap import game_map
from normandy_lab.rules.gts.data import (
    LZ_4,
    LZ_5,
    REMOUNT_ROAD_HEXES,
    UTAH_EXITS,
    UTAH_REINFORCEMENT_HEXES,
    reading,
)
from normandy_lab.rules.gts.movement import movement_costs

AA_FIRE_ZONE = 8  # 17.1: an Air Defense value "has a range of 8 hexes"; 3.3: "the 8 hex AA range"
PRESSED_FIRE_ZONE = 1  # 17.1: "FZ restrictions from an adjacent enemy Unit and Barrage markers (ie. range
# is reduced to 1 hex)"


@dataclass
class PathResult:
    """A path test's verdict: ``ok``, the ``path`` (hex ids), and why not: the first break and its cause."""

    ok: bool
    rule: str
    path: list[str] = field(default_factory=list)
    first_break: str = ""
    cause: str = ""
    words: str = ""


def _within(g, hex_id: str, reach: int) -> np.ndarray:
    """Return, by hex, whether a hex lies within ``reach`` hexes of ``hex_id``."""
    i = g.index(hex_id)
    dq, dr = g.q - g.q[i], g.r - g.r[i]
    return (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2 <= reach


def fire_zone_reach(state: GameState, unit) -> int:
    """Return how many hexes ``unit``'s Fire Zone reaches (the reading ``fire_zones`` = ``range``).

    The text never defines a Fire Zone (a series rule) but gives it a unit's range: 3.3, a drop modifier "if
    at least one German Unit with an anti-air value projects a Fire Zone into the DZ or LZ.  This range is
    the 8 hex AA range as per rule 17.1"; 17.1, AA units "are subject to the FZ restrictions from an
    adjacent enemy Unit and Barrage markers (ie. range is reduced to 1 hex)"; 2.1.9, Fire Zones into a
    Hedgerow hex "are allowed normally, i.e. at normal ranges"; 4.7.1, LCS are "Direct Fire Units without
    the ability to project a Fire Zone" (so Direct Fire units project one).  Hence: the unit's
    ``fire_range`` where the scenario gives it (the counters' ranges are a GAP), 8 for an AA unit (the
    ``flak`` type), else 1 (the least a firing unit reaches, INFERRED); 1 under a Barrage marker or with an
    enemy unit next to it.  Line of sight, which the series' Fire Zones need, is not on the derived map: not
    played.
    """
    g = game_map(state.system).grid
    enemy_hexes = {u.hex for u in state.units_of(other_side(unit.side))}
    pressed = bool(unit.attr("barrage")) or any(g.canonical(n) in enemy_hexes for n in g.neighbors(unit.hex))
    given = unit.attr("fire_range")
    reach = int(given) if given is not None else AA_FIRE_ZONE if unit.type == "flak" else 1
    return min(reach, PRESSED_FIRE_ZONE) if pressed else reach


def fire_zone(state: GameState, side: str) -> np.ndarray:
    """Return, by hex, the hexes in the Fire Zones of ``side``'s enemies (the reading ``fire_zones``).

    ``range`` (default): within each enemy unit's reach (:func:`fire_zone_reach`); ``adjacent``: the old
    stand-in, the hexes of and next to each enemy unit.  HQs project none.  None at all with the option
    ``fire_zone_stand_in`` off.
    """
    g = game_map(state.system).grid
    zone = np.zeros(len(g), dtype=bool)
    if not state.options.get("fire_zone_stand_in", True):
        return zone
    by_range = reading(state, "fire_zones") == "range"
    for u in state.units_of(other_side(side)):
        if u.hq or u.status != "active":
            continue
        zone |= _within(g, u.hex, fire_zone_reach(state, u) if by_range else 1)
    return zone


def _zone_words(state: GameState, zone: np.ndarray) -> str:
    if not zone.any():
        return ""
    how = (
        "each enemy unit's range: 8 for AA, 1 next to an enemy or under a Barrage, else its fire_range or 1"
        if reading(state, "fire_zones") == "range"
        else "every hex next to an enemy unit, the old stand-in"
    )
    return f" (Fire Zones, reading fire_zones={reading(state, 'fire_zones')}: {how})"


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


def _link_roads(state: GameState) -> dict[int, list[int]]:
    """Return the link-up's road neighbours: the map's, less a road across a destroyed bridge (a reading)."""
    if reading(state, "link_up_destroyed_bridge") != "breaks" or not state.destroyed_bridges:
        return _roads(state.system)
    gmap = game_map(state.system)
    e = gmap.edges
    destroyed = gmap.terrain.hexsides.index.isin(list(state.destroyed_bridges))[e.side]
    keep = (e.road > 0) & ~e.all_sea & ~destroyed
    return _neighbours(e.src[keep], e.dst[keep])


def _link_closed(state: GameState) -> tuple[np.ndarray, dict[str, list[str]]]:
    """Return the hexes German units close to the link-up (reading ``link_up_german_units``), and by whom."""
    g = game_map(state.system).grid
    closed = np.zeros(len(g), dtype=bool)
    by: dict[str, list[str]] = {}
    beside = reading(state, "link_up_german_units") == "next_to_the_path"
    for u in state.units_of("german"):
        for h in (u.hex, *(g.canonical(n) for n in g.neighbors(u.hex))) if beside else (u.hex,):
            closed[g.index(h)] = True
            by.setdefault(h, []).append(u.id)
    return closed, by


def linked_up(state: GameState) -> PathResult:
    """Tell whether the 82nd's drop zone is linked up with Utah Beach by road (17.6).

    From the drop zone to its nearest road hexes over land, then along continuous road hexes to a Utah
    Beach Reinforcement hex (the shore end of a causeway, INFERRED), through no hex a German unit holds
    (INFERRED) or, by the reading ``link_up_german_units``, stands next to; a road across a destroyed
    bridge goes on or not by the reading ``link_up_destroyed_bridge``.
    """
    gmap = game_map(state.system)
    g = gmap.grid
    zone_name = state.markers["supply_drop_zone"]
    zone = [g.index(h) for h in (LZ_5 if zone_name == "LZ 5" else LZ_4)]
    roads, land = _link_roads(state), _land(state.system)
    targets = {g.index(h) for h in UTAH_REINFORCEMENT_HEXES}
    german, holders = _link_closed(state)

    def search(closed: np.ndarray):
        """Return the road search from the zone's nearest road hexes, its steps, the targets and the leads."""
        to_road, over_land = _bfs(zone, land, closed)
        entry = [h for h in to_road if h in roads]
        if not entry:
            return {}, {}, [], {}
        first = min(over_land[h] for h in entry)
        entry = [h for h in entry if over_land[h] == first]
        came, steps = _bfs(entry, roads, closed)
        lead = {h: _back(to_road, h, g.id_array) for h in entry}
        return came, steps, [t for t in targets if t in came], lead

    came, steps, reached, lead = search(german)
    if reached:
        end = min(reached, key=lambda t: (steps[t], str(g.id_array[t])))
        road = _back(came, end, g.id_array)
        path = lead[g.index(road[0])][:-1] + road
        return PathResult(
            True,
            "17.6",
            path,
            words=f"linked up: from {zone_name} by road to {path[-1]}, the {UTAH_EXITS[path[-1]]} "
            "reinforcement hex (17.6)",
        )
    free, free_steps, open_targets, free_lead = search(np.zeros(len(g), dtype=bool))
    if not open_targets:
        bridges = (
            " (a destroyed bridge breaks the road: reading link_up_destroyed_bridge)"
            if state.destroyed_bridges and reading(state, "link_up_destroyed_bridge") == "breaks"
            else ""
        )
        return PathResult(
            False, "17.6", cause="no road", words=f"no road joins {zone_name} to Utah Beach{bridges} (17.6)"
        )
    end = min(open_targets, key=lambda t: (free_steps[t], str(g.id_array[t])))
    road = _back(free, end, g.id_array)
    path = free_lead[g.index(road[0])][:-1] + road
    first = next(h for h in path if german[g.index(h)])
    how = "held" if any(state.unit(u).hex == first for u in holders[first]) else "closed from next to it"
    words = (
        f"not linked up: the way from {zone_name} to Utah Beach is {how} at {first} by "
        f"{', '.join(sorted(holders[first]))}"
    )
    return PathResult(False, "17.6", path=path, first_break=first, cause="enemy", words=f"{words} (17.6)")


def _vehicle_ways(state: GameState, unit) -> tuple[dict[int, list[int]], dict[int, list[int]], np.ndarray]:
    """Return where the unit's organic transport may go by the movement rules (:mod:`.movement`).

    Each hex's neighbours a wheeled or tracked unit of the unit's side may step to, the same along a road
    only, and by hex whether any such step enters it ("terrain accessible by vehicle", 15.0).
    """
    gmap = game_map(state.system)
    e = gmap.edges
    cost = movement_costs(state, replace(unit, mechanized=True)).cost
    open_ = ~np.isnan(cost) & ~e.all_sea
    along = open_ & (e.road > 0)
    enterable = np.zeros(len(gmap.grid), dtype=bool)
    enterable[e.dst[open_]] = True
    return _neighbours(e.src[open_], e.dst[open_]), _neighbours(e.src[along], e.dst[along]), enterable


def _toward(state: GameState) -> np.ndarray:
    """Return each hex's distances to the German friendly edges (north, west, south), one row an edge."""
    g = game_map(state.system).grid
    col, row = g.global_col, g.global_row  # the grid's columns grow eastwards, its rows southwards
    return np.stack([row - row.min(), col - col.min(), row.max() - row])


def remount_path(state: GameState, unit_id: str) -> PathResult:
    """Tell whether a unit could remount its abandoned transport (15.0): its path, or the first break.

    The path is one its transport, a wheeled or tracked unit, could drive (:func:`_vehicle_ways`); it starts
    in terrain a vehicle may be in; it reaches the nearest road hex, then goes along road hexes, ten of them
    after that first one, toward a German friendly edge (reading ``remount_toward``), or for an American
    to a Beach Reinforcement hex; it enters no hex of an enemy unit nor of its Fire Zones (:func:`fire_zone`).
    """
    gmap = game_map(state.system)
    g = gmap.grid
    unit = state.unit(unit_id)
    start = g.index(unit.hex)
    land, roads, enterable = _vehicle_ways(state, unit)
    terrain = gmap.terrain.hexes["terrain"].iloc[start]
    if not enterable[start]:
        return PathResult(
            False, "15.0", [unit.hex], unit.hex, "terrain",
            f"{unit.hex} ({terrain}) is not terrain a vehicle may be in, so the transport cannot come to it "
            "(15.0: \"the Unit must be in terrain accessible by vehicle\"; 2.1: Marsh and Woods only along a "
            "road)",
        )  # fmt: skip
    enemy = _occupied(state, other_side(unit.side))
    zone = fire_zone(state, unit.side)
    off_map = gmap.closed(state.maps)
    allied = unit.side == "allied"
    goal_hexes = {g.index(h) for h in UTAH_REINFORCEMENT_HEXES}
    edges = _toward(state)
    any_edge = reading(state, "remount_toward") == "any_edge"

    def search(closed: np.ndarray) -> tuple[list[str], list[str]] | None:
        """Return the lead to the nearest road hexes and the road path on from one of them, or None."""
        closed = closed.copy()
        closed[start] = False  # the unit's own hex (15.0 asks where the path goes, not where it starts)
        to_road, over_land = _bfs([start], land, closed)
        on_road = [h for h in to_road if h in roads]
        if not on_road:
            return None
        first = min(over_land[h] for h in on_road)
        best = None
        for entry in sorted((h for h in on_road if over_land[h] == first), key=lambda h: str(g.id_array[h])):
            along, steps = _bfs([entry], roads, closed)
            if allied:
                goal = [h for h in along if h in goal_hexes]
            else:
                nearer = edges[:, list(along)] < edges[:, [entry]]
                toward = nearer.any(axis=0) if any_edge else (
                    edges[:, list(along)].min(axis=0) < edges[:, entry].min()
                )  # fmt: skip
                far = [h for h, ok in zip(along, toward, strict=True) if ok]
                goal = [h for h in far if steps[h] >= REMOUNT_ROAD_HEXES]  # ten road hexes after the first
            if goal:
                end = min(goal, key=lambda h: (steps[h], str(g.id_array[h])))
                if best is None or steps[end] < best[0]:
                    best = (steps[end], _back(to_road, entry, g.id_array), _back(along, end, g.id_array))
        return None if best is None else (best[1], best[2])

    zones = _zone_words(state, zone)
    found = search(enemy | zone | off_map)
    if found:
        lead, road = found
        path = lead + road[1:]
        where = f", to the {UTAH_EXITS[path[-1]]} reinforcement hex {path[-1]}" if allied else ""
        return PathResult(True, "15.0", path, words=f"a remount path of {len(road)} road hexes{where} (15.0)")
    goal_words = "to a Beach Reinforcement hex" if allied else (
        f"of {REMOUNT_ROAD_HEXES} hexes toward a friendly edge (reading remount_toward="
        f"{reading(state, 'remount_toward')})"
    )  # fmt: skip
    free = search(off_map)
    if free is None:
        words = f"no road a vehicle may drive {goal_words}, even with the enemy away (15.0)"
        return PathResult(False, "15.0", [unit.hex], cause="no vehicle road", words=words)
    path = free[0] + free[1][1:]
    words = f"no road path {goal_words} is free of enemy units and Fire Zones{zones} (15.0)"
    for h in path[1:]:
        i = g.index(h)
        if enemy[i] or zone[i]:
            return PathResult(False, "15.0", path, h, "enemy" if enemy[i] else "fire zone", words)
    return PathResult(False, "15.0", path, cause="road too short", words=words)


def road_hexes_on_edge(system: str, edge: str) -> tuple[str, ...]:
    """Return the road hexes on one edge of the map ("north", "south", "east" or "west"), by id.

    Where reinforcements by road would come in (the booklets name the real reinforcement hexes: GAP).
    """
    g = game_map(system).grid
    col, row = g.global_col, g.global_row
    on_edge = {
        "north": row == row.min(), "south": row == row.max(),
        "west": col == col.min(), "east": col == col.max(),
    }[edge]  # fmt: skip
    return tuple(sorted(str(g.id_array[h]) for h in _roads(system) if on_edge[h]))
