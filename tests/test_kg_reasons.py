"""Every KG reason is checked by changing the situation and determining supply again (issue 17).

On scenario 22.6.8 stepped into Turn 3 and on scenario 22.7, for each unit out of supply:

* ``out_of_range`` (a unit, 26.11.1-26.11.2): its best line is N hexes against a limit L. With the limit
  at N it is in supply; at N - 1 it is still out (the count is the binding one, not a bound).
* ``out_of_range`` (an HQ, 26.10.1, 26.10.5, 26.10.6, 26.10.7): with the HQs paid before it, its army (or
  Cherbourg) would need N SP and holds fewer. With N SP it is supported; with N - 1 it is not.
* ``cut_off``: no line of any length: with every range at a thousand it stays out.

Every check is a full re-determination with :func:`normandy_lab.supply`.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

import normandy_lab as nl
from normandy_lab.engine.reasons import CUT_OFF, OUT_OF_RANGE
from normandy_lab.engine.sequence import next_phase
from normandy_lab.rules.kg.supply import standard_rules


def _turn_3():
    start = nl.load_scenario("kg_1944-06-07_t02")
    state = start
    while state.turn == start.turn:
        state = next_phase(state)
    return state


@pytest.fixture(scope="module", params=["22.6.8, Turn 3", "22.7, Turn 14", "22.7, Turn 14, build_up"])
def case(request):
    state = _turn_3() if request.param.startswith("22.6.8") else nl.load_scenario("kg_1944-06-19_t14")
    if request.param.endswith("build_up"):
        # The Build-up's HQ support (26.10.5's radius and SP) on 22.7's positions: the reading pinned, as 22.7
        # is traced by the standard rules by default (22.7.1), which charge no SP.
        state = state.evolve(options={**state.options, "standard_rules": "build_up"})
    return state, nl.supply(state)


def _with_ranges(state, allied: int, german: int):
    """Determine supply with the units' ranges set: the Allied one is the standard rules' (11.4.1) when the
    state is traced by them (the reading standard_rules), else the Build-up's (26.11.1)."""
    key = "standard_unit_range" if standard_rules(state) else "allied_unit_range"
    supply = {**state.rules.supply, key: allied, "german_unit_range": german}
    return nl.supply(
        state.with_rules(replace(state.rules, supply=supply, variant=f"ranges {allied}/{german}"))
    )


def test_out_of_range_is_exactly_the_count_of_the_best_line(case):
    state, report = case
    units = [r for r in report.out_of_supply() if r.code == OUT_OF_RANGE and not state.unit(r.unit_id).hq]
    assert units
    rules = state.rules.supply
    for count in sorted({int(r.length_hexes) for r in units}):
        same = [r for r in units if int(r.length_hexes) == count]
        for side in ("allied", "german"):
            mine = [r for r in same if r.side == side]
            if not mine:
                continue
            allied = rules["standard_unit_range" if standard_rules(state) else "allied_unit_range"]
            wider = {"allied": allied, "german": rules["german_unit_range"], side: count}
            narrower = {**wider, side: count - 1}
            reached = _with_ranges(state, wider["allied"], wider["german"])
            short = _with_ranges(state, narrower["allied"], narrower["german"])
            for r in mine:
                assert reached[r.unit_id].general, (r.unit_id, r.reason)
                assert not short[r.unit_id].general, (r.unit_id, r.reason)


def _unsupported_hqs(state, report):
    return [r for r in report.out_of_supply() if r.code == OUT_OF_RANGE and state.unit(r.unit_id).hq]


def test_an_unsupported_corps_hq_is_supported_by_the_sp_its_reason_names(case):
    state, report = case
    hqs = _unsupported_hqs(state, report)
    if standard_rules(state):  # the standard rules' support radius and SP (10.5.1) are not in the text
        assert not hqs
        return
    if state.turn == "Turn 3":
        # On 8 June every HQ is supported: the Allied ones offshore (26.10.1), the German ones from the
        # VII Army's SP. With no SP left to any army, the German HQ beyond the free one goes unsupported
        # (26.10.6), and its reason is checked as 22.7's are.
        assert not hqs
        state = state.evolve(army_sp=dict.fromkeys(state.markers["army_sp"], 0))
        hqs = _unsupported_hqs(state, nl.supply(state))
    # 22.7's US corps HQs stand far inland: by the Build-up's radius some go unsupported.
    assert hqs
    for r in hqs:
        need, held = (int(x) for x in re.search(r"would need (\d+) SP and holds (\d+)", r.reason).groups())
        unit = state.unit(r.unit_id)
        if "cherbourg" in unit.name.lower():  # 26.10.7: Cherbourg's own SP
            assert state.markers["cherbourg_sp"] == held < need
            assert nl.supply(state.evolve(cherbourg_sp=need))[r.unit_id].general
            assert not nl.supply(state.evolve(cherbourg_sp=need - 1))[r.unit_id].general
            continue
        army = {"US": "US", "DE": "DE"}.get(unit.nationality, "UK")  # 26.10.6: the German SP
        assert state.markers["army_sp"][army] == held < need
        assert nl.supply(state.evolve(army_sp={**state.markers["army_sp"], army: need}))[r.unit_id].general
        assert not nl.supply(state.evolve(army_sp={**state.markers["army_sp"], army: need - 1}))[
            r.unit_id
        ].general


def test_cut_off_means_no_range_would_do(case):
    state, report = case
    cut = [
        r for r in report.out_of_supply() if r.code == CUT_OFF and r.unit_id in {u.id for u in state.units}
    ]
    far = _with_ranges(state, 1000, 1000)
    for r in cut:
        if state.unit(r.unit_id).status == "active" and not state.unit(r.unit_id).hq:
            assert not far[r.unit_id].general, (r.unit_id, r.reason)
