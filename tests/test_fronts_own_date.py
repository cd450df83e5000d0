"""The engine against history: each scenario scored against the record of its own date (issue 31, section 3)."""

from __future__ import annotations

import math

import normandy_lab as nl
from normandy_lab.history.compare import compare_with_history


def test_a_scenario_of_one_side_implies_no_front_and_measures_no_distance():
    """Cobra's GT 1 set-up holds the German at-start units only: no front is implied, so there is no distance
    (not an infinite one), and the tour's row says why instead of showing inf."""
    result = compare_with_history(nl.load_scenario("cobra_1944-06-06_gt01"))
    assert result.one_side_only and result.sides_present == ("german",)
    assert math.isnan(result.mean_km) and math.isnan(result.max_km)
    row = result.row()
    assert row["mean km"] is None and row["max km"] is None and "no front implied" in row["note"]
    assert "no front is implied" in result.summary() and "inf" not in result.summary()


def test_a_turn_before_the_landings_flags_no_german_unit_on_allied_ground():
    """GT 1 starts on the morning of 6 June, before any landing: all the ground was German, so a German unit
    at the coast is not on the wrong side of the evening's lodgement (it once flagged 726/716 at B4020)."""
    result = compare_with_history(nl.load_scenario("cobra_1944-06-06_gt01"))
    assert result.before_landings and result.wrong_side == []
    assert "before the landings" in result.summary()


def test_a_one_day_turn_keeps_its_bracket_of_the_evening_before_and_the_day():
    """An AM turn is still judged against the evening before and the evening of the day."""
    result = compare_with_history(nl.load_scenario("bfn_1944-06-07_am"))
    assert [d.isoformat() for d in result.bracket_dates] == ["1944-06-06", "1944-06-07"]
    assert not result.before_landings and not result.one_side_only
    assert result.row()["mean km"] == round(result.mean_km, 2) and result.row()["note"] == ""
