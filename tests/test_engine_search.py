"""The compiled supply searches (normandy_lab.engine.search) against networkx on the real BfN map.

The fast path of the supply engine (7.2, 7.3) is only trusted because it
gives the same distances, ranges and lines as networkx's own Dijkstra on the
same graph: edges a line may use (7.3: no enemy-held hex, no vacant hex in an
EZOC, no interdicted hex; 7.3.2: no unbridged water after the first step),
weighted by the supply MP of entering the next hex (7.3.2: 1/3 MP highway,
1/2 MP primary road, infantry rates elsewhere).
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from normandy_lab.engine import load_scenario
from normandy_lab.engine.search import FAR, SIXTHS
from normandy_lab.network import edge_arrays
from normandy_lab.rules.bfn.supply import Limits, side_lines

SCENARIO = "bfn_1944-06-13_am"


@pytest.fixture(scope="module")
def state():
    return load_scenario(SCENARIO)


@pytest.fixture(scope="module", params=["allied", "german"])
def side_graph(request, state):
    """One side's lines, and networkx's reverse graph of its usable edges (weights in hexes and sixths)."""
    lines = side_lines(state, request.param)
    e = edge_arrays(state.system)
    usable = lines.usable()
    graph = nx.DiGraph()
    graph.add_nodes_from(range(lines.n))
    for a, b, mp in zip(e.src[usable], e.dst[usable], lines.costs.mp[usable], strict=True):
        graph.add_edge(int(b), int(a), hexes=1, mp=int(mp))  # reverse: from the target outwards
    return lines, graph


def _targets(lines, count: int, seed: int) -> list[int]:
    """Random unblocked land hexes (seeded)."""
    rng = np.random.default_rng(seed)
    land = np.nonzero(~lines.blocked)[0]
    return sorted(rng.choice(land, size=count, replace=False).tolist())


def _first_step(lines, dist: dict[int, int], origin: int, metric: str) -> float:
    """The reference of the tracing unit's own first step across unbridged water (7.3.2)."""
    e = edge_arrays(lines.g.system)
    best = dist.get(origin, FAR)
    for k in np.nonzero((e.src == origin) & lines.costs.first)[0]:
        far = int(e.dst[k])
        if not lines.blocked[far] and far in dist:
            cost = 1 if metric == "hexes" else int(lines.costs.first_mp[k])
            best = min(best, dist[far] + cost)
    return best


UNIT_RANGE = Limits(hexes=6, mp=6, division=20)  # 7.3.1 and 7.2 in fair weather


def _single_hq_ranges(lines, hq_count: int, query_count: int, seed: int):
    """Unit ranges of some single-hex HQs, every query hex asked of every HQ."""
    hqs = _targets(lines, hq_count, seed=seed)
    query = np.array(_targets(lines, query_count, seed=seed + 1), dtype=np.int64)
    everyone = list(range(len(query)))
    return hqs, query, lines.ranges([[h] for h in hqs], [everyone] * len(hqs), query, UNIT_RANGE, slack=True)


@pytest.mark.parametrize("metric", ["hexes", "mp"])
@pytest.mark.parametrize("limit", [6, 20 * SIXTHS, None])
def test_7_3_search_distances_equal_networkx(side_graph, metric, limit):
    lines, graph = side_graph
    roots = _targets(lines, 5, seed=7)
    dist, pred = lines.search(roots, metric, FAR if limit is None else limit)
    reference = nx.multi_source_dijkstra_path_length(graph, roots, cutoff=limit, weight=metric)
    expected = np.full(lines.n, FAR)
    expected[list(reference)] = list(reference.values())
    assert np.array_equal(dist, expected)
    # Each line found leads to a root along usable edges and costs what the distance says.
    e = edge_arrays(lines.g.system)
    weight = {(int(a), int(b)): int(w) for a, b, w in zip(e.src, e.dst, lines.costs.mp, strict=True)}
    for node in np.nonzero(dist < FAR)[0][::97]:
        cost, v = 0, int(node)
        while pred[v] >= 0:
            assert graph.has_edge(int(pred[v]), v)
            cost += 1 if metric == "hexes" else weight[(v, int(pred[v]))]
            v = int(pred[v])
        assert v in roots and cost == dist[node]


def test_7_3_1_group_ranges_equal_networkx(side_graph):
    """Unit ranges (6 hexes or 6 MP, the first step across water included) around single HQ hexes."""
    lines, graph = side_graph
    hqs, query, ranges = _single_hq_ranges(lines, 4, 300, seed=11)
    for k, hq in enumerate(hqs):
        by_hex = nx.single_source_dijkstra_path_length(graph, hq, cutoff=7, weight="hexes")
        by_mp = nx.single_source_dijkstra_path_length(graph, hq, cutoff=12 * SIXTHS, weight="mp")
        for j, origin in enumerate(query.tolist()):
            hexes = _first_step(lines, by_hex, origin, "hexes")
            sixths = _first_step(lines, by_mp, origin, "mp")
            assert ranges.dist[k, 0, j] == (hexes if hexes <= 7 else FAR)
            assert ranges.dist[k, 1, j] == (sixths if sixths <= 12 * SIXTHS else FAR)
            if hexes <= 6:  # the line shown in hexes runs from the unit to the HQ in that many steps
                line = ranges.line(k, 0, j)
                assert line[0] == origin and line[-1] == hq and len(line) == hexes + 1
        # The range as a hex set: every hex within 6 hexes or 6 MP (first step included).
        nodes = set(range(lines.n))
        expected = {
            o
            for o in nodes
            if _first_step(lines, by_hex, o, "hexes") <= 6 or _first_step(lines, by_mp, o, "mp") <= 6 * SIXTHS
        }
        assert set(ranges.covered(k).tolist()) == expected


def test_7_2_nearest_source_at_any_length_equals_networkx(side_graph, state):
    """Corps HQs trace at any length (7.2); the HQ's own first step across water is free (7.3.2)."""
    lines, graph = side_graph
    targets = _targets(lines, 6, seed=21)
    origins = np.array(_targets(lines, 40, seed=22), dtype=np.int64)
    best, ptr, flat = lines.nearest(origins, targets)
    reference = nx.multi_source_dijkstra_path_length(graph, targets, weight="hexes")
    e = edge_arrays(state.system)
    for j, origin in enumerate(origins.tolist()):
        options = [reference.get(origin, FAR)]
        for k in np.nonzero((e.src == origin) & lines.costs.first)[0]:
            if not lines.blocked[e.dst[k]]:
                options.append(reference.get(int(e.dst[k]), FAR))  # free crossing
        assert best[j] == min(options)
        line = flat[ptr[j] : ptr[j + 1]]
        if best[j] < FAR:
            assert line[0] == origin and line[-1] in targets


def test_7_5o_any_length_reach_equals_networkx_components(side_graph):
    lines, graph = side_graph
    targets = _targets(lines, 3, seed=31)
    nodes = np.array(_targets(lines, 200, seed=32), dtype=np.int64)
    reached = lines.reaches(targets, nodes)
    undirected = graph.to_undirected()
    near = set().union(*(nx.node_connected_component(undirected, t) for t in targets))
    e = edge_arrays(lines.g.system)
    for j, o in enumerate(nodes.tolist()):
        far = [
            int(e.dst[k])
            for k in np.nonzero((e.src == o) & lines.costs.first)[0]
            if not lines.blocked[e.dst[k]]
        ]
        assert reached[j] == (o in near or any(x in near for x in far))


def test_search_kernel_leaves_no_trace_between_groups(side_graph):
    """Many groups in one call answer as each group alone (the scratch arrays are reset)."""
    lines, _ = side_graph
    hqs, query, together = _single_hq_ranges(lines, 6, 50, seed=41)
    for k, hq in enumerate(hqs):
        alone = lines.ranges([[hq]], [list(range(len(query)))], query, UNIT_RANGE, slack=True)
        assert np.array_equal(together.dist[k], alone.dist[0])
        assert sorted(together.covered(k).tolist()) == sorted(alone.covered(0).tolist())


def test_group_ranges_keep_only_the_lines_wanted(side_graph):
    """Distances do not depend on which lines are kept; a line not wanted is not returned."""
    lines, _ = side_graph
    hqs, query, every = _single_hq_ranges(lines, 3, 60, seed=5)
    everyone = list(range(len(query)))
    wanted = [[j % 2 == 0 for j in everyone] for _ in hqs]
    some = lines.ranges(
        [[h] for h in hqs], [everyone] * len(hqs), query, UNIT_RANGE, slack=True, lines_wanted=wanted
    )
    assert np.array_equal(some.dist, every.dist)
    for k in range(len(hqs)):
        for j in everyone:
            for metric in (0, 1):
                if j % 2 == 0:
                    assert np.array_equal(some.line(k, metric, j), every.line(k, metric, j))
                else:
                    assert len(some.line(k, metric, j)) == 0
