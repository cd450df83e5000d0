"""Which k cuts hurt a side's supply most: exact enumeration, lazy greedy, and a bound from the traced lines.

Every evaluation is one supply determination of the state with a set of cuts made (the rule system's own,
verdicts only: the reasons are worked out lazily and never asked for here).  Sets already evaluated are
remembered, so greedy's re-evaluations and the exact enumeration never pay twice for one set.

* **Exact**: every set of k targets, when there are at most ``max_exact`` of them.
* **Greedy with lazy re-evaluation** (Minoux's accelerated greedy): the best single cut first, then the cut
  that adds most to the cuts chosen, each candidate's last known gain standing as its estimate until it is
  on top of the queue and re-evaluated.  It stops early when no cut adds anything, so its value never falls
  below the best single cut's.  It is a heuristic: supply damage is not submodular in general (two bridges
  over the same river may be worth nothing apart and much together).
* **Bound** (``units_out`` only): a unit whose traced lines (its own and its HQs', up to the source) touch
  none of the cuts keeps its line, so k cuts put out at most the units of the k targets whose lines touch
  most units, and never more than the units whose lines touch any target.  It holds where a verdict rests on
  the unit's own chain of lines; a game whose supply is not traced (GTS's designation) gets no bound.
"""

from __future__ import annotations

import heapq
import itertools
import math
import numbers
from collections.abc import Callable, Sequence
from typing import Any

from normandy_lab.engine.state import GameState
from normandy_lab.errors import RefusedError
from normandy_lab.interdiction.candidates import Target

# A verdict given without a line: cutting anything cannot change it.
NO_LINE_KINDS = frozenset({"off the map", "offshore", "exempt"})


class Evaluator:
    """The objective of a side on ``state`` with sets of cuts made, each set determined once.

    With a Dask ``client`` (and a named objective), sets are evaluated in batches through
    :func:`normandy_lab.sweep`, on the cluster; otherwise one after the other in this process.
    """

    def __init__(
        self,
        state: GameState,
        side: str,
        objective: Callable[[Any, str], float],
        client: Any = None,
        from_rows: Callable[[Any], float] | None = None,
        name: str = "the objective",
    ) -> None:
        self.state, self.side, self.objective = state, side, objective
        self.client, self.from_rows, self.name = client, from_rows, name
        self.cache: dict[frozenset[int], float] = {}
        self.targets: Sequence[Target] = ()
        self.batch = 1 if client is None else 4 * max(1, len(client.scheduler_info()["workers"]))

    def checked(self, value: Any, picks: frozenset[int]) -> float:
        """Return an objective's value as a float, refusing anything but a finite number.

        A NaN compares false with everything, so the search would keep its first set and report
        "nan -> -inf"; None or text would fail deep in the comparisons.  Either way the objective is at
        fault, and the message says so, with what it returned and for which cuts.
        """
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
            cuts = ", ".join(self.targets[i].key for i in sorted(picks)) if picks else "no cut"
            raise RefusedError(
                f"best_targets: objective: {self.name} returned {value!r} (with {cuts}); an objective "
                "returns a finite number for a report and a side, the larger the worse for that side"
            )
        return float(value)

    def value(self, picks: frozenset[int]) -> float:
        """Return the objective with the targets at these positions cut."""
        return self.values([picks])[0]

    def values(self, sets: Sequence[frozenset[int]]) -> list[float]:
        """Return the objective for each set of picks, evaluating those not seen before (in one batch)."""
        todo = list(dict.fromkeys(s for s in sets if s not in self.cache))
        if todo and self.client is not None:
            self._on_cluster(todo)
        for picks in todo:
            if picks not in self.cache:
                self.cache[picks] = self.checked(self.objective(self.report(picks), self.side), picks)
        return [self.cache[s] for s in sets]

    def _on_cluster(self, todo: list[frozenset[int]]) -> None:
        """Evaluate sets of picks as one sweep of variants on the client's cluster."""
        from normandy_lab.sweeps import Variant, sweep

        names = {f"set {n}": picks for n, picks in enumerate(todo)}
        variants = [
            Variant.of({"name": name, "cuts": [self.targets[i].key for i in sorted(picks)]})
            for name, picks in names.items()
        ]
        table = sweep(self.state, variants, client=self.client, reasons=False, progress=False)
        for name, rows in table.groupby("variant", sort=False):
            self.cache[names[str(name)]] = self.from_rows(rows)

    def report(self, picks: frozenset[int] | Sequence[int]) -> Any:
        """Return the supply report with the targets at these positions cut."""
        from normandy_lab.engine.supply import supply

        state = self.state
        for i in sorted(picks):
            state = self.targets[i].cut(state)
        return supply(state)

    @property
    def evaluations(self) -> int:
        """The supply determinations made so far."""
        return len(self.cache)


# Sets of an exact search evaluated together: enough to keep a cluster busy, few enough that memory holds
# only one batch of them at a time (the sets themselves are made lazily, never listed whole).
EXACT_BATCH = 1000


def exact(evaluator: Any, n: int, k: int) -> tuple[tuple[int, ...], float]:
    """Return the best set of ``k`` of ``n`` targets by trying them all (ties: the earliest in order).

    The sets are drawn lazily, :data:`EXACT_BATCH` at a time: C(394, 4) sets listed at once would take
    tens of gigabytes before the first determination.
    """
    best: tuple[tuple[int, ...], float] = ((), -math.inf)
    combos = itertools.combinations(range(n), k)
    while batch := list(itertools.islice(combos, EXACT_BATCH)):
        values = evaluator.values([frozenset(c) for c in batch])
        for combo, value in zip(batch, values, strict=True):
            if value > best[1]:
                best = (combo, value)
    return best


def greedy(
    evaluator: Evaluator, n: int, k: int, budget: int | None = None
) -> tuple[tuple[int, ...], float, str]:
    """Return up to ``k`` targets chosen one at a time by the most added, re-evaluated lazily.

    A candidate is taken when its gain, re-evaluated after the last pick, still tops the queue; stale
    candidates are re-evaluated a batch at a time (one in this process, several on a cluster).  With a
    ``budget``, the search makes at most that many supply determinations in all (the uncut state and the
    single cuts included) and stops when it is spent, keeping the picks made; the third value says so
    ("" when it was not stopped).
    """
    chosen: list[int] = []
    base = evaluator.value(frozenset())
    singles = evaluator.values([frozenset([i]) for i in range(n)])
    # Max-heap of (-estimated gain, position, the number of picks the estimate was made after).
    heap = [(-(value - base), i, 0) for i, value in enumerate(singles)]
    heapq.heapify(heap)
    current = base
    stopped = ""
    while heap and len(chosen) < k:
        if heap[0][2] == len(chosen):  # fresh for the cuts chosen so far: the best there is
            negative_gain, i, _ = heapq.heappop(heap)
            if -negative_gain <= 0:
                break  # nothing adds any damage: stop, not worse than what is chosen
            chosen.append(i)
            current = evaluator.value(frozenset(chosen))  # known already: it was this candidate's estimate
            continue
        left = math.inf if budget is None else budget - evaluator.evaluations
        if left <= 0:
            stopped = (
                f"the budget of {budget:,} supply determinations ran out after {len(chosen)} of {k} picks"
            )
            break
        stale = []
        while heap and heap[0][2] != len(chosen) and len(stale) < min(evaluator.batch, left):
            stale.append(heapq.heappop(heap)[1])
        values = evaluator.values([frozenset([*chosen, i]) for i in stale])
        for i, value in zip(stale, values, strict=True):
            heapq.heappush(heap, (-(value - current), i, len(chosen)))
    return tuple(chosen), current, stopped


def dependency(report: Any, side: str) -> dict[str, tuple[set[str], set[str]]] | None:
    """Return, per unit of ``side`` in supply, the hexes and hexsides its verdict's lines run through.

    A unit's own line and, up the chain, the line of each HQ it traced to.  None when a unit in supply has
    no line and is not one of the kinds supplied without one (the game does not trace supply).
    """
    found: dict[str, tuple[set[str], set[str]]] = {}
    lines: dict[str, list[str]] = {}
    for row in report.units.values():
        if row.side != side or not row.general:
            continue
        if row.traced_kind in NO_LINE_KINDS:
            continue
        if not row.path:
            return None
        hexes: set[str] = set()
        sides: set[str] = set()
        seen: set[str] = set()
        at: Any = row
        while at is not None and at.unit_id not in seen:
            seen.add(at.unit_id)
            path = lines.setdefault(at.unit_id, list(at.path))
            hexes.update(path)
            sides.update(f"{a}|{b}" if a < b else f"{b}|{a}" for a, b in itertools.pairwise(path))
            at = report.units.get(at.traced_id)  # the HQ it traced to, if a unit
        found[row.unit_id] = (hexes, sides)
    return found


def coverage_bound(report: Any, side: str, targets: Sequence[Target], k: int) -> tuple[int | None, list[int]]:
    """Return the bound on units put out by ``k`` cuts, and each target's count of units its lines touch."""
    lines = dependency(report, side)
    if lines is None:
        return None, []
    touched: list[set[str]] = []
    for target in targets:
        if target.kind == "bridge":
            touched.append({u for u, (_, sides) in lines.items() if target.key in sides})
        else:
            touched.append({u for u, (hexes, _) in lines.items() if target.key in hexes})
    counts = [len(t) for t in touched]
    top = sum(sorted(counts, reverse=True)[:k])
    anywhere = len(set().union(*touched)) if touched else 0
    return min(top, anywhere), counts
