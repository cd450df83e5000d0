"""BfN HQ counters stand where a player would put them (7.2, 7.3.1, 7.8; issue 31).

A division HQ is where its division's supply is handed out: a player puts it where the fewest units of his
side are out of General Supply (7.2: within 20 MP of a source or an in-supply corps HQ; 7.3.1: units within
6 hexes or 6 MP; 7.8: on land, out of enemy zones of control, within 6 MP of a unit of its division), not
where it reaches the most of its own units.  ``propose_hq_hex`` ranks the legal hexes by the engine's full
determination; every shipped BfN scenario is placed so that no single HQ move it proposes puts a unit back
into supply, unless the expected list declares that unit a placement left unused (why: setup).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

import normandy_lab as nl
from normandy_lab.engine.scenario import historical_scenarios
from normandy_lab.rules import ruleset
from normandy_lab.rules.bfn.setup_check import propose_hq_hex

BFN = tuple(n for n in historical_scenarios() if n.startswith("bfn_"))


def _at(state, unit_id, hex_id):
    return state.evolve(units=tuple(replace(u, hex=hex_id) if u.id == unit_id else u for u in state.units))


def test_7_2_7_3_1_the_30th_division_hq_is_placed_to_supply_the_120th_and_the_743rd_on_1_july():
    """From its estimated post near Airel (B3111) the HQ reaches 3 of its 4 units, and so does B3110: ranked
    by its own units it stays, and the 120th (7.3.1) and the 743rd Tank Battalion, a corps unit that attaches
    to it (7.2), stay out.  Ranked by the units of its side out, a legal hex 4 hexes away supplies both."""
    shipped = nl.load_scenario("bfn_1944-07-01_am")
    hq = shipped.unit("US-30ID-HQ")
    assert "(hex B3111)" in hq.note and "scripts/place_hqs_bfn.py" in hq.note  # the researched post is kept
    at_post = _at(shipped, "US-30ID-HQ", "B3111")
    out_at_post = {r.unit_id for r in nl.supply(at_post).out_of_supply("allied")}
    assert {"US-30ID-120", "US-743TB"} <= out_at_post
    by_reach = propose_hq_hex(at_post, "US-30ID-HQ", weigh=False)
    assert by_reach.covered == by_reach.covered_now == 3  # reach alone finds nothing better
    proposal = propose_hq_hex(at_post, "US-30ID-HQ")
    assert set(proposal.brought_in) == {"US-30ID-120", "US-743TB"} and not proposal.left_out
    assert proposal.hq_mp <= 20 and proposal.moved_hexes <= 6
    assert proposal.without_combat <= proposal.without_combat_now
    assert hq.hex == proposal.hex  # the scenario has that move
    report = nl.supply(shipped)
    assert report["US-30ID-120"].general and report["US-30ID-120"].traced_id == "US-30ID-HQ"
    assert report["US-743TB"].general and report["US-743TB"].traced_kind == "attached"
    assert {r.unit_id for r in report.out_of_supply()} == {"DE-HAGUE"}


def _weathers(state):
    """The scenario's own weather and, for a Storm turn (7.3.3), its fair twin."""
    halved = ruleset(state.system).weather_effects[state.weather]["supply_halved"]
    return [state, state.evolve(weather="Overcast")] if halved else [state]


@pytest.mark.parametrize("name", BFN)
def test_7_8_no_hq_move_left_that_reduces_the_units_out(name):
    """Every division and KG HQ, asked for its best hex (7.8) in dry run: none leaves fewer units of its side
    out of General Supply, except by supplying units the expected list declares a placement left unused.
    No proposal gives up Combat Supply (7.6.1) or breaks a pocket the scenario records as cut off."""
    shipped = nl.load_scenario(name)
    found = []
    for state in _weathers(shipped):
        report = nl.supply(state)
        declared = {
            e.unit_id for e in state.expected_now() if e.why == "setup" and "placement" in e.reason.lower()
        }
        sides_out = {r.side for r in report.out_of_supply()}
        pockets = {u.id for u in state.units if u.cut_off}
        for hq in state.units:
            if hq.hq not in ("division", "kg") or hq.side not in sides_out:
                continue  # no unit of its side is out: no move can put one back
            p = propose_hq_hex(state, hq.id)
            assert not set(p.brought_in) & pockets, (state.weather, p)
            assert p.hex == p.current or p.without_combat <= p.without_combat_now, (state.weather, p)
            if p.out < p.out_now and not set(p.brought_in) <= declared:
                found.append(f"{state.weather}: {hq.id} {p.current}->{p.hex} brings in {p.brought_in}")
    assert not found, found


def test_19_june_is_placed_for_its_storm_and_its_fair_twin_declares_the_rest():
    """7.3.3: the scenario is played in the Storm, so its HQs stand for the Storm; every fair-twin unit a
    fair-weather move would supply says so, and what that move would cost in the Storm."""
    state = nl.load_scenario("bfn_1944-06-19_am")
    assert state.weather == "Storm"
    fair = {r.unit_id for r in nl.supply(state.evolve(weather="Overcast")).out_of_supply()}
    entries = {e.unit_id: e for e in state.expected_now()}
    placement = {u for u, e in entries.items() if e.why == "setup"}
    assert placement and placement <= fair
    for unit_id in placement:
        words = entries[unit_id].reason
        assert "placement for fair weather only" in words and "Storm" in words, unit_id
    # AA 130's binding cause is the Rifle Brigade's zone of control on its line to the 2. Panzer HQ (5.4, 7.3).
    aa130 = nl.supply(state.evolve(weather="Overcast"))["DE-LEHR-AA130"]
    assert "UK-7AD-1RB" in aa130.reason and "C4442" in aa130.reason
    assert "C4442" in entries["DE-LEHR-AA130"].reason and "zone of control" in entries["DE-LEHR-AA130"].reason
