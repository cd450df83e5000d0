"""The gazetteer: matching rules, 1944 names, coverage of the rulebooks' places, data checks."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest
import yaml

from normandy_lab import UnknownPlaceError, gazetteer, lookup
from normandy_lab.geo.gazetteer import GazetteerDataError, normalize_name

MAPS = Path(__file__).resolve().parents[1] / "maps"

# Every place the issue lists as named in the four rulebooks.
RULEBOOK_PLACES = [
    "Ste-Mère-Église",
    "Chef-du-Pont",
    "La Fière",
    "Pouppeville",
    "St-Martin-de-Varreville",
    "Carentan",
    "Isigny",
    "Pointe du Hoc",
    "Vierville",
    "Colleville",
    "Trévières",
    "Port-en-Bessin",
    "Arromanches",
    "Bayeux",
    "Courseulles",
    "Bénouville",
    "Pegasus Bridge",
    "Ranville",
    "Hérouvillette",
    "Varaville",
    "Troarn",
    "Caen",
    "Cherbourg",
    "Fort du Roule",
    "St-Lô",
    "Coutances",
    "Avranches",
    "Vire",
    "Falaise",
    "Argentan",
    "Flers",
    "Mortain",
    "Domfront",
    "Chambois",
    "Trun",
    "Villers-Bocage",
    "Tilly-sur-Seulles",
    "Caumont",
    "Périers",
    "Lessay",
    # and more from the digests
    "Brécourt",
    "Cabourg",
    "Basly",
    "Hameau du Tot",
    "Merville battery",
    "Saint-Sauveur-le-Vicomte",
    "Alençon",
    "Lisieux",
    "Pontaubault",
    "Granville",
    "Valognes",
    "Montebourg",
    "Carpiquet",
    "Thury-Harcourt",
    "Mézidon",
    "Vimoutiers",
    "Percy",
    "Tinchebray",
    "Pont-l'Évêque",
    "Ouistreham",
    "Mulberry B (Port Winston)",
    "Saint-Martin-de-Varreville battery",
]


def _km(a, b):
    (lon1, lat1), (lon2, lat2) = a, b
    dx = (lon2 - lon1) * 111.32 * math.cos(math.radians((lat1 + lat2) / 2))
    dy = (lat2 - lat1) * 110.57
    return math.hypot(dx, dy)


@pytest.mark.parametrize("name", RULEBOOK_PLACES)
def test_every_rulebook_place_is_found_in_normandy(name):
    lon, lat = lookup(name)
    assert -2.3 < lon < 0.8 and 48.1 < lat < 49.9, name


def test_at_least_200_entries_in_a_geodataframe():
    table = gazetteer.places()
    assert len(table) >= 200
    assert table.crs.to_epsg() == 4326
    assert {"name", "kind", "source", "accuracy_m", "basis", "geometry"} <= set(table.columns)
    assert table["name"].is_unique


@pytest.mark.parametrize(
    ("variant", "canonical"),
    [
        ("ste mere eglise", "Sainte-Mère-Église"),
        ("SAINTE-MERE-EGLISE", "Sainte-Mère-Église"),
        ("Saint Lo", "Saint-Lô"),
        ("st-lo", "Saint-Lô"),
        ("pont l'eveque", "Pont-l'Évêque"),
        ("Tilly sur Seulles", "Tilly-sur-Seulles"),
    ],
)
def test_matching_ignores_accents_case_hyphens_and_saint(variant, canonical):
    assert gazetteer.place(variant).name == canonical


def test_normalize_name():
    assert normalize_name("Sainte-Marie-du-Mont") == normalize_name("Ste Marie du Mont")
    assert normalize_name("Saint-Lô") == "st lo"


def test_1944_names_with_modern_aliases():
    assert gazetteer.place("Cherbourg-en-Cotentin").name == "Cherbourg"
    assert gazetteer.place("Colleville-Montgomery").name == "Colleville-sur-Orne"
    assert gazetteer.place("Port-en-Bessin-Huppain").name == "Port-en-Bessin"
    # The short forms the rulebooks use point at the right homonym.
    assert gazetteer.place("Colleville").name == "Colleville-sur-Mer"
    assert gazetteer.place("Vierville").name == "Vierville-sur-Mer"


def test_unknown_place_suggests_close_names():
    with pytest.raises(UnknownPlaceError) as info:
        lookup("Carentann-les-Marais-X")
    assert "Carentan" in str(info.value)
    with pytest.raises(KeyError):
        lookup("Atlantis")


@pytest.mark.parametrize(
    ("a", "b", "km"),
    [
        # Distances any road atlas gives, as the crow flies (+-15%): a check on typos.
        ("Caen", "Bayeux", 27),
        ("Cherbourg", "Valognes", 18),
        ("Carentan", "Sainte-Mère-Église", 12),
        ("Pegasus Bridge", "Horsa Bridge", 0.6),
        ("Saint-Lô", "Coutances", 26),
        ("Falaise", "Argentan", 23),
    ],
)
def test_distances_between_places(a, b, km):
    assert _km(lookup(a), lookup(b)) == pytest.approx(km, rel=0.15)


def test_hand_entries_cite_sources_and_lie_on_land_unless_at_sea():
    import shapely

    from normandy_lab.geo import geography

    land = shapely.union_all(geography.layer("land").geometry.values)
    table = gazetteer.places()
    hand = table[table["origin"] != "geonames"]
    assert len(hand) >= 150
    assert hand["source"].str.len().min() > 10
    offshore_kinds = {"beach_sector", "mulberry", "island", "landing_zone"}
    for row in hand.itertuples():
        if row.kind in offshore_kinds or "Île" in row.name or "Îles" in row.name:
            continue
        # Within 500 m of GSHHG land (the coastline itself is good to ~100-200 m).
        assert land.distance(row.geometry) < 0.007, f"{row.name} lies in the sea"


@pytest.fixture
def maps_copy(tmp_path, monkeypatch):
    target = tmp_path / "maps"
    shutil.copytree(MAPS, target)
    monkeypatch.setenv("NORMANDY_LAB_MAPS", str(target))
    gazetteer.clear_cache()
    yield target
    gazetteer.clear_cache()


def _append_entry(path, **fields):
    entry = {
        "name": "Nowhere",
        "kind": "hamlet",
        "lon": -1.0,
        "lat": 49.0,
        "aliases": [],
        "source": "a test entry",
        "accuracy_m": 10,
        "basis": "sourced",
    }
    entry.update(fields)
    path.write_text(path.read_text() + "\n" + yaml.safe_dump([entry], allow_unicode=True))


def test_a_hand_entry_without_source_is_refused_with_file_and_field(maps_copy):
    _append_entry(maps_copy / "gazetteer" / "hand_places.yaml", source="")
    pattern = r"hand_places.yaml: entry \d+ \('Nowhere'\): field 'source' is empty"
    with pytest.raises(GazetteerDataError, match=pattern):
        lookup("Caen")


def test_a_swapped_coordinate_is_refused(maps_copy):
    _append_entry(maps_copy / "gazetteer" / "hand_places.yaml", lon=49.1, lat=-0.5)
    with pytest.raises(GazetteerDataError, match=r"'lon' = 49\.1 is outside the campaign area"):
        lookup("Caen")


def test_an_unknown_basis_is_refused(maps_copy):
    _append_entry(maps_copy / "gazetteer" / "hand_places.yaml", basis="guessed")
    with pytest.raises(GazetteerDataError, match=r"field 'basis' is 'guessed'"):
        lookup("Caen")


def test_a_name_clash_is_refused(maps_copy):
    _append_entry(maps_copy / "gazetteer" / "hand_places.yaml", name="Caen")
    with pytest.raises(GazetteerDataError, match="clashes with"):
        lookup("Bayeux")


def test_broken_yaml_is_reported_with_the_file(maps_copy):
    path = maps_copy / "gazetteer" / "hand_military.yaml"
    path.write_text(path.read_text() + "\n- name: [unclosed\n")
    with pytest.raises(GazetteerDataError, match=r"hand_military\.yaml: not valid YAML"):
        lookup("Caen")
