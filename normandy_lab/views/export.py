"""Exports: standalone HTML (INLINE resources, no kernel, no network) and PNG (a real browser render)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

# Chromium flags for a closed network: no background connections, no sandbox
# (root in containers), no GPU.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    """Return the path of the system's Chromium, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def save_html(obj: Any, path: str | Path, title: str = "normandy_lab") -> Path:
    """Save a bokeh figure or layout as one self-contained HTML file (BokehJS inlined).

    The page needs no kernel and no network.
    """
    from bokeh.embed import file_html
    from bokeh.resources import INLINE

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(file_html(obj, INLINE, title), encoding="utf-8")
    return path


def html_to_png(html_path: str | Path, png_path: str | Path, width: int = 1100, height: int = 900) -> Path:
    """Render an HTML page in headless Chromium and save a screenshot.

    Raises
    ------
    RuntimeError
        When no Chromium is installed (``bash run.sh test`` installs Debian's).
    """
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    if executable is None:
        raise RuntimeError("no Chromium found: install Debian's 'chromium' package to render PNGs")
    png_path = Path(png_path)
    png_path.parent.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(Path(html_path).resolve().as_uri())
            page.wait_for_function("window.Bokeh && Bokeh.documents.length > 0", timeout=60_000)
            page.wait_for_selector("canvas", state="attached", timeout=60_000)
            page.wait_for_timeout(1000)
            page.screenshot(path=str(png_path), full_page=True)
        finally:
            browser.close()
    return png_path


def save_png(obj: Any, path: str | Path, width: int = 1100, height: int = 900) -> Path:
    """Render a bokeh figure or layout to PNG in a real (headless) Chromium."""
    with tempfile.TemporaryDirectory() as folder:
        html = save_html(obj, Path(folder) / "figure.html")
        return html_to_png(html, path, width=width, height=height)
