"""The grid map as a standalone page, opened in a real Chromium with no network.

Screenshots go to ``test-artifacts/`` (see README).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bokeh.embed import file_html
from bokeh.resources import INLINE

from normandy_lab.views import grid_figure
from normandy_lab.views.export import chromium_path

CHROMIUM = chromium_path()
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (bash run.sh test installs it)"),
]


def test_standalone_grid_map_renders_offline(tmp_path, standalone_page):
    page_path = tmp_path / "bfn_grid.html"
    page_path.write_text(file_html(grid_figure("bfn", width=800, height=600), INLINE, "BfN grid"))
    ARTIFACTS.mkdir(exist_ok=True)
    with standalone_page(page_path, 900, 700, timeout_ms=30_000) as (page, outside):
        page.wait_for_timeout(1500)
        page.screenshot(path=str(ARTIFACTS / "bfn_grid_map.png"))
        canvases = page.locator("canvas").count()
    assert canvases >= 1
    assert not outside, outside
    assert (ARTIFACTS / "bfn_grid_map.png").stat().st_size > 20_000


EXTENTS = {
    "bfn": (-0.75, 49.0, -0.1, 49.36),  # the Caen sector
    "cobra": (-1.7, 48.6, 0.3, 49.75),  # the whole campaign
    "kg": (-1.3, 49.1, -0.4, 49.5),  # the beaches and the bocage
    "gts": (-1.45, 49.3, -1.1, 49.47),  # Utah Beach and the airborne drop zones
}


@pytest.mark.parametrize("system", sorted(EXTENTS))
def test_basemap_with_terrain_saves_as_html_and_png(system):
    """Issue 3: the basemap with each grid saved as standalone HTML (INLINE) and as PNG by a real browser."""
    from normandy_lab.views import basemap, html_to_png, save_html

    ARTIFACTS.mkdir(exist_ok=True)
    fig = basemap(system, extent=EXTENTS[system], width=900, height=700)
    html = save_html(fig, ARTIFACTS / f"basemap_{system}.html")
    text = html.read_text()
    assert "cdn.bokeh.org" not in text and '<script src="http' not in text
    png = html_to_png(html, ARTIFACTS / f"basemap_{system}.png", width=950, height=760)
    assert png.stat().st_size > 50_000


def test_campaign_page_plays_in_chromium_without_a_kernel(tmp_path, standalone_page):
    """Issue 6 §4: the tour's campaign map exported as standalone HTML; the slider and Play run in the page."""
    from normandy_lab.views.campaign import save_campaign_html

    page_path = save_campaign_html(tmp_path / "campaign.html", interval_ms=150)
    ARTIFACTS.mkdir(exist_ok=True)
    with standalone_page(page_path, 1100, 1100, timeout_ms=30_000) as (page, outside):
        page.wait_for_timeout(1000)
        first = page.evaluate("Bokeh.documents[0].get_model_by_name('campaign').children[2].text")
        assert "6 June 1944" in first
        page.get_by_text("▶ Play").click()
        page.wait_for_timeout(2500)
        day = page.evaluate("Bokeh.documents[0].get_model_by_name('campaign').children[1].children[1].value")
        text = page.evaluate("Bokeh.documents[0].get_model_by_name('campaign').children[2].text")
        page.get_by_text("❚❚ Pause").click()
        # Jump to 20 August: the Falaise pocket, and the front far inland.
        page.evaluate("Bokeh.documents[0].get_model_by_name('campaign').children[1].children[1].value = 75")
        page.wait_for_timeout(800)
        august = page.evaluate("Bokeh.documents[0].get_model_by_name('campaign').children[2].text")
        page.screenshot(path=str(ARTIFACTS / "campaign_20_august.png"))
    assert day > 3 and "June 1944" in text and text != first
    assert "20 August 1944" in august and "the record of" in august
    assert not outside, outside
