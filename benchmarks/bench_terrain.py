"""Benchmark: terrain-map build time and cached-load time for each grid.

Run::

    .venv/bin/python benchmarks/bench_terrain.py [--repeat N]

Prints, per system, the time of a full build (derivation from geography)
and the median time of loading the cached map from disk in a fresh state,
and, as the baseline measured in the same run, the median time of building
the bare hex polygons of the same grid (``grid(system).to_geodataframe()``),
so that machine noise shows in both.  Results are also written to benchmarks/results/terrain.json.
Target (issue 3): cached load of the largest grid <= 2 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from normandy_lab import SYSTEMS, grid
from normandy_lab import terrain as terrain_module


def _cached_load(system: str, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        terrain_module._MEMORY.clear()
        start = time.perf_counter()
        terrain_module.terrain_map(system, progress=False)
        times.append(time.perf_counter() - start)
    return times


def _baseline(system: str, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        grid(system).to_geodataframe()
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    results = {}
    with tempfile.TemporaryDirectory() as cache:
        import os

        os.environ["NORMANDY_LAB_CACHE"] = cache
        for system in SYSTEMS:
            grid(system).georeference  # noqa: B018 - warm the grid, not part of the terrain build
            terrain_module._MEMORY.clear()
            start = time.perf_counter()
            terrain_module.terrain_map(system, progress=False)
            build = time.perf_counter() - start
            loads = _cached_load(system, args.repeat)
            cache_file = next(Path(cache, "terrain").glob(f"{system}-*.pickle"))
            baseline = _baseline(system, args.repeat)
            results[system] = {
                "hexes": len(grid(system)),
                "build_s": round(build, 3),
                "cached_load_median_s": round(statistics.median(loads), 4),
                "baseline_hex_polygons_median_s": round(statistics.median(baseline), 4),
                "load_over_baseline": round(
                    statistics.median(loads) / max(statistics.median(baseline), 1e-9), 1
                ),
                "cache_bytes": cache_file.stat().st_size,
            }
            print(system, results[system], flush=True)
    out = Path(__file__).resolve().parent / "results" / "terrain.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2))
    largest = max(results, key=lambda s: results[s]["hexes"])
    verdict = "meets" if results[largest]["cached_load_median_s"] <= 2.0 else "MISSES"
    seconds = results[largest]["cached_load_median_s"]
    print(f"largest grid {largest}: cached load {seconds} s ({verdict} the 2 s target)")


if __name__ == "__main__":
    main()
