"""Cobra's map where its text fixes it (issue 31): the rulebook's hexes and road courses win over the derivation.

The printed maps are not in the rulebook, so the map is derived from geography; where the text itself
states a hex's terrain or a road's course, the derived map follows the text and marks the hex or hexside
with the rule (``from_text``).  Each test names the rule it holds.
"""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
from cobra_support import cobra_unit

import normandy_lab as nl
from normandy_lab.engine.zoc import hex_control, zoc_mask
from normandy_lab.rules import get
from normandy_lab.terrain.vocab import VOCABULARIES

CHERBOURG = ("B1207", "B1307", "B1308", "B1407")  # 16.1: "map B 1207, 1307, 1308 and 1407"


_unit = cobra_unit  # one builder for the Cobra test modules (tests/cobra_support.py)


@pytest.fixture(scope="module")
def cobra_map():
    return nl.terrain_map("cobra", progress=False)


def test_16_1_b1307_is_a_land_city_hex_of_cherbourg_taken_from_the_text(cobra_map):
    """16.1 counts Cherbourg as four hexes of map B; B1307, mostly harbour water, is one of them."""
    from normandy_lab.rules.cobra.system import city_hexes

    hexes = cobra_map.hexes
    row = hexes.loc["B1307"]
    assert row["terrain"] != "All Sea" and row["settlement"] == "City" and row["builtup_name"] == "Cherbourg"
    assert row["from_text"].startswith("16.1")
    assert row["land_fraction"] < 0.5  # what the derivation alone would have drawn as sea
    g = nl.grid("cobra")
    assert {str(g.id_array[i]) for i in city_hexes("cobra", "Cherbourg")} == set(CHERBOURG)
    # 17.3.6a-b's supply head of Cherbourg (RECONSTRUCTED as its city hexes) holds all four.
    assert set(get("cobra").supply["supply_heads"]["Cherbourg"]) == set(CHERBOURG)


def test_16_1_a_unit_in_b1307_controls_it_so_the_cherbourg_vp_can_count_it(gt15):
    """16.1's German point: at least one Cherbourg hex German-controlled; a unit can now stand in B1307.

    7.0b: no ZOC reaches into a city hex of Cherbourg, so B1307 is held by standing in it, like the other
    three; an Allied unit there is in Cherbourg for 17.3.5e.
    """
    from normandy_lab.engine.movement import check_move
    from normandy_lab.rules.cobra.system import _cherbourg_entered

    g = nl.grid("cobra")
    i = g.index("B1307")
    held = gt15.evolve(units=(_unit("DE-G", "german", "B1307"), _unit("US-X", "allied", "A2530")))
    assert hex_control(held)[i] == "german"
    near = gt15.evolve(units=(_unit("DE-G", "german", "B1308"), _unit("US-X", "allied", "A2530")))
    assert not zoc_mask(near, "german")[i]  # 7.0b: no ZOC into a Cherbourg city hex
    moving = nl.step_to(
        gt15.evolve(units=(_unit("US-X", "allied", "B1309"), _unit("DE-G", "german", "A4530"))),
        "Allied Initial Movement",
    )
    assert check_move(moving, "US-X", "B1307").legal  # once All Sea (5.6d), now a hex a unit enters
    entered = _cherbourg_entered(moving.evolve(units=(_unit("US-X", "allied", "B1307"),)))
    assert entered.markers["cherbourg_entered"]  # 17.3.5e


def test_17_3_step_4_example_b4119_is_a_juno_beach_hex(cobra_map):
    """17.3's beach-defence example: the British land both units "on Juno Beach in 4119"."""
    row = cobra_map.hexes.loc["B4119"]
    assert row["terrain"] == "Beach" and row["beach"] == "Juno"
    assert row["from_text"].startswith("17.3")
    # The two German regiments of the example stand within two hexes of it in the Campaign set-up.
    g = nl.grid("cobra")
    assert g.distance("B4020", "B4119") <= 2 and g.distance("B4320", "B4119") <= 2


def _road_graph(kind: str) -> nx.Graph:
    from normandy_lab.network import edge_arrays
    from normandy_lab.rules.cobra.supply import line_edges

    edges = line_edges(get("cobra"), frozenset())
    e = edge_arrays("cobra")
    ids = nl.grid("cobra").id_array
    keep = getattr(edges, kind)
    return nx.Graph([(ids[a], ids[b]) for a, b in zip(e.src[keep], e.dst[keep], strict=True)])


def test_10_3_example_the_major_road_through_a1809_is_marked_as_taken_from_the_text(cobra_map):
    """10.3's example goes "along major road to Isigny" from A1809: the N174 is laid through it."""
    side = cobra_map.hexside("A1809", "A1808")
    assert side["road"] == "primary" and "N174" in side["road_name"] and side["from_text"].startswith("10.3")
    assert cobra_map.hexside("A1909", "A1809")["from_text"].startswith("10.3")
    assert cobra_map.hexside("A1909", "A1808")["from_text"] == ""  # the derived course stays as it was


def test_10_3_the_worked_example_counts_9_on_the_map():
    """10.3's example on the derived map: A1212 to A1312 (bocage, 2), six hexes of minor road to A1809 (6),
    the major road to Isigny (1): its line counts 9, as the book prints."""
    from normandy_lab.rules.cobra.metric import count_of
    from normandy_lab.rules.cobra.supply import line_graph

    g = nl.grid("cobra")
    isigny = g.locate(*nl.lookup("Isigny-sur-Mer"))
    minor = nx.shortest_path(_road_graph("minor_road"), "A1312", "A1809")
    major = nx.shortest_path(_road_graph("major_road"), "A1809", isigny)
    assert len(minor) - 1 == 6
    route = ["A1212", *minor, *major[1:]]
    graph = line_graph(get("cobra"), frozenset(), "per_run", "replaces")
    off_route = np.ones(len(g), dtype=bool)
    off_route[[g.index(h) for h in route]] = False
    blocked = graph.node_mask(off_route)  # the line keeps to the example's hexes
    dist, _ = graph.search(graph.in_every_layer(np.array([g.index(isigny)])), blocked)
    best, _ = graph.from_origins(dist, blocked, np.array([g.index("A1212")]))
    assert int(count_of(best[0])) == 9


def test_only_the_hexes_and_roads_the_cobra_text_names_are_taken_from_it():
    """Every ``from_text`` mark is one of the vocabulary's entries; the other games have none."""
    for system, vocabulary in VOCABULARIES.items():
        tmap = nl.terrain_map(system, progress=False)
        marked = set(tmap.hexes.index[tmap.hexes["from_text"] != ""])
        assert marked == {entry.hex for entry in vocabulary.text_hexes}, system
        sides = tmap.hexsides
        marked_sides = {
            frozenset((a, b))
            for a, b, mark in zip(sides["a"], sides["b"], sides["from_text"], strict=True)
            if mark
        }
        named = {
            frozenset(pair) for entry in vocabulary.text_roads for pair in itertools.pairwise(entry.hexes)
        }
        assert marked_sides == named, system
        if system != "cobra":  # the mechanism leaves the other three maps as derived
            assert not vocabulary.text_hexes and not vocabulary.text_roads
