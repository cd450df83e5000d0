"""Shared fixtures."""

from __future__ import annotations

import pytest

from normandy_lab import SYSTEMS, grid


@pytest.fixture(params=SYSTEMS)
def system(request) -> str:
    return request.param


@pytest.fixture
def any_grid(system):
    return grid(system)


@pytest.fixture(scope="session")
def dask_client():
    """A Dask LocalCluster of two worker processes, shared by the test modules that sweep on one."""
    from normandy_lab.sweeps import local_cluster

    client = local_cluster(2)
    yield client
    cluster = client.cluster
    client.close()
    cluster.close()
    assert cluster.status.name == "closed"


#: URL schemes a standalone page may load from: anything else means it reached for the network.
OFFLINE_SCHEMES = ("file:", "data:", "blob:", "about:")


@pytest.fixture
def standalone_page():
    """Open a standalone HTML page in Debian's Chromium, logging every request.

    Returns a context manager: ``with standalone_page(path, width, height) as (page, outside)``
    yields the page once BokehJS has a document and a canvas is attached, and the list (filled as
    the page runs) of requests that left the machine (any scheme but file, data, blob, about);
    it closes the browser after.
    """
    import contextlib
    from pathlib import Path

    @contextlib.contextmanager
    def open_page(path, width: int, height: int, timeout_ms: int = 60_000):
        from playwright.sync_api import sync_playwright

        from normandy_lab.views.export import CHROMIUM_ARGS, chromium_path

        outside: list[str] = []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
            try:
                page = browser.new_page(viewport={"width": width, "height": height})
                page.on(
                    "request",
                    lambda request: (
                        None if request.url.startswith(OFFLINE_SCHEMES) else outside.append(request.url)
                    ),
                )
                page.goto(Path(path).as_uri())
                page.wait_for_function("window.Bokeh && Bokeh.documents.length > 0", timeout=timeout_ms)
                page.wait_for_selector("canvas", state="attached", timeout=timeout_ms)
                yield page, outside
            finally:
                browser.close()

    return open_page


@pytest.fixture
def check_exports(tmp_path):
    """Return a check of an explorer's exports, for any rule system: the page and the GeoPackage.

    The HTML page carries BokehJS inline (no CDN); the GeoPackage has the units, lines and zones of
    control, one unit row per unit of the report.  It returns the package, for a system's own layers.
    """
    import geopandas as gpd
    import pyogrio

    def check(explorer):
        page = explorer.export_html(tmp_path / "view.html")
        assert "cdn.bokeh.org" not in page.read_text()
        package = explorer.export_geopackage(tmp_path / "layers.gpkg")
        names = {name for name, _ in pyogrio.list_layers(package)}
        assert {"units", "supply_paths", "zoc"} <= names
        assert len(gpd.read_file(package, layer="units")) == len(explorer.report.units)
        return package

    return check


# The Killing Ground's 22.6.8 set-up (Turn 2) and the same stepped into Turn 3: states are immutable, so the KG
# test modules share one of each.
@pytest.fixture(scope="session")
def t2():
    import normandy_lab as nl

    return nl.load_scenario("kg_1944-06-07_t02")


@pytest.fixture(scope="session")
def t3(t2):
    from normandy_lab.engine.sequence import next_phase

    state = t2
    while state.turn == t2.turn:
        state = next_phase(state)
    return state


# Cobra's Alternate Cobra set-up (GT 15), shared by the Cobra test modules: states are immutable.
@pytest.fixture(scope="session")
def gt15():
    import normandy_lab as nl

    return nl.load_scenario("cobra_1944-07-16_gt15")


@pytest.fixture
def derived_cache(tmp_path, monkeypatch):
    """An empty cache of derived tables (normandy_lab.terrain.derived), in memory and on disk.

    The derived tables only: the terrain maps stay where they are (building them again takes minutes).
    """
    from normandy_lab.terrain import derived

    monkeypatch.setattr(derived, "derived_dir", lambda: tmp_path / "derived")
    monkeypatch.setattr(derived, "_MEMORY", {})
    return tmp_path / "derived"
