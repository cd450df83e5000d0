"""The grid map as a standalone page, opened in a real Chromium with no network.

Screenshots go to ``test-artifacts/`` (see README). Every wait is on what the page says (a value, a text, BokehJS
idle and painted), never a fixed pause: the pages play the same on a loaded machine.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bokeh.embed import file_html
from bokeh.resources import INLINE
from browser_support import settle, wait_until

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
        settle(page)
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
        settle(page)
        first = page.evaluate("Bokeh.documents[0].get_model_by_name('campaign_readout').text")
        assert "6 June 1944" in first
        page.get_by_text("▶ Play").click()
        # Played some days on: however long that takes on this machine.
        page.wait_for_function(
            "() => Bokeh.documents[0].get_model_by_name('campaign_slider').value > 3", timeout=60_000
        )
        day = page.evaluate("Bokeh.documents[0].get_model_by_name('campaign_slider').value")
        text = page.evaluate("Bokeh.documents[0].get_model_by_name('campaign_readout').text")
        page.get_by_text("❚❚ Pause").click()
        # Jump to 20 August: the Falaise pocket, and the front far inland.
        page.evaluate("Bokeh.documents[0].get_model_by_name('campaign_slider').value = 75")
        page.wait_for_function(
            "() => Bokeh.documents[0].get_model_by_name('campaign_readout').text.includes('20 August 1944')",
            timeout=60_000,
        )
        settle(page)
        august = page.evaluate("Bokeh.documents[0].get_model_by_name('campaign_readout').text")
        page.screenshot(path=str(ARTIFACTS / "campaign_20_august.png"))
    assert day > 3 and "June 1944" in text and text != first
    assert "20 August 1944" in august and "the record of" in august
    assert not outside, outside


def test_campaign_page_for_a_class(tmp_path, standalone_page):
    """Issue 12 §5: dates on the slider, a speed that stops at the end, past events hidden on demand,
    the divisions on each scenario's date, tooltips that wrap, and every event on the map."""
    from normandy_lab.views.campaign import CAMPAIGN_FULL_EXTENT, save_campaign_html, scenario_positions

    page_path = save_campaign_html(tmp_path / "campaign.html", interval_ms=100)
    days, _, _ = scenario_positions()
    model = "Bokeh.documents[0].get_model_by_name"
    with standalone_page(page_path, 1200, 1100, timeout_ms=30_000) as (page, outside):
        settle(page)
        assert "6 Jun 1944" in page.locator(".bk-slider-value, .bk-slider-title").first.inner_text() or (
            "6 Jun 1944" in page.content()
        )
        # On a scenario's date, one square per division or brigade; none on other days.
        page.evaluate(f"{model}('campaign_slider').value = {days[1]}")
        page.wait_for_function(f"() => {model}('campaign_divisions').data.x.length > 20", timeout=60_000)
        assert "as set up in the scenario" in page.evaluate(f"{model}('campaign_readout').text")
        page.evaluate(f"{model}('campaign_slider').value = {days[1] + 1}")
        page.wait_for_function(f"() => {model}('campaign_divisions').data.x.length === 0", timeout=60_000)
        # Hiding past events leaves only the current ones visible.
        page.get_by_text("hide past events").click()

        def alphas() -> set[float]:
            return set(page.evaluate(f"Array.from({model}('campaign_events').data.alpha)"))

        wait_until(lambda: alphas() <= {0.0, 0.95}, "the past events to be hidden (the current ones 0.95)")
        # Play from three days before the end runs to the last day and stops there.
        end = page.evaluate(f"{model}('campaign_slider').end")
        page.evaluate(f"{model}('campaign_slider').value = {end - 3}")
        page.evaluate(f"{model}('campaign_speed').value = '10'")
        page.get_by_text("▶ Play").click()
        # It stops by itself at the end (the Play toggle comes up), however long the three days take.
        page.wait_for_function(
            f"() => {model}('campaign_slider').value === {end} && {model}('campaign_play').active === false",
            timeout=60_000,
        )
        assert page.evaluate(f"{model}('campaign_slider').value") == end
        page.get_by_text("Normandy to Paris").click()
        settle(page)
        page.screenshot(path=str(ARTIFACTS / "campaign_to_paris.png"))
    assert not outside, outside
    # Every event of the timeline lies on the map once it is zoomed out to Paris.
    import normandy_lab.history as history

    table = history.timeline()
    west, south, east, north = CAMPAIGN_FULL_EXTENT
    assert table["lon"].between(west, east).all() and table["lat"].between(south, north).all()
