"""Benchmark: what-if sweeps on Dask and the interdiction optimiser (issue 19), on the 13 June BfN scenario.

Run::

    .venv/bin/python benchmarks/bench_sweep.py [--variants 1000] [--repeat 5]

Reports, with medians over ``--repeat`` runs:

* the per-variant cost of a sweep's work (a variant's state, its supply, its rows; verdicts only, as a
  sweep of counts needs) against a bare ``supply()`` of the same state, in the same run, interleaved;
* the same end to end (issue 34 section 3): the wall time of ``nl.sweep`` from the call to the table,
  per variant, in this process (``client=False``) and on a ``LocalCluster`` of one worker process started
  before, against bare ``supply()`` calls on the variants' states, interleaved in the same run: the target
  is at most 20 % over bare ``supply()`` on one worker;
* how long a fresh worker takes to be ready: a worker whose map cache is empty, from the start of its
  cluster to its first variant back (the sweep ships the map tables to it): the target is at most 10 s;
* a sweep of ``--variants`` variants (weather x cut bridges) on a ``LocalCluster`` of 1 and of 2 worker
  processes, wall time from the call to the table (the cluster started before): the target speed-up is at
  least 1.7x on two workers;
* the optimiser on every bridge of the map for k = 3: greedy's time and supply determinations, and exact's
  size (every set of three) with the time it would take at the measured cost of one determination (it is
  not run: millions of sets).

Results go to benchmarks/results/sweep.json.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import math
import statistics
import time
from pathlib import Path

import normandy_lab as nl
from normandy_lab.engine.supply import supply
from normandy_lab.interdiction import best_targets, targets
from normandy_lab.sweeps import Variant, local_cluster, sweep
from normandy_lab.sweeps.worker import rows_of, situation

SCENARIO = "bfn_1944-06-13_am"


def _variants(state, count: int) -> list[Variant]:
    """Weather x single and paired bridge cuts, ``count`` of them, in a fixed order."""
    bridges = [t.key for t in targets(state, "bridges")]
    weathers = ("Clear", "Overcast", "Storm")
    cut_sets = [[b] for b in bridges] + [list(p) for p in itertools.combinations(bridges[:60], 2)]
    found = []
    for cuts, weather in itertools.product(cut_sets, weathers):
        found.append(Variant.of({"weather": weather, "cuts": cuts}))
        if len(found) == count:
            break
    return found


def _per_variant(state, variants: list[Variant], repeat: int) -> dict[str, float]:
    """Median seconds a variant costs in the sweep's worker code, and a bare supply() of the same state."""
    bases = {"": state}
    work, bare = [], []
    for variant in variants[: 20 * repeat]:
        cut = situation(bases, variant)
        gc.disable()
        try:
            start = time.perf_counter()
            supply(cut)
            bare.append(time.perf_counter() - start)
            start = time.perf_counter()
            rows_of(variant, situation(bases, variant), reasons=False)
            work.append(time.perf_counter() - start)
        finally:
            gc.enable()
    median_work, median_bare = statistics.median(work), statistics.median(bare)
    return {
        "variant_in_sweep_median_s": median_work,
        "bare_supply_median_s": median_bare,
        "sweep_overhead": median_work / median_bare - 1,
    }


def _end_to_end(state, variants: list[Variant], repeat: int) -> dict[str, float]:
    """Median seconds a variant costs end to end, bare, in this process and on one worker (interleaved)."""
    cut = [situation({"": state}, v) for v in variants]
    client = local_cluster(1)
    try:
        sweep(state, variants[:20], client=client, progress=False, reasons=False)  # warm the worker
        bare, here, there = [], [], []
        for _ in range(repeat):
            start = time.perf_counter()
            for s in cut:
                supply(s)
            bare.append((time.perf_counter() - start) / len(variants))
            start = time.perf_counter()
            sweep(state, variants, client=False, progress=False, reasons=False)
            here.append((time.perf_counter() - start) / len(variants))
            start = time.perf_counter()
            table = sweep(state, variants, client=client, progress=False, reasons=False)
            there.append((time.perf_counter() - start) / len(variants))
            assert table.attrs["complete"]
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()
    floor = statistics.median(bare)
    return {
        "end_to_end_variants": len(variants),
        "end_to_end_bare_supply_median_s": floor,
        "end_to_end_in_process_median_s": statistics.median(here),
        "end_to_end_one_worker_median_s": statistics.median(there),
        "end_to_end_in_process_overhead": statistics.median(here) / floor - 1,
        "end_to_end_one_worker_overhead": statistics.median(there) / floor - 1,
    }


def _worker_ready(state, variants: list[Variant]) -> dict[str, float]:
    """Seconds from starting a cluster whose worker has an empty map cache to its first variant back."""
    import tempfile

    from distributed import Client, LocalCluster

    with tempfile.TemporaryDirectory() as empty:
        start = time.perf_counter()
        cluster = LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0",
            env={"NORMANDY_LAB_CACHE": empty},
        )  # fmt: skip
        client = Client(cluster)
        try:
            started = time.perf_counter() - start
            table = sweep(state, variants[:1], client=client, progress=False, reasons=False)
            ready = time.perf_counter() - start
            assert table.attrs["complete"]
        finally:
            client.close()
            cluster.close()
    return {"fresh_worker_cluster_started_s": started, "fresh_worker_first_variant_s": ready}


def _sweep_walls(state, variants: list[Variant], repeat: int) -> dict[str, float]:
    """Median wall time of the sweep on 1 and on 2 worker processes (clusters started beforehand)."""
    out: dict[str, float] = {}
    for workers in (1, 2):
        client = local_cluster(workers)
        try:
            sweep(state, variants[:20], client=client, progress=False, reasons=False)  # warm the workers
            walls = []
            for _ in range(repeat):
                start = time.perf_counter()
                table = sweep(state, variants, client=client, progress=False, reasons=False)
                walls.append(time.perf_counter() - start)
                assert table.attrs["complete"]
            out[f"sweep_{len(variants)}_on_{workers}_workers_median_s"] = statistics.median(walls)
        finally:
            cluster = client.cluster
            client.close()
            cluster.close()
    out["speed_up_2_workers"] = (
        out[f"sweep_{len(variants)}_on_1_workers_median_s"]
        / out[f"sweep_{len(variants)}_on_2_workers_median_s"]
    )
    return out


def _optimiser(state) -> dict[str, float]:
    """Greedy k = 3 over every bridge, timed; exact's size and its time at the cost measured."""
    start = time.perf_counter()
    result = best_targets(state, "german", 3, candidates="bridges", method="greedy")
    greedy_s = time.perf_counter() - start
    n = result.candidates
    per_determination = greedy_s / max(1, result.evaluations)
    sets = math.comb(n, 3)
    return {
        "bridges": n,
        "greedy_k3_s": greedy_s,
        "greedy_k3_determinations": result.evaluations,
        "greedy_k3_gain": result.gain,
        "greedy_k3_bound": result.bound if result.bound is not None else math.nan,
        "exact_k3_sets": sets,
        "exact_k3_estimated_s": sets * per_determination,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--end-to-end", type=int, default=200, help="variants a sweep, end to end")
    parser.add_argument(
        "--only-end-to-end", action="store_true", help="stop after the end-to-end and worker-ready figures"
    )
    args = parser.parse_args()
    state = nl.load_scenario(SCENARIO)
    supply(state)  # warm
    variants = _variants(state, args.variants)
    results: dict[str, float] = {}
    results |= _per_variant(state, variants, args.repeat)
    print(
        f"per variant: {results['variant_in_sweep_median_s'] * 1e3:.1f} ms in the sweep against "
        f"{results['bare_supply_median_s'] * 1e3:.1f} ms bare: overhead {results['sweep_overhead']:.0%} "
        "(the worker's code alone; the 20 % target is for the end-to-end figure below)"
    )
    results |= _end_to_end(state, variants[: args.end_to_end], args.repeat)
    print(
        f"end to end, {args.end_to_end} variants: {results['end_to_end_one_worker_median_s'] * 1e3:.1f} ms a "
        f"variant on one worker, {results['end_to_end_in_process_median_s'] * 1e3:.1f} ms in this process, "
        f"against {results['end_to_end_bare_supply_median_s'] * 1e3:.1f} ms bare: one worker "
        f"{results['end_to_end_one_worker_overhead']:+.0%}, "
        f"in process {results['end_to_end_in_process_overhead']:+.0%} "
        f"({'meets' if results['end_to_end_one_worker_overhead'] <= 0.2 else 'MISSES'} the 20 % target)"
    )
    results |= _worker_ready(state, variants)
    ready = results["fresh_worker_first_variant_s"]
    print(
        f"a worker with an empty map cache: its first variant back {ready:.1f} s after its cluster's start "
        f"(cluster up in {results['fresh_worker_cluster_started_s']:.1f} s; "
        f"{'meets' if ready <= 10 else 'MISSES'} the 10 s target)"
    )
    if args.only_end_to_end:
        _save(results)
        return
    results |= _sweep_walls(state, variants, args.repeat)
    one, two = (results[f"sweep_{len(variants)}_on_{n}_workers_median_s"] for n in (1, 2))
    speed_up = results["speed_up_2_workers"]
    print(
        f"{len(variants)} variants: {one:.1f} s on 1 worker, {two:.1f} s on 2: speed-up {speed_up:.2f}x "
        f"({'meets' if speed_up >= 1.7 else 'MISSES'} the 1.7x target)"
    )
    results |= _optimiser(state)
    print(
        f"optimiser, k = 3 over {results['bridges']} bridges: greedy {results['greedy_k3_s']:.1f} s in "
        f"{results['greedy_k3_determinations']} determinations (+{results['greedy_k3_gain']:g} units out); "
        f"exact would try {results['exact_k3_sets']:,} sets, about "
        f"{results['exact_k3_estimated_s'] / 3600:.0f} h"
    )
    _save(results)


def _save(results: dict[str, float]) -> None:
    """Write the figures to benchmarks/results/sweep.json."""
    out = Path(__file__).resolve().parent / "results" / "sweep.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
