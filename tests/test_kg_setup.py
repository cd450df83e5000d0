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
    for hex_id in ("N2120", "N2522", "N2931", "N2932", "N3032", "N3139"):
        assert terrain.loc[hex_id, "terrain"] == "Beach", hex_id
        assert terrain.loc[hex_id, "land_fraction"] < 0.5  # forced: the derivation alone would say sea
    assert terrain.loc["N2830", "terrain"] == "All Sea"  # a neighbour the rules do not name stays sea
