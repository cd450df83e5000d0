"""Two states side by side: one map each, panned and zoomed together, and a table of what differs.

``normandy_lab.views.compare(before, after)`` answers "what does this change
do?" at a glance: Clear against Storm, a bridge up against the bridge down,
one scenario morning against the next.  Both maps share the basemap's data
(the browser receives the terrain and the geography once) and the same
x and y ranges (a pan or zoom on one moves the other, in the browser).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from normandy_lab.engine.state import GameState
from normandy_lab.errors import RefusedError
from normandy_lab.views import layers, wording


@dataclass
class Comparison:
    """The side-by-side view: ``app`` to display, the two figures, and the table of differences."""

    app: Any
    figures: tuple[Any, Any]
    table_html: str
    changed_units: list[str]

    def _ipython_display_(self) -> None:  # pragma: no cover - needs a front end
        from IPython.display import display

        display(self.app)


def _fill(state: GameState, fig: Any, prefix: str, scale: float) -> tuple[Any, dict[str, dict[str, list]]]:
    """Draw one state's situation over a basemap, as a sequence page draws each state (no lines).

    The formation symbols are laid out for ``scale`` (the maps' first view) so that none overlaps another.
    Returns the layers and the contents drawn.
    """
    from normandy_lab.views.sequence import state_frame
    from normandy_lab.views.situation import add_state_layers

    features, hexes, _ = state_frame(state, scale)
    shown = add_state_layers(fig, state.system, prefix=prefix)
    shown.set_features("bridges", layers.bridge_data(state.system))
    for name, indices in hexes.items():
        shown.set_hexes(name, indices)
    for name, data in features.items():
        if name != "paths":  # every unit's line on two maps side by side would hide the difference
            shown.set_features(name, data)
    return shown, features


def difference_table(before: GameState, after: GameState) -> tuple[str, list[str]]:
    """Return an HTML table of the units whose supply differs (in each state the rule system declares)."""
    from normandy_lab.engine.whatif import supply_changes

    changes = supply_changes(before, after)
    yes_no = {True: "yes", False: "no"}
    # The columns are the rule system's supply states: BfN's General and Combat Supply, Cobra's one.
    keys = {s.key: s.label for s in after.rules.supply_states}
    combat = "combat" in keys
    rows = [
        "<tr>"
        f"<td>{html.escape(str(row.name))}</td><td>{html.escape(str(row.side))}</td>"
        f"<td>{html.escape(wording.place_of(after.system, str(row.hex)))}</td>"
        f"<td>{yes_no[bool(row.general_before)]} → {yes_no[bool(row.general_after)]}</td>"
        + (f"<td>{yes_no[bool(row.combat_before)]} → {yes_no[bool(row.combat_after)]}</td>" if combat else "")
        + f"<td>{html.escape(str(row.why_after))}</td>"  # each hex with its place, as in the panel
        "</tr>"
        for row in changes.itertuples()
    ]
    head = (
        f"<tr><th>unit</th><th>side</th><th>where</th><th>{html.escape(keys['general'])}</th>"
        + (f"<th>{html.escape(keys['combat'])}</th>" if combat else "")
        + "<th>why, after</th></tr>"
    )
    table = (
        f"<b>{len(rows)} {'unit changes' if len(rows) == 1 else 'units change'} supply</b>"
        "<div style='max-height:280px;overflow:auto'>"
        "<table style='font-size:12px;line-height:1.3;border-collapse:collapse'>"
        f"{head}{''.join(rows)}</table>"
        "</div>"
        if rows
        else "<b>No unit changes supply.</b>"
    )
    return table, list(changes.index)


def difference_words(before: GameState, after: GameState) -> str:
    """Say what differs between two states of one map, in a few words ("Storm (was Overcast); 8 bridges cut").

    Phase and date, weather, bridges destroyed and repaired, hexes interdicted or cleared, units moved,
    added or removed, and the game's markers that differ; "the same situation" when nothing does.
    """

    def count(n: int, one: str, many: str) -> str:
        return f"{n} {one if n == 1 else many}"

    said = []
    if (before.date, before.turn, before.phase_index) != (after.date, after.turn, after.phase_index):
        said.append(after.label)
    if before.weather != after.weather:
        said.append(f"{after.weather} (was {before.weather})")
    for gone, words in (
        (after.destroyed_bridges - before.destroyed_bridges, ("bridge cut", "bridges cut")),
        (before.destroyed_bridges - after.destroyed_bridges, ("bridge repaired", "bridges repaired")),
        (after.interdicted_hexes - before.interdicted_hexes, ("hex interdicted", "hexes interdicted")),
        (before.interdicted_hexes - after.interdicted_hexes, ("hex cleared", "hexes cleared")),
    ):
        if gone:
            said.append(count(len(gone), *words))
    old = {u.id: u for u in before.units}
    new = {u.id: u for u in after.units}
    moved = sum(1 for k in old.keys() & new.keys() if old[k].hex != new[k].hex)
    for n, words in (
        (moved, ("unit moved", "units moved")),
        (len(new.keys() - old.keys()), ("unit added", "units added")),
        (len(old.keys() - new.keys()), ("unit removed", "units removed")),
    ):
        if n:
            said.append(count(n, *words))
    markers = sorted(k for k in after.markers if before.markers.get(k) != after.markers.get(k))
    if markers:
        said.append(", ".join(k.replace("_", " ") for k in markers) + " changed")
    return "; ".join(said) or "the same situation"


def compare(
    before: GameState,
    after: GameState,
    titles: tuple[str, str] | None = None,
    width: int = 470,
    height: int = 460,
    extent: tuple[float, float, float, float] | None = None,
) -> Comparison:
    """Show two states of one map side by side, panned and zoomed together, with their differences.

    Parameters
    ----------
    before, after
        States on the same map (for example a scenario and the same with ``set_weather(state, "Storm")``).
    titles
        The words over each map; by default "as it is" and what differs (:func:`difference_words`).
    extent
        ``(west, south, east, north)``; the front of ``before`` by default.
    """
    import ipywidgets as w
    from bokeh.layouts import row
    from jupyter_bokeh.widgets import BokehModel

    from normandy_lab.views.basemap import basemap, slim
    from normandy_lab.views.sectors import front_extent as _default_extent

    if before.system != after.system:
        raise RefusedError(f"compare two states of one map; got {before.system!r} and {after.system!r}")
    titles = titles or ("as it is", difference_words(before, after))
    area = extent or _default_extent(before)
    left = basemap(before.system, extent=area, width=width, height=height)
    # One pair of ranges: a pan or zoom moves both maps.
    right = basemap(
        before.system, extent=area, width=width, height=height, ranges=(left.x_range, left.y_range)
    )
    # The right map draws from the left map's geography and terrain: sent to the browser once.
    shared = {r.data_source.name: r.data_source for r in left.renderers if r.data_source.name}
    for renderer in right.renderers:
        if renderer.data_source.name in shared:
            renderer.data_source = shared[renderer.data_source.name]
    for renderer in right.renderers:  # the right map's own layers get names of their own
        if renderer.name:
            renderer.name = f"after:{renderer.name}"
    for label in right.center:
        source = getattr(label, "source", None)
        if source is not None and source.name in shared:
            label.source = shared[source.name]
    from normandy_lab.views.sequence import symbol_scale

    # Half as wide as the explorer's map: without a layout of their own the symbols piled up (ux-2).
    scale = symbol_scale(area, width, height)
    _fill(before, left, "before:", scale)
    right_layers, drawn = _fill(after, right, "after:", scale)
    # The maps are half as wide as the explorer's: the key goes as one line of words under them.
    left.legend[0].visible = False
    right.legend[0].visible = False
    # What differs on a line of its own, the state's label under it: on one line the label ran off the
    # right map's 470 px, cut mid-word (ux-2).
    left.title.text = f"{titles[0]}\n{before.label}"
    right.title.text = f"{titles[1]}\n{after.label}"
    table, changed = difference_table(before, after)
    right_layers.set_features("changed", layers.unit_positions(drawn["units"], changed))
    key = (
        f"{layers.ring_key_html(before)}<br><small>Dashed green rings on the right: the units "
        "whose supply differs. Hatched hexes: zones of control. Pan or zoom either map: both follow.</small>"
    )
    slim(left)  # fewer models for the page to build (issue 33, section 4)
    slim(right)
    app = w.VBox([BokehModel(row(left, right)), w.HTML(key), w.HTML(table)])
    app.add_class("nl-compare")
    return Comparison(app=app, figures=(left, right), table_html=table, changed_units=changed)
