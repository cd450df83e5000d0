"""Interdiction studies (issues 19 and 34): the optimiser against a brute force that shares no code with it,
on the instances where greedy is not optimal; the bound against the optimum; the defects of the first version
(a bridge written the other way round, a unit without a line, the Vire and its canal, the summary of an early
stop); the per-formation objective; history against the optimum, filtered alike on both sides."""

from __future__ import annotations

import dataclasses
import itertools

import pandas as pd
import pytest
import shapely

import normandy_lab as nl
from normandy_lab.errors import RefusedError
from normandy_lab.interdiction import Target, best_targets, targets
from normandy_lab.interdiction.search import coverage_bound

BFN_13 = "bfn_1944-06-13_am"
COBRA_GT15 = "cobra_1944-07-16_gt15"
# 13 June, BfN: the N174 bridge at Pont-Hebert alone puts 18 German units out; with the two Saint-Lo bridges
# B4413|B4414 and B4413|D0113 (worth nothing without it, and nothing apart) 22.  Greedy stops at 18.
BFN_OPTIMUM = ("B4015|B4114", "B4413|B4414", "B4413|D0113")
BFN_OTHERS = ("D0311|D0411", "D1804|D1903", "B3816|B3915", "B3815|B3816")
# GT15, Cobra: the two Seves bridges, worth +2 together and 0 apart (review studies-2, section 1).
COBRA_PAIR = ("A0703|A0803", "A0704|A0804")
COBRA_OTHERS = ("A2116|A2117", "A2019|A2020", "A0608|A0708", "A0704|A0803")


@pytest.fixture(scope="module")
def june13():
    return nl.load_scenario(BFN_13)


@pytest.fixture(scope="module")
def vire(june13):
    """The Vire bridges on 13 June, those German lines cross first (the interesting ones), then the rest."""
    found = targets(june13, "bridges", river="Vire")
    _, counts = coverage_bound(nl.supply(june13), "german", found, 1)
    return [t for _, t in sorted(zip(counts, found, strict=True), key=lambda c: -c[0])]


def independent_optimum(scenario, side, hexsides, k):
    """The most of ``side``'s units any set of at most ``k`` bridge cuts puts out, and the sets that do it.

    Shares no code with the optimiser: every cut is a study edit (``destroy_bridge``), and a unit counts when
    the plain supply determination says it is out of General Supply (not ``out_of_supply``, ``Target`` or
    ``targets``).
    """

    def out(study):
        report = nl.supply(study.state)
        return sum(1 for u in study.state.units if u.side == side and not report[u.id].general)

    study = nl.Study(scenario)
    before = out(study)
    best, sets = 0, [()]
    for size in range(1, k + 1):
        for combo in itertools.combinations(hexsides, size):
            for hexside in combo:
                study.apply({"op": "destroy_bridge", "hexside": hexside.split("|")})
            gain = out(study) - before
            for _ in combo:
                study.undo()
            if gain > best:
                best, sets = gain, [combo]
            elif gain == best:
                sets.append(combo)
    return best, {frozenset(s) for s in sets}


@pytest.mark.parametrize(
    ("scenario", "keys", "k", "greedy_gets", "optimum"),
    [(BFN_13, BFN_OPTIMUM + BFN_OTHERS, 3, 18, 22), (COBRA_GT15, COBRA_PAIR + COBRA_OTHERS, 2, 0, 2)],
    ids=["bfn-13-june-k3", "cobra-gt15-k2"],
)
def test_the_exact_search_finds_the_optimum_greedy_misses_and_a_brute_force_agrees(
    scenario, keys, k, greedy_gets, optimum
):
    truth, optimal_sets = independent_optimum(scenario, "german", keys, k)
    assert truth == optimum  # the instance is the review's: greedy is not optimal here
    candidates = [Target("bridge", key) for key in keys]
    greedy = best_targets(scenario, "german", k, candidates=candidates, method="greedy")
    assert greedy.gain == greedy_gets < truth and not greedy.optimal
    assert greedy.status == f"within {greedy.bound - greedy.gain:g} of optimal" and greedy.bound >= truth
    for method in ("exact", "auto"):
        found = best_targets(scenario, "german", k, candidates=candidates, method=method)
        assert found.gain == truth and found.optimal and found.status == "optimal" and found.gap == 0
        assert frozenset(t.key for t in found.picks) in optimal_sets
        assert "optimal" in found.summary() and "branch and bound" in found.method
        assert found.bound >= truth
    assert found.evaluations < 1 + sum(len(list(itertools.combinations(keys, i))) for i in range(1, k + 1))


def test_the_exact_search_stops_adding_cuts_that_gain_nothing_and_says_so(june13):
    candidates = [Target("bridge", key) for key in ("B4015|B4114", *BFN_OTHERS)]
    result = best_targets(june13, "german", 2, candidates=candidates, method="exact")
    assert [t.key for t in result.picks] == ["B4015|B4114"] and result.gain == 18 and result.optimal
    assert "(of 2 asked: no set of more does better)" in result.summary()
    truth, _ = independent_optimum(BFN_13, "german", [t.key for t in candidates], 2)
    assert truth == 18


def test_two_bridges_can_be_worth_more_together_than_apart_and_greedy_never_falls_below_one(june13, vire):
    one = _best_on(june13, vire[:12], 1)
    two = _best_on(june13, vire[:12], 2)
    greedy = _best_on(june13, vire[:12], 2, method="greedy")
    assert two.gain >= one.gain and greedy.gain >= one.gain
    assert greedy.method == "greedy" and greedy.evaluations < 1 + 12 + 66  # lazily: fewer than every pair
    # Each row of the table: what the pick added and the units it put out, as a list of ids.
    assert list(two.table.columns) == ["pick", "kind", "target", "label", "gain", "total", "units_out"]
    assert two.table["total"].iloc[-1] == two.gain
    assert all(isinstance(cell, list) for cell in two.table["units_out"])
    out = {u for cell in two.table["units_out"] for u in cell}
    after = {r.unit_id for r in nl.supply(two.cut_state()).out_of_supply("german")}
    before = {r.unit_id for r in nl.supply(june13).out_of_supply("german")}
    assert out == after - before and len(out) == two.gain


def _best_on(state, subset, k, method="exact"):
    return best_targets(state, "german", k, candidates=subset, method=method)


# -- the defects of the first version -----------------------------------------------------------------------


def test_a_bridge_written_the_other_way_round_is_the_same_target_with_the_same_bound(june13):
    written = [Target("bridge", "B4114|B4015"), Target("bridge", "b4015|b4114")]
    assert {t.key for t in written} == {"B4015|B4114"}
    for target in written:
        result = best_targets(june13, "german", 1, candidates=[target])
        assert result.gain == 18 and result.bound >= 18 and result.gap >= 0  # was: bound 0, "gap -18"
    report = nl.supply(june13)
    canonical = coverage_bound(report, "german", [Target("bridge", "B4015|B4114")], 1)
    assert all(coverage_bound(report, "german", [t], 1) == canonical for t in written)
    with pytest.raises(RefusedError, match="Target: key: 'B4015' is not a bridge's hexside"):
        Target("bridge", "B4015")


def test_one_unit_without_a_line_weakens_the_bound_but_does_not_remove_it(june13):
    report = nl.supply(june13)
    found = [Target("bridge", key) for key in BFN_OPTIMUM]
    full, _ = coverage_bound(report, "german", found, 3)
    # One German unit in supply loses its line (as Cherbourg's HQ had none under KG on 19 June).
    lined = next(r for r in report.units.values() if r.side == "german" and r.general and r.path)
    units = dict(report.units)
    units[lined.unit_id] = dataclasses.replace(lined, path=[], traced_kind="supported")
    damaged = dataclasses.replace(report, units=units)
    bound, with_it = coverage_bound(damaged, "german", found, 3)
    assert bound is not None and bound >= full  # the unit may be put out by any cut: it counts for each
    assert all(c >= 1 for c in with_it)


def test_river_vire_is_the_vire_not_the_canal_and_both_ways_of_listing_it_agree(june13):
    sides = nl.terrain_map("bfn", progress=False).hexsides
    vire = targets(june13, "bridges", river="Vire")
    names = [str(sides.at[t.key, "water_name"]) for t in vire]
    assert all("Vire" in [n.strip() for n in name.split(";")] for name in names)
    canal_only = sides[(sides["water_name"] == "Canal de Vire et Taute") & sides["road_bridge"]]
    assert len(canal_only) and not set(canal_only.index) & {t.key for t in vire}
    # The map's list of the Vire bridges (road bridges) is the road bridges among the targets.
    listed = nl.terrain_map("bfn", progress=False).bridges("Vire")
    roads = {t.key for t in vire if sides.at[t.key, "road_bridge"]}
    assert set(listed.index) == roads


def test_a_greedy_search_that_finds_nothing_never_says_0_cuts_and_says_how_sure_it_is(june13, vire):
    # Two Saint-Lo bridges: neither puts a unit out alone, so greedy stops; together they put out 4.
    pair = [Target("bridge", "B4413|B4414"), Target("bridge", "B4413|D0113")]
    result = best_targets(june13, "german", 2, candidates=pair, method="greedy")
    said = result.summary()
    assert result.picks == [] and "0 cuts" not in said and "by 0" not in said  # was: "... by 0 cuts"
    assert "cut alone" in said and "method='exact'" in said and result.status == "within 4 of optimal"
    proved = best_targets(june13, "german", 2, candidates=pair, method="exact")
    assert proved.optimal and proved.gain == 4 and len(proved.picks) == 2 and proved.gap == 0
    # Bridges no German line crosses: the bound alone proves that nothing can be done.
    idle = best_targets(june13, "german", 2, candidates=vire[-3:], method="greedy")
    assert idle.optimal and idle.bound == 0 and "alone or in sets of up to 2 cuts: optimal" in idle.summary()


# -- the per-formation objective -------------------------------------------------------------------------


def test_a_per_formation_objective_counts_only_the_formation_s_units(june13):
    key = "DE 17 SS pzgr div"
    members = {
        u.id
        for u in june13.units
        if u.side == "german" and u.formation and "17" in u.formation and "SS" in u.formation
    }
    cut = nl.supply(Target("bridge", "B4015|B4114").cut(june13))
    before = nl.supply(june13)
    expected = sum(1 for u in members if not cut[u].general) - sum(
        1 for u in members if not before[u].general
    )
    result = best_targets(
        june13, "german", 1, candidates=[Target("bridge", k) for k in BFN_OPTIMUM], formations=key
    )
    assert result.gain == expected > 0 and result.formations == [key] and key in result.summary()
    assert set(result.table["units_out"].iloc[0]) <= members
    assert result.bound is not None and result.bound <= len(members)
    with pytest.raises(
        RefusedError, match=r"formations: 'DE 17 SS pzgr dvi' is no german formation.*did you mean"
    ):
        best_targets(june13, "german", 1, candidates=["B4015|B4114"], formations="DE 17 SS pzgr dvi")
    with pytest.raises(RefusedError, match=r"formations: .* objective='units_out'"):
        best_targets(june13, "german", 1, candidates=["B4015|B4114"], formations=key, objective="line_mp")


def test_auto_stays_within_its_budget_and_says_so_when_it_cannot_prove_the_answer(june13):
    from normandy_lab.interdiction.best import LongSearchWarning

    candidates = [Target("bridge", key) for key in BFN_OPTIMUM + BFN_OTHERS]
    result = best_targets(june13, "german", 3, candidates=candidates, budget=12)
    assert result.evaluations <= 12 and not result.optimal
    assert result.stopped and "budget" in result.summary() and result.status.startswith("within")
    # Without a budget, auto spends at most max_exact beyond greedy's start, and warns when that start
    # alone is more than max_exact.
    with pytest.warns(LongSearchWarning, match="needs 8 supply determinations to start, more than max_exact"):
        capped = best_targets(june13, "german", 3, candidates=candidates, max_exact=5)
    with pytest.warns(LongSearchWarning):
        plain = best_targets(june13, "german", 3, candidates=candidates, method="greedy", max_exact=5)
    assert capped.evaluations <= plain.evaluations + 5 and "max_exact" in capped.summary()


def test_the_picks_open_as_a_study_with_the_same_verdicts(june13, vire):
    result = _best_on(june13, [Target("bridge", key) for key in BFN_OPTIMUM], 3)
    study = result.study("bfn_1944-06-13_am")
    assert [e["op"] for e in study.edits] == ["destroy_bridge"] * 3
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
    busiest = [t for _, t in sorted(zip(counts, found, strict=True), key=lambda c: -c[0])][:6]
    result = best_targets(state, side, 2, candidates=busiest, method="exact")
    assert result.optimal and result.gain == _brute_force(state, side, busiest, 2)
    assert result.bound is not None and result.bound >= result.gain


def _brute_force(state, side, candidates, k):
    """The most of ``side``'s units any set of at most k of the candidates put out (cuts by Target.cut)."""
    before = len(nl.supply(state).out_of_supply(side))
    best = 0
    for size in range(1, k + 1):
        for combo in itertools.combinations(candidates, size):
            cut = state
            for target in combo:
                cut = target.cut(cut)
            best = max(best, len(nl.supply(cut).out_of_supply(side)) - before)
    return best


def test_a_game_without_traced_lines_gets_no_bound():
    gts = nl.load_scenario("gts_1944-06-08_0700")
    result = best_targets(gts, "german", 1, candidates=["40.020", "41.020"])
    # Every set tried: optimal without a bound (gap 0); greedy alone cannot say how far it may be.
    assert result.bound is None and result.optimal and result.gap == 0 and "at most" not in result.summary()
    greedy = best_targets(gts, "german", 1, candidates=["40.020", "41.020"], method="greedy")
    assert greedy.bound is None and greedy.gap is None and greedy.status == "no bound"
    assert "no bound" in greedy.summary() or "nothing cut" in greedy.summary()


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


def test_history_against_the_optimum_filters_both_sides_by_the_river_and_scores_what_was_cut():
    from normandy_lab.interdiction.history import against_optimum, historical_targets

    table = against_optimum("1944-06-07", river="Vire", k=2, method="greedy")
    # Completeness and the lists are plain columns: they survive a filter and a concatenation.
    both = pd.concat([table, table])[lambda t: t["system"] == "bfn"]
    assert {"status", "optimal"} <= set(both.columns) and both["optimal"].dtype == bool
    assert all(isinstance(v, list) for v in both["best_picks"]) and all(
        isinstance(v, list) for v in both["attacked"]
    )
    bfn = table.set_index("system").loc["bfn"]
    assert bfn["k"] == 2 and len(bfn["best_picks"]) <= 2 and bfn["bound"] >= bfn["best"]
    # The history column, recomputed: the Vire attacks only (the filter applies to the history too).
    state = nl.load_scenario("bfn_1944-06-07_am")
    found = historical_targets(state)
    keys = set(found[found["river"] == "Vire"]["target"])
    assert keys and keys != set(found["target"])  # the Orne attacks are left out
    assert all(b.startswith(("Saint-Lô", "Vire")) for b in bfn["attacked"])
    standing = state.evolve(destroyed_bridges=state.destroyed_bridges - set(found["target"]))
    cut = standing.evolve(destroyed_bridges=standing.destroyed_bridges | keys)
    before, after = (len(nl.supply(s).out_of_supply("german")) for s in (standing, cut))
    assert bfn["history"] == after - before and bfn["cuts"] == len(keys)
    # The optimiser's picks are Vire bridges too.
    sides = nl.terrain_map("bfn", progress=False).hexsides
    assert all("Vire" in str(sides.at[key, "water_name"]) for key in bfn["best_picks"])


def test_a_missed_raid_cuts_nothing_unless_the_plan_is_scored_as_planned(monkeypatch):
    import normandy_lab.interdiction.best as best
    from normandy_lab.interdiction.history import against_optimum, attacks, historical_targets

    caen = attacks()[(attacks()["place"] == "Caen") & (attacks()["outcome"] == "missed")]
    assert len(caen) == 1  # the B-17s of 6 June, whose bombs fell long

    def fake(state, side, k, **kwargs):
        return best.InterdictionResult(
            side=side, objective="units_out", method="greedy", picks=[], baseline=0, value=0, bound=0.0,
            evaluations=0, candidates=0, table=None, state=state, k=k,
        )  # fmt: skip

    monkeypatch.setattr(best, "best_targets", fake)
    scored = against_optimum("1944-06-07", river="Orne").set_index("system")
    planned = against_optimum("1944-06-07", river="Orne", missed=True).set_index("system")
    assert caen["bridge"].iloc[0] in scored.loc["bfn", "missed"] and planned.loc["bfn", "missed"] == []
    found = historical_targets(nl.load_scenario("bfn_1944-06-07_am"))
    orne = found[found["river"] == "Orne"]
    hit = set(
        orne[orne["outcome"] != "missed"]["target"]
    )  # the Bomber Command night raid on Caen's crossings
    assert scored.loc["bfn", "cuts"] == len(hit) and planned.loc["bfn", "cuts"] == len(set(orne["target"]))


def test_the_attacks_file_holds_the_raids_its_source_names_each_with_its_provenance():
    from normandy_lab.interdiction.history import attacks

    table = attacks()
    bomber_command = table[table["source"].str.contains("DDOBC")]
    assert {"Argentan", "Condé-sur-Noireau", "Coutances", "Lisieux", "Caen", "Saint-Lô", "Vire"} <= set(
        bomber_command["place"]
    )
    assert (table["provenance"].str.len() > 20).all() and (table["position"] != "").all()
    assert bomber_command["provenance"].str.contains("dday-overlord.com").all()


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
