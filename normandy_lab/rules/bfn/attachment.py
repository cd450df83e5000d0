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
the shortest lines.  That is a minimum-cost maximum flow through each HQ's
places (successive shortest paths; proven equal to networkx's solver)::

    unit --1--> HQ's "other division" place --1--> HQ --capacity--> sink
    unit --1----------------------------------> HQ

The flow is exact (greedy assignment in file order can strand a unit that
only one HQ reaches behind one that several reach).
"""

from __future__ import annotations

import functools
from collections import deque
from dataclasses import dataclass


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

    Units and HQs that share no option are independent, so each connected
    group is solved on its own: where no HQ of a group is asked for more
    places than it has, every unit takes its nearest HQ; only the groups with
    competition go through the flow.
    """
    known = {hq.formation: hq for hq in hqs}
    options = [o for o in options if o.formation in known]
    chosen: dict[str, str] = {}
    for group in _groups(options):
        chosen.update(_solve(known, group))
    return chosen


def _groups(options: list[AttachOption]) -> list[list[AttachOption]]:
    """Split the options into groups that share no unit and no HQ (union-find)."""
    parent: dict[tuple[str, str], tuple[str, str]] = {}

    def find(x: tuple[str, str]) -> tuple[str, str]:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for o in options:
        a, b = find(("unit", o.unit_id)), find(("hq", o.formation))
        if a != b:
            parent[a] = b
    groups: dict[tuple[str, str], list[AttachOption]] = {}
    for o in options:
        groups.setdefault(find(("unit", o.unit_id)), []).append(o)
    return [groups[key] for key in sorted(groups)]


def _solve(known: dict[str, AttachHQ], options: list[AttachOption]) -> dict[str, str]:
    """Return the attachments of one group of units and HQs sharing options (a copy: callers may change it).

    A pure function of the group's options, in order, and its HQs' places: the counterfactual trials of a
    side's explanations (7.3.1, more range) ask the same groups again and again (more than half of a
    Storm's), so the last few hundred answers are kept (a Storm's side asks ~150 groups).
    """
    hqs = tuple(known[f] for f in sorted({o.formation for o in options}))
    return dict(_solve_group(hqs, tuple(options)))


@functools.lru_cache(maxsize=512)
def _solve_group(hqs: tuple[AttachHQ, ...], options: tuple[AttachOption, ...]) -> dict[str, str]:
    # Read only through _solve, which copies the answer: a kept answer is never changed.
    return _solve_uncached({hq.formation: hq for hq in hqs}, list(options))


def _solve_uncached(known: dict[str, AttachHQ], options: list[AttachOption]) -> dict[str, str]:
    wanted: dict[str, int] = {}
    wanted_other: dict[str, int] = {}
    for option in options:
        wanted[option.formation] = wanted.get(option.formation, 0) + 1
        if option.other_division:
            wanted_other[option.formation] = wanted_other.get(option.formation, 0) + 1
    if all(
        wanted[f] <= known[f].capacity and wanted_other.get(f, 0) <= known[f].other_division_places
        for f in wanted
    ):
        nearest: dict[str, AttachOption] = {}
        for option in sorted(options, key=lambda o: (o.unit_id, o.cost, o.formation)):
            nearest.setdefault(option.unit_id, option)
        return {unit_id: option.formation for unit_id, option in nearest.items()}
    flow = _FlowNetwork()
    source, sink = ("source",), ("sink",)
    for formation in sorted(wanted):
        hq = known[formation]
        flow.add(("hq", formation), sink, hq.capacity, 0)
        if hq.other_division_places < hq.capacity:
            flow.add(("other", formation), ("hq", formation), hq.other_division_places, 0)
    for unit_id in sorted({o.unit_id for o in options}):
        flow.add(source, ("unit", unit_id), 1, 0)
    for option in sorted(options, key=lambda o: (o.unit_id, o.formation)):
        hq = known[option.formation]
        through_other = option.other_division and hq.other_division_places < hq.capacity
        target = ("other", hq.formation) if through_other else ("hq", hq.formation)
        flow.add(("unit", option.unit_id), target, 1, int(option.cost))
    chosen = {}
    for (tail, head), amount in flow.max_flow_min_cost(source, sink).items():
        if tail[0] == "unit" and amount > 0:
            chosen[tail[1]] = head[1]
    return chosen


class _FlowNetwork:
    """A small network for a minimum-cost maximum flow by successive shortest paths.

    The attachment problems are tiny (a few units and HQs competing for
    places), where networkx's general solver spends its time setting up;
    this one is proven equal to ``networkx.max_flow_min_cost`` in the
    flow's value and cost (``tests/test_engine_attachment.py``).
    """

    def __init__(self) -> None:
        self.nodes: dict[tuple, int] = {}
        self.head: list[int] = []
        self.cap: list[int] = []
        self.cost: list[int] = []
        self.out: list[list[int]] = []
        self.named: list[tuple[tuple, tuple]] = []

    def _node(self, name: tuple) -> int:
        if name not in self.nodes:
            self.nodes[name] = len(self.out)
            self.out.append([])
        return self.nodes[name]

    def add(self, tail: tuple, head: tuple, capacity: int, cost: int) -> None:
        """Add an edge (and its residual twin, at index ``edge ^ 1``)."""
        a, b = self._node(tail), self._node(head)
        for frm, to, cap, price in ((a, b, capacity, cost), (b, a, 0, -cost)):
            self.out[frm].append(len(self.head))
            self.head.append(to)
            self.cap.append(cap)
            self.cost.append(price)
        self.named.append((tail, head))

    def max_flow_min_cost(self, source: tuple, sink: tuple) -> dict[tuple[tuple, tuple], int]:
        """Return the flow on each edge added, (tail, head) -> amount."""
        s, t = self.nodes.get(source), self.nodes.get(sink)
        flow = [0] * len(self.head)
        if s is None or t is None:
            return {}
        n = len(self.out)
        out, head, cap, cost = self.out, self.head, self.cap, self.cost
        while True:
            # Shortest paths over the residual network by a queue-driven Bellman-Ford (residual costs
            # may be negative, never in a cycle): only the nodes whose distance fell are looked at again.
            dist: list[int | None] = [None] * n
            via = [-1] * n
            dist[s] = 0
            waiting = deque([s])
            queued = [False] * n
            queued[s] = True
            while waiting:
                v = waiting.popleft()
                queued[v] = False
                here = dist[v]
                for e in out[v]:
                    if cap[e] - flow[e] > 0:
                        w = head[e]
                        d = here + cost[e]
                        if dist[w] is None or d < dist[w]:
                            dist[w], via[w] = d, e
                            if not queued[w]:
                                queued[w] = True
                                waiting.append(w)
            if dist[t] is None:
                break
            push, v = None, t
            while v != s:
                e = via[v]
                room = self.cap[e] - flow[e]
                push = room if push is None else min(push, room)
                v = self.head[e ^ 1]
            v = t
            while v != s:
                e = via[v]
                flow[e] += push
                flow[e ^ 1] -= push
                v = self.head[e ^ 1]
        return {self.named[k]: flow[2 * k] for k in range(len(self.named))}
