"""Attachment: which units with no line of their own an in-supply division or KG HQ takes (BfN 7.2, 20.3).

A division HQ in General Supply supplies its own units and up to three
others (7.2): corps units, and at most one non-artillery unit of another
division.  The German player may attach division and corps artillery to
any division (Allied divisional artillery never leaves its division).  A
German KG HQ takes six units of any division or corps (20.3).  Some units
attach without using a place (ships, Crocodiles, AVREs: the Attachment
Reference Chart, exception 2); those are settled before this module runs.

The owner chooses the attachments, so the engine chooses as the owner
would: the most units supplied, and among the ways to supply that many,
the shortest lines.  That is a minimum-cost maximum flow (networkx) through
each HQ's places::

    unit --1--> HQ's "other division" place --1--> HQ --capacity--> sink
    unit --1----------------------------------> HQ

The flow is exact (greedy assignment in file order can strand a unit that
only one HQ reaches behind one that several reach).
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx


@dataclass(frozen=True)
class AttachHQ:
    """An in-supply HQ that may take attachments.

    Attributes
    ----------
    formation
        The formation whose HQ it is (its key).
    capacity
        How many attached units it may supply (3 for a division, 6 for a KG HQ).
    other_division_places
        How many of those may be units of another division (1 for a division
        HQ, 7.2; the whole capacity for a KG HQ, 20.3).
    """

    formation: str
    capacity: int
    other_division_places: int


@dataclass(frozen=True)
class AttachOption:
    """A unit that may attach to an HQ, and how: ``other_division`` uses that HQ's one such place."""

    unit_id: str
    formation: str
    cost: int  # length of the line to the HQ (sixths of an MP), to prefer short lines
    other_division: bool


def best_attachments(hqs: list[AttachHQ], options: list[AttachOption]) -> dict[str, str]:
    """Return unit id -> formation whose HQ it attaches to: the most units, then the shortest lines.

    Parameters
    ----------
    hqs
        The HQs with their places.
    options
        Every (unit, HQ) pair the rules allow, with the line's length.

    Returns
    -------
    dict
        The chosen attachments (units left out are those no assignment can place).
    """
    if not options or not hqs:
        return {}
    known = {hq.formation: hq for hq in hqs}
    # No HQ asked for more places than it has: every unit takes its nearest HQ.
    wanted: dict[str, int] = {}
    wanted_other: dict[str, int] = {}
    for option in options:
        wanted[option.formation] = wanted.get(option.formation, 0) + 1
        if option.other_division:
            wanted_other[option.formation] = wanted_other.get(option.formation, 0) + 1
    if all(
        wanted.get(f, 0) <= hq.capacity and wanted_other.get(f, 0) <= hq.other_division_places
        for f, hq in known.items()
    ):
        nearest: dict[str, AttachOption] = {}
        for option in sorted(options, key=lambda o: (o.unit_id, o.cost, o.formation)):
            if option.formation in known:
                nearest.setdefault(option.unit_id, option)
        return {unit_id: option.formation for unit_id, option in nearest.items()}
    graph = nx.DiGraph()
    source, sink = ("source",), ("sink",)
    for hq in sorted(hqs, key=lambda h: h.formation):
        graph.add_edge(("hq", hq.formation), sink, capacity=hq.capacity, weight=0)
        if hq.other_division_places < hq.capacity:
            graph.add_edge(
                ("other", hq.formation), ("hq", hq.formation), capacity=hq.other_division_places, weight=0
            )
    for option in sorted(options, key=lambda o: (o.unit_id, o.formation)):
        hq = known.get(option.formation)
        if hq is None:
            continue
        graph.add_edge(source, ("unit", option.unit_id), capacity=1, weight=0)
        through_other = option.other_division and hq.other_division_places < hq.capacity
        target = ("other", hq.formation) if through_other else ("hq", hq.formation)
        graph.add_edge(("unit", option.unit_id), target, capacity=1, weight=int(option.cost))
    if source not in graph:
        return {}
    flow = nx.max_flow_min_cost(graph, source, sink)
    chosen = {}
    for node, out in flow.items():
        if node[0] != "unit":
            continue
        for target, amount in out.items():
            if amount > 0:
                chosen[node[1]] = target[1]
    return chosen
