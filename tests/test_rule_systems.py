"""Issue 15: rule systems are found in a registry, and a variant made in code reaches every determination."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

import normandy_lab as nl
from normandy_lab import rules
from normandy_lab.engine.study import fingerprint

SCENARIO = "bfn_1944-06-13_am"


def test_the_registry_gives_a_rule_system_by_key_or_as_it_is():
    bfn = rules.get("bfn")
    assert bfn.system == "bfn" and rules.get(bfn) is bfn and rules.ruleset("bfn") is bfn
    assert "bfn" in rules.available()
    with pytest.raises(NotImplementedError, match=r"registered rule systems are .*bfn"):
        rules.get("tobruk")


def test_a_rule_system_registered_as_a_function_is_built_when_first_asked():
    built = []

    def make():
        built.append(1)
        return replace(rules.get("bfn"), variant="registered for a test")

    rules.register(make, key="bfn-test-variant")
    try:
        assert built == []
        variant = rules.get("bfn-test-variant")
        assert built == [1] and rules.get("bfn-test-variant") is variant and variant.system == "bfn"
    finally:
        rules._REGISTRY.pop("bfn-test-variant")


def test_a_variant_of_the_supply_ranges_reaches_the_supply_determination():
    """7.3.1's 6-hex range made 1 and 1000 in code: the verdicts follow the variant, not the registry."""
    state = nl.load_scenario(SCENARIO)
    base = state.rules
    out = len(nl.supply(state).out_of_supply())
    narrow = replace(base, supply={**base.supply, "unit_range_hexes": 1, "unit_range_mp": 1}, variant="1 hex")
    wide = replace(
        base, supply={**base.supply, "unit_range_hexes": 1000, "unit_range_mp": 1000}, variant="wide"
    )
    assert len(nl.supply(state.with_rules(narrow)).out_of_supply()) > out + 50
    assert len(nl.supply(state.with_rules(wide)).out_of_supply()) < out
    # The registry's own rules are untouched, and the state still plays them.
    assert len(nl.supply(state).out_of_supply()) == out and state.rules is base


def test_a_variant_of_the_terrain_costs_has_its_own_cached_costs():
    """The edge costs are cached per rule system: a variant whose primary roads cost 1 MP lengthens lines."""
    state = nl.load_scenario(SCENARIO)
    base = state.rules
    roads = {**base.supply["road_cost"], "primary": 1.0}
    dear = replace(base, supply={**base.supply, "road_cost": roads}, variant="slow primary roads")
    before = {u: r.length_mp for u, r in nl.supply(state).units.items() if r.general}
    after = nl.supply(state.with_rules(dear))
    longer = [u for u, mp in before.items() if after[u].general and after[u].length_mp > mp]
    assert longer, "no line took a primary road"
    assert all(after[u].length_mp >= mp for u, mp in before.items() if after[u].general)


def test_a_variant_of_the_sequence_of_play_is_what_the_state_shows():
    state = nl.load_scenario(SCENARIO)
    base = state.rules
    phases = tuple(replace(p, name=p.name.upper()) for p in base.sequence[state.turn])
    loud = replace(base, sequence={**base.sequence, state.turn: phases}, variant="loud phases")
    assert state.with_rules(loud).label.endswith(phases[state.phase_index].name + f" ({phases[0].side})")


def test_a_state_keeps_its_variant_through_edits_and_its_fingerprint_says_so():
    state = nl.load_scenario(SCENARIO)
    variant = replace(state.rules, variant="same numbers, another object")
    played = state.with_rules(variant)
    assert played.rules is variant and played.evolve(weather="Storm").rules is variant
    assert fingerprint(played) != fingerprint(state)
    assert played.with_rules("bfn").variant is None and fingerprint(played.with_rules("bfn")) == fingerprint(
        state
    )


def test_a_variant_of_another_game_is_refused():
    state = nl.load_scenario(SCENARIO)
    other = replace(state.rules, system="cobra")
    with pytest.raises(ValueError, match="cannot play a state on the 'bfn' maps"):
        state.with_rules(other)


def test_a_rule_system_says_which_units_exert_a_zone_of_control():
    """The toy's HQs exert none (its own rule); BfN's do (5.1): the ZOC masks follow the state's rules."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).parent))
    from toy_system import toy_rules

    state = nl.load_scenario(SCENARIO)
    toy = state.with_rules(toy_rules())
    bfn_zoc, toy_zoc = nl.ezoc(state, "german"), nl.ezoc(toy, "german")
    assert toy_zoc < bfn_zoc
    g = nl.grid(state.system)
    hq_only = bfn_zoc - toy_zoc
    allied_hqs = {u.hex for u in state.units_of("allied") if u.hq}
    assert all(any(g.distance(h, hq) == 1 for hq in allied_hqs) for h in hq_only)


def test_a_scenario_names_the_maps_in_play_and_their_edges_are_the_map_edge():
    """Issue 15 (and BfN 7.4): with only some sheets in play, the German road sources are where roads leave
    those sheets to the east or south, lines never run over a sheet not in play, and a unit may not stand
    on one; a state with every sheet keeps its fingerprint (``maps`` is left out while empty)."""
    from normandy_lab.engine import ScenarioError, load_scenario_text
    from normandy_lab.engine.study import fingerprint
    from normandy_lab.rules.common import edge_road_hexes

    text = (Path(__file__).parent / "data" / "bfn_pegasus_1944-06-07.yaml").read_text()
    every = load_scenario_text(text, "pegasus.yaml")
    only_c = load_scenario_text(text.replace("turn: AM", "turn: AM\nmaps: [C]"), "pegasus.yaml")
    assert only_c.maps == frozenset({"C"}) and every.maps == frozenset()
    g = nl.grid("bfn")
    full = set(edge_road_hexes("bfn"))
    c_edges = set(edge_road_hexes("bfn", only_c.maps))
    assert c_edges and c_edges != full and {g.sheet_of(g.id_array[i]) for i in c_edges} == {"C"}
    assert c_edges - full  # C's own east or south edge, inside the full map
    report = nl.supply(only_c)
    assert all(g.sheet_of(h) == "C" for r in report.units.values() for h in r.path)
    assert fingerprint(every) != fingerprint(only_c)
    with pytest.raises(ScenarioError, match=r"units\[\d+\]\.hex: \w+ is on map [A-Z], not in play \(B\)"):
        load_scenario_text(text.replace("turn: AM", "turn: AM\nmaps: [B]"), "pegasus.yaml")
    with pytest.raises(ScenarioError, match=r"maps: Z: not a map of the game"):
        load_scenario_text(text.replace("turn: AM", "turn: AM\nmaps: [C, Z]"), "pegasus.yaml")


def test_the_counter_rings_and_their_key_come_from_the_rule_system():
    """BfN: full ring in General and Combat Supply, partial General only, cut isolated (7.2, 7.6.1, 7.5o)."""
    from types import SimpleNamespace as Row

    from normandy_lab.views import layers

    bfn = rules.get("bfn")
    assert bfn.supply_ring(Row(general=True, combat=True, isolated=False)) == "full"
    assert bfn.supply_ring(Row(general=True, combat=False, isolated=False)) == "partial"
    assert bfn.supply_ring(Row(general=False, combat=False, isolated=True)) == "cut"
    assert bfn.supply_ring(Row(general=False, combat=False, isolated=False)) == "out"
    assert "grey General only" in layers.ring_key_html(bfn) and "yellow isolated" in layers.ring_key_html(bfn)
    # The words are the game's look (rules.look), not its rules: a look with two rings' words keys two.
    plain = replace(rules.look("bfn"), ring_words={"full": "in supply", "out": "out of supply"})
    assert "grey" not in layers.ring_key_html(plain) and "orange out of supply" in layers.ring_key_html(plain)
    variant = replace(bfn, variant="wider ranges")  # a rules variant is shown as its game
    assert layers.ring_key_html(variant) == layers.ring_key_html(bfn)
    assert layers.worst_ring(["full", "cut", "partial"]) == "cut"
