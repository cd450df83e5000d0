"""Attachment exceptions, pathfinders, ships, CSPs and the calendar (BfN 7.2, 7.4-7.6, 17.1, 19.4, 2.3)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from normandy_lab.engine import load_scenario, load_scenario_text, supply
from normandy_lab.engine.csp import attack_csp_cost, daily_csp_income
from normandy_lab.engine.edits import add_unit
from normandy_lab.engine.scenario import ScenarioError
from normandy_lab.engine.sequence import calendar_in_force, combat_odds, next_phase, phase_effects
from normandy_lab.engine.state import Unit

PEGASUS = Path(__file__).parent / "data" / "bfn_pegasus_1944-06-07.yaml"
# Hexes west of the Orne, 3-4 hexes from the 3rd Division HQ (C2815) and 14-15
# from the Sword beachhead (C2525, a corps HQ until 11 June): out of a corps
# unit's reach, inside a division HQ's.
NEAR_3RD_DIVISION = ("C2812", "C2711", "C2712", "C2613", "C2713", "C2614")


@pytest.fixture(scope="module")
def pegasus():
    return load_scenario(PEGASUS)


def _unit(uid, hex_id, utype="infantry", formation=None, nationality="UK"):
    return Unit(
        id=uid,
        name=uid,
        side="allied",
        nationality=nationality,
        type=utype,
        mechanized=utype in ("armor", "flame_tank", "avre"),
        size="battalion",
        formation=formation,
        corps=None,
        hq=None,
        hex=hex_id,
        steps=2,
    )


def _with(state, *units):
    for unit in units:
        state = add_unit(state, unit)
    return state


def test_7_2_a_division_hq_supplies_at_most_three_corps_units(pegasus):
    """7.2: up to three non-division units may attach to a division HQ; a fourth is out of supply."""
    state = _with(pegasus, *(_unit(f"CORPS-{k}", h) for k, h in enumerate(NEAR_3RD_DIVISION[:4])))
    report = supply(state)
    attached = [f"CORPS-{k}" for k in range(4) if report[f"CORPS-{k}"].general]
    assert len(attached) == 3
    assert all(report[u].traced_to == "attached to division HQ of 3rd Division" for u in attached)


def test_attachment_chart_exception_2_croc_and_avre_do_not_count(pegasus):
    """Attachment chart, exception 2: Crocodiles and AVREs attach freely, beyond the three."""
    corps = [_unit(f"CORPS-{k}", h) for k, h in enumerate(NEAR_3RD_DIVISION[:3])]
    special = [_unit("CROC", NEAR_3RD_DIVISION[3], "flame_tank"), _unit("AVRE", NEAR_3RD_DIVISION[4], "avre")]
    report = supply(_with(pegasus, *corps, *special))
    assert all(report[u.id].general for u in corps)
    for uid in ("CROC", "AVRE"):
        assert report[uid].general
        assert report[uid].traced_to.endswith("(free attachment)")


def test_attachment_chart_exception_1_a_whole_cw_armoured_brigade_attaches(pegasus):
    """Exception 1: every unit of one CW armoured brigade attaches to one division, beyond the three."""
    corps = [_unit(f"CORPS-{k}", h) for k, h in enumerate(NEAR_3RD_DIVISION[:3])]
    brigade = [
        _unit(f"27AB-{k}", h, "armor", "27th Armoured Brigade") for k, h in enumerate(NEAR_3RD_DIVISION[3:])
    ]
    state = _with(pegasus, *corps, *brigade)
    report = supply(state)
    assert all(report[u.id].general for u in corps + brigade)
    assert {report[u.id].traced_to for u in brigade} == {
        "attached to division HQ of 3rd Division (whole CW armoured brigade)"
    }


def test_6_3_us_units_do_not_attach_to_a_cw_division(pegasus):
    report = supply(_with(pegasus, _unit("US-ENG", NEAR_3RD_DIVISION[0], "engineer", nationality="US")))
    assert not report["US-ENG"].general


def test_7_4_pathfinders_supply_airborne_units_until_the_end_of_7_june_am(pegasus):
    """7.4, 7.5, 17.1: a pathfinder hex acts as a division HQ for the paratroops, General Supply only."""
    assert not supply(pegasus)["GB-6AB-9"].general  # its HQ is cut off by Pegasus Bridge (12.5.4)
    with_pathfinder = pegasus.evolve(pathfinders=frozenset({"C3211"}))
    para = supply(with_pathfinder)["GB-6AB-9"]
    assert para.general and para.traced_to == "pathfinder"
    assert not para.combat  # 7.5: no Combat Supply through a pathfinder
    assert para.path[-1] == "C3211"
    # From the 7 June PM turn on, pathfinders no longer count.
    assert not supply(with_pathfinder.evolve(turn="PM", phase_index=0))["GB-6AB-9"].general
    # Only airborne units use them.
    leg = _with(with_pathfinder, _unit("LEG", "C3212", formation="3rd Division"))
    assert supply(leg)["LEG"].traced_to != "pathfinder"


def test_pathfinders_are_a_scenario_field():
    text = PEGASUS.read_text().replace("units:\n", "pathfinders: [C3211]\nunits:\n", 1)
    assert load_scenario_text(text, "pf.yaml").pathfinders == frozenset({"C3211"})
    with pytest.raises(ScenarioError, match=r"pf\.yaml:\d+: pathfinders"):
        load_scenario_text(text.replace("[C3211]", "[C9999]"), "pf.yaml")


def test_ships_stand_at_sea_and_trace_no_line(pegasus):
    ship = Unit(
        id="HMS-WARSPITE", name="Warspite", side="allied", nationality="UK", type="ship", mechanized=False,
        size="battalion", formation=None, corps=None, hq=None, hex="C2030", steps=1,
    )  # fmt: skip
    text = PEGASUS.read_text() + (
        "  - {id: HMS-X, name: HMS X, side: allied, nationality: UK, type: ship, size: battalion, hex: C2813, steps: 1}\n"
    )
    with pytest.raises(ScenarioError, match="is a land hex; put ships on a sea hex"):
        load_scenario_text(text, "ship.yaml")
    report = supply(_with(pegasus, ship))
    assert report["HMS-WARSPITE"].general and report["HMS-WARSPITE"].traced_to.startswith("ship")


def test_7_6_2_daily_csp_income_by_weather_and_mulberries(pegasus):
    assert daily_csp_income(pegasus, "Clear") == 12
    assert daily_csp_income(pegasus, "Storm") == 0
    assert daily_csp_income(pegasus.evolve(mulberries=("Omaha", "Gold")), "Overcast") == 9 + 20
    assert daily_csp_income(pegasus, "Heavy Rain", cherbourg_port=True) == 5 + 5


def test_7_6_2_a_new_day_credits_the_csps(pegasus):
    state = pegasus.evolve(turn="PM", phase_index=0, csp=4)
    while state.date == pegasus.date:
        state = next_phase(state)
    assert state.date == dt.date(1944, 6, 8)
    assert state.csp == 4 + daily_csp_income(state, state.weather)
    assert "CSP" in state.log[-1]


def test_7_6_attack_costs():
    assert attack_csp_cost("bfn", 1) == 0  # 7.6.4: one hex, no support
    assert attack_csp_cost("bfn", 1, supports=1) == 1  # Normal Attack with support
    assert attack_csp_cost("bfn", 2) == 3  # Major Attack
    # 7.6.3o graduated table
    assert attack_csp_cost("bfn", 1, supports=1, graduated=True) == 0
    assert attack_csp_cost("bfn", 1, supports=2, graduated=True) == 1
    assert attack_csp_cost("bfn", 3, supports=2, air=True, graduated=True) == 3
    assert attack_csp_cost("bfn", 1, supports=4, graduated=True) == 2


def test_combat_phase_lists_the_csp_of_allied_attacks(pegasus):
    attacks = combat_odds(pegasus, "allied")
    assert attacks and all(a["csp_if_supported"] in (1, 3) for a in attacks)
    assert all(a["csp_if_supported"] == 0 for a in combat_odds(pegasus, "german"))


def test_2_3_calendar_in_force(pegasus):
    on_7_june = [e.effect for e in calendar_in_force(pegasus)]
    assert "pathfinders" in on_7_june and "beachheads_as_corps" in on_7_june
    later = pegasus.evolve(date=dt.date(1944, 7, 20))
    events = " ".join(e.event for e in calendar_in_force(later))
    assert "Carpet bombing" in events and "Beachheads" not in events
    weather_phase = phase_effects(pegasus.evolve(turn="Night", phase_index=0))
    assert any("Pathfinder" in line for line in weather_phase.results["calendar"])
