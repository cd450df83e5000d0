"""KG's German supply sources on the derived map (26.11.2): the city hexes, each with its provenance.

The printed map's city hexes are not in the text (but N1410, and the cities Caen and Cherbourg): the derived
map RECONSTRUCTS them by one criterion (``KG_CITY_CRITERION``), the 1944 towns of the built-up layer.
"""

from __future__ import annotations

import pytest

import normandy_lab as nl
from normandy_lab.rules.kg.cities import KG_CITY_CRITERION, city_hexes, city_table, provenance


@pytest.fixture(scope="module")
def cities():
    return city_table("kg")


@pytest.mark.parametrize(
    "town", ["Saint-Lô", "Bayeux", "Carentan", "Valognes", "Coutances", "Falaise", "Vire", "Argentan"]
)
def test_the_1944_towns_are_city_hexes_marked_reconstructed(cities, town):
    """The named towns come out, each in the hex of its gazetteer point, RECONSTRUCTED with the criterion."""
    at = cities[cities.town == town]
    assert len(at) >= 1
    assert set(at.basis) == {"RECONSTRUCTED"}
    assert all(KG_CITY_CRITERION in r for r in at.reason)
    g = nl.grid("kg")
    hex_of_point = g.locate(*nl.lookup(town))  # the outline's centre may lie a hex from the gazetteer point
    assert min(g.distance(hex_of_point, h) for h in at.index) <= 1


@pytest.mark.parametrize(
    "village",
    ["Isigny", "Villers-Bocage", "Tilly-sur-Seulles", "Courseulles", "Sainte-Mère-Église", "Périers"],
)
def test_villages_are_not_city_hexes(cities, village):
    """A village is no city hex; one of the built-up layer is a town hex (26.4.3's rail needs towns)."""
    hex_id = nl.grid("kg").locate(*nl.lookup(village))
    assert hex_id not in cities.index
    settlement = nl.terrain_map("kg").hexes["settlement"]
    assert settlement[hex_id] != "City"
    if village in ("Isigny", "Villers-Bocage", "Courseulles"):
        assert settlement[hex_id] == "Town"


def test_caen_and_cherbourg_keep_their_hexes_and_the_text_names_them(cities):
    """Caen's and Cherbourg's hexes are as before the reconstruction; N1410 is printed (26.10.7, 26.11.2)."""
    assert set(cities.index[cities.town == "Cherbourg"]) == {"N1310", "N1409", "N1410", "N1411", "N1510"}
    assert set(cities.index[cities.town == "Caen"]) == {"N3945", "N4045", "N4046", "N4146"}
    assert provenance("N1410").basis == "printed"
    assert set(cities.basis[cities.town.isin(["Caen", "Cherbourg"])]) <= {"named", "printed"}
    assert provenance("N3224") is None  # Isigny, a village


def test_a_verdict_on_a_reconstructed_city_says_so():
    """A German unit supplied by a RECONSTRUCTED city hex names the town and says the hex is reconstructed."""
    state = nl.load_scenario("kg_1944-06-07_t02")
    report = nl.supply(state)
    reconstructed = {c.hex for c in city_hexes("kg") if c.reconstructed}
    by_town = [r for r in report.units.values() if r.general and r.traced_id in reconstructed]
    assert by_town, "no unit traces to a reconstructed city hex"
    for r in by_town:
        assert "RECONSTRUCTED" in r.traced_to and provenance(r.traced_id).town in r.traced_to
    # Removing the reconstructed cities puts them out again: the reason is a true cause.
    out = [
        r
        for r in report.out_of_supply()
        if r.side == "german" and r.rule == "26.11.2" and not state.unit(r.unit_id).corps
    ]  # a unit with a corps designation traces to a corps HQ alone (26.11.2)
    assert all("RECONSTRUCTED" in r.reason for r in out)


def test_the_german_sources_west_of_caen_serve_on_7_june():
    """Carentan, Valognes and Bayeux serve on Turn 2 (German-held, no ZOC enters a city hex, roads to a box)."""
    report = nl.supply(nl.load_scenario("kg_1944-06-07_t02"))
    assert {"N2114", "N3220", "N3536", "N4224", "N4514"} <= set(report.sources["german"])


def test_what_a_class_sees_says_where_a_verdict_rests_on_a_reconstruction():
    """The summary line and side_by_side say when KG's verdicts rest on the derived map or on 22.7's rules."""
    t2 = nl.supply(nl.load_scenario("kg_1944-06-07_t02"))
    assert "RECONSTRUCTED" in nl.supply_summary(t2) and "map gap" in nl.supply_summary(t2)
    t14_state = nl.load_scenario("kg_1944-06-19_t14")
    t14 = nl.supply(t14_state)
    # 22.7.1: the standard rules, traced as far as the text gives them (the reading standard_rules, by_stage
    # by default); what they lack is named.
    said = nl.supply_summary(t14)
    assert "standard rules" in said and "standard_rules" in said and "10.5.1" in said
    assert "RECONSTRUCTED from the 1944 built-up layer" not in said  # 26.11.2's cities: "During the Build-up"
    # Traced by the Build-up's rules instead (the old reading, kept selectable), the engine does not vouch.
    build_up = t14_state.evolve(options={**t14_state.options, "standard_rules": "build_up"})
    assert "does not vouch for this supply picture" in nl.supply_summary(nl.supply(build_up))
    june_7 = nl.side_by_side("1944-06-07").table
    kg = june_7[(june_7.system == "kg") & (june_7.rules != "")]
    assert kg.rules.str.contains(r"\[derived map\]").any()
    # the bare rule only where the verdict is the rule's alone (a corps designation, 22.0, 26.11.2)
    assert (
        kg.rules.str.fullmatch("26.11.2").sum() <= 2 and kg.rules.str.contains(r"\[derived map\]").sum() >= 4
    )
    june_19 = nl.side_by_side("1944-06-19").table
    kg = june_19[(june_19.system == "kg") & (june_19.rules != "")]
    assert kg.rules.str.contains("reading standard_rules").all()
