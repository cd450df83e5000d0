"""Benchmark: a class of students on the class server (``bash run.sh class``), on this machine.

Run::

    .venv/bin/python benchmarks/bench_class.py [--students 20] [--real 3] [--minutes 5] [--ahead N]

Starts the class server (``python -m normandy_lab.views.classroom``) on a free loopback port, serving
``class/`` with ``--ahead`` kernels (default: one per student, and one the memory pass takes) run ahead for
the BfN explorer page, waits until they have run the page's notebook (their CPU quiet), and first opens
each page (the tour, each game's explorer, each lesson) once in Chromium to read the resident memory of its
kernel from ``/proc/<pid>/smaps_rollup``: RSS; USS, the pages that student's kernel alone holds (the private
dirty ones are its heap); and PSS, USS plus its share of the pages it shares with other kernels (library
code).  At the end of the class each kernel's PSS is its fair share, with every student's kernel running.
``--memory-only`` stops there (``--pages`` names the pages of that pass) and writes
``benchmarks/results/class_memory.json``, with what filling the pool took (times, the kernels' and the fork
server's CPU seconds, their memory).  ``--no-fork-server`` runs the server without its kernels' fork server
(docs/class.md, "Kernels"): every kernel a new process.

Then ``--students`` students arrive, one every 2 s, on the BfN explorer page:

* ``--real`` of them are Debian's headless Chromium pages (one browser, a context each). A page opens when its
  map is painted; each action is timed from the input event to the updated picture: the explorer's label or
  hidden refresh counter changed, then two animation frames;
* the others are simulated: the page is fetched over HTTP (Voilà runs the notebook for that request, as for a
  browser) and the student's kernel is then driven over its websocket with the messages a page sends: the
  widgets' states asked for on the ``jupyter.widget.control`` comm, then a button's ``click`` or a dropdown's
  new ``index`` as ``comm_msg``; an action ends when the kernel's refresh counter widget changes.

Every student makes one action every 10 s in turn, the four kinds of issue 33 (step, click a unit, destroy a
bridge, weather) in a cycle of eight: Step, click a unit, destroy a bridge, weather Storm, Step, click another
unit, weather back to Overcast, repair that bridge (:data:`ACTIONS`), for ``--minutes``.  Each cycle of a
student takes another Orne bridge (:func:`bridge_for`), so a state with a bridge cut is new work for the
kernel, never a state it has kept (it keeps the last six a session showed).  A real page clicks the map with
the mouse at the pixel of a unit's counter or of a bridge's mark (zoomed in there first, untimed, as a person
does; the mode's toggle button clicked first when the action needs another mode); a simulated student sends
what the page sends for that click: the Bokeh ``tap`` event (the map's figure and the point in map
coordinates) over the map widget's comm, as jupyter_bokeh's page does, after the map's range changes that put
it zoomed in (a click selects a unit only when counters are shown) and the mode's new ``index``.  A simulated
student acts at its own moment of the 10 s (a random phase, the same from one run to the next): students
arriving 2 s apart and acting every 10 s from their arrival acted four at once, in five lock-stepped groups,
which a class does not do.  At the end one real page is closed in the middle of an action, and the server
must still answer.  Open times, action times (median and 95th percentile, and the median of each kind of
action), errors, and the kernels' memory are printed as a table and written to
``benchmarks/results/class.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import json
import math
import os
import platform
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import psutil

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "benchmarks" / "results" / "class.json"
MEMORY_RESULTS = REPO / "benchmarks" / "results" / "class_memory.json"
PAGE = "voila/render/explorer_bfn.ipynb"
PAGES = ["01_tour.ipynb", *(f"explorer_{s}.ipynb" for s in ("bfn", "cobra", "kg", "gts"))]
# The lesson pages (issue 33, section 2): open when their exercises are listed (they have no map).
LESSONS = ["lesson_1_cotentin.ipynb", "lesson_2_panzer_lehr.ipynb", "lesson_3_storm.ipynb"]
JS_LESSON_READY = "() => document.querySelectorAll('.nl-exercise').length > 0"
# Each changes what the page shows, wherever the student is (Back on the first phase would not).  The four
# kinds of issue 33, section 1; the repair puts the cycle's bridge back (Undo would take back the weather,
# the last edit).  A bridge's states are new work: each cycle cuts another bridge (bridge_for).
ACTIONS = ["step", "unit", "destroy", "storm", "step", "unit", "overcast", "repair"]
MODES = {"unit": "inspect", "destroy": "destroy bridge", "repair": "repair bridge"}
ZOOM_HALF_M = 5000.0  # metres either side of a click's point: counters and bridge marks are drawn
JS_MAP = """() => {
    const index = Bokeh.index;
    const views = typeof index.query === "function" ? [...index.query(() => true)] : Object.values(index);
    return views.find(v => v.canvas_view != null && Array.isArray(v.model?.renderers)
        && v.model.renderers.some(r => r.data_source?.name === "units")) ?? null;
}"""
# The map's marks (a name's x and y, and its other columns asked for), read from the page's own document.
JS_MARKS = f"""([name, extra]) => {{
    const view = ({JS_MAP})();
    const source = view.model.renderers.map(r => r.data_source).find(s => s?.name === name);
    const data = source.data instanceof Map ? source.data : new Map(Object.entries(source.data));
    return ["x", "y", ...extra].map(c => Array.from(data.get(c) ?? []));
}}"""
JS_ZOOM = f"""([x, y, half]) => {{
    const view = ({JS_MAP})();
    view.model.x_range.setv({{start: x - half, end: x + half}});
    view.model.y_range.setv({{start: y - 0.8 * half, end: y + 0.8 * half}});
    view.el.scrollIntoView({{block: "center"}});
    return true;
}}"""
JS_SCREEN_POINT = f"""([x, y]) => {{
    const view = ({JS_MAP})();
    const frame = view.frame, box = view.canvas_view.el.getBoundingClientRect();
    const sx = frame.x_scale.compute(x), sy = frame.y_scale.compute(y), b = frame.bbox;
    return [box.left + sx, box.top + sy, sx >= b.left && sx <= b.right && sy >= b.top && sy <= b.bottom];
}}"""
JS_PAINTED = """() => {
    if (window.Bokeh === undefined) return false;
    const view = Object.values(Bokeh.index).find(v => v.model.type === "Figure");
    return !!view && Bokeh.documents.every(d => d.is_idle !== false);
}"""
JS_FRAMES = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"
JS_KERNEL_ID = "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
# What a click on the map did: the banner's words and the start of the panel (a unit's report when selected).
JS_ANSWER = """() => [(document.querySelector('.nl-banner') || {}).innerText || '',
    ((document.querySelector('.nl-panel') || {}).innerText || '').slice(0, 80)]"""
JS_STATE = """() => [(document.querySelector('.nl-label') || {}).innerText || '',
    (document.querySelector('.nl-refresh-count') || {}).innerText || '']"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def memory_of(pid: int) -> dict[str, float]:
    """RSS, PSS, USS and private dirty memory of a process, in MB.

    PSS is the fair share of one student: its private pages and its share of the pages it shares with other
    kernels (library code, memory-mapped map tables); USS (private clean and dirty) is what closing it frees.
    """
    fields = {}
    with open(f"/proc/{pid}/smaps_rollup") as handle:
        for line in handle:
            key, _, value = line.partition(":")
            if value.strip().endswith("kB"):
                fields[key] = int(value.split()[0]) / 1024
    return {
        "rss_mb": round(fields["Rss"], 1),
        "pss_mb": round(fields["Pss"], 1),
        "uss_mb": round(fields["Private_Clean"] + fields["Private_Dirty"], 1),
        "private_mb": round(fields["Private_Dirty"], 1),
    }


def kernel_pids(server: psutil.Process) -> dict[str, int]:
    found = {}
    for child in server.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            for argument in child.cmdline():
                if "kernel-" in argument and argument.endswith(".json"):
                    found[Path(argument).stem.removeprefix("kernel-")] = child.pid
    return found


def per_kernel(sizes: list[dict[str, float]]) -> dict[str, Any]:
    """Each kernel's memory, summed up: the kernels, and the mean and largest of each measure, in MB.

    With every student's kernel running, a kernel's PSS is its fair share: its own pages and its share of
    those all kernels hold together (library code); USS is what closing it would free.
    """
    keys = ("rss_mb", "pss_mb", "uss_mb", "private_mb")
    return {
        "kernels": len(sizes),
        **{f"mean_{k}": round(statistics.mean(s[k] for s in sizes), 1) for k in keys},
        **{f"max_{k}": round(max(s[k] for s in sizes), 1) for k in keys},
    }


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def by_kind(timed: list[tuple[str, float]]) -> dict[str, dict[str, float]]:
    """Each kind of action's count and median time."""
    kinds: dict[str, list[float]] = {}
    for name, took in timed:
        kinds.setdefault(name, []).append(took)
    return {name: {"n": len(t), "median": round(statistics.median(t), 3)} for name, t in kinds.items()}


def unit_for(student: int, action: int, count: int) -> int:
    """The unit a student clicks at an action: another for each click and each student."""
    return (student * 37 + action * 11) % count


def bridge_for(student: int, action: int, count: int) -> int:
    """The bridge of a student's cycle (cut, then repaired): the next one each cycle, another per student."""
    return (student * 3 + action // len(ACTIONS)) % count


def river_bridges(
    xs: list[float], ys: list[float], water: list[str], units: list[tuple[float, float]], count: int = 12
) -> list[tuple[float, float]]:
    """The ``count`` bridge marks (hexside middles) over the Orne nearest a unit, where lines of supply run.

    Every bridge if none is over the Orne.  A bridge far behind the front (the Orne near Argentan) cut changes
    no one's supply; these are the ones a student tries.
    """
    marks = list(zip(xs, ys, strict=True))
    orne = [mark for mark, name in zip(marks, water, strict=False) if name == "Orne"] or marks

    def to_a_unit(mark: tuple[float, float]) -> float:
        return min((math.hypot(mark[0] - x, mark[1] - y) for x, y in units), default=0.0)

    return sorted(orne, key=to_a_unit)[:count]


def bundle_column(value: Any) -> list:
    """A column of a data source as bokeh serialises it in a widget's render bundle (a list or an ndarray)."""
    if isinstance(value, list):
        return value
    if isinstance(value, dict) and value.get("type") == "ndarray":
        import base64
        import gzip

        import numpy as np

        array = value["array"]
        if isinstance(array, list):
            return array
        raw = base64.b64decode(array["data"])
        if raw[:2] == b"\x1f\x8b":  # gzip: bokeh compresses large arrays
            raw = gzip.decompress(raw)
        return np.frombuffer(raw, dtype=value["dtype"]).tolist()
    raise ValueError(f"a data source column in an unknown form: {str(value)[:80]}")


def map_of_bundle(bundle: Any) -> dict[str, Any]:
    """The map's figure, ranges, units and bridges, found in its widget's render bundle (as a page has it)."""
    if isinstance(bundle, str):
        bundle = json.loads(bundle)
    objects: dict[str, dict] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object" and "attributes" in node:
                objects.setdefault(node["id"], node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(bundle)
    sources = {}
    for node in objects.values():
        attributes = node["attributes"]
        if node["name"] == "ColumnDataSource" and attributes.get("name") in ("units", "bridges"):
            data = attributes["data"]
            entries = data["entries"] if isinstance(data, dict) and "entries" in data else data.items()
            sources[attributes["name"]] = {k: bundle_column(v) for k, v in entries}
    figure = next(
        node for node in objects.values()
        if node["name"] == "Figure" and "tap" in str(node["attributes"].get("subscribed_events"))
    )  # fmt: skip
    bridges = sources["bridges"]
    units = list(zip(sources["units"]["x"], sources["units"]["y"], strict=True))
    return {
        "figure": figure["id"],
        "x_range": figure["attributes"]["x_range"]["id"],
        "y_range": figure["attributes"]["y_range"]["id"],
        "units": units,
        "bridges": river_bridges(bridges["x"], bridges["y"], bridges.get("water", []), units),
    }


def tap_event(figure: str, x: float, y: float) -> dict:
    """What jupyter_bokeh's page sends the kernel for a click on a figure: a bokeh ``tap`` event."""
    no = {"type": "map", "entries": [["shift", False], ["ctrl", False], ["alt", False]]}
    values = [["model", {"id": figure}], ["sx", 0.0], ["sy", 0.0], ["x", x], ["y", y], ["modifiers", no]]
    event = {"type": "event", "name": "tap", "values": {"type": "map", "entries": values}}
    return {"event": "jsevent", "kind": "MessageSent", "msg_type": "bokeh_event", "msg_data": event}


def range_change(model: str, attr: str, value: float) -> dict:
    """What the page sends when the user zooms: a range's new ``start`` or ``end``."""
    return {"event": "jsevent", "kind": "ModelChanged", "model": {"id": model}, "attr": attr, "new": value}


# -- a simulated student: HTTP for the page, the kernel's websocket for the actions -----------------------


class SimulatedStudent:
    def __init__(self, base: str, number: int, record: dict) -> None:
        self.base, self.number, self.record = base, number, record
        self.session = uuid.uuid4().hex

    def message(self, msg_type: str, content: dict, metadata: dict | None = None) -> dict:
        return {
            "header": {"msg_id": uuid.uuid4().hex, "username": "student", "session": self.session,
                       "msg_type": msg_type, "version": "5.3", "date": dt.datetime.now(dt.UTC).isoformat()},
            "parent_header": {}, "metadata": metadata or {}, "content": content, "channel": "shell",
            "buffers": [],
        }  # fmt: skip

    async def run(self, until: float) -> None:
        import websockets

        start = time.monotonic()
        html = await asyncio.to_thread(self._get_page)
        self.record["open_s"].append(time.monotonic() - start)
        config = re.search(r'id="jupyter-config-data"[^>]*>(.*?)</script>', html, re.S).group(1)
        kernel = json.loads(config)["kernelId"]
        url = self.base.replace("http", "ws") + f"api/kernels/{kernel}/channels?session_id={self.session}"
        # No client pings (a browser sends none either): a server busy with 20 kernels answers them late.
        async with websockets.connect(url, max_size=None, open_timeout=60, ping_interval=None) as socket_:
            self.socket = socket_
            states = await self._widget_states()
            models = self._find(states)
            self.mode = "inspect"
            action = 0
            phase = random.Random(self.number).uniform(0, 10)  # this student's moment of the 10 s
            while time.monotonic() < until:
                await asyncio.sleep(10 - (time.monotonic() - start - phase) % 10)
                if time.monotonic() >= until:
                    break
                name = ACTIONS[action % len(ACTIONS)]
                try:
                    took = await self._act(models, name, action)
                    self.record["sim_action_s"].append(took)
                    self.record["sim_kinds"].append((name, took))
                except Exception as exc:  # an action that does not come back is an error of the run
                    self.record["errors"].append(f"simulated {self.number} {name}: {exc!r}")
                action += 1

    def _get_page(self) -> str:
        with urllib.request.urlopen(self.base + PAGE, timeout=600) as reply:
            return reply.read().decode()

    async def _send(self, msg_type: str, content: dict, metadata: dict | None = None) -> str:
        message = self.message(msg_type, content, metadata)
        await self.socket.send(json.dumps(message))
        return message["header"]["msg_id"]

    async def _widget_states(self) -> dict:
        comm = uuid.uuid4().hex
        opening = {"comm_id": comm, "target_name": "jupyter.widget.control", "data": {}}
        await self._send("comm_open", opening, {"version": "1.0.0"})  # the widget control protocol's
        await self._send("comm_msg", {"comm_id": comm, "data": {"method": "request_states"}})
        while True:
            reply = json.loads(await asyncio.wait_for(self.socket.recv(), 120))
            data = reply.get("content", {}).get("data", {})
            if reply.get("msg_type") == "comm_msg" and data.get("method") == "update_states":
                return data["states"]

    @staticmethod
    def _find(states: dict) -> dict:
        found = {}
        for model_id, model in states.items():
            state = model["state"]
            if state.get("_model_name") == "ButtonModel" and state.get("description") in ("Step ▶", "◀ Back"):
                found[state["description"]] = model_id
            if state.get("_model_name") == "DropdownModel" and state.get("description") == "Weather:":
                found["weather"] = model_id
                found["weather_options"] = list(state.get("_options_labels", []))
            classes = state.get("_dom_classes", [])
            if state.get("_model_name") == "HTMLModel" and "nl-refresh-count" in classes:
                found["counter"] = model_id
            if state.get("_model_name") == "HTMLModel" and "nl-banner" in classes:
                found["banner"] = model_id
            if state.get("_model_name") == "ToggleButtonsModel" and "nl-mode" in classes:
                found["mode"] = model_id
                found["mode_options"] = list(state.get("_options_labels", []))
            if state.get("_model_name") == "BokehModel" and "tap" in str(state.get("render_bundle", "")):
                found["map"] = model_id
                found.update(map_of_bundle(state["render_bundle"]))
        return found

    async def _act(self, models: dict, name: str, action: int = 0) -> float:
        if name in MODES and MODES[name] != self.mode:  # the mode's toggle button first, untimed
            index = models["mode_options"].index(MODES[name])
            mode = {"method": "update", "state": {"index": index}, "buffer_paths": []}
            await self._send("comm_msg", {"comm_id": models["mode"], "data": mode})
            self.mode = MODES[name]
        if name in ("step", "back"):
            target = models["Step ▶" if name == "step" else "◀ Back"]
            data = {"method": "custom", "content": {"event": "click"}}
        elif name in MODES:
            if name == "unit":
                x, y = models["units"][unit_for(self.number, action, len(models["units"]))]
            else:
                x, y = models["bridges"][bridge_for(self.number, action, len(models["bridges"]))]
            # Zoomed in there first (the page sends the ranges' new ends), untimed: counters are then shown.
            for model, attr, value in ((models["x_range"], "start", x - ZOOM_HALF_M),
                                       (models["x_range"], "end", x + ZOOM_HALF_M),
                                       (models["y_range"], "start", y - 0.8 * ZOOM_HALF_M),
                                       (models["y_range"], "end", y + 0.8 * ZOOM_HALF_M)):  # fmt: skip
                zoom = {"method": "custom", "content": range_change(model, attr, value)}
                await self._send("comm_msg", {"comm_id": models["map"], "data": zoom})
            target = models["map"]
            data = {"method": "custom", "content": tap_event(models["figure"], x, y)}
        else:
            target = models["weather"]
            index = models["weather_options"].index("Storm" if name == "storm" else "Overcast")
            data = {"method": "update", "state": {"index": index}, "buffer_paths": []}
        start = time.monotonic()
        sent = await self._send("comm_msg", {"comm_id": target, "data": data})
        counted = False
        while True:  # the kernel has sent the refresh counter's change and is idle again, for this message
            reply = json.loads(await asyncio.wait_for(self.socket.recv(), 300))
            if reply.get("parent_header", {}).get("msg_id") != sent:
                continue  # left over from an earlier action
            content = reply.get("content", {})
            if reply.get("msg_type") == "comm_msg" and content.get("comm_id") == models["counter"]:
                counted = counted or "value" in content.get("data", {}).get("state", {})
            if reply.get("msg_type") == "comm_msg" and content.get("comm_id") == models.get("banner"):
                said = content.get("data", {}).get("state", {}).get("value")
                if said and name in ("destroy", "repair") and len(self.record["sim_answers"]) < 4:
                    self.record["sim_answers"].append([name, re.sub("<[^>]+>", "", said)[:160]])
            if reply.get("msg_type") == "status" and content.get("execution_state") == "idle":
                if not counted:
                    raise RuntimeError(f"{name}: the kernel answered without updating the page")
                return time.monotonic() - start


# -- real students: Chromium pages ------------------------------------------------------------------------


def real_students(base: str, count: int, until: float, record: dict, stagger: float, done: Any) -> None:
    from playwright.sync_api import sync_playwright

    from normandy_lab.views.export import CHROMIUM_ARGS, chromium_path

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        pages = []
        for number in range(count):
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            page.on("request", lambda r: None if "127.0.0.1" in r.url or r.url.startswith(("data:", "blob:"))
                    else record["outside"].append(r.url))  # fmt: skip
            start = time.monotonic()
            try:
                page.goto(base + PAGE, timeout=600_000)
                page.wait_for_function(JS_PAINTED, timeout=600_000)
                page.evaluate(JS_FRAMES)
                record["open_s"].append(time.monotonic() - start)
                record["real_open_s"].append(time.monotonic() - start)
                pages.append(page)
            except Exception as exc:
                record["errors"].append(f"real {number} open: {exc!r}")
            time.sleep(stagger)  # students arrive one after the other (a pacing, not a wait for a result)
        marks = {}
        if pages:  # the map's unit counters and bridge marks, as the page drew them
            xs, ys = pages[0].evaluate(JS_MARKS, ["units", []])
            marks["units"] = list(zip(xs, ys, strict=True))
            xs, ys, water = pages[0].evaluate(JS_MARKS, ["bridges", ["water"]])
            marks["bridges"] = river_bridges(xs, ys, water, marks["units"])
        modes = dict.fromkeys(range(len(pages)), "inspect")
        action = 0
        while time.monotonic() < until and pages:
            for number, page in enumerate(pages):
                if time.monotonic() >= until:
                    break
                name = ACTIONS[action % len(ACTIONS)]
                try:
                    if name in MODES and MODES[name] != modes[number]:
                        set_mode(page, MODES[name])
                        modes[number] = MODES[name]
                    point = None
                    if name == "unit":
                        point = marks["units"][unit_for(1000 + number, action, len(marks["units"]))]
                    elif name in MODES:
                        point = marks["bridges"][bridge_for(1000 + number, action, len(marks["bridges"]))]
                    took = act_in_page(page, name, point)
                    record["real_action_s"].append(took)
                    record["real_kinds"].append((name, took))
                    if point is not None and len(record["real_answers"]) < 8:  # what the first clicks did
                        record["real_answers"].append([name, *page.evaluate(JS_ANSWER)])
                except Exception as exc:
                    record["errors"].append(f"real {name}: {exc!r}")
            action += 1
            time.sleep(max(0.0, 10 - len(pages) * 1.0))  # pacing: one action a student every ~10 s
        # A tab closed in the middle of an action: the server must go on.
        if pages:
            page = pages[-1]
            page.locator(".nl-step").first.click()
            page.close(run_before_unload=True)
        browser.close()
    done.set()


def set_mode(page, mode: str) -> None:
    """Click the explorer's mode toggle button (untimed; the kernel gets it before the next click)."""
    page.locator(".nl-mode button").filter(has_text=re.compile(rf"^\s*{re.escape(mode)}\s*$")).first.click()


def act_in_page(page, name: str, point: tuple[float, float] | None = None) -> float:
    """Make one action in a real page; its time from the input event to the updated picture.

    A click on the map (``point``, map coordinates) is zoomed in there first, untimed, as a person does, and
    is then a real mouse click at that pixel.
    """
    screen = None
    if point is not None:
        page.evaluate(JS_ZOOM, [point[0], point[1], ZOOM_HALF_M])
        page.evaluate(JS_FRAMES)
        page.wait_for_timeout(300)  # the page settles after the zoom (a person's pause, untimed)
        sx, sy, inside = page.evaluate(JS_SCREEN_POINT, list(point))
        if not inside:
            raise RuntimeError(f"{name}: map point {point} is outside the map's frame")
        screen = (sx, sy)
    before = page.evaluate(JS_STATE)
    start = time.monotonic()
    if screen is not None:
        page.mouse.click(*screen)
    elif name == "step":
        page.locator("button.nl-step").first.click()
    elif name == "back":
        page.locator("button.nl-back").first.click()
    else:
        page.locator(".nl-weather select").select_option("Storm" if name == "storm" else "Overcast")
    page.wait_for_function(f"(before) => {{ const now = ({JS_STATE})(); return now[1] !== before[1]; }}",
                           arg=before, timeout=120_000)  # fmt: skip
    page.evaluate(JS_FRAMES)
    return time.monotonic() - start


# -- the run -----------------------------------------------------------------------------------------------


def page_memory(base: str, server: psutil.Process, pages: list[str] | None = None) -> dict[str, dict]:
    from playwright.sync_api import sync_playwright

    from normandy_lab.views.export import CHROMIUM_ARGS, chromium_path

    memory = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        for name in pages or [*PAGES, *LESSONS]:
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            start = time.monotonic()
            page.goto(base + "voila/render/" + name, timeout=600_000)
            page.wait_for_function(JS_LESSON_READY if name in LESSONS else JS_PAINTED, timeout=600_000)
            opened = time.monotonic() - start
            kernel = page.evaluate(JS_KERNEL_ID)
            memory[name] = {"open_s": round(opened, 2), **memory_of(kernel_pids(server)[kernel])}
            page.close(run_before_unload=True)
        browser.close()
    return memory


def fork_servers(server: psutil.Process) -> list[psutil.Process]:
    """The class server's kernel fork server (none with ``--no-fork-server``)."""
    found = []
    for child in server.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if "normandy_lab.views.forkserver" in child.cmdline():
                found.append(child)
    return found


def pool_fill(server: psutil.Process, answers_s: float, ready_s: float, count: int) -> dict[str, Any]:
    """What filling the pool took: times, the CPU of its kernels and of the fork server, and their memory.

    The CPU seconds are the kernels' own (user + system, each process's total so far, a forked kernel
    counting from its fork) and the fork server's: on a loaded machine they say what the wall times cannot.
    """
    kernels = [psutil.Process(pid) for pid in kernel_pids(server).values()]
    cpu = [sum(k.cpu_times()[:2]) for k in kernels]
    zygotes = fork_servers(server)
    sizes = [memory_of(k.pid) for k in kernels]
    return {
        "kernels": len(kernels),
        "server_answers_s": round(answers_s, 1),
        "kernels_ready_after_s": round(ready_s, 1),
        "kernel_cpu_s_mean": round(statistics.mean(cpu), 2) if cpu else None,
        "kernel_cpu_s_total": round(sum(cpu), 1),
        "fork_server_cpu_s": round(sum(sum(z.cpu_times()[:2]) for z in zygotes), 1),
        "fork_server_memory": memory_of(zygotes[0].pid) if zygotes else None,
        "pool_kernels_memory": per_kernel(sizes) if sizes else None,
        "load": os.getloadavg(),
    }


def wait_for_quiet_kernels(
    server: psutil.Process, count: int, timeout_s: float = 1800, min_cpu_s: float = 4.0
) -> float:
    """Wait until ``count`` kernels run and have finished running their notebooks ahead (all near idle).

    Each must have used ``min_cpu_s`` of CPU (running the explorer's notebook takes more: 4 s in a new
    process; in a kernel forked from the warmed fork server, whose imports and engine are done, ≈ 1 s) and
    then the kernels together less than 15 % of a core for 3 s.
    """
    start = time.monotonic()
    quiet = 0
    while quiet < 3:
        if time.monotonic() - start > timeout_s:
            raise SystemExit(f"the {count} preheated kernels were not ready in {timeout_s:.0f} s")
        kernels = [psutil.Process(pid) for pid in kernel_pids(server).values() if psutil.pid_exists(pid)]
        for kernel in [server, *kernels]:
            with contextlib.suppress(psutil.Error):
                kernel.cpu_percent(None)
        time.sleep(1.0)  # the interval cpu_percent measures over
        busy, worked = 0.0, 0
        with contextlib.suppress(psutil.Error):
            busy += server.cpu_percent(None)  # the server too: it sends the notebooks' cells
        for kernel in kernels:
            with contextlib.suppress(psutil.Error):
                busy += kernel.cpu_percent(None)
                # A kernel that has run the page (imports, map, explorer) has used seconds of CPU: under a
                # heavy load 21 kernels still starting once looked quiet for 3 s, and the class began early.
                worked += sum(kernel.cpu_times()[:2]) >= min_cpu_s
        quiet = quiet + 1 if len(kernels) >= count and worked >= count and busy < 15 else 0
    return time.monotonic() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=20)
    parser.add_argument("--real", type=int, default=3)
    parser.add_argument("--minutes", type=float, default=5)
    parser.add_argument("--pool", type=int, default=0, help="kernels started ahead for every page")
    parser.add_argument("--ahead", type=int, default=None,
                        help="kernels started ahead for the BfN page (default: one per student, and one for "
                             "the memory pass)")
    parser.add_argument("--memory-only", action="store_true",
                        help="open each page once for its open time and memory, then stop (no class)")
    parser.add_argument("--pages", default="", help="the pages of that pass, comma-separated (default: all)")
    parser.add_argument("--no-fork-server", action="store_true",
                        help="the server's --no-fork-server: every kernel a new process (default: forked)")
    options = parser.parse_args()

    port = free_port()
    base = f"http://127.0.0.1:{port}/"
    log = Path(tempfile.mkdtemp()) / "class-server.log"
    command = [sys.executable, "-m", "normandy_lab.views.classroom", "--host", "127.0.0.1", "--port",
               str(port), "--pool", str(options.pool), "--template-dir", tempfile.mkdtemp()]  # fmt: skip
    memory_pages = [p for p in options.pages.split(",") if p] or [*PAGES, *LESSONS]
    # One more than the students when the memory pass opens the BfN page: it takes a preheated kernel too.
    extra = 0 if options.memory_only or "explorer_bfn.ipynb" not in memory_pages else 1
    ahead = options.students + extra if options.ahead is None else options.ahead
    if ahead:
        command += ["--page-pool", f"explorer_bfn.ipynb={ahead}"]
    if options.no_fork_server:
        command.append("--no-fork-server")
    started_at = time.monotonic()
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    server = psutil.Process(process.pid)
    kept = ("open_s", "real_open_s", "real_action_s", "sim_action_s", "real_kinds", "sim_kinds",
            "real_answers", "sim_answers", "errors", "outside")
    record: dict[str, list] = {k: [] for k in kept}
    try:
        deadline = time.monotonic() + 300
        while True:
            with contextlib.suppress(OSError), urllib.request.urlopen(base, timeout=5):
                break
            if time.monotonic() > deadline:
                raise SystemExit("the class server did not answer")
            time.sleep(0.2)  # polling the server's first answer
        answers_s = time.monotonic() - started_at
        pool = ahead + options.pool * len([*PAGES, *LESSONS])
        ready_s = wait_for_quiet_kernels(server, pool, min_cpu_s=4.0 if options.no_fork_server else 0.5)
        fill = pool_fill(server, answers_s, ready_s, pool)
        print(f"{pool} kernels run ahead in {ready_s:.0f} s after the server answered: {fill}", flush=True)
        print("memory of one kernel per page (each opened alone) ...", flush=True)
        memory = page_memory(base, server, memory_pages)
        for name, row in memory.items():
            print(f"  {name}: {row}", flush=True)
        if options.memory_only:
            summary = {
                "when": dt.datetime.now().isoformat(timespec="seconds"), "options": vars(options),
                "load_at_end": os.getloadavg(), "pool_fill": fill, "memory_per_page": memory,
            }  # fmt: skip
            MEMORY_RESULTS.parent.mkdir(parents=True, exist_ok=True)
            MEMORY_RESULTS.write_text(json.dumps(summary, indent=2))
            print(json.dumps(summary, indent=2))
            return

        print(f"{options.students} students ({options.real} real) for {options.minutes} min ...", flush=True)
        until = time.monotonic() + options.minutes * 60 + options.students * 2
        done = threading.Event()
        browser = threading.Thread(
            target=real_students, args=(base, options.real, until, record, 2.0, done), daemon=True
        )
        browser.start()
        peak = {"kernels": 0, "private_mb": 0.0, "rss_mb": 0.0, "pss_mb": 0.0, "uss_mb": 0.0}
        late: dict[str, Any] = {}

        async def simulated():
            tasks = []
            for number in range(options.students - options.real):
                await asyncio.sleep(2.0)  # one student arrives every 2 s
                student = SimulatedStudent(base, number, record)
                tasks.append(asyncio.create_task(student.run(until)))
            while not all(t.done() for t in tasks):
                pids = kernel_pids(server)
                sizes = [memory_of(pid) for pid in pids.values() if psutil.pid_exists(pid)]
                if len(sizes) >= peak["kernels"]:
                    keys = ("private_mb", "rss_mb", "pss_mb", "uss_mb")
                    peak.update(kernels=len(sizes), **{k: round(sum(s[k] for s in sizes), 1) for k in keys})
                if sizes and time.monotonic() < until - 10:  # the last sample before the class ends
                    late.update(per_kernel(sizes))
                await asyncio.sleep(5)  # a sampling interval
            for task in tasks:
                if task.exception():
                    record["errors"].append(f"simulated student: {task.exception()!r}")

        asyncio.run(simulated())
        done.wait(timeout=600)
        alive = False
        with contextlib.suppress(OSError), urllib.request.urlopen(base, timeout=30) as reply:
            alive = reply.status == 200
        result = {
            "when": dt.datetime.now().isoformat(timespec="seconds"),
            "machine": {"cpus": os.cpu_count(), "memory_gb": round(psutil.virtual_memory().total / 2**30, 1),
                        "python": platform.python_version(), "load_at_end": os.getloadavg()},
            "options": vars(options),
            "kernels_ahead": ahead, "kernels_ready_s": round(ready_s, 1), "pool_fill": fill,
            "memory_per_page": memory,
            "peak": peak,
            "per_kernel_at_the_end": late,
            "open_s": {"n": len(record["open_s"]), "median": statistics.median(record["open_s"] or [0]),
                       "p95": percentile(record["open_s"], 0.95), "max": max(record["open_s"] or [0])},
            "real_open_s": record["real_open_s"],
            "real_action_s": {"n": len(record["real_action_s"]),
                              "median": statistics.median(record["real_action_s"] or [0]),
                              "p95": percentile(record["real_action_s"], 0.95)},
            "simulated_action_s": {"n": len(record["sim_action_s"]),
                                   "median": statistics.median(record["sim_action_s"] or [0]),
                                   "p95": percentile(record["sim_action_s"], 0.95)},
            "median_s_by_action": {who: by_kind(record[f"{who}_kinds"]) for who in ("real", "sim")},
            "real_pages_first_map_clicks_answered": record["real_answers"],
            "simulated_first_bridges_answered": record["sim_answers"],
            "errors": record["errors"],
            "requests_outside": record["outside"],
            "server_answers_after_a_tab_closed_mid_action": alive,
        }  # fmt: skip
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(result, indent=2))
        print(json.dumps(result, indent=2))
    finally:
        started = server.children(recursive=True)
        process.terminate()
        process.wait(timeout=120)
        psutil.wait_procs(started, timeout=60)
        print("server log:", log)


if __name__ == "__main__":
    main()
