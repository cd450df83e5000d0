"""The explorer's figure, drawn from a state and its report with plain choices: no controls, no browser.

Issue 32, section 3: the map and its refresh are one object the explorer composes.
"""

from __future__ import annotations

import pytest

from normandy_lab.session import Session
from normandy_lab.views.explorer.figure import MapFigure

SMALL = "bfn_1944-06-13_am"
SUPPLIED = "CA-2CAB-1H"  # traces 4 hexes to its brigade HQ on 13 June


@pytest.fixture(scope="module")
def session():
    return Session(SMALL)


@pytest.fixture(scope="module")
def figure(session):
    return MapFigure(session.state)


def test_a_new_figure_has_its_bridges_and_a_scale_for_the_symbols(figure):
    assert len(figure.sources["bridges"].data["x"]) > 0
    assert figure.symbol_scale > 0
    assert figure.sources is figure.layers.sources


def test_drawing_a_selected_unit_draws_its_line_and_mark(figure, session):
    figure.draw(session.state, session.report, selected=SUPPLIED)
    assert len(figure.sources["selection"].data["x"]) == 1
    one = len(figure.sources["paths"].data["xs"])
    assert one == 1
    figure.draw(session.state, session.report, selected=SUPPLIED, all_paths=True)
    assert len(figure.sources["paths"].data["xs"]) > one  # every line, not the selected unit's alone
    figure.draw(session.state, session.report)
    assert len(figure.sources["selection"].data["x"]) == 0


def test_seen_from_one_side_only_the_enemys_zones_are_drawn(figure, session):
    figure.draw(session.state, session.report, viewer="allied")
    assert figure.layers.hexes("zoc_german") and not figure.layers.hexes("zoc_allied")
    figure.draw(session.state, session.report)
    assert figure.layers.hexes("zoc_german") and figure.layers.hexes("zoc_allied")


def test_a_click_reaches_the_callback_given(figure):
    from bokeh.events import Tap

    seen = []
    figure.on_tap(seen.append)
    event = Tap(figure.fig, x=1.0, y=2.0)
    figure.fig._trigger_event(event)
    assert seen == [event]
