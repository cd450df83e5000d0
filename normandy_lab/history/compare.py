"""Engine against history: the front a scenario's units imply, set against the historical line.

A scenario places units; the ground each side holds follows from them.  Every
land hex of the map goes to the side whose nearest unit is nearer (hex
distance over land, the same measure zones of control use; a hex next to units
of both sides is contested).  The implied front is the set of hexsides where
Allied ground meets German ground.  It is compared with the lodgement record's
front line for the scenario's date: an AM or Night turn with the evening
before, a PM turn with that day's evening.

Measures, in km (Lambert-93):

- ``mean_km``/``max_km``: from points along the implied front to the
  historical line (does the units' front lie on the real one?);
- ``mean_back_km``/``max_back_km``: from points along the historical line
  inside the maps to the implied front (is every stretch of the real front
  manned?);
- ``wrong_side``: units standing on the other side's ground, further from the
  historical line than the record's stated accuracy, unless the scenario marks
  them ``cut_off`` (the history says so).
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from normandy_lab.grids import grid
from normandy_lab.history.lodgement import (
    FIRST_DAY,
    HistoryError,
    LodgementRecord,
    _metric,
    _to_metric,
    held_by,
    record,
    records,
)
from normandy_lab.network import edge_arrays
from normandy_lab.terrain import terrain_map

if TYPE_CHECKING:  # for annotations only (neither has types: to mypy these read as Any)
    import shapely
    from scipy.sparse import csr_matrix

_SIDE_WORDS = {"allied": "Allied", "german": "German"}

#: Spacing of the points sampled along the historical line (metres).
SAMPLE_SPACING_M = 500.0


@dataclass
class FrontComparison:
    """How a scenario's implied front compares with the historical front line.

    Attributes
    ----------
    scenario, date, turn
        The scenario compared.
    record_date
        The date of the lodgement record it is compared with.
    bracket_dates
        The records whose lines bound the turn (for an AM or Night turn, the evening before and,
        when recorded, the evening of the day; for a turn of several days, the records made within
        it): a unit is on the wrong side only if it is so against all of them, and the implied
        front is measured to the nearer line.
    mean_km, max_km
        Distances from the implied front to the historical line.
    mean_back_km, max_back_km
        Distances from the historical line (inside the maps) to the implied front.
    wrong_side
        One dict per unit on the wrong side: ``unit``, ``hex``, ``side``,
        ``held_by``, ``distance_km`` (to the line) and ``cut_off``.
    tolerance_km
        Units closer than this to the historical line are not judged.
    implied_front, historical_front
        The two lines (shapely, lon/lat); the historical one clipped to the maps.
    sides_present
        The sides with units on the map; with one side only no front is implied and the distances are NaN.
    before_landings
        A turn that starts on 6 June before the landings (not a PM turn): the ground was all German, so a
        German unit is never on the wrong side of it.
    """

    scenario: str
    date: dt.date
    turn: str
    record_date: dt.date
    bracket_dates: tuple[dt.date, ...]
    mean_km: float
    max_km: float
    mean_back_km: float
    max_back_km: float
    wrong_side: list[dict[str, Any]]
    tolerance_km: float
    implied_front: Any = field(repr=False)
    historical_front: Any = field(repr=False)
    sides_present: tuple[str, ...] = ()
    before_landings: bool = False

    @property
    def unexplained(self) -> list[dict[str, Any]]:
        """Units on the wrong side that the scenario does not mark as cut off."""
        return [w for w in self.wrong_side if not w["cut_off"]]

    @property
    def one_side_only(self) -> bool:
        """Whether the scenario has units of one side only: no front is implied, no distance measured."""
        return bool(self.sides_present) and len(self.sides_present) < 2

    def summary(self) -> str:
        """Return one paragraph describing the comparison."""
        wrong = ", ".join(f"{w['unit']} ({w['hex']})" for w in self.unexplained) or "none"
        cut = [w["unit"] for w in self.wrong_side if w["cut_off"]]
        against = " and ".join(f"{d:%d %B}" for d in self.bracket_dates)
        if self.before_landings:
            against = f"the morning before the landings (all German) and {against}"
        if self.one_side_only:
            measured = (
                f"only {_SIDE_WORDS[self.sides_present[0]]} units are on the map, so no front is implied and "
                "no distance is measured"
            )
        else:
            measured = (
                f"implied front to the historical line mean {self.mean_km:.2f} km, max {self.max_km:.1f} km; "
                f"historical line to the implied front mean {self.mean_back_km:.2f} km, max "
                f"{self.max_back_km:.1f} km"
            )
        return (
            f"{self.scenario} ({self.date} {self.turn}) against the front of {against} 1944: {measured}. "
            f"Units on the wrong side: {wrong}"
            + (f"; cut off as the history says: {', '.join(cut)}" if cut else "")
            + "."
        )

    def row(self) -> dict[str, Any]:
        """Return the comparison as one row of a table (the tour's): no distance where none is measured."""
        blank = self.one_side_only
        return {
            "compared with": ", ".join(f"{d:%d %B}" for d in self.bracket_dates),
            "mean km": None if blank else round(self.mean_km, 2),
            "max km": None if blank else round(self.max_km, 1),
            "wrong side": len(self.unexplained),
            "note": f"only {_SIDE_WORDS[self.sides_present[0]]} units: no front implied" if blank else "",
        }


def records_bracketing(date: dt.date, turn: str, last_day: dt.date | None = None) -> list[LodgementRecord]:
    """Return the records bounding a turn: :func:`record_for`, plus the day's own evening record for AM/Night.

    An AM scenario shows the morning: between the evening before and the evening of the day.  A turn of
    several days (``last_day`` after ``date``, Cobra's three-day game turns) is its own date: the records
    made within it, when there are any (Cobra's GT 15, 16-18 July, against the record of 17 July).
    """
    if last_day is not None and last_day > date:
        within = [r for r in records() if date <= r.date <= last_day]
        if within:
            return within
    first = record_for(date, turn)
    found = [first]
    if turn != "PM":
        try:
            same_day = record(date)
        except HistoryError:
            return found
        if same_day.date == date and same_day.date != first.date:
            found.append(same_day)
    return found


def record_for(date: dt.date, turn: str) -> LodgementRecord:
    """Return the lodgement record a turn is compared with: the evening before for Night and AM turns."""
    day = date if turn == "PM" else date - dt.timedelta(days=1)
    return record(max(day, dt.date(1944, 6, 6)))


@functools.cache
def _land_graph(system: str) -> tuple[csr_matrix, np.ndarray]:  # adjacency over land hexes, land mask
    from scipy.sparse import csr_matrix

    tmap = terrain_map(system, progress=False)
    land = ~np.isin(tmap.hexes["terrain"].to_numpy(), ["Sea", "All Sea", "Impassable"])
    e = edge_arrays(system)
    keep = land[e.src] & land[e.dst] & ~e.all_sea
    n = len(land)
    return csr_matrix((np.ones(int(keep.sum())), (e.src[keep], e.dst[keep])), shape=(n, n)), land


@functools.cache
def _map_area(system: str) -> shapely.Geometry:  # the land hexes of the maps (lon/lat)
    import shapely

    hexes = terrain_map(system, progress=False).hexes
    return shapely.union_all(hexes.geometry.values).buffer(0)


def implied_sides(state: Any) -> np.ndarray:  # a GameState (the engine is a room above)
    """Return, for every hex of the map, ``1`` (Allied), ``-1`` (German), ``0`` (contested or sea).

    Each land hex goes to the side of the nearest unit (hex distance over land).  Units
    marked ``cut_off`` (isolated groups behind the enemy's line, as the history says) hold
    only their own pocket, not the ground around it, so they are left out.
    """
    from scipy.sparse.csgraph import dijkstra

    g = grid(state.system)
    adjacency, land = _land_graph(state.system)
    distance = {}
    for side in ("allied", "german"):
        seeds = sorted(
            {
                g.index(u.hex)
                for u in state.units_of(side)
                if u.status == "active" and u.type != "ship" and not u.cut_off
            }
        )
        distance[side] = (
            dijkstra(adjacency, indices=seeds, min_only=True, unweighted=True)
            if seeds
            else np.full(len(g), np.inf)
        )
    sides = np.where(
        distance["allied"] < distance["german"], 1, np.where(distance["german"] < distance["allied"], -1, 0)
    )
    return np.where(land, sides, 0)


def implied_front(state: Any) -> shapely.MultiLineString:  # lon/lat
    """Return the hexsides where the units' Allied ground meets their German ground."""
    import shapely

    sides = implied_sides(state)
    e = edge_arrays(state.system)
    boundary = (sides[e.src] == 1) & (sides[e.dst] == -1)
    # Contested hexes (equidistant) lie on the front: take their Allied-facing sides.
    boundary |= (sides[e.src] == 1) & (sides[e.dst] == 0) & _is_land(state.system)[e.dst]
    hexsides = terrain_map(state.system, progress=False).hexsides.geometry.values
    return shapely.MultiLineString(list(hexsides[np.unique(e.side[boundary])]))


def _is_land(system: str) -> np.ndarray:
    land: np.ndarray = _land_graph(system)[1]
    return land


def _sample_line(line_metric: shapely.Geometry, spacing: float) -> np.ndarray:
    import shapely

    points = []
    for part in getattr(line_metric, "geoms", [line_metric]):
        if part.is_empty:
            continue
        count = max(2, int(np.ceil(part.length / spacing)) + 1)
        points.extend(shapely.line_interpolate_point(part, np.linspace(0.0, part.length, count)))
    return np.array(points, dtype=object)


def compare_with_history(state: Any, tolerance_km: float | None = None) -> FrontComparison:  # a GameState
    """Compare the front a state's units imply with the historical front line of its date.

    Parameters
    ----------
    state
        A game state (a loaded scenario).
    tolerance_km
        Units closer than this to the historical line are not judged for
        their side (default: the record's accuracy, at least 1 km).
    """
    import shapely

    last_day = state.rules.next_date(state.date) - dt.timedelta(days=1)
    bracket = records_bracketing(state.date, state.turn, last_day)
    rec = bracket[0]
    on_map = [u for u in state.units if u.status == "active" and u.type != "ship"]
    present = tuple(side for side in ("allied", "german") if any(u.side == side for u in on_map))
    # A turn starting on 6 June before the landings (GT 1, an AM turn): no record precedes it, and all the
    # ground was German then: judged against that as well as the first record.
    before_landings = state.date <= FIRST_DAY and state.turn != "PM"
    g = grid(state.system)
    # A unit's position is known to its hex: allow the record's accuracy plus the hex's radius.
    hex_radius_km = g.georeference.hex_size_m / np.sqrt(3.0) / 1000.0
    tolerance = max(rec.accuracy_km, 1.0) + hex_radius_km if tolerance_km is None else tolerance_km
    implied = implied_front(state)
    historical = shapely.intersection(rec.front, _map_area(state.system))
    fronts = [_metric(r)[2] for r in bracket]
    implied_metric = _to_metric(implied)
    historical_metric = _to_metric(historical)
    # Implied front -> historical line (the nearer of the bracketing records' lines):
    # the midpoints of the front hexsides.
    midpoints = shapely.line_interpolate_point(np.array(implied_metric.geoms), 0.5, normalized=True)
    if len(midpoints):
        there = np.min([shapely.distance(front, midpoints) for front in fronts], axis=0) / 1000.0
    else:
        there = np.array([np.inf])
    # Historical line (the evening before) inside the maps -> implied front.
    samples = _sample_line(historical_metric, SAMPLE_SPACING_M)
    back = shapely.distance(implied_metric, samples) / 1000.0 if len(samples) else np.array([np.inf])
    wrong = []
    for unit in state.units:
        if unit.status != "active" or unit.type == "ship":
            continue
        lon, lat = g.center(unit.hex)
        sides = {held_by((lon, lat), r.date, tolerance_km=tolerance) for r in bracket}
        if before_landings:
            sides.add("german")
        if not sides & {"contested", unit.side}:
            point = _to_metric(shapely.Point(lon, lat))
            wrong.append(
                {
                    "unit": unit.id,
                    "hex": unit.hex,
                    "side": unit.side,
                    "held_by": sides.pop(),
                    "distance_km": round(min(float(shapely.distance(f, point)) for f in fronts) / 1000.0, 2),
                    "cut_off": unit.cut_off,
                }
            )
    one_side = len(present) < 2  # no front is implied: no distance to measure (not an infinite one)
    return FrontComparison(
        scenario=state.scenario,
        date=state.date,
        turn=state.turn,
        record_date=rec.date,
        bracket_dates=tuple(r.date for r in bracket),
        mean_km=float("nan") if one_side else float(np.mean(there)),
        max_km=float("nan") if one_side else float(np.max(there)),
        mean_back_km=float("nan") if one_side else float(np.mean(back)),
        max_back_km=float("nan") if one_side else float(np.max(back)),
        wrong_side=wrong,
        tolerance_km=tolerance,
        implied_front=implied,
        historical_front=historical,
        sides_present=present,
        before_landings=before_landings,
    )
