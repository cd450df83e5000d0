"""KG's supply network for :func:`normandy_lab.supply_graph` (26.9-26.11): the hex graph, and the boxes.

The game's entry on its handle (``Game.supply_net``, :mod:`normandy_lab.rules.supply_net` says why the
builder lives with the game): the net the determination searched, 1 a step, with German lines reaching
the off-map boxes through their entry hexes.
"""

from __future__ import annotations

import numpy as np

from normandy_lab.engine.layered import box_links
from normandy_lab.engine.lines import Situation
from normandy_lab.engine.report import SupplyReport
from normandy_lab.gamemap import game_map
from normandy_lab.rules.supply_net import SupplyNet, layered_steps, plain_steps


def supply_net(report: SupplyReport, side: str) -> SupplyNet:
    """KG (26.9-26.11): the plain hex graph at 1 a step; German lines also reach the off-map boxes."""
    state = report.state
    side_net = report.determination.nets[side]  # the net the determination searched (rules.kg.supply)
    graph = side_net.graph
    tail, head, cost, map_edge = layered_steps(state.system, graph)
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
    net = SupplyNet(
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
                 for to, c, why in plain_steps(graph, side_net.blocked, positions[u.id])]  # fmt: skip
        net.units[u.id] = ("box:german" if to_box else reached, "hexes", steps)
    return net
