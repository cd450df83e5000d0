"""Hex mathematics: identities of the canonical reference, scalar against vectorised."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from normandy_lab.grids.hexgrid import (
    EVEN,
    HEX_DIRECTIONS,
    LAYOUT_FLAT,
    LAYOUT_POINTY,
    ODD,
    FractionalHex,
    Hex,
    Layout,
    OffsetCoord,
    hex_distance,
    hex_distance_array,
    hex_linedraw,
    hex_neighbor,
    hex_neighbors,
    hex_range,
    hex_ring,
    hex_round,
    hex_round_array,
    hex_spiral,
    hex_to_pixel,
    hex_to_pixel_array,
    pixel_to_hex,
    pixel_to_hex_array,
    polygon_corners,
    polygon_corners_array,
    qoffset_from_cube,
    qoffset_from_cube_array,
    qoffset_to_cube,
    qoffset_to_cube_array,
    roffset_from_cube,
    roffset_from_cube_array,
    roffset_to_cube,
    roffset_to_cube_array,
)

coords = st.integers(min_value=-200, max_value=200)
hexes = st.builds(Hex, coords, coords)


def test_cube_constraint():
    h = Hex(3, -7)
    assert h.q + h.r + h.s == 0


def test_neighbors_are_at_distance_one():
    h = Hex(2, -5)
    assert len(set(hex_neighbors(h))) == 6
    assert all(hex_distance(h, n) == 1 for n in hex_neighbors(h))
    assert hex_neighbor(h, 6) == hex_neighbor(h, 0)  # directions wrap


@given(hexes, hexes)
def test_distance_is_a_metric(a, b):
    assert hex_distance(a, b) == hex_distance(b, a)
    assert (hex_distance(a, b) == 0) == (a == b)
    c = Hex(a.q + 3, a.r - 1)
    assert hex_distance(a, b) <= hex_distance(a, c) + hex_distance(c, b)


@given(hexes, hexes)
def test_linedraw_is_a_connected_path_of_minimal_length(a, b):
    line = hex_linedraw(a, b)
    assert line[0] == a and line[-1] == b
    assert len(line) == hex_distance(a, b) + 1
    assert all(hex_distance(p, q) == 1 for p, q in itertools.pairwise(line))


@pytest.mark.parametrize("radius", [0, 1, 2, 5])
def test_ring_and_range_sizes(radius):
    center = Hex(4, -2)
    ring = hex_ring(center, radius)
    assert len(ring) == (1 if radius == 0 else 6 * radius)
    assert all(hex_distance(center, h) == radius for h in ring)
    disc = hex_range(center, radius)
    assert len(disc) == 1 + 3 * radius * (radius + 1)
    assert set(disc) == set(hex_spiral(center, radius))


def test_negative_radius_is_refused():
    with pytest.raises(ValueError, match="radius"):
        hex_ring(Hex(0, 0), -1)


@given(hexes)
def test_offset_round_trips(h):
    for offset in (EVEN, ODD):
        assert qoffset_to_cube(offset, qoffset_from_cube(offset, h)) == h
        assert roffset_to_cube(offset, roffset_from_cube(offset, h)) == h


def test_offset_parity_meaning():
    # odd-r: the odd rows are shoved right, so (col 0, row 1) lies right of (col 0, row 0).
    layout = Layout(LAYOUT_POINTY)
    x0, _ = hex_to_pixel(layout, roffset_to_cube(ODD, OffsetCoord(0, 0)))
    x1, _ = hex_to_pixel(layout, roffset_to_cube(ODD, OffsetCoord(0, 1)))
    assert x1 > x0
    # even-q: the even columns are shoved down, so (col 0, row 0) lies below (col 1, row 0).
    layout = Layout(LAYOUT_FLAT)
    _, y0 = hex_to_pixel(layout, qoffset_to_cube(EVEN, OffsetCoord(0, 0)))
    _, y1 = hex_to_pixel(layout, qoffset_to_cube(EVEN, OffsetCoord(1, 0)))
    assert y0 > y1


def test_offset_rejects_bad_parity():
    with pytest.raises(ValueError, match="EVEN"):
        qoffset_from_cube(0, Hex(0, 0))


@pytest.mark.parametrize("orientation", [LAYOUT_POINTY, LAYOUT_FLAT])
@given(h=hexes)
def test_pixel_round_trip(orientation, h):
    layout = Layout(orientation, size=(3.0, 3.0), origin=(10.0, -4.0))
    assert hex_round(pixel_to_hex(layout, hex_to_pixel(layout, h))) == h


@pytest.mark.parametrize("orientation", [LAYOUT_POINTY, LAYOUT_FLAT])
def test_corners_are_one_size_from_the_centre(orientation):
    layout = Layout(orientation, size=(2.0, 2.0))
    cx, cy = hex_to_pixel(layout, Hex(1, 1))
    for x, y in polygon_corners(layout, Hex(1, 1)):
        assert np.hypot(x - cx, y - cy) == pytest.approx(2.0)


def test_neighbour_centres_are_one_hex_width_apart():
    layout = Layout(LAYOUT_POINTY)
    origin = hex_to_pixel(layout, Hex(0, 0))
    for d in HEX_DIRECTIONS:
        x, y = hex_to_pixel(layout, d)
        assert np.hypot(x - origin[0], y - origin[1]) == pytest.approx(np.sqrt(3.0))


def test_hex_round_of_fractional():
    assert hex_round(FractionalHex(0.1, 0.9)) == Hex(0, 1)


@given(st.lists(st.tuples(coords, coords), min_size=1, max_size=40))
def test_vectorised_functions_agree_with_scalar(pairs):
    q = np.array([p[0] for p in pairs])
    r = np.array([p[1] for p in pairs])
    scalar = [Hex(int(a), int(b)) for a, b in pairs]
    for offset in (EVEN, ODD):
        cols, rows = qoffset_from_cube_array(offset, q, r)
        assert [OffsetCoord(int(c), int(w)) for c, w in zip(cols, rows, strict=True)] == [
            qoffset_from_cube(offset, h) for h in scalar
        ]
        qq, rr = qoffset_to_cube_array(offset, cols, rows)
        assert (qq == q).all() and (rr == r).all()
        cols, rows = roffset_from_cube_array(offset, q, r)
        assert [OffsetCoord(int(c), int(w)) for c, w in zip(cols, rows, strict=True)] == [
            roffset_from_cube(offset, h) for h in scalar
        ]
        qq, rr = roffset_to_cube_array(offset, cols, rows)
        assert (qq == q).all() and (rr == r).all()
    layout = Layout(LAYOUT_FLAT, size=(2.0, 2.0), origin=(1.0, 1.0))
    x, y = hex_to_pixel_array(layout, q, r)
    assert np.allclose(np.column_stack([x, y]), [hex_to_pixel(layout, h) for h in scalar])
    fq, fr = pixel_to_hex_array(layout, x + 0.3, y - 0.2)
    rq, rr = hex_round_array(fq, fr)
    assert [Hex(int(a), int(b)) for a, b in zip(rq, rr, strict=True)] == [
        hex_round(pixel_to_hex(layout, (px + 0.3, py - 0.2))) for px, py in zip(x, y, strict=True)
    ]
    assert (hex_distance_array(q, r, 0, 0) == [hex_distance(h, Hex(0, 0)) for h in scalar]).all()
    xs, ys = polygon_corners_array(layout, q, r)
    assert np.allclose(np.stack([xs[0], ys[0]], axis=1), polygon_corners(layout, scalar[0]))
