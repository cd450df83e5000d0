"""The interdiction study: which k targets, cut, most damage a side's supply, with how far from optimal.

``best_targets(state, side, k, ...)`` lists the targets (:mod:`.candidates`), measures the damage
(:mod:`.objectives`), searches (:mod:`.search`: exact when the sets are few enough, lazy greedy beyond) and
answers with an :class:`InterdictionResult`: the picks as a table (each pick, what it cuts, the units it puts
out, its marginal gain), the bound beside the value, and the picks as study edits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from normandy_lab.engine.state import GameState
from normandy_lab.interdiction.candidates import Target, targets
from normandy_lab.interdiction.objectives import from_rows, resolve
from normandy_lab.interdiction.search import Evaluator, coverage_bound, exact, greedy


@dataclass
class InterdictionResult:
    """What an interdiction study found.

    Attributes
    ----------
    side
        The side whose supply the cuts hurt.
    objective
        The measure maximised (``"units_out"``, ``"line_mp"`` or a function's name).
    method
        ``"exact"`` (every set of k tried) or ``"greedy"``.
    picks
        The targets chosen, in the order greedy took them (exact: the map's order).
    baseline, value
        The objective before the cuts and with them.
    bound
        For ``units_out``: at most this many units can be put out by k cuts of these targets (None where
        the game does not trace lines, or for another objective).  ``gap`` is ``bound - gain``.
    evaluations
        The supply determinations the search made.
    candidates
        How many targets were considered.
    table
        One row a pick: ``pick`` (1, 2, ...), ``kind``, ``target``, ``label``, ``gain`` (what it added),
        ``total`` (the gain so far), ``units_out`` (the side's units it put out, given the picks before it).
    """

    side: str
    objective: str
    method: str
    picks: list[Target]
    baseline: float
    value: float
    bound: float | None
    evaluations: int
    candidates: int
    table: pd.DataFrame = field(repr=False)
    state: GameState = field(repr=False)

    @property
    def gain(self) -> float:
        """The damage the picks do: the objective's rise over the uncut state."""
        return self.value - self.baseline

    @property
    def gap(self) -> float | None:
        """How far the picks may be from the best possible (``bound - gain``), None without a bound."""
        return None if self.bound is None else self.bound - self.gain

    def edits(self, upto: int | None = None) -> list[dict[str, Any]]:
        """Return the study edits that make the first ``upto`` picks (all by default)."""
        return [t.edit() for t in self.picks[: len(self.picks) if upto is None else upto]]

    def cut_state(self, upto: int | None = None) -> GameState:
        """Return the state with the first ``upto`` picks cut."""
        state = self.state
        for target in self.picks[: len(self.picks) if upto is None else upto]:
            state = target.cut(state)
        return state

    def study(self, scenario_or_study: Any, upto: int | None = None) -> Any:
        """Open the picks as a study: a scenario name or a study, with the cuts appended as its edits."""
        from normandy_lab.engine.study import Study

        if isinstance(scenario_or_study, Study):
            return Study(scenario_or_study.scenario, [*scenario_or_study.edits, *self.edits(upto)])
        return Study(str(scenario_or_study), self.edits(upto))

    def explore(self, scenario_or_study: Any = None, upto: int | None = None) -> Any:
        """Open the explorer on the picks: as a study of a scenario, or on the state with them cut.

        As a study, its edits are listed and undoable.  The cut bridges are the map's "destroyed bridges"
        layer (red crosses, named on hover) and the cut hexes its interdiction layer; the units the picks put
        out are drawn out of supply.
        """
        from normandy_lab.views.explorer import explore

        if scenario_or_study is None:
            return explore(self.cut_state(upto))
        return explore(self.study(scenario_or_study, upto))

    def summary(self) -> str:
        """Say the answer in a line: the picks' damage, the method, and the bound."""
        bound = (
            f"; at most {self.bound:g} could be put out by {_cuts(len(self.picks))} (gap {self.gap:g})"
            if self.bound is not None
            else ""
        )
        return (
            f"{_cuts(len(self.picks))} against the {self.side} side: {self.objective} {self.baseline:g} -> "
            f"{self.value:g} (+{self.gain:g}), {self.method} over {self.candidates} targets in "
            f"{self.evaluations} supply determinations{bound}"
        )


def _cuts(n: int) -> str:
    return f"{n} cut" if n == 1 else f"{n} cuts"


def best_targets(
    state: GameState,
    side: str,
    k: int,
    candidates: Any = "bridges",
    objective: Any = "units_out",
    budget: int | None = None,
    method: str = "auto",
    max_exact: int = 2000,
    river: str | None = None,
    within: Any = None,
    client: Any = None,
) -> InterdictionResult:
    """Find the ``k`` targets whose cutting most damages ``side``'s supply on ``state``.

    Parameters
    ----------
    state
        The situation (any registered rule system's).
    side
        ``"allied"`` or ``"german"``: the side whose supply the cuts hurt.
    k
        How many targets to cut (the air effort).
    candidates, river, within
        What may be cut (:func:`normandy_lab.interdiction.candidates.targets`): ``"bridges"``,
        ``"road_hexes"``, hex ids or a shapely area; bridges over a named river; targets inside an area.
    objective
        ``"units_out"``, ``"line_mp"`` or a function ``(report, side) -> float``.
    budget
        The most supply determinations the search may make (None: no limit); an exact search that would
        need more runs greedily instead.
    method
        ``"exact"``, ``"greedy"`` or ``"auto"`` (exact when there are at most ``max_exact`` sets of k).
    client
        A ``distributed.Client``: the sets are evaluated through :func:`normandy_lab.sweep` on its cluster,
        in batches (``"units_out"`` and ``"line_mp"`` only; a custom objective needs the report and runs
        here).  None: one after the other in this process.

    Returns
    -------
    InterdictionResult
    """
    from normandy_lab.engine.supply import supply

    if side not in ("allied", "german"):
        raise ValueError(f"side is 'allied' or 'german', not {side!r}")
    if k < 1:
        raise ValueError(f"k is how many targets to cut: at least 1, not {k}")
    found = targets(state, candidates, river=river, within=within)
    baseline_report = supply(state)
    fn, name = resolve(objective, baseline_report, side)
    rows_fn = None
    if client is not None:
        if callable(objective):
            raise ValueError("a custom objective reads the report: run it without a client")
        rows_fn = from_rows(name, baseline_report, side)
    evaluator = Evaluator(state, side, fn, client=client, from_rows=rows_fn)
    evaluator.targets = found
    evaluator.cache[frozenset()] = fn(baseline_report, side)
    n = len(found)
    k_used = min(k, n)
    sets = math.comb(n, k_used) if n else 0
    limit = min(max_exact, budget) if budget is not None else max_exact
    if method == "exact" and sets > (budget if budget is not None else sets):
        raise ValueError(f"an exact search needs {sets} supply determinations, more than the budget {budget}")
    use_exact = method == "exact" or (method == "auto" and sets <= limit)
    if method not in ("auto", "exact", "greedy"):
        raise ValueError(f"method is 'auto', 'exact' or 'greedy', not {method!r}")
    if n == 0:
        picks, value = (), evaluator.value(frozenset())
    elif use_exact:
        picks, value = exact(evaluator, n, k_used)
        picks = _most_first(evaluator, picks)
    else:
        picks, value = greedy(evaluator, n, k_used)
    bound = None
    if name == "units_out":
        bound, _ = coverage_bound(baseline_report, side, found, k_used)
    table = _table(evaluator, found, list(picks), side, baseline_report)
    return InterdictionResult(
        side=side, objective=name, method="exact" if use_exact else "greedy",
        picks=[found[i] for i in picks], baseline=evaluator.value(frozenset()), value=value,
        bound=None if bound is None else float(bound), evaluations=evaluator.evaluations, candidates=n,
        table=table, state=state,
    )  # fmt: skip


def _most_first(evaluator: Evaluator, picks: tuple[int, ...]) -> tuple[int, ...]:
    """Order a set of picks as greedy would take them: the one that adds most first (ties: map order)."""
    ordered: list[int] = []
    rest = list(picks)
    while rest:
        best = max(rest, key=lambda i: (evaluator.value(frozenset([*ordered, i])), -i))
        ordered.append(best)
        rest.remove(best)
    return tuple(ordered)


def _table(
    evaluator: Evaluator, found: list[Target], picks: list[int], side: str, baseline: Any
) -> pd.DataFrame:
    """One row a pick: what it cuts, what it adds, the units it puts out given the picks before it."""
    rows = []
    before_out = {r.unit_id for r in baseline.out_of_supply(side)}
    before_value = evaluator.value(frozenset())
    start = before_value
    for n, i in enumerate(picks, 1):
        chosen = frozenset(picks[:n])
        report = evaluator.report(chosen)
        out = {r.unit_id for r in report.out_of_supply(side)}
        value = evaluator.value(chosen)
        rows.append(
            {
                "pick": n, "kind": found[i].kind, "target": found[i].key, "label": found[i].label,
                "gain": value - before_value, "total": value - start,
                "units_out": ", ".join(sorted(out - before_out)),
            }
        )  # fmt: skip
        before_out |= out
        before_value = value
    columns = ["pick", "kind", "target", "label", "gain", "total", "units_out"]
    return pd.DataFrame(rows, columns=columns)
