"""Coastal hexes as line controls of the georeference (GTS 4.4.3)."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import numpy as np
import pytest
import shapely

from normandy_lab import grid
from normandy_lab.grids import control_sigma, fit_control_points, plane_of_ids
from normandy_lab.grids.coastfit import (
    SIDE_BANDS,
    CoastHexError,
    Shoreline,
    band_target,
    clear_cache,
    coast_hexes,
    fit_with_coast,
    shoreline,
)
from normandy_lab.grids.georef import Georeference, control_points, fit_similarity
from normandy_lab.grids.numbering import scheme

MAPS = Path(__file__).resolve().parents[1] / "maps"


def test_signed_distance_is_positive_at_sea_with_a_seaward_normal():
    shore = Shoreline(shapely.box(0.0, 0.0, 1000.0, 1000.0))
    d, nx, ny = shore.signed_distance([1100.0, 900.0, 500.0], [500.0, 500.0, 1300.0])
    assert d == pytest.approx([100.0, -100.0, 300.0])
    assert nx == pytest.approx([1.0, 1.0, 0.0])
    assert ny == pytest.approx([0.0, 0.0, 1.0])


def _bent_coast_case():
    """A known placement, a coast with a corner, and hexes at known distances out to sea."""
    truth = Georeference(a=280.0, b=-55.0, tx=400_000.0, ty=6_900_000.0)
    land = shapely.Polygon([(0, 0), (420_000, 0), (420_000, 6_905_000), (0, 6_905_000)])
    shore = Shoreline(land)
    # Coastal hexes whose true centres lie 100 m out to sea, on both arms of the corner.
    targets, coast_plane = [], []
    for X, Y in [(420_100.0, 6_880_000.0 + k * 4_000) for k in range(5)] + [
        (405_000.0 + k * 4_000, 6_905_100.0) for k in range(4)
    ]:
        x, y = truth.metric_to_plane(X, Y)
        coast_plane.append((float(x), float(y)))
        targets.append(100.0)
    # Two points, both with a 300 m error that turns the point-only fit by several degrees.
    plane = np.array([[0.0, 0.0], [20.0, 5.0]])
    Xp, Yp = truth.plane_to_metric(plane[:, 0], plane[:, 1])
    metric = np.column_stack([Xp, Yp]) + np.array([[0.0, 300.0], [0.0, -300.0]])
    return truth, shore, plane, metric, np.array(coast_plane), np.array(targets)


def test_coastal_hexes_fix_the_rotation_that_poor_points_cannot():
    truth, shore, plane, metric, coast_plane, targets = _bent_coast_case()
    points_only = fit_similarity(plane, metric, sigma=[500.0, 500.0])
    assert abs(points_only.rotation_deg - truth.rotation_deg) > 2.0
    fitted = fit_with_coast(
        plane, metric, [500.0, 500.0], coast_plane, targets, np.full(len(targets), 20.0), shore
    )
    assert fitted.rotation_deg == pytest.approx(truth.rotation_deg, abs=0.1)
    assert fitted.hex_size_m == pytest.approx(truth.hex_size_m, rel=0.005)
    X, Y = fitted.plane_to_metric(coast_plane[:, 0], coast_plane[:, 1])
    assert shore.signed_distance(X, Y)[0] == pytest.approx(targets, abs=15.0)


def test_band_target_is_the_middle_of_the_band_with_its_spread():
    mean, sigma = band_target("sea", 500.0)
    low, high = SIDE_BANDS["sea"]
    assert mean == pytest.approx(0.5 * (low + high) * 500.0)
    assert sigma > (high - low) / math.sqrt(12.0) * 500.0


def test_every_coastal_hex_is_explained_and_parses():
    for system in ("bfn", "cobra", "kg", "gts"):
        for c in coast_hexes(system):
            scheme(system).parse(c.hex_id)
            assert c.rule.strip()
            if c.use != "fit":
                assert c.reason.strip()
    assert len([c for c in coast_hexes("gts") if c.use == "fit"]) == 8


def test_gts_4_4_3_marker_hexes_lie_on_the_shore():
    """GTS 4.4.3: every marker hex is Impassable, next to a coastal hex with a centre dot."""
    table = grid("gts").coast_residuals()
    assert len(table) == 8
    for row in table.itertuples():
        assert row.in_band, f"{row.hex_id} is {row.seaward_hex:+.2f} hex from the shore"


def test_without_the_coastal_hexes_the_gts_fit_breaks_rule_4_4_3():
    """The coast carries the rotation: fitting the drop zones instead puts 44.002 far out to sea."""
    g = grid("gts")
    sch = g.scheme
    zones = [p for p in control_points("gts") if p.place.startswith(("DZ ", "LZ "))]
    fitted = [p for p in control_points("gts") if p.use == "fit"] + zones[:5]
    geo = fit_control_points(sch, fitted)[0]
    X, Y = geo.plane_to_metric(*plane_of_ids(sch, ["44.002"]))
    assert shoreline().signed_distance([X], [Y])[0][0] / geo.hex_size_m > SIDE_BANDS["sea"][1]
    X, Y = g.georeference.plane_to_metric(*plane_of_ids(sch, ["44.002"]))
    assert shoreline().signed_distance([X], [Y])[0][0] / g.georeference.hex_size_m < SIDE_BANDS["sea"][1]


def test_grids_use_the_weighted_fit():
    """docs/grids.md: each point counts by the inverse square of its standard error."""
    g = grid("cobra")
    points = [p for p in control_points("cobra") if p.use == "fit"]
    weighted = fit_control_points(g.scheme, points)[0]
    assert g.georeference == weighted
    sigmas = {control_sigma(g.scheme, p) for p in points}
    assert len(sigmas) > 1  # unequal weights, so an unweighted fit would differ
    unweighted = fit_similarity(*fit_control_points(g.scheme, points)[1:3])
    assert unweighted != weighted


def test_coastal_hexes_with_a_held_size_are_refused():
    g = grid("gts")
    points = [p for p in control_points("gts") if p.use == "fit"]
    with pytest.raises(ValueError, match="coastal hexes need a free hex size"):
        fit_control_points(g.scheme, points, printed_size=True, coast=coast_hexes("gts"))


@pytest.fixture
def maps_copy(tmp_path, monkeypatch):
    target = tmp_path / "maps"
    shutil.copytree(MAPS, target)
    monkeypatch.setenv("NORMANDY_LAB_MAPS", str(target))
    clear_cache()
    yield target
    clear_cache()


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ('  - {hex: "20.025", side: sea, rule: "r"}\n', r":\d+: gts\[8\]\.use: missing required field"),
        (
            '  - {hex: "20.025", side: shore, rule: "r", use: fit}\n',
            r":\d+: gts\[8\]\.side: 'shore' is not allowed; use one of 'sea'",
        ),
        (
            "  - {hex: 20.025, side: sea, rule: r, use: fit}\n",
            r"gts\[8\]\.hex: 20\.025 was read as a number; write it in quotes",
        ),
        (
            '  - {hex: "20.025", side: sea, rule: "r", use: check}\n',
            r":\d+: gts\[8\]\.reason: a 'check' entry needs a reason",
        ),
        (
            '  - {hex: "20.025", side: sea, rule: "r", use: maybe}\n',
            r"gts\[8\]\.use: 'maybe' is not allowed; use one of 'fit', 'check' or 'dropped'",
        ),
        (
            '  - {hex: "20.025", side: sea, rule: "r", use: fit, colour: blue}\n',
            r"gts\[8\]\.colour: unknown field",
        ),
        ("  - [unclosed\n", r"coast_hexes\.yaml:\d+"),
    ],
)
def test_a_bad_coastal_hex_entry_is_refused_with_file_entry_and_field(maps_copy, entry, message):
    _append(maps_copy / "grids" / "coast_hexes.yaml", entry)
    with pytest.raises(CoastHexError, match=message) as raised:
        coast_hexes("gts")
    assert "coast_hexes.yaml" in str(raised.value)


def test_a_bad_control_point_is_refused_through_the_same_reader(maps_copy):
    """control_points.yaml is read by the same checks (georef.read_system_entries)."""
    from normandy_lab.grids.georef import ControlPointError, _load_control_points

    _append(
        maps_copy / "grids" / "control_points.yaml",
        '  - {hex: "30.027", place: Carentan, rule: r, use: check}\n',
    )
    _load_control_points.cache_clear()
    try:
        with pytest.raises(
            ControlPointError,
            match=r"control_points\.yaml:\d+: gts\[\d+\]\.reason: a 'check' entry needs a reason",
        ):
            control_points("gts")
    finally:
        _load_control_points.cache_clear()


def test_the_schema_names_every_kind_of_coastal_hex_the_fit_places():
    """words.COAST_SIDES (the schema's words, a leaf the schemas import) are SIDE_BANDS' kinds, in order."""
    from normandy_lab.grids.coastfit import SIDE_BANDS
    from normandy_lab.words import COAST_SIDES

    assert tuple(SIDE_BANDS) == COAST_SIDES
