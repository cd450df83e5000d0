"""Benchmark: supply determination on the full BfN map with the 13 June 1944 scenario.

Run::

    .venv/bin/python benchmarks/bench_supply.py [--repeat N]

Reports medians of: the full supply determination of both sides with its
reports (reasons, paths); the EZOC coverage of both sides; one phase step
(with what the phase computes); and, in the same run, the floor: one bare
``scipy.sparse.csgraph`` multi-source Dijkstra over the same graph (the
German supply sources to every hex, MP weights, matrix prebuilt).
Each round times every measure once, in turn, so the supply and the floor
run under the same machine and cache conditions.  Targets (issue 4):
supply of both sides <= 5x the floor and <= 50 ms.

The Cobra case (issue 16): *Alternate Cobra* (GT 15), both sides' supply as the rule system determines it
(its 10.3 count over the core's layered graph, with every unit's line), against the floor of two bare
``csgraph`` multi-source Dijkstras over the same layered graph (each side's sources to every node).
The KG case (issue 17): scenario 22.6.8 stepped into Turn 3, both sides' Build-up supply against two bare
``csgraph`` multi-source Dijkstras over the same land hexsides.
Where the units stand and their ZOCs (``Situation.of``) are found once for a state and kept: the rounds time
determinations of one state, so that is done in the warm-up, as each floor's blocked hexes are built before
it is timed.  ``phase_step`` times a new state each round, so it includes them.
Results go to benchmarks/results/supply.json.

``--clock cpu`` times with the process's CPU time instead of the wall clock: on a machine shared with
other work (more runnable processes than cores) the wall clock mostly measures the waits for a core,
and the floor itself varies several times over; CPU time still counts each call's own work.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from normandy_lab.engine import load_scenario, supply
from normandy_lab.engine.lines import Situation, blocked_mask
from normandy_lab.engine.sequence import next_phase, phase_effects
from normandy_lab.engine.zoc import zoc_mask
from normandy_lab.rules import ruleset
from normandy_lab.rules.bfn.supply import german_sources, side_lines
from normandy_lab.rules.cobra.supply import line_graph, sources

# What the rounds are timed with (--clock): the wall clock, or the process's CPU time.
CLOCK: Callable[[], float] = time.perf_counter


def _medians(fns: dict[str, Callable[[], object]], repeat: int) -> dict[str, float]:
    """Median time of each function, measured in turns (one call of each per round).

    Rounds interleave the functions so that a slow spell of the machine
    falls on all of them, not on one; the cyclic garbage collector is off
    while a call is timed, as in :mod:`timeit` (its pauses come from the
    whole heap, not from the code measured).
    """
    times: dict[str, list[float]] = {name: [] for name in fns}
    for fn in fns.values():
        fn()  # warm
    for _ in range(repeat):
        for name, fn in fns.items():
            gc.disable()
            try:
                start = CLOCK()
                fn()
                times[name].append(CLOCK() - start)
            finally:
                gc.enable()
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=41)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall", help="what a median is of")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.clock == "cpu" else time.perf_counter
    state = load_scenario("bfn_1944-06-13_am")
    supply(state)  # warm the caches (terrain map, edge arrays, cost tables)
    rules = ruleset(state.system)
    sources = german_sources(state, rules)
    matrix = side_lines(state, "german").reverse_matrix("mp")
    step_state = state.evolve(phase_index=0)
    # supply() keeps the reports of the last few states (an undo shows one at once): each round times a
    # determination, as supply() of a state not asked about before does.
    determine = rules.determine_supply

    def one_step() -> None:
        phase_effects(next_phase(step_state))

    def with_reasons() -> None:
        # The verdicts, then why every unit out of supply is out (worked out when first read).
        report = determine(state)
        for r in report.out_of_supply():
            _ = r.code

    medians = _medians(
        {
            "supply_both_sides_median_s": lambda: determine(state),
            "supply_with_reasons_median_s": with_reasons,
            "ezoc_both_sides_median_s": lambda: (zoc_mask(state, "allied"), zoc_mask(state, "german")),
            "phase_step_median_s": one_step,
            "floor_csgraph_multisource_dijkstra_median_s": lambda: dijkstra(
                matrix, indices=sources, min_only=True
            ),
        },
        args.repeat,
    )
    results = {"units": len(state.units), "clock": args.clock, **medians}
    # For the record: the floor alone in a tight loop, its data hot in the caches (a kinder floor
    # than the supply determination ever gets; the verdict uses the interleaved one above).
    floor_alone = _medians({"floor": lambda: dijkstra(matrix, indices=sources, min_only=True)}, args.repeat)[
        "floor"
    ]
    results["floor_in_a_tight_loop_median_s"] = floor_alone
    results["supply_over_tight_loop_floor"] = results["supply_both_sides_median_s"] / floor_alone
    results["supply_over_floor"] = (
        results["supply_both_sides_median_s"] / results["floor_csgraph_multisource_dijkstra_median_s"]
    )
    results["supply_with_reasons_over_floor"] = (
        results["supply_with_reasons_median_s"] / results["floor_csgraph_multisource_dijkstra_median_s"]
    )
    for key, value in results.items():
        print(f"{key}: {value:.4f}" if isinstance(value, float) else f"{key}: {value}")
    verdict_ms = "meets" if results["supply_both_sides_median_s"] <= 0.050 else "MISSES"
    verdict_x = "meets" if results["supply_over_floor"] <= 5 else "MISSES"
    print(f"supply: {verdict_ms} the 50 ms target; {verdict_x} the 5x-floor target")
    results.update(_cobra(args.repeat))
    results.update(_kg(args.repeat))
    out = Path(__file__).resolve().parent / "results" / "supply.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2))


def _cobra(repeat: int) -> dict[str, float]:
    """Time Cobra's supply of both sides against two bare csgraph searches over the same layered graph."""
    state = load_scenario("cobra_1944-07-16_gt15")
    rules = state.rules
    rules.determine_supply(state)  # warm
    graph = line_graph(
        rules, state.destroyed_bridges, state.options["major_road"], state.options["major_river"]
    )
    situation = Situation.of(state)
    floors = []
    for side in ("allied", "german"):
        keep = ~graph.node_mask(blocked_mask(state, side, situation))
        keep_edge = keep[graph.head] & keep[graph.tail]
        # Reverse: a line runs from a unit to a source, the search from the sources outwards.
        matrix = csr_matrix(
            (graph.cost[keep_edge].astype(float) + 1e-9, (graph.head[keep_edge], graph.tail[keep_edge])),
            shape=(graph.n, graph.n),
        )
        roots = graph.in_every_layer(np.array(sorted(sources(state, side, situation)), dtype=np.int64))
        floors.append((matrix, roots))

    return _against_floors("cobra", state, floors, repeat)


def _kg(repeat: int) -> dict[str, float]:
    """Time KG's Build-up supply of both sides on Turn 3 against two bare csgraph searches over its graph.

    The state: scenario 22.6.8 (7 June, Turn 2) stepped into Turn 3 (8 June), when tracing starts
    (26.11.1).  The floor: for each side, one multi-source Dijkstra from the sources the determination
    reports (the Allied beach hexes, the German serving city hexes) over the land hexsides its lines may
    use, to every hex.
    """
    from normandy_lab.engine.sequence import next_phase
    from normandy_lab.gamemap import game_map

    start = load_scenario("kg_1944-06-07_t02")
    state = start
    while state.turn == start.turn:
        state = next_phase(state)
    rules = state.rules
    report = rules.determine_supply(state)  # warm
    gmap = game_map(state.system)
    g, e = gmap.grid, gmap.edges
    situation = Situation.of(state)
    floors = []
    for side in ("allied", "german"):
        keep = ~blocked_mask(state, side, situation)
        use = ~e.all_sea & keep[e.src] & keep[e.dst]
        matrix = csr_matrix((np.ones(int(use.sum())), (e.dst[use], e.src[use])), shape=(len(g), len(g)))
        roots = np.array(sorted(g.index(h) for h in report.sources[side]), dtype=np.int64)
        floors.append((matrix, roots))

    return _against_floors("kg", state, floors, repeat)


def _against_floors(name: str, state, floors: list, repeat: int) -> dict[str, float]:
    """Time a rule system's supply of both sides (every unit's line read) against its bare csgraph floors."""
    rules = state.rules

    def floor() -> None:
        for matrix, roots in floors:
            dijkstra(matrix, indices=roots, min_only=True)

    def both_sides() -> None:
        report = rules.determine_supply(state)
        for row in report.units.values():
            _ = row.path  # every unit's line, as the explorer draws them

    supply_key, floor_key = f"{name}_supply_both_sides_median_s", f"{name}_floor_median_s"
    medians = _medians({supply_key: both_sides, floor_key: floor}, repeat)
    medians[f"{name}_units"] = len(state.units)
    ratio = medians[f"{name}_supply_over_floor"] = medians[supply_key] / medians[floor_key]
    verdict = "meets" if ratio <= 5 else "MISSES"
    print(f"{name}: supply {medians[supply_key] * 1000:.1f} ms, {ratio:.2f}x the floor: ", end="")
    print(f"{verdict} the 5x-floor target")
    return medians


if __name__ == "__main__":
    main()
