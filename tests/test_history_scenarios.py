"""Engine against history (issue 6 §3): every historical scenario's units against the front of its date."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

import normandy_lab as nl
from normandy_lab.history.compare import compare_with_history, implied_sides, record_for
from normandy_lab.views.launcher import scenario_list

HISTORICAL = [name for _, name in scenario_list() if name.startswith("bfn_1944-")]
REQUIRED = [
    "bfn_1944-06-07_am",
    "bfn_1944-06-13_am",
    "bfn_1944-06-19_am",
    "bfn_1944-07-01_am",
    "bfn_1944-07-18_am",
    "bfn_1944-07-25_am",
    "bfn_1944-08-07_am",
]


def test_every_required_historical_scenario_exists():
    assert not set(REQUIRED) - set(HISTORICAL)


@pytest.mark.parametrize("name", HISTORICAL)
def test_scenario_units_match_the_historical_front(name):
    """Mean distance from the units' implied front to the historical line <= 3 km; nobody on the wrong side."""
    state = nl.load_scenario(name)
    result = compare_with_history(state)
    assert result.record_date == (state.date - dt.timedelta(days=1) if state.turn != "PM" else state.date)
    assert result.mean_km <= 3.0, result.summary()
    assert not result.unexplained, result.summary()


@pytest.mark.parametrize("name", HISTORICAL)
def test_scenario_units_are_mostly_in_supply(name):
    """Historically nearly every unit was in supply; the positions should let most of them trace.

    On a Heavy Rain or Storm morning (19 June: the great storm) ranges are halved (7.3.3) and many
    units fall out of supply: that is the rule's effect, so the positions are checked in fair
    weather, and the storm must only make things worse.
    """
    from normandy_lab.engine.edits import set_weather

    state = nl.load_scenario(name)
    report = nl.supply(state)
    if report.halved:
        fair = nl.supply(set_weather(state, "Overcast"))
        assert len(report.out_of_supply()) >= len(fair.out_of_supply())
        report = fair
    out = len(report.out_of_supply())
    assert out <= 0.35 * len(report.units), f"{out} of {len(report.units)} out of supply"


def test_implied_sides_follow_the_nearest_unit():
    state = nl.load_scenario("bfn_1944-06-13_am")
    sides = implied_sides(state)
    g = nl.grid("bfn")
    for unit in state.units:
        if unit.status == "active" and not unit.cut_off:  # a pocket stands behind the enemy's line
            own = sides[g.index(unit.hex)]
            assert own in (0, 1 if unit.side == "allied" else -1), unit.id


def test_a_unit_moved_across_the_line_is_reported_on_the_wrong_side():
    state = nl.load_scenario("bfn_1944-06-13_am")
    caen = nl.grid("bfn").locate(*nl.lookup("Caen"))
    unit = next(u for u in state.units if u.side == "allied" and u.hq is None and u.type == "infantry")
    moved = state.evolve(
        units=tuple(u if u.id != unit.id else dataclasses.replace(u, hex=caen) for u in state.units)
    )
    result = compare_with_history(moved)
    assert [w["unit"] for w in result.unexplained] == [unit.id]
    cut_off = moved.evolve(
        units=tuple(u if u.id != unit.id else dataclasses.replace(u, cut_off=True) for u in moved.units)
    )
    assert not compare_with_history(cut_off).unexplained


def test_am_turns_are_compared_with_the_evening_before():
    assert record_for(dt.date(1944, 6, 13), "AM").date == dt.date(1944, 6, 12)
    assert record_for(dt.date(1944, 6, 13), "PM").date == dt.date(1944, 6, 13)
