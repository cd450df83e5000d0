"""The situation drawn over a basemap: zones of control, ranges, lines, units, bridges.

:func:`add_state_layers` adds every layer to a basemap that has a grid's
terrain hexes, and returns a :class:`StateLayers` that takes each layer's new
content.  Two kinds of layer, chosen for what the browser must do on each
update:

* *hex layers* (zones of control, supply range, movement range, interdicted
  hexes, the blocking hex): a renderer on the basemap's terrain source with
  an ``IndexFilter`` and one fill colour.  An update sends a list of hex
  indices; no geometry and no per-row colours travel or get rebuilt.
* *feature layers* (lines of supply, fronts, units, formation symbols,
  bridges, the selection): small ``ColumnDataSource``s replaced column-whole.

Units are drawn twice and the zoom chooses: zoomed out, one symbol per
division or brigade with the supply state of its units as a bar; zoomed in,
the counters.  A ``CustomJS`` on the x-range switches them, so it also works
in a saved page with no kernel.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from normandy_lab.errors import RefusedError
from normandy_lab.views.hexcells import TERRAIN_SOURCE, ngon_specs

#: Hex layers: name -> (fill colour, fill alpha, line colour or None, line width, legend words).
HEX_LAYERS: dict[str, tuple[str, float, str | None, float, str]] = {
    "zoc_allied": ("#1f4e9e", 0.10, None, 0.0, "Allied zone of control"),
    "zoc_german": ("#b22222", 0.10, None, 0.0, "German zone of control"),
    "range": ("#ffd700", 0.35, "#b8860b", 0.8, "supply range"),
    "moves": ("#2ca02c", 0.25, "#1a7f1a", 0.8, "movement range"),
    "interdiction": ("#ff00ff", 0.45, "#8b008b", 2.0, "interdicted hexes"),
    "blocking": ("#ffffff", 0.0, "#ff00ff", 4.0, "where its line is blocked"),
}
#: Feature layers and their columns when empty.
FEATURE_LAYERS: dict[str, tuple[str, ...]] = {
    "regional": ("xs", "ys", "sheet", "penalty", "alpha", "text"),
    "history": ("xs", "ys", "label"),
    "implied": ("xs", "ys", "label"),
    "paths": ("xs", "ys", "unit_id", "side", "hexes"),
    "units": (
        "x", "y", "unit_id", "name", "side", "colour", "glyph", "echelon", "label", "hex_id", "steps",
        "strength", "general", "combat", "isolated", "supply", "line", "stack", "formation",
    ),
    "formations": (
        "x", "y", "key", "name", "short", "side", "colour", "line", "units", "out", "bar", "echelon", "glyph",
    ),
    "move_costs": ("x", "y", "text"),
    "zones": ("xs", "ys", "label", "side"),
    "routes": ("xs", "ys", "label", "colour"),
    "route_breaks": ("x", "y", "label"),
    "zone_labels": ("x", "y", "text"),
    "bridges": ("x", "y", "a", "b", "water", "angle"),
    "broken_bridges": ("x", "y", "a", "b", "water"),
    "selection": ("x", "y"),
    "changed": ("x", "y", "unit_id"),
}  # fmt: skip

#: Installed in the page when a map's view first changes: BokehJS's ``LabelSet`` measures and draws every
#: label at every paint, also those far outside the map's frame, which it then clips away.  Zoomed in to
#: click a unit, the explorer's map has about 1,850 labels (three per counter, the place names of every
#: rank) of which a few dozen are in view, and their text was most of an edit's repaint (issue 33,
#: section 4).  The patched paint skips a label whose anchor lies farther outside the frame than its text
#: could reach (64 px and 24 px a character: more than any of the map's fonts), so what is drawn does not
#: change.  Labels that are not clipped to the frame, and a BokehJS whose label set looks otherwise, are
#: painted as before.  Once per page: every label set of the page shares the prototype.
CULL_LABELS_JS = """
const bokeh = typeof Bokeh !== "undefined" ? Bokeh : null;
const proto = bokeh?.require?.("models/annotations/label_set")?.LabelSetView?.prototype;
if (proto == null || proto._nl_culled || typeof proto._paint_data !== "function") return;
const paint_all = proto._paint_data;
proto._paint_data = function (ctx) {
    const frame = this.plot_view?.frame?.bbox;
    if (!this.needs_clip || frame == null || this.sx == null || typeof this.x_offset?.get !== "function") {
        return paint_all.call(this, ctx);
    }
    const {left, right, top, bottom} = frame;
    for (let i = 0, end = this.text.length; i < end; i++) {
        const sx_i = this.sx[i] + this.x_offset.get(i);
        const sy_i = this.sy[i] - this.y_offset.get(i);
        const text_i = this.text.get(i);
        const angle_i = this.angle.get(i);
        if (!isFinite(sx_i + sy_i + angle_i) || text_i == null) continue;
        const reach = 64 + 24 * String(text_i).length;
        if (sx_i < left - reach || sx_i > right + reach) continue;
        if (sy_i < top - reach || sy_i > bottom + reach) continue;
        this._paint_text(ctx, i, `${text_i}`, sx_i, sy_i, angle_i);
    }
};
proto._nl_culled = true;
proto._nl_paint_all = paint_all;  // what BokehJS would do (the tests compare both pictures)
"""

#: Lines of supply in a colour no basemap layer uses (cyan over a dark casing).
LINE_COLOUR, LINE_CASING = "#00d5ff", "#08304a"
#: The view width (in hexes across) below which counters replace formation symbols.
COUNTER_ZOOM_HEXES = 45


@dataclass
class StateLayers:
    """The situation layers of one figure: hex layers by index filter, feature layers by source."""

    filters: dict[str, Any] = field(default_factory=dict)
    sources: dict[str, Any] = field(default_factory=dict)

    def hexes(self, name: str) -> list[int]:
        """Return the dense hex indices a hex layer shows."""
        return list(self.filters[name].indices)

    def set_hexes(self, name: str, indices: list[int]) -> bool:
        """Show these hexes in a hex layer; returns whether anything changed (and was sent)."""
        indices = [int(i) for i in indices]
        if list(self.filters[name].indices) == indices:
            return False
        self.filters[name].indices = indices
        return True

    def set_features(self, name: str, data: dict[str, list]) -> bool:
        """Show these columns in a feature layer if they differ; returns whether anything was sent.

        Where only a few rows changed (a moved unit, a ring), only those rows go to the page, as one
        ``patch`` of the source; otherwise the columns are replaced whole (issue 33, section 4: a move
        re-sent the whole units' layer, about 110 kB, for one counter).
        """
        source = self.sources[name]
        if same_columns(source.data, data):
            return False
        rows = changed_rows(source.data, data)
        if rows is None:
            # Columns of their own: a later patch changes the source's lists in place, never the caller's.
            columns = changed_columns(source.data, data)
            if columns is None:
                source.data = {key: list(column) for key, column in data.items()}
            else:
                # The same rows, many changed (a weather change: 238 of 329 units' supply), in a few
                # columns: only those travel, as one change of the source (5 of the units' 19 columns).
                source.data.update({key: list(data[key]) for key in columns})
        else:
            source.patch(
                {
                    key: [(row, data[key][row]) for row in rows]
                    for key in data
                    if any(source.data[key][row] != data[key][row] for row in rows)
                }
            )
        return True


def same_columns(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Tell whether two sets of columns are equal (lists compared as lists)."""
    if old.keys() != new.keys():
        return False
    return all(list(old[key]) == list(new[key]) for key in new)


#: The largest share of a layer's rows sent as a patch rather than as whole columns.
PATCH_SHARE = 0.25


def changed_rows(old: dict[str, Any], new: dict[str, Any]) -> list[int] | None:
    """Return the rows that differ between two sets of columns, or None where a patch cannot say it.

    None when the columns or the number of rows differ, when a column is not a plain list (a numpy column
    of fixed-width text would cut a longer value short), or when more than :data:`PATCH_SHARE` of the
    rows changed (whole columns are then the smaller message).
    """
    if old.keys() != new.keys() or not new:
        return None
    lengths = {len(column) for column in (*old.values(), *new.values())}
    if len(lengths) != 1 or not all(isinstance(column, list) for column in (*old.values(), *new.values())):
        return None
    (count,) = lengths
    rows = [row for row in range(count) if any(old[key][row] != new[key][row] for key in new)]
    return rows if len(rows) <= PATCH_SHARE * count else None


def changed_columns(old: dict[str, Any], new: dict[str, Any]) -> list[str] | None:
    """Return the columns that differ between two sets of columns of the same rows, or None.

    None when the columns or the number of rows differ: the columns are then replaced all together.
    """
    if old.keys() != new.keys() or not new:
        return None
    if len({len(column) for column in (*old.values(), *new.values())}) != 1:
        return None
    return [key for key in new if list(old[key]) != list(new[key])]


def empty_columns(name: str) -> dict[str, list]:
    """Return the empty columns of a feature layer."""
    return {column: [] for column in FEATURE_LAYERS[name]}


def add_state_layers(fig: Any, system: str, prefix: str = "") -> StateLayers:
    """Add the situation layers to a basemap drawn with a grid's terrain hexes.

    Parameters
    ----------
    fig
        A figure from :func:`normandy_lab.views.basemap.basemap` with a system.
    system
        The rule system whose grid the basemap draws (its hex size sets the zoom at which
        counters appear).
    prefix
        Put before the layers' model names, so that two maps in one page (a side-by-side view)
        keep names that BokehJS can tell apart.
    """
    from bokeh.models import CDSView, ColumnDataSource, CustomJS, HoverTool, IndexFilter, LabelSet

    from normandy_lab.grids import grid
    from normandy_lab.rules import look

    hex_size_m = grid(system).georeference.hex_size_m
    terrain = fig.select_one({"name": TERRAIN_SOURCE})
    if terrain is None:
        raise RefusedError("the situation is drawn over a basemap with a grid's terrain hexes")
    layers = StateLayers()
    layers.sources = {
        name: ColumnDataSource(empty_columns(name), name=f"{prefix}{name}") for name in FEATURE_LAYERS
    }
    src = layers.sources
    regional = fig.patches(
        "xs", "ys", source=src["regional"], fill_color="#ff00ff", fill_alpha="alpha", line_color="#8b008b",
        line_width=3, line_dash="dashed", legend_label="air interdiction of a map",
        name=f"{prefix}layer:regional",
    )  # fmt: skip
    fig.add_tools(HoverTool(renderers=[regional], tooltips=[("air interdiction", "@text")]))
    for name, (fill, alpha, line, width, words) in HEX_LAYERS.items():
        layers.filters[name] = IndexFilter(indices=[], name=f"hexes:{prefix}{name}")
        # Zones of control are hatched in one colour per renderer: BokehJS then makes
        # one canvas pattern per layer (a colour per row would make one per hex).
        hatch = {
            "hatch_pattern": "diagonal_cross",
            "hatch_color": fill,
            "hatch_alpha": 0.45,
            "hatch_scale": 7,
        }
        fig.ngon(
            "x", "y", n=6, source=terrain, **ngon_specs(system),
            view=CDSView(filter=layers.filters[name]), fill_color=fill, fill_alpha=alpha,
            line_color=line or fill, line_alpha=1.0 if line else 0.0, line_width=width,
            legend_label=words, name=f"{prefix}layer:{name}", **(hatch if name.startswith("zoc_") else {}),
        )  # fmt: skip
    move_labels = LabelSet(
        x="x", y="y", text="text", source=src["move_costs"], text_font_size="7pt", text_align="center",
        text_baseline="middle", text_color="#0b4d0b", name=f"{prefix}labels:move_costs",
    )  # fmt: skip
    fig.add_layout(move_labels)
    fronts = [
        fig.multi_line(
            "xs", "ys", source=src["history"], line_color="#111111", line_width=3, line_dash="dashed",
            legend_label="historical front (evening before)", name=f"{prefix}layer:history",
        ),
        fig.multi_line(
            "xs", "ys", source=src["implied"], line_color="#8e44ad", line_width=2, line_alpha=0.9,
            line_dash="dotdash", legend_label="front implied by the units", name=f"{prefix}layer:implied",
        ),
    ]  # fmt: skip
    fig.add_tools(HoverTool(renderers=fronts, tooltips=[("", "@label")]))
    # The rule system's zones (KG: where a corps HQ is supported for nothing, for 1 SP ...), by outline.
    # The map key lists them only for a game that draws them (its look's map_features).
    features = look(system).map_features
    zone_key = {"legend_label": "rule zones (labelled; the rule on hover)"} if "zones" in features else {}
    route_key = {"legend_label": "paths a rule tests (link-up)"} if "routes" in features else {}
    break_key = {"legend_label": "where a tested path breaks"} if "routes" in features else {}
    zones = fig.multi_line(
        "xs", "ys", source=src["zones"], line_color="#006d6f", line_width=2.5, line_dash="dashed",
        name=f"{prefix}layer:zones", **zone_key,
    )  # fmt: skip
    fig.add_tools(HoverTool(renderers=[zones], tooltips=[("", "@label")]))
    # The paths a rule tests (GTS: the 82nd's link-up), green where they hold, red where they break.
    routes = fig.multi_line(
        "xs", "ys", source=src["routes"], line_color="colour", line_width=3, line_dash="dotdash",
        name=f"{prefix}layer:routes", **route_key,
    )  # fmt: skip
    breaks = fig.scatter(
        "x", "y", source=src["route_breaks"], marker="square_x", size=18, fill_alpha=0.0,
        line_color="#d40000", line_width=3, name=f"{prefix}layer:route_breaks", **break_key,
    )  # fmt: skip
    fig.add_tools(HoverTool(renderers=[routes, breaks], tooltips=[("", "@label")]))
    fig.add_layout(
        LabelSet(
            x="x", y="y", text="text", source=src["zone_labels"], text_font_size="8pt", text_align="center",
            text_baseline="bottom", text_color="#006d6f", name=f"{prefix}labels:zone_labels",
        )
    )  # fmt: skip
    casing = fig.multi_line(
        "xs", "ys", source=src["paths"], line_color=LINE_CASING, line_width=5, line_alpha=0.8,
        legend_label="lines of supply", name=f"{prefix}layer:paths_casing",
    )  # fmt: skip
    paths = fig.multi_line(
        "xs", "ys", source=src["paths"], line_color=LINE_COLOUR, line_width=2.5,
        legend_label="lines of supply", name=f"{prefix}layer:paths",
    )  # fmt: skip
    del casing, paths
    bridges = fig.scatter(
        "x", "y", source=src["bridges"], marker="dash", angle="angle", size=9, line_color="#3b2a1a",
        line_width=3, legend_label="bridges", name=f"{prefix}layer:bridges", visible=False,
    )  # fmt: skip
    broken = fig.scatter(
        "x", "y", source=src["broken_bridges"], marker="x", size=16, line_color="#d40000", line_width=4,
        legend_label="destroyed bridges", name=f"{prefix}layer:broken_bridges",
    )  # fmt: skip
    fig.add_tools(HoverTool(renderers=[bridges, broken], tooltips=[("bridge", "@a–@b over the @water")]))
    counters, counter_labels = _counters(fig, src["units"], prefix)
    symbols, symbol_labels = _formation_symbols(fig, src["formations"], prefix)
    fig.scatter(
        "x", "y", source=src["changed"], marker="circle", size=40, fill_alpha=0.0, line_width=3,
        line_color="#00a86b", line_dash="dashed", legend_label="supply just changed",
        name=f"{prefix}layer:changed",
    )  # fmt: skip
    fig.scatter(
        "x", "y", source=src["selection"], marker="circle", size=46, fill_alpha=0.0, line_color="#ff00ff",
        line_width=4, legend_label="selected unit", name=f"{prefix}layer:selection",
    )  # fmt: skip
    # Counters when zoomed in far enough to read them, formation symbols otherwise.
    # A layer the user hid with the legend (both renderers off) stays hidden.
    switch = CustomJS(
        args={
            "fig": fig, "xr": fig.x_range, "counters": counters, "symbols": symbols,
            "counter_labels": counter_labels, "symbol_labels": symbol_labels, "bridges": bridges,
            "moves": move_labels,
            "hex_m": hex_size_m * 1.5, "limit": COUNTER_ZOOM_HEXES,
        },
        code="""
            const across = (xr.end - xr.start) / hex_m;
            const near = across < limit;
            if (counters.visible || symbols.visible) {
                counters.visible = near; symbols.visible = !near;
                for (const l of counter_labels) l.visible = near;
                for (const l of symbol_labels) l.visible = !near;
            }
            bridges.visible = across < 2 * limit;
            moves.visible = across < limit;
        """,
    )  # fmt: skip
    fig.x_range.js_on_change("start", switch)
    fig.x_range.js_on_change("end", switch)
    # Zoomed out the few labels are in view; once the view changes (a zoom in), off-frame labels are skipped.
    fig.x_range.js_on_change("start", CustomJS(code=CULL_LABELS_JS))
    _place_names_on_top(fig)
    _arrange_legend(fig)
    return layers


def _place_names_on_top(fig: Any) -> None:
    """Draw the basemap's place names over the situation's symbols and labels, on a light ground.

    The basemap labels its places before any unit is drawn, and the division squares then hid Saint-Lô and
    Villers-Bocage (ux-2).  Annotations are drawn in the order of the figure's ``center`` list: the place
    names go to its end.
    """
    from bokeh.models import LabelSet

    names = [
        a for a in fig.center
        if isinstance(a, LabelSet) and str(getattr(a.source, "name", "") or "").startswith("places_rank")
    ]  # fmt: skip
    for label in names:
        fig.center.remove(label)
        label.background_fill_color = "#ffffff"
        label.background_fill_alpha = 0.65
        fig.center.append(label)


def _marked_squares(
    fig: Any, source: Any, size: int, words: str, name: str, marks: tuple[tuple, ...], visible: bool
) -> tuple[Any, list[Any]]:
    """Draw side-coloured squares ringed by supply state, with text marks around them (counters, symbols).

    Each mark is ``(column, y offset, font size, colour, background)``; a background of None
    leaves the text on the square itself.
    """
    from bokeh.models import LabelSet

    squares = fig.scatter(
        "x", "y", source=source, marker="square", size=size, fill_color="colour", line_color="line",
        line_width=3, legend_label=words, name=name, visible=visible,
    )  # fmt: skip
    labels = []
    for column, offset, font_size, colour, background in marks:
        label = LabelSet(
            x="x", y="y", text=column, source=source, text_font_size=font_size, y_offset=offset,
            text_color=colour, text_align="center", text_baseline="middle", text_font_style="bold",
            background_fill_color=background, background_fill_alpha=0.7, visible=visible,
            name=f"{name.replace('layer:', 'labels:')}:{column}",
        )  # fmt: skip
        fig.add_layout(label)
        labels.append(label)
    return squares, labels


def _counters(fig: Any, source: Any, prefix: str) -> tuple[Any, list[Any]]:
    """Draw battalion counters: side colour, type inside, echelon above, strength below, supply ring."""
    from bokeh.models import HoverTool

    marks = (
        ("glyph", 0, "6pt", "white", None),
        ("echelon", 17, "7pt", "#111111", None),
        ("strength", -17, "7pt", "#111111", None),
    )
    counters, labels = _marked_squares(
        fig, source, 24, "unit counters (zoomed in)", f"{prefix}layer:units", marks, visible=False
    )
    fig.add_tools(
        HoverTool(
            renderers=[counters],
            attachment="right",
            tooltips=[
                ("unit", "@unit_id (@glyph @echelon, @steps steps, attack-defense @strength)"),
                ("", "@name"),
                ("formation", "@formation"),
                ("stack", "@stack unit(s) in @hex_id"),
                ("supply", "@supply"),
            ],
        )
    )
    return counters, labels


def _formation_symbols(fig: Any, source: Any, prefix: str) -> tuple[Any, list[Any]]:
    """Draw one symbol per formation: side colour, arm inside, echelon above, name and supply bar below."""
    from bokeh.models import HoverTool

    marks = (
        ("glyph", 0, "7pt", "#ffffff", None),
        ("echelon", 21, "8pt", "#111111", "white"),
        ("short", -23, "8pt", "#111111", "white"),
        ("bar", -35, "7pt", "#1e7b1e", "white"),
    )
    symbols, labels = _marked_squares(
        fig, source, 30, "divisions, brigades (zoomed out)", f"{prefix}layer:formations", marks, visible=True
    )
    fig.add_tools(
        HoverTool(
            renderers=[symbols],
            attachment="right",
            tooltips=[("", "@name"), ("units", "@units (@out out of supply)"), ("", "click to list them")],
        )
    )
    return symbols, labels


def _legend_proxy(fig: Any, renderer: Any) -> Any:
    """Return a renderer that draws nothing on the map but gives a layer its legend swatch.

    BokehJS draws a legend swatch from a layer's data, so an empty layer (no
    ZOC yet, no line selected) would be listed with no swatch; the proxy
    holds one row of NaN with the layer's look.
    """
    from bokeh.models import MultiLine, Ngon, Patches, Scatter

    glyph = renderer.glyph
    nan = float("nan")

    def scalar(value: Any, fallback: Any) -> Any:
        # A string that is not a colour, or a list, names a data column: the proxy uses the fallback.
        if isinstance(value, bool):
            return fallback
        if isinstance(value, int | float):
            return value
        return value if isinstance(value, str) and value.startswith("#") else fallback

    dash = glyph.line_dash if isinstance(glyph.line_dash, str) else "solid"

    if isinstance(glyph, MultiLine):
        return fig.line(
            [nan, nan], [nan, nan], line_color=scalar(glyph.line_color, "#333333"),
            line_width=glyph.line_width, line_alpha=glyph.line_alpha, line_dash=dash,
        )  # fmt: skip
    if isinstance(glyph, Ngon | Patches):
        return fig.scatter(
            [nan], [nan], marker="hex", size=14, fill_color=scalar(glyph.fill_color, "#cccccc"),
            fill_alpha=scalar(glyph.fill_alpha, 0.4), line_color=scalar(glyph.line_color, "#333333"),
            line_alpha=glyph.line_alpha, line_width=min(scalar(glyph.line_width, 1), 3),
            hatch_pattern=glyph.hatch_pattern, hatch_color=glyph.hatch_color, hatch_alpha=glyph.hatch_alpha,
            hatch_scale=4,
        )  # fmt: skip
    if isinstance(glyph, Scatter):
        return fig.scatter(
            [nan], [nan], marker=scalar(glyph.marker, "square"), size=12,
            fill_color=scalar(glyph.fill_color, "#1f4e9e"), fill_alpha=glyph.fill_alpha,
            line_color=scalar(glyph.line_color, "#000000"), line_width=min(scalar(glyph.line_width, 1), 3),
            line_dash=dash,
        )  # fmt: skip
    return renderer


def _arrange_legend(fig: Any) -> None:
    """Put the legend under the map in columns, where it hides nothing and squeezes nothing.

    Entries that share a label (a line and its casing, counters and symbols)
    are one entry; every situation layer gets a swatch even while empty; a
    click on an entry hides its layers.
    """
    from bokeh.models import LegendItem

    legend = fig.legend[0]
    merged: dict[str, LegendItem] = {}
    for item in legend.items:
        label = (
            item.label.get("value") if isinstance(item.label, dict) else getattr(item.label, "value", None)
        )
        key = str(label)
        if key in merged:
            merged[key].renderers = [*merged[key].renderers, *item.renderers]
        else:
            merged[key] = item
    for item in merged.values():
        last = item.renderers[-1]  # the layer on top (a line over its casing)
        if "layer:" in str(last.name or "") and not str(last.name).endswith("layer:terrain"):
            item.renderers = [_legend_proxy(fig, last), *item.renderers]
    legend.items = list(merged.values())
    for panel in (fig.center, fig.right):  # wherever the basemap put it (beside the map)
        if legend in panel:
            panel.remove(legend)
    legend.orientation = "horizontal"
    legend.ncols = 3
    legend.label_text_font_size = "8pt"
    legend.glyph_width = 16
    legend.spacing = 2
    legend.padding = 4
    legend.margin = 0
    legend.click_policy = "hide"
    fig.add_layout(legend, "below")
