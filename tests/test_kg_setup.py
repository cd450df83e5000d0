"""The Killing Ground with OVERLORD (issue 17, first part): the 22.6.8 set-up as data, on land on the derived map."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import normandy_lab as nl

PART = Path(__file__).resolve().parents[1] / "scenarios" / "parts" / "kg_1944-06-07_t02_setup.yaml"


@pytest.fixture(scope="module")
def setup():
    return yaml.safe_load(PART.read_text())


def test_22_6_8_every_set_up_hex_is_on_the_map_and_on_land(setup):
    g = nl.grid("kg")
    terrain = nl.terrain_map("kg", progress=False).hexes["terrain"]
    placed = [u for u in setup["units"] if u.get("hex")]
    assert len(placed) >= 140 and len({u["id"] for u in setup["units"]}) == len(setup["units"])
    at_sea = [(u["id"], u["hex"]) for u in placed if terrain[g.canonical(u["hex"])] == "All Sea"]
    assert (
        at_sea == []
    )  # the six coastal hexes it lands units on are land (terrain.vocab.KG.forced_land_hexes)


def test_22_6_8_the_destroyed_bridges_are_hexsides():
    g = nl.grid("kg")
    pairs = yaml.safe_load(PART.read_text())["destroyed_bridges"]
    assert len(pairs) == 3
    assert all(g.distance(g.canonical(a), g.canonical(b)) == 1 for a, b in pairs)


def test_the_forced_coastal_hexes_are_beach_and_the_rest_of_the_coast_is_untouched():
    terrain = nl.terrain_map("kg", progress=False).hexes
    for hex_id in ("N2019", "N2120", "N2220", "N2522", "N2931", "N2932", "N3032", "N3139"):
        assert terrain.loc[hex_id, "terrain"] == "Beach", hex_id
        assert terrain.loc[hex_id, "land_fraction"] < 0.5  # forced: the derivation alone would say sea
    assert terrain.loc["N2830", "terrain"] == "All Sea"  # a neighbour the rules do not name stays sea


# -- the rule system (26.x; the base KG rules RECONSTRUCTED) ------------------------------------------


@pytest.fixture(scope="module")
def t3(t2):
    import datetime as dt

    return t2.evolve(date=dt.date(1944, 6, 8), turn="Turn 3")


def test_26_1_one_turn_a_day_and_turn_1_is_out_of_scope():
    import datetime as dt

    from normandy_lab.rules import get

    kg = get("kg")
    assert kg.turn_order(dt.date(1944, 6, 8)) == ("Turn 3",)  # 26.11.1
    assert kg.turn_order(dt.date(1944, 6, 19)) == ("Turn 14",)  # 22.7.1
    assert kg.turn_order(dt.date(1944, 7, 5)) == ("Turn 30",)  # 22.6.1
    problem, fix = kg.turn_problem(dt.date(1944, 6, 6), "Turn 1")
    assert "Playbook" in problem and "Turn 2" in fix


def test_26_10_5_the_support_radius_and_cost_example():
    from normandy_lab.rules import get
    from normandy_lab.rules.kg.supply import support_cost, support_radius

    radius = support_radius(get("kg"), 5)
    assert radius == 3  # "The U.S. Mulberry Construction marker is at 5 ... a Support Radius of 3"
    assert support_cost(3, radius) == 0  # within three hexes: automatically supported
    assert support_cost(6, radius) == 1  # "If a HQ were 6 hexes away it would cost 1 SP"
    assert support_cost(9, radius) == 2 and support_cost(12, radius) == 3  # "each additional 3 hexes ..."


def test_26_11_1_turn_2_every_allied_unit_is_in_supply_by_the_rule(t2):
    report = nl.supply(t2)
    allied = [u for u in t2.units if u.side == "allied"]
    assert allied and all(report[u.id].general for u in allied)
    assert all(
        report[u.id].code == "exempt" and "26.11.1" in report[u.id].rule for u in allied if u.hq is None
    )


def test_26_11_1_turn_3_allied_units_trace_three_hexes_to_a_beach(t3):
    report = nl.supply(t3)
    assert {"N2930", "N3031", "N3139"} <= set(report.sources["allied"])  # Allied-held beach landing hexes
    on_omaha = report["US-2-116-29"]  # N3030, a hex behind Omaha
    assert on_omaha.general and "Omaha beach" in on_omaha.traced_to and on_omaha.length_hexes <= 3
    for uid, row in report.units.items():
        unit = t3.unit(uid)
        if unit.side == "allied" and unit.hq is None and unit.status == "active" and not row.general:
            assert row.code in ("out_of_range", "cut_off") and "26.11.1" in row.rule
            assert row.code == "cut_off" or row.length_hexes > 3  # the reason is its true count


def test_26_11_2_german_city_supply_and_cherbourg_while_n1410_is_german(t3):
    report = nl.supply(t3)
    assert {"N1410", "N3945"} <= set(report.sources["german"])  # Cherbourg and Caen serve
    # Under the reading that splits German units in two (26.11.2), a division unit that is no breakdown
    # battalion traces to a city hex alone; the 709th's breakdown battalion keeps its Cherbourg HQ (on its
    # hex) by 26.2.3 ("Any supported friendly HQ can supply a breakdown battalion").
    cities_only = nl.supply(t3.evolve(options={**t3.options, "german_division_supply": "city_only"}))
    row = cities_only["DE-II-739-709"]
    assert row.general and "N1811" in row.traced_to and "26.2.3" in row.traced_to
    assert report["DE-II-739-709"].general and report["DE-II-739-709"].traced_kind == "corps HQ"
    # Every German off-map box in Allied hands: Caen's road leads nowhere German; Cherbourg still serves (N1410).
    boxes = {name: "allied" for name, box in t3.rules.boxes.items() if box.side == "german"}
    cut = nl.supply(t3.evolve(omm_control=boxes))
    assert "N3945" not in cut.sources["german"] and "N1410" in cut.sources["german"]
    assert cut["DE-II-739-709"].general


def test_26_16_2_a_unit_off_the_map_keeps_the_supply_its_set_up_gave_it(t3):
    report = nl.supply(t3)
    marked = report["DE-1-12-12SS"]  # "(OOS)" in OMM 13
    assert not marked.general and "26.16.2" in marked.rule
    boxed = [u for u in t3.units if u.status == "off_map" and not u.attr("out_of_supply")]
    assert boxed and all(report[u.id].general and report[u.id].code == "exempt" for u in boxed)


# -- scenario 22.7 (19 June, Turn 14) ------------------------------------------------------------------

PART_22_7 = PART.with_name("kg_1944-06-19_t14_setup.yaml")


@pytest.fixture(scope="module")
def t14():
    return nl.load_scenario("kg_1944-06-19_t14")


def test_22_7_every_printed_unit_stands_on_its_printed_hex_and_the_rest_by_their_rule(t14):
    part = yaml.safe_load(PART_22_7.read_text())
    g = nl.grid("kg")
    printed = {u["id"]: u for u in part["units"]}
    in_play = [
        u for u in part["units"] if not u.get("track") and not str(u.get("placement", "")).startswith("three")
    ]
    assert {u.id for u in t14.units} == {u["id"] for u in in_play}  # the track and 8NW(A) left out
    for unit in t14.units:
        entry = printed[unit.id]
        if entry.get("hex"):
            assert unit.hex == g.canonical(entry["hex"]), unit.id
        elif entry.get("box"):
            assert unit.box == entry["box"] and unit.status == "off_map", unit.id
        else:
            assert "placed by rule" in unit.note, unit.id
    # Each rule placed its units where it says: within 3 of N3139, within 3 of a US HQ, with a US unit.
    us_hqs = [u.hex for u in t14.units if u.nationality == "US" and u.hq]
    us_hexes = {u.hex for u in t14.units if u.nationality == "US" and "placed by rule" not in (u.note or "")}
    for unit in t14.units:
        rule = str(printed[unit.id].get("placement", ""))
        if rule.startswith("any hex within 3 hexes of N3139"):
            assert g.distance(unit.hex, "N3139") <= 3, unit.id
        elif rule.startswith("within 3 hexes of any US HQ"):
            assert min(g.distance(unit.hex, h) for h in us_hqs) <= 3, unit.id
        elif rule.startswith("stacked with any US unit"):
            assert unit.hex in us_hexes, unit.id


def test_22_7_markers_weather_bridges_and_the_storm(t14):
    assert (str(t14.date), t14.turn, t14.weather) == ("1944-06-19", "Turn 14", "Storm")
    assert t14.markers["army_sp"] == {"US": 10, "UK": 6, "DE": 4}  # 22.7.3
    assert t14.markers["stage"] == "killing_ground"
    assert {"N3725|N3726", "N3847|N3948"} <= set(t14.destroyed_bridges)
    assert t14.unit("DE-84CorpsHQ").hex == "N3816" and t14.unit("US-7CorpsHQ").hex == "N2815"


def test_22_7_supply_is_traced_by_the_standard_rules_and_says_so(t14):
    """22.7.1: the scenario "does not use the OVERLORD: The Build-up expansion rules; apply instead the
    standard The Killing Ground rules": by default (standard_rules: by_stage, 22.7's stage killing_ground)
    an Allied corps HQ is supported by a line to its army's depot (22.7.2's Depot Locations) and a unit traces
    6 hexes to a supported HQ (11.4.1, named by 26.11.1)."""
    report = nl.supply(t14)
    hq = report["UK-1CorpsHQ"]
    assert hq.general and "N3538" in hq.traced_to and "10.5.1" in hq.traced_to
    assert hq.readings == {"standard_rules": "by_stage"}
    assert all(report[u.id].general for u in t14.units if u.hq and u.side == "allied")  # no SP charged
    far = [r for r in report.out_of_supply() if r.side == "allied"]
    assert far and all(r.rule == "11.4.1, 26.11.1" and r.length_hexes > 6 for r in far)


def test_22_7_traced_by_the_build_up_rules_when_the_reading_says_so(t14):
    # The Build-up's supply (26.10.5's radius and SP, 26.11.1's 3 hexes) on 22.7's positions: the reading
    # standard_rules: build_up, pinned, as 22.7's rules by default are the standard ones (22.7.1).
    t14 = t14.evolve(options={**t14.options, "standard_rules": "build_up"})
    report = nl.supply(t14)
    hq = report["UK-1CorpsHQ"]
    assert hq.general and "26.10.5" in hq.traced_to
    # The US corps HQs stand far inland of Utah and Omaha: at Mulberry level 0 (radius 1) the army's
    # 10 SP do not support them all, and their units are out of range (26.10.5, 26.11.1).
    assert not report["US-7CorpsHQ"].general and "SP" in report["US-7CorpsHQ"].reason
    raised = nl.supply(t14.evolve(mulberry={"A": 5, "B": 5}))
    assert len(raised.out_of_supply()) < len(report.out_of_supply())


def test_26_20_6_fortress_cherbourg_its_units_and_their_isolation(t14):
    from dataclasses import replace

    report = nl.supply(t14)  # 22.7 declares Fortress Cherbourg (22.7.6)
    cherbourg_units = [r for r in report.units.values() if "a Cherbourg Unit" in r.traced_to]
    hq = t14.unit("DE-CherbourgHQ").hex  # 26.11.2 read: a division unit may trace to its HQ as well
    assert cherbourg_units and all(
        "Cherbourg city hex" in r.traced_to or f"corps HQ at {hq}" in r.traced_to for r in cherbourg_units
    )
    assert not any(r.isolated for r in cherbourg_units)  # each has a line to N1410
    # With the Cherbourg HQ gone and Cherbourg's SP at 0, every Cherbourg Unit is isolated; with the SP
    # not given (None) they are not.
    # (Read by cities alone, 26.11.2's other reading: by default a unit that traced to the HQ alone is out
    # of supply once it is gone.)
    gone = t14.evolve(units=tuple(replace(u, status="eliminated") if u.id == "DE-CherbourgHQ" else u
                                  for u in t14.units), options={"german_division_supply": "city_only"})  # fmt: skip
    cherbourg_units = [
        r
        for r in nl.supply(t14.evolve(options=gone.options)).units.values()
        if "a Cherbourg Unit" in r.traced_to
    ]
    assert all(nl.supply(gone.evolve(cherbourg_sp=0))[r.unit_id].isolated for r in cherbourg_units)
    assert not any(nl.supply(gone)[r.unit_id].isolated for r in cherbourg_units)
    # Not declared, the same units are plain city-supplied units.
    plain = nl.supply(t14.evolve(fortress_cherbourg=False))
    assert not any("Cherbourg Unit" in r.traced_to for r in plain.units.values())


def test_26_20_6_fortress_cherbourg_may_be_declared_after_turn_12_or_must_be_once_cut(t3, t14):
    from normandy_lab.engine.edits import apply_edit, interdict_hex
    from normandy_lab.engine.sequence import step_to
    from normandy_lab.errors import RefusedError

    declare = {"op": "marker", "name": "fortress_cherbourg", "value": True}
    # 26.20.6: "During the Army Support and Replacement Phase" (the scenarios open at the Weather phase).
    t3, t14 = step_to(t3, "Army Support"), step_to(t14, "Army Support")
    with pytest.raises(RefusedError, match="after Turn 12"):
        apply_edit(t3, declare)
    with pytest.raises(RefusedError, match="stays declared"):
        apply_edit(t14, {**declare, "value": False})
    assert apply_edit(t14.evolve(fortress_cherbourg=False), declare).markers["fortress_cherbourg"]
    # Close row 20 right across the Cotentin: N1410 reaches no off-map box, so on Turn 3 it must be declared.
    g, terrain = nl.grid("kg"), nl.terrain_map("kg", progress=False).hexes["terrain"]
    cut = t3
    for hex_id in [h for h in g.id_array if h.startswith("N20") and terrain[h] != "All Sea"]:
        cut = interdict_hex(cut, hex_id)
    assert "must be declared this turn" in nl.supply(cut)["DE-CherbourgHQ"].traced_to
    assert apply_edit(cut, declare).markers["fortress_cherbourg"]


def test_26_15_the_allied_air_phase_puts_its_points_on_the_table(t3):
    from normandy_lab.engine.edits import apply_edit
    from normandy_lab.engine.sequence import step_to
    from normandy_lab.errors import RefusedError

    state = step_to(t3, "Allied Air")
    results = nl.phase_effects(state).results
    for weather, points in (
        ("Overcast", "4"),
        ("Storm", "0"),
    ):  # Light Overcast; no air in a storm (INFERRED)
        words = nl.phase_effects(state.evolve(weather=weather)).results["general_air_interdiction"]
        assert words == f"{points} automatic Air Points in {weather} weather (26.15.3)"
    clear = nl.phase_effects(state.evolve(weather="Clear")).results
    assert clear["general_air_interdiction"].startswith("6 automatic Air Points")  # 26.15.3
    assert nl.phase_effects(state.evolve(weather="Rain")).results["general_air_interdiction"].startswith("2 ")
    assert "not rolled" in results["results"]
    edited = apply_edit(state, {"op": "marker", "name": "air_supply_ap", "value": 4})
    edited = apply_edit(edited, {"op": "marker", "name": "air_omm_targets", "value": {"OMM 13": 2}})
    shown = nl.phase_effects(edited).results
    assert shown["supply_interdiction"].startswith("4 of at most 4")
    assert shown["targeted_omm_interdiction"] == "2 air units on OMM 13, each attack at -2 (26.15.4)"
    with pytest.raises(RefusedError, match=r"26\.15\.1"):
        apply_edit(state, {"op": "marker", "name": "air_supply_ap", "value": 5})
    with pytest.raises(RefusedError, match=r"26\.15\.4"):
        apply_edit(state, {"op": "marker", "name": "air_omm_targets", "value": {"OMM 13": 3}})
    with pytest.raises(RefusedError, match="'Utah LB1' is not allowed; use one of 'OMM 13'"):
        apply_edit(state, {"op": "marker", "name": "air_omm_targets", "value": {"Utah LB1": 1}})


def test_26_2_3_a_battalion_zoc_blocks_a_line_by_default_and_not_when_the_option_says_no(t3):
    """The option ``battalion_zoc_blocks_supply``: off, only the full ZOCs of regiments and larger block."""
    import numpy as np

    from normandy_lab.engine.lines import Situation
    from normandy_lab.engine.zoc import zoc_mask
    from normandy_lab.rules.kg.supply import _net

    kg = t3.rules
    situation = Situation.of(t3)
    both = _net(t3, "allied", situation).blocked
    off = t3.evolve(options={**t3.options, "battalion_zoc_blocks_supply": False})
    full_only = _net(off, "allied", Situation.of(off)).blocked
    assert not (full_only & ~both).any()  # switching it off only opens hexes
    g = nl.grid("kg")
    exerting = {"full": np.zeros(len(g), dtype=bool), "battalion": np.zeros(len(g), dtype=bool)}
    for u in t3.units_of("german"):
        if u.status == "active" and kg.zoc_class(u) in exerting:
            exerting[kg.zoc_class(u)][situation.position[u.id]] = True
    battalion_only = zoc_mask(t3, "german", exerting["battalion"]) & ~zoc_mask(t3, "german", exerting["full"])
    opened = both & ~full_only
    assert opened.any()  # the WNs and battalions of 22.6.8 do block lines by default
    assert not (opened & ~battalion_only).any()  # and only the hexes a battalion ZOC alone covers open
