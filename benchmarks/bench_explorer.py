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

``--class-cycle`` measures instead what a class kernel spends on each of a student's actions in
``benchmarks/bench_class.py`` (issue 33, section 1): the BfN page made as a class kernel makes it
(``NORMANDY_LAB_CLASS=1``, :class:`~normandy_lab.views.classroom.ClassPage`), its widgets' comms
serialising and signing every message as a kernel's would, then Step, weather Storm, Step, weather Overcast
over and over, each action sent as the page's message (a button's ``click``, the dropdown's new ``index``)
inside a running event loop, and timed in process CPU until the loop is idle: the deferred *why* line, the
widgets' state, the map's patch, the heap trimmed after each update and the collector's work included.
Reports the median CPU per action and, with ``--profile``, the functions that took most of it.  Results
go to benchmarks/results/explorer_class_cycle.json::

    .venv/bin/python benchmarks/bench_explorer.py --class-cycle [--cycles 8] [--profile]
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
    parser.add_argument("--class-cycle", action="store_true", help="a class kernel's CPU per action")
    parser.add_argument("--cycles", type=int, default=8, help="--class-cycle: rounds of the four actions")
    parser.add_argument("--profile", action="store_true", help="--class-cycle: a cProfile breakdown too")
    parser.add_argument(
        "--every-state-new",
        action="store_true",
        help="--class-cycle: forget the kept reports before each action (each state determined anew)",
    )
    args = parser.parse_args()
    if args.class_cycle:
        class_cycle(args.cycles, args.profile, args.every_state_new)
        return
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


CLASS_ACTIONS = ("step", "storm", "step", "overcast")  # benchmarks/bench_class.py's cycle


def _kernel_comms() -> None:
    """Give every widget made from now on a comm that serialises and signs its messages as a kernel's does.

    Without a kernel, ipywidgets' comms drop their messages unserialised: the JSON packing and the HMAC of
    jupyter_client's session, which a class kernel pays on every widget update, would go unmeasured.
    """
    import comm
    from comm.base_comm import BaseComm
    from jupyter_client.session import Session

    session = Session(key=b"class-cycle")

    class KernelComm(BaseComm):
        def publish_msg(self, msg_type, data=None, metadata=None, buffers=None, **keys):  # type: ignore[no-untyped-def]
            content = dict(data=data or {}, comm_id=self.comm_id, **keys)
            session.serialize(session.msg(msg_type, content=content, metadata=metadata or {}))

    comm.create_comm = lambda *args, **kwargs: KernelComm(*args, **kwargs)


def _message(widget: Any, name: str) -> dict[str, Any]:
    """Return the comm message a page sends for a student's action (as benchmarks/bench_class.py sends)."""
    if name == "step":
        data: dict[str, Any] = {"method": "custom", "content": {"event": "click"}}
    else:
        labels = list(widget._options_labels)
        index = labels.index("Storm" if name == "storm" else "Overcast")
        data = {"method": "update", "state": {"index": index}, "buffer_paths": []}
    return {"content": {"data": data, "comm_id": widget.comm.comm_id}, "buffers": []}


def class_cycle(cycles: int, profile: bool, every_state_new: bool = False) -> None:
    """Time a class kernel's CPU for each action of the class benchmark's cycle (see the module's text)."""
    import asyncio
    import cProfile
    import io
    import os
    import pstats

    os.environ["NORMANDY_LAB_CLASS"] = "1"  # as the class server's kernels run: gc.freeze, file controls off
    _kernel_comms()
    from normandy_lab.engine.supply import forget_reports
    from normandy_lab.views.classroom import ClassPage

    async def run() -> dict[str, Any]:
        # The page is made, and shown, inside the loop: as in a kernel, the why line is deferred to it.
        page = ClassPage("bfn_1944-06-13_am")
        explorer = page.show(query="")
        await asyncio.sleep(0)
        widgets = {"step": explorer.step_button, "storm": explorer.weather, "overcast": explorer.weather}
        times: dict[str, list[float]] = {name: [] for name in CLASS_ACTIONS}
        profiler = cProfile.Profile(time.process_time)  # CPU, as the table: the machine may be shared

        async def act(name: str, measured: bool) -> float:
            widget = widgets[name]
            message = _message(widget, name)
            before = explorer.refresh_count.value
            if every_state_new:
                forget_reports()  # the worst case: no state's determination is found kept
            if measured and profile:
                profiler.enable()
            start = time.process_time()
            widget._handle_msg(message)
            for _ in range(5):  # until the loop is idle: the deferred why line and what it schedules
                await asyncio.sleep(0)
            spent = time.process_time() - start
            if measured and profile:
                profiler.disable()
            if explorer.refresh_count.value == before:
                raise RuntimeError(f"the action {name!r} did not update the page")
            if "Working out why" in explorer.label.value:
                raise RuntimeError(f"the why line of {name!r} was still deferred when the loop was idle")
            return spent

        labels = ["step (overcast)", "storm", "step (storm)", "overcast"]
        # The first round apart: what the first of each action builds once, and no state seen before.
        first = [await act(name, measured=False) for name in CLASS_ACTIONS]
        for _ in range(cycles):
            for label, name in zip(labels, CLASS_ACTIONS, strict=True):
                times.setdefault(label, []).append(await act(name, measured=True))
        results: dict[str, Any] = {
            "cycles": cycles,
            "load_average": os.getloadavg()[0],
            "state_shown": explorer.state.label,
            "every_state_new": every_state_new,
        }
        for label, spent in zip(labels, first, strict=True):
            results[f"first round {label}_cpu_s"] = spent
        for label in labels:
            results[f"{label}_cpu_median_s"] = statistics.median(times[label])
        for label in labels:
            results[f"{label}_cpu_s"] = [round(t, 4) for t in times[label]]
        every = [t for label in labels for t in times[label]]
        results["action_cpu_median_s"] = statistics.median(every)
        results["action_cpu_mean_s"] = statistics.fmean(every)
        if profile:
            out = io.StringIO()
            stats = pstats.Stats(profiler, stream=out)
            stats.sort_stats("cumulative").print_stats(45)
            stats.sort_stats("tottime").print_stats(30)
            print(out.getvalue())
        return results

    results = asyncio.run(run())
    for key, value in results.items():
        print(f"{key}: {value:.4f}" if isinstance(value, float) else f"{key}: {value}")
    out = Path(__file__).resolve().parent / "results" / "explorer_class_cycle.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
