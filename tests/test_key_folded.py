"""A folded map key is not in the page's document until it is opened (issue 33 section 4: the opening).

The explorer's key starts folded and the side-by-side view's is hidden; the page built its ~60 models
(entries, swatch renderers and their views) all the same.  ``views.basemap.slim`` keeps them aside and
``views.basemap.show_key`` puts them back: the key then lists what it listed before, in the same order.
"""

from __future__ import annotations

import math
import sys

import normandy_lab as nl
from normandy_lab.views.basemap import show_key

SCENARIO = "bfn_1944-06-13_am"


def _entries(fig) -> list[tuple[str, list[str]]]:
    """Each entry's words and what its renderers draw (a swatch: its glyph's kind; a layer: its name)."""
    out = []
    for item in fig.legend[0].items:
        words = str(getattr(item.label, "value", item.label))
        out.append((words, [r.name or type(r.glyph).__name__ for r in item.renderers]))
    return out


def _in_document(fig) -> set[int]:
    return {id(m) for m in fig.references()}


def test_the_folded_key_leaves_the_document_and_comes_back_whole():
    explorer = nl.explore(SCENARIO)
    fig = explorer.fig
    assert fig.legend == []  # folded: no legend in the figure's panels
    before = len(_in_document(fig))
    shown_layers = [r for r in fig.renderers if r.name]  # the map's layers stay
    explorer.show_key.value = True
    [legend] = fig.legend
    assert legend.visible and legend in fig.below  # under the map, where views.situation put it
    entries = _entries(fig)
    assert len(entries) >= 20 and {"terrain hexes", "lines of supply", "selected unit"} <= {w for w, _ in entries}
    swatches = [r for _, rs in entries for r in rs if r in {"Scatter", "Line"}]
    assert len(swatches) >= 10  # every situation layer has its swatch, even while empty
    assert len(_in_document(fig)) > before + 40
    for item in legend.items:  # every renderer an entry lists is on the figure (a click hides it)
        assert all(r in fig.renderers for r in item.renderers)
    assert [r for r in fig.renderers if r.name] == shown_layers
    explorer.show_key.value = False
    assert not legend.visible and _entries(fig) == entries  # folded again: hidden, kept
    explorer.show_key.value = True
    assert legend.visible and fig.legend == [legend]


def test_the_entries_are_those_of_a_key_that_was_never_folded(monkeypatch):
    explorer = nl.explore(SCENARIO)
    show_key(explorer.fig, True)
    folded_then_shown = _entries(explorer.fig)
    with monkeypatch.context() as patched:
        patched.setattr(sys.modules["normandy_lab.views.basemap"], "fold_keys", lambda fig: None)
        never_folded = nl.explore(SCENARIO)
    assert never_folded.fig.legend[0].items  # nothing kept aside
    assert explorer.fig.below == never_folded.fig.below or [type(m) for m in explorer.fig.below] == [
        type(m) for m in never_folded.fig.below
    ]
    assert folded_then_shown == _entries(never_folded.fig)
    drawn = [(r.name, type(r.glyph).__name__) for r in explorer.fig.renderers]  # in the same order
    assert drawn == [(r.name, type(r.glyph).__name__) for r in never_folded.fig.renderers]
    swatch = next(r for r in explorer.fig.renderers if r.name is None and r.data_source.name is None)
    assert all(math.isnan(v) for column in swatch.data_source.data.values() for v in column)
