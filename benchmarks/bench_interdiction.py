"""Benchmark: the interdiction optimiser (issue 34, section 1) against the cost of its supply determinations.

Run::

    .venv/bin/python benchmarks/bench_interdiction.py [--repeat N] [--full]

Each case is one ``best_targets`` call, timed ``--repeat`` times (median reported), with the number of supply
determinations it made and how sure its answer is ("optimal", or "within N of optimal").  The floor, measured
in the same run and in turns with the cases, is one bare ``supply()`` of the same scenario with one bridge cut
(each call a bridge not cut before in the run, so that no cache of the engine's serves it).  ``ratio`` is a
case's median time over its determinations times the floor's median: what the search costs beyond the
determinations it must make (1.0: nothing; a set of k cuts also pays k cuts where the floor pays one).
No assertion: the numbers are for reading, and for the docs (``docs/studies.md``).

Cases:

* ``readme``: the README's ``best_targets(state, "german", k=2, river="Vire")`` (auto) on 13 June (BfN).
* ``vire_k3_auto`` and ``vire_k3_greedy``: k = 3 over the 36 Vire bridges, 13 June: auto proves +22 optimal,
  greedy stops at +18.
* ``vire_k3_exact``: the same by branch and bound alone (no greedy start).
* ``cobra_k2_auto`` (``--full`` only, a few minutes): k = 2 over all 306 bridges of Cobra GT15, where greedy
  finds nothing and the two Sèves bridges put 2 out.

Results go to benchmarks/results/interdiction.json.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from pathlib import Path

import normandy_lab as nl
from normandy_lab.interdiction import best_targets, targets


def _timed(fn):  # type: ignore[no-untyped-def]
    """Return (seconds, result) of one call, the cyclic collector off while it runs (as timeit does)."""
    gc.collect()
    gc.disable()
    try:
        started = time.perf_counter()
        result = fn()
        return time.perf_counter() - started, result
    finally:
        gc.enable()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--full", action="store_true", help="also the Cobra case over every bridge")
    args = parser.parse_args()

    june13 = nl.load_scenario("bfn_1944-06-13_am")
    cobra = nl.load_scenario("cobra_1944-07-16_gt15")
    nl.supply(june13), nl.supply(cobra)  # warm: the map's tables, the kernels
    cases = {
        "readme": lambda: best_targets(june13, "german", 2, river="Vire", progress=False),
        "vire_k3_auto": lambda: best_targets(june13, "german", 3, river="Vire", progress=False),
        "vire_k3_greedy": lambda: best_targets(
            june13, "german", 3, river="Vire", method="greedy", progress=False
        ),
        "vire_k3_exact": lambda: best_targets(
            june13, "german", 3, river="Vire", method="exact", budget=10_000, progress=False
        ),
    }
    if args.full:
        cases["cobra_k2_auto"] = lambda: best_targets(cobra, "german", 2, progress=False)
    # Each floor call cuts a bridge no call has cut before: an engine cache keyed by the cuts cannot serve it.
    fresh = {"bfn": iter(targets(june13, "bridges")), "cobra": iter(targets(cobra, "bridges"))}
    floors = {"bfn": june13, "cobra": cobra}
    times: dict[str, list[float]] = {name: [] for name in [*cases, *(f"floor_{k}" for k in floors)]}
    results = {}
    for _ in range(args.repeat):
        for system, state in floors.items():
            for _ in range(5):  # a few, so the floor's median is steady
                cut = next(fresh[system])
                seconds, _ = _timed(lambda s=state, t=cut: nl.supply(t.cut(s)))
                times[f"floor_{system}"].append(seconds)
        for name, fn in cases.items():
            seconds, result = _timed(fn)
            times[name].append(seconds)
            results[name] = result
    report = {}
    for name, result in results.items():
        floor = statistics.median(times["floor_cobra" if name.startswith("cobra") else "floor_bfn"])
        median = statistics.median(times[name])
        report[name] = {
            "median_s": round(median, 3),
            "determinations": result.evaluations,
            "per_determination_ms": round(1000 * median / result.evaluations, 1),
            "ratio_to_floor": round(median / (result.evaluations * floor), 2),
            "gain": result.gain,
            "status": result.status,
            "method": result.method,
            "picks": [t.key for t in result.picks],
        }
    report["floor_bfn_ms"] = round(1000 * statistics.median(times["floor_bfn"]), 1)
    report["floor_cobra_ms"] = round(1000 * statistics.median(times["floor_cobra"]), 1)
    try:
        import os

        report["load_average"] = os.getloadavg()
    except OSError:
        pass
    out = Path(__file__).parent / "results" / "interdiction.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
