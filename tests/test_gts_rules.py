"""The Greatest Day: Utah Beach as a rule system (issue 18, first part): each test named by its rule.

On a small state of the Utah sector (``tests/data/gts_utah_1944-06-08_small.yaml``: battalions at their
7 June positions, on the GTS grid) and on the real map's roads.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from pathlib import Path

import pytest

import normandy_lab as nl
from normandy_lab.engine.edits import apply_edit
from normandy_lab.engine.reasons import EXEMPT, NOT_DESIGNATED
from normandy_lab.engine.state import Unit
from normandy_lab.errors import RefusedError
from normandy_lab.rules.gts.air import kept_out_probability, roll_interdiction
from normandy_lab.rules.gts.data import LZ_4, US_DIVISIONS, UTAH_REINFORCEMENT_HEXES
from normandy_lab.rules.gts.paths import linked_up, remount_path

SMALL = Path(__file__).parent / "data" / "gts_utah_1944-06-08_small.yaml"
THREE = ["4th Infantry Division", "82nd Airborne Division", "101st Airborne Division"]


@pytest.fixture(scope="module")
def june8():
    return nl.load_scenario(SMALL)


def _designate(state, divisions):
    return apply_edit(state, {"op": "marker", "name": "supplied_divisions", "value": divisions})


def _german(uid: str, hex_id: str) -> Unit:
    return Unit(id=uid, name=uid, side="german", nationality="DE", type="infantry", mechanized=False,
                size="battalion", formation=None, corps=None, hq=None, hex=hex_id, steps=3)  # fmt: skip


# -- time (1.1) -------------------------------------------------------------------------------------


def test_1_1_two_hour_day_turns_then_the_night_then_a_new_date(june8):
    from normandy_lab.engine.sequence import next_phase

    assert june8.rules.turn_order(june8.date) == (
        "0700", "0900", "1100", "1300", "1500", "1700", "1900", "2100", "Night",
    )  # fmt: skip
    state = june8.evolve(turn="Night", phase_index=0)
    while state.turn == "Night":
        state = next_phase(state)
    assert (state.turn, str(state.date)) == ("0700", "1944-06-09")
    activation = nl.phase_effects(june8.evolve(turn="0900", phase_index=0)).results
    assert "not played" in activation["activation"]


# -- supply as designation (17.3, 17.4, 17.6) ----------------------------------------------------------


def test_17_3_three_divisions_are_designated_and_the_others_are_non_supplied(june8):
    before = nl.supply(june8)
    assert all(r.code == NOT_DESIGNATED for r in before.units.values() if r.side == "allied")
    words = before["US-4ID-8-1"].reason
    assert "no Formation chits" in words and "half its roll" in words and "1 DP" in words
    supplied = nl.supply(_designate(june8, THREE))
    assert all(r.general and r.code == EXEMPT and "17.3" in r.rule for r in supplied.units.values())
    two = nl.supply(
        _designate(june8, ["4th Infantry Division", "82nd Airborne Division", "90th Infantry Division"])
    )
    assert not two["US-101AB-506-1"].general and two["US-82AB-505-3"].general


def test_17_3_the_designation_is_checked(june8):
    with pytest.raises(RefusedError, match="exactly 3"):
        _designate(june8, THREE[:2])
    with pytest.raises(RefusedError, match="V Corps is always supplied"):
        _designate(june8, [*THREE[:2], "V Corps"])
    with pytest.raises(RefusedError, match="0700 on 8 June"):
        _designate(june8.evolve(date=dt.date(1944, 6, 7)), THREE)


def test_17_3_v_corps_is_always_supplied_and_a_division_on_its_day_of_arrival(june8):
    v_corps = replace(_german("US-29ID-115-1", "30.040"), side="allied", nationality="US", corps="V Corps")
    state = june8.evolve(units=(*june8.units, v_corps))
    assert nl.supply(state)["US-29ID-115-1"].general  # nobody designated, V Corps still supplied
    arriving = replace(v_corps, id="US-90ID-359-1", corps="VII Corps", formation="90th Infantry Division")
    on_its_day = june8.evolve(date=dt.date(1944, 6, 7), units=(*june8.units, arriving))
    # 17.4 holds the 90th (its first day is 7 June, but it is held in its area until 0700 on 8 June).
    assert not nl.supply(on_its_day)["US-90ID-359-1"].general
    assert "17.4" in nl.supply(on_its_day)["US-90ID-359-1"].rule
    assert nl.supply(on_its_day)["US-4ID-8-1"].general  # before the limit, the others are supplied


def test_17_6_the_82nd_from_the_western_zones_is_named_only_once_linked_up(june8):
    western = june8.evolve(hypothetical_82nd=True)
    assert linked_up(western).ok and _designate(western, THREE)  # linked up: it may be named
    # German units in every hex of LZ 4: the drop zone is closed and no road leaves it.
    closed = western.evolve(units=(*western.units, *[_german(f"DE-LZ{n}", h) for n, h in enumerate(LZ_4)]))
    result = linked_up(closed)
    assert not result.ok and result.first_break in LZ_4 and "DE-LZ" in result.words
    with pytest.raises(RefusedError, match="links up"):
        _designate(closed, THREE)


def test_17_6_link_up_runs_on_the_real_roads_to_the_beach(june8):
    result = linked_up(june8.evolve(hypothetical_82nd=True))
    assert result.path[0] in LZ_4 and result.ok
    g = nl.grid("gts")
    assert all(g.distance(a, b) == 1 for a, b in zip(result.path, result.path[1:], strict=False))
    # 17.6: "to the Utah Beach Reinforcement hex": the road path ends on one (the causeways' shore ends).
    assert result.path[-1] in UTAH_REINFORCEMENT_HEXES
    # A German battalion on that road: the link-up goes round, or names the hex that holds it.
    block = result.path[len(result.path) // 2]
    around = linked_up(june8.evolve(hypothetical_82nd=True, units=(*june8.units, _german("DE-X", block))))
    assert block not in around.path or (not around.ok and around.first_break == block)


# -- remounting abandoned transport (15.0) ----------------------------------------------------------


def test_15_0_a_remount_path_is_ten_road_hexes_free_of_the_enemy_and_its_fire_zones(june8):
    german = remount_path(june8, "DE-FJR6-I")
    assert german.ok and "road hexes" in german.words
    # The Fire Zone stand-in closes the hexes next to the enemy; switched off, only enemy units close.
    us = remount_path(june8, "US-4ID-8-1")
    off = remount_path(june8.evolve(options={**june8.options, "fire_zone_stand_in": False}), "US-4ID-8-1")
    assert us.ok or "stand-in" in us.words
    assert "stand-in" not in off.words


def test_15_0_the_remount_path_of_a_unit_under_an_abandoned_transport_marker_is_drawn(june8):
    assert not [r for r in nl.supply(june8).routes() if r.rule == "15.0"]  # nobody marked: nothing drawn
    marked = apply_edit(
        june8, {"op": "marker", "name": "abandoned_transport", "value": ["DE-FJR6-I", "US-4ID-8-1"]}
    )
    routes = {r.label.split(" ", 1)[0]: r for r in nl.supply(marked).routes() if r.rule == "15.0"}
    assert set(routes) == {"DE-FJR6-I", "US-4ID-8-1"}
    for unit_id, route in routes.items():
        found = remount_path(marked, unit_id)
        assert (route.path, route.ok, route.first_break) == (tuple(found.path), found.ok, found.first_break)
        assert route.path[0] == marked.unit(unit_id).hex and found.words in route.label
    with pytest.raises(RefusedError, match="not a unit on the map"):
        apply_edit(june8, {"op": "marker", "name": "abandoned_transport", "value": ["NOBODY"]})


# -- fighter-bomber interdiction (17.1) -------------------------------------------------------------


def test_17_1_interdiction_odds_by_the_planes_the_weather_and_the_night(june8):
    state = june8.evolve(german_reinforcement_hexes=("60.001",))
    four = apply_edit(state, {"op": "marker", "name": "fighter_bombers_on_interdiction", "value": 4})
    assert kept_out_probability(four) == 0.5  # a d10 (0-9) at or under 4: five faces of ten
    assert kept_out_probability(four.evolve(turn="Night", phase_index=0)) == 0.0  # never at night
    with pytest.raises(RefusedError, match="0 to 2"):
        apply_edit(
            state.evolve(weather="Overcast"),
            {"op": "marker", "name": "fighter_bombers_on_interdiction", "value": 3},
        )
    with pytest.raises(RefusedError, match="0 to 0"):
        apply_edit(
            state.evolve(weather="Storm"),
            {"op": "marker", "name": "fighter_bombers_on_interdiction", "value": 1},
        )
    table = nl.phase_effects(four.evolve(turn="0900", phase_index=0)).results
    assert table["interdiction at 60.001"].startswith("50% that nobody enters")


def test_17_1_the_interdiction_roll_is_seeded_and_recorded(june8):
    state = june8.evolve(german_reinforcement_hexes=("60.001", "90.030"), fighter_bombers_on_interdiction=4)
    after, kept = roll_interdiction(state)
    _, kept_again = roll_interdiction(state)
    assert kept == kept_again and after.draws == state.draws + 2
    night, none = roll_interdiction(state.evolve(turn="Night", phase_index=0))
    assert none == {"60.001": False, "90.030": False} and night.draws == state.draws


# -- map data (4.4.7, 4.5.2) ---------------------------------------------------------------------------


def test_4_5_2_every_sub_beach_hex_is_beach():
    terrain = nl.terrain_map("gts", progress=False).hexes["terrain"]
    for hex_id in ("22.023", "23.022", "21.023", "21.024", "18.026", "19.025", "17.026", "17.027"):
        assert terrain[hex_id] == "Beach", hex_id


def test_4_4_7_the_st_martin_battery_is_ten_hexes_from_20_025():
    assert nl.grid("gts").distance("30.027", "20.025") == 10


# -- the scenario of 8 June 1944, 0700 ----------------------------------------------------------------


def test_the_8_june_0700_scenario_stands_on_land_with_its_divisions():
    import yaml

    state = nl.load_scenario("gts_1944-06-08_0700")
    part = yaml.safe_load(
        (Path(__file__).parents[1] / "scenarios/parts/gts_1944-06-08_0700.yaml").read_text()
    )
    built = yaml.safe_load((Path(__file__).parents[1] / "scenarios/gts_1944-06-08_0700.yaml").read_text())
    placed = {u.id for u in state.units} | {u["id"] for u in built.get("off_map") or []}
    assert placed == {u["id"] for u in part["units"]}  # every unit of the part: on a hex, or said off the map
    terrain = nl.terrain_map("gts", progress=False).hexes["terrain"]
    assert not [u.id for u in state.units if terrain[u.hex] == "Impassable"]
    us = {u.formation for u in state.units_of("allied") if u.formation}
    assert us <= set(US_DIVISIONS)  # the divisions 17.3 counts, by the rules' names
    # The first day of the limit: nobody designated, then the analyst's three (17.3).
    report = nl.supply(state)
    assert {r.code for r in report.units.values() if r.side == "allied" and not r.general} == {NOT_DESIGNATED}
    chosen = nl.supply(_designate(state, THREE))
    out = {state.unit(r.unit_id).formation for r in chosen.out_of_supply()}
    assert out == {"90th Infantry Division"}


def test_17_6_the_82nd_s_supply_drops_closed_zone_and_late_link_up(june8):
    from normandy_lab.rules.gts.supply import eighty_second_supply

    assert "does not apply" in eighty_second_supply(june8)
    western = june8.evolve(hypothetical_82nd=True)
    assert "no TQ penalty" in eighty_second_supply(western)  # linked up by road
    # A German battalion on each LZ 4 hex: closed, not linked up: TQ -1; and from 11 June, -2.
    closed = western.evolve(units=(*western.units, *[_german(f"DE-LZ{n}", h) for n, h in enumerate(LZ_4)]))
    assert "closed (held by DE-LZ0" in eighty_second_supply(closed) and "TQ -1" in eighty_second_supply(
        closed
    )
    assert "TQ -2" in eighty_second_supply(closed.evolve(date=dt.date(1944, 6, 11)))
    assert "82nd supply (17.6)" in nl.phase_effects(closed).results


def test_the_8_june_0700_scenario_against_the_historical_front_of_the_evening_before():
    """The same test as the other games' scenarios: the implied front within 3 km of the line, nobody astray."""
    from normandy_lab.history.compare import compare_with_history

    state = nl.load_scenario("gts_1944-06-08_0700")
    result = compare_with_history(state)
    assert result.record_date == dt.date(1944, 6, 7)  # the front of the evening before
    assert result.mean_km <= 3.0, result.summary()
    assert not result.unexplained, result.summary()


def test_17_6_the_link_up_is_drawn_on_the_map_with_its_break(june8):
    western = june8.evolve(hypothetical_82nd=True)
    explorer = nl.explore(western)
    explorer.show_zones.value = True
    routes = explorer.sources["routes"].data
    assert len(routes["xs"]) == 1 and routes["colour"] == ["#1e7b1e"] and "(17.6)" in routes["label"][0]
    assert explorer.sources["route_breaks"].data["x"] == []
    closed = western.evolve(units=(*western.units, *[_german(f"DE-LZ{n}", h) for n, h in enumerate(LZ_4)]))
    explorer.open(closed)
    routes = explorer.sources["routes"].data
    assert routes["colour"] == ["#c0392b"] and len(explorer.sources["route_breaks"].data["x"]) == 1
    assert nl.supply(june8).routes() == []  # the historical drops: nothing to draw


def test_17_1_air_defence_by_terrain_and_aa_units_in_range(june8):
    from normandy_lab.rules.gts.air import air_defence

    terrain = nl.terrain_map("gts", progress=False).hexes["terrain"]
    town = next(h for h in terrain.index if terrain[h] == "Town")
    assert air_defence(june8, town)["terrain"].startswith(f"Town at {town}: AD 2")  # 17.1: Town 2
    flak = replace(_german("DE-FLAK", "45.022"), type="flak")
    g = nl.grid("gts")
    near = next(h for h in g.id_array if 5 <= g.distance(h, "45.022") <= 8)
    far = next(h for h in g.id_array if g.distance(h, "45.022") == 9)
    state = june8.evolve(units=(*june8.units, flak))
    assert air_defence(state, near)["aa_units"] == ["DE-FLAK"] and air_defence(state, far)["aa_units"] == []
    # An American unit next to the flak cuts its reach to one hex (17.1).
    pressed = state.evolve(units=(*state.units, replace(flak, id="US-X", side="allied", nationality="US",
                                                        type="infantry", hex=g.canonical(g.neighbors("45.022")[0]))))  # fmt: skip
    assert air_defence(pressed, near)["aa_units"] == []


# -- in-hex terrain and water (2.1-2.4) ---------------------------------------------------------------------


def _walker(uid, hex_id, side="allied", mechanized=False):
    return Unit(
        id=uid, name=uid, side=side, nationality="US" if side == "allied" else "DE", type="infantry",
        mechanized=mechanized, size="company", formation=None, corps=None, hq=None, hex=hex_id, steps=1, ma=1,
    )  # fmt: skip


def test_2_1_example_28_049_is_entered_from_28_048_and_not_across_the_river_from_28_050(june8):
    from normandy_lab.engine.edits import add_unit
    from normandy_lab.engine.movement import movement_range

    assert nl.terrain_map("gts", progress=False).hexes.loc["28.049", "terrain"] == "Clear"  # its dot
    state = add_unit(add_unit(june8, _walker("US-A", "28.048")), _walker("US-B", "28.050"))
    assert "28.049" in movement_range(state, "US-A")  # no water on that hexside: the Clear part
    assert "28.049" not in movement_range(state, "US-B")  # the Douve's grey portion lies between


def test_2_1_14_impassable_and_2_1_8_beach_hexes_and_vehicles_off_the_roads(june8):
    import numpy as np

    from normandy_lab.network import edge_arrays
    from normandy_lab.rules.gts.movement import movement_costs

    terrain = nl.terrain_map("gts", progress=False).hexes["terrain"].to_numpy()
    e = edge_arrays("gts")
    leg = movement_costs(june8, _walker("X", "28.048"))
    german = movement_costs(june8, _walker("Y", "28.048", side="german"))
    vehicle = movement_costs(june8, _walker("Z", "28.048", mechanized=True))
    assert np.isnan(leg.cost[terrain[e.dst] == "Impassable"]).all()  # 2.1.14
    into_beach = terrain[e.dst] == "Beach"
    # 2.1.8: never a German; an American only where the overlay is kept (reading beach_from_8_june).
    kept = june8.evolve(options={**june8.options, "beach_from_8_june": "enterable"})
    assert (~np.isnan(movement_costs(kept, _walker("X", "28.048")).cost[into_beach])).any()
    assert np.isnan(german.cost[into_beach]).all() and np.isnan(leg.cost[into_beach]).all()
    marsh_off_road = (terrain[e.dst] == "Marsh") & (e.road == 0)
    assert np.isnan(vehicle.cost[marsh_off_road]).all()  # 2.1.7: wheels and tracks keep to the roads
    assert (~np.isnan(leg.cost[marsh_off_road])).any()  # men on foot do not


def test_17_6_a_storm_puts_the_82nd_s_supply_missions_back_a_day(june8, monkeypatch):
    from normandy_lab.engine.sequence import next_phase
    from normandy_lab.rules.gts.supply import eighty_second_supply, mission_today

    def on(day, storms=(), weather="Clear"):
        return june8.evolve(date=dt.date(1944, 6, day), weather=weather, storm_days=storms)

    assert [mission_today(on(d)) for d in (8, 9, 10, 11, 12)] == [
        "Indianapolis", "Jackson", "Lubbock", "Memphis", None,
    ]  # fmt: skip
    assert mission_today(on(9, weather="Storm")) is None  # the zone is closed, the mission waits
    assert mission_today(on(9, storms=("1944-06-08",))) == "Indianapolis"
    assert mission_today(on(12, storms=("1944-06-09",))) == "Memphis"  # four missions over five days
    from normandy_lab.rules.gts import paths

    cut_off = paths.PathResult(False, "17.6", words="not linked up")
    monkeypatch.setattr(paths, "linked_up", lambda state: cut_off)  # the way to the beach held
    western = on(10, storms=("1944-06-09",)).evolve(hypothetical_82nd=True)
    assert "mission Jackson drops into LZ 4, put back 1 day by Storm" in eighty_second_supply(western)
    # The day's weather is kept as the day ends: a Storm day joins storm_days.
    state = june8.evolve(weather="Storm")
    while state.date == june8.date:
        state = next_phase(state)
    assert "1944-06-08" in state.markers["storm_days"]


def test_4_4_7_example_the_st_martin_battery_reaches_landing_craft_at_10_and_each_range_box_10_more(june8):
    from dataclasses import replace as _replace

    from normandy_lab.engine.edits import add_unit
    from normandy_lab.rules.gts.naval import battery_fire, naval_range

    assert [naval_range("gts", "30.027", "20.025", box) for box in ("landing waves", "short", "medium", "long")] == [
        10, 20, 30, 40,
    ]  # fmt: skip
    battery = _replace(_walker("DE-BTY-STM", "30.027", side="german"), type="static", ma=0)
    state = add_unit(june8, battery)
    fire = battery_fire(state, "DE-BTY-STM", "20.025", 40)  # "the range for the Unit is 40"
    assert fire["eligible"] and all(b["in_range"] for b in fire["boxes"].values())
    assert not battery_fire(state, "DE-BTY-STM", "20.025", 35)["boxes"]["long"]["in_range"]
    north = battery_fire(state, "DE-BTY-STM", "37.010", 40)["boxes"]  # it could fire at UtN's marker too
    assert north["landing waves"]["range"] == nl.grid("gts").distance("30.027", "37.010")
    beside = add_unit(state, _walker("US-NEXT", nl.grid("gts").neighbors("30.027")[0]))
    refused = battery_fire(beside, "DE-BTY-STM", "20.025", 40)
    assert not refused["eligible"] and "US-NEXT" in refused["why"]
    barraged = state.evolve(
        units=tuple(
            _replace(u, attrs=(("barrage", True),)) if u.id == "DE-BTY-STM" else u for u in state.units
        )
    )
    assert battery_fire(barraged, "DE-BTY-STM", "20.025", 40)["why"] == "under a Barrage marker"


@pytest.mark.parametrize(
    ("exit_point", "village"),
    [
        ("Utah Exit 1", "Pouppeville"),
        ("Utah Exit 2", "Sainte-Marie-du-Mont"),
        ("Utah Exit 3", "Audouville-la-Hubert"),
        ("Utah Exit 4", "Saint-Martin-de-Varreville"),
    ],
)
def test_2_3_7_each_utah_causeway_carries_wheels_across_the_inundations_to_its_village(
    june8, exit_point, village
):
    """2.3.7: a causeway is a road; 2.1.7: vehicles cross Marsh only along one.  Each exit's causeway (the
    roads of maps/geography/roads_1944.yaml, sourced there) leads from the coast over flooded Marsh hexes."""
    import networkx as nx
    import numpy as np

    from normandy_lab.geo.gazetteer import lookup
    from normandy_lab.network import edge_arrays
    from normandy_lab.rules.gts.movement import movement_costs

    g = nl.grid("gts")
    ids = g.ids()
    terrain = nl.terrain_map("gts", progress=False).hexes["terrain"].to_numpy()
    e = edge_arrays("gts")
    vehicle = movement_costs(june8, _walker("Z", "28.048", mechanized=True))
    open_edges = ~np.isnan(vehicle.cost)  # 2.1.7: a vehicle enters or leaves Marsh only along a road
    wheels = nx.DiGraph(zip(e.src[open_edges].tolist(), e.dst[open_edges].tolist(), strict=True))
    # The exit's point may fall a hex offshore (the fit's RMS is 0.82 hex): its causeway starts at the nearest
    # hex a vehicle may stand in, on a road, within two hexes of it.
    at = g.locate(*lookup(exit_point))
    on_road = set(e.src[e.road > 0].tolist())
    near = sorted((g.distance(at, h), h) for h in ids if g.distance(at, h) <= 2 and g.index(h) in on_road)
    near = [h for _, h in near if g.index(h) in wheels]
    assert near, exit_point
    path = nx.shortest_path(wheels, g.index(near[0]), g.index(g.locate(*lookup(village))))
    crossed = [ids[i] for i in path if terrain[i] == "Marsh"]
    assert len(crossed) >= 2, (exit_point, [ids[i] for i in path])  # over the flooded meadows, on the road


# -- issue 30: the die reads 0-9 (17.1, 3.4.2) --------------------------------------------------------


def test_17_1_the_d10_reads_0_to_9_so_n_planes_block_on_n_plus_1_faces(june8):
    """17.1: "If he rolls equal to or less than the number of Fighter Bombers"; 3.4.2: "Rolls of 0 are
    always treated as 0": the d10 reads 0-9, so 4 planes keep the Germans out 50 %, 2 planes 30 %."""
    from normandy_lab.rules.gts.air import D10, at_or_under

    state = june8.evolve(german_reinforcement_hexes=("60.001",))
    assert [at_or_under(n) for n in (0, 1, 2, 4, 9, 12)] == [0.1, 0.2, 0.3, 0.5, 1.0, 1.0]
    assert kept_out_probability(state.evolve(fighter_bombers_on_interdiction=2)) == 0.3
    overcast = state.evolve(weather="Overcast", fighter_bombers_on_interdiction=2)
    assert (
        nl.phase_effects(overcast.evolve(turn="0900", phase_index=0))
        .results["interdiction at 60.001"]
        .startswith("30% that nobody enters (a d10 (0-9)")
    )
    # The seeded generator draws the faces 0-9; a hex is kept out exactly on a face at or under the planes.
    hexes = tuple(f"{c}.001" for c in range(40, 60))
    many = june8.evolve(german_reinforcement_hexes=hexes, fighter_bombers_on_interdiction=1)
    after, kept = roll_interdiction(many)
    faces = many.rng().integers(*D10, size=len(hexes)).tolist()
    assert D10 == (0, 10) and set(faces) <= set(range(10)) and after.draws == many.draws + len(hexes)
    assert kept == {h: f <= 1 for h, f in zip(hexes, faces, strict=True)}


def test_17_1_reading_interdiction_with_no_planes(june8):
    """17.1: "If he rolls equal to or less than the number of Fighter Bombers he has on Interdiction":
    with none, by default no roll (``no_roll``); the reading ``roll`` lets a 0 keep them out (10 %)."""
    state = june8.evolve(german_reinforcement_hexes=("60.001",), fighter_bombers_on_interdiction=0)
    assert kept_out_probability(state) == 0.0
    after, kept = roll_interdiction(state)
    assert kept == {"60.001": False} and after.draws == state.draws
    rolling = replace(state, options={**state.options, "interdiction_with_no_planes": "roll"})
    assert kept_out_probability(rolling) == 0.1
    assert roll_interdiction(rolling)[0].draws == state.draws + 1
    from normandy_lab.rules.gts.data import OPTIONS
    from normandy_lab.rules.gts.schema import GtsOptionsSchema

    assert OPTIONS["interdiction_with_no_planes"] == "no_roll"
    assert GtsOptionsSchema(interdiction_with_no_planes="roll").interdiction_with_no_planes == "roll"
    with pytest.raises(ValueError):
        GtsOptionsSchema(interdiction_with_no_planes="maybe")


def test_17_1_terrain_air_defence_on_a_0_to_9_die(june8):
    """17.1: "Town: 2" ... "rolls that value or less with a D10": AD 2 aborts on 0, 1, 2 (30 %)."""
    from normandy_lab.rules.gts.air import air_defence

    terrain = nl.terrain_map("gts", progress=False).hexes["terrain"]
    town = next(h for h in terrain.index if terrain[h] == "Town")
    assert "AD 2, aborts on a d10 (0-9) of 2 or less (30%)" in air_defence(june8, town)["terrain"]
    city = next((h for h in terrain.index if terrain[h] == "City"), None)
    if city is not None:
        assert "(50%)" in air_defence(june8, city)["terrain"]


def test_17_1_aa_under_a_barrage_marker_fires_at_1_hex(june8):
    """17.1: AA units "are subject to the FZ restrictions from an adjacent enemy Unit and Barrage markers
    (ie. range is reduced to 1 hex)"."""
    from normandy_lab.rules.gts.air import air_defence

    g = nl.grid("gts")
    flak = replace(_german("DE-FLAK", "45.022"), type="flak")
    near = next(h for h in g.id_array if 5 <= g.distance(h, "45.022") <= 8)
    next_door = g.canonical(g.neighbors("45.022")[0])
    barraged = june8.evolve(units=(*june8.units, replace(flak, attrs=(("barrage", True),))))
    assert air_defence(barraged, near)["aa_units"] == []
    assert air_defence(barraged, next_door)["aa_units"] == ["DE-FLAK"]
    assert air_defence(june8.evolve(units=(*june8.units, flak)), near)["aa_units"] == ["DE-FLAK"]


# -- issue 30: the 9th Infantry Division is one of the count (13.4, 17.3) -----------------------------


def test_13_4_17_3_the_9th_infantry_division_is_counted_designated_and_limited(june8):
    """13.4: "9th Infantry Division: 3 organic formations + 1 attachment"; 17.3: "designate 3 Divisions as
    'Supplied' for the day"; "Any Division arriving is considered to be supplied on the first day"."""
    from normandy_lab.rules.gts.supply import division_status

    nine = "9th Infantry Division"
    assert nine in US_DIVISIONS and US_DIVISIONS[nine] == dt.date(1944, 6, 10)
    assert division_status(june8)[nine][2].startswith("not yet ashore")
    unit = replace(_german("US-9-60-1", "20.030"), side="allied", nationality="US", formation=nine)
    day = june8.evolve(units=(*june8.units, unit), date=dt.date(1944, 6, 11))
    report = nl.supply(day).units["US-9-60-1"]
    assert not report.general and report.code == NOT_DESIGNATED and "corps troops" not in report.reason
    named = _designate(day, [nine, "4th Infantry Division", "90th Infantry Division"])
    assert nl.supply(named).units["US-9-60-1"].general
    assert "designated Supplied" in nl.supply(named).units["US-9-60-1"].reason
    arriving = day.evolve(date=dt.date(1944, 6, 10))
    assert "first day of its arrival" in nl.supply(arriving).units["US-9-60-1"].reason
    # A formation that is not a known division is still refused (17.3 counts divisions by name).
    problem = june8.rules.unit_problem({"side": "allied", "formation": "9th Infantry Divison"})
    assert problem is not None and "'9th Infantry Division'" in problem[2]
    assert june8.rules.unit_problem({"side": "allied", "formation": nine}) is None


# -- issue 30: the Night of 5 June is part of the game (3.4.2, 18.7) ------------------------------------


def test_3_4_2_18_7_the_night_of_5_june_is_played_then_6_june_0700():
    """3.4.2: "On Night, 5 June a battalion may not receive more than 4 Straggler Recovery Points";
    18.7: "During all 5, 6, and 7 June Game Turns": 5 June is in the game, with its Night turn only."""
    from normandy_lab.engine.scenario import ScenarioError, load_scenario_text
    from normandy_lab.engine.sequence import next_phase

    text = SMALL.read_text()
    night = load_scenario_text(
        text.replace('date: 1944-06-08\nturn: "0700"', "date: 1944-06-05\nturn: Night")
    )
    assert (str(night.date), night.turn) == ("1944-06-05", "Night")
    assert night.rules.turn_order(night.date) == ("Night",)
    assert nl.supply(night).units["US-4ID-8-1"].general  # no division limited before 8 June (17.3)
    state = night
    while state.turn == "Night":
        state = next_phase(state)
    assert (str(state.date), state.turn) == ("1944-06-06", "0700")
    with pytest.raises(ScenarioError, match="no '0700' turn on 1944-06-05"):
        load_scenario_text(text.replace("date: 1944-06-08", "date: 1944-06-05"))
    with pytest.raises(ScenarioError, match="outside the campaign"):
        load_scenario_text(text.replace('date: 1944-06-08\nturn: "0700"', "date: 1944-06-04\nturn: Night"))
