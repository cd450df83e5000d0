"""Cherbourg Unit Withdrawal (OVERLORD 26.20.6), on scenario 22.7 (19 June, Turn 14, Fortress Cherbourg)."""

from __future__ import annotations

import pytest

import normandy_lab as nl
from normandy_lab.engine.edits import apply_edit
from normandy_lab.engine.sequence import step_to
from normandy_lab.errors import RefusedError
from normandy_lab.rules.kg.withdrawal import candidates, southward_reach, succeeds, west_coast


@pytest.fixture(scope="module")
def t14():
    return nl.load_scenario("kg_1944-06-19_t14")


def _movement(state):
    return step_to(state, "German Movement")


@pytest.fixture(scope="module")
def declared(t14):
    """22.7 as if Fortress Cherbourg were declared this turn, at the German movement."""
    return _movement(t14.evolve(fortress_declared_on=t14.date.isoformat()))


def _order(state, uid, steps=2):
    reach = southward_reach(state, state.unit(uid), steps)
    return {"unit": uid, "to": max(reach, key=lambda h: (reach[h], h))}


def test_26_20_6_who_may_withdraw_cherbourg_units_near_the_west_coast_not_the_709th(t14):
    g = nl.grid("kg")
    lon, _ = g.centers()
    coast = west_coast("kg")
    assert len(coast) and (lon[coast] < -1.35).all()  # the Cotentin's west side, not the Utah shore
    found = candidates(t14)
    report = nl.supply(t14)
    assert found
    for uid in found:
        unit = t14.unit(uid)
        row = report[uid]  # in supply through Cherbourg alone, or out with no other source at any length
        assert "709" not in (unit.formation or "") and "a Cherbourg Unit" in f"{row.traced_to} {row.reason}"


def test_26_20_6_each_hex_entered_lies_south_of_the_last(declared):
    uid = candidates(declared)[0]
    reach = southward_reach(declared, declared.unit(uid), 4)
    _, lat = nl.grid("kg").centers()
    g = nl.grid("kg")
    start = lat[g.index(declared.unit(uid).hex)]
    assert reach and all(lat[g.index(h)] < start for h in reach)
    assert max(reach.values()) <= 4


def test_26_20_6_the_first_unit_always_gets_away_and_each_later_one_needs_a_lower_roll(declared):
    first, *others = candidates(declared)
    moved = apply_edit(
        declared, {"op": "marker", "name": "cherbourg_withdrawal", "value": [_order(declared, first)]}
    )
    unit = moved.unit(first)
    assert unit.hex != declared.unit(first).hex and unit.attr("regroup") is True  # 6 or less on one die
    assert moved.draws == declared.draws + 1 and any("26.20.6" in line for line in tuple(moved.log)[-2:])
    with pytest.raises(RefusedError, match="made once"):
        apply_edit(moved, {"op": "marker", "name": "cherbourg_withdrawal", "value": [_order(moved, first)]})
    if others:  # the second needs 5 or less (+1): it fails on a 6, about one seed in six
        second = others[0]
        failed = 0
        for seed in range(120):
            state = declared.evolve(seed=seed, draws=0)
            orders = [_order(state, first), _order(state, second)]
            after = apply_edit(state, {"op": "marker", "name": "cherbourg_withdrawal", "value": orders})
            failed += after.unit(second).hex == state.unit(second).hex
        assert 8 <= failed <= 35  # 1/6 of 120 = 20


def test_26_20_6_refused_outside_its_turn_and_phase_or_for_a_unit_that_may_not(t14, declared):
    uid = candidates(declared)[0]
    order = {"op": "marker", "name": "cherbourg_withdrawal", "value": [_order(declared, uid)]}
    with pytest.raises(RefusedError, match="the turn Fortress Cherbourg is declared"):
        apply_edit(_movement(t14), order)  # 22.7 declared it before the scenario began
    with pytest.raises(RefusedError, match="German movement begins"):
        apply_edit(t14.evolve(fortress_declared_on=t14.date.isoformat()), order)
    north = {"unit": uid, "to": nl.grid("kg").neighbors(declared.unit(uid).hex)[0]}
    with pytest.raises(RefusedError, match=r"cannot reach|may not"):
        apply_edit(declared, {"op": "marker", "name": "cherbourg_withdrawal", "value": [north]})
    seven_o_nine = next(u.id for u in declared.units_of("german") if "709" in (u.formation or ""))
    with pytest.raises(RefusedError, match="may not withdraw"):
        apply_edit(
            declared,
            {
                "op": "marker",
                "name": "cherbourg_withdrawal",
                "value": [{"unit": seven_o_nine, "to": "N2020"}],
            },
        )


def test_declaring_the_fortress_in_play_opens_the_withdrawal_that_turn(t14):
    undeclared = step_to(t14.evolve(fortress_cherbourg=False), "Army Support")  # 26.20.6: in that phase
    declared = apply_edit(undeclared, {"op": "marker", "name": "fortress_cherbourg", "value": True})
    assert declared.markers["fortress_declared_on"] == t14.date.isoformat()


def test_26_20_6_plus_1_for_each_unit_rolled_for_before():
    assert all(succeeds(die, 0) for die in range(1, 7))  # the first always gets away
    assert [succeeds(die, 1) for die in range(1, 7)] == [True] * 5 + [False]
    assert [succeeds(die, 2) for die in range(1, 7)] == [True] * 4 + [False] * 2
    assert not any(succeeds(die, 6) for die in range(1, 7))
