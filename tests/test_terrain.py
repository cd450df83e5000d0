"""Facts about the real map, held against the derived terrain of every grid.

Each test names the geography it checks; rule-derived facts cite the rule.
"""

from __future__ import annotations

import itertools
from collections import deque

import numpy as np
import pytest

import normandy_lab as nl
from normandy_lab.terrain import TerrainConfig, terrain_map

SYSTEMS = nl.SYSTEMS
SEA = {"Sea", "All Sea", "Impassable"}
MARSH = {"Flooded/Marsh", "Marsh", "Flooded"}
WOODS = {"Forest", "Woods", "Light Woods"}
OPEN = {"Clear"}
BOCAGE = {"Bocage", "Hedgerow"}


def _hex(system, place=None, lonlat=None):
    g = nl.grid(system)
    lon, lat = nl.lookup(place) if place else lonlat
    return g.locate(lon, lat)


def _terrain(system, hex_id):
    return terrain_map(system).hex(hex_id)


def _on_map(system, *places):
    return all(_hex(system, p) is not None for p in places)


def _road_component(system, start, name_part):
    """Hexes reachable from ``start`` along hexsides whose road names contain ``name_part``."""
    sides = terrain_map(system).hexsides
    mine = sides[sides["road_name"].str.contains(name_part, regex=False)]
    links: dict[str, list[str]] = {}
    for a, b in zip(mine["a"], mine["b"], strict=True):
        links.setdefault(a, []).append(b)
        links.setdefault(b, []).append(a)
    seen, todo = {start}, deque([start])
    while todo:
        here = todo.popleft()
        for there in links.get(here, []):
            if there not in seen:
                seen.add(there)
                todo.append(there)
    return seen


# ------------------------------------------------------------ built-up


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("town", ["Caen", "Cherbourg", "Bayeux", "Saint-Lô"])
def test_the_main_towns_are_city_or_town_hexes(system, town):
    hex_id = _hex(system, town)
    if hex_id is None:
        pytest.skip(f"{town} is not on the {system} maps")
    assert _terrain(system, hex_id)["settlement"] in {"City", "Town"}


@pytest.mark.parametrize("city", ["Bayeux", "Cherbourg", "Caen", "Argentan", "Flers", "Vire"])
def test_bfn_supply_cities_have_city_hexes(city):
    """BfN 7.4: German-controlled City hexes of these six towns are supply sources."""
    assert _terrain("bfn", _hex("bfn", city))["settlement"] == "City"


def test_cobra_city_hex_lists():
    """Cobra 16.1 and 17.3.6c list the Cherbourg and Bayeux hexes."""
    for hex_id in ("B1207", "B1307", "B1308", "B1407", "B3620", "A2601", "A2701"):
        assert _terrain("cobra", hex_id)["settlement"] == "City"


def test_kg_cherbourg_port_hex_is_a_city():
    """KG 26.11.2: Cherbourg's city supply works while N1410 is German."""
    assert _terrain("kg", "N1410")["settlement"] == "City"


def test_villages_mark_their_hexes_in_bfn():
    for village in ("Sainte-Mère-Église", "Hérouvillette", "Tilly-sur-Seulles", "Chambois"):
        assert _terrain("bfn", _hex("bfn", village))["settlement"] in {"Village", "Town", "City"}


# ---------------------------------------------------------------- sea


@pytest.mark.parametrize("system", ["bfn", "cobra", "kg"])
def test_the_channel_off_arromanches_is_sea(system):
    assert _terrain(system, _hex(system, lonlat=(-0.62, 49.39)))["terrain"] in SEA


@pytest.mark.parametrize("system", SYSTEMS)
def test_inland_hexes_are_land(system):
    for place in ("Sainte-Mère-Église", "Carentan", "Saint-Lô", "Villers-Bocage"):
        hex_id = _hex(system, place)
        if hex_id is not None:
            assert _terrain(system, hex_id)["terrain"] not in SEA, place


def test_bfn_gold_assault_hexes_are_sea_and_king_red_is_on_the_coast():
    """BfN 18.1: King Red's beach hex C1829 and its assault hexes 1728, 1628, 1527 at sea."""
    for hex_id in ("C1728", "C1628", "C1527"):
        assert _terrain("bfn", hex_id)["terrain"] == "Sea", hex_id
    assert _terrain("bfn", "C1829")["land_fraction"] > 0.0


def test_gts_assault_force_sectors_are_at_sea():
    """GTS 4.4.3: the assault-force markers sit in impassable (sea) hexes off the beach."""
    for hex_id in ("20.025", "37.010", "44.002", "16.032"):
        assert _terrain("gts", hex_id)["land_fraction"] < 0.5, hex_id


def test_all_sea_hexsides_lie_between_sea_hexes():
    tmap = terrain_map("bfn")
    sides = tmap.hexsides[tmap.hexsides["all_sea"]]
    terrain = tmap.hexes["terrain"]
    assert len(sides) > 100
    assert (terrain.loc[sides["a"]].values == "Sea").mean() > 0.95


# -------------------------------------------------------------- water


def test_pegasus_bridge_hex_has_a_road_bridge_over_the_caen_canal():
    """BfN 19.8 and the 12.5.4 example: Pegasus Bridge is C3014."""
    tmap = terrain_map("bfn")
    sides = tmap.hexsides
    touching = sides[(sides["a"] == "C3014") | (sides["b"] == "C3014")]
    canal = touching[touching["water_name"].str.contains("Caen")]
    assert len(canal) >= 1
    assert canal["road_bridge"].any()


@pytest.mark.parametrize("system", ["bfn", "kg"])
def test_the_orne_separates_ranville_from_benouville(system):
    g = nl.grid(system)
    a, b = _hex(system, "Bénouville"), _hex(system, "Ranville")
    if a == b:
        pytest.skip("one hex holds both villages at this scale")
    line = nl.hexgrid.hex_linedraw(g.axial(a), g.axial(b))
    ids = [g.id_array[g.index_of_axial[(h.q, h.r)]] for h in line]
    tmap = terrain_map(system)
    crossed = " ".join(tmap.hexside(x, y)["water_name"] for x, y in itertools.pairwise(ids))
    assert "Orne" in crossed


@pytest.mark.parametrize("system", ["bfn", "gts"])
@pytest.mark.parametrize("place", ["La Fière bridge", "Chef-du-Pont bridge"])
def test_the_merderet_crossings_are_in_flooded_country(system, place):
    """The Germans flooded the Merderet valley; the causeways at La Fière and Chef-du-Pont crossed it."""
    g = nl.grid(system)
    hex_id = _hex(system, place)
    around = [hex_id, *g.neighbors(hex_id)]
    terrains = {_terrain(system, g.canonical(h))["terrain"] for h in around}
    assert terrains & MARSH


@pytest.mark.parametrize("system", ["bfn", "kg", "cobra"])
def test_the_carentan_marshes_are_marsh(system):
    hex_id = _hex(system, lonlat=(-1.225, 49.325))  # the Douve marsh north-east of Carentan
    g = nl.grid(system)
    terrains = {_terrain(system, g.canonical(h))["terrain"] for h in [hex_id, *g.neighbors(hex_id)]}
    assert terrains & MARSH


def test_bfn_a4219_is_flooded_and_a4118_is_not():
    """BfN 17.1 example: A4219 is Flooded/Marsh (the Merderet), A4118 is not."""
    g = nl.grid("bfn")
    near = {_terrain("bfn", g.canonical(h))["terrain"] for h in ["A4219", *g.neighbors("A4219")]}
    assert "Flooded/Marsh" in near
    assert _terrain("bfn", "A4118")["terrain"] != "Flooded/Marsh"


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize(
    ("bridge", "river"),
    [
        ("Pont-Hébert bridge", "Vire"),
        ("Airel bridge", "Vire"),
        ("Saint-Lô Vire bridge", "Vire"),
        ("Caen Orne bridges (Vaucelles)", "Orne"),
        ("Thury-Harcourt bridge", "Orne"),
        ("Horsa Bridge", "Orne"),
        ("Carentan causeway bridge 2 (Douve)", "Douve"),
        ("Isigny bridge", "Aure"),
    ],
)
def test_real_bridges_are_road_bridges_in_every_grid(system, bridge, river):
    """Where a 1944 road crossed these rivers, the hexside is a bridge, within a hex of the real one."""
    g = nl.grid(system)
    hex_id = _hex(system, bridge)
    if hex_id is None:
        pytest.skip(f"{bridge} is not on the {system} maps")
    tmap = terrain_map(system)
    sides = tmap.hexsides
    nearby = {g.canonical(h) for h in [hex_id, *g.neighbors(hex_id)]}
    mine = sides[
        (sides["a"].isin(nearby) | sides["b"].isin(nearby)) & sides["water_name"].str.contains(river)
    ]
    if not len(mine):
        pytest.skip(f"the {river} is below the {system} map's scale here")
    assert mine["road_bridge"].any()


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("river", ["Vire", "Orne", "Douve"])
def test_every_road_crossing_of_the_main_rivers_is_a_bridge(system, river):
    sides = terrain_map(system).hexsides
    crossings = sides[sides["water_name"].str.contains(river) & (sides["road"] != "none")]
    assert crossings["road_bridge"].all()


@pytest.mark.parametrize(
    ("water_name", "feature"),
    [
        ("Aure", "Stream"),
        ("Seulles", "Stream"),
        ("Orne", "Major River"),
        ("Vire", "Major River"),
        ("Canal de Caen à la Mer", "Major River"),
    ],
)
def test_bfn_water_classes_follow_the_documented_reading(water_name, feature):
    """BfN 10.6 (docs/terrain.md): only the major rivers and the canals are Major River hexsides; the
    smaller named rivers such as the Aure and the Seulles are Streams."""
    sides = terrain_map("bfn").hexsides
    # Only hexsides where this water is the one crossed (a hexside names every water of its class).
    mine = sides[sides["water_name"].apply(lambda names: water_name in str(names).split("; "))]
    assert len(mine) > 0
    assert (mine["water_feature"] == feature).all()


def test_cobra_dives_hexsides_a4101_to_a4106():
    """Cobra 5.2h: the Dives runs along hexes A4101 to A4106."""
    sides = terrain_map("cobra").hexsides
    touched = 0
    for row in range(1, 7):
        hex_id = f"A41{row:02d}"
        mine = sides[
            ((sides["a"] == hex_id) | (sides["b"] == hex_id)) & sides["water_name"].str.contains("Dives")
        ]
        touched += len(mine) > 0
    assert touched >= 4


def test_kg_destroyed_bridges_are_bridge_hexsides():
    """KG 22.6.8 and 22.7: bridges destroyed around Bayeux and on the Orne at Caen."""
    tmap = terrain_map("kg")
    found = 0
    for a, b in [
        ("N3436", "N3337"),
        ("N3436", "N3435"),
        ("N3436", "N3437"),
        ("N3847", "N3948"),
        ("N3725", "N3726"),
    ]:
        side = tmap.hexside(a, b)
        found += bool(side["water"] != "none")
    assert found >= 3


# ---------------------------------------------------------- land cover


@pytest.mark.parametrize("system", ["bfn", "cobra", "kg"])
def test_foret_de_cerisy_is_woods(system):
    assert _terrain(system, _hex(system, lonlat=(-0.895, 49.19)))["terrain"] in WOODS


@pytest.mark.parametrize("system", ["bfn", "cobra", "kg"])
@pytest.mark.parametrize("place", ["Bourguébus", "Cintheaux", "Rocquancourt"])
def test_the_caen_falaise_plain_is_open(system, place):
    hex_id = _hex(system, place)
    assert _terrain(system, hex_id)["terrain"] in OPEN


@pytest.mark.parametrize("system", ["bfn", "cobra", "kg"])
def test_the_country_around_villers_bocage_is_bocage(system):
    lon, lat = nl.lookup("Villers-Bocage")
    g = nl.grid(system)
    around = [(lon - 0.05, lat), (lon, lat - 0.04), (lon - 0.04, lat + 0.03)]
    terrains = [_terrain(system, g.locate(x, y))["terrain"] for x, y in around]
    assert sum(t in BOCAGE for t in terrains) >= 2, terrains


@pytest.mark.parametrize("system", ["gts"])
def test_the_cotentin_behind_utah_is_hedgerow(system):
    assert _terrain(system, _hex(system, "Hiesville"))["terrain"] in BOCAGE | {"Village"}


def test_hill_112_carries_its_height():
    tmap = terrain_map("bfn")
    row = tmap.hex(_hex("bfn", "Hill 112"))
    assert row["height_m"] >= 100
    assert "112" in row["hills"]


# ---------------------------------------------------------------- roads


@pytest.mark.parametrize("system", ["bfn", "cobra", "kg"])
def test_n13_links_cherbourg_to_caen_without_a_gap(system):
    reach = _road_component(system, _hex(system, "Cherbourg"), "N13")
    for town in ("Valognes", "Carentan", "Isigny-sur-Mer", "Bayeux", "Caen"):
        assert _hex(system, town) in reach, town


def test_n13_is_continuous_across_the_gts_map():
    reach = _road_component("gts", _hex("gts", "Carentan"), "N13")
    assert _hex("gts", "Sainte-Mère-Église") in reach


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_road_is_a_continuous_chain_of_hexsides(system):
    """Roads are continuous: the hexsides of each named road form one chain on each stretch of map."""
    terrain_map(system)
    g = nl.grid(system)
    roads = nl.geography.layer("roads")
    broken = []
    for name, geometry in zip(roads["name"], roads.geometry, strict=True):
        coords = np.asarray(geometry.coords)
        start, end = g.locate(*coords[0]), g.locate(*coords[-1])
        if start is None or end is None or start == end:
            continue
        inside = all(g.locate(x, y) is not None for x, y in coords[:: max(1, len(coords) // 20)])
        if not inside:
            continue
        if end not in _road_component(system, start, name):
            broken.append(name)
    assert not broken, broken


def test_roads_and_railways_have_classes_on_hexsides():
    sides = terrain_map("bfn").hexsides
    assert set(sides["road"]) >= {"highway", "primary", "secondary", "none"}
    assert sides["railway"].sum() > 100
    assert sides["rail_bridge"].sum() >= 5


# ---------------------------------------------------------------- beaches


def test_omaha_and_utah_beaches_are_on_beach_hexes():
    tmap = terrain_map("bfn")
    assert (tmap.hexes["beach"].str.contains("Omaha")).sum() >= 4
    assert (tmap.hexes["terrain"] == "Beach").sum() >= 10
    gts = terrain_map("gts")
    assert gts.hexes["beach"].str.contains("Utah").sum() >= 4


# --------------------------------------------------------- arrays, config


def test_arrays_follow_the_dense_index(system):
    tmap = terrain_map(system)
    g = nl.grid(system)
    assert len(tmap.arrays["terrain"]) == len(g)
    assert list(tmap.hexes.index) == g.ids()
    vocabulary_terrains = tmap.hexes["terrain"].to_numpy()
    from normandy_lab.terrain.vocab import VOCABULARIES

    codes = VOCABULARIES[system].codes(vocabulary_terrains)
    assert (codes == tmap.arrays["terrain"]).all()
    left, right = tmap.arrays["side_left"], tmap.arrays["side_right"]
    assert len(left) == len(tmap.hexsides)
    assert (nl.hexgrid.hex_distance_array(g.q[left], g.r[left], g.q[right], g.r[right]) == 1).all()


def test_configuration_changes_the_result_and_the_cache_key():
    from normandy_lab.terrain import build_terrain_map, cache_key

    strict = TerrainConfig(sea_land_fraction=0.95)
    assert cache_key("cobra", strict) != cache_key("cobra", TerrainConfig())
    sea_default = (terrain_map("cobra").hexes["terrain"] == "All Sea").sum()
    sea_strict = (build_terrain_map("cobra", strict, progress=False).hexes["terrain"] == "All Sea").sum()
    assert sea_strict > sea_default


def test_cache_is_reused_and_rebuilt_when_an_input_changes(tmp_path, monkeypatch):
    import shutil

    from normandy_lab import terrain
    from normandy_lab.geo import geography

    maps = tmp_path / "maps"
    shutil.copytree(nl.paths.maps_dir(), maps)
    monkeypatch.setenv("NORMANDY_LAB_MAPS", str(maps))
    monkeypatch.setenv("NORMANDY_LAB_CACHE", str(tmp_path / "cache"))
    geography.clear_cache()
    terrain.forget()
    first = terrain.terrain_map("cobra", progress=False)
    files = list((tmp_path / "cache" / "terrain").glob("cobra-*.pickle"))
    assert len(files) == 1
    terrain.forget()
    assert terrain.terrain_map("cobra", progress=False).hexes.equals(first.hexes)  # loaded, same
    heights = maps / "geography" / "heights.yaml"
    heights.write_text(heights.read_text() + "\n")
    geography.clear_cache()
    terrain.forget()  # an edit is noticed within a second anyway; forget() makes it immediate
    terrain.terrain_map("cobra", progress=False)
    assert len(list((tmp_path / "cache" / "terrain").glob("cobra-*.pickle"))) == 2
    geography.clear_cache()
    terrain.forget()


def test_the_terrain_cache_key_covers_every_module_the_terrain_is_built_with():
    """Issue 15: a change to any module the terrain map's build imports makes a new cache key."""
    import subprocess
    import sys

    from normandy_lab.terrain import _CODE_FILES

    code = (
        "import sys, pathlib, normandy_lab, normandy_lab.terrain, normandy_lab.geo.gazetteer; "
        "root = pathlib.Path(normandy_lab.__file__).parent; "
        "print(' '.join(sorted({pathlib.Path(m.__file__).resolve().relative_to(root).as_posix() "
        "for n, m in list(sys.modules.items()) if n.startswith('normandy_lab')})))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    files = set(run.stdout.split()) - {"_moved.py", "grid.py"}  # the alias of an old path builds nothing
    assert files <= set(_CODE_FILES), sorted(files - set(_CODE_FILES))


def test_the_terrain_vocabulary_does_not_import_the_terrain():
    """The one import cycle of the package (terrain <-> terrain_vocab) is gone."""
    import ast
    from pathlib import Path

    source = (Path(__file__).resolve().parents[1] / "normandy_lab" / "terrain_vocab.py").read_text()
    imported = {n.module for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ImportFrom)}
    assert "normandy_lab.terrain" not in imported


def test_a_process_keeps_the_key_of_the_code_it_loaded(monkeypatch):
    """A process started before an edit of the terrain code must not save a map built by the old code under
    the new code's key (seen: a KG map without a column the new code adds).  The code's part of the key is
    read as the package is imported; the data files are read at each call."""
    from pathlib import Path

    from normandy_lab import terrain
    from normandy_lab.terrain import TerrainConfig, cache_key

    before = cache_key("cobra", TerrainConfig())
    code_files = {str(terrain.REPO_ROOT / "normandy_lab" / name) for name in terrain._CODE_FILES}
    read = Path.read_bytes

    def edited(path):  # every code file now reads otherwise on disk; the data files as they are
        return read(path) + b"\n# edited" if str(path) in code_files else read(path)

    monkeypatch.setattr(Path, "read_bytes", edited)
    assert cache_key("cobra", TerrainConfig()) == before
    assert terrain._code_digest() != terrain._CODE_DIGEST  # a new process would take the new key
