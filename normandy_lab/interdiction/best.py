"""The interdiction study: which k targets, cut, most damage a side's supply, with how far from optimal.

``best_targets(state, side, k, ...)`` lists the targets (:mod:`.candidates`), measures the damage
(:mod:`.objectives`), searches (:mod:`.search`: greedy and swaps, then branch and bound within a budget, or
exact enumeration for an objective without a bound) and answers with an :class:`InterdictionResult`: the
picks as a table (each pick, what it cuts, the units it puts out, its marginal gain), whether the answer is
optimal or how far from it it may be, and the picks as study edits.
"""

from __future__ import annotations

import difflib
import math
import numbers
import time
import warnings
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from normandy_lab.engine.state import GameState
from normandy_lab.errors import RefusedError
from normandy_lab.interdiction.candidates import Target, _rivers, _targets, hq_hexes, state_arg
from normandy_lab.interdiction.objectives import formation_units, from_rows, resolve
from normandy_lab.interdiction.search import (
    Evaluator,
    Lines,
    branch_and_bound,
    coverage_bound,
    exact,
    greedy,
    swap,
)


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
        How the answer was found: ``"branch and bound"`` (exact, pruned by the bound), ``"exact"`` (every
        set of k tried, for an objective without a bound), ``"greedy"`` (lazy greedy, then swaps), or
        ``"greedy, then branch and bound"`` (``method="auto"``).
    picks
        The targets chosen, the one that adds most first.  Fewer than k when no further cut adds anything
        (proved so when ``optimal``; for greedy, no single further cut adds anything).
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
    k
        The number of cuts searched for (at most the number of candidates); greedy may pick fewer.
    stopped
        Why the search stopped before it was done ("" when it was not): the budget spent.
    optimal
        True when no set of at most k of the candidates does better: the exact search finished, or the
        picks reach the bound.
    formations
        The formations a per-formation ``units_out`` counts (empty: every unit of the side).
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
    k: int = 0
    stopped: str = ""
    optimal: bool = False
    formations: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        """Say how sure the answer is: ``"optimal"``, ``"within N of optimal"``, or ``"no bound"``."""
        if self.optimal:
            return "optimal"
        if self.bound is None:
            return "no bound"
        return f"within {self.gap:g} of optimal"

    @property
    def gain(self) -> float:
        """The damage the picks do: the objective's rise over the uncut state."""
        return self.value - self.baseline

    @property
    def gap(self) -> float | None:
        """How far the picks may be from the best possible: 0 when optimal, else ``bound - gain``.

        None without a bound (and not proved optimal).
        """
        if self.optimal:
            return 0.0
        return None if self.bound is None else self.bound - self.gain

    def edits(self, upto: int | None = None) -> list[dict[str, Any]]:
        """Return the study edits that make the first ``upto`` picks (all by default)."""
        return [t.edit() for t in self.picks[: self._upto(upto)]]

    def cut_state(self, upto: int | None = None) -> GameState:
        """Return the state with the first ``upto`` picks cut."""
        state = self.state
        for target in self.picks[: self._upto(upto)]:
            state = target.cut(state)
        return state

    def _upto(self, upto: Any) -> int:
        """Return how many picks ``upto`` means (None: all); refuse what is not 0 to their number."""
        if upto is None:
            return len(self.picks)
        if (
            isinstance(upto, bool)
            or not isinstance(upto, numbers.Integral)
            or not 0 <= upto <= len(self.picks)
        ):
            raise RefusedError(
                f"upto: {_shown(upto)} is not allowed; give how many of the {len(self.picks)} picks to make, "
                f"0 to {len(self.picks)}, or None for all"
            )
        return int(upto)

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
        """Say the answer in a line: the picks' damage, the method, the bound, and why it stopped early."""
        k = self.k or len(self.picks)
        searched = f"{self.method} over {self.candidates} targets in {self.evaluations} supply determinations"
        stopped = f"; stopped early: {self.stopped}" if self.stopped else ""
        counted = f" of {', '.join(self.formations)}" if self.formations else ""
        measure = f"{self.objective}{counted} ({self.baseline:g})"
        if not self.picks:
            # No "+0 by 0 cuts": say that nothing was cut, and why.
            if self.stopped:
                why = self.stopped
            elif self.optimal:
                why = (
                    f"none of the {self.candidates} targets adds to {measure} "
                    f"when cut, alone or in sets of up to {_cuts(k)}: optimal"
                )
            else:
                why = (
                    f"none of the {self.candidates} targets adds to {measure} "
                    "when cut alone (greedy; a set of them might: method='exact' proves it either way)"
                )
            return f"nothing cut against the {self.side} side: {why} ({searched})"
        if self.optimal:
            sure = f"; optimal: no {_cuts(k)} or fewer of these targets do better"
        elif self.bound is not None:
            sure = f"; within {self.gap:g} of optimal: at most {self.bound:g} could be put out by {_cuts(k)}"
        else:
            sure = "; not proved optimal, and this objective has no bound"
        fewer = ""
        if len(self.picks) < k and not self.stopped:
            why = "no set of more does better" if self.optimal else "no single further cut adds anything"
            fewer = f" (of {k} asked: {why})"
        return (
            f"{_cuts(len(self.picks))}{fewer} against the {self.side} side: {self.objective}{counted} "
            f"{self.baseline:g} -> {self.value:g} (+{self.gain:g}), {searched}{sure}{stopped}{self._hqs()}"
        )

    def _hqs(self) -> str:
        """Say which picks are hexes where an HQ stands: a strike on headquarters, not road interdiction."""
        at_hq = hq_hexes(self.state)
        struck = [f"{t.key} ({at_hq[t.key]})" for t in self.picks if t.kind == "hex" and t.key in at_hq]
        if not struck:
            return ""
        return (
            f"; {len(struck)} of the picks are hexes where an HQ stands, so they strike headquarters, not "
            f"roads: {'; '.join(struck)} (hqs=False leaves them out)"
        )


class LongSearchWarning(UserWarning):
    """A search that will make more supply determinations than ``max_exact`` before it can stop."""


def _cuts(n: int) -> str:
    return f"{n} cut" if n == 1 else f"{n} cuts"


def best_targets(
    state: GameState | str,
    side: str,
    k: int,
    candidates: Any = "bridges",
    objective: Any = "units_out",
    budget: int | None = None,
    method: str = "auto",
    max_exact: int = 2000,
    river: str | list[str] | None = None,
    within: Any = None,
    client: Any = None,
    hqs: bool = True,
    formations: Any = None,
    progress: bool = True,
) -> InterdictionResult:
    """Find the ``k`` targets whose cutting most damages ``side``'s supply on ``state``.

    Parameters
    ----------
    state
        The situation (any registered rule system's), or a scenario's name or path (it is loaded).
    side
        ``"allied"`` or ``"german"``: the side whose supply the cuts hurt.
    k
        How many targets to cut (the air effort): a whole number, at least 1 and at most the number of
        candidates (more is refused, saying how many there are).
    candidates, river, within
        What may be cut (:func:`normandy_lab.interdiction.candidates.targets`): ``"bridges"``,
        ``"road_hexes"``, hex ids or a shapely area; bridges over the river of that whole name; targets
        inside an area.  Bridges are refused for a game whose rules give them no effect on supply
        (``RuleSet.no_bridge_effect``: The Killing Ground's lines cross any river), saying why.
    hqs
        Whether hexes where an HQ stands are candidates (True: labelled "HQ in hex ...", and the summary
        names the picks that strike an HQ; False: left out, for road interdiction proper).
    objective
        ``"units_out"``, ``"line_mp"`` or a function ``(report, side) -> float`` (a finite number).
    formations
        Count only the units of these formations (``units_out`` only): a key as
        :func:`normandy_lab.side_by_side` writes it (``"DE lehr pz div"``, ``"DE 12 SS pz div"``) or the
        game's own name (``"Panzer-Lehr-Division"``), or a list of them.  The bound counts them alone too.
    method
        ``"auto"`` (default): greedy, then swaps, then, for ``units_out``, a branch and bound from greedy's
        answer that proves it optimal or finds better, all within the budget (or, without one, within
        ``max_exact`` determinations after greedy's); the result says whether it is optimal or how far
        from it it may be.  ``"exact"``: branch and bound (``units_out``) or every set of k (another
        objective), refused before it starts when its worst case (every set) exceeds ``max_exact`` or the
        budget.  ``"greedy"``: greedy, then swaps, with the bound beside the answer.
    budget
        The most supply determinations the search may make, in all (None: see ``method``; else a whole
        number, at least 1).  Greedy needs one for the uncut state and one a target to start; a search that
        spends its budget keeps what it found and says so (``result.stopped``, the summary).
    max_exact
        The most supply determinations a search makes beyond greedy's without a budget: ``auto``'s swaps and
        branch and bound, and the worst case ``exact`` may start (its sets of k, and the few that order its
        picks).
    client
        A ``distributed.Client``: the sets are evaluated through :func:`normandy_lab.sweep` on its cluster,
        in batches (``"units_out"`` and ``"line_mp"`` only; a custom objective needs the report and runs
        here).  The exact search there is an enumeration (the bound needs each set's lines, which stay on
        the cluster).  None (or False): in this process; anything else is refused.
    progress
        Show a progress bar of the supply determinations (a widget in a notebook, text elsewhere).

    Returns
    -------
    InterdictionResult

    Raises
    ------
    RefusedError
        Before the search, for an argument that is none of these (the message names the argument, the
        value, what is allowed and the nearest name), for candidates that leave nothing to cut or fewer than
        ``k``, for bridges under rules where no bridge changes supply, and for an exact search out of reach;
        during it, for an objective that returns anything but a finite number.
    """
    from tqdm.auto import tqdm

    from normandy_lab.engine.supply import supply

    state = state_arg(state, "best_targets")
    side = _one_of("side", side, ("allied", "german"))
    k = _whole("k", k, "k is how many targets to cut")
    budget = (
        None
        if budget is None
        else _whole("budget", budget, "budget is the most supply determinations to make")
    )
    max_exact = _whole("max_exact", max_exact, "max_exact is the most sets of k an exact search may try")
    method = _one_of("method", method, ("auto", "exact", "greedy"))
    if not callable(objective):
        _one_of("objective", objective, ("units_out", "line_mp"), "or a function (report, side) -> float")
    if not isinstance(progress, bool):
        raise RefusedError(f"best_targets: progress: {_shown(progress)} is not True or False")
    units: frozenset[str] | None = None
    named: list[str] = []
    if formations is not None:
        if objective != "units_out":
            raise RefusedError(
                "best_targets: formations: counts the formations' units out of supply, so it goes with "
                f"objective='units_out', not {_shown(objective)}"
            )
        units, named = formation_units(state, side, formations, "best_targets")
    client = client_arg(client, "best_targets", "None (or False) to search in this process")
    if client is not None and callable(objective):
        raise RefusedError(
            "best_targets: objective: a custom objective reads the report, which stays on the cluster; run "
            "it without a client, or use 'units_out' or 'line_mp'"
        )
    found = _targets(state, candidates, river, within, "best_targets", hqs)
    if state.rules.no_bridge_effect and any(t.kind == "bridge" for t in found):
        raise RefusedError(no_bridge_words(state, "best_targets"))
    n = len(found)
    if n == 0:
        kinds = {"bridges": "bridge", "road_hexes": "road hex"}
        kind = kinds.get(candidates, "target") if isinstance(candidates, str) else "target"
        over = f" over the {_rivers(river)}" if river else ""
        sheets = " sheets in play" if state.maps else ""
        raise RefusedError(
            f"best_targets: candidates: nothing to cut: no {kind}{over} is still standing on the "
            f"{state.system} map{sheets}; repair some, or choose other candidates"
        )
    if k > n:  # k = 10**12 would run an exact "search" of one set, ordering its n picks: n**2 / 2 supply runs
        raise RefusedError(too_many_cuts(k, n, "best_targets"))
    sets = math.comb(n, k)
    baseline_report = supply(state)
    # The bound (and so the branch and bound) holds for units out, where the side traces its lines.
    bounded = objective == "units_out" and Lines(baseline_report, side, units).traces
    # An exact search's worst case: every set, the uncut state, and the smaller sets that order its picks.
    need = sets + k * (k + 1) // 2
    over_budget = budget is not None and need > budget
    too_many = budget is None and need > max_exact
    if method == "exact" and (over_budget or too_many):
        # The estimate's yardstick: one determination with a cut made, timed now that the first one has
        # paid for loading what every determination shares (the kernels, the map's tables).
        started = time.perf_counter()
        supply(found[0].cut(state))
        each = time.perf_counter() - started
        raise RefusedError(_too_large(n, k, sets, need, each, budget, max_exact))
    # auto enumerates every set only for an objective without a bound, when they are few enough.
    runs_greedy = method == "greedy" or (method == "auto" and (bounded or too_many or over_budget))
    if runs_greedy and budget is not None and budget < n + 1:
        raise RefusedError(
            f"best_targets: budget: {budget} supply determinations are too few: greedy needs at least "
            f"{n + 1} (the uncut state and each of the {n} targets once) before its first pick; give a "
            "larger budget, none, or fewer candidates (river=, within=, a shortlist)"
        )
    fn, name = resolve(objective, baseline_report, side, units)
    rows_fn = None
    if client is not None:
        rows_fn = from_rows(name, baseline_report, side, units)
    # The bar's end is the most the search may spend, where it is known: the budget, or an exact search's
    # worst case (greedy's re-evaluations are not known before it runs).
    planned = budget if budget is not None else (None if runs_greedy else need)
    if budget is None and runs_greedy and n + 1 > max_exact:
        warnings.warn(
            f"best_targets: greedy over {n:,} targets needs {n + 1:,} supply determinations to start, more "
            f"than max_exact ({max_exact:,}); it makes them (the bar counts them), then at most "
            f"{max_exact:,} more; give budget= to cap the whole search, or fewer candidates (river=, "
            "within=, a shortlist)",
            LongSearchWarning,
            stacklevel=2,
        )
    bar = tqdm(
        total=planned,
        desc=f"best_targets ({method})",
        unit="determination",
        disable=not progress,
        leave=False,
    )
    evaluator = Evaluator(state, side, fn, client=client, from_rows=rows_fn, name=name, bar=bar)
    evaluator.targets = found
    evaluator.cache[frozenset()] = evaluator.checked(fn(baseline_report, side), frozenset())
    evaluator.reports[frozenset()] = baseline_report
    evaluator.runs = 1  # the uncut state's determination, made above
    bound = None
    if bounded:
        bound, _ = coverage_bound(baseline_report, side, found, k, units)
    stopped, optimal = "", False
    try:
        if not runs_greedy:
            if bounded and client is None:
                bar.set_description("best_targets: branch and bound")
                picks, value, optimal = branch_and_bound(evaluator, n, k, units, ((), -math.inf), budget)
                used = "branch and bound"
            else:
                bar.set_description("best_targets: every set")
                picks, value = exact(evaluator, n, k)
                optimal, used = True, "exact"
        else:
            bar.set_description("best_targets: greedy")
            picks, value, stopped = greedy(evaluator, n, k, budget)
            # Beyond greedy: the budget, or max_exact more determinations.
            cap = budget if budget is not None else evaluator.evaluations + max_exact
            used = "greedy"
            if not stopped and picks:
                bar.set_description("best_targets: swaps")
                picks, value, finished = swap(evaluator, n, picks, value, units, bounded, cap)
                if not finished:
                    stopped = f"the budget of {cap:,} supply determinations ran out during the swaps"
            optimal = bound is not None and value - evaluator.value(frozenset()) >= bound
            if method == "auto" and bounded and client is None and not stopped and not optimal:
                bar.set_description("best_targets: branch and bound")
                picks, value, optimal = branch_and_bound(evaluator, n, k, units, (picks, value), cap)
                used = "greedy, then branch and bound"
                if not optimal:
                    limit = f"the budget of {cap:,}" if budget is not None else f"max_exact ({max_exact:,})"
                    stopped = (
                        f"the branch and bound stopped at {limit} supply determinations before it could "
                        "prove the answer optimal; give a larger budget= to search on"
                    )
        if method == "exact" and not optimal:
            stopped = f"the budget of {budget:,} supply determinations ran out before the search was complete"
        picks = _canonical(evaluator, picks, value)
    finally:
        bar.close()
    table = _table(evaluator, found, list(picks), side, baseline_report, units)
    return InterdictionResult(
        side=side, objective=name, method=used, picks=[found[i] for i in picks],
        baseline=evaluator.value(frozenset()), value=value,
        bound=None if bound is None else float(bound), evaluations=evaluator.evaluations, candidates=n,
        table=table, state=state, k=k, stopped=stopped, optimal=optimal, formations=named,
    )  # fmt: skip


def no_bridge_note(state: GameState) -> str:
    """Say that no bridge cut can change supply under ``state``'s rules, and why; "" where one can.

    The why is the rule system's own words (``RuleSet.no_bridge_effect``), not a list of games here.
    """
    why = state.rules.no_bridge_effect
    if not why:
        return ""
    title = state.rules.title or state.system
    return f"no bridge cut can change supply under {title} as the engine plays it: {why}"


def no_bridge_words(state: GameState, caller: str) -> str:
    """Refuse bridges where they change no supply: :func:`no_bridge_note`, and what can be cut instead."""
    return (
        f"{caller}: candidates: {no_bridge_note(state)}; a search over bridges would only find +0, so "
        "cut what the lines do run through instead: candidates='road_hexes' (each road hex interdicted; a "
        "hex where an HQ stands is labelled HQ, and hqs=False leaves those out), a list of hex ids or an area"
    )


def too_many_cuts(k: int, n: int, caller: str) -> str:
    """Refuse ``k`` cuts of ``n`` candidates when ``k > n``: both numbers, and the ``k`` that would do."""
    them, held = ("it", "1 target") if n == 1 else (f"all {n}", f"{n} targets")
    return (
        f"{caller}: k: {k:,} cuts asked, but the candidates hold only {held}; give k={n} to cut {them} (or "
        "fewer), or more candidates"
    )


def client_arg(client: Any, caller: str, none: str) -> Any:
    """Return a ``dask.distributed`` client argument (None for False); refuse anything else, naming it.

    Anything else would fail deep in the search (``'int' object has no attribute 'scheduler_info'``).
    """
    if client is None or client is False:
        return None
    from distributed import Client

    if not isinstance(client, Client):
        raise RefusedError(
            f"{caller}: client: {_shown(client)} is not a dask.distributed Client; give a Client "
            f"(normandy_lab.sweeps.local_cluster(2), distributed.Client('tcp://...')), or {none}"
        )
    return client


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _whole(name: str, value: Any, what: str, caller: str = "best_targets") -> int:
    """Return a whole-number argument of at least 1, refusing anything else (True and 2.0 included)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise RefusedError(
            f"{caller}: {name}: {_shown(value)} is not allowed; {what}: a whole number, at least 1"
        )
    return int(value)


def _one_of(
    name: str, value: Any, allowed: tuple[str, ...], more: str = "", caller: str = "best_targets"
) -> str:
    """Return a text argument that is one of ``allowed``, refusing anything else with the nearest."""
    if isinstance(value, str) and value in allowed:
        return value
    close = difflib.get_close_matches(value, allowed, n=1) if isinstance(value, str) else []
    hint = f"did you mean {close[0]!r}? " if close else ""
    listed = ", ".join(repr(a) for a in allowed)
    more = f" {more}" if more else ""
    said = f"{caller}: {name}: {_shown(value)} is not allowed"
    raise RefusedError(f"{said}; {hint}give one of {listed}{more}")


def _duration(seconds: float) -> str:
    """Say a duration roughly, in the unit that reads best."""
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:,.0f} {unit}"
    return f"{seconds:.0f} seconds"


def _too_large(n: int, k: int, sets: int, need: int, each: float, budget: int | None, max_exact: int) -> str:
    """Say why an exact search is refused: its size, an estimate of its time, and what would do instead."""
    if budget is not None:
        limit = f"the budget ({budget:,}; it needs {need:,} with the uncut state and the picks' order)"
    else:
        limit = f"max_exact ({max_exact:,})"
    order = f" and {need - sets:,} more to order its picks" if need - sets > sets else ""
    tried = f"{sets:,} {'set' if sets == 1 else 'sets'}{order}"
    return (
        f"best_targets: method: an exact search over {n} targets tries every set of {k}: {tried}, one "
        f"supply determination each, about {_duration(need * each)} at {each:.2g} s a determination "
        f"(one timed just now), more than {limit}; method='greedy' would do: it tries each target once "
        f"({n + 1:,} determinations with the uncut state), then a few more for each further pick; or give "
        f"fewer candidates (river=, within=, a shortlist), or a budget of at least {need:,} to run it anyway"
    )


def _canonical(evaluator: Evaluator, picks: tuple[int, ...], value: float) -> tuple[int, ...]:
    """Return the picks without those that add nothing, the one that adds most first.

    A search over sets of exactly k (enumeration, greedy's swaps) may carry a cut worth nothing: dropping it
    keeps the value, so the answer says fewer cuts do as much.  Both ways of searching then answer alike.
    """
    kept = list(_most_first(evaluator, tuple(picks)))
    for i in reversed(list(kept)):
        fewer = frozenset(j for j in kept if j != i)
        if evaluator.value(fewer) >= value:
            kept.remove(i)
    return tuple(kept)


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
    evaluator: Evaluator,
    found: list[Target],
    picks: list[int],
    side: str,
    baseline: Any,
    units: frozenset[str] | None = None,
) -> pd.DataFrame:
    """One row a pick: what it cuts, what it adds, the units it puts out given the picks before it.

    ``units_out`` is a list of unit ids (those counted: the formations' only, with ``formations=``).
    """
    rows = []
    counted = (lambda r: True) if units is None else (lambda r: r.unit_id in units)
    before_out = {r.unit_id for r in baseline.out_of_supply(side) if counted(r)}
    before_value = evaluator.value(frozenset())
    start = before_value
    for n, i in enumerate(picks, 1):
        chosen = frozenset(picks[:n])
        report = evaluator.report(chosen)
        out = {r.unit_id for r in report.out_of_supply(side) if counted(r)}
        value = evaluator.value(chosen)
        rows.append(
            {
                "pick": n, "kind": found[i].kind, "target": found[i].key, "label": found[i].label,
                "gain": value - before_value, "total": value - start,
                "units_out": sorted(out - before_out),
            }
        )  # fmt: skip
        before_out |= out
        before_value = value
    columns = ["pick", "kind", "target", "label", "gain", "total", "units_out"]
    return pd.DataFrame(rows, columns=columns)
