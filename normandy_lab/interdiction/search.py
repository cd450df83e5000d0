"""Which k cuts hurt a side's supply most: branch and bound, lazy greedy with swaps, and the lines' bound.

Every evaluation is one supply determination of the state with a set of cuts made (the rule system's own,
verdicts only: the reasons are worked out lazily and never asked for here).  Sets already evaluated are
remembered, so no search pays twice for one set.

* **The bound** (:class:`Lines`, for ``units_out`` and the per-formation count): a unit whose traced lines
  (its own and its HQs', up to the source) touch none of the cuts keeps its line, so cuts put out at most
  the units their lines touch.  Applied to the uncut state it bounds any k cuts (:func:`coverage_bound`);
  applied to the state with some cuts made it bounds every set that adds to them, which is what lets the
  exact search prune.  A unit in supply with no line (and not of a kind supplied without one) is counted as
  touched by every cut: it weakens the bound, it does not remove it.  A game whose supply is not traced
  (GTS's designation: no unit has a line) gets no bound.
* **Branch and bound** (:func:`branch_and_bound`): the sets of at most k targets as a tree, deepest first,
  the targets whose lines touch most units first; a branch is cut off when the bound of every set below it
  is no better than the best set found so far.  A set is only evaluated when its own bound can beat that.
  Sets of fewer than k are answers too: when nothing adds to a set, the search keeps it and says so.
* **Exact enumeration** (:func:`exact`): every set of k, for an objective without a bound.
* **Greedy with lazy re-evaluation** (Minoux's accelerated greedy), then **swaps** (:func:`swap`): a pick
  traded for a target not picked while that does better.  A heuristic: supply damage is not submodular (two
  bridges over one river may be worth nothing apart and much together).
"""

from __future__ import annotations

import heapq
import itertools
import math
import numbers
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from normandy_lab.engine.state import GameState
from normandy_lab.errors import RefusedError
from normandy_lab.interdiction.candidates import Target

# A verdict given without a line: cutting anything cannot change it.
NO_LINE_KINDS = frozenset({"off the map", "offshore", "exempt"})

# The reports kept for the branch and bound's open sets (a report holds every unit's line): enough for the
# path from the root and its siblings' parents, few enough to stay small.
REPORTS_KEPT = 64


class Evaluator:
    """The objective of a side on ``state`` with sets of cuts made, each set determined once.

    With a Dask ``client`` (and a named objective), sets are evaluated in batches through
    :func:`normandy_lab.sweep`, on the cluster; otherwise one after the other in this process.  ``bar`` (a
    tqdm bar, or None) advances by one for each supply determination.
    """

    def __init__(
        self,
        state: GameState,
        side: str,
        objective: Callable[[Any, str], float],
        client: Any = None,
        from_rows: Callable[[Any], float] | None = None,
        name: str = "the objective",
        bar: Any = None,
    ) -> None:
        self.state, self.side, self.objective = state, side, objective
        self.client, self.from_rows, self.name, self.bar = client, from_rows, name, bar
        self.cache: dict[frozenset[int], float] = {}
        self.reports: OrderedDict[frozenset[int], Any] = OrderedDict()
        self.targets: Sequence[Target] = ()
        self.runs = 0
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
                self.value_and_report(picks)
        return [self.cache[s] for s in sets]

    def value_and_report(self, picks: frozenset[int]) -> tuple[float, Any]:
        """Return the objective and the supply report with these picks cut (the report kept a while)."""
        if picks in self.reports:
            self.reports.move_to_end(picks)
            return self.cache[picks], self.reports[picks]
        report = self.report(picks)
        self.runs += 1
        if self.bar is not None:
            self.bar.update(1)
        if picks not in self.cache:
            self.cache[picks] = self.checked(self.objective(report, self.side), picks)
        self.reports[picks] = report
        while len(self.reports) > REPORTS_KEPT:
            self.reports.popitem(last=False)
        return self.cache[picks], report

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
            if (rows["code"] == "not_run").any():
                continue  # the cluster lost it (nl.sweep returns the rest): evaluated in this process below
            self.cache[names[str(name)]] = self.from_rows(rows)
        self.runs += len(todo)
        if self.bar is not None:
            self.bar.update(len(todo))

    def report(self, picks: frozenset[int] | Sequence[int]) -> Any:
        """Return the supply report with the targets at these positions cut."""
        from normandy_lab.engine.supply import supply

        state = self.state
        for i in sorted(picks):
            state = self.targets[i].cut(state)
        return supply(state)

    @property
    def evaluations(self) -> int:
        """The supply determinations made so far (a set evaluated twice counts twice)."""
        return self.runs


class Lines:
    """Which of a side's units in supply each cut could put out, read from a report's traced lines.

    A unit counts for a hex or a hexside when its own line or the line of an HQ it traced to (up the chain,
    to the source) runs through it.  A unit in supply with no line, not of a kind supplied without one
    (:data:`NO_LINE_KINDS`), is ``unlined``: any cut might change its verdict, so it counts for every target.

    Parameters
    ----------
    report
        A supply report.
    side
        The side whose units count.
    units
        Only these unit ids count (a per-formation objective); None for all of the side's.
    """

    def __init__(self, report: Any, side: str, units: frozenset[str] | None = None) -> None:
        self.by_side: dict[str, set[str]] = {}
        self.by_hex: dict[str, set[str]] = {}
        self.unlined: set[str] = set()
        self.traced = 0  # units with a line
        for row in report.units.values():
            if row.side != side or not row.general or row.traced_kind in NO_LINE_KINDS:
                continue
            if units is not None and row.unit_id not in units:
                continue
            chain = list(_chain(report, row))
            if any(not at.path and at.traced_kind not in NO_LINE_KINDS for at in chain):
                self.unlined.add(row.unit_id)
                continue
            self.traced += 1
            for at in chain:
                for h in at.path:
                    self.by_hex.setdefault(h, set()).add(row.unit_id)
                for a, b in itertools.pairwise(at.path):
                    self.by_side.setdefault(f"{a}|{b}" if a < b else f"{b}|{a}", set()).add(row.unit_id)

    @property
    def traces(self) -> bool:
        """Whether the bound holds anything: some unit of the side has a line (GTS: none has)."""
        return self.traced > 0 or not self.unlined

    def touched(self, target: Target) -> set[str]:
        """Return the units a cut of ``target`` could put out (the unlined ones included)."""
        found = self.by_side.get(target.key) if target.kind == "bridge" else self.by_hex.get(target.key)
        return (found or set()) | self.unlined

    def counts(self, targets: Iterable[Target]) -> list[int]:
        """Return how many units each target's cut could put out."""
        return [len(self.touched(t)) for t in targets]


def _chain(report: Any, row: Any) -> Iterable[Any]:
    """Yield a unit's supply row and, up the chain, the row of each HQ it traced to."""
    seen: set[str] = set()
    at: Any = row
    while at is not None and at.unit_id not in seen:
        seen.add(at.unit_id)
        yield at
        at = report.units.get(at.traced_id)  # the HQ it traced to, if a unit


def dependency(report: Any, side: str) -> dict[str, tuple[set[str], set[str]]] | None:
    """Return, per unit of ``side`` with a traced line, the hexes and hexsides its verdict's lines cross.

    None when the side has no traced line at all (GTS's designation).  Kept for callers of the first
    version; :class:`Lines` is the index the searches use.
    """
    lines = Lines(report, side)
    if not lines.traces:
        return None
    found: dict[str, tuple[set[str], set[str]]] = {}
    for key, units in lines.by_hex.items():
        for u in units:
            found.setdefault(u, (set(), set()))[0].add(key)
    for key, units in lines.by_side.items():
        for u in units:
            found.setdefault(u, (set(), set()))[1].add(key)
    return found


def top_bound(touched: Sequence[set[str]], k: int) -> int:
    """Return the most units ``k`` of these cuts could put out: the k largest counts, at most their union."""
    counts = sorted((len(t) for t in touched), reverse=True)
    anywhere = len(set().union(*touched)) if touched else 0
    return min(sum(counts[:k]), anywhere)


def coverage_bound(
    report: Any, side: str, targets: Sequence[Target], k: int, units: frozenset[str] | None = None
) -> tuple[int | None, list[int]]:
    """Return the bound on units put out by ``k`` cuts, and each target's count of units its lines touch.

    The bound is None where the side traces no line (GTS).  ``units`` restricts the count to those units.
    A target's key is compared in its canonical form (:class:`Target` makes it so), so a bridge written the
    other way round gets the same bound as its canonical form.
    """
    lines = Lines(report, side, units)
    if not lines.traces:
        return None, []
    touched = [lines.touched(t) for t in targets]
    return top_bound(touched, k), [len(t) for t in touched]


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


class BudgetSpentError(Exception):
    """The search spent its budget of supply determinations."""


def branch_and_bound(
    evaluator: Evaluator,
    n: int,
    k: int,
    units: frozenset[str] | None,
    incumbent: tuple[tuple[int, ...], float],
    budget: int | None = None,
) -> tuple[tuple[int, ...], float, bool]:
    """Return the best set of at most ``k`` of ``n`` targets, and whether the search was complete.

    Deepest first over the sets in the order of the targets whose lines touch most units (in the uncut
    state).  At a set S with value f(S) and r cuts still to make, the targets after the last one taken are
    counted against S's own lines (:class:`Lines`): a set S + {t} + T can do at most f(S) + count(t) + the
    r - 1 largest counts after t (and at most f(S) + the units any of them touches), so S + {t} is
    evaluated only when that beats the best value found so far (``incumbent`` to start: greedy's).  The
    objective counts the side's units out (``units``: only those), so the bound applies to it.

    Exact under the bound's premise: a verdict rests on the unit's own chain of lines, and a cut never puts a
    unit back into supply (so a set of at most k does no better than some set of exactly k).  The tests hold
    it to a brute force that shares no code with it.

    Ties keep the set found first, and a set is found before the sets that add to it: when a cut adds
    nothing, the smaller set stands.  With a ``budget`` (of the evaluator's determinations, in all), the
    search stops when it is spent and returns the best so far with ``False``.
    """
    base_value, base_report = evaluator.value_and_report(frozenset())
    root = Lines(base_report, evaluator.side, units)
    order = sorted(range(n), key=lambda i: (-len(root.touched(evaluator.targets[i])), i))
    best_set: tuple[int, ...] = tuple(incumbent[0])
    best_value = float(incumbent[1])
    if base_value > best_value:
        best_set, best_value = (), base_value

    def spend() -> None:
        if budget is not None and evaluator.evaluations >= budget:
            raise BudgetSpentError

    def visit(chosen: tuple[int, ...], start: int, value: float, report: Any) -> None:
        nonlocal best_set, best_value
        left = k - len(chosen)
        lines = Lines(report, evaluator.side, units)
        touched = [lines.touched(evaluator.targets[order[p]]) for p in range(start, n)]
        # For each position: the (left - 1) largest counts after it, and the union of what follows.
        tops: list[int] = [0] * (len(touched) + 1)
        after: list[set[str]] = [set() for _ in range(len(touched) + 1)]
        largest: list[int] = []
        for p in range(len(touched) - 1, -1, -1):
            tops[p + 1] = sum(largest)
            if left > 1:
                largest = sorted([*largest, len(touched[p])], reverse=True)[: left - 1]
            after[p] = after[p + 1] | touched[p]
        for p, here in enumerate(touched):
            bound = value + min(len(here) + tops[p + 1], len(here | after[p + 1]))
            if bound <= best_value:
                continue
            spend()
            child = (*chosen, order[start + p])
            child_value, child_report = evaluator.value_and_report(frozenset(child))
            if child_value > best_value:
                best_set, best_value = child, child_value
            if left > 1:
                visit(child, start + p + 1, child_value, child_report)

    try:
        visit((), 0, base_value, base_report)
    except BudgetSpentError:
        return best_set, best_value, False
    return best_set, best_value, True


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
        stale: list[int] = []
        while heap and heap[0][2] != len(chosen) and len(stale) < min(evaluator.batch, left):
            stale.append(heapq.heappop(heap)[1])
        values = evaluator.values([frozenset([*chosen, i]) for i in stale])
        for i, value in zip(stale, values, strict=True):
            heapq.heappush(heap, (-(value - current), i, len(chosen)))
    return tuple(chosen), current, stopped


def swap(
    evaluator: Evaluator,
    n: int,
    picks: tuple[int, ...],
    value: float,
    units: frozenset[str] | None,
    bounded: bool,
    budget: int | None = None,
) -> tuple[tuple[int, ...], float, bool]:
    """Improve a set of picks by swaps: one pick traded for a target not picked, while that does better.

    First improvement, repeated until no swap does better (a local optimum) or the ``budget`` (of the
    evaluator's determinations, in all) is spent; the third value says whether it finished.  With a
    ``bounded`` objective (the side's units out), the swap of pick p for target t is evaluated only when
    the picks without p, plus t's count against their lines, could beat the picks' value.
    """
    picks = tuple(picks)
    improved = True
    while improved:
        improved = False
        for p in picks:
            rest = tuple(i for i in picks if i != p)
            if budget is not None and evaluator.evaluations >= budget:
                return picks, value, False
            rest_value, rest_report = evaluator.value_and_report(frozenset(rest))
            lines = Lines(rest_report, evaluator.side, units) if bounded else None
            for t in range(n):
                if t in picks:
                    continue
                if lines is not None and rest_value + len(lines.touched(evaluator.targets[t])) <= value:
                    continue
                trial = frozenset([*rest, t])
                if trial not in evaluator.cache and budget is not None and evaluator.evaluations >= budget:
                    return picks, value, False
                got = evaluator.value(trial)
                if got > value:
                    picks, value, improved = (*rest, t), got, True
                    break
            if improved:
                break
    return picks, value, True
