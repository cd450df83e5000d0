"""BfN's supply network for :func:`normandy_lab.supply_graph` (7.2-7.4): the hex graph with both costs.

The game's entry on its handle (``Game.supply_net``, :mod:`normandy_lab.rules.supply_net` says why the
builder lives with the game): the 7.3.2 edge costs in hexes, MPs and sixths, unbridged water open to a
unit's first step only, and each leg's target (sources, corps HQs, a division HQ's roots, pathfinders).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from normandy_lab.engine.lines import Situation, blocked_mask
from normandy_lab.engine.report import SupplyReport, UnitSupply
from normandy_lab.gamemap import game_map
from normandy_lab.rules.bfn.lines import supply_edge_costs
from normandy_lab.rules.supply_net import Step, SupplyNet


def supply_net(report: SupplyReport, side: str) -> SupplyNet:
    """BfN (7.2-7.4): the hex graph with both costs, unbridged water open to a unit's first step only.

    Built from the rules' public pieces, as the determination builds its own net: the 7.3.2 edge costs
    (:func:`~normandy_lab.rules.bfn.lines.supply_edge_costs`), the hexes no line may enter
    (:func:`~normandy_lab.engine.lines.blocked_mask`), and the report's sources and in-supply HQs.
    """
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
    net = SupplyNet(
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
        steps: list[Step] = [(at, {}, "")]
        for k in wet_from.get(at, []):
            first = 0 if free else int(costs.first_mp[k])
            steps.append(
                (int(e.dst[k]), {"hexes": 0 if free else 1, "mp": first / 6, "mp_sixths": first},
                 "blocked_hex" if blocked[e.dst[k]] else "")
            )  # fmt: skip
        target, metric = _target(report, side, u, row, limit_hexes)
        net.units[u.id] = (target, metric, steps)
    return net


def _target(report: SupplyReport, side: str, u: Any, row: UnitSupply, limit_hexes: float) -> tuple[str, str]:
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
