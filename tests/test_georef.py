"""Georeference: the fit, the residual targets, and the sheet placement."""

from __future__ import annotations

import math

import numpy as np
import pytest

from normandy_lab import SYSTEMS, grid, lookup
from normandy_lab.grids.georef import Georeference, control_points, fit_similarity
from normandy_lab.grids.numbering import scheme
from normandy_lab.grids.sheetfit import search_sheet_shifts
from normandy_lab.rules.bfn.map import BFN_SHIFTS
from normandy_lab.rules.kg.map import KG_E_COL_SHIFT


def test_fit_similarity_recovers_a_known_transform():
    truth = Georeference(a=900.0, b=-35.0, tx=400_000.0, ty=6_900_000.0)
    rng = np.random.default_rng(7)
    plane = rng.uniform(-50, 50, size=(6, 2))
    X, Y = truth.plane_to_metric(plane[:, 0], plane[:, 1])
    fitted = fit_similarity(plane, np.column_stack([X, Y]))
    assert fitted.a == pytest.approx(truth.a)
    assert fitted.b == pytest.approx(truth.b)
    assert fitted.tx == pytest.approx(truth.tx)
    assert fitted.ty == pytest.approx(truth.ty)
    back = fitted.metric_to_plane(X, Y)
    assert np.allclose(np.column_stack(back), plane)


def test_fit_needs_two_points():
    with pytest.raises(ValueError, match="at least two"):
        fit_similarity([[0.0, 0.0]], [[1.0, 1.0]])


GTS_NOT_MET = pytest.mark.xfail(
    strict=True,
    reason="GTS (500 m hexes): no control point is known better than about 350 m; with derived "
    "positions and the coastal hexes of rule 4.4.3 the fit reaches RMS 0.82 hex (see docs/grids.md). "
    "Needs sourced positions.",
)


@pytest.mark.parametrize("system", ["bfn", "cobra", "kg", pytest.param("gts", marks=GTS_NOT_MET)])
def test_residual_targets(system):
    """Issue 2: RMS <= 0.5 hex and maximum <= 1 hex for every grid and every sheet with fit points."""
    summary = grid(system).residual_summary()
    for row in summary.itertuples():
        assert row.rms_hex <= 0.5, f"{system} sheet {row.sheet}: RMS {row.rms_hex:.2f} hex"
        assert row.max_hex <= 1.0, f"{system} sheet {row.sheet}: max {row.max_hex:.2f} hex"


def test_gts_placement_is_within_its_weaker_bound():
    """Until GTS has sourced control points, hold every point to its own stated accuracy.

    Each point, fitted or checked, must lie within two of its standard errors
    (place accuracy and position inside the hex) of its hex, and the fit points
    within one hex RMS.
    """
    g = grid("gts")
    table = g.residuals()
    for row in table[table["use"] != "dropped"].itertuples():
        assert row.residual_km <= 2.0 * row.sigma_km, f"{row.place}: {row.residual_km:.2f} km"
    assert g.residual_summary().iloc[-1].rms_hex <= 1.0


@pytest.mark.parametrize("system", SYSTEMS)
def test_fitted_hex_size_matches_the_rulebook_scale(system):
    """The fitted size is free; landing within 3% of the printed scale checks the numbering model."""
    g = grid(system)
    assert g.georeference.hex_size_m == pytest.approx(g.scheme.hex_size_m, rel=0.03)


@pytest.mark.parametrize("system", SYSTEMS)
def test_grid_north_is_close_to_true_north(system):
    assert abs(grid(system).georeference.rotation_deg) < 15.0


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_control_point_is_explained(system):
    points = control_points(system)
    assert sum(p.use == "fit" for p in points) >= 3
    for p in points:
        assert p.rule.strip(), p
        if p.use != "fit":
            assert p.reason.strip(), p
        lookup(p.place)  # every place is in the gazetteer
        for hex_id in p.hex_ids:
            scheme(system).parse(hex_id)


@pytest.mark.parametrize("system", SYSTEMS)
def test_fit_points_follow_the_policy(system):
    """A fit point's place is sourced and known to better than half a hex.

    Where a system has fewer than three such points (GTS), derived places
    known to better than one hex are admitted (docs/grids.md).
    """
    from normandy_lab.geo import gazetteer

    size = scheme(system).hex_size_m
    points = control_points(system)
    strong = [p for p in points if gazetteer.place(p.place).basis == "sourced"]
    strong = [p for p in strong if gazetteer.place(p.place).accuracy_m < size / 2]
    for p in points:
        if p.use != "fit":
            continue
        place = gazetteer.place(p.place)
        if place.basis == "sourced":
            assert place.accuracy_m < size / 2, p
        else:
            assert len(strong) < 3, f"{p.place} is {place.basis}, but {system} has sourced points"
            assert place.basis == "derived" and place.accuracy_m < size, p


def test_bfn_sheet_shifts_are_the_best_fit():
    """The committed shifts of BfN sheets B and C are what the search finds today."""
    assert search_sheet_shifts("bfn", ["B", "C"]) == BFN_SHIFTS


def test_kg_sheet_e_shift_puts_falaise_in_e3715():
    """KG 26.23.3h: Falaise is E3715."""
    g = grid("kg")
    assert g.locate(*lookup("Falaise")) == "E3715"
    assert KG_E_COL_SHIFT == 35


@pytest.mark.parametrize("system", SYSTEMS)
def test_locate_inverts_center_for_every_hex(system):
    g = grid(system)
    lon, lat = g.centers()
    located = g.locate_array(lon, lat)
    assert list(located) == g.ids()


@pytest.mark.parametrize("system", SYSTEMS)
def test_hex_polygons_have_the_fitted_size(system):
    g = grid(system)
    frame = g.to_geodataframe().to_crs("EPSG:2154")
    expected_area = math.sqrt(3) / 2 * g.georeference.hex_size_m**2
    assert frame.geometry.area.median() == pytest.approx(expected_area, rel=0.01)
    # Polygons tile the plane: neighbours share an edge, no overlaps.
    sample = frame.iloc[len(frame) // 2]
    neighbours = frame.loc[[g.canonical(n) for n in g.neighbors(sample.name)]]
    assert neighbours.geometry.intersection(sample.geometry).area.max() < 1.0
    assert neighbours.geometry.distance(sample.geometry).max() < 0.5


def test_gts_river_example_puts_the_douve_between_28_050_and_28_049():
    """GTS 2.1: a unit may move 28.048 -> 28.049, but not 28.050 -> 28.049 across the river.

    An independent check of the placement: the digitised Douve, north of
    Carentan, crosses the line between the centres of 28.050 and 28.049 and
    not the line between 28.048 and 28.049.
    """
    from shapely.geometry import LineString

    from normandy_lab.geo import geography

    g = grid("gts")
    rivers = geography.layer("rivers")
    blocked = LineString([g.center("28.050"), g.center("28.049")])
    open_step = LineString([g.center("28.048"), g.center("28.049")])
    assert "Douve" in set(rivers[rivers.intersects(blocked)]["name"])
    assert rivers[rivers.intersects(open_step)].empty
