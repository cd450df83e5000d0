"""Attachment exceptions, pathfinders, ships, CSPs and the calendar (BfN 7.2, 7.4-7.6, 17.1, 19.4, 2.3)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from normandy_lab.engine import load_scenario, load_scenario_text, supply
from normandy_lab.engine.edits import add_unit
from normandy_lab.engine.scenario import ScenarioError
from normandy_lab.engine.sequence import calendar_in_force, next_phase, phase_effects
from normandy_lab.engine.state import Unit
from normandy_lab.rules.bfn.csp import attack_csp_cost, daily_csp_income
from normandy_lab.rules.bfn.sequence import combat_odds

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
    for unit in units:  # the brigades here have no HQ of their own (independent, as BfN's CW brigades)
        state = add_unit(state, unit, independent_formation=unit.formation is not None)
    return state


def test_7_2_a_division_hq_supplies_at_most_three_corps_units(pegasus):
    """7.2: up to three non-division units may attach to a division HQ; a fourth is out of supply."""
    state = _with(pegasus, *(_unit(f"CORPS-{k}", h) for k, h in enumerate(NEAR_3RD_DIVISION[:4])))
    report = supply(state)
    attached = [f"CORPS-{k}" for k in range(4) if report[f"CORPS-{k}"].general]
    assert len(attached) == 3
    hq = next(u for u in state.units if u.hq == "division" and u.formation == "3rd Division")
    assert all(report[u].traced_kind == "attached" and report[u].traced_id == hq.id for u in attached)
    assert all(
        report[u].traced_to.startswith(f"attached to division HQ {hq.id} ({hq.name}) at ") for u in attached
    )
    # The fourth is told why: the places are taken (7.2), naming the HQ and the units that hold them.
    left = next(f"CORPS-{k}" for k in range(4) if not report[f"CORPS-{k}"].general)
    assert report[left].code == "attachment_full" and report[left].rule == "7.2"
    assert f"{hq.id} already has 3 of 3 attached" in report[left].reason


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
    assert {report[u.id].traced_kind for u in brigade} == {"attached"}
    assert all(report[u.id].traced_to.endswith("(whole CW armoured brigade)") for u in brigade)
    assert len({report[u.id].traced_id for u in brigade}) == 1


def test_6_3_us_units_do_not_attach_to_a_cw_division(pegasus):
    report = supply(_with(pegasus, _unit("US-ENG", NEAR_3RD_DIVISION[0], "engineer", nationality="US")))
    assert not report["US-ENG"].general


def test_7_4_pathfinders_supply_airborne_units_until_the_end_of_7_june_am(pegasus):
    """7.4, 7.5, 17.1: a pathfinder hex acts as a division HQ for the paratroops, General Supply only."""
    assert not supply(pegasus)["GB-6AB-9"].general  # its HQ is cut off by Pegasus Bridge (12.5.4)
    with_pathfinder = pegasus.evolve(pathfinders=frozenset({"C3211"}))
    para = supply(with_pathfinder)["GB-6AB-9"]
    assert para.general and para.traced_kind == "pathfinder" and para.traced_id == "C3211"
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


def _hq(uid, hex_id, formation, side="allied", nationality="UK", kind="division"):
    return Unit(
        id=uid, name=uid, side=side, nationality=nationality, type="hq", mechanized=False,
        size="division_hq", formation=formation, corps=None, hq=kind, hex=hex_id, steps=1,
    )  # fmt: skip


def _division_unit(uid, hex_id, formation, utype="infantry", side="allied", nationality="UK"):
    return Unit(
        id=uid, name=uid, side=side, nationality=nationality, type=utype, mechanized=False,
        size="battalion", formation=formation, corps=None, hq=None, hex=hex_id, steps=3,
    )  # fmt: skip


# The 51st Division's HQ at Sword (in supply, far from the units below, which stand in the
# 3rd Division's range only): its units near the 3rd Division can be supplied only by attachment.
FAR_51ST = "C2524"


def test_7_2_one_non_artillery_unit_of_another_division_may_attach(pegasus):
    """7.2: of the three attached units, one may be a non-artillery unit of another division."""
    state = _with(
        pegasus,
        _hq("GB-51-HQ", FAR_51ST, "51st Division"),
        _division_unit("GB-51-A", NEAR_3RD_DIVISION[0], "51st Division"),
        _division_unit("GB-51-B", NEAR_3RD_DIVISION[1], "51st Division"),
    )
    report = supply(state)
    assert report["GB-51-HQ"].general
    supplied = [u for u in ("GB-51-A", "GB-51-B") if report[u].general]
    assert len(supplied) == 1 and report[supplied[0]].traced_kind == "attached"
    left = report[next(u for u in ("GB-51-A", "GB-51-B") if u not in supplied)]
    assert left.code == "attachment_full"
    assert "its one unit of another division attached" in left.reason


def test_7_2_allied_divisional_artillery_never_leaves_its_division(pegasus):
    state = _with(
        pegasus,
        _hq("GB-51-HQ", FAR_51ST, "51st Division"),
        _division_unit("GB-51-ART", NEAR_3RD_DIVISION[0], "51st Division", utype="artillery"),
    )
    report = supply(state)
    assert not report["GB-51-ART"].general
    assert report["GB-51-ART"].code == "out_of_range"


def _german_pocket(pegasus):
    """The Germans of the Pegasus test alone, with no supply cities and LXXXIV. AK far to the south.

    Around C2830 a unit is nine hexes from any source and beyond the corps HQ's
    reach: only a division or KG HQ there can supply it.
    """
    german = pegasus.evolve(
        units=tuple(u for u in pegasus.units if u.side == "allied" or u.id == "DE-PEG"),
        german_supply_cities=frozenset(),
    )
    return _with(german, _hq("DE-LXXXIV", "C3544", None, side="german", nationality="DE", kind="corps"))


POCKET = ("C2830", "C2827", "C2832", "C2927", "C2932", "C2731")


def test_7_2_german_artillery_attaches_to_another_division_and_the_reading_is_reported(pegasus):
    """7.2: the German player may attach division and corps artillery freely; the reading is an option."""
    state = _with(
        _german_pocket(pegasus),
        _hq("DE-21-HQ", POCKET[0], "21. Pz", side="german", nationality="DE"),
        # Three corps units and the 716. ID's artillery (its HQ far south) want the 21. Pz HQ's three places.
        *[
            _division_unit(f"DE-CORPS-{k}", h, None, side="german", nationality="DE")
            for k, h in enumerate(POCKET[1:4])
        ],
        _hq("DE-716-HQ", "C4044", "716. ID", side="german", nationality="DE"),
        _division_unit("DE-716-AR", POCKET[4], "716. ID", utype="artillery", side="german", nationality="DE"),
    )
    wanting = ("DE-CORPS-0", "DE-CORPS-1", "DE-CORPS-2", "DE-716-AR")
    counted = supply(state)
    # Read as taking a place, four units compete for three places; the artillery may take one (it is
    # not limited to the one place for another division's unit).
    held = [u for u in wanting if counted[u].general]
    assert len(held) == 3 and all(counted[u].traced_kind == "attached" for u in held)
    left = next(u for u in wanting if u not in held)
    assert counted[left].code == "attachment_full"
    assert counted[left].readings["german_artillery_attach"] == "counts"
    # Read as free, the artillery takes no place and all four are supplied.
    free = supply(state.evolve(options={"german_artillery_attach": "free"}))
    assert all(free[u].general for u in wanting)
    assert free["DE-716-AR"].traced_to.endswith("(free attachment)")


def test_20_3_a_kg_hq_supplies_six_units_of_any_division_or_corps(pegasus):
    """20.3: a KG HQ supplies six units of any division or corps (a division HQ three)."""
    hexes = (*POCKET[1:], "C2831", "C2929")
    units = [
        _division_unit(f"DE-X-{k}", h, None, side="german", nationality="DE") for k, h in enumerate(hexes)
    ]
    units[0] = _division_unit(
        "DE-X-0", hexes[0], "352. ID", side="german", nationality="DE"
    )  # another division's
    pocket = _with(
        _german_pocket(pegasus), _hq("DE-352-HQ", "C4044", "352. ID", side="german", nationality="DE")
    )
    kg = supply(
        _with(
            pocket, _hq("DE-KG-HQ", POCKET[0], "KG Rauch", side="german", nationality="DE", kind="kg"), *units
        )
    )
    division = supply(
        _with(pocket, _hq("DE-KG-HQ", POCKET[0], "21. Pz", side="german", nationality="DE"), *units)
    )
    assert kg["DE-KG-HQ"].general and division["DE-KG-HQ"].general
    assert sum(kg[u.id].traced_kind == "attached" for u in units) == 6
    assert sum(division[u.id].traced_kind == "attached" for u in units) == 3
    left = next(u.id for u in units if not kg[u.id].general)
    assert kg[left].code == "attachment_full" and "20.3" in kg[left].rule and "6 of its 6" in kg[left].reason


def test_attachments_are_the_owners_best_choice_not_first_come():
    """7.2: attachments are chosen; a maximum flow supplies every unit a greedy pass in file order would strand."""
    from normandy_lab.rules.bfn.attachment import AttachHQ, AttachOption, best_attachments

    hqs = [AttachHQ("1st", 1, 1), AttachHQ("2nd", 1, 1)]
    options = [
        AttachOption("A", "1st", 6, False),  # A is nearer the 1st, but may use the 2nd...
        AttachOption("A", "2nd", 30, False),
        AttachOption("B", "1st", 12, False),  # ...while B can reach only the 1st.
    ]
    assert best_attachments(hqs, options) == {"A": "2nd", "B": "1st"}
    # With no competition each unit takes its nearest HQ.
    assert best_attachments([AttachHQ("1st", 3, 1), AttachHQ("2nd", 3, 1)], options[:2]) == {"A": "1st"}
    # One place for another division's unit: the second such unit is left out.
    other = [AttachOption("C", "1st", 6, True), AttachOption("D", "1st", 6, True)]
    assert len(best_attachments([AttachHQ("1st", 3, 1)], other)) == 1


def test_7_2_breakdown_companies_count_as_corps_units_for_supply(pegasus):
    """7.2, 15.0: a division's breakdown company traces as a corps unit: it takes an attachment place."""
    from dataclasses import replace

    corps = [_unit(f"CORPS-{k}", h) for k, h in enumerate(NEAR_3RD_DIVISION[:3])]
    company = replace(
        _division_unit("GB-3D-A-COY", NEAR_3RD_DIVISION[3], "3rd Division"), size="company", steps=1
    )
    whole = supply(_with(pegasus, *corps, company))
    assert all(whole[u.id].general for u in [*corps, company])
    assert whole["GB-3D-A-COY"].traced_kind == "division HQ"  # an ordinary division unit: no place used
    broken = supply(_with(pegasus, *corps, replace(company, breakdown=True)))
    held = [u for u in ("CORPS-0", "CORPS-1", "CORPS-2", "GB-3D-A-COY") if broken[u].general]
    assert len(held) == 3  # four corps units for the division HQ's three places
    if broken["GB-3D-A-COY"].general:
        assert broken["GB-3D-A-COY"].traced_kind == "attached"


def test_15_1_a_breakdown_company_out_of_range_is_told_of_the_hq_it_may_attach_to(pegasus):
    """15.1: "Companies ... are considered corps units"; 7.2: a division HQ supplies up to three of them.

    A company broken down from a 3rd Division battalion stands seven hexes from the 3rd Division HQ,
    beyond the Sword beachhead's reach (a corps HQ until 11 June).  As a corps unit it may attach to its
    own division's HQ: so it is out of range by one hex to that HQ, not by the long way to a source, and
    one more hex supplies it by attachment.
    """
    from dataclasses import replace

    company = replace(
        _division_unit("GB-3D-A-COY", "C3120", "3rd Division"), size="company", steps=1, breakdown=True
    )
    state = _with(pegasus, company)
    report = supply(state)["GB-3D-A-COY"]
    assert not report.general and report.code == "out_of_range"
    assert report.shortfall == 1 and "out of range by 1 hex:" in report.reason
    assert "its division HQ GB-3D-HQ (to attach as a corps unit, 7.2, 15.1)" in report.reason
    rules = state.rules
    longer = replace(rules, supply={**rules.supply, "unit_range_hexes": 7, "unit_range_mp": 7}, variant="7")
    after = supply(state.with_rules(longer))["GB-3D-A-COY"]
    assert after.general and after.traced_kind == "attached" and after.traced_id == "GB-3D-HQ"
    # A company of another division (its HQ far off at Sword) is a corps unit too: the nearest HQ it
    # may attach to is the 3rd Division's, in one of its three places, not its one "other division" place.
    other = replace(company, id="GB-51-A-COY", formation="51st Division")
    far = _with(pegasus, _hq("GB-51-HQ", FAR_51ST, "51st Division"), other)
    out = supply(far)["GB-51-A-COY"]
    assert "the division HQ GB-3D-HQ (to attach, 7.2)" in out.reason and out.shortfall == 1


def test_7_2_attachment_full_names_the_one_place_for_another_division(pegasus):
    """7.2: "one non-artillery unit from another division, but the remainder must be corps units".

    A second unit of another division is refused by the taken "other division" place, even with a
    general place free; a breakdown company (15.1, a corps unit) never takes that place.
    """
    from dataclasses import replace

    company = replace(
        _division_unit("GB-51-COY", NEAR_3RD_DIVISION[2], "51st Division"), size="company", steps=1,
        breakdown=True,
    )  # fmt: skip
    state = _with(
        pegasus,
        _hq("GB-51-HQ", FAR_51ST, "51st Division"),
        _division_unit("GB-51-A", NEAR_3RD_DIVISION[0], "51st Division"),
        _division_unit("GB-51-B", NEAR_3RD_DIVISION[1], "51st Division"),
        company,
    )
    report = supply(state)
    assert report["GB-51-COY"].general and report["GB-51-COY"].traced_kind == "attached"
    left = next(report[u] for u in ("GB-51-A", "GB-51-B") if not report[u].general)
    assert "its one unit of another division attached" in left.reason
    assert "GB-51-COY" not in left.reason  # the company holds a corps unit's place, not that one


def _networkx_reference(hqs, options):
    """The same attachment problem solved by networkx's general min-cost max-flow: (units placed, cost)."""
    import networkx as nx

    graph = nx.DiGraph()
    for hq in hqs:
        graph.add_edge(("hq", hq.formation), "sink", capacity=hq.capacity, weight=0)
        graph.add_edge(
            ("other", hq.formation), ("hq", hq.formation), capacity=hq.other_division_places, weight=0
        )
    for o in options:
        graph.add_edge("source", ("unit", o.unit_id), capacity=1, weight=0)
        target = ("other", o.formation) if o.other_division else ("hq", o.formation)
        graph.add_edge(("unit", o.unit_id), target, capacity=1, weight=o.cost)
    if "source" not in graph:
        return 0, 0
    flow = nx.max_flow_min_cost(graph, "source", "sink")
    return sum(flow["source"].values()), nx.cost_of_flow(graph, flow)


def test_the_attachment_flow_equals_networkx_on_random_problems():
    """The small solver gives the same number of units attached and the same total line length."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from normandy_lab.rules.bfn.attachment import AttachHQ, AttachOption, best_attachments

    @settings(max_examples=150, deadline=None)
    @given(
        st.lists(st.tuples(st.integers(1, 3), st.booleans()), min_size=1, max_size=4),
        st.lists(
            st.tuples(st.integers(0, 7), st.integers(0, 3), st.integers(0, 40), st.booleans()),
            max_size=16,
        ),
    )
    def check(hq_specs, option_specs):
        hqs = [AttachHQ(f"F{k}", cap, 1 if one else cap) for k, (cap, one) in enumerate(hq_specs)]
        seen, options = set(), []
        for unit, hq, cost, other in option_specs:
            if hq < len(hqs) and (unit, hq) not in seen:
                seen.add((unit, hq))
                options.append(AttachOption(f"U{unit}", f"F{hq}", cost, other))
        chosen = best_attachments(hqs, options)
        cost_of = {(o.unit_id, o.formation): o.cost for o in options}
        placed, cost = _networkx_reference(hqs, options)
        assert len(chosen) == placed
        assert sum(cost_of[(u, f)] for u, f in chosen.items()) == cost
        for hq in hqs:  # the places are respected
            mine = [u for u, f in chosen.items() if f == hq.formation]
            assert len(mine) <= hq.capacity

    check()
