"""The Greatest Day: Utah Beach, the path tests and the readings (issue 30): each test named by its rule.

15.0's remount path as a vehicle could drive it, to the Beach Reinforcement hexes the text implies; Fire
Zones built on what the text says of them; the readings where the text is open (``rules.gts.READINGS``),
each switchable and quoted.  On the small Utah state of ``tests/test_gts_rules.py`` and the real map.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest

import normandy_lab as nl
from normandy_lab.engine.state import Unit
from normandy_lab.engine.study import fingerprint
from normandy_lab.gamemap import game_map
from normandy_lab.rules.gts.data import UTAH_EXITS, UTAH_REINFORCEMENT_HEXES
from normandy_lab.rules.gts.movement import movement_costs
from normandy_lab.rules.gts.paths import remount_path

SMALL = Path(__file__).parent / "data" / "gts_utah_1944-06-08_small.yaml"


@pytest.fixture(scope="module")
def june8():
    return nl.load_scenario(SMALL)


def _unit(uid: str, hex_id: str, side: str = "allied", **kw) -> Unit:
    fields = dict(
        id=uid, name=uid, side=side, nationality="US" if side == "allied" else "DE", type="armor",
        mechanized=True, size="battalion", formation=None, corps=None, hq=None, hex=hex_id, steps=3,
    )  # fmt: skip
    return Unit(**{**fields, **kw})


def _with(state, *units):
    return state.evolve(units=(*state.units, *units))


def _drivable(state, unit, path) -> bool:
    """Whether every step of ``path`` is one a wheeled or tracked unit of ``unit``'s side may take."""
    e = game_map("gts").edges
    cost = movement_costs(state, replace(unit, mechanized=True)).cost
    g = nl.grid("gts")
    step = {(a, b): c for a, b, c in zip(e.src.tolist(), e.dst.tolist(), cost.tolist(), strict=True)}
    return all(not np.isnan(step[(g.index(a), g.index(b))]) for a, b in pairwise(path))


# -- 15.0: the Beach Reinforcement hexes, and a path a vehicle could take ------------------------------


def test_15_0_17_6_the_beach_reinforcement_hexes_are_the_shore_ends_of_the_four_causeways():
    """4.1.4: reinforcements go "on a reinforcement hex near the shore" and Beach hexes leave play once the
    beach is cleared; 17.6 and 15.0 end road paths at it; 2.3.7: causeways are roads.  So: the first road
    hex off the beach of each Utah exit, a road hex that is not Beach."""
    gmap = game_map("gts")
    terrain = gmap.terrain.hexes.set_index("hex_id")["terrain"]
    sides = gmap.terrain.hexsides
    beach = set(terrain.index[terrain == "Beach"])
    g = nl.grid("gts")
    assert len(UTAH_REINFORCEMENT_HEXES) == 4 and set(UTAH_EXITS) == set(UTAH_REINFORCEMENT_HEXES)
    for hex_id, exit_name in UTAH_EXITS.items():
        on_road = sides[(sides.a == hex_id) | (sides.b == hex_id)]
        assert on_road.road_name.str.startswith(f"Utah {exit_name}").any(), hex_id
        assert terrain[hex_id] not in ("Beach", "Impassable")
        assert min(g.distance(hex_id, b) for b in beach) <= 3  # near the shore (4.1.4)


def test_15_0_an_american_vehicle_remounts_along_the_roads_to_a_beach_reinforcement_hex(june8):
    """15.0: "a path ... traversable by its organic transportation ... to a Beach Reinforcement hex for the
    Americans".  Before, the assumed hexes held no road hex and no American could remount."""
    tanks = _unit("US-TANKS", "32.032")
    state = _with(june8, tanks)
    result = remount_path(state, "US-TANKS")
    assert result.ok and result.path[-1] in UTAH_REINFORCEMENT_HEXES and "reinforcement hex" in result.words
    assert _drivable(state, tanks, result.path)


def test_15_0_no_remount_from_a_roadless_marsh_hex(june8):
    """15.0: "the Unit must be in terrain accessible by vehicle"; 2.1.7: vehicles enter a Marsh hex only "in
    Column and traveling on a Road".  27.048 is Marsh with no road."""
    state = _with(june8, _unit("US-BOGGED", "27.048", type="infantry", mechanized=False))
    result = remount_path(state, "US-BOGGED")
    assert not result.ok and result.cause == "terrain" and "Marsh" in result.words


def test_15_0_no_remount_from_a_pocket_the_madeleine_stream_closes(june8):
    """15.0: the path is "traversable by its organic transportation"; 2.2.3: vehicles "may not cross Streams
    except when using a Road".  27.051 (Hedgerow) is closed by the Madeleine and the Marsh: a man walks out to
    a road in two hexes, a truck does not."""
    from normandy_lab.rules.gts.paths import _bfs, _land, _roads

    g = nl.grid("gts")
    walked, _ = _bfs([g.index("27.051")], _land("gts"), np.zeros(len(g), dtype=bool))
    assert any(h in _roads("gts") for h in walked)  # on foot the roads are near
    state = _with(june8, _unit("US-POCKET", "27.051", type="infantry", mechanized=False))
    result = remount_path(state, "US-POCKET")
    assert not result.ok and result.cause == "no vehicle road" and "even with the enemy away" in result.words


def test_15_0_the_german_remount_path_is_drivable_and_the_first_break_is_named(june8):
    """15.0: "free of Enemy Units or Fire Zones": the path a vehicle drives, and where the enemy closes it."""
    german = remount_path(june8, "DE-FJR6-I")
    assert german.ok and _drivable(june8, june8.unit("DE-FJR6-I"), german.path)
    block = german.path[len(german.path) // 2]
    held = _with(june8, _unit("US-BLOCK", block, type="infantry", mechanized=False))
    again = remount_path(held, "DE-FJR6-I")
    assert block not in again.path or (not again.ok and again.first_break in again.path)


def test_new_readings_at_their_defaults_keep_the_fingerprints_of_saved_studies():
    """A study saved before these readings still opens: at their defaults they stay out of a state's
    options (``data.LATE_READINGS``), so the fingerprints are those recorded before them."""
    scenario = nl.load_scenario("gts_1944-06-08_0700")
    small = nl.load_scenario(SMALL)
    assert fingerprint(scenario) == "9932f460718495630c893c1e874bb8104ee38202df032fb3fc29d9e2a23f5e17"
    assert fingerprint(small) == "af9ca0ae0a1c90d122415014e26162d320c523f098f17b8e2d1fb09a8e441151"
    assert fingerprint(small, file_order=True) == (
        "4e0cdc728cacb30f21dc909aaeb235d3cf032d5b57b8349a29d049cb1df6e941"
    )


# -- Fire Zones: the reach the text implies (reading fire_zones) ---------------------------------------


def _zone_hexes(state, side="allied"):
    from normandy_lab.rules.gts.paths import fire_zone

    g = nl.grid("gts")
    return {str(g.id_array[i]) for i in np.flatnonzero(fire_zone(state, side))}


def test_fire_zones_reach_a_units_range_8_for_aa_and_1_when_pressed(june8):
    """3.3: an AA unit "projects a Fire Zone into the DZ or LZ.  This range is the 8 hex AA range as per rule
    17.1"; 17.1: AA units "are subject to the FZ restrictions from an adjacent enemy Unit and Barrage markers
    (ie. range is reduced to 1 hex)".  The old one-hex stand-in stays selectable (``adjacent``)."""
    g = nl.grid("gts")
    base = june8.evolve(units=tuple(u for u in june8.units if u.side == "allied"))
    flak = _unit("DE-FLAK", "60.010", side="german", type="flak", mechanized=False)
    alone = _with(base, flak)
    far = next(str(h) for h in g.id_array if g.distance(str(h), "60.010") == 8)
    beyond = next(str(h) for h in g.id_array if g.distance(str(h), "60.010") == 9)
    zone = _zone_hexes(alone)
    assert far in zone and beyond not in zone
    assert {h for h in zone if g.distance(h, "60.010") <= 8} == zone
    old = alone.evolve(options={**alone.options, "fire_zones": "adjacent"})
    assert max(g.distance(h, "60.010") for h in _zone_hexes(old)) == 1
    barraged = _with(base, replace(flak, attrs=(("barrage", True),)))
    assert max(g.distance(h, "60.010") for h in _zone_hexes(barraged)) == 1
    pressed = _with(base, flak, _unit("US-NEXT", g.canonical(g.neighbors("60.010")[0])))
    near_flak = {h for h in _zone_hexes(pressed) if g.distance(h, "60.010") <= 9}
    assert max(g.distance(h, "60.010") for h in near_flak) == 1
    # A unit's own range where the scenario gives it (the counters are a GAP); else 1; HQs none.
    rifles = _unit("DE-RIFLES", "60.010", side="german", type="infantry", mechanized=False)
    assert max(g.distance(h, "60.010") for h in _zone_hexes(_with(base, rifles))) == 1
    ranged = replace(rifles, attrs=(("fire_range", 3),))
    assert max(g.distance(h, "60.010") for h in _zone_hexes(_with(base, ranged))) == 3
    assert not _zone_hexes(_with(base, replace(rifles, hq="division", type="hq")))
    assert not _zone_hexes(alone.evolve(options={**alone.options, "fire_zone_stand_in": False}))


def test_15_0_an_aa_fire_zone_closes_a_remount_road_the_old_stand_in_left_open(june8):
    """15.0: "This path must be free of Enemy Units or Fire Zones": a flak unit 4 hexes off the road closes it
    by its range, which the one-hex stand-in did not."""
    tanks = _unit("US-TANKS", "32.032")
    state = _with(june8, tanks)
    path = remount_path(state, "US-TANKS").path
    g = nl.grid("gts")
    middle = path[len(path) // 2]
    spot = next(
        str(h) for h in g.id_array
        if g.distance(str(h), middle) == 4 and min(g.distance(str(h), p) for p in path) == 4
        and game_map("gts").terrain.hexes.set_index("hex_id").terrain[str(h)] != "Impassable"
    )  # fmt: skip
    flak = _unit("DE-FLAK", spot, side="german", type="flak", mechanized=False)
    by_range = remount_path(_with(state, flak), "US-TANKS")
    assert not by_range.ok or all(g.distance(h, spot) > 8 for h in by_range.path[1:])
    old = _with(state, flak)
    old = old.evolve(options={**old.options, "fire_zones": "adjacent"})
    assert remount_path(old, "US-TANKS").ok


def test_fire_zone_fields_and_the_reading_load_from_a_scenario_file():
    """A scenario gives a unit's Barrage marker and range, and the reading, each checked by the schema."""
    from normandy_lab.engine import ScenarioError, load_scenario_text

    text = SMALL.read_text()
    flak = (
        '- {id: DE-FLAK, name: Flak, side: german, nationality: DE, type: flak, size: company, hex: "60.010", '
        "steps: 2, barrage: true, fire_range: 8}\n"
    )
    state = load_scenario_text(text + flak + "options: {fire_zones: adjacent}\n", "small.yaml")
    assert state.unit("DE-FLAK").attr("barrage") is True and state.unit("DE-FLAK").attr("fire_range") == 8
    assert state.options["fire_zones"] == "adjacent"
    with pytest.raises(ScenarioError, match="fire_zones"):
        load_scenario_text(text + "options: {fire_zones: everywhere}\n", "small.yaml")


# -- the readings where the text is open (rules.gts.READINGS) -----------------------------------------


def _read(state, **readings):
    return state.evolve(options={**state.options, **readings})


def test_17_6_reading_link_up_destroyed_bridge(june8):
    """17.6: "a path of continuous Road hexes ... to the Utah Beach Reinforcement hex"; 2.2.4: Rivers "can
    only be crossed at Bridges".  ``breaks`` (default): the road does not go on over a destroyed bridge;
    ``ignored``: it does."""
    from normandy_lab.rules.gts.data import READINGS
    from normandy_lab.rules.gts.paths import linked_up

    western = june8.evolve(hypothetical_82nd=True)
    before = linked_up(western)
    assert ("47.037", "48.038") in set(pairwise(before.path)) or ("48.038", "47.037") in set(
        pairwise(before.path)
    )  # over the Merderet bridge
    blown = western.evolve(destroyed_bridges=frozenset({"47.037|48.038"}))
    after = linked_up(blown)
    assert READINGS["link_up_destroyed_bridge"] == "breaks"
    assert not {("47.037", "48.038"), ("48.038", "47.037")} & set(pairwise(after.path))
    assert linked_up(_read(blown, link_up_destroyed_bridge="ignored")).path == before.path


def test_17_6_reading_link_up_german_units_next_to_the_road(june8):
    """17.6 names no enemy; a German unit on the road holds it (INFERRED).  ``on_the_path`` (default): one
    beside the road does not close it; ``next_to_the_path``: it does."""
    from normandy_lab.rules.gts.paths import linked_up

    western = june8.evolve(hypothetical_82nd=True)
    path = linked_up(western).path
    g = nl.grid("gts")
    road = path[len(path) // 2]
    beside = next(
        g.canonical(n) for n in g.neighbors(road) if g.canonical(n) not in path
        and min(g.distance(g.canonical(n), p) for p in path) == 1
    )  # fmt: skip
    watched = _with(western, _unit("DE-WATCH", beside, side="german", type="infantry", mechanized=False))
    assert linked_up(watched).path == path
    strict = linked_up(_read(watched, link_up_german_units="next_to_the_path"))
    assert road not in strict.path or (not strict.ok and "DE-WATCH" in strict.words)


def test_15_0_reading_remount_toward_any_friendly_edge_or_the_nearest(june8):
    """15.0: "at least 10 Road hexes toward the friendly board edge for the Germans (north, west or south
    board edges)".  ``any_edge`` (default): toward any of the three; ``nearest_edge``: toward the nearest.
    At 62.003, by the north edge, the roads run west and south: any edge, not the nearest."""
    germans = june8.evolve(units=tuple(u for u in june8.units if u.side == "german"))
    state = _with(germans, _unit("DE-TRUCKS", "62.003", side="german"))
    assert remount_path(state, "DE-TRUCKS").ok
    nearest = remount_path(_read(state, remount_toward="nearest_edge"), "DE-TRUCKS")
    assert not nearest.ok and "nearest_edge" in nearest.words


def test_17_6_reading_storm_delays_missions_by_day_or_by_night_drop(june8):
    """17.6: "If a Storm occurs, then the supply missions get delayed a day"; "Mission Indianapolis - Night,
    7 June, which affects the 8 June turns".  ``by_day`` (default): a Storm day from 8 June puts the rest
    back; ``night_drop``: a Storm on the Night a mission flies (from 7 June) does."""
    import datetime as dt

    from normandy_lab.rules.gts.supply import mission_today

    def on(day, storms=(), **readings):
        state = june8.evolve(date=dt.date(1944, 6, day), weather="Clear", storm_days=storms)
        return _read(state, **readings) if readings else state

    night = {"storm_delays_missions": "night_drop"}
    seventh = ("1944-06-07",)
    assert [mission_today(on(d, seventh)) for d in (8, 9)] == ["Indianapolis", "Jackson"]  # by day
    assert [mission_today(on(d, seventh, **night)) for d in (8, 9, 12)] == [None, "Indianapolis", "Memphis"]
    eighth = ("1944-06-08",)
    assert [mission_today(on(d, eighth)) for d in (9, 10)] == ["Indianapolis", "Jackson"]
    assert [mission_today(on(d, eighth, **night)) for d in (9, 10)] == [None, "Jackson"]
    assert [mission_today(on(d, **night)) for d in (8, 11, 12)] == ["Indianapolis", "Memphis", None]


def test_4_1_4_4_3_3_reading_beach_from_8_june(june8):
    """4.1.4: once cleared, "all Beach hexes become out of play for all players"; 4.3.3: "No Allied Unit may
    enter a Beach hex on a Beach Overlay with a cleared Beach".  ``out_of_play`` (default): from 8 June no
    American enters a Beach hex; ``enterable``: the overlay kept; before 8 June the Americans still may."""
    import datetime as dt

    e = game_map("gts").edges
    terrain = game_map("gts").terrain.hexes["terrain"].astype(str).to_numpy()
    into_beach = (terrain[e.dst] == "Beach") & (terrain[e.src] != "Impassable")
    infantry = _unit("US-RIFLES", "33.032", type="infantry", mechanized=False)
    assert np.isnan(movement_costs(june8, infantry).cost[into_beach]).all()
    kept = movement_costs(_read(june8, beach_from_8_june="enterable"), infantry).cost[into_beach]
    assert not np.isnan(kept).all()
    d_day = movement_costs(june8.evolve(date=dt.date(1944, 6, 6)), infantry).cost[into_beach]
    assert not np.isnan(d_day).all()


# -- 4.4.3: the Assault Force markers' sectors --------------------------------------------------------


def _move_marker(state, force, hex_id):
    from normandy_lab.engine.edits import apply_edit

    edit = {"op": "marker", "name": "assault_force_markers", "value": [{"force": force, "hex": hex_id}]}
    return apply_edit(state, edit)


def test_4_4_3_each_assault_force_marker_stays_in_its_sector_off_the_coast(june8):
    """4.4.3: UtS "may be placed in hex 17.029 ... or 18.027", each "adjacent to playable (i.e. center dot)
    hexes in its sector"; UtN's sector runs "between hexes 29.017 and 44.002"; a marker stands in an
    Impassable hex (4.4.1), or a Beach hex while the overlay is in place."""
    from normandy_lab.errors import RefusedError

    assert dict(june8.markers["assault_force_markers"]) == {"UtN": "37.010", "UtS": "20.025"}  # 4.4.7
    for hex_id in ("17.029", "18.027"):
        assert _move_marker(june8, "UtS", hex_id).markers["assault_force_markers"]["UtS"] == hex_id
    with pytest.raises(RefusedError, match="outside the UtS sector"):
        _move_marker(june8, "UtS", "37.010")
    with pytest.raises(RefusedError, match="outside the UtN sector"):
        _move_marker(june8, "UtN", "20.025")
    with pytest.raises(RefusedError, match="Hedgerow"):
        _move_marker(june8, "UtN", "35.017")  # land: not where a naval force's marker stands
    with pytest.raises(RefusedError, match="next to no playable hex"):
        _move_marker(june8, "UtS", "16.032")  # out at sea
    # A Beach hex only while the overlay is in place (reading beach_from_8_june).
    with pytest.raises(RefusedError, match="Beach"):
        _move_marker(june8, "UtS", "18.026")
    kept = june8.evolve(options={**june8.options, "beach_from_8_june": "enterable"})
    assert _move_marker(kept, "UtS", "18.026").markers["assault_force_markers"]["UtS"] == "18.026"


def test_4_4_4_4_4_7_ranges_count_to_the_marker_where_it_stands(june8):
    """4.4.4(a): a ship's range counts "the number of hexes from the target to the Assault Force Marker for
    the ship's assault force", plus its range box; 4.4.7(a) the same for a coastal battery; 4.7.2 a Landing
    Craft's marker is Utah South.  Moving the marker moves the ranges."""
    from normandy_lab.rules.gts.naval import battery_fire, ship_range

    assert ship_range(june8, "UtS", "short", "30.027") == 20  # 4.4.7's example: 10 hexes + 10
    assert ship_range(june8, "UtN", "landing waves", "30.027") == 20  # 30.027 to 37.010
    battery = _unit("DE-BTY", "30.027", side="german", type="artillery", mechanized=False)
    state = _with(june8, battery)
    assert battery_fire(state, "DE-BTY", "UtS", 40)["boxes"]["long"] == {"range": 40, "in_range": True}
    moved = _move_marker(state, "UtS", "17.029")
    far = nl.grid("gts").distance("30.027", "17.029")
    assert far > 10 and battery_fire(moved, "DE-BTY", "UtS", 40)["boxes"]["landing waves"]["range"] == far
    assert ship_range(moved, "UtS", "short", "30.027") == far + 10


def test_4_4_3_the_markers_load_from_a_scenario_file_and_keep_old_fingerprints():
    """A scenario places the markers (each checked at its line); left at 4.4.7's hexes the marker stays out
    of a state's fingerprint (``late_markers``), so studies saved before it still open."""
    from normandy_lab.engine import ScenarioError, load_scenario_text

    text = SMALL.read_text()
    state = load_scenario_text(text + "assault_force_markers: {UtS: '18.027'}\n", "small.yaml")
    assert dict(state.markers["assault_force_markers"]) == {"UtN": "37.010", "UtS": "18.027"}
    assert fingerprint(state) != fingerprint(nl.load_scenario(SMALL))
    with pytest.raises(ScenarioError, match="outside the UtS sector"):
        load_scenario_text(text + "assault_force_markers: {UtS: '37.010'}\n", "small.yaml")
