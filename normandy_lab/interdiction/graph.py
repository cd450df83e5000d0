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

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, overload

import numpy as np

from normandy_lab.engine.lines import Situation, blocked_mask, interdicted_mask
from normandy_lab.engine.report import SupplyReport, UnitSupply
from normandy_lab.engine.scenario import load_scenario
from normandy_lab.engine.state import GameState, other_side
from normandy_lab.errors import RefusedError
from normandy_lab.gamemap import game_map
from normandy_lab.geo.crs import METRIC_CRS, lonlat_to_metric

if TYPE_CHECKING:
    import networkx as nx

SIDES = ("allied", "german")
#: Why a hex blocks a line, in the order a reason is named when several hold.
HEX_REASONS = ("enemy_unit", "enemy_zoc", "interdicted", "closed_terrain")


@dataclass
class _Net:
    """One side's network as the game searches it, before it becomes a networkx graph.

    Nodes are numbered as the engine's layered graphs number them: ``layer * n_hexes + hex``, then the
    ``virtual`` nodes.  ``tail``/``head``/``weights`` are the directed steps (``hexside`` the map edge each
    runs along, -1 for a link to a virtual node); ``edge_closed`` names edges closed whatever the hexes
    (unbridged water), ``extra`` edges a game adds closed for the record.
    """

    n_hexes: int
    n_layers: int
    layer_names: tuple[str, ...]
    tail: np.ndarray
    head: np.ndarray
    weights: dict[str, np.ndarray]
    map_edge: np.ndarray  # the map's directed edge each step runs along (-1: a link to a virtual node)
    blocked: np.ndarray  # per node
    virtual: list[str] = field(default_factory=list)
    edge_closed: np.ndarray | None = None  # per step: a reason code, "" when open (besides blocked hexes)
    targets: dict[str, np.ndarray] = field(default_factory=dict)  # target node name -> member nodes
    # unit id -> (target node name or "", metric, first steps [(node, {weight: cost}, closed_by)])
    units: dict[str, tuple[str, str, list[tuple[int, dict[str, float], str]]]] = field(default_factory=dict)
    graph_attrs: dict[str, Any] = field(default_factory=dict)


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
    system = report.state.rules.system
    build = _BUILDERS.get(system)
    if build is None:
        raise RefusedError(
            f"no supply graph for the {system!r} rules: the games with one are {', '.join(sorted(_BUILDERS))}"
        )
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


def _node_names(net: _Net, ids: np.ndarray) -> list[str]:
    """Return every node's name: the hex id in layer 0, ``id~label`` in the others, then the virtual nodes."""
    names: list[str] = []
    for layer, label in enumerate(net.layer_names):
        names.extend(ids.tolist() if layer == 0 else [f"{h}~{label}" for h in ids.tolist()])
    return names + list(net.virtual)


def _to_networkx(report: SupplyReport, side: str, net: _Net) -> nx.DiGraph:
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


def _zeros(net: _Net) -> dict[str, float]:
    """Return a step that costs nothing, in each weight's own type (GraphML types a key once)."""
    return {name: 0.0 if values.dtype.kind == "f" else 0 for name, values in net.weights.items()}


# What a game says of one unit: its target node ("" for none), its metric, its first steps.
_Plan = tuple[str, str, list[tuple[int, dict[str, float], str]]]


def _add_unit(
    G: nx.DiGraph, unit: Any, row: UnitSupply, plan: _Plan | None, names: list[str], x: np.ndarray,
    y: np.ndarray, positions: dict[str, int], net: _Net,
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


# -- the games ------------------------------------------------------------------------------------------


def _plain_steps(graph: Any, blocked: np.ndarray, origin: int) -> list[tuple[int, dict[str, float], str]]:
    """Return a layered game's first steps (``LayeredGraph.from_origins``): its own node, every edge out.

    The origin's own node never blocks its own line (Cobra 9.1h: an HQ alone in an enemy ZOC still
    traces), so the steps out of it are open unless the hex stepped into is blocked.
    """
    steps: list[tuple[int, dict[str, float], str]] = [(origin, {}, "")]
    for k in range(graph.fwd_ptr[origin], graph.fwd_ptr[origin + 1]):
        to = int(graph.fwd_nbr[k])
        steps.append((to, {"_cost": int(graph.fwd_weight[k])}, "blocked_hex" if blocked[to] else ""))
    return steps


def _map_edges(system: str, tail_hex: np.ndarray, head_hex: np.ndarray) -> np.ndarray:
    """Return the map's directed edge between each pair of hexes (-1 where a step joins no two hexes)."""
    between = game_map(system).edge_between
    pairs = zip(tail_hex.tolist(), head_hex.tolist(), strict=True)
    return np.array([between.get((a, b), -1) if a >= 0 and b >= 0 else -1 for a, b in pairs], dtype=np.int64)


def _layered(system: str, graph: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return a layered graph's steps: tails, heads, costs, and each step's map edge."""
    hexes = graph.n_hexes * graph.n_layers
    tail, head, cost = graph.tail, graph.head, graph.cost
    tail_hex = np.where(tail < hexes, tail % graph.n_hexes, -1)
    head_hex = np.where(head < hexes, head % graph.n_hexes, -1)
    return tail, head, cost, _map_edges(system, tail_hex, head_hex)


def _bfn(report: SupplyReport, side: str) -> _Net:
    """BfN (7.2-7.4): the hex graph with both costs, unbridged water open to a unit's first step only.

    Built from the rules' public pieces, as the determination builds its own net: the 7.3.2 edge costs
    (:func:`~normandy_lab.rules.bfn.lines.supply_edge_costs`), the hexes no line may enter
    (:func:`~normandy_lab.engine.lines.blocked_mask`), and the report's sources and in-supply HQs.
    """
    from normandy_lab.rules.bfn.lines import supply_edge_costs

    state = report.state
    rules = state.rules
    situation = Situation.of(state)
    costs = supply_edge_costs(rules, state.destroyed_bridges)
    blocked = blocked_mask(state, side, situation)
    gmap = game_map(state.system)
    g, e = gmap.grid, gmap.edges
    land = np.nonzero(costs.land)[0]
    edge_closed = np.where(costs.open[land], "", "unbridged_water").astype(object)
    destroyed = gmap.terrain.hexsides.index.isin(list(state.destroyed_bridges))
    edge_closed[(edge_closed != "") & destroyed[e.side[land]]] = "destroyed_bridge"
    mp_sixths = costs.mp[land].astype(np.int64)
    net = _Net(
        n_hexes=len(g), n_layers=1, layer_names=("",), tail=e.src[land], head=e.dst[land],
        weights={"hexes": np.ones(len(land), dtype=np.int64), "mp": mp_sixths / 6, "mp_sixths": mp_sixths},
        map_edge=land, blocked=np.asarray(blocked, dtype=bool).copy(), edge_closed=edge_closed,
    )  # fmt: skip
    factor = 0.5 if report.halved else 1.0  # 7.3.3
    limit_hexes = rules.supply["unit_range_hexes"] * factor
    net.graph_attrs = {
        "limit_hexes": float(limit_hexes), "limit_mp": float(rules.supply["unit_range_mp"] * factor),
        "limit_division_mp": float(rules.supply["division_hq_range_mp"] * factor),
        "halved": bool(report.halved),
        "rules": "BfN 7.2, 7.3, 7.3.2, 7.3.3, 7.4",
        "hq_bridging": str(state.options.get("hq_bridging", rules.options.get("hq_bridging", ""))),
    }  # fmt: skip
    # The targets of each leg (7.2): the sources; the in-supply corps HQs (and, until 11 June, the
    # Allied beachheads, which act as corps HQs); both for a division HQ's own 20 MP.
    sources = sorted({g.index(h) for h in report.sources.get(side, [])})
    corps = {
        situation.position[u.id]
        for u in state.units_of(side)
        if u.hq == "corps" and report.units[u.id].general
    }
    until = rules.supply.get("beachheads_are_corps_hq_until")
    if side == "allied" and until and state.date < dt.date.fromisoformat(until):
        corps |= set(sources)
    targets = {
        f"sources:{side}": sources, f"corps:{side}": sorted(corps),
        f"hq_roots:{side}": sorted(corps | set(sources)),
    }  # fmt: skip
    turns = {tuple(t) for t in rules.supply.get("pathfinder_turns", ())}
    if side == "allied" and state.pathfinders and (state.date.isoformat(), state.turn) in turns:
        targets[f"pathfinders:{side}"] = sorted(g.index(h) for h in state.pathfinders)
    net.virtual = list(targets)
    net.targets = {name: np.asarray(members, dtype=np.int64) for name, members in targets.items()}
    wet_from: dict[int, list[int]] = {}
    for k in np.nonzero(costs.first)[0].tolist():
        wet_from.setdefault(int(e.src[k]), []).append(k)
    for u in state.units_of(side):
        row = report.units[u.id]
        at = situation.position[u.id]
        free = bool(u.hq)  # an HQ counts from the far bank (7.3.2 exception, 14.2.1)
        steps: list[tuple[int, dict[str, float], str]] = [(at, {}, "")]
        for k in wet_from.get(at, []):
            first = 0 if free else int(costs.first_mp[k])
            steps.append(
                (int(e.dst[k]), {"hexes": 0 if free else 1, "mp": first / 6, "mp_sixths": first},
                 "blocked_hex" if blocked[e.dst[k]] else "")
            )  # fmt: skip
        target, metric = _bfn_target(report, side, u, row, limit_hexes)
        net.units[u.id] = (target, metric, steps)
    return net


def _bfn_target(
    report: SupplyReport, side: str, u: Any, row: UnitSupply, limit_hexes: float
) -> tuple[str, str]:
    """Return the node a BfN unit's leg ends at and the metric it is counted in ("" for no line)."""
    if u.hq == "corps":
        return f"sources:{side}", "hexes"  # any length to a source (7.2)
    if u.hq in ("division", "kg"):
        return f"hq_roots:{side}", "mp"  # 20 MP to a source or an in-supply corps HQ (7.2)
    if not row.general or not row.path:
        return "", ""
    metric = "hexes" if row.length_hexes <= limit_hexes else "mp"
    kind = row.traced_kind
    if kind == "source":
        return f"sources:{side}", metric
    if kind == "pathfinder":
        return f"pathfinders:{side}", metric
    if kind == "corps HQ":
        return f"corps:{side}", metric
    if kind in ("division HQ", "attached"):
        return report.state.unit(row.traced_id).hex, metric
    return "", ""


def _cobra(report: SupplyReport, side: str) -> _Net:
    """Cobra (10.3): the engine's four-layer graph, counts and tie-break costs, one target per group."""
    from normandy_lab.rules.cobra.data import army_of
    from normandy_lab.rules.cobra.metric import SCALE

    state = report.state
    groups = {key: s for key, s in report.determination.sides.items() if key.split()[0] == side}
    first = next(iter(groups.values()))
    graph = first.graph
    tail, head, cost, map_edge = _layered(state.system, graph)
    net = _Net(
        n_hexes=graph.n_hexes, n_layers=graph.n_layers, layer_names=("", "road", "marsh", "road+marsh"),
        tail=tail, head=head, weights={"count": cost // SCALE, "cost": cost}, map_edge=map_edge,
        blocked=first.blocked.copy(),
    )  # fmt: skip
    net.graph_attrs = {
        "scale": SCALE,
        "limit_count": int(report.determination.limit),
        "rules": "Cobra 10.3-10.5",
    }
    for key, group in groups.items():
        net.targets[f"sources:{key}"] = np.asarray(group.roots, dtype=np.int64)
    net.virtual = list(net.targets)
    positions = Situation.of(state).position
    exempt = state.rules.exemption(state)
    for u in state.units_of(side):
        if u.status != "active" or exempt:
            continue
        key = side if side in groups else f"{side} {army_of(u)}"
        if key not in groups:
            continue
        steps = [
            (to, {"count": c["_cost"] // SCALE, "cost": c["_cost"]} if c else {}, why)
            for to, c, why in _plain_steps(graph, net.blocked, positions[u.id])
        ]
        net.units[u.id] = (f"sources:{key}", "count", steps)
    return net


def _kg(report: SupplyReport, side: str) -> _Net:
    """KG (26.9-26.11): the plain hex graph at 1 a step; German lines also reach the off-map boxes."""
    from normandy_lab.engine.layered import box_links

    state = report.state
    side_net = report.determination.nets[side]  # the net the determination searched (rules.kg.supply)
    graph = side_net.graph
    tail, head, cost, map_edge = _layered(state.system, graph)
    n = graph.n_hexes
    virtual: list[str] = []
    if side == "german":
        # One node for every German box still German (26.11.2): entered from its entry hexes and left
        # onto them at no cost, as the determination's own box graph joins them.
        boxes = [b for b in state.rules.boxes.values() if b.side == "german"]
        held = [b for b in boxes if state.markers["omm_control"].get(b.name, "german") == "german"]
        links = box_links(n, 1, held, game_map(state.system).grid.index) if held else []
        extra_tail = [k.source if k.source < n else n for k in links]
        extra_head = [k.target if k.target < n else n for k in links]
        tail = np.concatenate([tail, np.asarray(extra_tail, dtype=np.int64)])
        head = np.concatenate([head, np.asarray(extra_head, dtype=np.int64)])
        cost = np.concatenate([cost, np.asarray([k.cost for k in links], dtype=np.int64)])
        map_edge = np.concatenate([map_edge, np.full(len(links), -1, dtype=np.int64)])
        virtual.append("box:german")
    blocked = np.concatenate([np.asarray(side_net.blocked, dtype=bool), np.zeros(len(virtual), dtype=bool)])
    net = _Net(
        n_hexes=n, n_layers=1, layer_names=("",), tail=tail, head=head, weights={"hexes": cost},
        map_edge=map_edge, blocked=blocked, virtual=virtual,
    )  # fmt: skip
    net.graph_attrs = {
        "limit_hexes": float(report.determination.limits.get(side, -1)),
        "rules": "KG 26.9-26.11",
    }
    positions = Situation.of(state).position
    for u in state.units_of(side):
        row = report.units[u.id]
        if u.status != "active" or not row.path:
            continue
        reached = row.path[-1]
        # A German corps HQ's line runs to an off-map box (KG 11.2.3); the Cherbourg HQ's to N1410 (26.10.7),
        # told apart by its name as the determination tells it.
        to_box = side == "german" and u.hq is not None and "cherbourg" not in u.name.lower()
        steps = [(to, {"hexes": c["_cost"]} if c else {}, why)
                 for to, c, why in _plain_steps(graph, side_net.blocked, positions[u.id])]  # fmt: skip
        net.units[u.id] = ("box:german" if to_box else reached, "hexes", steps)
    return net


def _gts(report: SupplyReport, side: str) -> _Net:
    """GTS (17.3): no line is traced; the plain hex graph, nothing closed, for the record and the map."""
    state = report.state
    gmap = game_map(state.system)
    e = gmap.edges
    land = np.nonzero(~e.all_sea)[0]
    net = _Net(
        n_hexes=len(gmap.grid), n_layers=1, layer_names=("",), tail=e.src[land], head=e.dst[land],
        weights={"hexes": np.ones(len(land), dtype=np.int64)}, map_edge=land,
        blocked=np.zeros(len(gmap.grid), dtype=bool),
    )  # fmt: skip
    net.graph_attrs = {"rules": "GTS 17.3: supply is designated, no line is traced"}
    return net


_BUILDERS: dict[str, Callable[[SupplyReport, str], _Net]] = {
    "bfn": _bfn,
    "cobra": _cobra,
    "kg": _kg,
    "gts": _gts,
}

__all__ = ["HEX_REASONS", "supply_graph", "to_geopackage", "to_graphml", "usable"]
