"""Cobra's supply network for :func:`normandy_lab.supply_graph` (10.3): the engine's four-layer graph.

The game's entry on its handle (``Game.supply_net``, :mod:`normandy_lab.rules.supply_net` says why the
builder lives with the game): 10.3's count and the engine's tie-break cost on each step, one target per
side (or, in the Campaign, per army).
"""

from __future__ import annotations

import numpy as np

from normandy_lab.engine.lines import Situation
from normandy_lab.engine.report import SupplyReport
from normandy_lab.rules.cobra.data import army_of
from normandy_lab.rules.cobra.metric import SCALE
from normandy_lab.rules.supply_net import SupplyNet, layered_steps, plain_steps


def supply_net(report: SupplyReport, side: str) -> SupplyNet:
    """Cobra (10.3): the engine's four-layer graph, counts and tie-break costs, one target per group."""
    state = report.state
    groups = {key: s for key, s in report.determination.sides.items() if key.split()[0] == side}
    first = next(iter(groups.values()))
    graph = first.graph
    tail, head, cost, map_edge = layered_steps(state.system, graph)
    net = SupplyNet(
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
            for to, c, why in plain_steps(graph, net.blocked, positions[u.id])
        ]
        net.units[u.id] = (f"sources:{key}", "count", steps)
    return net
