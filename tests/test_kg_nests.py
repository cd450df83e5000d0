"""The Weapons Nests of the KG set-ups and their positions (OVERLORD 26.2.4, 22.6.8, 22.7;
``maps/history/weapons_nests.yaml``)."""

from __future__ import annotations

import yaml

import normandy_lab as nl
from normandy_lab.grids import grid
from normandy_lab.rules.kg.nests import NESTS_FILE, nest_positions, standing_nests

PART = NESTS_FILE.parents[2] / "scenarios" / "parts" / "kg_1944-06-07_t02_setup.yaml"


def test_the_data_covers_every_wn_of_22_6_8_and_each_hex_is_where_its_point_falls():
    named = [w["name"] for w in yaml.safe_load(PART.read_text(encoding="utf-8"))["weapons_nests"]]
    positions = nest_positions()
    assert sorted(named) == sorted(positions)
    g = grid("kg")
    for name, entry in positions.items():
        if entry["lonlat"] is None:
            assert entry["kg_hex"] is None and entry["note"], name  # why it is not placed
            continue
        assert g.locate(*entry["lonlat"]) == entry["kg_hex"], name
        assert entry["source"] and 0 < entry["accuracy_m"] <= 1000, name


def test_22_7_prints_the_greville_wn_within_a_hex_of_its_1944_position():
    # The one WN of both lists: 22.7 prints its hex, the data file has where the battery was.
    assert grid("kg").distance("N1206", nest_positions()["Greville WN"]["kg_hex"]) <= 1


def test_22_6_8_the_wns_it_leaves_standing_are_drawn_at_their_1944_positions(t2):
    standing = standing_nests(t2)
    states = {
        w["name"]: w["state"] for w in yaml.safe_load(PART.read_text(encoding="utf-8"))["weapons_nests"]
    }
    names = {name for name, _, _ in standing}
    assert names == {
        n
        for n, s in states.items()
        if s not in ("eliminated_reverse", "removed") and nest_positions()[n]["kg_hex"]
    }
    assert "62/352 WN" in names and "16/716 WN" not in names  # reduced stands; eliminated is gone
    assert all(basis.startswith("historical") for _, _, basis in standing)
    zone = next(z for z in nl.supply(t2).zones() if z.rule == "26.2.4")
    assert set(zone.hexes) == {h for _, h, _ in standing} and "RECONSTRUCTED" in zone.label


def test_22_7_its_wns_stand_where_it_prints_them():
    t14 = nl.load_scenario("kg_1944-06-19_t14")
    standing = standing_nests(t14)
    assert len(standing) == 12 and ("Greville WN", "N1206", "printed in the set-up") in standing
