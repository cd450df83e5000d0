"""The campaign on a date slider: the lodgement growing, the front lines and the timeline's events.

:func:`campaign_map` builds one bokeh layout whose slider, play button and
date readout run entirely in the browser (CustomJS): every record's ground and
front line travel with the page, so the same view works in JupyterLab and as a
standalone HTML page with no kernel (:func:`save_campaign_html`).
"""

from __future__ import annotations

import datetime as dt
import html
from pathlib import Path
from typing import Any

from normandy_lab.views.history import (
    ALLIED_FILL,
    FRONT_COLOUR,
    add_place_labels,
    line_columns,
    polygon_columns,
)
from normandy_lab.views.mapview import land_source_data, map_frame, to_mercator

#: The map's extent: Brittany's border to the Seine.
CAMPAIGN_EXTENT = (-2.3, 48.05, 1.25, 49.85)
#: Display simplification of the record's outlines (degrees, about 50 m).
SIMPLIFY_DEG = 0.0006
CATEGORY_COLOURS = {
    "landing": "#1f77b4",
    "airborne": "#9467bd",
    "battle": "#d62728",
    "operation": "#ff7f0e",
    "storm": "#17becf",
    "capture": "#2ca02c",
    "logistics": "#8c564b",
    "command": "#7f7f7f",
}
_DAY0 = dt.date(1944, 6, 6)

# The browser side: pick the record in force on the slider's day, swap the
# ground and front, and fade the events in as their dates come.
_UPDATE_JS = """
const day = slider.value;
let k = 0;
for (let i = 0; i < record_days.length; i++) { if (record_days[i] <= day) { k = i; } }
ground.data = {xs: ground_xs[k], ys: ground_ys[k]};
front.data = {xs: front_xs[k], ys: front_ys[k]};
const start = events.data.start_day, end = events.data.end_day;
const alpha = [], size = [];
const now = [];
for (let i = 0; i < start.length; i++) {
    const shown = start[i] <= day;
    const current = shown && day <= end[i] + 1;
    alpha.push(shown ? (current ? 0.95 : 0.3) : 0.0);
    size.push(current ? 13 : 8);
    if (current) { now.push(i); }
}
events.data = Object.assign({}, events.data, {alpha: alpha, size: size});
const date = new Date(Date.UTC(1944, 5, 6 + day));
const months = ["January","February","March","April","May","June","July","August","September"];
let text = "<h3 style='margin:4px 0'>" + date.getUTCDate() + " " + months[date.getUTCMonth()] + " 1944</h3>";
text += "<div style='color:#555'>Front line: " + record_labels[k] + "</div><ul style='margin:4px 0'>";
for (const i of now) {
    const d = events.data;
    text += "<li><b>" + d.name[i] + "</b> (" + d.dates[i] + "): " + d.description[i] + "</li>";
}
text += "</ul>";
readout.text = text;
"""

_PLAY_JS = """
const key = "normandy_lab_play_" + toggle.id;
if (toggle.active) {
    toggle.label = "❚❚ Pause";
    window[key] = setInterval(() => {
        slider.value = slider.value >= slider.end ? slider.start : slider.value + 1;
    }, interval);
} else {
    toggle.label = "▶ Play";
    clearInterval(window[key]);
}
"""


def _day(date: dt.date) -> int:
    return (date - _DAY0).days


def campaign_frames() -> dict[str, Any]:
    """Return the per-record data of the slider: days, labels, ground and front columns.

    Keys: ``record_days`` (days since 6 June), ``record_labels``,
    ``ground_xs``/``ground_ys`` and ``front_xs``/``front_ys`` (one entry per record).
    """
    from normandy_lab import history

    frames: dict[str, list] = {
        k: [] for k in ("record_days", "record_labels", "ground_xs", "ground_ys", "front_xs", "front_ys")
    }
    for record in history.records():
        ground = polygon_columns(record.geometry.simplify(SIMPLIFY_DEG, preserve_topology=True))
        front = line_columns(record.front.simplify(SIMPLIFY_DEG / 2))
        frames["record_days"].append(_day(record.date))
        frames["record_labels"].append(
            f"the record of {record.date:%d %B} ({record.time}), good to about {record.accuracy_km:g} km"
        )
        frames["ground_xs"].append(ground["xs"])
        frames["ground_ys"].append(ground["ys"])
        frames["front_xs"].append(front["xs"])
        frames["front_ys"].append(front["ys"])
    return frames


def event_columns() -> dict[str, list]:
    """Return the timeline's events as point columns for the map (Web Mercator)."""
    from normandy_lab import history

    table = history.timeline()
    x, y = to_mercator(table["lon"].to_numpy(), table["lat"].to_numpy())
    dates = [
        f"{s:%d %b}" if s == e else f"{s:%d %b}–{e:%d %b}"
        for s, e in zip(table["start"], table["end"], strict=True)
    ]
    return {
        "x": list(x),
        "y": list(y),
        "name": [html.escape(n) for n in table["name"]],
        "place": [html.escape(p) for p in table["place"]],
        "dates": dates,
        "start_day": [_day(d) for d in table["start"]],
        "end_day": [_day(d) for d in table["end"]],
        "description": [html.escape(d) for d in table["description"]],
        "formations": [html.escape(", ".join(f)) for f in table["formations"]],
        "colour": [CATEGORY_COLOURS[c] for c in table["category"]],
        "category": list(table["category"]),
        "alpha": [0.0] * len(table),
        "size": [8] * len(table),
    }


def campaign_map(width: int = 980, height: int = 720, start: Any = "1944-06-06", interval_ms: int = 400):
    """Build the campaign view: map, date slider, play button and the day's events.

    Parameters
    ----------
    width, height
        Size of the map in pixels.
    start
        The date the slider starts on.
    interval_ms
        Time per day when playing.

    Returns
    -------
    bokeh.models.Column
        Runs in the browser only: it needs no kernel.
    """
    from bokeh.layouts import column, row
    from bokeh.models import ColumnDataSource, CustomJS, Div, HoverTool, Slider, Toggle

    from normandy_lab import history

    frames = campaign_frames()
    events = ColumnDataSource(event_columns())
    last_day = max(frames["record_days"][-1], *events.data["start_day"])
    fig = map_frame(
        "The Normandy campaign, 6 June – 25 August 1944", CAMPAIGN_EXTENT, width, height, "#dbe9f4"
    )
    fig.multi_polygons(
        source=ColumnDataSource(land_source_data()), fill_color="#f3efe4", line_color="#9c8f7a"
    )
    ground = ColumnDataSource({"xs": frames["ground_xs"][0], "ys": frames["ground_ys"][0]})
    front = ColumnDataSource({"xs": frames["front_xs"][0], "ys": frames["front_ys"][0]})
    fig.multi_polygons(
        source=ground,
        fill_color=ALLIED_FILL,
        fill_alpha=0.35,
        line_alpha=0.0,
        legend_label="Allied-held ground",
    )
    fig.multi_line(source=front, line_color=FRONT_COLOUR, line_width=2.5, legend_label="front line")
    add_place_labels(fig)
    dots = fig.scatter(
        "x",
        "y",
        source=events,
        size="size",
        fill_color="colour",
        fill_alpha="alpha",
        line_color="#222222",
        line_alpha="alpha",
        legend_label="events",
    )
    fig.add_tools(
        HoverTool(
            renderers=[dots],
            tooltips=[("", "@name"), ("when", "@dates"), ("where", "@place"), ("who", "@formations")],
        )
    )
    fig.legend.location = "top_right"
    fig.legend.click_policy = "hide"
    slider = Slider(
        start=0,
        end=last_day,
        value=max(0, min(last_day, _day(history.record(start).date))),
        step=1,
        title="Days after D-Day",
        width=width - 140,
    )
    toggle = Toggle(label="▶ Play", active=False, width=110)
    readout = Div(width=width, styles={"font-size": "13px"})
    update = CustomJS(
        args={
            "slider": slider,
            "ground": ground,
            "front": front,
            "events": events,
            "readout": readout,
            **frames,
        },
        code=_UPDATE_JS,
    )
    slider.js_on_change("value", update)
    toggle.js_on_change(
        "active", CustomJS(args={"toggle": toggle, "slider": slider, "interval": interval_ms}, code=_PLAY_JS)
    )
    # The first day is drawn here; the browser redraws on every slider move.
    _draw_day(slider.value, frames, events, readout, ground, front)
    layout = column(fig, row(toggle, slider), readout)
    layout.name = "campaign"
    return layout


def _draw_day(day: int, frames: dict[str, Any], events, readout, ground, front) -> None:
    """Set the sources and the readout for ``day`` as the slider's script does in the browser."""
    k = (
        max(i for i, d in enumerate(frames["record_days"]) if d <= day)
        if day >= frames["record_days"][0]
        else 0
    )
    ground.data = {"xs": frames["ground_xs"][k], "ys": frames["ground_ys"][k]}
    front.data = {"xs": frames["front_xs"][k], "ys": frames["front_ys"][k]}
    data = dict(events.data)
    shown = [start <= day for start in data["start_day"]]
    current = [ok and day <= end + 1 for ok, end in zip(shown, data["end_day"], strict=True)]
    data["alpha"] = [(0.95 if c else 0.3) if ok else 0.0 for ok, c in zip(shown, current, strict=True)]
    data["size"] = [13 if c else 8 for c in current]
    events.data = data
    date = _DAY0 + dt.timedelta(days=day)
    items = "".join(
        f"<li><b>{data['name'][i]}</b> ({data['dates'][i]}): {data['description'][i]}</li>"
        for i, c in enumerate(current)
        if c
    )
    readout.text = (
        f"<h3 style='margin:4px 0'>{date.day} {date:%B} 1944</h3>"
        f"<div style='color:#555'>Front line: {frames['record_labels'][k]}</div>"
        f"<ul style='margin:4px 0'>{items}</ul>"
    )


def save_campaign_html(path: str | Path, **kwargs: Any) -> Path:
    """Save the campaign view as a standalone HTML page (BokehJS inline, no kernel, no network)."""
    from normandy_lab.views.export import save_html

    return save_html(campaign_map(**kwargs), path, title="normandy_lab: the Normandy campaign")
