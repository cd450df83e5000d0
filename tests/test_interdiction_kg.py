"""Interdiction under The Killing Ground (issue 29): no bridge cut changes KG's supply, so the optimiser and
its helpers say so in the rule system's words instead of reporting +0; a hex where an HQ stands is labelled
as an HQ, so that striking it does not read as road interdiction."""

from __future__ import annotations

import math

import pytest

import normandy_lab as nl
from normandy_lab.errors import RefusedError
from normandy_lab.interdiction import best_targets, targets
from normandy_lab.interdiction.history import historical_targets

KG_SCENARIOS = ("kg_1944-06-07_t02", "kg_1944-06-19_t14")


@pytest.fixture(scope="module")
def june19():
    return nl.load_scenario("kg_1944-06-19_t14")


@pytest.mark.parametrize("scenario", KG_SCENARIOS)
def test_kg_s_declaration_holds_every_bridge_down_changes_no_verdict(scenario):
    """The rule system's word is checked against its behaviour: if a river rule is ever played, this fails."""
    state = nl.load_scenario(scenario)
    assert "26.11" in state.rules.no_bridge_effect and "11.3" in state.rules.no_bridge_effect
    every = frozenset(t.key for t in targets(state, "bridges"))
    assert len(every) > 100
    before, after = (
        nl.supply(state),
        nl.supply(state.evolve(destroyed_bridges=state.destroyed_bridges | every)),
    )
    for side in ("allied", "german"):
        assert {r.unit_id for r in before.out_of_supply(side)} == {
            r.unit_id for r in after.out_of_supply(side)
        }


@pytest.mark.parametrize("side", ["german", "allied"])
def test_best_targets_refuses_bridges_under_kg_saying_why_and_what_to_cut(june19, side):
    said = r"^best_targets: candidates: no bridge cut can change supply under The Killing Ground"
    with pytest.raises(RefusedError, match=said) as caught:
        best_targets(june19, side, 4)
    message = str(caught.value)
    assert "crosses any river" in message and "26.11.2" in message and "11.3" in message
    assert "candidates='road_hexes'" in message and "HQ" in message and "+0" in message
    with pytest.raises(RefusedError, match="no bridge cut can change supply"):
        best_targets(june19, side, 1, river="Orne")
    shortlist = targets(june19, "bridges", river="Orne")[:3]
    with pytest.raises(RefusedError, match="no bridge cut can change supply"):
        best_targets(june19, side, 1, candidates=shortlist)


def test_the_other_games_declare_no_such_thing():
    for scenario in ("bfn_1944-06-13_am", "cobra_1944-07-16_gt15"):
        assert nl.load_scenario(scenario).rules.no_bridge_effect == ""


def test_historical_targets_under_kg_carry_the_note_and_under_bfn_none():
    kg = historical_targets(nl.load_scenario("kg_1944-06-07_t02"))
    assert (
        not kg.empty and kg["note"].str.startswith("no bridge cut can change supply under The Killing").all()
    )
    bfn = historical_targets(nl.load_scenario("bfn_1944-06-07_am"))
    assert not bfn.empty and (bfn["note"] == "").all()


def test_against_optimum_leaves_kg_s_scores_empty_and_says_why(monkeypatch):
    """KG's row is neither searched nor scored 0; BfN's is searched as before (stubbed here for speed)."""
    import normandy_lab.interdiction.best as best
    from normandy_lab.interdiction.history import against_optimum

    searched = []

    def fake(state, *args, **kwargs):
        searched.append(state.system)
        return best.InterdictionResult(
            side="german", objective="units_out", method="greedy", picks=[], baseline=0, value=0, bound=0.0,
            evaluations=0, candidates=0, table=None, state=state,
        )  # fmt: skip

    monkeypatch.setattr(best, "best_targets", fake)
    table = against_optimum("1944-06-07").set_index("system")
    kg = table.loc["kg"]
    assert kg["cuts"] > 0 and all(math.isnan(kg[c]) for c in ("history", "best", "bound", "share"))
    assert kg["note"].startswith("no bridge cut can change supply under The Killing Ground")
    assert table.loc["bfn", "note"] == "" and table.loc["bfn", "history"] >= 0
    assert "kg" not in searched and "bfn" in searched


def test_hq_hexes_are_labelled_as_hqs_and_can_be_left_out(june19):
    road = {t.key: t.label for t in targets(june19, "road_hexes")}
    assert road["N4537"] == "HQ in hex N4537: XLVII Panzer Corps headquarters"
    assert road["N3816"].startswith("HQ in hex N3816: LXXXIV Corps")
    assert road["N1410"] == "hex N1410"
    without = {t.key for t in targets(june19, "road_hexes", hqs=False)}
    assert "N4537" not in without and "N1410" in without and len(without) < len(road)
    result = best_targets(june19, "german", 1, candidates=["N4537", "N1410"])
    assert [t.key for t in result.picks] == ["N4537"]
    assert result.table.loc[0, "label"].startswith("HQ in hex N4537")
    assert "strike headquarters, not roads: N4537 (XLVII Panzer Corps headquarters)" in result.summary()
    plain = best_targets(june19, "german", 1, candidates=["N4537", "N1410"], hqs=False)
    assert [t.key for t in plain.picks] == ["N1410"] and "headquarters" not in plain.summary()
    with pytest.raises(RefusedError, match=r"^best_targets: hqs: every hex chosen holds an HQ"):
        best_targets(june19, "german", 1, candidates=["N4537"], hqs=False)
    with pytest.raises(RefusedError, match=r"^targets: hqs: 'no' is not True or False"):
        targets(june19, "road_hexes", hqs="no")
