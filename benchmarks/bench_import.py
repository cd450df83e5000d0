"""Benchmark: how much ``import normandy_lab`` costs against the libraries it is built on.

Run::

    .venv/bin/python benchmarks/bench_import.py [--repeat N]

Each measure runs in a fresh Python process (nothing cached in memory; the operating system's file cache
is warm after the first round) and times the import statement alone, without the interpreter's start:

* ``deps``: ``import numpy, pandas, shapely, pyproj, geopandas, networkx`` -- the floor;
* ``normandy_lab``: ``import normandy_lab``;
* ``first_supply``: ``import normandy_lab`` and determine the supply of the 13 June scenario -- the engine,
  numba's compiled searches and the terrain load on first use, so this is what a notebook's first cell pays.

Rounds interleave the three, so that a slow spell of the machine falls on all of them.  Target (issue 15):
``import normandy_lab`` at most 1.3 x the import of its dependencies.  Results go to
benchmarks/results/import.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MEASURES = {
    "deps": "import numpy, pandas, shapely, pyproj, geopandas, networkx",
    "normandy_lab": "import normandy_lab",
    "first_supply": "import normandy_lab as nl; nl.supply(nl.load_scenario('bfn_1944-06-13_am'))",
}


def _time_in_fresh_process(statement: str) -> float:
    code = f"import time; t = time.perf_counter(); {statement}; print(time.perf_counter() - t)"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    times: dict[str, list[float]] = {name: [] for name in MEASURES}
    for statement in MEASURES.values():  # warm the file cache
        _time_in_fresh_process(statement)
    for _ in range(args.repeat):
        for name, statement in MEASURES.items():
            times[name].append(_time_in_fresh_process(statement))
    medians = {f"{name}_median_s": round(statistics.median(values), 4) for name, values in times.items()}
    ratio = medians["normandy_lab_median_s"] / medians["deps_median_s"]
    results = {**medians, "normandy_lab_over_deps": round(ratio, 3), "target": "normandy_lab <= 1.3 x deps"}
    for key, value in results.items():
        print(f"{key}: {value}")
    print(f"import: {'meets' if ratio <= 1.3 else 'MISSES'} the 1.3x target")
    out = ROOT / "benchmarks" / "results" / "import.json"
    out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
