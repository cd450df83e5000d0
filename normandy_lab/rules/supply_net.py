"""The network a game's supply determination searched, as plain arrays: what a game hands the studies.

:func:`normandy_lab.supply_graph` (``interdiction/graph.py``) turns one side's supply network into a
networkx graph costed by the game's own rules.  Only the game knows how its determination searched (BfN's
two metrics and legs, Cobra's layered count, KG's off-map boxes, GTS's designation), so the game builds the
network, and the studies turn it into a graph.  This module is the value between them, below both:

* a game provides a function ``supply_net(report, side) -> SupplyNet`` in its own package
  (``rules/<game>/graph.py``), named on its :class:`~normandy_lab.rules.game.Game` handle
  (``Game.supply_net``: the registry's entry for the game, like its rules and look);
* ``supply_graph`` finds it through the registry (``rules.game(state.game).supply_net``) and builds the
  graph from the :class:`SupplyNet` alone.

Why the builder is the game's and the type is here, not in ``interdiction/``: the layers
(``.importlinter``) put the studies above the rules, so a game may not import the studies' room, and the
studies may not name a game.  With the type in the rules' core room (published in
:mod:`normandy_lab.rules.api`), the game imports it downwards and the studies reach the game only through
the registry: no game key in the studies, and no upward import.  The helpers below are the pieces several
games' builders share (a layered graph's steps, a unit's first steps, the plain hex graph).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from normandy_lab.engine.state import GameState
from normandy_lab.gamemap import game_map

#: One first step of a unit's line: (node, {weight: cost}, why it is closed, "" when open).
Step = tuple[int, dict[str, float], str]
#: What a game says of one unit: its target node's name ("" for none), its metric, its first steps.
UnitPlan = tuple[str, str, list[Step]]


@dataclass
class SupplyNet:
    """One side's network as the game searches it, before it becomes a networkx graph.

    Nodes are numbered as the engine's layered graphs number them: ``layer * n_hexes + hex``, then the
    ``virtual`` nodes (targets and boxes, by name).

    Parameters
    ----------
    n_hexes, n_layers, layer_names
        The hexes of the map, the layers of the graph (1 for a plain hex graph) and each layer's label
        (``""`` for the first: its nodes are named by the hex id alone).
    tail, head
        The directed steps, as node numbers.
    weights
        Each weight's cost per step (the names :func:`~normandy_lab.supply_graph` puts in
        ``G.graph["weights"]``).
    map_edge
        The map's directed edge each step runs along (``-1``: a link to a virtual node).
    blocked
        Per node: no line may enter or leave it.
    virtual
        The names of the nodes after the layered ones.
    edge_closed
        Per step, a reason code for an edge closed whatever its hexes (``"unbridged_water"``), ``""`` when
        open; None when the game closes no edge of its own.
    targets
        A target node's name -> the member nodes with an edge into it at no cost.
    units
        A unit's id -> its :data:`UnitPlan`.
    graph_attrs
        The game's limits and rule references, put in ``G.graph``.
    """

    n_hexes: int
    n_layers: int
    layer_names: tuple[str, ...]
    tail: np.ndarray
    head: np.ndarray
    weights: dict[str, np.ndarray]
    map_edge: np.ndarray
    blocked: np.ndarray
    virtual: list[str] = field(default_factory=list)
    edge_closed: np.ndarray | None = None
    targets: dict[str, np.ndarray] = field(default_factory=dict)
    units: dict[str, UnitPlan] = field(default_factory=dict)
    graph_attrs: dict[str, Any] = field(default_factory=dict)


def plain_steps(graph: Any, blocked: np.ndarray, origin: int) -> list[Step]:
    """Return a layered game's first steps (``LayeredGraph.from_origins``): its own node, every edge out.

    The origin's own node never blocks its own line (Cobra 9.1h: an HQ alone in an enemy ZOC still
    traces), so the steps out of it are open unless the hex stepped into is blocked.  Each step's cost is
    given under the weight ``"_cost"``, for the game to rename.
    """
    steps: list[Step] = [(origin, {}, "")]
    for k in range(graph.fwd_ptr[origin], graph.fwd_ptr[origin + 1]):
        to = int(graph.fwd_nbr[k])
        steps.append((to, {"_cost": int(graph.fwd_weight[k])}, "blocked_hex" if blocked[to] else ""))
    return steps


def map_edges(system: str, tail_hex: np.ndarray, head_hex: np.ndarray) -> np.ndarray:
    """Return the map's directed edge between each pair of hexes (-1 where a step joins no two hexes)."""
    between = game_map(system).edge_between
    pairs = zip(tail_hex.tolist(), head_hex.tolist(), strict=True)
    return np.array([between.get((a, b), -1) if a >= 0 and b >= 0 else -1 for a, b in pairs], dtype=np.int64)


def layered_steps(system: str, graph: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return a layered graph's steps: tails, heads, costs, and each step's map edge."""
    hexes = graph.n_hexes * graph.n_layers
    tail, head, cost = graph.tail, graph.head, graph.cost
    tail_hex = np.where(tail < hexes, tail % graph.n_hexes, -1)
    head_hex = np.where(head < hexes, head % graph.n_hexes, -1)
    return tail, head, cost, map_edges(system, tail_hex, head_hex)


def plain_hex_net(state: GameState) -> SupplyNet:
    """Return the plain hex graph of a state's map: 1 a step over every land hexside, nothing blocked.

    For a game that traces no line (its supply is designated) and still shows its map as a network.
    """
    gmap = game_map(state.system)
    e = gmap.edges
    land = np.nonzero(~e.all_sea)[0]
    return SupplyNet(
        n_hexes=len(gmap.grid), n_layers=1, layer_names=("",), tail=e.src[land], head=e.dst[land],
        weights={"hexes": np.ones(len(land), dtype=np.int64)}, map_edge=land,
        blocked=np.zeros(len(gmap.grid), dtype=bool),
    )  # fmt: skip


__all__ = ["Step", "SupplyNet", "UnitPlan", "layered_steps", "map_edges", "plain_hex_net", "plain_steps"]
