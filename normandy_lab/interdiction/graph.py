"""Supply as a graph an analyst can take away: one side's supply network as a networkx graph (issue 34, §2).

:func:`supply_graph` hands back the network a game's supply determination searched, as a
:class:`networkx.DiGraph` whose edge weights are the costs the game's own rules give a line, so that
``nx.shortest_path``, ``nx.minimum_edge_cut`` or any OSMnx-style analysis run on it and agree with the
engine.  :func:`to_graphml` and :func:`to_geopackage` write it for other tools.

What is in the graph
--------------------
*Hex nodes* are named by their canonical hex id (``"B4114"``) and carry ``hex``, ``x`` and ``y`` (metres
in the project CRS, ``EPSG:2154``: ``G.graph["crs"]``, as OSMnx keeps its graphs), ``lon``, ``lat``,
``terrain``, ``source`` (a supply source of the side) and ``blocked`` with ``blocked_by`` (why no line
may enter or leave it: ``enemy_unit``, ``enemy_zoc``, ``interdicted``, ``closed_terrain``).  The sea and
the sheets not in play are left out (no line ever enters them), except a hex a unit stands in.

*Edges* are the directed steps between hexes (both directions of every land hexside), with ``hexside``
(the ``"A|B"`` key a :class:`~normandy_lab.interdiction.Target` of kind ``"bridge"`` takes),
``water`` (the water crossed, "" for none), ``bridge`` (a road or rail bridge stands on it),
``destroyed_bridge``, ``length`` (metres between the hex centres, as OSMnx's edges have), ``closed`` and
``closed_by`` (``blocked_hex``, ``unbridged_water``,
``destroyed_bridge``, ``no_line_crosses``: "" when open), and the game's costs, named in
``G.graph["weights"]``.  A closed edge's costs say what the step would cost were it open.

*Unit nodes* ``"unit:<id>"`` carry the unit's report: ``unit_id``, ``name``, ``formation``, ``general``,
``combat``, ``isolated``, ``code`` (why it is out of supply, "" in supply), ``traced_kind``, ``traced_id``,
``line`` (its hexes, space-joined, from the unit to what it reached), ``length_hexes``, ``length_mp``,
``metric`` (the weight its line is counted in), ``target`` (the node its line must reach; "" for a unit
that traces no line) and ``limit``.  A unit node's out-edges are the unit's own first step, as the
game allows it: to its own hex at no cost, and wherever the rules let a line start differently (BfN: across
unbridged water, 7.3.2).

*Target nodes* ``"sources:<side>"`` and the like join what a leg of a line may end at: every member hex has
an edge into it at no cost.  So one unit's line is one ordinary shortest path::

    view = usable(G)                        # the open edges only
    u = "unit:DE-17SS-HQ"
    nx.shortest_path_length(view, u, G.nodes[u]["target"], weight=G.nodes[u]["metric"])

Who builds what
---------------
Only a game knows how its determination searched, so each game builds its own network
(:class:`~normandy_lab.rules.supply_net.SupplyNet`, plain arrays) in its package (``rules/<game>/graph.py``)
and names that function on its handle (``Game.supply_net``).  This module finds it through the registry
(``rules.game(state.game).supply_net``) and turns the net into a graph.  The layers (``.importlinter``) put
the studies above the rules: this module names no game and imports no game module, and a game imports
only the net's type, from the rules' core (``rules/supply_net.py``), never this room.  A game without a
builder has no supply graph (the error names the games that do).

How each game counts (and how the graph says it)
------------------------------------------------
The Battle for Normandy (7.2, 7.3)
    Weights ``hexes`` (1 a step), ``mp`` (supply MPs at infantry rates, 7.3.2) and ``mp_sixths`` (the same
    in whole sixths, as the engine counts: exact sums).  A unit traces "6 hexes or 6 MP": both weights
    are on every edge and ``length_hexes``/``length_mp`` are the two shortest lines to the same target;
    ``metric`` is the one that met the limit.  The lines have legs (unit -> division HQ -> corps HQ ->
    source): each unit's leg ends at its own ``target`` (``sources:<side>``, ``corps:<side>``, the HQ's hex,
    ``pathfinders:<side>``; a division HQ's own leg at ``hq_roots:<side>``, the sources and the in-supply
    corps HQs within 20 MP; a corps HQ's at the sources, at any length in hexes).  Unbridged water closes
    an edge (``unbridged_water``) except for the tracing unit's first step: the unit node's edges across it
    cost that crossing (an HQ's cost nothing: it counts from the far bank, 7.3.2 exception, 14.2.1).  Bad
    weather halves the ranges, not the costs (7.3.3): ``G.graph["limit_hexes"]`` and ``["limit_mp"]``.
    Under the reading ``hq_bridging="for_its_units"`` (not the default) an in-supply HQ also bridges the
    water around it for its own units; that opening is one formation's, so the graph keeps those hexsides
    closed and says so in ``G.graph["hq_bridging"]``: a unit supplied that way has a line over a closed edge.
Cobra (10.3)
    A line's count is not a sum of per-hex costs: a run along a major road counts 1 however long (10.3f)
    and a line crosses at most one marsh hex off the roads (10.3b4).  The graph is the engine's layered
    graph: a hex node per state of the line (``"A1212"`` fresh, ``"A1212~road"`` arrived along a major road,
    ``"A1212~marsh"`` marsh hex spent, ``"A1212~road+marsh"``), ``layer`` on each node.  Weight ``count``
    is the 10.3 count of a step (its shortest path is the unit's ``length_hexes``); ``cost`` adds 1 a hex
    stepped, the engine's tie-break that picks the drawn line among those of equal count
    (``count = cost // G.graph["scale"]``).  Every unit's target is its side's (or, in the Campaign, its
    army's) sources.
The Killing Ground (26.9-26.11)
    Weight ``hexes``, 1 a step over every land hexside (rivers are crossed, RECONSTRUCTED).  German lines to
    an off-map box reach the node ``box:german`` through the boxes' entry hexes (26.11.2, KG 11.2.3).  A
    unit's ``target`` is the hex (or box) its line reached: the nearest of the targets its rules give it.
The Greatest Day (17.3)
    No line is traced (supply is designated): the graph is the plain hex graph (``hexes``), nothing is
    closed, and every unit node's ``target`` is "".

Examples
--------
>>> import networkx as nx, normandy_lab as nl
>>> from normandy_lab.interdiction.graph import usable
>>> G = nl.supply_graph(nl.load_scenario("bfn_1944-06-13_am"), "german")  # doctest: +SKIP
>>> u = "unit:DE-17SS-HQ"  # the 17. SS-Panzergrenadier-Division's HQ: 20 MP to a source or corps HQ (7.2)
>>> nx.shortest_path_length(usable(G), u, G.nodes[u]["target"], weight="mp")  # doctest: +SKIP
19.5
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

import numpy as np

from normandy_lab.engine.lines import Situation, interdicted_mask
from normandy_lab.engine.report import SupplyReport, UnitSupply
from normandy_lab.engine.scenario import load_scenario
from normandy_lab.engine.state import GameState, other_side
from normandy_lab.errors import RefusedError
from normandy_lab.gamemap import game_map
from normandy_lab.geo.crs import METRIC_CRS, lonlat_to_metric
from normandy_lab.rules.supply_net import SupplyNet, UnitPlan

if TYPE_CHECKING:
    import networkx as nx

SIDES = ("allied", "german")
#: Why a hex blocks a line, in the order a reason is named when several hold.
HEX_REASONS = ("enemy_unit", "enemy_zoc", "interdicted", "closed_terrain")


# -- the public API -------------------------------------------------------------------------------------


@overload
def supply_graph(source: GameState | SupplyReport | str, side: str) -> nx.DiGraph: ...
@overload
def supply_graph(source: GameState | SupplyReport | str, side: None = None) -> dict[str, nx.DiGraph]: ...


def supply_graph(source: GameState | SupplyReport | str, side: str | None = None) -> Any:
    """Return one side's supply network as a networkx graph, costed by the game's own rules.

    Parameters
    ----------
    source
        A state (its supply is determined first), a supply report (:func:`normandy_lab.supply`), or a
        scenario's name or path (loaded).
    side
        ``"allied"`` or ``"german"``; ``None`` gives both, as ``{side: graph}``.

    Returns
    -------
    networkx.DiGraph
        Hex nodes, unit nodes and target nodes with the attributes the module docstring lists; edges
        with their costs (``G.graph["weights"]``) and ``closed``.  Run searches on :func:`usable` (the
        open edges).  ``G.graph`` holds ``system``, ``side``, ``scenario`` (the state's date and turn),
        ``crs`` and the game's limits.

    Raises
    ------
    RefusedError
        ``side`` is not a side, ``source`` is none of the above, or the game has no supply network to
        export (naming the games that do).
    """
    if isinstance(source, str | Path):
        source = load_scenario(source)
    if isinstance(source, SupplyReport):
        report = source
    elif isinstance(source, GameState):
        report = source.rules.determine_supply(source)
    else:
        raise RefusedError(
            f"source={type(source).__name__}: give a state, a supply report (nl.supply(state)) or a "
            "scenario's name, as nl.scenarios() lists them"
        )
    if side is None:
        return {s: supply_graph(report, s) for s in SIDES}
    if side not in SIDES:
        raise RefusedError(f"side={side!r}: a supply graph is one side's; use 'allied' or 'german'")
    # The game builds its network (Game.supply_net, found through the registry: this room names no game
    # and a game imports nothing of it; rules/supply_net.py says why); this module makes it a graph.
    from normandy_lab.rules import game, games

    key = report.state.game
    build = game(key).supply_net
    if build is None:
        with_one = ", ".join(g.key for g in games() if g.supply_net is not None)
        raise RefusedError(f"no supply graph for the {key!r} rules: the games with one are {with_one}")
    return _to_networkx(report, side, build(report, side))


def usable(G: nx.DiGraph) -> nx.DiGraph:
    """Return a read-only view of ``G`` without its closed edges: the network a line may use."""
    import networkx as nx

    return nx.subgraph_view(G, filter_edge=lambda a, b: not G.edges[a, b]["closed"])


def to_graphml(G: nx.DiGraph, path: str | Path) -> Path:
    """Write a supply graph as GraphML (every attribute is a typed scalar) and return the path.

    Read it back with ``nx.read_graphml(path)``; Gephi, yEd, igraph and R read it too.
    """
    import networkx as nx

    path = Path(path)
    nx.write_graphml(G, path)
    return path


def to_geopackage(G: nx.DiGraph, path: str | Path) -> Path:
    """Write a supply graph as a GeoPackage in the project CRS (``EPSG:2154``) and return the path.

    Four layers: ``nodes`` (a point per hex node, every layer of a layered game), ``units`` (a point per
    unit node, at its hex, with its report), ``edges`` (a line per step between two hex nodes, with its
    costs and ``closed``) and ``lines`` (each unit's traced line, with its lengths; none for a game that
    traces no line).  Target nodes have no place and are left out; their members are the
    hex nodes with an edge into them.  Read back with ``geopandas.read_file(path, layer="edges")``.
    """
    import geopandas as gpd
    import shapely

    path = Path(path)
    crs = G.graph["crs"]
    frames = {}
    for kind, layer in (("hex", "nodes"), ("unit", "units")):
        rows, points = [], []
        for name, data in G.nodes(data=True):
            if data.get("kind") == kind and np.isfinite(data["x"]):
                rows.append({"node": name, **data})
                points.append(shapely.Point(data["x"], data["y"]))
        frames[layer] = gpd.GeoDataFrame(rows, geometry=points, crs=crs)
    rows, segments = [], []
    for a, b, data in G.edges(data=True):
        da, db = G.nodes[a], G.nodes[b]
        if da.get("kind") == "hex" and db.get("kind") == "hex":
            rows.append({"source": a, "target": b, **data})
            segments.append(shapely.LineString([(da["x"], da["y"]), (db["x"], db["y"])]))
    edges = gpd.GeoDataFrame(rows, geometry=segments, crs=crs)
    rows, lines = [], []
    xy = {d["hex"]: (d["x"], d["y"]) for _, d in G.nodes(data=True) if d.get("kind") == "hex"}
    for _name, data in G.nodes(data=True):
        hexes = data.get("line", "").split()
        if data.get("kind") == "unit" and len(hexes) >= 2 and all(h in xy for h in hexes):
            keep = ("unit_id", "name", "formation", "general", "traced_kind", "traced_id", "length_hexes",
                    "length_mp", "metric", "line")  # fmt: skip
            rows.append({k: data[k] for k in keep})
            lines.append(shapely.LineString([xy[h] for h in hexes]))
    line_frame = gpd.GeoDataFrame(rows, geometry=lines, crs=crs)
    if path.exists():
        path.unlink()  # a GeoPackage is appended to by layer: start a fresh file
    for layer, frame in (*frames.items(), ("edges", edges), ("lines", line_frame)):
        if len(frame):  # a graph with no traced line (GTS) has no "lines" layer
            frame.to_file(path, layer=layer, driver="GPKG")
    return path


# -- turning a net into a networkx graph ---------------------------------------------------------------


def _hex_reasons(state: GameState, side: str, blocked_hexes: np.ndarray) -> np.ndarray:
    """Return, per hex, why it blocks a line of ``side`` (a code of :data:`HEX_REASONS`; "" if it does not).

    The engine's own mask says *whether* (``blocked_hexes``); this says *why*, from the same facts
    (:func:`~normandy_lab.engine.lines.blocked_mask`); a hex the game blocks for a reason of its own is
    ``"blocked"``.
    """
    situation = Situation.of(state)
    enemy = other_side(side)
    why = np.full(len(blocked_hexes), "", dtype=object)
    closed = game_map(state.system).closed(state.maps)
    checks = (
        situation.occupied[enemy],
        situation.zoc[enemy] & ~situation.negating[side],
        interdicted_mask(state),
        closed,
    )
    for code, mask in reversed(list(zip(HEX_REASONS, checks, strict=True))):  # the first named wins
        why[mask & blocked_hexes] = code
    why[blocked_hexes & (why == "")] = "blocked"
    return why


def _node_names(net: SupplyNet, ids: np.ndarray) -> list[str]:
    """Return every node's name: the hex id in layer 0, ``id~label`` in the others, then the virtual nodes."""
    names: list[str] = []
    for layer, label in enumerate(net.layer_names):
        names.extend(ids.tolist() if layer == 0 else [f"{h}~{label}" for h in ids.tolist()])
    return names + list(net.virtual)


def _to_networkx(report: SupplyReport, side: str, net: SupplyNet) -> nx.DiGraph:
    """Build the graph: hex, target and unit nodes with their attributes, and the costed steps."""
    import networkx as nx

    state = report.state
    gmap = game_map(state.system)
    g = gmap.grid
    ids = g.id_array
    names = _node_names(net, ids)
    hex_blocked = net.blocked[: net.n_hexes]
    hex_why = _hex_reasons(state, side, hex_blocked)
    positions = Situation.of(state).position
    standing = np.zeros(net.n_hexes, dtype=bool)
    standing[[positions[u.id] for u in state.units_of(side)]] = True
    keep_hex = ~gmap.closed(state.maps) | standing
    keep = np.concatenate([np.tile(keep_hex, net.n_layers), np.ones(len(net.virtual), dtype=bool)])
    lon, lat = g.centers()
    x, y = lonlat_to_metric(lon, lat)
    terrain = gmap.terrain.hexes["terrain"].fillna("").astype(str).to_numpy()
    source = np.zeros(net.n_hexes, dtype=bool)
    source[[g.index(h) for h in report.sources.get(side, [])]] = True
    G = nx.DiGraph()
    G.graph.update(
        system=state.system, side=side, crs=METRIC_CRS, date=state.date.isoformat(), turn=str(state.turn),
        weather=str(state.weather), weights=" ".join(net.weights), **net.graph_attrs,
    )  # fmt: skip
    for node in np.nonzero(keep[: net.n_hexes * net.n_layers])[0].tolist():
        h = node % net.n_hexes
        G.add_node(
            names[node], kind="hex", hex=str(ids[h]), layer=node // net.n_hexes, x=float(x[h]), y=float(y[h]),
            lon=float(lon[h]), lat=float(lat[h]), terrain=terrain[h], source=bool(source[h]),
            blocked=bool(hex_blocked[h]), blocked_by=hex_why[h],
        )  # fmt: skip
    for name in net.virtual:
        G.add_node(name, kind="target" if name in net.targets else "box", hex="", layer=-1)
    # The steps: closed by a blocked end, or by the game's own reason for the edge.
    tmap = gmap.terrain
    sides_index = tmap.hexsides.index.to_numpy()
    water = tmap.hexsides["water_name"].fillna("").astype(str).to_numpy()
    e = gmap.edges
    bridge = e.road_bridge | e.rail_bridge
    destroyed = tmap.hexsides.index.isin(list(state.destroyed_bridges))
    step_keep = keep[net.tail] & keep[net.head]
    closed_by = np.where(net.blocked[net.tail] | net.blocked[net.head], "blocked_hex", "").astype(object)
    if net.edge_closed is not None:
        closed_by = np.where(closed_by == "", net.edge_closed, closed_by)
    weight_lists = {name: values.tolist() for name, values in net.weights.items()}
    zeros = _zeros(net)
    tails, heads, map_edges, why = (
        net.tail.tolist(),
        net.head.tolist(),
        net.map_edge.tolist(),
        closed_by.tolist(),
    )
    # Metres between the two hex centres of each step (OSMnx's ``length``); 0 for a link to a virtual node.
    along = np.maximum(net.map_edge, 0)
    lengths = np.where(
        net.map_edge >= 0, np.hypot(x[e.src[along]] - x[e.dst[along]], y[e.src[along]] - y[e.dst[along]]), 0.0
    ).tolist()
    rows = []
    for k in np.nonzero(step_keep)[0].tolist():
        m = map_edges[k]
        attrs = {name: values[k] for name, values in weight_lists.items()}
        if m >= 0:
            s = e.side[m]
            attrs.update(
                hexside=str(sides_index[s]), water=water[s], bridge=bool(bridge[m]),
                destroyed_bridge=bool(bridge[m] and destroyed[s]), length=lengths[k],
            )  # fmt: skip
        else:
            attrs.update(hexside="", water="", bridge=False, destroyed_bridge=False, length=0.0)
        attrs.update(closed=bool(why[k]), closed_by=why[k])
        rows.append((names[tails[k]], names[heads[k]], attrs))
    G.add_edges_from(rows)
    for target, members in net.targets.items():
        G.add_edges_from(
            (names[m], target, {**zeros, "hexside": "", "water": "", "bridge": False,
                                "destroyed_bridge": False, "length": 0.0, "closed": False, "closed_by": ""})
            for m in members.tolist() if names[m] in G
        )  # fmt: skip
    records = {u.id: u for u in state.units}
    for unit_id, row in report.units.items():
        if row.side != side:
            continue
        _add_unit(G, records.get(unit_id), row, net.units.get(unit_id), names, x, y, positions, net)
    return G


def _zeros(net: SupplyNet) -> dict[str, float]:
    """Return a step that costs nothing, in each weight's own type (GraphML types a key once)."""
    return {name: 0.0 if values.dtype.kind == "f" else 0 for name, values in net.weights.items()}


def _add_unit(
    G: nx.DiGraph, unit: Any, row: UnitSupply, plan: UnitPlan | None, names: list[str], x: np.ndarray,
    y: np.ndarray, positions: dict[str, int], net: SupplyNet,
) -> None:  # fmt: skip
    """Add a unit's node with its report, and its first steps (what its line may start with)."""
    target, metric, steps = plan if plan is not None else ("", "", [])
    h = positions.get(row.unit_id, -1)
    node = f"unit:{row.unit_id}"
    G.add_node(
        node, kind="unit", hex=row.hex, layer=-1, unit_id=row.unit_id,
        name=(unit.name or "") if unit else "", formation=(unit.formation or "") if unit else "",
        x=float(x[h]) if h >= 0 else float("nan"), y=float(y[h]) if h >= 0 else float("nan"),
        general=bool(row.general), combat=bool(row.combat), isolated=bool(row.isolated), code=row.code,
        traced_kind=row.traced_kind, traced_id=row.traced_id, line=" ".join(row.path),
        length_hexes=float(row.length_hexes), length_mp=float(row.length_mp), metric=metric, target=target,
        limit=row.limit,
    )  # fmt: skip
    ux, uy = G.nodes[node]["x"], G.nodes[node]["y"]
    for to, costs, why in steps:
        if names[to] not in G:
            continue
        there = G.nodes[names[to]]
        G.add_edge(
            node, names[to], **{**_zeros(net), **costs}, hexside="", water="", bridge=False,
            destroyed_bridge=False, length=float(np.hypot(there["x"] - ux, there["y"] - uy)),
            closed=bool(why), closed_by=why,
        )  # fmt: skip


__all__ = ["HEX_REASONS", "supply_graph", "to_geopackage", "to_graphml", "usable"]
