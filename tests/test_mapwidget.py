"""The map widget sends one redraw's changes to the page as one patch (issue 33, section 4)."""

from __future__ import annotations

import json

import pytest
from bokeh.models import ColumnDataSource
from bokeh.plotting import figure

from normandy_lab.views.mapwidget import MapWidget


def _patches(sent: list[tuple[dict, list]]) -> list[dict]:
    """Return the content of each PATCH-DOC message among what the widget sent, in order."""
    parts = [content["payload"] for content, _ in sent if "payload" in content]
    found = []
    for index, part in enumerate(parts):
        header = json.loads(part)
        if isinstance(header, dict) and header.get("msgtype") == "PATCH-DOC":
            found.append(json.loads(parts[index + 2]))  # header, metadata, content
    return found


@pytest.fixture
def widget():
    fig = figure()
    a = ColumnDataSource({"x": [1, 2], "y": [1, 2]})
    b = ColumnDataSource({"x": [3], "y": [3]})
    fig.scatter("x", "y", source=a)
    fig.scatter("x", "y", source=b)
    map_widget = MapWidget(fig)
    sent: list[tuple[dict, list]] = []
    map_widget.send = lambda content, buffers=None: sent.append((content, buffers or []))
    return map_widget, a, b, sent


def test_changes_outside_a_block_go_one_patch_each(widget):
    _, a, b, sent = widget
    a.data = {"x": [5], "y": [5]}
    b.data = {"x": [6], "y": [6]}
    assert [len(p["events"]) for p in _patches(sent)] == [1, 1]


def test_changes_inside_one_patch_go_together_once_the_outermost_block_ends(widget):
    map_widget, a, b, sent = widget
    with map_widget.one_patch():
        a.data = {"x": [5], "y": [5]}
        with map_widget.one_patch():
            b.data = {"x": [6], "y": [6]}
        assert sent == []  # held until the outermost block ends
    (patch,) = _patches(sent)
    changed = {event["model"]["id"] for event in patch["events"]}
    assert changed == {a.id, b.id}


def test_what_was_changed_before_an_exception_still_reaches_the_page(widget):
    map_widget, a, _, sent = widget
    with pytest.raises(RuntimeError), map_widget.one_patch():
        a.data = {"x": [7], "y": [7]}
        raise RuntimeError("a redraw failed half way")
    assert len(_patches(sent)) == 1
    a.data = {"x": [8], "y": [8]}  # and the widget is not left holding
    assert len(_patches(sent)) == 2


def test_what_waits_for_the_patch_goes_after_it(widget):
    # The explorer's update counter must not reach the page before the map's picture (issue 33, section 4).
    from normandy_lab.views.mapwidget import after_the_patch

    map_widget, a, b, sent = widget
    order: list[str] = []
    after_the_patch(lambda: order.append("at once"))  # no block running
    with map_widget.one_patch():
        a.data = {"x": [5], "y": [5]}
        after_the_patch(lambda: order.append(f"counted after {len(_patches(sent))} patch"))
        with map_widget.one_patch():
            b.data = {"x": [6], "y": [6]}
            after_the_patch(lambda: order.append("second"))
        assert order == ["at once"]  # still held
    assert order == ["at once", "counted after 1 patch", "second"]


def test_what_waits_for_the_patch_runs_when_a_block_fails(widget):
    from normandy_lab.views.mapwidget import after_the_patch

    map_widget, a, _, sent = widget
    counted: list[int] = []
    with pytest.raises(RuntimeError), map_widget.one_patch():
        a.data = {"x": [7], "y": [7]}
        after_the_patch(lambda: counted.append(len(_patches(sent))))
        raise RuntimeError("a redraw failed half way")
    assert counted == [1]
    after_the_patch(lambda: counted.append(0))  # and nothing is left holding
    assert counted == [1, 0]
