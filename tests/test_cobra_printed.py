"""Cobra played as its rules are printed (issue 31, section 1): each test names the rule it holds the engine to.

The rulebook (Cobra, Decision Games 2019, rules version 5) is the authority; quotes are short, the rest is
said in our own words.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from cobra_support import cobra_unit

import normandy_lab as nl
from normandy_lab.engine.movement import check_move, move_unit
from normandy_lab.rules import get

_unit = cobra_unit  # one builder for the Cobra test modules (tests/cobra_support.py)


def _at(state, phase, *units):
    """A state with only the given units, at the start of ``phase`` of the state's game turn."""
    return nl.step_to(state.evolve(units=tuple(units)), phase)


# -- 2.3.4 with 5.9: French units are US, Polish units British ------------------------------------------


@pytest.mark.parametrize(
    ("nationality", "legal", "refused", "rule"),
    [
        ("FR", "A2510", "A2610", "5.9b"),  # "US: Refers to American and French units"
        ("PL", "A2310", "A2210", "5.9c"),  # "British: Refers to British, Canadian, and Polish units"
    ],
)
def test_2_3_4_french_units_keep_the_us_side_of_the_boundary_and_polish_units_the_british(
    gt15, nationality, legal, refused, rule
):
    # The boundary runs down column A24 (17.2).  A lone armoured unit, far from any German, at A2410.
    unit = _unit("X", "allied", "A2410", nationality=nationality, type="armor", mechanized=True, ma=8)
    state = _at(gt15, "Allied Initial Movement", unit, _unit("DE-X", "german", "A4530"))
    assert check_move(state, "X", legal).legal  # one hex across: allowed
    move = check_move(state, "X", refused)
    assert not move.legal and rule in move.reason and "2.3.4" in move.reason


def test_2_3_4_the_armies_of_every_rule_are_one_table():
    from normandy_lab.rules.cobra import combat, stacking
    from normandy_lab.rules.cobra.data import ARMIES, army_of

    assert ARMIES == {"US": "US", "FR": "US", "UK": "UK", "CA": "UK", "PL": "UK"}
    assert {n: combat.ARMIES[n] for n in ARMIES} == ARMIES  # 8.1d-e: who attacks with whom
    assert set(stacking.BRITISH) == {"UK", "CA", "PL"} and set(stacking.US) == {"US", "FR"}  # 6.0c, 6.1
    assert army_of(_unit("D", "german", "A0101")) is None


# -- 5.2a: Flak moves as infantry -----------------------------------------------------------------------


def test_5_2a_flak_is_considered_infantry_for_movement_though_its_ma_is_12(gt15):
    from normandy_lab.network import edge_arrays
    from normandy_lab.rules.cobra.system import moves_mechanized

    cobra = get("cobra")
    g, e = nl.grid("cobra"), edge_arrays("cobra")
    flak = _unit("DE-F", "german", "A4102", type="flak", mechanized=True)  # the flag the scenarios give it
    armour = _unit("DE-A", "german", "A4102", type="armor", mechanized=True)
    state = gt15.evolve(units=(flak, armour), weather="Storm")
    step = int(np.nonzero((e.src == g.index("A4102")) & (e.dst == g.index("A4103")))[0][0])  # into marsh
    flak_costs = cobra.movement_costs(state, flak, True, 12.0).cost
    armour_costs = cobra.movement_costs(state, armour, True, 8.0).cost
    assert np.isnan(armour_costs[step])  # 5.2f/5.6c: a mechanized unit enters marsh only by a road
    assert flak_costs[step] == 12.0  # an infantry unit may: the marsh takes its whole allowance
    assert not moves_mechanized(flak) and moves_mechanized(armour)
    assert cobra.movement_allowance(state, flak, True, False) == 12.0  # the MA stays 12


# -- 9.1d: an HQ adds nothing to a stack's defence -------------------------------------------------------


def test_9_1d_an_hq_stacked_with_a_combat_unit_adds_nothing_to_the_defence_27_to_9_is_3_to_1(gt15):
    from normandy_lab.rules.cobra.combat import possible_attacks

    hq = dict(type="hq", size="corps_hq", hq="corps", steps=1, mechanized=True)
    regiment = _unit("DE-R", "german", "A2010", attack=9)
    attackers = [_unit(f"US-{n}", "allied", "A2009", size="regiment", attack=9) for n in range(3)]

    def attack(*defenders):
        state = _at(gt15, "Allied Combat", *attackers, *defenders)
        assert all(nl.supply(state)[u.id].general for u in (*attackers, *defenders))
        (only,) = [a for a in possible_attacks(state, "allied") if a["defender_hex"] == "A2010"]
        return only["attack"], only["defense"], only["odds"]

    assert attack(regiment) == (27, 9, "3:1")
    # "If stacked with a combat unit, they contribute no combat strength to the total strength of the defense"
    assert attack(regiment, _unit("DE-HQ", "german", "A2010", **hq)) == (27, 9, "3:1")
    # "if attacked alone in a hex, they defend with a strength of one"
    assert attack(_unit("DE-HQ", "german", "A2010", **hq)) == (27, 1, "27:1")


# -- 17.3.11: delay units exert a ZOC --------------------------------------------------------------------


@pytest.mark.parametrize("size", ["battalion", "regiment"])
def test_17_3_11_a_delay_unit_possesses_a_zoc_whatever_its_size(gt15, size):
    from normandy_lab.engine.lines import Situation, blocked_mask
    from normandy_lab.engine.zoc import zoc_mask

    delay = _unit("DE-DLY", "german", "A2010", type="delay", size=size, steps=1, ma=6)
    assert get("cobra").exerts_zoc(delay)
    state = gt15.evolve(units=(delay, _unit("US-R", "allied", "A0101")))
    g = nl.grid("cobra")
    assert zoc_mask(state, "german")[g.index("A2009")]
    # 10.3b2: an EZOC "including German delay units" blocks an Allied line
    assert blocked_mask(state, "allied", Situation.of(state))[g.index("A2009")]


# -- 5.2h: the Dives closed to mechanized movement ------------------------------------------------------


def test_5_2h_mechanized_units_may_not_cross_the_unbridged_dives_of_a4101_to_a4106(gt15):
    from normandy_lab.network import edge_arrays

    cobra = get("cobra")
    g, e = nl.grid("cobra"), edge_arrays("cobra")

    def step(a, b):
        return int(np.nonzero((e.src == g.index(a)) & (e.dst == g.index(b)))[0][0])

    armour = _unit("DE-A", "german", "A4202", type="armor", mechanized=True, ma=8)
    infantry = _unit("DE-I", "german", "A4202")
    state = gt15.evolve(units=(armour, infantry), weather="Storm")
    unbridged, bridged = step("A4202", "A4102"), step("A4201", "A4101")  # the second carries a road bridge
    armour_costs = cobra.movement_costs(state, armour, True, 8.0).cost
    assert np.isnan(armour_costs[unbridged]) and np.isnan(armour_costs[step("A4102", "A4202")])
    assert not np.isnan(armour_costs[bridged])
    assert not np.isnan(cobra.movement_costs(state, infantry, True, 4.0).cost[unbridged])  # infantry may
    hexside = "A4101|A4201"
    blown = cobra.movement_costs(state.evolve(destroyed_bridges=frozenset({hexside})), armour, True, 8.0).cost
    assert np.isnan(blown[bridged])  # a destroyed bridge leaves the hexside unbridged
    move = check_move(nl.step_to(state, "German Initial Movement"), "DE-A", "A4102")
    assert move.path[:2] != ["A4202", "A4102"]  # round by a bridge, if at all


# -- 4.0 and 5.2c: who moves in a Mechanized Movement Phase ---------------------------------------------


def test_4_0_only_panzer_panzergrenadier_and_hq_units_move_in_the_german_mechanized_movement_phase(gt15):
    cobra = get("cobra")
    units = {
        "infantry": _unit("DE-I", "german", "A2010", ma=6),
        "armor": _unit("DE-P", "german", "A2012", type="armor", mechanized=True, ma=6),
        "mech_infantry": _unit("DE-PG", "german", "A2014", type="mech_infantry", mechanized=True, ma=6),
        "hq": _unit("DE-HQ", "german", "A2016", type="hq", size="corps_hq", hq="corps", steps=1,
                    mechanized=True, ma=6),
        "flak": _unit("DE-F", "german", "A2018", type="flak", mechanized=True),  # 5.2a: infantry
        "delay": _unit("DE-D", "german", "A2020", type="delay", size="battalion", steps=1),
    }  # fmt: skip
    storm = gt15.evolve(weather="Storm")  # 5.3b: the whole MA in storms
    initial = _at(storm, "German Initial Movement", *units.values())
    mech = _at(storm, "German Mechanized Movement", *units.values())
    moves = {kind: cobra.movement_allowance(mech, u, True, False) for kind, u in units.items()}
    assert moves == {"infantry": 0, "armor": 6, "mech_infantry": 6, "hq": 6, "flak": 0, "delay": 0}
    assert all(cobra.movement_allowance(initial, u, True, False) > 0 for u in units.values())
    refused = check_move(mech, "DE-I", "A2011")
    assert not refused.legal and "no movement allowance" in refused.reason
    assert check_move(mech, "DE-P", "A2013").legal


def test_5_2c_british_and_canadian_infantry_divisions_move_two_thirds_6_mp_in_the_allied_mechanized_phase(
    gt15,
):
    cobra = get("cobra")
    division = dict(type="infantry", size="division", steps=4)
    british = _unit("UK-ID", "allied", "A3010", nationality="UK", **division)
    canadian = _unit("CA-ID", "allied", "A3012", nationality="CA", **division)
    us = _unit("US-ID", "allied", "A2010", **division)
    para = _unit("UK-PARA", "allied", "A3014", nationality="UK", type="parachute", size="brigade")
    armour = _unit(
        "UK-AB", "allied", "A3016", nationality="UK", type="armor", size="brigade", mechanized=True
    )
    state = _at(gt15, "Allied Mechanized Movement", british, canadian, us, para, armour)
    initial = _at(gt15, "Allied Initial Movement", british, canadian, us, para, armour)

    def ma(s, u, supplied=True):
        return cobra.movement_allowance(s, u, supplied, False)

    # "up to two-thirds (6 MP) of their printed MA": the printed MA is 9 (RECONSTRUCTED from this sentence)
    assert ma(initial, british) == ma(initial, canadian) == 9
    assert ma(state, british) == ma(state, canadian) == 6
    assert ma(state, british, supplied=False) == 3  # 10.6 halves the 5.2c allowance
    assert ma(state, us) == 0 and ma(state, para) == 0  # infantry: "No other units may be moved"
    assert ma(state, armour) == ma(initial, armour) == 8
    assert ma(state, replace(british, ma=6)) == 4  # two-thirds of a printed 6


# -- 5.1e's last Important note with 7.0b: into Caen across the Orne --------------------------------------


@pytest.mark.parametrize("german", ["A3604", "A3506"])
def test_5_1e_important_7_0b_crossing_the_orne_into_the_caen_city_hex_a3505_is_legal(gt15, german):
    # "If the destination was a city hex, the 4th Brigade could move into it because ZOC do not extend into
    # city hexes (7.0)": A3505 is a Caen city hex across the Orne from A3405; the German unit next to it
    # stands by the river, which would refuse the crossing were A3505 in its ZOC.
    g = nl.grid("cobra")
    brigade = _unit(
        "UK-4", "allied", "A3405", nationality="UK", type="armor", size="brigade", mechanized=True
    )
    state = _at(gt15, "Allied Initial Movement", brigade, _unit("DE-X", "german", german))
    assert (g.index("A3405"), g.index("A3505")) not in get("cobra").forbidden_steps(state, state.unit("UK-4"))
    move = check_move(state, "UK-4", "A3505")
    assert move.legal and move.path == ["A3405", "A3505"]


# -- 5.1b and 9.1b: a hex of enemy HQs only may be entered; the HQs are displaced ---------------------------


HQ = dict(type="hq", size="corps_hq", hq="corps", steps=1, mechanized=True)


def test_5_1b_9_1b_a_unit_may_enter_a_hex_holding_only_enemy_hqs_and_displaces_them(gt15):
    # "A unit may never enter a hex containing an enemy unit unless that hex contains only enemy HQ units"
    armour = _unit("US-A", "allied", "A2009", type="armor", mechanized=True, ma=8)
    hq = _unit("DE-HQ", "german", "A2010", **HQ)
    friend = _unit("DE-R", "german", "A2013")
    state = _at(gt15, "Allied Initial Movement", armour, hq, friend)
    move = check_move(state, "US-A", "A2010")
    assert move.legal and move.path == ["A2009", "A2010"]
    after = move_unit(state, "US-A", "A2010")
    moved = after.unit("DE-HQ")
    g = nl.grid("cobra")
    # 9.1b: displaced within four hexes of its hex (the engine's reading: to the nearest friendly unit)
    assert moved.status == "active" and moved.hex == "A2013" and g.distance("A2010", moved.hex) <= 4
    assert "9.1b" in tuple(after.log)[-1] and after.unit("US-A").hex == "A2010"
    # with a combat unit beside it the hex is closed, and the refusal cites Cobra's rule, not another game's
    held = _at(gt15, "Allied Initial Movement", armour, hq, _unit("DE-R", "german", "A2010"))
    refused = check_move(held, "US-A", "A2010")
    assert not refused.legal and refused.reason.endswith("(5.1b)")


def test_9_1b_an_hq_displaced_twice_in_one_phase_is_eliminated(gt15):
    first = _unit("US-A", "allied", "A2009", type="armor", mechanized=True, ma=8)
    second = _unit("US-B", "allied", "A2011", type="armor", mechanized=True, ma=8)
    hq = _unit("DE-HQ", "german", "A2010", **HQ)
    state = _at(gt15, "Allied Initial Movement", first, second, hq)
    after = move_unit(state, "US-A", "A2010")
    landed = after.unit("DE-HQ").hex
    again = move_unit(after, "US-B", landed)
    assert again.unit("DE-HQ").status == "eliminated" and "twice" in tuple(again.log)[-1]


def test_the_core_cites_each_game_s_own_rule_for_an_enemy_occupied_hex():
    from normandy_lab.rules import ruleset

    assert ruleset("cobra").rule_refs["enemy_hex"] == "5.1b"
    assert ruleset("bfn").rule_refs["enemy_hex"] == "10.1"  # BfN's own 10.1, as before
    for system in ("kg", "gts"):  # no other game's number: theirs, or none
        assert ruleset(system).rule_refs.get("enemy_hex") not in ("10.1", "5.1b")


# -- 11.1b with 5.3: the first storm, and the weather a scenario has already played ------------------------


def _paid(state):
    from normandy_lab.rules.cobra.points import pay_allies

    before = state.markers["supply_points"]["US"]
    return pay_allies(state).markers["supply_points"]["US"] - before


def test_11_1b_5_3_a_storm_on_gt_14_is_not_the_first_storm(gt15):
    from normandy_lab.rules.cobra.data import turn_dates

    def on(gt, **kw):
        return gt15.evolve(
            date=turn_dates(gt)[0], turn=f"GT {gt}", weather="Storm", allied_income={"US": 5}, **kw
        )

    # 5.3: "if there has been no previous storm turn, the weather on GT 6 is automatically storm", so every
    # game that reaches GT 14 has had its first storm: half the SP, rounded up (11.1b), not none.
    assert _paid(on(14)) == 2  # half of GT 14's 4 SP, the track entry 11.3's example quotes
    assert _paid(on(15)) == 3  # half of the 5 set
    assert _paid(on(4)) == 0  # "On the first storm game turn the Allied player does not receive any SP"
    assert _paid(on(4, weather_history=("Clear", "Overcast", "Storm"))) == 3  # its first storm was GT 3
    # the other reading: the first storm of the turns played in this game (a scenario's stated ones and on)
    of_play = on(15).evolve(options={**gt15.options, "first_storm": "of_play"})
    assert _paid(of_play) == 0 and _paid(of_play.evolve(weather_history=("Storm", "Clear"))) == 3


def _with_history(line: str) -> str:
    from normandy_lab.engine.scenario import scenario_path

    text = scenario_path("cobra_1944-07-16_gt15").read_text()
    return text.replace("\nsupply_points:", f"\n{line}\nsupply_points:", 1)


def test_5_3_a_scenario_states_the_weather_already_played_and_it_is_checked():
    from normandy_lab.engine.scenario import ScenarioError, load_scenario_text

    played = ["Clear", "Overcast", "Clear", "Clear", "Overcast", "Storm", *["Overcast"] * 8]  # GTs 1-14
    state = load_scenario_text(_with_history(f"weather_history: [{', '.join(played)}]"))
    assert state.markers["weather_history"] == tuple(played)
    assert load_scenario_text(_with_history("weather_history: [Storm, Storm]")).markers[
        "weather_history"
    ] == (
        "Storm",
        "Storm",
    )  # the last two turns only: the earlier ones unknown
    bad = {
        "weather_history: [Sunny]": "weather_history",
        f"weather_history: [{', '.join(['Clear'] * 15)}]": "15 turns of weather before GT 15",
        "weather_history: [Storm, Storm, Storm, Storm]": "a fourth storm turn in a row",
        f"weather_history: [Overcast, {', '.join(played[1:])}]": r"GT 1 is Clear in a game begun on GT 1 \(5\.3\)",
        f"weather_history: [Clear, Overcast, {', '.join(['Clear'] * 12)}]": r"no storm by GT 6",
    }
    for line, why in bad.items():
        with pytest.raises(ScenarioError, match=why):
            load_scenario_text(_with_history(line))
