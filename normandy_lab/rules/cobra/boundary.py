"""The Allied Army Boundary (5.9, 5.9.1): which side of it each hex lies on, and how far.

The boundary is a column of map A (the ``army_boundary`` marker) running on into map B (B35 runs on from
A25, 5.9a).  Once an Allied unit has stood south of Vire (A2116) at the end of a game turn, the boundary
may be extended (5.9.1b-c): one marker within three hexes of Vire, the other in column 51 of map A, and
the hexes of the straight line between them.  The extended boundary then runs down its column to where
the extension crosses it, and east along the extension to the map edge: the British side is the part of
the map east of the column and north of the extension, the US side the rest ("the effects remain
identical", 5.9.1d).

How far a hex lies from the boundary is its hex distance to the nearest boundary hex, positive on the
British side and negative on the US side: for the column alone that is the difference in columns, as
before the extension.  INFERRED: the rules draw the extended line on the map; the engine draws it as the
hex line between the two markers (the 5.9.1c example's 2117-5117 is a row, its 2117-5132 a diagonal),
and asks that the Vire end stand on or west of the column, so that the two lines meet.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from normandy_lab.grids import grid
from normandy_lab.grids.numbering import HexIdError
from normandy_lab.network import edge_arrays
from normandy_lab.rules.cobra.data import turn_of

if TYPE_CHECKING:
    from normandy_lab.engine.state import GameState

VIRE = "A2116"  # 5.9.1b
VIRE_REACH = 3  # 5.9.1b1: the extension's first marker within three hexes of Vire
EAST_COLUMN = 51  # 5.9.1b2: the other in the 5100 hex row of map A
SHEET_A_OFFSET = (10, 20)  # map A's column and row in the grid's global numbering: A0101 is (11, 21)


def east_of_boundary(state: GameState) -> np.ndarray | None:
    """Return how far east of the Allied Army Boundary each hex lies (US side: negative), or None.

    In hexes to the nearest boundary hex; without an extension, the number of columns east of the
    boundary's column (5.9), with one, the signed distance to the extended line (5.9.1b-d).
    """
    column = state.markers["army_boundary"]
    if column is None:
        return None
    ends = state.markers["boundary_extension"]
    return _offsets(state.system, int(column), tuple(ends) if ends else None)


def extension_problem(state: GameState, ends: Any) -> str | None:
    """Say why ``ends`` (Vire end, east end) cannot be the boundary's extension now (None: it can).

    Where the markers may stand (:func:`ends_problem`); only after a game turn that ended with an
    Allied unit south of Vire (5.9.1b); an extension already placed moves each end one hex north or
    south at most (5.9.1d).
    """
    return placement_problem(state, ends) or move_problem(state, ends)


def move_problem(state: GameState, ends: Any) -> str | None:
    """Say why an extension already placed cannot move to ``ends`` (5.9.1d: one hex north or south a turn)."""
    g = grid(state.system)
    before = state.markers["boundary_extension"]
    if before:
        for old, new, name in zip(before, ends, ("Vire", "east"), strict=True):
            old, new = g.canonical(old), g.canonical(new)
            if old[:3] != new[:3] or abs(int(old[3:5]) - int(new[3:5])) > 1:
                return (
                    f"the {name} end moves one hex north or south a turn, from {old} (5.9.1d), not to {new}"
                )
    return None


def placement_problem(state: GameState, ends: Any) -> str | None:
    """Say why ``ends`` cannot stand as the extension on ``state`` (None: they can), however they came there.

    The markers where 5.9.1b places them (:func:`ends_problem`), on a turn after one that ended with an
    Allied unit south of Vire (5.9.1b).  A scenario's extension and an edit's are both held to this.
    """
    problem = ends_problem(state.system, state.markers["army_boundary"], ends)
    if problem:
        return problem
    seen = state.markers["south_of_vire_gt"]
    if seen is None or seen >= turn_of(state.date):
        return (
            "the boundary is extended only after a game turn that ended with an Allied unit south of Vire "
            f"({VIRE}) (5.9.1b)"
            + (f": that was GT {seen}, this is that turn" if seen is not None else ": none has yet")
        )
    return None


def ends_problem(system: str, column: int | None, ends: Any) -> str | None:
    """Say why two hexes cannot be the extension's markers (5.9.1b), None when they can."""
    if not isinstance(ends, (list, tuple)) or len(ends) != 2 or not all(isinstance(h, str) for h in ends):
        return f"the extension is two hexes, [the Vire end, the east end], not {ends!r}"
    g = grid(system)

    try:
        vire_end, east_end = (g.canonical(h) for h in ends)
    except HexIdError as exc:  # an unknown hex id: the grid's message names it
        return str(exc)
    if g.distance(vire_end, VIRE) > VIRE_REACH:
        return (
            f"the first marker stands within {VIRE_REACH} hexes of Vire ({VIRE}), not at {vire_end} (5.9.1b1)"
        )
    if not east_end.startswith("A") or int(east_end[1:3]) != EAST_COLUMN:
        return f"the second marker stands in column {EAST_COLUMN} of map A, not at {east_end} (5.9.1b2)"
    if column is None:
        return "there is no Allied Army Boundary to extend (5.9): set army_boundary first"
    if int(vire_end[1:3]) > column:
        return (
            f"the Vire end {vire_end} stands east of the boundary's column A{column:02d}: the two lines "
            "would not meet (INFERRED: the engine draws the extension as the hex line between the markers)"
        )
    return None


@lru_cache(maxsize=32)
def _offsets(system: str, column: int, ends: tuple[str, str] | None) -> np.ndarray:
    g = grid(system)
    gcol = g.global_col
    boundary_col = column + SHEET_A_OFFSET[0]
    if ends is None:
        out = gcol - boundary_col
        out.setflags(write=False)
        return out
    wall, british = boundary_sides(system, column, ends)
    # Hex distance from every hex to the nearest wall hex, signed by side.
    q, r = g.q, g.r
    wq, wr = q[wall], r[wall]
    dq = q[:, None] - wq[None, :]
    dr = r[:, None] - wr[None, :]
    distance = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr)).min(axis=1)
    out = np.where(british, distance, -distance)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=32)
def boundary_sides(system: str, column: int, ends: tuple[str, str]) -> tuple[np.ndarray, np.ndarray]:
    """Return the extended boundary's hexes (indices) and the British side (a mask by hex).

    The boundary: its column from the north edge down to where the extension crosses it, then the
    extension east of the column.  The British side: every hex reached from the column's north-east
    without crossing the boundary (a line of adjacent hexes divides a hex map).
    """
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components


    g = grid(system)
    line = hex_line(system, g.canonical(ends[0]), g.canonical(ends[1]))
    boundary_col = column + SHEET_A_OFFSET[0]
    crossing = [i for i in line if g.global_col[i] == boundary_col]
    junction = min(int(g.global_row[i]) for i in crossing)
    upper = np.nonzero((g.global_col == boundary_col) & (g.global_row < junction))[0]
    east = [i for i in line if g.global_col[i] >= boundary_col]
    wall = np.array(sorted(set(upper.tolist()) | set(east)), dtype=np.int64)
    on_wall = np.zeros(len(g), dtype=bool)
    on_wall[wall] = True
    e = edge_arrays(system)
    keep = ~on_wall[e.src] & ~on_wall[e.dst]
    graph = csr_matrix((np.ones(int(keep.sum())), (e.src[keep], e.dst[keep])), shape=(len(g), len(g)))
    _, label = connected_components(graph, directed=False)
    top = np.nonzero(g.global_col == boundary_col + 1)[0]
    seed = top[np.argmin(g.global_row[top])]  # the north end of the column east of the boundary
    british = (label == label[seed]) & ~on_wall
    wall.setflags(write=False)
    british.setflags(write=False)
    return wall, british


def hex_line(system: str, a: str, b: str) -> list[int]:
    """Return the hexes of the straight line from ``a`` to ``b`` (cube interpolation), as indices."""
    g = grid(system)
    at = {(int(q), int(r)): i for i, (q, r) in enumerate(zip(g.q.tolist(), g.r.tolist(), strict=True))}
    ia, ib = g.index(a), g.index(b)
    qa, ra, qb, rb = float(g.q[ia]), float(g.r[ia]), float(g.q[ib]), float(g.r[ib])
    n = g.distance(a, b)
    out: list[int] = []
    for k in range(n + 1):
        t = k / n if n else 0.0
        # A nudge off the hexes' edges keeps the rounding from wavering on ties.
        q = qa + (qb - qa) * t + 1e-6
        r = ra + (rb - ra) * t + 2e-6
        out.append(at[_cube_round(q, r)])
    return out


def _cube_round(q: float, r: float) -> tuple[int, int]:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return int(rq), int(rr)
