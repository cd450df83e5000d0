"""Benchmark: the explorer's step and edit on the full BfN map with the 13 June 1944 scenario.

Run::

    .venv/bin/python benchmarks/bench_explorer.py [--repeat N]

Reports medians, server side, of: a phase step (engine reports + replacing
the changed layers' columns + jupyter_bokeh building its patch messages);
an edit (interdicting a hex on a line of supply, then clearing it); and in
the same run the baseline, the engine's supply determination alone, so the
view's overhead is a ratio.  Bytes to the browser are counted from the comm
messages the map widget sends (JSON content plus binary buffers) plus the
text of the label, status and inspector widgets; reported per step, per
edit, and for a full redraw (every layer re-sent, the worst case: what a
step costs when everything on the map has changed).
Targets (issue 5): step and edit <= 100 ms median; <= 1 MB per step.
Results go to benchmarks/results/explorer.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import normandy_lab as nl


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    explorer = nl.explore("bfn_1944-06-13_am")
    sent: list[int] = []

    def count(content: dict[str, Any], buffers: list[bytes] | None = None) -> None:
        # What jupyter_bokeh hands to the kernel's comm, message by message.
        sent.append(len(json.dumps(content)) + sum(len(b) for b in buffers or []))

    explorer.map_widget.send = count  # no front end here: measure instead of sending
    unit = next(r for r in explorer.report.units.values() if r.general and len(r.path) >= 4)
    target = unit.path[len(unit.path) // 2]
    explorer.select_unit(unit.unit_id)

    def text_bytes() -> int:
        return sum(len(w.value.encode()) for w in (explorer.label, explorer.status, explorer.inspector))

    step_times, step_bytes, step_messages, edit_times, edit_bytes, baseline = [], [], [], [], [], []
    for _ in range(args.repeat):
        sent.clear()
        start = time.perf_counter()
        explorer.step()
        step_times.append(time.perf_counter() - start)
        step_bytes.append(sum(sent) + text_bytes())
        step_messages.append(len(sent))
        explorer.mode.value = "interdict hex"
        for _ in range(2):  # interdict, then clear: the state returns to where it was
            sent.clear()
            start = time.perf_counter()
            explorer.click_hex(target)
            edit_times.append(time.perf_counter() - start)
            edit_bytes.append(sum(sent) + text_bytes())
        explorer.mode.value = "inspect"
        state = explorer.state
        start = time.perf_counter()
        state.rules.determine_supply(state)  # a determination: supply(state) has the explorer's kept report
        baseline.append(time.perf_counter() - start)
    # Worst case: empty every layer, then redraw all of them at once.
    explorer.show_all_paths.value = True  # every line of supply too
    for source in explorer.sources.values():
        source.data = {key: [] for key in source.data}
    sent.clear()
    start = time.perf_counter()
    explorer.refresh()
    full_time = time.perf_counter() - start
    full_bytes = sum(sent) + text_bytes()
    results = {
        "units": len(explorer.state.units),
        "step_median_s": statistics.median(step_times),
        "edit_median_s": statistics.median(edit_times),
        "baseline_supply_median_s": statistics.median(baseline),
        "bytes_per_step_median": statistics.median(step_bytes),
        "bytes_per_step_max": max(step_bytes),
        "messages_per_step_max": max(step_messages),
        "bytes_per_edit_median": statistics.median(edit_bytes),
        "full_redraw_s": full_time,
        "full_redraw_bytes": full_bytes,
        "full_redraw_messages": len(sent),
    }
    results["step_over_baseline"] = results["step_median_s"] / results["baseline_supply_median_s"]
    results["edit_over_baseline"] = results["edit_median_s"] / results["baseline_supply_median_s"]
    for key, value in results.items():
        print(f"{key}: {value:.4f}" if isinstance(value, float) else f"{key}: {value}")
    time_ok = max(results["step_median_s"], results["edit_median_s"]) <= 0.100
    bytes_ok = max(results["bytes_per_step_max"], full_bytes) <= 1_000_000
    print(
        f"explorer: {'meets' if time_ok else 'MISSES'} the 100 ms target; "
        f"{'meets' if bytes_ok else 'MISSES'} the 1 MB per step target"
    )
    out = Path(__file__).resolve().parent / "results" / "explorer.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
