"""The explorer's inspector, built from a state and its supply report alone (issue 32, section 3)."""

from __future__ import annotations

import dataclasses

import pytest

from normandy_lab.errors import UnknownNameError
from normandy_lab.session import Session
from normandy_lab.views import layers
from normandy_lab.views.explorer.inspector import PROMPT, Inspector

SMALL = "bfn_1944-06-13_am"
SUPPLIED = "CA-2CAB-1H"  # traces 4 hexes to its brigade HQ on 13 June


class Doctored:
    """The engine's report with one unit's verdict replaced: what the inspector says must follow it."""

    def __init__(self, report, unit_id, verdict):
        self._report, self._unit_id, self._verdict = report, unit_id, verdict

    def __getitem__(self, unit_id):
        return self._verdict if unit_id == self._unit_id else self._report[unit_id]

    def __getattr__(self, name):
        return getattr(self._report, name)


@pytest.fixture(scope="module")
def session():
    return Session(SMALL)


@pytest.fixture
def inspector(session):
    return Inspector(session.state, session.report)


def test_the_panel_starts_with_the_prompt_and_shows_what_it_is_asked(inspector):
    assert inspector.output.value == PROMPT
    inspector.show_unit(SUPPLIED)
    assert inspector.output.value == inspector.unit_html(SUPPLIED)
    inspector.clear()
    assert inspector.output.value == PROMPT


def test_a_unit_in_supply_gets_its_line_from_the_report(inspector, session):
    text = inspector.unit_html(SUPPLIED)
    assert "Line: " + " → ".join(session.report[SUPPLIED].path) in text
    assert "halved" not in text
    assert "Combat Supply chain" in text and "CA-2CAB-HQ" in text  # BfN's chain runs up its brigade HQ


def test_the_words_follow_the_report_not_a_rule_of_their_own(session):
    """Given a report that says the unit is cut off, the inspector says so: it computes no verdict."""
    cut = dataclasses.replace(
        session.report[SUPPLIED], general=False, combat=False, path=[], traced_to="", code="no_source",
        reason="no source within reach",
    )  # fmt: skip
    text = Inspector(session.state, Doctored(session.report, SUPPLIED, cut)).unit_html(SUPPLIED)
    assert "Line: none" in text and "(halved, out of supply)" in text
    assert "Line: none" not in Inspector(session.state, session.report).unit_html(SUPPLIED)


def test_a_formation_counts_its_units_out_of_supply_from_the_report(inspector, session):
    state, report = session.state, session.report
    key = layers.formation_key(state.unit("DE-12SS-26-II"))  # out of supply on 13 June
    ids = layers.formation_units(state, key)
    out = sum(not report[u].general for u in ids)
    assert out >= 1
    text = inspector.formation_html(key)
    assert f"{len(ids)} units, {out} out of" in text and text.count("OUT OF SUPPLY") == out


def test_feed_moves_the_inspector_to_the_next_state(session):
    later = Session(session.state)
    later.step()
    inspector = Inspector(session.state, session.report)
    assert inspector.feed(later.state, later.report) is inspector and inspector.state is later.state


def test_an_unknown_unit_is_refused_with_the_states_own_words(inspector):
    with pytest.raises(UnknownNameError):
        inspector.unit_html("no-such-unit")
