"""The public grid API analysts script against."""

from __future__ import annotations

import pytest

import normandy_lab as nl


def test_grid_is_cached():
    assert nl.grid("bfn") is nl.grid("bfn")


def test_center_and_locate(any_grid):
    some = any_grid.ids()[len(any_grid) // 3]
    lon, lat = any_grid.center(some)
    assert -3.0 < lon < 1.5 and 48.0 < lat < 50.5
    assert any_grid.locate(lon, lat) == some


def test_locate_outside_the_maps_is_none(any_grid):
    assert any_grid.locate(5.0, 45.0) is None  # the Alps


def test_neighbors_and_distance(any_grid):
    some = any_grid.ids()[len(any_grid) // 2]
    neighbours = any_grid.neighbors(some)
    assert 1 <= len(neighbours) <= 6
    for n in neighbours:
        assert any_grid.distance(some, n) == 1
        assert any_grid.distance(n, some) == 1


def test_to_geodataframe(any_grid):
    frame = any_grid.to_geodataframe()
    assert frame.crs.to_epsg() == 4326
    assert len(frame) == len(any_grid)
    assert {"hex_id", "sheet", "geometry"} <= set(frame.columns)
    assert frame.geometry.is_valid.all()


def test_control_points_and_residual_tables(any_grid):
    cp = any_grid.control_points()
    assert {"hex_id", "sheet", "place", "rule", "use", "reason"} <= set(cp.columns)
    res = any_grid.residuals()
    assert len(res) == len(cp)
    assert {"residual_km", "residual_hex", "located_hex", "hexes_off"} <= set(res.columns)


@pytest.mark.parametrize(
    ("system", "place", "hex_id"),
    [
        ("bfn", "Pegasus Bridge", "C3014"),
        ("bfn", "Pointe du Hoc battery", "B1305"),
        ("cobra", "Vire", "A2116"),
        ("kg", "Mulberry B", "N3139"),
        ("cobra", "Bayeux", {"B3620", "A2601", "A2701"}),
        ("cobra", "Cherbourg", {"B1207", "B1307", "B1308", "B1407"}),
        ("kg", "Cabourg", "N3553"),
        ("kg", "Falaise", "E3715"),
        ("gts", "DZ C (101st)", {"27.036", "28.036", "28.037", "29.035", "29.036", "29.037", "30.036"}),
        ("gts", "DZ O (82nd)", {"43.030", "44.030", "44.031", "45.029", "45.030", "46.030", "46.031"}),
    ],
)
def test_named_places_fall_in_their_rulebook_hexes(system, place, hex_id):
    expected = {hex_id} if isinstance(hex_id, str) else hex_id
    assert nl.grid(system).locate(*nl.lookup(place)) in expected


@pytest.mark.parametrize(
    ("system", "place"),
    [
        ("bfn", "Argentan"),
        ("bfn", "Flers"),
        ("bfn", "Vire"),
        ("bfn", "Caen"),
        ("bfn", "Bayeux"),
        ("bfn", "Cherbourg"),
    ],
)
def test_bfn_supply_cities_are_on_the_maps(system, place):
    """BfN 7.4: the German supply cities must lie on some sheet."""
    assert nl.grid(system).locate(*nl.lookup(place)) is not None


def test_grids_cover_their_areas():
    # Cobra: "from the west coast ... to the Dives ... from Bayeux to Alençon" (digest 1.2).
    cobra = nl.grid("cobra")
    for town in ("Alençon", "Lisieux", "Avranches", "Cherbourg", "Falaise"):
        assert cobra.locate(*nl.lookup(town)) is not None, town
    # GTS: the Utah area from Isigny (Map 6) to the St-Sauveur drop zones.
    gts = nl.grid("gts")
    for town in ("Sainte-Mère-Église", "Carentan", "Isigny-sur-Mer"):
        assert gts.locate(*nl.lookup(town)) is not None, town
    kg = nl.grid("kg")
    for town in ("Cherbourg", "Caen", "Falaise", "Vire", "Alençon"):
        assert kg.locate(*nl.lookup(town)) is not None, town


def test_unknown_direction_is_refused():
    with pytest.raises(ValueError, match="direction"):
        nl.grid("bfn").step("C3014", "N")
