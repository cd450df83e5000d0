"""The Build-up's logistics as the turns run (OVERLORD 26.10, 26.16.2, 26.19.2-26.19.3, 26.20.1): each test named by
its rule, with the state's seeded dice."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest

import normandy_lab as nl
from normandy_lab.engine.edits import add_unit, apply_edit
from normandy_lab.engine.sequence import next_phase, step_to
from normandy_lab.engine.state import Unit
from normandy_lab.errors import RefusedError
from normandy_lab.rules.kg import logistics
from normandy_lab.rules.kg.data import BOXES


def test_26_10_the_germans_receive_8_sp_a_turn_and_12_once_v_panzer_army_is_active(t2):
    before = t2.markers["army_sp"]["DE"]
    assert logistics.pay_army_support(t2).markers["army_sp"]["DE"] == before + 8
    active = t2.evolve(v_panzer={"active": True, "space": 6, "support": 3})
    assert logistics.pay_army_support(active).markers["army_sp"]["DE"] == before + 12
    stepped = step_to(next_phase(t2), "Army Support")  # entering the phase pays
    # The Corps and Artillery Support segment before it paid for the German HQs (26.10.6).
    spent = stepped.markers["hq_support_paid"]["DE"]
    assert stepped.markers["army_sp"]["DE"] == before - spent + 8 and "15.4" in tuple(stepped.log)[-2]


def test_26_19_2_and_26_19_3_a_roll_of_5_or_less_advances_and_the_dice_are_seeded(t2):
    state = step_to(t2, "Allied Engineering")
    again = step_to(t2, "Allied Engineering")
    assert state.markers["mulberry"] == again.markers["mulberry"] and state.draws == again.draws
    assert state.draws - t2.draws == 4  # Mulberry A, US depot, Mulberry B (N3139 is Allied), UK depot
    before = step_to(t2, "Allied Combat")
    rng = before.rng()
    dice = [int(rng.integers(1, 7)) for _ in range(4)]  # the order the phase rolls them in
    assert state.markers["mulberry"]["A"] == int(dice[0] <= 5)
    assert state.markers["depots"]["US"] == int(dice[1] <= 5)
    assert state.markers["depot_flipped"]["US"] == (dice[1] > 5)
    assert state.markers["mulberry"]["B"] == int(dice[2] <= 5)


def test_26_19_the_odds_are_five_in_six_and_certain_at_minus_2(t2):
    at = step_to(t2, "Allied Combat")
    advanced = flipped_advanced = 0
    for seed in range(300):
        state = at.evolve(seed=seed, draws=0)
        advanced += logistics.engineering_rolls(state).markers["depots"]["US"]
        flipped = state.evolve(depot_flipped={"US": True}, mulberry_boost={"A": True})
        rolled = logistics.engineering_rolls(flipped)
        flipped_advanced += rolled.markers["depots"]["US"]
        assert rolled.markers["mulberry"]["A"] == 1  # -2: any die of 1-6 is 5 or less
    assert flipped_advanced == 300
    assert 0.76 <= advanced / 300 <= 0.90  # 5/6 = 0.83


def test_26_19_no_construction_in_a_storm_and_no_mulberry_b_roll_before_n3139_is_allied(t2, monkeypatch):
    at = step_to(t2, "Allied Combat")
    storm = logistics.engineering_rolls(at.evolve(weather="Storm"))
    assert storm.markers["mulberry"] == at.markers["mulberry"] and storm.draws == at.draws
    monkeypatch.setattr(logistics, "_allied_holds", lambda state, hex_id: False)
    rolled = logistics.engineering_rolls(at)
    assert rolled.markers["mulberry"]["B"] == 0 and rolled.draws - at.draws == 3
    assert "N3139 not Allied controlled (26.19.2)" in tuple(rolled.log)[-1]


def test_26_19_2_an_sp_buys_minus_2_in_the_army_support_phase_only(t2):
    with pytest.raises(RefusedError, match="Army Support phase"):
        apply_edit(t2, {"op": "marker", "name": "mulberry_boost", "value": "A"})
    support = step_to(next_phase(t2), "Army Support")
    boosted = apply_edit(support, {"op": "marker", "name": "mulberry_boost", "value": "A"})
    assert boosted.markers["army_sp"]["US"] == support.markers["army_sp"]["US"] - 1
    with pytest.raises(RefusedError, match="spent already"):
        apply_edit(boosted, {"op": "marker", "name": "mulberry_boost", "value": "A"})
    built = step_to(boosted, "Allied Engineering")
    assert built.markers["mulberry"]["A"] == support.markers["mulberry"]["A"] + 1
    assert built.markers["mulberry_boost"] == {}  # spent with the roll
    broke = support.evolve(army_sp={**support.markers["army_sp"], "UK": 0})
    with pytest.raises(RefusedError, match="no SP"):
        apply_edit(broke, {"op": "marker", "name": "mulberry_boost", "value": "B"})


def test_26_3_2_the_build_up_ends_when_both_depots_are_complete(t2):
    nearly = t2.evolve(depots={"US": logistics.DEPOT_SPACES, "UK": logistics.DEPOT_SPACES})
    ended = step_to(nearly, "Game-turn Indication")
    assert ended.markers["stage"] == "killing_ground" and "26.3.2" in tuple(ended.log)[-1]
    assert step_to(t2, "Game-turn Indication").markers["stage"] == "build-up"


def _panzer(uid: str, kind: str) -> Unit:
    return Unit(
        id=uid, name=uid, side="german", nationality="DE", type=kind, mechanized=True, size="battalion",
        formation="2 SS Pz", corps=None, hq=None, hex=BOXES["OMM 13"].entries[0], steps=2, status="off_map",
        box="OMM 13",
    )  # fmt: skip


@pytest.mark.parametrize(("kind", "odds"), [("armor", 4 / 6), ("mech_infantry", 2 / 6)])
def test_26_16_2_a_mechanized_reinforcement_rolls_for_its_supply_until_v_panzer_army(t2, kind, odds):
    out = 0
    for seed in range(240):
        state = add_unit(t2.evolve(seed=seed, draws=0), _panzer("DE-NEW", kind))
        unit = state.unit("DE-NEW")
        assert state.draws == 1 and "26.16.2" in tuple(state.log)[-2]
        out += unit.attr("out_of_supply")
        row = nl.supply(state)["DE-NEW"]
        assert row.general == (not unit.attr("out_of_supply"))  # kept in its box until it traces (26.16.2)
    assert abs(out / 240 - odds) < 0.1
    active = t2.evolve(v_panzer={"active": True, "space": 5, "support": 2})
    placed = add_unit(active, _panzer("DE-NEW", kind))
    assert placed.draws == active.draws and placed.unit("DE-NEW").attr("out_of_supply") is None


def test_26_16_2_an_infantry_reinforcement_or_a_unit_on_the_map_rolls_nothing(t2):
    infantry = replace(_panzer("DE-INF", "infantry"), mechanized=False)
    assert add_unit(t2, infantry).draws == t2.draws
    on_map = replace(_panzer("DE-MAP", "armor"), status="active", box=None, hex="N4040")
    assert add_unit(t2, on_map).draws == t2.draws


def test_26_20_1_v_panzer_army_rolls_from_turn_20_two_dice_against_its_marker(t2):
    turn_19 = t2.evolve(date=dt.date(1944, 6, 24), turn="Turn 19")
    assert logistics.v_panzer_roll(turn_19) is turn_19
    turn_20 = t2.evolve(date=dt.date(1944, 6, 25), turn="Turn 20")
    active = 0
    for seed in range(360):
        rolled = logistics.v_panzer_roll(turn_20.evolve(seed=seed, draws=0))
        marker = rolled.markers["v_panzer"]
        if marker["active"]:
            active += 1
            assert marker["space"] == 4 and 1 <= marker["support"] <= 6 and rolled.draws == 3
        else:
            assert marker["space"] == 5 and rolled.draws == 2
    assert abs(active / 360 - 6 / 36) < 0.06  # two dice at or under 4: 6 in 36


def test_26_8_2_naval_fire_protection_within_4_of_the_sea_for_2_points_or_one_hex_within_8(t2):
    import numpy as np

    from normandy_lab.grids import grid

    rules = t2.rules
    phase = next(p for p in rules.sequence[t2.turn] if p.name == "Allied Naval Bombardment")
    said = rules.phase_results(t2.evolve(weather="Clear"), phase)
    dist = logistics.sea_distance("kg")
    g = grid("kg")
    terrain = nl.terrain_map("kg", progress=False).hexes["terrain"].to_numpy()
    sea = [g.id_array[i] for i in np.nonzero(terrain == "All Sea")[0]]
    assert sea and all(dist[g.index(h)] == 0 for h in sea)
    protected = {h for hexes in said["protected_hexes"].values() for h in hexes}
    assert said["protected_hexes"]["US"] and said["protected_hexes"]["UK"]  # the beachheads hug the coast
    for hex_id in sorted(protected)[:12]:  # the distance is the hex count to the nearest all-sea hex
        assert dist[g.index(hex_id)] == min(g.distance(hex_id, s) for s in sea) <= 4
    occupied = {u.hex for u in t2.units_of("allied")}
    assert protected == {h for h in occupied if dist[g.index(h)] <= 4}
    assert "(26.8.2)" in said["naval_fire_protection"]["US"]
    assert rules.phase_results(t2.evolve(weather="Rain"), phase) == {
        "naval_fire_protection": "not allowed in rain (26.8.2)"
    }


def _emptied(state, *boxes):
    """Move the units out of some landing boxes into their Floating Reserve (as if they had landed)."""
    units = tuple(
        replace(u, box=f"{'US' if u.nationality == 'US' else 'British'} Floating Reserve")
        if u.box in boxes
        else u
        for u in state.units
    )
    return state.evolve(units=units)


def test_26_10_2_each_landing_box_1_with_no_combat_unit_lands_one_allied_sp(t2):
    support = step_to(next_phase(t2), "Army Support")  # Turn 2's Army Support was entered just now
    # 22.6.8: Mulberry A LB1 is empty; Utah, Omaha, Gold, Juno and Mulberry B LB1 each hold a combat unit.
    assert logistics.free_landing_boxes(support) == ["Mulberry A LB1"]
    before = step_to(t2, "Army Support")
    assert before.markers["army_sp"]["US"] == t2.markers["army_sp"]["US"] + 1
    assert before.markers["army_sp"]["UK"] == t2.markers["army_sp"]["UK"]
    assert (
        "Mulberry A LB1" in tuple(before.log)[-1] and "Support Points Landing Table" in tuple(before.log)[-1]
    )
    every = _emptied(t2, "Utah LB1", "Omaha LB1", "Gold LB1", "Juno LB1", "Mulberry B LB1")
    landed = logistics.land_allied_sp(every)
    assert logistics.free_landing_boxes(every) == [f"{d} LB1" for d, _ in logistics.SP_DISPLAYS]
    assert landed.markers["army_sp"]["US"] == t2.markers["army_sp"]["US"] + 3
    assert landed.markers["army_sp"]["UK"] == t2.markers["army_sp"]["UK"] + 3


def test_26_10_2_an_hq_in_a_landing_box_does_not_stop_its_sp(t2):
    hq = next(u for u in t2.units if u.hq is not None and u.nationality == "US")
    units = tuple(replace(u, box="Mulberry A LB1") if u.id == hq.id else u for u in t2.units)
    assert "Mulberry A LB1" in logistics.free_landing_boxes(t2.evolve(units=units))


def test_26_4_2_mulberry_b_lands_sp_only_once_an_allied_unit_stands_in_n3139(t2):
    free = _emptied(t2, "Mulberry B LB1")
    assert "Mulberry B LB1" in logistics.free_landing_boxes(free)  # 1/Hampshire stands in N3139
    away = tuple(
        replace(u, hex="N3039") if u.hex == "N3139" and u.status == "active" else u for u in free.units
    )
    assert "Mulberry B LB1" not in logistics.free_landing_boxes(free.evolve(units=away))


def test_26_10_2_the_depot_row_pays_what_the_analyst_sets_and_nothing_after_the_build_up(t2):
    support = step_to(next_phase(t2), "Army Support")
    paid = logistics.land_allied_sp(apply_edit(support, {"op": "marker", "name": "depot_sp_UK", "value": 2}))
    assert paid.markers["army_sp"]["UK"] == support.markers["army_sp"]["UK"] + 2
    over = logistics.land_allied_sp(support.evolve(stage="killing_ground"))
    assert over.markers["army_sp"] == support.markers["army_sp"] and "26.3.2" in tuple(over.log)[-1]
    with pytest.raises(RefusedError, match="depot_sp"):
        apply_edit(support, {"op": "marker", "name": "depot_sp", "value": {"DE": 1}})


@pytest.mark.parametrize("modifier", [0, 3])
def test_26_10_7_a_rail_point_brings_cherbourg_2_sp_on_4_or_less_1_on_5_or_6_none_above(t2, modifier):
    support = step_to(next_phase(t2), "Army Support")
    support = apply_edit(support, {"op": "marker", "name": "cherbourg_sp", "value": 1})
    if modifier:
        support = support.evolve(air_rail=True)
    seen = set()
    for seed in range(40):
        state = support.evolve(seed=seed, draws=0)
        die = int(state.rng().integers(1, 7))
        value = modifier if modifier else True
        after = apply_edit(state, {"op": "marker", "name": "cherbourg_rail", "value": value})
        total = die + modifier
        expected = 2 if total <= 4 else 1 if total <= 6 else 0
        assert after.markers["cherbourg_sp"] == 1 + expected, (die, modifier)
        seen.add(expected)
        with pytest.raises(RefusedError, match="one rail point a turn"):
            apply_edit(after, {"op": "marker", "name": "cherbourg_rail", "value": value})
    assert seen == ({2, 1} if not modifier else {2, 1, 0})


def test_26_10_7_cherbourg_rail_is_refused_where_the_rule_does_not_allow_it(t2):
    with pytest.raises(RefusedError, match="Army Support phase"):
        apply_edit(t2, {"op": "marker", "name": "cherbourg_rail", "value": True})
    support = step_to(next_phase(t2), "Army Support")
    with pytest.raises(RefusedError, match="set cherbourg_sp first"):
        apply_edit(support, {"op": "marker", "name": "cherbourg_rail", "value": True})
    known = apply_edit(support, {"op": "marker", "name": "cherbourg_sp", "value": 0}).evolve(air_rail=True)
    with pytest.raises(RefusedError, match="Interdiction value"):
        apply_edit(known, {"op": "marker", "name": "cherbourg_rail", "value": True})


def test_markers_added_later_stay_out_of_a_fingerprint_at_their_default(t2):
    from normandy_lab.engine.study import canonical, fingerprint

    held = canonical(t2)
    assert "depot_sp" not in held and "cherbourg_rail_on" not in held and "army_sp" in held
    paid = apply_edit(t2, {"op": "marker", "name": "depot_sp_US", "value": 1})
    assert canonical(paid)["depot_sp"] == {"US": 1} and fingerprint(paid) != fingerprint(t2)


def _hq_ashore(state, hex_id, uid="US-5CorpsHQ"):
    return state.evolve(
        units=tuple(
            replace(u, status="active", box=None, hex=hex_id) if u.id == uid else u for u in state.units
        )
    )


def _one_sp_hex(state):
    """A hex in the US 1 SP band of 26.10.5 whose line to an own beach is open (the map draws the bands)."""
    bands = {z.label.split(":")[1].split("(")[0].strip(): set(z.hexes) for z in nl.supply(state).zones()
             if z.label.startswith("US")}  # fmt: skip
    german = {u.hex for u in state.units_of("german")}
    for h in sorted(bands["1 SP"] - bands["free"] - german):
        if "for 1 SP" in nl.supply(_hq_ashore(state, h))["US-5CorpsHQ"].traced_to:
            return h
    raise AssertionError("no open hex in the 1 SP band")


def test_26_10_1_the_corps_and_artillery_support_segment_pays_for_an_hq_beyond_the_radius(t3):
    ashore = _hq_ashore(t3, _one_sp_hex(t3))
    paid = step_to(ashore, "Corps and Artillery Support")
    assert paid.markers["army_sp"]["US"] == ashore.markers["army_sp"]["US"] - 1
    # 26.10.6 (the printed German cost summary's "Support an HQ Unit 1"): of the two German corps HQs with a
    # line to a box (84 and I SS; 7AOK is Sturm-Bataillon AOK 7, not an HQ), one goes free and one costs 1 SP;
    # the Cherbourg HQ pays nothing while N1410 traces.
    assert dict(paid.markers["hq_support_paid"]) == {
        "on": "1944-06-08",
        "US": 1,
        "UK": 0,
        "DE": 1,
        "cherbourg": 0,
        "began_unsupported": [],
    }
    assert paid.markers["hq_unsupported"] == () and "US 1 SP" in tuple(paid.log)[-1]
    # Later in the turn the same HQ is supported from the same budget: it is not paid for twice.
    later = step_to(paid, "Supply")
    row = nl.supply(later)["US-5CorpsHQ"]
    assert row.general and "for 1 SP of the US army" in row.traced_to
    assert later.markers["army_sp"]["US"] == paid.markers["army_sp"]["US"] + 1  # Army Support landed 1


def test_26_10_1_an_hq_left_unsupported_pays_1_sp_more_to_lift_its_marker_next_turn(t3):
    ashore = _hq_ashore(t3, _one_sp_hex(t3))
    broke = ashore.evolve(army_sp={**ashore.markers["army_sp"], "US": 0})
    unpaid = step_to(broke, "Corps and Artillery Support")
    assert unpaid.markers["hq_unsupported"] == ("US-5CorpsHQ",) and unpaid.markers["army_sp"]["US"] == 0
    row = nl.supply(unpaid)["US-5CorpsHQ"]
    assert not row.general and "would need 1 SP and holds 0 at this turn's Corps and Artillery" in row.reason
    # A turn on, at the same hex, it costs 1 SP for the band and 1 to lift the marker: 2 in all.
    turn_4 = unpaid
    while turn_4.turn == unpaid.turn:
        turn_4 = next_phase(turn_4)
    for held, supported in ((1, False), (2, True)):
        state = step_to(
            turn_4.evolve(army_sp={**turn_4.markers["army_sp"], "US": held}), "Corps and Artillery Support"
        )
        assert ("US-5CorpsHQ" not in state.markers["hq_unsupported"]) == supported, held
        report = nl.supply(state)["US-5CorpsHQ"]
        assert report.general == supported
        assert "Unsupported marker it began the turn under" in (
            report.traced_to if supported else report.reason
        )
        assert state.markers["hq_support_paid"]["began_unsupported"] == ["US-5CorpsHQ"]


def test_26_11_1_turn_2_pays_nothing_for_allied_hq_support(t2, t3):
    """26.11.1 exempts the Allies on Turns 1 and 2; 26.10.6's German HQ costs are paid from Turn 2 on."""
    ashore = _hq_ashore(t2, _one_sp_hex(t3))  # where Turn 3 would pay 1 SP
    segment = step_to(ashore, "Corps and Artillery Support")
    before, after = ashore.markers["army_sp"], segment.markers["army_sp"]
    assert (after["US"], after["UK"]) == (before["US"], before["UK"])
    paid = segment.markers["hq_support_paid"]
    assert (paid["US"], paid["UK"], paid["began_unsupported"]) == (0, 0, [])
    assert after["DE"] == before["DE"] - paid["DE"] and paid["DE"] == 1  # 84 Corps; I SS free (7AOK no HQ)
