"""The references BfN's fast supply searches are proven equal to: networkx, with weights of its own.

:func:`supply_networkx` computes every unit's supply-MP distance to its side's nearest source with
networkx, working out each step's cost and the closed hexes by itself; :func:`supply_distances` asks the
compiled search the same question.  The tests compare the two on several scenarios.
"""

from __future__ import annotations

from typing import Any

from normandy_lab.engine.state import GameState
from normandy_lab.engine.zoc import ezoc
from normandy_lab.grids import grid
from normandy_lab.network import to_networkx
from normandy_lab.rules.api import INF, as_mp
from normandy_lab.rules.bfn.supply import german_sources, side_lines
from normandy_lab.terrain import terrain_map


def supply_networkx(state: GameState, side: str) -> dict[str, float]:
    """Compute each unit's supply-MP distance to the nearest source with networkx (the reference).

    Nothing here is the fast path's: the weight of each step is worked out from
    the networkx graph's own edge attributes (road, railway, water, bridges,
    the terrain entered) and the rule system's tables (7.3.2), and the hexes a
    line may not enter from the units, their zones of control
    (:func:`~normandy_lab.engine.zoc.ezoc`) and the interdictions (7.3), so
    that the tests compare two determinations, not one Dijkstra with another.
    Unbridged water is closed here (the first-step exception is not applied:
    the tests compare plain distances).
    """
    import networkx as nx


    rules = state.rules
    graph = to_networkx(terrain_map(state.system, progress=False))
    infantry = rules.terrain_cost["infantry"]
    road_rate = rules.supply["road_cost"]
    other = "german" if side == "allied" else "allied"
    friendly = {u.hex for u in state.units_of(side) if u.status == "active"}
    enemy = {u.hex for u in state.units_of(other) if u.status == "active"}
    closed = enemy | (ezoc(state, side) - friendly)
    if state.options.get("what_if_interdiction", "block") == "block":
        closed |= set(state.interdicted_hexes)
    closed |= {h for h, d in graph.nodes(data=True) if d["terrain"] in ("Sea", "All Sea", "Impassable")}

    def entering(data: dict[str, Any]) -> float:
        """Supply MP of entering a hex off the road (7.3.2: infantry rates; City 1; marsh its own cost)."""
        if data["settlement"] == "City":
            return 1.0
        cost = infantry.get(data["terrain"])
        if cost == "all":
            return float(rules.supply["marsh_supply_cost"])
        return float(cost or 0.0) or 1.0

    def weight(u: str, v: str, data: dict[str, Any]) -> float | None:
        # The search runs from the sources outward over the reversed graph: this is the step v -> u.
        step = graph.edges[v, u]
        bridged = (step["road_bridge"] or step["rail_bridge"]) and "|".join(
            sorted((u, v))
        ) not in state.destroyed_bridges
        if step["all_sea"] or u in closed or v in closed or (step["water"] != "none" and not bridged):
            return None
        if step["road"] != "none":
            return float(road_rate[step["road"]])
        return float(road_rate["railway"]) if step["railway"] else entering(step)

    if side == "allied":
        sources = [b.hex for b in state.beachheads]
    else:
        sources = [str(grid(state.system).id_array[i]) for i in german_sources(state, rules)]
    dist = nx.multi_source_dijkstra_path_length(graph.reverse(copy=False), sources, weight=weight)
    return {u.id: float(dist.get(u.hex, INF)) for u in state.units_of(side)}


def supply_distances(state: GameState, side: str) -> dict[str, float]:
    """Compute each unit's plain supply-MP distance to the nearest source on the fast path."""
    rules = state.rules
    g = grid(state.system)
    lines = side_lines(state, side)
    if side == "allied":
        sources = sorted({g.index(b.hex) for b in state.beachheads})
    else:
        sources = german_sources(state, rules)
    dist, _ = lines.search(sources, "mp")
    return {u.id: float(as_mp(dist[g.index(u.hex)])) for u in state.units_of(side)}
