"""The explorer on The Killing Ground (issue 17): the same application, nothing KG-specific in views.

Driven as a user would, without a browser, through the methods the buttons call, on scenario 22.6.8
stepped into Turn 3 (8 June), the first turn Allied units trace (26.11.1).
"""

from __future__ import annotations

import html
import itertools
import re

import geopandas as gpd
import pytest

import normandy_lab as nl
from normandy_lab.engine.sequence import next_phase
from normandy_lab.views.explorer import Explorer

SCENARIO = "kg_1944-06-07_t02"


def _turn_3():
    start = nl.load_scenario(SCENARIO)
    state = start
    while state.turn == start.turn:
        state = next_phase(state)
    return state


@pytest.fixture(scope="module")
def explorer() -> Explorer:
    return nl.explore(_turn_3())


def _text(value: str) -> str:
    return re.sub("<[^>]+>", " ", html.unescape(value))


def test_a_kg_scenario_opens_with_its_units_zones_and_supply(explorer):
    assert "Turn 3" in explorer.label.value
    units = explorer.sources["units"].data
    on_map = [u for u in explorer.state.units if u.status == "active"]
    assert set(units["unit_id"]) == {u.id for u in on_map}
    out = {r.unit_id for r in explorer.report.out_of_supply()} & set(units["unit_id"])
    shown_out = {uid for uid, general in zip(units["unit_id"], units["general"], strict=True) if not general}
    assert shown_out == out and out
    assert explorer.layer_hexes("zoc_allied") or explorer.layer_hexes("zoc_german")


def test_a_unit_is_explained_in_kg_s_own_rules(explorer):
    report = explorer.report
    inside = next(r for r in report.units.values() if r.side == "allied" and r.general and len(r.path) >= 2)
    explorer.select_unit(inside.unit_id)
    assert "26.11.1" in _text(explorer.inspector.value)
    assert explorer.sources["paths"].data["unit_id"] == [inside.unit_id]
    out = next(r for r in report.out_of_supply() if r.side == "german" and r.code == "out_of_range")
    explorer.select_unit(out.unit_id)
    assert "26.11.2" in _text(explorer.inspector.value)


def test_a_supported_hq_shows_its_range(explorer):
    report = explorer.report
    hq = explorer.state.unit("DE-84CorpsHQ")
    assert report[hq.id].general
    explorer.select_unit(hq.id)
    shown = set(explorer.layer_hexes("range"))
    assert hq.hex in shown and shown == report.supply_range(hq.id)
    assert "KG 11.2.3" in _text(explorer.inspector.value)
    explorer.select_unit(None)


def test_a_landed_allied_corps_hq_says_what_its_support_costs():
    from dataclasses import replace

    # V Corps HQ ashore: beside Omaha it is supported without SP (Mulberry A at level 0: radius 1);
    # a few hexes inland, in the 1 SP band the map draws, it costs the US army 1 SP (26.10.5).
    state = _turn_3()
    bands = {z.label.split(":")[1].split("(")[0].strip(): set(z.hexes) for z in nl.supply(state).zones()
             if z.label.startswith("US")}  # fmt: skip
    german = {u.hex for u in state.units_of("german")}
    one_sp = sorted(bands["1 SP"] - bands["free"] - german)

    def ashore(hex_id):
        return state.evolve(
            units=tuple(replace(u, status="active", box=None, hex=hex_id) if u.id == "US-5CorpsHQ" else u
                        for u in state.units)
        )  # fmt: skip

    explorer = nl.explore(ashore("N3030"))
    explorer.select_unit("US-5CorpsHQ")
    assert "supported without SP within the Mulberry radius of 1 (26.10.5)" in _text(explorer.inspector.value)
    costly = next(
        r for r in (nl.supply(ashore(h))["US-5CorpsHQ"] for h in one_sp) if r.general
    )  # a hex whose line to the beach is open
    assert "supported for 1 SP of the US army" in costly.traced_to


def test_the_hq_support_radius_and_its_sp_bands_are_drawn_on_the_map(explorer):
    explorer.show_zones.value = True
    try:
        zones = explorer.sources["zones"].data
        labels = explorer.sources["zone_labels"].data["text"]
        assert zones["xs"] and len(zones["xs"]) == len(zones["label"])
        assert {"US HQ support free, radius 1", "UK HQ support free, radius 1", "1 SP", "2 SP"} <= set(labels)
        level = explorer.state.markers["mulberry"]["A"]  # after Turn 2's construction roll (26.19.2)
        assert level in (0, 1)  # both give radius 1 (RECONSTRUCTED, 26.10.5)
        assert f"US corps HQ support: 1 SP (Mulberry A level {level}, radius 1) (26.10.5)" in zones["label"]
        bands = [label for label in zones["label"] if "(26.10.5)" in label]
        others = [label for label in zones["label"] if "(26.10.5)" not in label]
        assert bands and len(set(others)) == 1 and "Weapons Nests standing" in others[0]  # 26.2.4
        # The bands are nested: each holds the one before it.
        report = explorer.report
        bands = [z for z in report.zones() if z.label.startswith("US")]
        assert all(set(a.hexes) <= set(b.hexes) for a, b in itertools.pairwise(bands))
    finally:
        explorer.show_zones.value = False
    assert explorer.sources["zones"].data["xs"] == []


def test_stepping_into_the_next_turn(explorer):
    phases = explorer.state.rules.sequence[explorer.state.turn]
    for _ in range(len(phases) - explorer.state.phase_index - 1):
        explorer.step()
    explorer.next_day()
    assert explorer.state.turn == "Turn 4" and str(explorer.state.date) == "1944-06-09"


def test_exports_of_a_kg_state(explorer, check_exports):
    package = check_exports(explorer)
    zones = gpd.read_file(package, layer="zones")  # the support bands, for QGIS
    assert len(zones) == len(explorer.report.zones()) and set(zones["rule"]) == {"26.10.5", "26.2.4"}


def test_kg_s_own_controls_set_a_mulberry_level_and_the_support_bands_follow():
    explorer = nl.explore(_turn_3())
    assert {"mulberry_A", "mulberry_B", "army_sp_US", "army_sp_UK"} <= set(explorer.single_widgets)
    levels = dict(explorer.state.markers["mulberry"])  # as Turn 2's construction rolls left them (26.19.2)
    assert levels["A"] < 3
    before = {z.label: len(z.hexes) for z in explorer.report.zones()}
    explorer.single_widgets["mulberry_A"].value = 5
    explorer.single_buttons["mulberry_A"].click()
    assert explorer.state.markers["mulberry"] == {**levels, "A": 5}
    after = {z.label: len(z.hexes) for z in explorer.report.zones()}
    free = "US corps HQ support: free (Mulberry A level 5, radius 3)"
    was = f"US corps HQ support: free (Mulberry A level {levels['A']}, radius 1)"
    assert free in after and after[free] > before[was]
    explorer.undo()
    assert explorer.state.markers["mulberry"]["A"] == levels["A"]
    assert explorer.single_widgets["mulberry_A"].value == levels["A"]
    with pytest.raises(Exception, match=r"army_sp\.US: -1: .*at least 0"):
        explorer.state.rules.set_marker(explorer.state, "army_sp_US", -1)
