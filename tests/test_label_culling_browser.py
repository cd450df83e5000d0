"""The explorer's map skips labels far outside its frame, and draws the same picture (issue 33, section 4).

BokehJS's ``LabelSet`` measured and drew every label at every paint, also the hundreds that a zoomed-in view
clips away; ``views.situation.CULL_LABELS_JS`` (installed when the view first changes) skips those.  Here the
map is opened as a standalone page in Chromium, zoomed in on a unit as a person does before clicking it,
and painted with the culling and with BokehJS's own paint: the pictures must be identical, pixel for pixel,
and the culled paint must have drawn far fewer labels.  Zoomed out, at the campaign's extent, likewise.

The hex layers' radius and angle come from the terrain's centre columns through a transform that the page
keeps per column (``views.hexcells.NGON_TRANSFORM_JS``): a layer's new filter transforms no column again,
and every hex is still drawn where the linear models put it.
"""

from __future__ import annotations

import io

import numpy as np
import pytest
from browser_support import settle

from normandy_lab.views.export import chromium_path

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(chromium_path() is None, reason="Chromium is not installed (bash run.sh test installs it)"),
]

# Zoom on the middle unit (half a width in metres), then paint once each way; count the labels drawn.
JS_PAINT_BOTH = """async (half) => {
    const doc = Bokeh.documents[0];
    const fig = doc.roots().find((root) => root.x_range != null);
    const units = doc.get_model_by_name("units");
    const column = (name) => units.data instanceof Map ? units.data.get(name) : units.data[name];
    const k = Math.floor(units.get_length() / 2);
    const [x, y] = [column("x")[k], column("y")[k]];
    if (half > 0) {
        fig.x_range.setv({start: x - half, end: x + half});
        fig.y_range.setv({start: y - 0.8 * half, end: y + 0.8 * half});
    } else {  // zoomed out: a small pan still counts as the view changing
        fig.x_range.setv({start: fig.x_range.start + 1, end: fig.x_range.end + 1});
    }
    await new Promise((done) => setTimeout(done, 500));
    const proto = Bokeh.require("models/annotations/label_set").LabelSetView.prototype;
    if (!proto._nl_culled) return {installed: false};
    const culled = proto._paint_data;
    let drawn = 0;
    const text = proto._paint_text;
    proto._paint_text = function (...args) { drawn += 1; return text.apply(this, args); };
    const view = [...Bokeh.index.query(() => true)].find((v) => v.canvas_view != null && v.model === fig);
    const paint = (how) => {
        proto._paint_data = how;
        drawn = 0;
        view.invalidate_painters();
        view._actual_paint();
        return drawn;
    };
    return {installed: true, culled: paint(culled), all: paint(proto._nl_paint_all), restore: paint(culled)};
}"""


def _picture(page) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(page.screenshot())).convert("RGB"))


@pytest.mark.parametrize("half_m", [5000, 0])
def test_labels_out_of_the_frame_are_skipped_and_the_picture_is_the_same(tmp_path, standalone_page, half_m):
    import normandy_lab as nl

    explorer = nl.explore("bfn_1944-06-13_am", width=1000, height=760)
    page_path = explorer.export_html(tmp_path / "map.html")
    with standalone_page(page_path, 1100, 900) as (page, _outside):
        settle(page)
        counts = page.evaluate(JS_PAINT_BOTH, half_m)
        assert counts["installed"], "the culling was not installed when the view changed"
        # The last paint is the culled one again: compare it with BokehJS's own.
        page.evaluate("() => new Promise((d) => requestAnimationFrame(() => requestAnimationFrame(d)))")
        culled = _picture(page)
        page.evaluate(
            """() => {
                const proto = Bokeh.require("models/annotations/label_set").LabelSetView.prototype;
                const view = [...Bokeh.index.query(() => true)].find((v) => v.canvas_view != null
                    && v.model.renderers?.length);
                proto._paint_data = proto._nl_paint_all;
                view.invalidate_painters();
                view._actual_paint();
            }"""
        )
        everything = _picture(page)
    assert culled.shape == everything.shape
    assert int((culled != everything).any(axis=2).sum()) == 0, "culling changed the picture"
    assert counts["culled"] == counts["restore"] <= counts["all"]
    if half_m:  # zoomed in on one unit: a few dozen labels of the ~1,850 are in view
        assert counts["all"] > 1000 and counts["culled"] < counts["all"] / 5, counts


# A hex layer's filter changed twice: BokehJS's radius and angle of its hexes, and of the terrain's, against
# the linear models (views.hexcells.cell_model); and how often the page transformed a whole column.
JS_HEX_LAYER = """async ([models, indices]) => {
    const doc = Bokeh.documents[0];
    const fig = doc.roots().find((root) => root.x_range != null);
    const view = [...Bokeh.index.query(() => true)].find((v) => v.canvas_view != null && v.model === fig);
    const layer = [...view.renderer_views.values()].find((r) => r.model.name === "layer:range");
    const terrain = [...view.renderer_views.values()].find((r) => r.model.name === "layer:terrain");
    let computed = 0;
    const from = Float64Array.from;
    Float64Array.from = function (...args) { computed += 1; return from.apply(this, args); };
    try {
        for (const chosen of [indices, indices.slice(1)]) {
            layer.model.view.filter.indices = chosen;
            await layer.set_data();
        }
    } finally {
        Float64Array.from = from;
    }
    const source = terrain.model.data_source;
    const column = (name) => source.data instanceof Map ? source.data.get(name) : source.data[name];
    const worst = (glyph, rows) => {
        let err = 0;
        rows.forEach((row, k) => {
            err = Math.max(err, Math.abs(glyph.radius.get(k) - (models.radius[0] + models.radius[1] * column("y")[row])));
            err = Math.max(err, Math.abs(-glyph.angle.get(k) - (models.angle[0] + models.angle[1] * column("x")[row])));
        });
        return err;
    };
    const all = Array.from({length: source.get_length()}, (_, k) => k);
    return {computed, layer: worst(layer.glyph, indices.slice(1)), terrain: worst(terrain.glyph, all)};
}"""


def test_hex_layers_draw_from_the_terrain_columns_transformed_once(tmp_path, standalone_page):
    import normandy_lab as nl
    from normandy_lab.views.hexcells import cell_model

    explorer = nl.explore("bfn_1944-06-13_am", width=1000, height=760)
    page_path = explorer.export_html(tmp_path / "map.html")
    with standalone_page(page_path, 1100, 900) as (page, _outside):
        settle(page)
        found = page.evaluate(JS_HEX_LAYER, [cell_model("bfn"), list(range(100, 4000, 37))])
    assert found["computed"] == 0, "a whole terrain column was transformed again for a hex layer"
    # float32 centres and radians as float32 in BokehJS: within a millimetre and a microradian
    assert found["layer"] < 1e-3 and found["terrain"] < 1e-3, found
