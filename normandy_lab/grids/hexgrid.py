"""Hex-grid mathematics in the names of the canonical reference.

The names follow Amit Patel's "Hexagonal Grids" reference (Red Blob Games):
axial/cube coordinates (:class:`Hex`), :class:`Orientation` and :class:`Layout`
for turning hexes into plane coordinates, and offset coordinates
(:class:`OffsetCoord`) with the four conventions ``odd-r``, ``even-r``,
``odd-q`` and ``even-q``.  The implementation is this project's own.

Conventions
-----------
* Axial ``(q, r)``; the third cube coordinate is ``s = -q - r``.
* The plane used by :class:`Layout` has ``x`` to the right and ``y`` *down*
  (screen convention, as in the reference).  Georeferencing flips ``y`` when
  it maps the plane onto the Earth (see :mod:`normandy_lab.grids.georef`).
* Offset coordinates are ``(col, row)``; ``row`` grows downwards.  In the
  ``-r`` conventions rows are straight and every other row is shoved half a
  hex to the right (pointy-top hexes); in the ``-q`` conventions columns are
  straight and every other column is shoved half a hex down (flat-top hexes).
  ``EVEN``/``ODD`` name which rows (columns) are shoved.

Every function that works on one hex has a vectorised ``*_array`` sibling
that works on whole numpy arrays at once, for whole-grid work.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from normandy_lab.errors import RefusedError

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

EVEN = 1
"""Offset parity: the even rows (or columns) are the shoved ones."""
ODD = -1
"""Offset parity: the odd rows (or columns) are the shoved ones."""


class Hex(NamedTuple):
    """A hex in axial coordinates; ``s`` is derived."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """Third cube coordinate, ``-q - r``."""
        return -self.q - self.r


class FractionalHex(NamedTuple):
    """A point of the hex plane in fractional axial coordinates."""

    q: float
    r: float

    @property
    def s(self) -> float:
        """Third cube coordinate, ``-q - r``."""
        return -self.q - self.r


class OffsetCoord(NamedTuple):
    """A hex in offset coordinates ``(col, row)``."""

    col: int
    row: int


# The six axial directions, counter-clockwise from "east" in the reference's
# order; index i of hex_direction().
HEX_DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)


def hex_add(a: Hex, b: Hex) -> Hex:
    """Return ``a + b``."""
    return Hex(a.q + b.q, a.r + b.r)


def hex_subtract(a: Hex, b: Hex) -> Hex:
    """Return ``a - b``."""
    return Hex(a.q - b.q, a.r - b.r)


def hex_scale(a: Hex, k: int) -> Hex:
    """Return ``a`` multiplied by the integer ``k``."""
    return Hex(a.q * k, a.r * k)


def hex_direction(direction: int) -> Hex:
    """Return the unit vector of ``direction`` (taken modulo 6)."""
    return HEX_DIRECTIONS[direction % 6]


def hex_neighbor(h: Hex, direction: int) -> Hex:
    """Return the neighbour of ``h`` in ``direction``."""
    return hex_add(h, hex_direction(direction))


def hex_neighbors(h: Hex) -> list[Hex]:
    """Return the six neighbours of ``h`` in direction order."""
    return [hex_add(h, d) for d in HEX_DIRECTIONS]


def hex_length(h: Hex) -> int:
    """Return the distance of ``h`` from the origin."""
    return (abs(h.q) + abs(h.r) + abs(h.s)) // 2


def hex_distance(a: Hex, b: Hex) -> int:
    """Return the number of hex steps between ``a`` and ``b``."""
    return hex_length(hex_subtract(a, b))


def hex_round(h: FractionalHex) -> Hex:
    """Round a fractional hex to the hex that contains it."""
    q, r, s = round(h.q), round(h.r), round(h.s)
    dq, dr, ds = abs(q - h.q), abs(r - h.r), abs(s - h.s)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


def hex_lerp(a: FractionalHex | Hex, b: FractionalHex | Hex, t: float) -> FractionalHex:
    """Linear interpolation between two (fractional) hexes."""
    return FractionalHex(a.q * (1.0 - t) + b.q * t, a.r * (1.0 - t) + b.r * t)


def hex_linedraw(a: Hex, b: Hex) -> list[Hex]:
    """Return the hexes on the straight line from ``a`` to ``b``, both included.

    The end points are nudged by a tiny epsilon, as in the reference, so that
    a line running exactly along a hexside picks one side consistently.
    """
    n = hex_distance(a, b)
    a_nudge = FractionalHex(a.q + 1e-6, a.r + 1e-6)
    b_nudge = FractionalHex(b.q + 1e-6, b.r + 1e-6)
    step = 1.0 / max(n, 1)
    return [hex_round(hex_lerp(a_nudge, b_nudge, step * i)) for i in range(n + 1)]


def hex_ring(center: Hex, radius: int) -> list[Hex]:
    """Return the hexes at exactly ``radius`` steps from ``center``."""
    if radius < 0:
        raise RefusedError(f"ring radius must be >= 0, got {radius}")
    if radius == 0:
        return [center]
    results = []
    h = hex_add(center, hex_scale(hex_direction(4), radius))
    for direction in range(6):
        for _ in range(radius):
            results.append(h)
            h = hex_neighbor(h, direction)
    return results


def hex_range(center: Hex, radius: int) -> list[Hex]:
    """Return every hex within ``radius`` steps of ``center`` (a filled disc)."""
    if radius < 0:
        raise RefusedError(f"range radius must be >= 0, got {radius}")
    results = []
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            results.append(Hex(center.q + dq, center.r + dr))
    return results


def hex_spiral(center: Hex, radius: int) -> Iterator[Hex]:
    """Yield the hexes within ``radius`` ring by ring, nearest first."""
    for k in range(radius + 1):
        yield from hex_ring(center, k)


# ---------------------------------------------------------------------------
# Offset coordinates


def _check_offset(offset: int) -> None:
    if offset not in (EVEN, ODD):
        raise RefusedError(f"offset must be EVEN (+1) or ODD (-1), got {offset!r}")


def qoffset_from_cube(offset: int, h: Hex) -> OffsetCoord:
    """Axial to offset coordinates for flat-top columns (``odd-q``/``even-q``)."""
    _check_offset(offset)
    col = h.q
    row = h.r + (h.q + offset * (h.q & 1)) // 2
    return OffsetCoord(col, row)


def qoffset_to_cube(offset: int, o: OffsetCoord) -> Hex:
    """Offset to axial coordinates for flat-top columns."""
    _check_offset(offset)
    q = o.col
    r = o.row - (o.col + offset * (o.col & 1)) // 2
    return Hex(q, r)


def roffset_from_cube(offset: int, h: Hex) -> OffsetCoord:
    """Axial to offset coordinates for pointy-top rows (``odd-r``/``even-r``)."""
    _check_offset(offset)
    col = h.q + (h.r + offset * (h.r & 1)) // 2
    row = h.r
    return OffsetCoord(col, row)


def roffset_to_cube(offset: int, o: OffsetCoord) -> Hex:
    """Offset to axial coordinates for pointy-top rows."""
    _check_offset(offset)
    q = o.col - (o.row + offset * (o.row & 1)) // 2
    r = o.row
    return Hex(q, r)


# ---------------------------------------------------------------------------
# Layout


@dataclass(frozen=True)
class Orientation:
    """Forward (``f``) and inverse (``b``) matrices of a hex orientation."""

    f0: float
    f1: float
    f2: float
    f3: float
    b0: float
    b1: float
    b2: float
    b3: float
    start_angle: float


LAYOUT_POINTY = Orientation(
    math.sqrt(3.0),
    math.sqrt(3.0) / 2.0,
    0.0,
    3.0 / 2.0,
    math.sqrt(3.0) / 3.0,
    -1.0 / 3.0,
    0.0,
    2.0 / 3.0,
    0.5,
)
"""Pointy-top hexes: straight rows, a vertex at the top."""

LAYOUT_FLAT = Orientation(
    3.0 / 2.0,
    0.0,
    math.sqrt(3.0) / 2.0,
    math.sqrt(3.0),
    2.0 / 3.0,
    0.0,
    -1.0 / 3.0,
    math.sqrt(3.0) / 3.0,
    0.0,
)
"""Flat-top hexes: straight columns, a flat side at the top."""


@dataclass(frozen=True)
class Layout:
    """Placement of a hex grid on a plane.

    Parameters
    ----------
    orientation
        :data:`LAYOUT_POINTY` or :data:`LAYOUT_FLAT`.
    size
        Centre-to-vertex distance along ``x`` and ``y``.
    origin
        Plane position of hex ``(0, 0)``.
    """

    orientation: Orientation
    size: tuple[float, float] = (1.0, 1.0)
    origin: tuple[float, float] = (0.0, 0.0)


def hex_to_pixel(layout: Layout, h: Hex | FractionalHex) -> tuple[float, float]:
    """Return the plane position of the centre of ``h``."""
    m = layout.orientation
    x = (m.f0 * h.q + m.f1 * h.r) * layout.size[0]
    y = (m.f2 * h.q + m.f3 * h.r) * layout.size[1]
    return x + layout.origin[0], y + layout.origin[1]


def pixel_to_hex(layout: Layout, point: tuple[float, float]) -> FractionalHex:
    """Return the fractional hex at a plane position (round it with :func:`hex_round`)."""
    m = layout.orientation
    px = (point[0] - layout.origin[0]) / layout.size[0]
    py = (point[1] - layout.origin[1]) / layout.size[1]
    return FractionalHex(m.b0 * px + m.b1 * py, m.b2 * px + m.b3 * py)


def hex_corner_offset(layout: Layout, corner: int) -> tuple[float, float]:
    """Return the offset of vertex ``corner`` (0..5) from a hex centre."""
    angle = 2.0 * math.pi * (layout.orientation.start_angle + corner) / 6.0
    return layout.size[0] * math.cos(angle), layout.size[1] * math.sin(angle)


def polygon_corners(layout: Layout, h: Hex) -> list[tuple[float, float]]:
    """Return the six vertices of ``h`` on the plane."""
    cx, cy = hex_to_pixel(layout, h)
    corners = []
    for i in range(6):
        ox, oy = hex_corner_offset(layout, i)
        corners.append((cx + ox, cy + oy))
    return corners


# ---------------------------------------------------------------------------
# Vectorised versions, for whole-grid work


def hex_to_pixel_array(layout: Layout, q: npt.ArrayLike, r: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Vectorised :func:`hex_to_pixel` over arrays of axial coordinates."""
    m = layout.orientation
    q = np.asarray(q, dtype=float)
    r = np.asarray(r, dtype=float)
    x = (m.f0 * q + m.f1 * r) * layout.size[0] + layout.origin[0]
    y = (m.f2 * q + m.f3 * r) * layout.size[1] + layout.origin[1]
    return x, y


def pixel_to_hex_array(layout: Layout, x: npt.ArrayLike, y: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Vectorised :func:`pixel_to_hex`: fractional axial coordinates."""
    m = layout.orientation
    px = (np.asarray(x, dtype=float) - layout.origin[0]) / layout.size[0]
    py = (np.asarray(y, dtype=float) - layout.origin[1]) / layout.size[1]
    return m.b0 * px + m.b1 * py, m.b2 * px + m.b3 * py


def hex_round_array(q: npt.ArrayLike, r: npt.ArrayLike) -> tuple[IntArray, IntArray]:
    """Vectorised :func:`hex_round`."""
    q = np.asarray(q, dtype=float)
    r = np.asarray(r, dtype=float)
    s = -q - r
    rq, rr, rs = np.rint(q), np.rint(r), np.rint(s)
    dq, dr, ds = np.abs(rq - q), np.abs(rr - r), np.abs(rs - s)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    rq = np.where(fix_q, -rr - rs, rq)
    rr = np.where(fix_r, -rq - rs, rr)
    return rq.astype(np.int64), rr.astype(np.int64)


def hex_distance_array(
    q1: npt.ArrayLike, r1: npt.ArrayLike, q2: npt.ArrayLike, r2: npt.ArrayLike
) -> IntArray:
    """Vectorised :func:`hex_distance` (broadcasting)."""
    dq = np.asarray(q1, dtype=np.int64) - np.asarray(q2, dtype=np.int64)
    dr = np.asarray(r1, dtype=np.int64) - np.asarray(r2, dtype=np.int64)
    distance: IntArray = (np.abs(dq) + np.abs(dr) + np.abs(dq + dr)) // 2  # numpy types the sum as Any
    return distance


def qoffset_to_cube_array(offset: int, col: npt.ArrayLike, row: npt.ArrayLike) -> tuple[IntArray, IntArray]:
    """Vectorised :func:`qoffset_to_cube`."""
    _check_offset(offset)
    col = np.asarray(col, dtype=np.int64)
    row = np.asarray(row, dtype=np.int64)
    return col, row - (col + offset * (col & 1)) // 2


def qoffset_from_cube_array(offset: int, q: npt.ArrayLike, r: npt.ArrayLike) -> tuple[IntArray, IntArray]:
    """Vectorised :func:`qoffset_from_cube`."""
    _check_offset(offset)
    q = np.asarray(q, dtype=np.int64)
    r = np.asarray(r, dtype=np.int64)
    return q, r + (q + offset * (q & 1)) // 2


def roffset_to_cube_array(offset: int, col: npt.ArrayLike, row: npt.ArrayLike) -> tuple[IntArray, IntArray]:
    """Vectorised :func:`roffset_to_cube`."""
    _check_offset(offset)
    col = np.asarray(col, dtype=np.int64)
    row = np.asarray(row, dtype=np.int64)
    return col - (row + offset * (row & 1)) // 2, row


def roffset_from_cube_array(offset: int, q: npt.ArrayLike, r: npt.ArrayLike) -> tuple[IntArray, IntArray]:
    """Vectorised :func:`roffset_from_cube`."""
    _check_offset(offset)
    q = np.asarray(q, dtype=np.int64)
    r = np.asarray(r, dtype=np.int64)
    return q + (r + offset * (r & 1)) // 2, r


def polygon_corners_array(
    layout: Layout, q: npt.ArrayLike, r: npt.ArrayLike
) -> tuple[FloatArray, FloatArray]:
    """Vertices of many hexes at once: two ``(n, 6)`` arrays of ``x`` and ``y``."""
    cx, cy = hex_to_pixel_array(layout, q, r)
    angles = 2.0 * np.pi * (layout.orientation.start_angle + np.arange(6)) / 6.0
    xs = cx[..., None] + layout.size[0] * np.cos(angles)
    ys = cy[..., None] + layout.size[1] * np.sin(angles)
    return xs, ys
