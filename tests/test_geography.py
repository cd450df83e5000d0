"""Geography layers: provenance, required features, geometry rules, clear errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import shapely
import yaml

from normandy_lab.geo import geography
from normandy_lab.geo.geography import GeographyDataError

MAPS = Path(__file__).resolve().parents[1] / "maps"

REQUIRED_RIVERS = [
    "Seine", "Orne", "Odon", "Dives", "Vire", "Taute", "Douve", "Merderet", "Aure", "Drôme", "Elle",
    "Seulles", "Mue", "Laizon", "Touques", "Sée", "Sélune", "Sienne", "Soulles", "Noireau", "Souleuvre",
    "Rouvre", "Ay", "Sèves",
]  # fmt: skip
REQUIRED_FORESTS = [
    "Cerisy",
    "Saint-Sever",
    "Grimbosq",
    "Bavent",
    "Brix",
    "Mont-Castre",
    "Écouves",
    "Gouffern",
    "Andaines",
]
REQUIRED_HEIGHTS = [
    "Hill 112",
    "Hill 192",
    "Hill 317",
    "Mont Pinçon",
    "Mont Castre",
    "Montgardon",
    "Mont Ormel",
]
SECTORS = {
    "Utah": ["Tare Green", "Uncle Red", "Victor"],
    "Omaha": ["Charlie", "Dog Green", "Dog White", "Dog Red", "Easy Green", "Easy Red", "Fox Green"],
    "Gold": ["How", "Item", "Jig", "King"],
    "Juno": ["Love", "Mike", "Nan"],
    "Sword": ["Oboe", "Peter", "Queen", "Roger"],
}


def _metric(frame):
    return frame.to_crs("EPSG:2154")


@pytest.mark.parametrize("name", geography.layer_names())
def test_every_layer_loads_in_wgs84(name):
    frame = geography.layer(name)
    assert frame.crs.to_epsg() == 4326
    assert len(frame) > 0
    assert frame.geometry.is_valid.all()


@pytest.mark.parametrize("name", sorted(geography.HAND_LAYERS))
def test_every_hand_feature_has_a_source_and_accuracy(name):
    frame = geography.layer(name)
    assert frame["source"].astype(str).str.len().min() > 5
    assert (frame["accuracy_m"].astype(float) > 0).all()


@pytest.mark.parametrize("river", REQUIRED_RIVERS)
def test_required_rivers_are_present(river):
    rivers = geography.layer("rivers")
    assert rivers["name"].str.contains(river, regex=False).any(), river


def test_caen_canal_is_a_canal_beside_the_orne():
    rivers = _metric(geography.layer("rivers"))
    canal = rivers[(rivers["class"] == "canal") & rivers["name"].str.contains("Caen")].geometry.iloc[0]
    orne = rivers[rivers["name"] == "Orne"].geometry.iloc[0]
    assert not canal.crosses(orne)
    # Side by side from Caen to the sea: every canal vertex within 2.5 km of the Orne.
    assert max(orne.distance(shapely.Point(xy)) for xy in canal.coords) < 2500


def test_lines_are_densified_to_500_m():
    for name in ("rivers", "roads", "railways"):
        metric = _metric(geography.layer(name))
        for geometry in metric.geometry:
            coords = np.asarray(geometry.coords)
            steps = np.hypot(*np.diff(coords, axis=0).T)
            assert steps.max() <= geography.MAX_VERTEX_SPACING_M + 1.0, name


def test_river_mouths_reach_the_sea_or_a_parent_river():
    rivers = _metric(geography.layer("rivers"))
    land = shapely.union_all(_metric(geography.layer("land")).geometry.values)
    coast = land.boundary
    lines = dict(zip(rivers["name"], rivers.geometry, strict=True))
    for name, line in lines.items():
        mouth = shapely.Point(line.coords[-1])
        near_coast = coast.distance(mouth) < 1000 or not land.contains(mouth)
        near_parent = any(other.distance(mouth) < 300 for key, other in lines.items() if key != name)
        assert near_coast or near_parent, f"{name} ends nowhere"


@pytest.mark.parametrize("forest", REQUIRED_FORESTS)
def test_required_forests_are_present(forest):
    cover = geography.layer("landcover")
    woods = cover[cover["class"] == "forest"]
    assert woods["name"].str.contains(forest, regex=False).any(), forest


def test_bocage_and_open_country_do_not_overlap():
    cover = _metric(geography.layer("landcover"))
    bocage = shapely.union_all(cover[cover["class"] == "bocage"].geometry.values)
    open_ = shapely.union_all(cover[cover["class"] == "open"].geometry.values)
    assert bocage.intersection(open_).area < 0.01 * min(bocage.area, open_.area)


@pytest.mark.parametrize("height", REQUIRED_HEIGHTS)
def test_required_heights_are_present(height):
    heights = geography.layer("heights")
    names = heights["name"].astype(str) + "|" + heights.get("aliases", "").astype(str)
    assert names.str.contains(height, regex=False).any(), height


def test_inundations_cover_the_merderet_and_the_douve():
    wet = geography.layer("wetlands")
    names = " ".join(wet["name"])
    for valley in ("Merderet", "Douve", "Taute", "Aure", "Dives"):
        assert valley in names, valley


@pytest.mark.parametrize(("beach", "sectors"), sorted(SECTORS.items()))
def test_beaches_and_sectors(beach, sectors):
    coast = geography.layer("coast_features")
    assert ((coast["class"] == "beach") & (coast["name"] == beach)).any()
    mine = coast[(coast["class"] == "sector") & (coast["beach"] == beach)]
    for sector in sectors:
        assert mine["name"].str.contains(sector, regex=False).any(), f"{beach} {sector}"


def test_love_sector_lies_between_gold_and_juno():
    """Love is the stretch from La Rivière (Gold's east end) to Graye (Juno's west end); it is listed once."""
    coast = geography.layer("coast_features")
    love = coast[(coast["class"] == "sector") & (coast["name"].str.startswith("Love"))]
    assert len(love) >= 1
    assert set(love["beach"]) <= {"Gold", "Juno"}


def test_beach_lines_lie_on_the_coast():
    coast = _metric(geography.layer("coast_features"))
    shore = shapely.union_all(_metric(geography.layer("land")).geometry.values).boundary
    for row in coast[coast["class"].isin(["beach", "sector"])].itertuples():
        assert shore.distance(row.geometry) < 400, row.name


def test_omaha_draws_and_mulberries():
    coast = geography.layer("coast_features")
    names = " ".join(coast["name"])
    for draw in ("D-1", "D-3", "E-1", "E-3", "F-1"):
        assert draw in names
    assert (coast["class"] == "mulberry").sum() >= 2


def test_railways_of_1944():
    rails = geography.layer("railways")
    assert len(rails) >= 8
    text = " ".join(rails["name"])
    assert "Cherbourg" in text


def test_roads_include_the_routes_nationales():
    roads = geography.layer("roads")
    for number in ("N13", "N158", "N175"):
        assert (roads["name"].str.contains(number, regex=False)).any(), number
    assert (roads["class"] == "highway").sum() >= 3


# ----------------------------------------------------------- clear errors


@pytest.fixture
def maps_copy(tmp_path, monkeypatch):
    target = tmp_path / "maps"
    shutil.copytree(MAPS, target)
    monkeypatch.setenv("NORMANDY_LAB_MAPS", str(target))
    geography.clear_cache()
    yield target
    geography.clear_cache()


def _append(path, entry):
    path.write_text(path.read_text() + "\n" + yaml.safe_dump([entry], allow_unicode=True))


def test_unknown_place_in_a_path_names_file_entry_and_point(maps_copy):
    _append(
        maps_copy / "geography" / "roads_1944.yaml",
        {
            "name": "Test road",
            "class": "secondary",
            "path": ["Caen", "Atlantis"],
            "source": "test entry",
            "accuracy_m": 100,
        },
    )
    with pytest.raises(
        GeographyDataError,
        match=r"roads_1944.yaml: entry \d+ \('Test road'\), path point 2: no place called 'Atlantis'",
    ):
        geography.layer("roads")


def test_unknown_class_is_refused(maps_copy):
    _append(
        maps_copy / "geography" / "rivers.yaml",
        {
            "name": "Test",
            "class": "creek",
            "path": [[-1.0, 49.0], [-1.1, 49.1]],
            "source": "test entry",
            "accuracy_m": 100,
        },
    )
    with pytest.raises(GeographyDataError, match="field 'class' is 'creek'; expected one of major_river"):
        geography.layer("rivers")


def test_self_crossing_ring_is_refused(maps_copy):
    ring = [[-1.0, 49.0], [-0.9, 49.1], [-0.9, 49.0], [-1.0, 49.1]]
    _append(
        maps_copy / "geography" / "wetlands.yaml",
        {"name": "Bow tie", "class": "marsh", "ring": ring, "source": "test entry", "accuracy_m": 100},
    )
    with pytest.raises(GeographyDataError, match="invalid polygon"):
        geography.layer("wetlands")


def test_swapped_coordinates_are_refused(maps_copy):
    _append(
        maps_copy / "geography" / "heights.yaml",
        {
            "name": "Upside down",
            "class": "height",
            "point": [49.1, -0.5],
            "source": "test entry",
            "accuracy_m": 100,
        },
    )
    with pytest.raises(GeographyDataError, match="outside the data area"):
        geography.layer("heights")


def test_missing_source_is_refused(maps_copy):
    _append(
        maps_copy / "geography" / "builtup.yaml",
        {
            "name": "Nowhere",
            "class": "town",
            "ring": [[-1.0, 49.0], [-0.99, 49.0], [-0.99, 49.01]],
            "accuracy_m": 100,
        },
    )
    with pytest.raises(GeographyDataError, match="missing field 'source'"):
        geography.layer("builtup")


def test_unknown_layer_lists_the_layers():
    with pytest.raises(KeyError, match="available: builtup"):
        geography.layer("volcanoes")
