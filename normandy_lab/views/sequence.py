"""A sequence of states as one standalone HTML page: a slider and a play button, no kernel.

Every state's layers are computed in Python beforehand and stored in the
page; the slider only switches which precomputed columns the map shows, so
the page works from a USB stick in a classroom without Python or network.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from normandy_lab.engine import supply
from normandy_lab.engine.state import GameState
from normandy_lab.errors import RefusedError
from normandy_lab.views import layers

FEATURE_NAMES = (
    "regional", "history", "implied", "paths", "units", "formations", "broken_bridges",
)  # fmt: skip
HEX_NAMES = ("zoc_allied", "zoc_german", "interdiction")


def state_frame(
    state: GameState, scale: float | None = None
) -> tuple[dict[str, dict[str, list]], dict[str, list[int]], str]:
    """Return one state's precomputed page content: feature layers' columns, hex layers' indices, caption.

    The engine's supply report is computed once and serves all three.  With ``scale`` (Web Mercator metres a
    pixel of the map's first view, :func:`symbol_scale`) the formation symbols are laid out so that none
    overlaps another at that view (:func:`normandy_lab.views.declutter.declutter`), as in the explorer.
    """
    report = supply(state)
    formations = layers.formation_data(state, report)
    if scale:
        from normandy_lab.views.declutter import declutter

        formations = declutter(formations, scale, layers.worse_ring_colour)
    features = {
        "regional": layers.regional_interdiction_data(state),
        "history": layers.history_front_data(state),
        "implied": layers.implied_front_data(state),
        "paths": layers.path_data(state, report),
        "units": layers.unit_data(state, report),
        "formations": formations,
        "broken_bridges": layers.broken_bridge_data(state),
    }
    hexes = {
        "zoc_allied": layers.zoc_hexes(state, "allied"),
        "zoc_german": layers.zoc_hexes(state, "german"),
        "interdiction": layers.interdiction_hexes(state),
    }
    return features, hexes, f"{state.label} — {layers.supply_summary(state, report)}"


def symbol_scale(extent: tuple[float, float, float, float], width: int, height: int) -> float:
    """Return the scale (Web Mercator metres a pixel) of a map of ``width`` x ``height`` showing ``extent``.

    The plot frame is the figure less its axes and toolbar (60 px each way, as the explorer counts).
    """
    from normandy_lab.views.declutter import metres_per_pixel
    from normandy_lab.views.mapview import to_mercator

    (x0, x1), (y0, y1) = to_mercator([extent[0], extent[2]], [extent[1], extent[3]])
    return metres_per_pixel((float(x0), float(y0), float(x1), float(y1)), (width - 60, height - 60))


def sequence_document(states: Sequence[GameState], width: int = 900, height: int = 720):  # -> bokeh layout
    """Build the bokeh layout of a sequence page (see :func:`save_sequence_html`)."""
    from bokeh.layouts import column, row
    from bokeh.models import Button, ColumnDataSource, CustomJS, Div, Slider

    from normandy_lab.views.basemap import basemap
    from normandy_lab.views.sectors import front_extent as _default_extent
    from normandy_lab.views.situation import add_state_layers

    if not states:
        raise RefusedError("a sequence needs at least one state")
    systems = {s.system for s in states}
    if len(systems) != 1:
        raise RefusedError(f"all states of a sequence must use one map; got {sorted(systems)}")
    first = states[0]
    extent = _default_extent(first)
    fig = basemap(first.system, extent=extent, width=width, height=height)
    scale = symbol_scale(extent, width, height)
    computed = [state_frame(s, scale) for s in states]
    captions = [caption for _, _, caption in computed]
    shown = add_state_layers(fig, first.system)
    shown.set_features("bridges", layers.bridge_data(first.system))
    for name in FEATURE_NAMES:
        shown.set_features(name, dict(computed[0][0][name]))
    for name in HEX_NAMES:
        shown.set_hexes(name, computed[0][1][name])
    stored = {
        name: [
            ColumnDataSource(features[name], name=f"{name}_{k}")
            for k, (features, _, _) in enumerate(computed)
        ]
        for name in FEATURE_NAMES
    }
    stored_hexes = {name: [hexes[name] for _, hexes, _ in computed] for name in HEX_NAMES}
    caption = Div(
        text=f"<b>{captions[0]}</b><br>{layers.ring_key_html(first)}", width=width, name="caption"
    )
    slider = Slider(
        start=0,
        end=max(len(states) - 1, 1),
        value=0,
        step=1,
        title="State",
        width=width - 120,
        name="state_slider",
    )
    slider.disabled = len(states) == 1
    play = Button(label="► Play", width=100)
    switch = CustomJS(
        args={
            "shown": {name: shown.sources[name] for name in FEATURE_NAMES},
            "stored": stored,
            "filters": {name: shown.filters[name] for name in HEX_NAMES},
            "stored_hexes": stored_hexes,
            "captions": captions,
            "key": layers.ring_key_html(first),
            "caption": caption,
            "slider": slider,
        },
        code="""
            const k = slider.value;
            for (const name of Object.keys(shown)) {
                shown[name].data = Object.assign({}, stored[name][k].data);
            }
            for (const name of Object.keys(filters)) {
                filters[name].indices = stored_hexes[name][k];
            }
            caption.text = "<b>" + captions[k] + "</b><br>" + key;
        """,
    )
    slider.js_on_change("value", switch)
    play.js_on_event(
        "button_click",
        CustomJS(
            args={"slider": slider, "play": play},
            code="""
                if (window._nlTimer) {
                    clearInterval(window._nlTimer); window._nlTimer = null; play.label = "► Play";
                    return;
                }
                play.label = "❚❚ Pause";
                window._nlTimer = setInterval(() => {
                    slider.value = slider.value >= slider.end ? slider.start : slider.value + 1;
                }, 1500);
            """,
        ),
    )
    return column(caption, row(play, slider), fig)


def save_sequence_html(
    states: Sequence[GameState],
    path: str | Path,
    title: str = "normandy_lab sequence",
    *,
    overwrite: bool = False,
) -> Path:
    """Save a sequence of states as a standalone HTML page with a slider and a play button.

    Parameters
    ----------
    states
        The states in order (for example ``study.states`` or the explorer's history).
    path
        Where to write the page (INLINE BokehJS: no network, no kernel).
    overwrite
        Replace a file at ``path`` that is not a page exported before (by default such a file is
        refused and kept as it was).
    """
    from normandy_lab.views.export import save_html

    return save_html(sequence_document(states), path, title=title, overwrite=overwrite)
