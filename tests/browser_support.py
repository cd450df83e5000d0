"""What the browser tests share: waits on conditions, never on a clock, and a JupyterLab each test leaves empty.

A fixed pause is either too short on a loaded machine (the test fails for nothing) or too long on a quiet one
(the suite crawls); every wait here is on something the page or the server says, with a generous timeout for a
loaded machine. And a JupyterLab that kept the kernels of earlier tests running (explorers, a Dask cluster)
starves the next test of CPU: :func:`shut_down_everything` stops what a test started, and checks it is gone.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Callable
from typing import Any

#: How long a page may take to settle, or a server to stop what it ran, on a loaded machine.
SETTLE_MS = 60_000

# Every BokehJS document has drawn what it was last given (BokehJS marks a document idle once each of its
# roots has rendered), then two animation frames have passed: what was changed before has been painted.
JS_BOKEH_IDLE = """() => window.Bokeh !== undefined && Bokeh.documents.length > 0
    && Bokeh.documents.every(d => d.is_idle !== false)"""
JS_TWO_FRAMES = (
    "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"
)
# Every image on the page, in shadow roots too, has loaded or failed: an <img onerror> has fired by then.
JS_IMAGES_DONE = """() => {
    const images = [];
    const walk = root => root.querySelectorAll("*").forEach(el => {
        if (el.tagName === "IMG") images.push(el);
        if (el.shadowRoot) walk(el.shadowRoot);
    });
    walk(document);
    return images.every(image => image.complete);
}"""


def settle(page: Any, timeout_ms: int = SETTLE_MS) -> None:
    """Wait until the page's BokehJS documents are idle and have been painted (before a click or a picture)."""
    page.wait_for_function(JS_BOKEH_IDLE, timeout=timeout_ms)
    page.evaluate(JS_TWO_FRAMES)


def wait_until(check: Callable[[], Any], what: str, timeout_s: float = SETTLE_MS / 1000) -> Any:
    """Return ``check()`` once it is true, asking again every 50 ms; fail saying ``what`` was awaited."""
    deadline = time.monotonic() + timeout_s
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout_s:g} s for {what}")
        time.sleep(0.05)  # a polling interval: the wait ends on the condition, not on this


# -- a JupyterLab server's REST API (jupyter_server and JupyterLab's own) -------------------------------------


def _api(url: str, token: str, path: str, method: str = "GET") -> Any:
    request = urllib.request.Request(f"{url}{path}?token={token}", method=method)
    with urllib.request.urlopen(request, timeout=SETTLE_MS / 1000) as answer:  # a kernel may be slow to stop
        body = answer.read()
    return json.loads(body) if body else None


def descendants(pid: int) -> list[Any]:
    """The processes a server started, at any depth (its kernels, what they started: Dask workers...)."""
    import psutil

    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def shut_down_everything(url: str, token: str, server_pid: int, timeout_s: float = SETTLE_MS / 1000) -> None:
    """Stop every session, kernel and terminal of a JupyterLab server and forget its workspaces.

    Then wait until every process the server had started (kernels and their own children: a notebook's Dask
    workers) has exited. Without the workspaces, the next page opened does not restore the notebooks opened
    before, each of which would start a kernel again. A process still there at the timeout is killed, and
    the test fails: a notebook left something running that outlives its kernel.
    """
    import psutil

    started = descendants(server_pid)
    for session in _api(url, token, "/api/sessions"):
        _api(url, token, f"/api/sessions/{session['id']}", "DELETE")
    for kernel in _api(url, token, "/api/kernels"):
        _api(url, token, f"/api/kernels/{kernel['id']}", "DELETE")
    for terminal in _api(url, token, "/api/terminals"):
        _api(url, token, f"/api/terminals/{terminal['name']}", "DELETE")
    for workspace in _api(url, token, "/lab/api/workspaces")["workspaces"]["ids"]:
        _api(url, token, f"/lab/api/workspaces/{workspace}", "DELETE")
    _, alive = psutil.wait_procs(started, timeout=timeout_s)
    for process in alive:
        process.kill()
    assert not alive, f"still running {timeout_s:g} s after their kernels were shut down: {alive}"
    assert _api(url, token, "/api/kernels") == [] and _api(url, token, "/api/sessions") == []
