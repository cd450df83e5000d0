"""The layered search (issue 15: budget layers, virtual nodes, seeded starting costs) equals networkx."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest

from normandy_lab.engine.layered import LayeredGraph, Link, Move
from normandy_lab.engine.search import FAR


def _random_graph(seed: int):
    """A random directed hex-like graph in 3 layers with 2 virtual nodes, and the same graph in networkx."""
    rng = np.random.default_rng(seed)
    n_hexes, n_layers, n_virtual = 40, 3, 2
    m = 160
    src = rng.integers(0, n_hexes, m)
    dst = rng.integers(0, n_hexes, m)
    moves = [
        Move(rng.integers(0, n_layers), rng.integers(0, n_layers), rng.random(m) < 0.5, rng.integers(0, 7, m))
        for _ in range(6)
    ]
    links = [
        Link(int(rng.integers(0, n_hexes * n_layers)), n_hexes * n_layers + k, int(rng.integers(0, 4)))
        for k in range(n_virtual)
        for _ in range(3)
    ]
    graph = LayeredGraph(n_hexes, n_layers, src, dst, moves, n_virtual, links)
    reference = nx.DiGraph()
    reference.add_nodes_from(range(graph.n))
    for move in moves:
        cost = np.broadcast_to(move.cost, (m,))
        for e in np.nonzero(move.edges)[0]:
            a, b = src[e] + move.source * n_hexes, dst[e] + move.target * n_hexes
            if not reference.has_edge(a, b) or reference[a][b]["w"] > cost[e]:
                reference.add_edge(a, b, w=int(cost[e]))
    for link in links:
        if (
            not reference.has_edge(link.source, link.target)
            or reference[link.source][link.target]["w"] > link.cost
        ):
            reference.add_edge(link.source, link.target, w=link.cost)
    return graph, reference, rng


@pytest.mark.parametrize("seed", range(12))
def test_layered_search_equals_networkx_with_blocks_seeds_and_virtual_nodes(seed):
    graph, reference, rng = _random_graph(seed)
    blocked_hexes = rng.random(graph.n_hexes) < 0.15
    blocked = graph.node_mask(blocked_hexes, np.array([False, rng.random() < 0.3]))
    roots = np.unique(np.r_[rng.integers(0, graph.n, 3), graph.virtual(0)])
    costs = rng.integers(0, 9, len(roots))
    dist, pred = graph.search(roots, blocked, root_costs=costs)
    # networkx: a super-source joined to each root at its starting cost; a blocked node is entered only as a root.
    g = reference.copy()
    g.remove_edges_from([(a, b) for a, b in list(g.edges) if blocked[a] or blocked[b]])
    g = g.reverse()
    for r, c in zip(roots, costs, strict=True):
        g.add_edge("S", int(r), w=int(c))
    expected = nx.single_source_dijkstra_path_length(g, "S", weight="w")
    for v in range(graph.n):
        assert dist[v] == expected.get(v, FAR), v
        if 0 < dist[v] < FAR and pred[v] >= 0:  # the next node is on a shortest line
            assert dist[v] == dist[pred[v]] + graph.step_cost(v, int(pred[v]))


@pytest.mark.parametrize("seed", range(6))
def test_a_units_own_hex_never_blocks_its_own_line(seed):
    graph, reference, rng = _random_graph(seed)
    blocked_hexes = rng.random(graph.n_hexes) < 0.2
    blocked = graph.node_mask(blocked_hexes)
    roots = np.array([graph.virtual(0), graph.virtual(1)])
    dist, pred = graph.search(roots, blocked)
    origins = np.arange(graph.n_hexes)
    best, first = graph.from_origins(dist, blocked, origins)
    g = reference.copy()
    for o in origins:
        # The origin's own hex is open to it alone: its out-edges count, nobody may pass through it.
        h = g.copy()
        h.remove_edges_from([(a, b) for a, b in list(h.edges) if blocked[b] or (blocked[a] and a != o)])
        try:
            want = min(
                nx.shortest_path_length(h, int(o), int(r), weight="w")
                for r in roots
                if nx.has_path(h, int(o), int(r))
            )
        except ValueError:
            want = FAR
        assert best[o] == want, o
        if want < FAR:
            nodes = graph.path(pred, int(o), int(first[o]))
            assert nodes[0] == o and nodes[-1] in roots
            assert sum(graph.step_cost(a, b) for a, b in itertools.pairwise(nodes)) == want
    # A search stopped once an origin is settled gives that origin the same distance and line.
    for o in origins[:10]:
        count, nodes = graph.line_of(roots, blocked, int(o))
        assert count == best[o] and (
            nodes == graph.path(pred, int(o), int(first[o])) if count < FAR else nodes == []
        )
    # The one-pass kernel gives the same distances and, for each origin, the same line as path().
    best_all, ptr, flat = graph.lines(dist, pred, blocked, origins)
    assert best_all.tolist() == best.tolist()
    for j, o in enumerate(origins):
        want_line = graph.path(pred, int(o), int(first[j])) if best[j] < FAR else []
        assert flat[ptr[j] : ptr[j + 1]].tolist() == want_line


def test_a_bad_layer_or_link_is_refused():
    with pytest.raises(ValueError, match="layer 3"):
        LayeredGraph(2, 2, np.array([0]), np.array([1]), [Move(0, 3, np.array([True]), 1)])
    with pytest.raises(ValueError, match="does not exist"):
        LayeredGraph(2, 1, np.array([0]), np.array([1]), [], 1, [Link(0, 9, 1)])


def test_an_off_map_box_holds_units_and_is_a_node_lines_reach_through_its_entry_hexes():
    """Issue 15: units may stand in an off-map box; a search reaches the box through its entry hexes."""
    from dataclasses import replace

    import yaml

    import normandy_lab as nl
    from normandy_lab.engine.layered import box_links
    from normandy_lab.engine.scenario import ScenarioError, load_scenario_text, scenario_path
    from normandy_lab.engine.zoc import zoc_mask
    from normandy_lab.rules import OffMapBox, get

    box = OffMapBox("Paris", ("A5116", "A5120"), rule="a test box beyond the east edge", side="german")
    data = yaml.safe_load(scenario_path("cobra_1944-07-16_gt15").read_text())
    reserve = dict(data["units"][0], id="DE-RESERVE", box="Paris", hex="A5120", status="off_map")
    data["units"].append(reserve)
    text = yaml.safe_dump(data)
    with pytest.raises(ScenarioError, match=r"units\[139\]\.box: 'Paris' is not an off-map box of the game"):
        load_scenario_text(text)
    # Cobra with the box in its rules: the unit loads, off the map, at an entry hex, with no zone of control.
    original = get("cobra")
    nl.rules.register(replace(original, boxes={"Paris": box}, variant="with a Paris box"), key="cobra")
    try:
        boxed = load_scenario_text(text)
        with pytest.raises(ScenarioError, match="status: off_map and hex: one of A5116, A5120"):
            load_scenario_text(text.replace("hex: A5120", "hex: A5119"))
    finally:
        nl.rules.register(original, key="cobra")
    assert boxed.unit("DE-RESERVE").box == "Paris" and boxed.unit("DE-RESERVE").status == "off_map"
    plain = boxed.evolve(units=tuple(u for u in boxed.units if u.id != "DE-RESERVE"))
    assert (zoc_mask(boxed, "german") == zoc_mask(plain, "german")).all()
    # In a search the box is a virtual node, entered from its entry hexes.
    g = nl.grid("cobra")
    e = nl.network.edge_arrays("cobra")
    links = box_links(len(g), 2, [box], g.index)
    graph = LayeredGraph(len(g), 2, e.src, e.dst, [Move(0, 0, ~e.all_sea, 1)], n_virtual=1, links=links)
    dist, pred = graph.search(np.array([graph.virtual(0)]), graph.node_mask(np.zeros(len(g), dtype=bool)))
    assert dist[g.index("A5120")] == 0 and dist[g.index("A5116")] == 0
    start = g.index("A5020")
    assert dist[start] == 1 and graph.path(pred, start, start)[-1] == graph.virtual(0)
