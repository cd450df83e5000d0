"""Supply (BfN 7.x), zones of control (5.x) and the rulebook's worked examples on the real map."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import normandy_lab as nl
from normandy_lab.engine import load_scenario, load_scenario_text, supply
from normandy_lab.engine.edits import add_unit, destroy_bridge, remove_unit, set_weather
from normandy_lab.engine.interdiction import clear_interdiction, interdict_hex
from normandy_lab.engine.state import Unit
from normandy_lab.engine.zoc import ezoc, hex_control, zoc_mask
from normandy_lab.rules.bfn.reference import supply_distances, supply_networkx

DATA = Path(__file__).parent / "data"
PEGASUS = DATA / "bfn_pegasus_1944-06-07.yaml"


@pytest.fixture(scope="module")
def pegasus():
    return load_scenario(PEGASUS)


def _unit(uid, side, hex_id, formation=None, utype="infantry", hq=None, nationality=None, size="battalion"):
    return Unit(
        id=uid,
        name=uid,
        side=side,
        nationality=nationality or ("UK" if side == "allied" else "DE"),
        type=utype,
        mechanized=utype in ("armor", "mech_infantry"),
        size=size,
        formation=formation,
        corps=None,
        hq=hq,
        hex=hex_id,
        steps=3 if hq is None else 1,
    )


# ------------------------------------------------------------- 12.5.4 example


def test_12_5_4_sixth_airborne_hq_is_out_of_supply_with_pegasus_in_german_hands(pegasus):
    """12.5.4 example: the 6th AB HQ is out of supply, as Pegasus Bridge is German; the reason names it."""
    report = supply(pegasus)
    hq = report["GB-6AB-HQ"]
    assert not hq.general
    assert "DE-PEG" in hq.blocking_units
    assert hq.blocking_hex in nl.grid("bfn").neighbors("C3014") or hq.blocking_hex == "C3014"


def test_12_5_4_division_units_follow_their_hq(pegasus):
    report = supply(pegasus)
    para = report["GB-6AB-9"]
    assert not para.general and not para.combat
    assert "GB-6AB-HQ" in para.reason


def test_12_5_4_the_third_division_battalion_next_to_benouville_is_in_supply(pegasus):
    """12.5.4: a 3rd Division battalion in 2913, next to Bénouville, is in supply."""
    report = supply(pegasus)
    battalion = report["GB-3D-1"]
    assert battalion.general and battalion.combat
    assert battalion.path[0] == "C2913" and battalion.path[-1] == pegasus.unit("GB-3D-HQ").hex


def test_12_5_4_out_of_supply_defenders_within_3_hexes_of_a_supplied_unit_get_defensive_support(pegasus):
    """12.5.4: OOS defenders within 3 hexes of a unit in General Supply may receive defensive artillery."""
    from normandy_lab.rules.bfn.supply import defensive_support_eligible

    report = supply(pegasus)
    assert not report["GB-6AB-9"].general
    assert defensive_support_eligible(report, "GB-6AB-9")  # Hérouvillette is 3 hexes from C2913
    far = pegasus.evolve(
        units=tuple(dataclasses.replace(u, hex="C3109") if u.id == "GB-6AB-9" else u for u in pegasus.units)
    )
    assert not defensive_support_eligible(supply(far), "GB-6AB-9")


def test_capturing_pegasus_restores_the_sixth_airborne(pegasus):
    freed = remove_unit(pegasus, "DE-PEG")
    report = supply(freed)
    assert report["GB-6AB-HQ"].general
    assert report["GB-6AB-9"].general and report["GB-6AB-9"].combat


# ------------------------------------------------------------ 7.3.2 rivers


def test_7_3_2_a_destroyed_bridge_cuts_the_line(pegasus):
    """7.3.2: with Pegasus freed the HQ's line crosses the canal at C3013-C3014; with that bridge destroyed
    it is out, and its reason names the unbridged water there as the binding block (not just any block)."""
    freed = remove_unit(pegasus, "DE-PEG")
    assert {"C3013", "C3014"} <= set(supply(freed)["GB-6AB-HQ"].path)
    cut = destroy_bridge(freed, "C3014", "C3013")
    report = supply(cut)
    hq = report["GB-6AB-HQ"]
    assert not hq.general
    assert hq.code == "blocked" and "7.3.2" in hq.rule
    binding = [b for b in hq.blocks if b.binding]
    assert [(b.kind, {b.near_hex, b.hex}) for b in binding] == [("water", {"C3013", "C3014"})], hq.blocks
    assert hq.blocking_hex in ("C3013", "C3014") and not hq.blocking_units
    assert "unbridged" in hq.reason and "C3013" in hq.reason and "C3014" in hq.reason


def test_7_3_2_an_hq_next_to_the_water_bridges_it_for_its_units(pegasus):
    """7.3.2 exception and 14.2.1: an HQ counts from the far bank; its units trace to it."""
    freed = destroy_bridge(remove_unit(pegasus, "DE-PEG"), "C3014", "C3013")
    units = tuple(dataclasses.replace(u, hex="C3013") if u.id == "GB-6AB-HQ" else u for u in freed.units)
    bridged = freed.evolve(units=units)
    report = supply(bridged)
    assert report["GB-6AB-HQ"].general
    assert report["GB-6AB-9"].general


# -------------------------------------------------------- 7.3 EZOC and units


def test_7_3_a_friendly_unit_negates_the_ezoc_it_stands_in():
    """7.3 and 5.4: a friendly unit in an EZOC hex lets lines pass through it.

    On 13 June AM, with the 709. ID HQ one hex back at A3421, III./GR 739 north of Montebourg is out of
    supply because the vacant hex A3417 lies in the zone of control of US 3/22nd Infantry; a German unit
    standing in A3417 negates that zone for German lines, and the battalion's line then runs through it.
    """
    from dataclasses import replace

    state = load_scenario("bfn_1944-06-13_am")
    state = state.evolve(
        units=tuple(replace(u, hex="A3421") if u.id == "DE-709-HQ" else u for u in state.units)
    )
    before = supply(state)["DE-709-739-III"]
    assert not before.general and any(b.hex == "A3417" and b.binding for b in before.blocks)
    assert "A3417" in ezoc(state, "german")
    negated = add_unit(state, _unit("DE-NEGATE", "german", "A3417"))
    after = supply(negated)["DE-709-739-III"]
    assert after.general and "A3417" in after.path


def test_5_3_zoc_never_enters_city_hexes_nor_crosses_all_sea():
    state = load_scenario(PEGASUS)
    tmap = nl.terrain_map("bfn")
    g = nl.grid("bfn")
    caen_city = [
        h
        for h in tmap.hexes.index
        if tmap.hexes.at[h, "settlement"] == "City" and tmap.hexes.at[h, "builtup_name"] == "Caen"
    ]
    assert caen_city
    # German units stand in and around Caen on 7 June, so the city's hexes are within their reach.
    assert {n for h in caen_city for n in g.neighbors(h)} & {u.hex for u in state.units_of("german")}
    mask = zoc_mask(state, "german")
    assert not any(mask[g.index(h)] for h in caen_city)
    # All-sea hexsides with land on both banks (estuaries, inlets): a lone unit on one bank exerts its
    # ZOC into its other neighbours but not across the water into the hex on the far bank.
    terrain = tmap.hexes["terrain"]
    sides = tmap.hexsides[tmap.hexsides["all_sea"]]
    sides = sides[(sides["a"].map(terrain) != "Sea") & (sides["b"].map(terrain) != "Sea")]
    assert len(sides)
    city = set(tmap.hexes.index[tmap.hexes["settlement"] == "City"])
    for a, b in zip(sides["a"], sides["b"], strict=True):
        for near, far in ((a, b), (b, a)):
            lone = zoc_mask(state.evolve(units=(_unit("DE-X", "german", near),)), "german")
            assert not lone[g.index(far)], (near, far)
            # Not an empty mask that would pass anything: its neighbours over land hexsides are in it.
            others = [
                h
                for h in g.neighbors(near)
                if h != far and h not in city and not tmap.hexside(near, h)["all_sea"]
            ]
            assert others and all(lone[g.index(h)] for h in others), (near, others)


def test_3_3_hex_control(pegasus):
    control = hex_control(pegasus)
    g = nl.grid("bfn")
    assert control[g.index("C3014")] == "german"
    assert control[g.index("C2913")] == "allied"


def test_3_3_hex_control_of_some_hexes_is_the_whole_maps_at_those_hexes(pegasus):
    # The supply cities ask for a few hexes only (at=): each answer must be the whole map's, in the
    # order asked, with an explicit override, ZOC-only hexes and occupied hexes among them.
    g = nl.grid("bfn")
    far = g.id_array[0]  # a corner hex, in nobody's ZOC: only the override decides it
    state = pegasus.evolve(control={str(far): "german"})
    full = hex_control(state)
    at = np.array([g.index("C2913"), 0, g.index("C3014"), *range(5000, 14000, 997)])
    assert hex_control(state, at=at).tolist() == full[at].tolist()
    assert full[0] == "german" and {"allied", "german", ""} <= set(full[at].tolist())


# ------------------------------------------------------------ ranges (7.3.1)


def test_7_3_3_heavy_rain_halves_ranges(pegasus):
    freed = remove_unit(pegasus, "DE-PEG")
    clear = supply(freed)
    wet = supply(set_weather(freed, "Heavy Rain"))
    assert wet.halved and not clear.halved
    for uid, r in wet.units.items():
        if r.general:
            assert clear[uid].general
    assert "3 hexes or 3 MP" in wet["GB-6AB-9"].limit


def test_7_2_division_hq_range_is_20_mp(pegasus):
    hq = supply(remove_unit(pegasus, "DE-PEG"))["GB-6AB-HQ"]
    assert hq.general and hq.length_mp <= 20
    assert "20 MP" in hq.limit


def test_7_4_combat_supply_follows_nationality():
    """7.4: British units draw combat supply from British beachheads only."""
    text = PEGASUS.read_text().replace("nationality: UK, hex: C2525", "nationality: US, hex: C2525")
    state = load_scenario_text(text, "us-beach.yaml")
    report = supply(remove_unit(state, "DE-PEG"))
    battalion = report["GB-3D-1"]
    assert battalion.general
    # The only beachhead is American: it gives General Supply to anyone, Combat Supply to US units only.
    assert not battalion.combat
    # The nationality alone decides it: with the beachhead British again, the same battalion has it.
    own = supply(remove_unit(load_scenario_text(PEGASUS.read_text(), "uk-beach.yaml"), "DE-PEG"))
    assert own["GB-3D-1"].general and own["GB-3D-1"].combat
    # Under the other reading of the chain (any army's corps HQ or beachhead), it would have it.
    mixed = supply(remove_unit(state, "DE-PEG").evolve(options={"combat_supply_chain": "any_army"}))
    assert mixed["GB-3D-1"].combat
    # ...but a British corps HQ cannot draw combat supply from a US beach.
    with_corps = add_unit(
        remove_unit(state, "DE-PEG"),
        _unit("GB-ICORPS", "allied", "C2818", utype="hq", hq="corps", size="corps_hq"),
    )
    assert not supply(with_corps)["GB-ICORPS"].combat


def test_7_4_german_sources_include_road_edge_hexes_and_cities(pegasus):
    report = supply(pegasus)
    sources = set(report.sources["german"])
    assert "E1701" in sources  # the German entry hex of 22.6o is a road leaving the east edge
    tmap = nl.terrain_map("bfn")
    assert any(tmap.hexes.at[h, "builtup_name"] == "Caen" for h in sources)


# ------------------------------------------------------------ reports


def test_report_converts_to_geodataframes(pegasus):
    report = supply(pegasus)
    frame = report.to_geodataframe()
    assert frame.crs.to_epsg() == 4326 and len(frame) == len(pegasus.units)
    # The reason as a code, words and rule; what a line reached as a kind, an id and words.
    out = frame[~frame.general]
    assert (
        len(out) and (out["code"] != "").all() and (out["rule"] != "").all() and (out["reason"] != "").all()
    )
    fed = frame[frame.general]
    assert (fed["traced_kind"] != "").all() and (fed["traced_to"] != "").all()
    paths = report.paths()
    assert len(paths) >= 3
    ranges = report.supply_ranges()
    assert {"owner", "kind", "side", "geometry"} <= set(ranges.columns)
    assert ranges.to_crs("EPSG:2154").geometry.area.min() > 0


def test_supply_range_of_an_hq_is_within_six_hexes(pegasus):
    report = supply(pegasus)
    g = nl.grid("bfn")
    hq = pegasus.unit("GB-3D-HQ")
    area = report.supply_range("GB-3D-HQ")
    assert hq.hex in area
    assert max(g.distance(hq.hex, h) for h in area) <= 7


# -------------------------------------------------------- fast path = networkx


@pytest.mark.parametrize("side", ["allied", "german"])
@pytest.mark.parametrize("scenario", ["pegasus", "bfn_1944-06-13_am"])
def test_fast_path_matches_networkx(pegasus, side, scenario):
    """The compiled search and networkx, with weights each works out on its own (7.3, 7.3.2), agree."""
    state = pegasus if scenario == "pegasus" else load_scenario(scenario)
    fast = supply_distances(state, side)
    reference = supply_networkx(state, side)
    assert fast.keys() == reference.keys()
    assert sum(np.isfinite(list(fast.values()))) > len(fast) // 2  # lines were found, not only "none"
    for uid in fast:
        assert fast[uid] == pytest.approx(reference[uid]), uid


# ------------------------------------------------------------ properties

HEXES = ["C3013", "C3112", "C3212", "C3011", "C2912", "C2815", "C2714", "C3115", "C3216", "C2916", "C3311"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(HEXES))
def test_property_adding_an_enemy_unit_never_puts_a_unit_into_supply(pegasus, hex_id):
    # An occupied hex is no place to add a unit: Hypothesis draws another instead (a bare return would
    # pass the example without checking anything).
    assume(hex_id not in {u.hex for u in pegasus.units})
    before = supply(pegasus)
    after = supply(add_unit(pegasus, _unit("DE-NEW", "german", hex_id)))
    for uid, r in after.units.items():
        if uid in before.units and r.side == "allied" and r.general:
            assert before[uid].general


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(HEXES))
def test_property_removing_interdiction_never_puts_a_unit_out_of_supply(pegasus, hex_id):
    interdicted = interdict_hex(pegasus, hex_id)
    with_it = supply(interdicted)
    without = supply(clear_interdiction(interdicted, hex_id))
    for uid, r in with_it.units.items():
        if r.general:
            assert without[uid].general


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["Clear", "Overcast", "Fog", "Light Showers"]))
def test_property_heavy_rain_never_lengthens_a_range(pegasus, weather):
    fair = supply(set_weather(pegasus, weather))
    for bad in ("Heavy Rain", "Storm"):
        foul = supply(set_weather(pegasus, bad))
        for uid, r in foul.units.items():
            if r.general:
                assert fair[uid].general


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(HEXES))
def test_property_a_friendly_unit_never_blocks_a_friendly_line(pegasus, hex_id):
    before = supply(pegasus)
    after = supply(add_unit(pegasus, _unit("GB-NEW", "allied", hex_id, formation="3rd Division")))
    for uid, r in before.units.items():
        if r.side == "allied" and r.general:
            assert after[uid].general


def test_7_5_on_the_6_june_turns_everyone_is_in_supply(pegasus):
    """7.5 June 6th exceptions: paratroops, invasion units and Germans are in supply on the Night and Invasion turns."""
    import datetime as dt

    d_day = pegasus.evolve(date=dt.date(1944, 6, 6), turn="6 June Invasion", phase_index=0)
    report = supply(d_day)
    assert all(r.general and r.combat for r in report.units.values())
    assert not supply(pegasus)["GB-6AB-HQ"].general


# ------------------------------------------------------------ readings where the rulebook is open


def test_rule_readings_are_options_and_every_report_names_them(pegasus):
    """Where the rulebook is open, the reading is an option with a default, and the report says which."""
    from normandy_lab.rules import ruleset

    options = ruleset("bfn").options
    for key in ("german_artillery_attach", "combat_supply_chain", "isolation_corps_hq", "hq_bridging"):
        assert key in options
    report = supply(pegasus)
    out = report.out_of_supply()
    assert out and all(r.readings["hq_bridging"] == "own_line" for r in out)
    other = supply(pegasus.evolve(options={**pegasus.options, "hq_bridging": "for_its_units"}))
    assert all(r.readings["hq_bridging"] == "for_its_units" for r in other.out_of_supply())


def test_7_3_2_hq_bridging_for_its_units_is_a_reading(pegasus):
    """7.3.2/14.2.1 read broadly: a division's units may cross the water beside their HQ's hex to reach it.

    A test division's HQ at C2428 beside an unbridged stream (the C2428|C2328 hexside) and one of its
    battalions two hexes beyond, at C2228, not beside that water: under the narrow reading ("own_line")
    only the unit's own first step may cross, so it is out of supply; under "for_its_units" it is in.
    """
    allied = pegasus.evolve(units=tuple(u for u in pegasus.units if u.side == "allied"))
    test_hq = Unit(
        id="T-HQ", name="Test HQ", side="allied", nationality="UK", type="hq", mechanized=False,
        size="division_hq", formation="Test Division", corps=None, hq="division", hex="C2428", steps=1,
    )  # fmt: skip
    battalion = _unit("T-1", "allied", "C2228", formation="Test Division")
    state = add_unit(add_unit(allied, test_hq), battalion)
    narrow = supply(state)
    broad = supply(state.evolve(options={**state.options, "hq_bridging": "for_its_units"}))
    assert narrow["T-HQ"].general and not narrow["T-1"].general
    assert narrow["T-1"].readings["hq_bridging"] == "own_line"
    assert broad["T-1"].general and broad["T-1"].traced_id == "T-HQ"
    # The broad reading only adds lines: nothing supplied under the narrow one is lost.
    assert all(broad[u].general for u, r in narrow.units.items() if r.general)


def test_19_4_1_a_complete_mulberry_makes_the_beach_rows_sources():
    """19.4.1: with a Mulberry in place the beachhead row and the beach hexes beside it are sources."""
    state = nl.load_scenario("bfn_1944-07-01_am").evolve(mulberries=())
    gold = next(b for b in state.beachheads if b.name == "Gold")
    plain = supply(state)
    mulberry = supply(state.evolve(mulberries=("Gold",)))
    options = {**state.options, "mulberry_sources": "beachhead_only"}
    beach_only = supply(state.evolve(mulberries=("Gold",), options=options))
    added = set(mulberry.sources["allied"]) - set(plain.sources["allied"])
    beach = nl.terrain_map("bfn", progress=False).hexes["terrain"]
    assert added and all(beach[h] == "Beach" and h in nl.grid("bfn").neighbors(gold.hex) for h in added)
    assert beach_only.sources["allied"] == plain.sources["allied"]


def test_7_5o_isolation_reading_any_corps_hq(pegasus):
    """7.5o: isolated = no line of any length to a friendly corps HQ; is a cut-off corps HQ one?

    A corps HQ at C2402 and a battalion beside it at C2401, on a coastal spit whose two land exits
    (C2501, C2502) hold German units, after 11 June (no beachhead counts as a corps HQ): the corps
    HQ is out of supply. Read "in_supply", the battalion is isolated; read "any", it is not.
    """
    import datetime as dt

    later = pegasus.evolve(date=dt.date(1944, 6, 12))
    corps = _unit("T-CORPS", "allied", "C2402", utype="hq", hq="corps", size="corps_hq")
    state = add_unit(add_unit(later, corps), _unit("T-1", "allied", "C2401"))
    for k, hex_id in enumerate(("C2501", "C2502")):
        state = add_unit(state, _unit(f"DE-X{k}", "german", hex_id))
    in_supply = supply(state)
    any_hq = supply(state.evolve(options={**state.options, "isolation_corps_hq": "any"}))
    assert not in_supply["T-CORPS"].general
    assert in_supply["T-1"].isolated and not any_hq["T-1"].isolated
    assert in_supply["T-1"].readings["isolation_corps_hq"] == "in_supply"
