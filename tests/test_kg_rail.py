"""German rail movement and Rail Interdiction (OVERLORD 26.4.3, 26.4.4): each test named by its rule."""

from __future__ import annotations

from dataclasses import replace

import pytest

import normandy_lab as nl
from normandy_lab.engine.edits import apply_edit
from normandy_lab.engine.sequence import current_phase, next_phase, step_to
from normandy_lab.errors import RefusedError
from normandy_lab.gamemap import game_map
from normandy_lab.grids import grid
from normandy_lab.rules.kg import rail


@pytest.fixture(scope="module")
def t14():
    return nl.load_scenario("kg_1944-06-19_t14")


def test_26_4_3_every_rail_destination_is_a_city_or_a_town_with_4_roads_clear_of_allied_units(t14):
    g = grid("kg")
    hexes = game_map("kg").terrain.hexes.set_index("hex_id")
    roads = rail.roads_out("kg")
    allied = [u.hex for u in t14.units_of("allied") if u.status == "active"]
    places = rail.rail_destinations(t14)
    assert places and t14.markers["rail_capacity"] == 2  # 22.7.3
    for hex_id in places:
        kind = hexes.loc[hex_id, "settlement"]
        assert kind == "City" or (kind == "Town" and roads[g.index(hex_id)] >= 4), hex_id
        assert min(g.distance(hex_id, a) for a in allied) >= 4, hex_id
    # Fortress Cherbourg is cut off from every off-map box on 19 June (22.7): no train reaches it.
    assert not any(hexes.loc[h, "builtup_name"] == "Cherbourg" for h in places)


def test_26_4_3_an_allied_unit_within_3_hexes_closes_a_destination(t14):
    places = rail.rail_destinations(t14)
    target = next(iter(places))
    g = grid("kg")
    terrain = game_map("kg").terrain.hexes.set_index("hex_id")["terrain"]
    near = next(h for h in g.ids() if g.distance(h, target) == 3 and terrain[h] != "All Sea")
    scout = next(u for u in t14.units_of("allied") if u.status == "active" and u.hq is None)
    moved = t14.evolve(units=tuple(replace(u, hex=near) if u.id == scout.id else u for u in t14.units))
    assert target not in rail.rail_destinations(moved)


def test_26_4_3_a_town_with_fewer_than_4_roads_out_takes_no_train():
    hexes = game_map("kg").terrain.hexes
    roads = rail.roads_out("kg")
    small = [
        h for i, h in enumerate(hexes["hex_id"]) if hexes["settlement"].iat[i] == "Town" and roads[i] < 4
    ]
    t2 = nl.load_scenario("kg_1944-06-07_t02")
    assert small and not set(small) & set(rail.rail_destinations(t2))


@pytest.mark.parametrize(("air_rail", "value", "rise"), [(False, None, 1), (True, 3, 3), (True, None, 1)])
def test_26_4_4_two_dice_at_or_under_the_level_cut_the_capacity_else_the_level_rises(
    t14, air_rail, value, rise
):
    base = t14.evolve(rail_interdiction_level=7, air_rail=air_rail, air_rail_value=value)
    cut = risen = 0
    for seed in range(60):
        state = base.evolve(seed=seed, draws=0)
        rng = state.rng()
        dice = int(rng.integers(1, 7)) + int(rng.integers(1, 7))
        after = rail.interdiction_roll(state)
        assert after.draws == state.draws + 2
        if dice <= 7:
            cut += 1
            assert after.markers["rail_capacity"] == 1 and after.markers["rail_interdiction_level"] == 1
        else:
            risen += 1
            assert (
                after.markers["rail_capacity"] == 2 and after.markers["rail_interdiction_level"] == 7 + rise
            )
        assert "26.4.4" in tuple(after.log)[-1]
    assert cut and risen


def test_26_4_4_nothing_is_rolled_without_a_known_capacity_or_with_none_left(t14):
    for capacity in (None, 0):
        state = t14.evolve(rail_capacity=capacity)
        assert rail.interdiction_roll(state) is state


def test_26_4_4_the_roll_is_made_as_german_rail_movement_ends(t14):
    moving = step_to(t14, "German Movement")
    words = t14.rules.phase_results(moving, current_phase(moving))
    assert set(words["rail_destinations"]) == set(rail.rail_destinations(moving))
    assert "26.4.3" in words["rail_capacity"]
    combat = next_phase(moving)
    assert current_phase(combat).name == "German Combat" and combat.draws == moving.draws + 2
    assert "Rail Interdiction rolled" in tuple(combat.log)[-1]


def test_26_4_3_the_rail_markers_are_edits_checked_by_the_rules(t14):
    assert (
        apply_edit(t14, {"op": "marker", "name": "rail_capacity", "value": 3}).markers["rail_capacity"] == 3
    )
    with pytest.raises(RefusedError, match=r"rail_interdiction_level: 0: .*at least 1 \(26\.4\.4\)"):
        apply_edit(t14, {"op": "marker", "name": "rail_interdiction_level", "value": 0})
    with pytest.raises(RefusedError, match="air_rail_value"):
        apply_edit(t14, {"op": "marker", "name": "air_rail_value", "value": "high"})


def test_26_4_3_the_rail_destinations_are_a_rule_zone_while_capacity_lasts(t14):
    zones = [z for z in nl.supply(t14).zones() if z.rule == "26.4.3"]
    assert len(zones) == 1 and set(zones[0].hexes) == set(rail.rail_destinations(t14))
    assert not [z for z in nl.supply(t14.evolve(rail_capacity=0)).zones() if z.rule == "26.4.3"]


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ("rail_capacity: two", "rail_capacity"),
        ("rail_capacity: -1", "rail_capacity"),
        ("rail_interdiction_level: 0", "rail_interdiction_level"),
        ("depot_sp: {DE: 3}", "depot_sp.DE"),
        ("air_rail_value: -2", "air_rail_value"),
    ],
)
def test_a_wrong_kg_marker_in_a_scenario_is_refused_with_its_line_and_field(line, field):
    from normandy_lab.engine.scenario import ScenarioError, load_scenario_text, scenario_path

    text = scenario_path("kg_1944-06-19_t14").read_text(encoding="utf-8").replace("rail_capacity: 2\n", "")
    with pytest.raises(ScenarioError, match=rf"bad\.yaml:\d+: {field}"):
        load_scenario_text(text + line + "\n", "bad.yaml")
