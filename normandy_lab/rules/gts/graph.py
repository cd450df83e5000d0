"""GTS's supply network for :func:`normandy_lab.supply_graph` (17.3): no line is traced.

The game's entry on its handle (``Game.supply_net``, :mod:`normandy_lab.rules.supply_net` says why the
builder lives with the game): supply is designated, so the network is the plain hex graph, nothing closed,
for the record and the map.
"""

from __future__ import annotations

from normandy_lab.engine.report import SupplyReport
from normandy_lab.rules.supply_net import SupplyNet, plain_hex_net


def supply_net(report: SupplyReport, side: str) -> SupplyNet:
    """GTS (17.3): no line is traced; the plain hex graph, nothing closed, for the record and the map."""
    net = plain_hex_net(report.state)
    net.graph_attrs = {"rules": "GTS 17.3: supply is designated, no line is traced"}
    return net
