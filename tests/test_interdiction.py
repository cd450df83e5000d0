"""Interdiction studies (issue 19): the optimiser against brute force, greedy against the best single cut, the
bound against the optimum, on every rule system's scenarios."""

from __future__ import annotations

import itertools

import pytest
import shapely

import normandy_lab as nl
from normandy_lab.interdiction import best_targets, targets
from normandy_lab.interdiction.search import coverage_bound


@pytest.fixture(scope="module")
def june13():
    return nl.load_scenario("bfn_1944-06-13_am")


@pytest.fixture(scope="module")
def vire(june13):
    """The Vire bridges on 13 June, those German lines cross first (the interesting ones), then the rest."""
    found = targets(june13, "bridges", river="Vire")
    _, counts = coverage_bound(nl.supply(june13), "german", found, 1)
    return [t for _, t in sorted(zip(counts, found, strict=True), key=lambda c: -c[0])]


def _brute_force(state, side, candidates, k):
    """The most German units any k of the candidates put out, by cutting each set and counting."""
    before = len(nl.supply(state).out_of_supply(side))
    best = 0
    for combo in itertools.combinations(candidates, k):
        cut = state
        for target in combo:
            cut = target.cut(cut)
        best = max(best, len(nl.supply(cut).out_of_supply(side)) - before)
    return best


@pytest.mark.parametrize(("k", "n"), [(1, 30), (2, 14), (3, 10)])
def test_exact_agrees_with_brute_force_and_the_bound_is_never_below_it(june13, vire, k, n):
    subset = vire[:n]  # the bridges German lines cross come first: the cases where a cut matters
    optimum = _brute_force(june13, "german", subset, k)  # shares no code with the search
    result = best_targets(june13, "german", k, candidates=subset, method="exact")
    assert result.method == "exact" and result.gain == optimum and len(result.picks) == k
    assert result.bound is not None and result.bound >= optimum
    assert optimum > 0 or k == 1  # the cases are not empty: two Vire bridges together cut the Germans off


def _best_on(state, subset, k, method="exact"):
    return best_targets(state, "german", k, candidates=subset, method=method)


def test_two_bridges_can_be_worth_more_together_than_apart_and_greedy_never_falls_below_one(june13, vire):
    one = _best_on(june13, vire[:12], 1)
    two = _best_on(june13, vire[:12], 2)
    greedy = _best_on(june13, vire[:12], 2, method="greedy")
    assert two.gain >= one.gain and greedy.gain >= one.gain
    assert greedy.method == "greedy" and greedy.evaluations < 1 + 12 + 66  # lazily: fewer than every pair
    # Each row of the table: what the pick added and the units it put out.
    assert list(two.table.columns) == ["pick", "kind", "target", "label", "gain", "total", "units_out"]
    assert two.table["total"].iloc[-1] == two.gain
    out = {u for cell in two.table["units_out"] for u in cell.split(", ") if u}
    after = {r.unit_id for r in nl.supply(two.cut_state()).out_of_supply("german")}
    before = {r.unit_id for r in nl.supply(june13).out_of_supply("german")}
    assert out == after - before


def test_the_picks_open_as_a_study_with_the_same_verdicts(june13, vire):
    result = _best_on(june13, vire[:8], 2)
    study = result.study("bfn_1944-06-13_am")
    assert [e["op"] for e in study.edits] == ["destroy_bridge", "destroy_bridge"]
    assert len(nl.supply(study.state).out_of_supply("german")) == result.value


@pytest.mark.parametrize(
    ("scenario", "side"),
    [("cobra_1944-07-16_gt15", "german"), ("kg_1944-06-07_t02", "german"), ("bfn_1944-07-18_am", "allied")],
)
def test_every_rule_system_with_lines_gets_an_answer_and_a_bound_not_below_the_exact_optimum(scenario, side):
    state = nl.load_scenario(scenario)
    # KG's lines cross any river (its rules' no_bridge_effect): its bound is checked on road hexes.
    found = targets(state, "road_hexes" if state.rules.no_bridge_effect else "bridges")
    _, counts = coverage_bound(nl.supply(state), side, found, 1)
    busiest = [t for _, t in sorted(zip(counts, found, strict=True), key=lambda c: -c[0])][:8]
    result = best_targets(state, side, 2, candidates=busiest, method="exact")
    assert result.gain == _brute_force(state, side, busiest, 2)
    assert result.bound is not None and result.bound >= result.gain


def test_a_game_without_traced_lines_gets_no_bound():
    gts = nl.load_scenario("gts_1944-06-08_0700")
    result = best_targets(gts, "german", 1, candidates=["40.020", "41.020"])
    assert result.bound is None and result.gap is None and "at most" not in result.summary()


def test_candidates_by_list_area_and_river(june13):
    hexes = targets(june13, ["B2816", "b2816", "B2915"])
    assert [t.key for t in hexes] == ["B2816", "B2915"] and all(t.kind == "hex" for t in hexes)
    lon, lat = nl.grid("bfn").center("B2816")
    area = shapely.box(lon - 0.03, lat - 0.03, lon + 0.03, lat + 0.03)
    inside = targets(june13, area)
    assert "B2816" in {t.key for t in inside} and len(inside) < 40
    bridges = targets(june13, "bridges", within=area)
    assert all("B2816" in t.key or nl.grid("bfn").distance(t.hexes()[0], "B2816") <= 4 for t in bridges)
    assert all("Vire" in t.label for t in targets(june13, "bridges", river="vire"))
    down = june13.evolve(destroyed_bridges=june13.destroyed_bridges | {bridges[0].key}) if bridges else june13
    assert not bridges or bridges[0].key not in {t.key for t in targets(down, "bridges", within=area)}
    with pytest.raises(ValueError, match="river= filters bridges"):
        targets(june13, "road_hexes", river="Orne")
    with pytest.raises(ValueError, match="k is how many"):
        best_targets(june13, "german", 0)


# -- history against the optimum ---------------------------------------------------------------------------


def test_the_attacked_bridges_are_found_on_each_game_s_map_over_the_named_river(june13):
    from normandy_lab.interdiction.history import REACH_KM, attacks, historical_targets

    table = attacks()
    assert {"Seine", "Loire", "Orne", "Vire"} <= set(table["river"]) and (table["source"] != "").all()
    on_bfn = historical_targets(june13)
    sides = nl.terrain_map("bfn", progress=False).hexsides
    for _, row in on_bfn.iterrows():
        side = sides.loc[row["target"]]
        assert side["road_bridge"] or side["rail_bridge"]
        assert row["river"].casefold() in str(side["water_name"]).casefold()
        assert row["km"] <= REACH_KM[row["kind"]] and row["first"] <= june13.date
    caen = on_bfn[on_bfn["river"] == "Orne"]
    assert "C3619|C3718" in set(caen["target"])  # the Orne bridges in the heart of Caen
    assert historical_targets(june13, until="1944-06-05").empty  # nothing in the battle area before D-Day
    assert set(historical_targets(nl.load_scenario("kg_1944-06-07_t02"))["river"]) >= {"Orne", "Vire"}


def test_history_against_the_optimum_scores_the_plan_as_planned():
    from normandy_lab.interdiction.history import against_optimum, historical_targets

    table = against_optimum("1944-06-07", river="Vire").set_index("system")
    assert {"bfn", "kg"} <= set(table.index)
    bfn = table.loc["bfn"]
    assert bfn["best"] >= 0 and bfn["bound"] >= bfn["best"] and bfn["bound"] >= bfn["history"]
    # The history column, recomputed: the attacked bridges standing, then all of them cut.
    state = nl.load_scenario("bfn_1944-06-07_am")
    keys = set(historical_targets(state)["target"])
    standing = state.evolve(destroyed_bridges=state.destroyed_bridges - keys)
    cut = standing.evolve(destroyed_bridges=standing.destroyed_bridges | keys)
    before, after = (len(nl.supply(s).out_of_supply("german")) for s in (standing, cut))
    assert bfn["history"] == after - before and bfn["cuts"] == len(keys)


def test_the_picks_are_a_layer_of_the_explorer(june13, vire):
    result = _best_on(june13, vire[:6], 1)
    explorer = result.explore("bfn_1944-06-13_am")
    drawn = explorer.sources["broken_bridges"].data
    picked = {tuple(t.key.split("|")) for t in result.picks}
    shown = {tuple(sorted(p)) for p in zip(drawn["a"], drawn["b"], strict=True)}
    assert picked <= shown  # with the bridges the scenario has down already
    assert shown == {tuple(k.split("|")) for k in result.cut_state().destroyed_bridges}
    assert [e["op"] for e in explorer.study.edits] == ["destroy_bridge"]  # listed, undoable
    on_state = result.explore()
    assert on_state.state.destroyed_bridges == result.cut_state().destroyed_bridges
