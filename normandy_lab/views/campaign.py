"""The campaign on a date slider: the lodgement growing, the front lines and the timeline's events.

:func:`campaign_map` builds one bokeh layout whose slider, play button and
date readout run entirely in the browser (CustomJS): every record's ground and
front line travel with the page, so the same view works in JupyterLab and as a
standalone HTML page with no kernel (:func:`save_campaign_html`).
"""

from __future__ import annotations

import datetime as dt
import html
from functools import lru_cache
from pathlib import Path
from typing import Any

from normandy_lab.history.lodgement import FIRST_DAY
from normandy_lab.history.timeline import LAST_DAY
from normandy_lab.rules.game import SIDE_COLOURS
from normandy_lab.views.history import (
    ALLIED_FILL,
    FRONT_COLOUR,
    add_place_labels,
    line_columns,
    polygon_columns,
)
from normandy_lab.views.mapview import map_frame, to_mercator

#: The map's first view: Brittany's border to the Seine.
CAMPAIGN_EXTENT = (-2.3, 48.05, 1.25, 49.85)
#: The whole campaign, Normandy to Paris: every event of the timeline lies inside.
CAMPAIGN_FULL_EXTENT = (-2.4, 47.85, 2.7, 49.95)
#: Words for the event kinds in the key.
CATEGORY_WORDS = {
    "landing": "landings",
    "airborne": "airborne drops",
    "battle": "battles",
    "operation": "operations",
    "storm": "the great storm",
    "capture": "places taken",
    "logistics": "ports and supply",
    "command": "command",
}
#: Play speeds offered, in days of the campaign per second.
PLAY_SPEEDS = ("1", "2.5", "5", "10")
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
    alpha.push(shown ? (current ? 0.95 : (hide_past.active ? 0.0 : 0.3)) : 0.0);
    size.push(current ? 13 : 8);
    if (current) { now.push(i); }
}
events.data = Object.assign({}, events.data, {alpha: alpha, size: size});
let s = -1;
for (let i = 0; i < scenario_days.length; i++) { if (scenario_days[i] === day) { s = i; } }
divisions.data = s >= 0 ? scenario_units[s] : empty_units;
const date = new Date(Date.UTC(1944, 5, 6 + day));
const months = ["January","February","March","April","May","June","July","August","September"];
let text = "<h3 style='margin:4px 0'>" + date.getUTCDate() + " " + months[date.getUTCMonth()] + " 1944</h3>";
text += "<div style='color:#555'>Front line: " + record_labels[k] + "</div>";
if (s >= 0) { text += "<div style='color:#555'>" + scenario_labels[s] + "</div>"; }
text += "<ul style='margin:4px 0'>";
for (const i of now) {
    const d = events.data;
    text += "<li><b>" + d.name[i] + "</b> (" + d.dates[i] + "): " + d.description[i] + "</li>";
}
text += "</ul>";
readout.text = text;
"""

# Play runs day by day at the chosen speed and stops on the last day (it does not loop).
_PLAY_JS = """
const key = "normandy_lab_play_" + toggle.id;
clearInterval(window[key]);
if (toggle.active) {
    if (slider.value >= slider.end) { slider.value = slider.start; }
    toggle.label = "❚❚ Pause";
    const interval = 1000 / parseFloat(speed.value);
    window[key] = setInterval(() => {
        if (slider.value >= slider.end) { toggle.active = false; return; }
        slider.value = slider.value + 1;
    }, interval);
} else {
    toggle.label = "▶ Play";
}
"""

# The slider's readout is the date, not a day count.
_DATE_FORMAT_JS = """
const date = new Date(Date.UTC(1944, 5, 6 + Math.round(tick)));
const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep"];
return date.getUTCDate() + " " + months[date.getUTCMonth()] + " 1944";
"""

_ZOOM_JS = """
const [w, s, e, n] = extent;
xr.setv({start: w, end: e}); yr.setv({start: s, end: n});
"""


def _day(date: dt.date) -> int:
    return (date - _DAY0).days


def campaign_frames() -> dict[str, Any]:
    """Return the per-record data of the slider: days, labels, ground and front columns.

    Keys: ``record_days`` (days since D-Day), ``record_labels``,
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


def scenario_positions() -> tuple[list[int], list[str], list[dict[str, list]]]:
    """Return, for every historical scenario, its day, a caption and one symbol per formation.

    The symbols (Web Mercator) are the formations of :func:`normandy_lab.views.layers.formation_data`:
    each division or brigade at the middle of its units, with how many of them are out of supply.  Worked
    out once and kept on disk (:func:`normandy_lab.views.tour.kept`): it determines the supply of every
    scenario of the four games, which a kernel that only draws the squares need not load.
    """
    from normandy_lab.views.tour import table

    return table("campaign_positions")


def _scenario_positions() -> tuple[list[int], list[str], list[dict[str, list]]]:
    from normandy_lab.engine import supply
    from normandy_lab.engine.scenario import SCENARIO_DIR, load_scenario
    from normandy_lab.grids.numbering import SCHEMES
    from normandy_lab.views.layers import formation_data

    days, labels, columns = [], [], []
    for path in sorted(SCENARIO_DIR.glob("*.yaml")):
        state = load_scenario(path.stem)
        data = formation_data(state, supply(state))
        keep = ("x", "y", "name", "short", "side", "colour", "units", "out")
        days.append(_day(state.date))
        labels.append(
            f"Divisions and brigades as set up in the scenario of {state.date.day} {state.date:%B} "
            f"({state.turn}, {SCHEMES[state.system].title}): hover a square for its name"
        )
        columns.append({key: data[key] for key in keep})
    return days, labels, columns


def campaign_map(width: int = 980, height: int = 720, start: Any = "1944-06-06", interval_ms: int = 400):
    """Build the campaign view: map, date slider, play button and speed, and the day's events.

    Parameters
    ----------
    width, height
        Size of the map in pixels.
    start
        The date the slider starts on.
    interval_ms
        Time per day when playing, at first (the speed menu changes it).

    Returns
    -------
    bokeh.models.Column
        Runs in the browser only: it needs no kernel.
    """
    from bokeh.layouts import column, row
    from bokeh.models import (
        Button,
        CDSView,
        ColumnDataSource,
        CustomJS,
        CustomJSTickFormatter,
        Div,
        GroupFilter,
        HoverTool,
        LabelSet,
        Select,
        Slider,
        Toggle,
    )

    from normandy_lab import history

    frames = campaign_frames()
    events = ColumnDataSource(event_columns(), name="campaign_events")
    last_day = max(frames["record_days"][-1], *events.data["start_day"])
    # Land is the background and the sea is drawn over it: east of the coast data (1.2° E),
    # towards the Seine and Paris, the map is inland country.
    fig = map_frame(
        f"The Normandy campaign, {FIRST_DAY:%-d %B} – {LAST_DAY:%-d %B %Y}",
        CAMPAIGN_EXTENT,
        width,
        height,
        "#f3efe4",
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
    # The sea over the Allied ground, with its coastline drawn: in August the grey-blue ground fills the
    # view and, drawn over the sea, hid the coast (ux-2).
    fig.multi_polygons(
        source=ColumnDataSource(_sea_columns()), fill_color="#e6f1fb", line_color="#5b7fa6",
        line_width=1.2,
    )  # fmt: skip
    fig.multi_line(source=front, line_color=FRONT_COLOUR, line_width=2.5, legend_label="front line")
    add_place_labels(fig)
    _beach_names(fig)
    days, scenario_labels, scenario_units = scenario_positions()
    empty_units = {key: [] for key in scenario_units[0]} if scenario_units else {"x": [], "y": []}
    divisions = ColumnDataSource(dict(empty_units), name="campaign_divisions")
    # One layer a side, each in its side's colour with its own key entry (the key used to show a blue
    # square only, for red German squares too); the colour is fixed, so the key has a swatch even on the
    # days without a scenario, when the layers are empty.
    squares = []
    for side, words in (("allied", "Allied"), ("german", "German")):
        squares.append(
            fig.scatter(
                "x", "y", source=divisions, view=CDSView(filter=GroupFilter(column_name="side", group=side)),
                marker="square", size=9, fill_color=SIDE_COLOURS[side], line_color="#111111",
                legend_label=f"{words} divisions and brigades (scenario dates)",
            )
        )  # fmt: skip
    fig.add_tools(
        HoverTool(renderers=squares, tooltips=[("", "@name"), ("units", "@units (@out out of supply)")])
    )
    nan = float("nan")
    nan = float("nan")
    for category, colour in CATEGORY_COLOURS.items():
        # A swatch per kind of event in the key (the events' own alpha is 0 until their day).
        fig.scatter(
            [nan],
            [nan],
            size=9,
            fill_color=colour,
            line_color="#222222",
            legend_label=CATEGORY_WORDS[category],
        )
    dots = fig.scatter(
        "x", "y", source=events, size="size", fill_color="colour", fill_alpha="alpha", line_color="#222222",
        line_alpha="alpha",
    )  # fmt: skip
    fig.add_tools(
        HoverTool(
            renderers=[dots],
            # A tooltip of a readable width that wraps, whatever the length of the "who" list.
            tooltips=(
                "<div style='max-width:320px;white-space:normal'><b>@name</b><br>@dates, @place"
                "<br><span style='color:#555'>@formations</span></div>"
            ),
        )
    )
    # Places of events beyond the first view (the Seine crossings, Paris) are named where they are.
    east_edge = float(to_mercator([CAMPAIGN_EXTENT[2]], [49.0])[0][0])
    far: dict[str, list] = {"x": [], "y": [], "place": []}
    for x, y, place in zip(events.data["x"], events.data["y"], events.data["place"], strict=True):
        if x > east_edge and place not in far["place"]:
            far["x"].append(x)
            far["y"].append(y)
            far["place"].append(place)
    fig.add_layout(
        LabelSet(
            x="x", y="y", text="place", source=ColumnDataSource(far), text_font_size="8pt", x_offset=4,
            y_offset=3,
        )
    )  # fmt: skip
    fig.legend.location = "bottom_right"
    fig.legend.click_policy = "hide"
    fig.legend.label_text_font_size = "8pt"
    fig.legend.background_fill_alpha = 0.8
    slider = Slider(
        start=0,
        end=last_day,
        value=max(0, min(last_day, _day(history.record(start).date))),
        step=1,
        title="Date",
        width=width - 420,
        format=CustomJSTickFormatter(code=_DATE_FORMAT_JS),
        name="campaign_slider",
    )
    toggle = Toggle(label="▶ Play", active=False, width=100, name="campaign_play")
    speeds = [*PLAY_SPEEDS]
    chosen = f"{1000 / interval_ms:g}"
    if chosen not in speeds:
        speeds.append(chosen)
    speed = Select(title="days a second", value=chosen, options=speeds, width=110, name="campaign_speed")
    hide_past = Toggle(label="hide past events", active=False, width=130, name="campaign_hide_past")
    whole = Button(label="Normandy to Paris", width=140)
    readout = Div(width=width, styles={"font-size": "13px"}, name="campaign_readout")
    (x0, x1), (y0, y1) = to_mercator(CAMPAIGN_FULL_EXTENT[::2], CAMPAIGN_FULL_EXTENT[1::2])
    whole.js_on_event(
        "button_click",
        CustomJS(args={"xr": fig.x_range, "yr": fig.y_range, "extent": [x0, y0, x1, y1]}, code=_ZOOM_JS),
    )
    update = CustomJS(
        args={
            "slider": slider, "ground": ground, "front": front, "events": events, "readout": readout,
            "hide_past": hide_past, "divisions": divisions, "scenario_days": days,
            "scenario_labels": scenario_labels, "scenario_units": scenario_units, "empty_units": empty_units,
            **frames,
        },
        code=_UPDATE_JS,
    )  # fmt: skip
    slider.js_on_change("value", update)
    hide_past.js_on_change("active", update)
    play = CustomJS(args={"toggle": toggle, "slider": slider, "speed": speed}, code=_PLAY_JS)
    toggle.js_on_change("active", play)
    speed.js_on_change("value", play)
    # The first day is drawn here; the browser redraws on every slider move.
    _draw_day(slider.value, frames, events, readout, ground, front)
    layout = column(fig, row(toggle, speed, slider, hide_past, whole), readout)
    layout.name = "campaign"
    return layout


def _sea_columns() -> dict[str, list]:
    """Return the sea's polygon columns, kept on disk: the coast data's sea layer is 34 MB in a kernel."""
    from normandy_lab.views.tour import table

    return table("campaign_sea")


def _sea_table() -> dict[str, list]:
    return polygon_columns(_sea())


@lru_cache(maxsize=1)
def _sea() -> Any:
    """Return the sea of the coast data as one shape, simplified for display."""
    from normandy_lab.geo import geography

    return geography.layer("sea").geometry.union_all().simplify(SIMPLIFY_DEG, preserve_topology=True)


def _beach_names(fig: Any) -> None:
    """Name the five invasion beaches at the middle of each beach line."""
    from bokeh.models import ColumnDataSource, LabelSet

    from normandy_lab.geo import geography

    coast = geography.layer("coast_features")
    beaches = coast[(coast["class"] == "beach") & (coast.geometry.geom_type == "LineString")]
    middle = [line.interpolate(0.5, normalized=True) for line in beaches.geometry]
    x, y = to_mercator([p.x for p in middle], [p.y for p in middle])
    source = ColumnDataSource({"x": list(x), "y": list(y), "name": beaches["name"].astype(str).tolist()})
    fig.add_layout(
        LabelSet(
            x="x", y="y", text="name", source=source, text_font_size="10pt", text_font_style="bold",
            text_color="#8a5a00", y_offset=8, text_align="center",
        )
    )  # fmt: skip


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


def save_campaign_html(path: str | Path, *, overwrite: bool = False, **kwargs: Any) -> Path:
    """Save the campaign view as a standalone HTML page (BokehJS inline, no kernel, no network).

    A file at ``path`` is replaced only if it is a page exported before, or ``overwrite=True``.
    """
    from normandy_lab.views.export import save_html

    return save_html(
        campaign_map(**kwargs), path, title="normandy_lab: the Normandy campaign", overwrite=overwrite
    )
