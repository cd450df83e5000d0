"""How Cobra counts a line of supply (10.3), as moves between the layers of a :class:`LayeredGraph`.

10.3 counts a line in "hexes" its own way: a hex entered along a minor road counts 1 whatever its terrain
(10.3e); a bocage hex entered off the roads counts 2 (10.3d), any other hex 1; crossing a major river off
the roads counts 6 (10.3g); a run along a major road counts 1 however many hexes it runs (10.3a, f); and a
line may pass through at most one marsh hex, except through hexsides with roads (10.3b4).  The limit is
12 (10.3a).  The worked example of 10.3: A1212 to A1312 (bocage, 2), along a minor road to A1809 (6), along
the major road to Isigny (1): 9 in all.

Two things 10.3 leaves open are options (``readings``), each with a default:

``major_road``
    ``"per_run"`` (default): each run along a major road counts 1 (10.3f: "when tracing along a major
    road, all major road hexes are counted as one hex"); ``"per_line"``: every major-road hex of the whole
    line together counts 1.  The worked example has one run, so both readings give it 9.
``major_river``
    ``"replaces"`` (default): the step across the river counts 6 in all (10.3g: the crossing "counts as
    six hexes"); ``"adds"``: 6 for the river plus the hex entered beyond it.

The unit's own hex is not counted (the example counts from A1312, the first hex entered) and is not the
marsh hex of 10.3b4 (INFERRED: the line passes *through* marsh it enters).

A run along a major road costs nothing beyond its first hex, so many lines tie; to draw the one a player
would trace, every count is kept in units of :data:`SCALE` plus 1 for each hex stepped: among lines of
equal count the search takes the one with the fewest hexes, and a count is ``distance // SCALE``.

The state a line carries is two bits, so a search runs on four layers: bit 0, the line arrived at this
hex along a major road (``per_run``) or has used its major road (``per_line``); bit 1, its marsh hex is
spent.  Every line starts in layer 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from normandy_lab.engine.layered import Move
from normandy_lab.engine.search import FAR
from normandy_lab.errors import RefusedError

LIMIT = 12  # 10.3a
BOCAGE_COUNT = 2  # 10.3d
MAJOR_RIVER_COUNT = 6  # 10.3g
N_LAYERS = 4
SCALE = 4096  # more steps than any line on a Cobra map takes (2,729 hexes): the tie-break never carries
ON_ROAD, MARSH_USED = 1, 2

READINGS = {
    "major_road": ("per_run", "per_line"),
    "major_river": ("replaces", "adds"),
}


@dataclass(frozen=True)
class LineEdges:
    """What 10.3 needs to know of each directed edge ``a -> b`` of a map, as arrays over the edges.

    ``major_road`` and ``minor_road``: a usable road of that class joins the two hexes along this hexside
    (across water only by a standing bridge); ``major_river``: the hexside is a major river;
    ``closed``: no line crosses it (all-sea, 10.3b3's unbridged Dives hexsides); ``bocage`` and
    ``marsh``: the terrain of the hex entered.
    """

    major_road: np.ndarray
    minor_road: np.ndarray
    major_river: np.ndarray
    closed: np.ndarray
    bocage: np.ndarray
    marsh: np.ndarray


def line_moves(edges: LineEdges, major_road: str = "per_run", major_river: str = "replaces") -> list[Move]:
    """Return the moves between the four layers that count a line as 10.3 does.

    Parameters
    ----------
    edges
        The map's edges as 10.3 sees them.
    major_road, major_river
        The readings of 10.3f and 10.3g (see the module docstring).
    """
    for name, value in (("major_road", major_road), ("major_river", major_river)):
        if value not in READINGS[name]:
            raise RefusedError(f"{name}={value!r}: the readings are {', '.join(READINGS[name])}")
    open_ = ~np.asarray(edges.closed, dtype=bool)
    major = open_ & edges.major_road
    minor = open_ & edges.minor_road & ~major
    off = open_ & ~major & ~minor
    hex_count = np.where(edges.bocage, BOCAGE_COUNT, 1)
    if major_river == "replaces":
        off_count = np.where(edges.major_river, MAJOR_RIVER_COUNT, hex_count)
    else:
        off_count = np.where(edges.major_river, MAJOR_RIVER_COUNT, 0) + hex_count
    major_count = SCALE + 1  # the first hex of a run; the rest of it costs only its tie-break
    off_count = off_count * SCALE + 1
    moves = []
    for layer in range(N_LAYERS):
        marsh = layer & MARSH_USED
        on_road = layer & ON_ROAD
        # Along a major road: 1 to start a run (or the line's road count), nothing to go on with it.
        moves.append(Move(layer, ON_ROAD | marsh, major, 1 if on_road else major_count))
        # Leaving the major road ends the run (per_run); per_line, the road once counted stays counted.
        keep = on_road if major_road == "per_line" else 0
        moves.append(Move(layer, keep | marsh, minor, SCALE + 1))
        dry = off & ~edges.marsh
        moves.append(Move(layer, keep | marsh, dry, off_count))
        if not marsh:  # the one marsh hex a line may pass through off the roads (10.3b4)
            moves.append(Move(layer, keep | MARSH_USED, off & edges.marsh, off_count))
    return moves


def count_of(distance: np.ndarray | int) -> np.ndarray | int:
    """Return the 10.3 count of a search distance (FAR stays FAR)."""
    value = np.where(np.asarray(distance) >= FAR, FAR, np.asarray(distance) // SCALE)
    return int(value) if value.ndim == 0 else value


def distance_limit(limit: int = LIMIT) -> int:
    """Return the largest search distance whose count is within ``limit``."""
    return (limit + 1) * SCALE - 1
