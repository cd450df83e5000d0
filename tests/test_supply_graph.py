"""Supply as a graph (issue 34, section 2): ``nl.supply_graph`` agrees with the engine, and travels.

Every scenario of every game, both sides: for each unit whose line the graph gives a target, networkx's
shortest path from the unit node to that target, in the unit's metric, is the engine's line length (BfN
7.3.1 "6 hexes or 6 MP": both lengths to the same target; Cobra 10.3's count; KG's hexes).  The engine's
own line is a path of the open graph of the same length (BfN, KG).  Each scenario's graph is built once per
side (``_graph``).  GraphML and GeoPackage files are read back.
"""

from __future__ import annotations

import math
from functools import lru_cache

import networkx as nx
import pytest

import normandy_lab as nl
from normandy_lab.errors import RefusedError
from normandy_lab.interdiction.graph import supply_graph, to_geopackage, to_graphml, usable

SCENARIOS = nl.scenarios()["name"].tolist()
# The Vire bridge at Pont-Hebert (N174) that puts 18 German units out on 13 June (issue 34, the review).
PONT_HEBERT = "B4015|B4114"


@lru_cache(maxsize=4)
def _report(name: str):
    if name.endswith("+cut"):  # 13 June with the Pont-Hebert bridge destroyed: a graph after a cut
        study = nl.Study(name.removesuffix("+cut"))
        study.apply({"op": "destroy_bridge", "hexside": PONT_HEBERT.split("|")})
        return nl.supply(study.state)
    return nl.supply(nl.load_scenario(name))


@lru_cache(maxsize=8)
def _graph(name: str, side: str) -> nx.DiGraph:
    return supply_graph(_report(name), side)


def _engine_length(row, metric: str) -> float:
    """The engine's length of a unit's line in a metric (KG leaves a supported HQ's count on its path)."""
    value = row.length_mp if metric == "mp" else row.length_hexes
    if math.isinf(value) and row.general and row.path and metric == "hexes":
        return float(len(row.path) - 1)
    return float(value)


def _nx_length(view, unit: str, target: str, metric: str) -> float:
    weight = "mp_sixths" if metric == "mp" else metric
    try:
        length = nx.shortest_path_length(view, unit, target, weight=weight)
    except nx.NetworkXNoPath:
        return math.inf
    return length / 6 if metric == "mp" else float(length)


@pytest.mark.parametrize("side", ["allied", "german"])
@pytest.mark.parametrize("name", [*SCENARIOS, "bfn_1944-06-13_am+cut"])
def test_the_networkx_shortest_line_is_the_engines_line(name, side):
    """For every unit with a line to trace, nx's shortest path to its target is the engine's length.

    A length the engine leaves infinite (a division HQ beyond 20 MP, 7.2; a Cobra unit cut off, 10.3) is
    beyond the limit or has no path in the graph.
    """
    G = _graph(name, side)
    report = _report(name)
    view = usable(G)
    checked, wrong = 0, []
    for node, data in G.nodes(data=True):
        if data.get("kind") != "unit" or not data["target"]:
            continue
        row = report[data["unit_id"]]
        metric = data["metric"]
        engine = _engine_length(row, metric)
        found = _nx_length(view, node, data["target"], metric)
        if math.isinf(engine) and metric == "mp":  # a BfN division HQ beyond its 20 MP (7.2)
            ok = found > G.graph["limit_division_mp"]
        elif math.isinf(engine):  # no line of any length (a cut-off Cobra unit, a corps HQ cut from a source)
            ok = math.isinf(found)
        else:
            ok = found == engine
        checked += 1
        if not ok:
            wrong.append((data["unit_id"], metric, found, engine))
        # 7.3.1 "6 hexes or 6 MP": a BfN unit's shortest line in the other metric, where it is within that
        # limit too, is nx's in that weight (beyond it the engine gives the hexes of the line it drew).
        if G.graph["system"] == "bfn" and not report.state.unit(row.unit_id).hq and row.general:
            other = "mp" if metric == "hexes" else "hexes"
            engine_other = _engine_length(row, other)
            within = engine_other <= G.graph[f"limit_{other}"]
            if within and _nx_length(view, node, data["target"], other) != engine_other:
                wrong.append(
                    (data["unit_id"], other, _nx_length(view, node, data["target"], other), engine_other)
                )
    assert not wrong, f"{name} {side}: (unit, metric, networkx, engine) {wrong[:5]}"
    lines = [r for r in report.units.values() if r.side == side and r.general and len(r.path) >= 2]
    if G.graph["system"] != "gts" and lines:
        assert checked, f"{name} {side}: no unit line was compared"


@pytest.mark.parametrize("name", ["bfn_1944-06-13_am", "kg_1944-06-19_t14"])
def test_the_engines_own_line_is_an_open_path_of_the_same_length(name):
    """The hexes the engine reports for a line are steps of the open graph, and cost its length."""
    report = _report(name)
    for side in ("allied", "german"):
        G = _graph(name, side)
        view = usable(G)
        for node, data in G.nodes(data=True):
            row = report[data["unit_id"]] if data.get("kind") == "unit" else None
            if row is None or not row.general or len(row.path) < 2 or not data["target"]:
                continue
            metric = data["metric"]
            weight = "mp_sixths" if metric == "mp" else metric
            hexes = row.path
            first = view.edges[node, hexes[1]] if view.has_edge(node, hexes[1]) else None
            start = 1 if first is not None else 0  # a first step across water starts at the unit node
            total = first[weight] if first is not None else 0
            for a, b in zip(hexes[start:], hexes[start + 1 :], strict=False):
                assert view.has_edge(a, b), f"{row.unit_id}: {a} -> {b} is not an open step"
                total += view.edges[a, b][weight]
            expected = _engine_length(row, metric)
            assert (total / 6 if metric == "mp" else total) == expected, row.unit_id


def test_closed_edges_say_why():
    """Enemy units and their ZOC close hexes (7.3), unbridged water and a destroyed bridge close steps."""
    G = _graph("bfn_1944-06-13_am+cut", "german")
    a, b = PONT_HEBERT.split("|")
    for u, v in ((a, b), (b, a)):
        step = G.edges[u, v]
        assert step["destroyed_bridge"] and step["closed"] and step["hexside"] == PONT_HEBERT
        assert step["closed_by"] in ("destroyed_bridge", "blocked_hex")
    intact = _graph("bfn_1944-06-13_am", "german").edges[a, b]
    assert not intact["destroyed_bridge"] and intact["bridge"]
    assert 500 < intact["length"] < 3000  # metres between neighbouring hex centres (OSMnx's edge length)
    report = _report("bfn_1944-06-13_am")
    allied_hex = next(r.hex for r in report.units.values() if r.side == "allied")
    assert G.nodes[allied_hex]["blocked_by"] == "enemy_unit"
    into = next(iter(G.in_edges(allied_hex, data=True)))[2]
    assert into["closed"] and into["closed_by"] == "blocked_hex"
    reasons = {d["closed_by"] for _, _, d in G.edges(data=True)}
    assert {"unbridged_water", "destroyed_bridge", "blocked_hex", ""} <= reasons
    assert "enemy_zoc" in {d["blocked_by"] for _, d in G.nodes(data=True) if d.get("kind") == "hex"}


def test_a_cut_on_the_graph_is_the_engines_cut():
    """Destroying the Pont-Hebert bridge puts German units out (the review's +18); the graph shows why.

    Every unit the engine puts out by that cut had a line over it, or through an HQ whose line was: the
    graph before the cut has it open, after the cut closed, and the unit's target is no longer in reach.
    """
    before, after = _report("bfn_1944-06-13_am"), _report("bfn_1944-06-13_am+cut")
    out = [u for u, r in after.units.items() if r.side == "german" and not r.general and before[u].general]
    assert len(out) >= 10
    G = _graph("bfn_1944-06-13_am+cut", "german")
    view = usable(G)
    limit_mp = G.graph["limit_division_mp"]
    hqs = [u for u in out if after.state.unit(u).hq in ("division", "kg")]
    assert hqs, "the cut puts a division HQ out: its units follow (7.2)"
    for u in hqs:
        assert _nx_length(view, f"unit:{u}", "hq_roots:german", "mp") > limit_mp


def test_every_game_gives_a_graph_and_refuses_a_bad_side():
    """Each registered game has a graph (the scenarios above cover the four); a wrong side is refused."""
    assert set(nl.scenarios()["game"]) == {"bfn", "cobra", "kg", "gts"}
    with pytest.raises(RefusedError, match="'allied' or 'german'"):
        supply_graph(_report("gts_1944-06-08_0700"), "axis")
    both = supply_graph(_report("gts_1944-06-08_0700"))
    assert set(both) == {"allied", "german"} and both["allied"].graph["side"] == "allied"
    gts = both["allied"]
    assert gts.graph["system"] == "gts"
    assert not any(d["target"] for _, d in gts.nodes(data=True) if d.get("kind") == "unit")
    assert nl.supply_graph is supply_graph


def test_cobra_layers_count_a_major_road_run_once():
    """Cobra 10.3f: the count weight is the 10.3 count; cost adds the tie-break of one a hex stepped."""
    G = _graph("cobra_1944-07-16_gt15", "german")
    assert G.graph["scale"] == 4096
    layers = {d["layer"] for _, d in G.nodes(data=True) if d.get("kind") == "hex"}
    assert layers == {0, 1, 2, 3}
    on_road = [d for a, b, d in G.edges(data=True) if a.endswith("~road") and b.endswith("~road")]
    assert on_road and all(d["count"] == 0 and d["cost"] == 1 for d in on_road)


def test_graphml_round_trip(tmp_path):
    """GraphML keeps every attribute typed: the shortest lines read back are the engine's."""
    name = "kg_1944-06-19_t14"
    G = _graph(name, "german")
    path = to_graphml(G, tmp_path / "german.graphml")
    back = nx.read_graphml(path)
    assert back.number_of_nodes() == G.number_of_nodes() and back.number_of_edges() == G.number_of_edges()
    assert back.graph["system"] == "kg" and back.graph["crs"] == "EPSG:2154"
    view = usable(back)
    units = [n for n, d in back.nodes(data=True) if d.get("kind") == "unit" and d["target"]]
    assert units
    for unit in units:
        data = back.nodes[unit]
        assert isinstance(data["general"], bool) and isinstance(data["length_hexes"], float)
        row = _report(name)[data["unit_id"]]
        assert _nx_length(view, unit, data["target"], "hexes") == _engine_length(row, "hexes")


def test_geopackage_round_trip(tmp_path):
    """GeoPackage: hex points, step lines and unit lines in Lambert-93, read back with geopandas."""
    import geopandas as gpd
    import pyogrio

    G = _graph("kg_1944-06-19_t14", "allied")
    path = to_geopackage(G, tmp_path / "allied.gpkg")
    assert {name for name, _ in pyogrio.list_layers(path)} == {"nodes", "units", "edges", "lines"}
    nodes = gpd.read_file(path, layer="nodes")
    edges = gpd.read_file(path, layer="edges")
    lines = gpd.read_file(path, layer="lines")
    assert nodes.crs.to_epsg() == 2154 and edges.crs.to_epsg() == 2154
    assert len(nodes) == sum(1 for _, d in G.nodes(data=True) if d.get("kind") == "hex")
    assert set(edges.geom_type) == {"LineString"} and edges["closed"].dtype == bool
    # Lambert-93 metres: Normandy lies about 350-550 km east and 6.85-6.95 million m north.
    assert nodes.geometry.x.between(3.0e5, 6.0e5).all() and nodes.geometry.y.between(6.8e6, 7.0e6).all()
    traced = {
        d["unit_id"] for _, d in G.nodes(data=True) if d.get("kind") == "unit" and len(d["line"].split()) > 1
    }
    assert set(lines["unit_id"]) == traced


def test_the_docs_example_runs_and_prints_what_it_says(monkeypatch, capsys):
    """docs/studies.md "Supply as a graph": the example runs as printed, and each print is its comment."""
    import re
    from pathlib import Path

    import normandy_lab.interdiction.graph as graph

    text = (Path(__file__).resolve().parents[1] / "docs" / "studies.md").read_text(encoding="utf-8")
    section = text.split("## Supply as a graph", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    written = []  # the files are checked by the round trips above; here only that the example asks for them
    monkeypatch.setattr(graph, "to_graphml", lambda G, path: written.append(path))
    monkeypatch.setattr(graph, "to_geopackage", lambda G, path: written.append(path))
    exec(code, {})
    printed = capsys.readouterr().out.splitlines()
    said = [m.group(1) for m in re.finditer(r"^print\(.*\)  # (.*?)(?::.*)?$", code, re.M)]
    assert len(printed) == len(said) == 4
    for line, comment in zip(printed, said, strict=True):
        assert line == comment, (line, comment)
    assert written == ["german_0613.graphml", "german_0613.gpkg"]


@pytest.mark.parametrize("name", ["bfn_1944-06-13_am", "kg_1944-06-19_t14"])
def test_a_blocked_hex_says_a_true_reason(name):
    """blocked_by is true of the hex: an enemy unit stands there, or it is a vacant hex in the enemy's ZOC."""
    from normandy_lab.engine.zoc import ezoc

    state = _report(name).state
    for side in ("allied", "german"):
        G = _graph(name, side)
        enemy_at = {u.hex for u in state.units if u.side != side and u.status == "active"}
        friendly_at = {u.hex for u in state.units if u.side == side and u.status == "active"}
        in_ezoc = ezoc(state, side)
        said = {
            d["hex"]: d["blocked_by"]
            for _, d in G.nodes(data=True)
            if d.get("kind") == "hex" and d["blocked"]
        }
        assert "enemy_unit" in said.values() and "enemy_zoc" in said.values()
        for hex_id, why in said.items():
            if why == "enemy_unit":
                assert hex_id in enemy_at, hex_id
            elif why == "enemy_zoc":
                assert hex_id in in_ezoc and hex_id not in enemy_at, hex_id
        # and the other way round: every enemy-held hex on the graph is blocked for this side (7.3)
        assert all(said.get(h) == "enemy_unit" for h in enemy_at if h in G and h not in friendly_at)


def test_a_scenario_name_is_loaded_and_a_wrong_source_refused():
    """A scenario's name is a source as a state is; anything else is refused, saying what to give."""
    G = supply_graph("kg_1944-06-19_t14", "allied")
    assert (
        G.graph["system"] == "kg"
        and G.number_of_edges() == _graph("kg_1944-06-19_t14", "allied").number_of_edges()
    )
    with pytest.raises(RefusedError, match="a state, a supply report"):
        supply_graph(42, "allied")


def test_a_game_builds_its_own_network_and_one_without_a_builder_has_no_graph():
    """The graph comes from the game's handle (Game.supply_net); the toy names none and is refused, by name."""
    import sys
    from pathlib import Path

    from normandy_lab import rules

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import toy_game  # registers the toy game (its own map, no supply network to export)

    assert all(rules.game(key).supply_net is not None for key in ("bfn", "cobra", "kg", "gts"))
    assert rules.game("toy").supply_net is None
    with pytest.raises(RefusedError, match=r"no supply graph for the 'toy' rules: the games with one are bfn, cobra"):
        supply_graph(nl.load_scenario(toy_game.SCENARIO), "allied")
