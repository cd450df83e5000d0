"""Rules the KG engine once played differently from the text (issue 29, section 1).

Each test quotes the rule it holds the engine to (a short phrase and its number in OVERLORD's section 26
or scenario 22.7) and works a case as a careful player would, from the rulebook alone.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

import normandy_lab as nl
from normandy_lab.engine.sequence import next_phase, step_to


@pytest.fixture(scope="module")
def t14():
    return nl.load_scenario("kg_1944-06-19_t14")


def _placed(state, **hexes):
    """Return ``state`` with the units named (``id=hex``) standing active on those hexes."""
    where = {uid.replace("_", "-"): h for uid, h in hexes.items()}
    return state.evolve(
        units=tuple(
            replace(u, status="active", box=None, hex=where[u.id]) if u.id in where else u
            for u in state.units
        )
    )


def _band_hexes(state, cost: int) -> list[str]:
    """Return open hexes where a US corps HQ costs exactly ``cost`` SP beyond the radius (26.10.5)."""
    report = nl.supply(state.evolve(army_sp={**state.markers["army_sp"], "US": 9}))
    bands = {z.label.split(":")[1].split("(")[0].strip(): set(z.hexes) for z in report.zones()
             if z.label.startswith("US")}  # fmt: skip
    inner = bands["free"] if cost == 1 else bands[f"{cost - 1} SP"]
    occupied = {u.hex for u in state.units if u.status == "active"}
    found = []
    for h in sorted(bands[f"{cost} SP"] - inner - occupied):
        row = nl.supply(_placed(state.evolve(army_sp={**state.markers["army_sp"], "US": 9}), US_5CorpsHQ=h))
        if f"for {cost} SP" in row["US-5CorpsHQ"].traced_to:
            found.append(h)
            if len(found) == 2:
                break
    return found


# -- 26.10.1: the order HQs are paid in ----------------------------------------------------------------


def test_26_10_1_the_hqs_that_began_unsupported_are_paid_for_first(t3):
    """26.10.1: "Supporting HQs is a 2 part process": first "spend 1 SP to remove the Unsupported marker
    from each HQ unit that begins the segment marked Unsupported", then SP for the HQs beyond the radius.

    The US army holds 3 SP.  5 Corps HQ began the turn Unsupported and stands where the radius costs 2 SP;
    7 Corps HQ, unmarked, where it costs 1.  Part 1 lifts 5 Corps's marker (1 SP); part 2 pays its 2 SP:
    the army is spent and 7 Corps goes unsupported.  Paying the cheapest first would support 7 Corps
    instead.
    """
    two, one = _band_hexes(t3, 2)[0], _band_hexes(t3, 1)[0]
    state = _placed(t3, US_5CorpsHQ=two, US_7CorpsHQ=one).evolve(
        army_sp={**t3.markers["army_sp"], "US": 3}, hq_unsupported=("US-5CorpsHQ",)
    )
    report = nl.supply(state)
    assert report["US-5CorpsHQ"].general
    assert "after 1 SP lifted the Unsupported marker" in report["US-5CorpsHQ"].traced_to
    assert not report["US-7CorpsHQ"].general
    assert "would need 4 SP and holds 3" in report["US-7CorpsHQ"].reason  # 1 + 2 before it, 1 its own
    # The reason is true: with 4 SP both are supported.
    assert nl.supply(state.evolve(army_sp={**state.markers["army_sp"], "US": 4}))["US-7CorpsHQ"].general
    # The segment pays 3 SP and marks 7 Corps HQ.
    paid = step_to(state, "Corps and Artillery Support")
    assert paid.markers["army_sp"]["US"] == 0 and paid.markers["hq_unsupported"] == ("US-7CorpsHQ",)


def test_26_10_1_a_marker_not_lifted_for_want_of_sp_keeps_its_hq_unsupported(t3):
    """26.10.1: "If an army does not have enough SPs to do so, the HQs stay unsupported"."""
    free = _band_hexes(t3, 1)[0]
    state = _placed(t3, US_5CorpsHQ=free).evolve(
        army_sp={**t3.markers["army_sp"], "US": 0}, hq_unsupported=("US-5CorpsHQ",)
    )
    row = nl.supply(state)["US-5CorpsHQ"]
    assert not row.general and "lifting the markers comes first" in row.reason
    assert "would need 1 SP to lift this one and holds 0" in row.reason


# -- 26.10.6: German HQ support costs SP --------------------------------------------------------------


def test_26_10_6_one_german_hq_is_supported_free_and_each_other_for_1_sp(t3):
    """26.10.6: "only one Corps HQ each turn can be freely supported"; the German cost summary prints
    "Support an HQ Unit 1".

    On 8 June two German corps HQs have a line to an off-map box (I SS Corps, LXXXIV Corps; 7AOK is
    Sturm-Bataillon AOK 7, a combat unit): one goes free and the other costs 1 SP.  With none the second (in
    the order of unit ids, the engine's stand-in for the German player's choice) goes unsupported.
    """
    hqs = ("DE-1SSCorpsHQ", "DE-84CorpsHQ")
    state = t3.evolve(hq_support_paid={})
    for held, supported in ((2, hqs), (1, hqs), (0, hqs[:1])):
        report = nl.supply(state.evolve(army_sp={**state.markers["army_sp"], "DE": held}))
        assert tuple(h for h in hqs if report[h].general) == supported, held
    report = nl.supply(state.evolve(army_sp={**state.markers["army_sp"], "DE": 0}))
    row = report["DE-84CorpsHQ"]
    assert row.rule == "26.10.6" and "would need 1 SP and holds 0" in row.reason
    assert report["DE-7AOK"].unit_id and nl.load_scenario("kg_1944-06-07_t02").unit("DE-7AOK").hq is None
    assert "free" in report["DE-1SSCorpsHQ"].traced_to
    # The segment pays them: 1 SP leaves the German SP.
    paid = step_to(state.evolve(army_sp={**state.markers["army_sp"], "DE": 5}), "Corps and Artillery Support")
    assert paid.markers["army_sp"]["DE"] == 4 and paid.markers["hq_support_paid"]["DE"] == 1


def test_26_20_1_two_german_hqs_go_free_once_v_panzer_army_is_active(t3):
    """26.20.1: once V Panzer Army is active "2 HQs and two artillery units (one for each army) are now
    supported for free"."""
    active = t3.evolve(
        hq_support_paid={},
        army_sp={**t3.markers["army_sp"], "DE": 0},
        v_panzer={"active": True, "space": 6, "support": 3},
    )
    report = nl.supply(active)
    assert [h for h in ("DE-1SSCorpsHQ", "DE-84CorpsHQ") if report[h].general] == [
        "DE-1SSCorpsHQ",
        "DE-84CorpsHQ",
    ]


# -- 26.10.7: the Cherbourg HQ's support --------------------------------------------------------------


def _boxes_lost(state):
    """Return ``state`` with every German off-map box in Allied hands: nothing traces to one."""
    boxes = {b.name: "allied" for b in state.rules.boxes.values() if b.side == "german"}
    return state.evolve(omm_control=boxes, hq_support_paid={})


def test_26_10_7_cut_off_the_cherbourg_hq_is_supported_only_by_a_cherbourg_sp(t2):
    """26.10.7: "If a supply line cannot be traced from N1410 to a German controlled OMM box, the Cherbourg
    HQ may be supported using a Cherbourg SP"."""
    cut = _boxes_lost(t2)
    assert nl.supply(t2)["DE-CherbourgHQ"].general  # N1410 traces: supported for nothing
    none_left = nl.supply(cut.evolve(cherbourg_sp=0))["DE-CherbourgHQ"]
    assert not none_left.general and none_left.rule == "26.10.7"
    assert "would need 1 SP and holds 0" in none_left.reason
    one = nl.supply(cut.evolve(cherbourg_sp=1))["DE-CherbourgHQ"]
    assert one.general and "1 of Cherbourg's own SP" in one.traced_to
    paid = step_to(cut.evolve(cherbourg_sp=3), "Corps and Artillery Support")
    assert paid.markers["cherbourg_sp"] == 2 and paid.markers["hq_support_paid"]["cherbourg"] == 1


def test_26_10_7_the_cherbourg_hq_needs_its_own_line_to_n1410(t2):
    """26.10.7: "Cherbourg hex N1410 is the only supply source it may trace to for supply and support"."""
    hq = t2.unit("DE-CherbourgHQ")
    g = nl.grid("kg")
    template = next(u for u in t2.units_of("allied") if u.status == "active" and u.type == "infantry")
    ring = tuple(
        replace(template, id=f"US-ring-{k}", hex=h, status="active", box=None)
        for k, h in enumerate(g.neighbors(hq.hex))
    )
    ringed = t2.evolve(units=(*t2.units, *ring))
    row = nl.supply(ringed)["DE-CherbourgHQ"]
    assert not row.general and row.isolated and "no line of any length to N1410" in row.reason


# -- 26.11.2: German units without a corps designation ------------------------------------------------


def test_26_11_2_a_division_unit_may_trace_to_a_supported_hq_as_well_as_to_a_city(t14):
    """26.11.2: German non-mech units without a Corps designation "may trace supply to an eligible city
    hex"; 26.20.6's Cherbourg Units "trace supply only to N1410 and/or the Cherbourg HQ" and 26.10.7 has
    artillery "trace supply to" that HQ: the city hexes are added to the HQs, not put in their place.

    The reading ``german_division_supply`` (``hq_or_city`` by default, ``city_only`` the other) decides;
    a verdict resting on it names it.
    """
    # 26.11.2's city supply is the Build-up's ("During the Build-up"): pinned to the reading standard_rules:
    # build_up on 22.7's positions, which by default are traced by the standard rules (22.7.1), where every
    # unit may trace to a supported HQ and the reading german_division_supply does not arise.
    t14 = t14.evolve(options={**t14.options, "standard_rules": "build_up"})
    default = nl.supply(t14)
    split = nl.supply(t14.evolve(options={**t14.options, "german_division_supply": "city_only"}))
    gained = [
        u
        for u in t14.units_of("german")
        if u.status == "active" and not u.hq and default[u.id].general and not split[u.id].general
    ]
    assert gained  # German infantry beyond 6 hexes of any city but within 6 of a supported corps HQ
    for u in gained:
        assert not u.mechanized and not u.corps  # 26.11.2's units "without a Corps designation"
        row = default[u.id]
        assert row.traced_kind == "corps HQ" and "german_division_supply=hq_or_city" in row.traced_to
        assert row.readings == {"german_division_supply": "hq_or_city"}
        assert split[u.id].readings == {"german_division_supply": "city_only"}
    # The reason is true: without the HQ the unit traced to, it is out again.
    u = gained[0]
    hq = next(h for h in t14.units_of("german") if h.hq and h.hex == default[u.id].path[-1])
    gone = t14.evolve(units=tuple(replace(x, status="eliminated") if x.id == hq.id else x for x in t14.units))
    assert not nl.supply(gone)[u.id].general or nl.supply(gone)[u.id].traced_kind == "corps HQ"


def test_26_11_2_the_reading_is_an_option_the_options_schema_checks():
    """A scenario's options are validated: a reading outside the two is refused at its line."""
    from normandy_lab.engine.scenario import ScenarioError, load_scenario_text, scenario_path

    text = scenario_path("kg_1944-06-07_t02").read_text(encoding="utf-8")
    good = load_scenario_text(text + "options:\n  german_division_supply: city_only\n")
    assert good.options["german_division_supply"] == "city_only"
    with pytest.raises(ScenarioError, match="german_division_supply"):
        load_scenario_text(text + "options:\n  german_division_supply: cities\n")


# -- 26.2.3: Weapons Nests are never isolated ---------------------------------------------------------


def _pocket(state, *, nest: bool):
    """Put a German battalion in N3027 (and a WN with a battalion ZOC in N3028) ringed by Allied units."""
    g = nl.grid("kg")
    template = next(u for u in state.units_of("allied") if u.status == "active" and u.type == "infantry")
    german = next(u for u in state.units_of("german") if u.status == "active" and u.type == "infantry")
    ring = sorted({h for c in ("N3027", "N3028") for h in g.neighbors(c)} - {"N3027", "N3028"})
    ring = [h for h in ring if nl.terrain_map("kg").hexes.loc[h, "terrain"] != "All Sea"]
    added = [
        replace(template, id=f"US-ring-{k}", hex=h, status="active", box=None) for k, h in enumerate(ring)
    ]
    added.append(replace(german, id="DE-pocket", hex="N3027", status="active", box=None, corps=None))
    if nest:
        added.append(
            replace(german, id="DE-WN-pocket", name="WN pocket", type="wn", size="battalion", hex="N3028",
                    status="active", box=None, corps=None, attrs=(("zoc", "battalion"),))
        )  # fmt: skip
    return state.evolve(units=(*state.units, *added))


def test_26_2_3_a_wn_with_a_battalion_zoc_and_the_units_beside_it_are_never_isolated(t3):
    """26.2.3: "A WN with a battalion ZOC or a red IP unit type symbol is never isolated", and "German units
    stacked with or adjacent to" one "are never isolated but may be out of supply"."""
    bare = nl.supply(_pocket(t3, nest=False))["DE-pocket"]
    assert not bare.general and bare.isolated  # ringed, no line of any length
    report = nl.supply(_pocket(t3, nest=True))
    for uid in ("DE-pocket", "DE-WN-pocket"):
        row = report[uid]
        assert not row.general and not row.isolated, uid  # out of supply, not isolated
        assert "never isolated" in row.reason and "26.2.3" in row.reason


# -- 26.20.6: Fortress Cherbourg ----------------------------------------------------------------------

DECLARE = {"op": "marker", "name": "fortress_cherbourg", "value": True}


def test_26_20_6_the_fortress_is_declared_in_the_army_support_and_replacement_phase_only(t14):
    """26.20.6: "During the Army Support and Replacement Phase the German player may declare Fortress
    Cherbourg any time after Turn 12"."""
    from normandy_lab.engine.edits import apply_edit
    from normandy_lab.errors import RefusedError

    open_ = t14.evolve(fortress_cherbourg=False)
    with pytest.raises(RefusedError, match="Army Support and Replacement Phase"):
        apply_edit(open_, DECLARE)  # the Weather phase
    with pytest.raises(RefusedError, match="Army Support and Replacement Phase"):
        apply_edit(step_to(open_, "German Movement"), DECLARE)
    for phase in ("Corps and Artillery Support", "Army Support", "Replacement and Reinforcement"):
        assert apply_edit(step_to(open_, phase), DECLARE).markers["fortress_cherbourg"], phase


def test_26_20_6_a_forced_declaration_needs_no_cherbourg_hq(t3):
    """26.20.6: the German player "must declare it in the turn in which it is impossible to trace a supply
    line from N1410 to an OMM supply source": N1410's line decides, whether or not the HQ still stands."""
    from normandy_lab.engine.edits import apply_edit
    from normandy_lab.errors import RefusedError

    gone = t3.evolve(
        units=tuple(replace(u, status="eliminated") if u.id == "DE-CherbourgHQ" else u for u in t3.units)
    )
    with pytest.raises(RefusedError, match="after Turn 12"):  # Turn 3, N1410 still traces
        apply_edit(step_to(gone, "Army Support"), DECLARE)
    cut = step_to(_boxes_lost(gone), "Army Support")
    assert "must be declared this turn" in nl.phase_effects(cut).results["fortress_cherbourg"]
    assert apply_edit(cut, DECLARE).markers["fortress_cherbourg"]


def test_26_20_6_withdrawal_goes_south_by_the_printed_hex_rows(t14):
    """26.20.6: "Each hex entered must be south of the hex it moved from": on the printed map's rows (which
    run east-west and are numbered southward, 26.18.1), not by latitude: the KG grid is turned about half a
    degree from north, so one of a hex's two neighbours along its row lies a little to the south in fact."""
    from normandy_lab.rules.kg.withdrawal import southward_reach

    g = nl.grid("kg")
    _, lat = g.centers()
    unit = next(u for u in t14.units_of("german") if u.hex == "N2412")  # II/921/243, on the west coast side
    here = g.index(unit.hex)
    along = [h for h in g.neighbors(unit.hex) if g.r[g.index(h)] == g.r[here]]
    lower = [h for h in along if lat[g.index(h)] < lat[here]]
    assert lower  # a step along the row that latitude would call south
    reach = southward_reach(t14, unit, 6)
    assert not set(along) & set(reach)
    assert reach and all(g.r[g.index(h)] > g.r[here] for h in reach)


# -- 26.14.1: Storms ---------------------------------------------------------------------------------


def test_26_14_1_in_a_storm_the_allies_land_no_sp_and_receive_none_from_the_depots(t2):
    """26.14.1: in a storm turn "Support Points may not be landed or received from the Allied Depot Track"."""
    from normandy_lab.rules.kg import logistics

    paying = t2.evolve(depot_sp={"US": 2, "UK": 1})
    fair = logistics.land_allied_sp(paying)
    assert fair.markers["army_sp"]["US"] > t2.markers["army_sp"]["US"]  # Mulberry A LB1 and the depot
    storm = logistics.land_allied_sp(paying.evolve(weather="Storm"))
    assert storm.markers["army_sp"] == t2.markers["army_sp"] and "26.14.1" in tuple(storm.log)[-1]
    assert "26.14.1" in logistics.allied_income_words(paying.evolve(weather="Storm"))


# -- 26.10.7 and 26.4.3: a rail point for Cherbourg -----------------------------------------------------


def test_26_10_7_a_rail_point_for_cherbourg_comes_off_that_turns_rail_capacity(t2):
    """26.10.7: "Flip the Rail Capacity marker to its -1 side to indicate a Rail Point was used to add
    Cherbourg SPs", back "at the end of the German Rail Movement Segment"; with no capacity no rail point
    is there to use."""
    from normandy_lab.engine.edits import apply_edit
    from normandy_lab.errors import RefusedError
    from normandy_lab.rules.kg.rail import rail_capacity_now

    support = step_to(next_phase(t2), "Army Support").evolve(cherbourg_sp=1)
    rail = {"op": "marker", "name": "cherbourg_rail", "value": True}
    with pytest.raises(RefusedError, match="Rail Capacity is 0"):
        apply_edit(support.evolve(rail_capacity=0), rail)
    used = apply_edit(support.evolve(rail_capacity=2), rail)
    assert rail_capacity_now(used) == 1 and used.markers["rail_capacity"] == 2
    moving = step_to(used, "German Movement")
    assert rail_capacity_now(moving) == 1 and "-1 side" in nl.phase_effects(moving).results["rail_capacity"]
    after = step_to(moving, "German Combat")  # the rail movement has ended: the marker is back
    assert rail_capacity_now(after) == after.markers["rail_capacity"]


# -- what the text prints: the depot's SP, the rail move -----------------------------------------------


def test_26_19_3_one_sp_after_seeing_a_failed_depot_roll_saves_it(t2):
    """26.19.3: "The Allied player may expend one Support Point ... to improve the results, after seeing the
    roll. A maximum of 1 SP per nationality"; by how much is not printed (reading ``depot_sp_improvement``,
    2 by default as 26.19.2's same purchase)."""
    from normandy_lab.engine.edits import apply_edit
    from normandy_lab.errors import RefusedError

    before = step_to(t2, "Allied Combat")
    order = {"op": "marker", "name": "depot_improve", "value": "US"}
    ordered = apply_edit(before, order)
    with pytest.raises(RefusedError, match="at most 1 SP"):
        apply_edit(ordered, order)
    saved = 0
    for seed in range(60):
        plain = next_phase(before.evolve(seed=seed, draws=0))
        helped = next_phase(ordered.evolve(seed=seed, draws=0))
        if plain.markers["depot_flipped"].get("US"):  # the die failed
            assert helped.markers["depots"]["US"] == plain.markers["depots"]["US"] + 1
            assert helped.markers["army_sp"]["US"] == plain.markers["army_sp"]["US"] - 1
            assert "depot_sp_improvement=2" in tuple(helped.log)[-1]
            saved += 1
        else:  # nothing to save: no SP spent
            assert helped.markers["army_sp"] == plain.markers["army_sp"]
    assert saved
    with pytest.raises(RefusedError, match="rolls of this turn are made"):
        apply_edit(step_to(before, "Allied Engineering"), order)


def test_26_4_3_a_unit_moved_by_rail_stays_on_5_or_less_with_the_air_units_value_added(t14):
    """26.4.3: "For each unit moving by rail the German player rolls one die, adding the Interdiction value
    of an air unit assigned to Rail Interdiction ... If the die roll is five or less the unit remains in the
    hex. On a result of 6 or greater, the unit must be returned"."""
    from normandy_lab.engine.edits import apply_edit
    from normandy_lab.errors import RefusedError
    from normandy_lab.rules.kg.rail import rail_destinations

    moving = step_to(t14, "German Movement")
    waiting = next(u for u in moving.units if u.side == "german" and u.status == "off_map")
    to = sorted(rail_destinations(moving))[0]
    order = {"op": "marker", "name": "rail_move", "value": [{"unit": waiting.id, "to": to}]}
    for air, most in ((None, 5), (3, 2)):
        state = moving.evolve(air_rail=air is not None, air_rail_value=air)
        seen = set()
        for seed in range(30):
            s = state.evolve(seed=seed, draws=0)
            die = int(s.rng().integers(1, 7))
            after = apply_edit(s, order)
            stays = after.unit(waiting.id).status == "active"
            assert stays == (die <= most), (air, die)
            assert not stays or after.unit(waiting.id).hex == to
            seen.add(stays)
        assert seen == {True, False}
    with pytest.raises(RefusedError, match="German Movement"):
        apply_edit(t14, order)
    spent = moving.evolve(rail_capacity=0)
    with pytest.raises(RefusedError, match="used up"):
        apply_edit(spent, order)
