"""The public study APIs refuse a bad argument before any work, with the project's error (issue 28, part 3).

Each case names the argument, the value, what is allowed and, for a name, the nearest ones.  The sweep is
the exception by design: what only a variant's base can judge (its scenario, its options) becomes that
variant's own ``error`` row, and the rest of the sweep runs.
"""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path

import pandas as pd
import pytest
import shapely
import yaml

import normandy_lab as nl
from normandy_lab.engine.scenario import SCENARIO_DIR, ScenarioError, load_scenario_text
from normandy_lab.errors import NormandyLabError, RefusedError
from normandy_lab.interdiction import best_targets, targets
from normandy_lab.interdiction.search import coverage_bound
from normandy_lab.sweeps import Variant

BASE = "bfn_1944-06-13_am"


@pytest.fixture(scope="module")
def june13():
    return nl.load_scenario(BASE)


@pytest.fixture(scope="module")
def vire(june13):
    """The Vire bridges of 13 June, the ones most German lines cross first."""
    found = targets(june13, "bridges", river="Vire")
    _, counts = coverage_bound(nl.supply(june13), "german", found, 1)
    return [t for _, t in sorted(zip(counts, found, strict=True), key=lambda c: -c[0])]


def _errors(table):
    """The sweep's error rows, by variant name: the exception written in ``rule``."""
    failed = table[table["code"] == "error"]
    return dict(zip(failed["variant"], failed["rule"], strict=True))


# -- nl.sweep ------------------------------------------------------------------------------------------


def test_a_sweep_s_options_are_checked_against_the_game_s_options_like_a_scenario_file_s():
    variants = [
        {"name": "good", "options": {"hq_bridging": "for_its_units"}},
        {"name": "blok", "options": {"what_if_interdiction": "blok"}},
        {"name": "nope", "options": {"nope": 1}},
        {"name": "callable", "options": {"hq_bridging": print}},
        {"name": "fast", "options": "fast"},
    ]
    table = nl.sweep(BASE, variants, client=False, progress=False, reasons=False)
    errors = _errors(table)
    assert set(errors) == {"blok", "nope", "callable", "fast"}
    assert "what_if_interdiction" in errors["blok"] and "'blok'" in errors["blok"]
    assert "nope: unknown field" in errors["nope"] and "hq_bridging" in errors["callable"]
    assert "'fast'" in errors["fast"] and "mapping" in errors["fast"]
    assert all(r.startswith("RefusedError") for r in errors.values())
    good = table[table["variant"] == "good"]
    assert len(good) == len(nl.load_scenario(BASE).units) and (good["code"] != "error").all()


def test_a_variant_whose_base_cannot_be_loaded_is_its_own_error_row_and_the_rest_runs():
    variants = [
        {"name": "good"},
        {"name": "unknown", "base": "bfn_1944-06-13_pm"},
        {"name": "unreadable", "base": "../../../../etc/passwd"},
    ]
    table = nl.sweep(BASE, variants, client=False, progress=False, reasons=False)
    errors = _errors(table)
    assert set(errors) == {"unknown", "unreadable"}
    assert errors["unknown"].startswith("ScenarioNotFoundError")
    assert "did you mean 'bfn_1944-06-13_am'" in errors["unknown"]  # the nearest
    assert errors["unreadable"].startswith("ScenarioError")
    assert table.attrs["complete"] and table.attrs["variants_done"] == 3
    assert table.attrs["seconds"] > 0  # how long it took, for the notebook to say
    assert list(dict.fromkeys(table["variant"])) == ["good", "unknown", "unreadable"]  # in the given order


def test_a_bad_variant_is_its_own_row_on_a_dask_cluster_too(dask_client):
    variants = [
        {"name": "good", "base": "gts_1944-06-08_0700"},
        {"name": "blok", "base": "gts_1944-06-08_0700", "options": {"what_if_interdiction": "blok"}},
        {"name": "unknown", "base": "gts_1944-06-08"},
        {"name": "fast", "base": "gts_1944-06-08_0700", "options": "fast"},
    ]
    table = nl.sweep({}, variants, client=dask_client, progress=False, reasons=False)
    assert set(_errors(table)) == {"blok", "unknown", "fast"}
    assert (table[table["variant"] == "good"]["code"] != "error").all() and table.attrs["complete"]


def test_a_callback_that_raises_stops_the_sweep_but_keeps_the_rows_already_computed():
    seen = []

    def write_away(rows):
        seen.append(rows)
        if len(seen) == 2:
            raise OSError("disk full")

    variants = [{"weather": w} for w in ("Clear", "Overcast", "Storm")]
    with pytest.raises(OSError, match="disk full") as caught:
        nl.sweep(BASE, variants, client=False, progress=False, reasons=False, on_rows=write_away)
    partial = caught.value.partial_table
    assert not partial.attrs["complete"] and partial.attrs["variants_done"] == 2
    came = partial[partial["code"] != "not_run"]
    assert len(came) == sum(len(rows["unit"]) for rows in seen)
    # The variant not run is listed, with why (issue 34 section 3: every variant is in the table).
    assert list(partial.loc[partial["code"] == "not_run", "variant"]) == ["Storm"]
    assert "partial_table" in "".join(caught.value.__notes__)


@pytest.mark.parametrize(
    ("variants", "said"),
    [
        ([], "at least one variant"),
        (5, "variants"),
        ([{"weather": "Clear"}, {"weather": "Clear"}], "share a name"),
        ([{"colour": "red"}], "colour"),
        (["Clear"], "mapping"),
    ],
)
def test_the_shape_of_a_sweep_is_refused_before_any_work(variants, said):
    with pytest.raises(RefusedError, match=said):
        nl.sweep(BASE, variants, client=False, progress=False)


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        ({"chunk_size": 0}, "chunk_size: 0"),
        ({"chunk_size": -1}, "chunk_size: -1"),
        ({"on_rows": "print"}, "on_rows: 'print' is not callable"),
    ],
)
def test_a_sweep_s_other_arguments_are_checked_before_any_work(arguments, said):
    with pytest.raises(RefusedError, match=said):
        nl.sweep(BASE, [{"weather": "Clear"}], client=False, progress=False, **arguments)


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        ({"weather": "Storm"}, r"grid: weather: 'Storm' is not a list"),
        ({"cuts": ["B2816"]}, r"grid: cuts\[0\]: 'B2816' is not a list of cuts"),
        ({"options": ["fast"]}, r"grid: options\[0\]: 'fast' is not a mapping"),
        ({"bases": 5}, r"grid: bases: 5 is not a list"),
    ],
)
def test_grid_refuses_what_would_sweep_the_letters_of_a_word(arguments, said):
    from normandy_lab.sweeps import grid

    with pytest.raises(RefusedError, match=said):
        grid(**arguments)


@pytest.mark.parametrize("workers", [0, -2, 1.5, True, "2"])
def test_a_local_cluster_needs_a_whole_number_of_workers(workers):
    from normandy_lab.sweeps import local_cluster

    with pytest.raises(RefusedError, match="local_cluster: workers"):
        local_cluster(workers)


BAD_VARIANTS = [
    {"name": "banana", "weather": "Banana"},
    {"name": "nan", "weather": math.nan},
    {"name": "number", "weather": 5},
    {"name": "lower", "weather": "clear"},
    {"name": "int cut", "cuts": [5]},
    {"name": "pair cut", "cuts": [["B4015", "B4114"]]},
    {"name": "half cut", "cuts": ["B4015|"]},
    {"name": "off map", "cuts": ["Z9999"]},
    {"name": "no bridge", "cuts": ["B4015|B4016"]},
    {"name": "apart", "cuts": ["B4015|B4020"]},
    {"name": "edit 5", "edits": [5]},
    {"name": "marker", "edits": [{"op": "marker", "name": "mulberry", "value": 1}]},
    {"name": "unknown op", "edits": [{"op": "bomb"}]},
]


def test_no_sweep_error_row_holds_a_python_exception_s_text():
    table = nl.sweep(BASE, [{"name": "good"}, *BAD_VARIANTS], client=False, progress=False, reasons=False)
    errors = _errors(table)
    assert set(errors) == {v["name"] for v in BAD_VARIANTS}
    for name, said in errors.items():
        assert not any(e in said for e in ("KeyError", "TypeError", "AttributeError", "ValueError")), said
        assert isinstance(said, str) and said.split(":")[0].endswith("Error")  # the project's, by class
        assert f"variant {name!r}: " in said  # and the variant, then the field
    assert "weather: 'Banana' is not a weather of The Battle for Normandy" in errors["banana"]
    assert "did you mean 'Clear'" in errors["lower"] and "weather: nan is not a weather" in errors["nan"]
    assert "cuts[0]: 5 is not a cut" in errors["int cut"]
    assert "write 'B4015|B4114'" in errors["pair cut"]
    assert "cuts[0]: " in errors["off map"] and "'Z9999' is not a hex id" in errors["off map"]
    assert "edits[0]: 5 is not an edit" in errors["edit 5"]
    assert "edits[0]: The Battle for Normandy lets no edit set 'mulberry'" in errors["marker"]


def test_a_variant_made_directly_is_checked_as_its_mapping_is():
    table = nl.sweep(BASE, [Variant(weather=math.nan, name="x")], client=False, progress=False)
    assert "weather: nan is not a weather" in _errors(table)["x"]


@pytest.mark.parametrize(
    ("scenario", "said"),
    [
        (
            "bfn_1944-06-13_am",
            "^The Battle for Normandy lets no edit set 'mulberry': its rules keep no marker",
        ),
        ("cobra_1944-07-16_gt15", "^Cobra lets no edit set 'suply_points'; did you mean 'supply_points'"),
        ("gts_1944-06-08_0700", r"^The Greatest Day: Utah Beach lets no edit set 'x'; .*nearest first: "),
        (
            "kg_1944-06-07_t02",
            "^The Killing Ground: OVERLORD lets no edit set 'mulbery_A'; did you mean 'mulberry_A'",
        ),
    ],
)
def test_a_marker_an_edit_cannot_set_is_refused_in_words_with_what_to_do(scenario, said):
    from normandy_lab.engine.edits import apply_edit

    name = {"bfn": "mulberry", "cobra": "suply_points", "gts": "x", "kg": "mulbery_A"}[scenario.split("_")[0]]
    with pytest.raises(RefusedError, match=said) as caught:
        apply_edit(nl.load_scenario(scenario), {"op": "marker", "name": name, "value": 1})
    assert "the The" not in str(caught.value)


def test_a_variant_mapping_with_an_unknown_field_is_refused_with_the_nearest():
    with pytest.raises(RefusedError, match="did you mean 'weather'"):
        Variant.of({"wether": "Clear"})


# -- best_targets --------------------------------------------------------------------------------------


@pytest.mark.parametrize("k", ["2", None, 1.5, True, 0, -1])
def test_k_is_a_positive_whole_number(june13, vire, k):
    with pytest.raises(RefusedError, match=r"^best_targets: k: ") as caught:
        best_targets(june13, "german", k, candidates=vire[:3])
    assert repr(k) in str(caught.value) and "whole number" in str(caught.value)


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        ({"side": "germans"}, "side: 'germans'.*did you mean 'german'"),
        ({"river": 5}, "river: 5 is not text"),
        ({"river": "Vier"}, "river: no bridge .*'Vier'.*did you mean 'Vire'"),
        ({"candidates": []}, "candidates: an empty list"),
        ({"candidates": 5}, "candidates: 5"),
        ({"candidates": "bridgez"}, "candidates: 'bridgez'.*did you mean 'bridges'"),
        ({"within": shapely.Polygon()}, "within: an empty area"),
        ({"within": shapely.box(-12, 46, -11, 47)}, "within: .*no target"),
        ({"within": "Caen"}, "within: 'Caen' is not an area"),
        ({"candidates": shapely.box(-12, 46, -11, 47)}, "candidates: .*no land hex"),
        ({"objective": "units_in"}, "objective: 'units_in'.*did you mean 'units_out'"),
        ({"method": "exakt"}, "method: 'exakt'.*did you mean 'exact'"),
        ({"budget": 0}, "budget: 0"),
        ({"budget": -1}, "budget: -1"),
        ({"budget": "5"}, "budget: '5'"),
        ({"budget": True}, "budget: True"),
        ({"max_exact": 0}, "max_exact: 0"),
        ({"river": "Vire", "client": 5}, "client: 5 is not a dask.distributed Client.*or None"),
        (
            {"client": "tcp://scheduler:8786"},
            "client: 'tcp://scheduler:8786' is not a dask.distributed Client",
        ),
        ({"candidates": ["Z9999"]}, r"candidates\[0\]: 'Z9999' is not a hex of the bfn map.*hexside 'A\|B'"),
        ({"candidates": ["B4015", 5]}, r"candidates\[1\]: 5 is not a candidate; a candidate is a hex id"),
        ({"candidates": ["B4015|B4016"]}, r"candidates\[0\]: 'B4015\|B4016': no bridge on that hexside"),
        ({"candidates": ["B4015|B4020"]}, r"candidates\[0\]: 'B4015\|B4020' is not a hexside"),
    ],
)
def test_best_targets_refuses_a_bad_argument_naming_it(june13, arguments, said):
    given = {"side": "german", "k": 1, **arguments}
    with pytest.raises(NormandyLabError, match=said):
        best_targets(june13, **given)


@pytest.mark.parametrize(("k", "candidates", "n"), [(10**12, "bridges", None), (3, ["B4015"], 1)])
def test_more_cuts_than_candidates_are_refused_at_once_with_both_numbers(june13, k, candidates, n):
    n = n or len(targets(june13, "bridges"))
    with pytest.raises(RefusedError, match=rf"^best_targets: k: {k:,} cuts asked, but .* only {n} target"):
        best_targets(june13, "german", k, candidates=candidates)  # 10**12 used to run for minutes
    with pytest.raises(RefusedError, match=f"give k={n}"):
        best_targets(june13, "german", k, candidates=candidates, method="greedy")


def test_an_exact_search_that_would_spend_its_time_ordering_the_picks_is_refused_too(june13):
    n = len(targets(june13, "bridges"))  # one set of all of them, but n * (n + 1) / 2 runs to order it
    with pytest.raises(RefusedError, match=rf"every set of {n}: 1 set and [\d,]+ more to order its picks"):
        best_targets(june13, "german", n, method="exact")


def test_a_list_of_candidates_may_name_bridges_by_their_hexside_and_hexes_by_their_id(june13):
    listed = targets(june13, ["B4015|B4114", "b4015", "B4114|B4015"])  # the hexside either way round, once
    assert [(t.kind, t.key) for t in listed] == [("bridge", "B4015|B4114"), ("hex", "B4015")]
    assert listed[0] in targets(june13, "bridges", river="Vire")  # the same target, label and all
    down = june13.evolve(destroyed_bridges=june13.destroyed_bridges | {"B4015|B4114"})
    with pytest.raises(RefusedError, match=r"^targets: candidates\[0\]: 'B4015\|B4114': the bridge is down"):
        targets(down, ["B4015|B4114"])
    with pytest.raises(RefusedError, match=r"^targets: candidates\[0\]: 'Z9999'"):
        targets(june13, ["Z9999"])


def test_against_optimum_refuses_candidates_fewer_than_the_attacks_cut_before_any_search(monkeypatch):
    from normandy_lab.interdiction import history

    def no_search(*args, **kwargs):
        raise AssertionError("searched before refusing")

    monkeypatch.setattr("normandy_lab.interdiction.best.best_targets", no_search)
    with pytest.raises(RefusedError, match=r"^against_optimum: candidates: on bfn_1944-06-07_am .* cut \d+ bridges"):
        history.against_optimum("1944-06-07", candidates=["B4015|B4114"])
    with pytest.raises(RefusedError, match=r"^against_optimum: river: .*'Vier'.*did you mean 'Vire'"):
        history.against_optimum("1944-06-07", river="Vier")


def test_a_sweep_refuses_a_client_that_is_not_one_before_any_work():
    with pytest.raises(RefusedError, match=r"^sweep: client: 5 is not a dask.distributed Client.*False"):
        nl.sweep(BASE, [{"weather": "Clear"}], client=5, progress=False)


def test_a_river_is_matched_by_its_whole_name_not_a_part_of_another(june13):
    found = targets(june13, "bridges", river="vire")  # case does not matter, and accents do not either
    names = [t.label for t in found]
    assert found and all("Vire" in n for n in names)
    sides = nl.terrain_map("bfn", progress=False).hexsides
    for target in found:  # the Vire itself, alone or beside another water: never the canal alone
        assert "Vire" in [w.strip() for w in str(sides.loc[target.key, "water_name"]).split(";")]
    canal = targets(june13, "bridges", river="Canal de Vire et Taute")
    assert {t.key for t in canal} - {t.key for t in found}  # the canal's own bridges are not the Vire's
    assert targets(june13, "bridges", river="Selune") == targets(june13, "bridges", river="Sélune")


def test_a_river_whose_bridges_are_all_down_leaves_nothing_to_cut_and_says_so(june13, vire):
    down = june13.evolve(destroyed_bridges=june13.destroyed_bridges | {t.key for t in vire})
    with pytest.raises(RefusedError, match="nothing to cut: no bridge over the Vire is still standing"):
        best_targets(down, "german", 1, river="Vire")


def test_a_state_may_be_given_by_its_scenario_name_and_anything_else_is_refused(vire):
    by_name = best_targets(BASE, "german", 1, candidates=vire[:2])
    by_state = best_targets(nl.load_scenario(BASE), "german", 1, candidates=vire[:2])
    assert by_name.state.scenario == nl.load_scenario(BASE).scenario
    assert (by_name.picks, by_name.value) == (by_state.picks, by_state.value)
    with pytest.raises(RefusedError, match="state: 5 is not a state"):
        best_targets(5, "german", 1, candidates=vire[:2])
    with pytest.raises(ScenarioError, match="did you mean"):
        best_targets("bfn_1944-06-13_pm", "german", 1, candidates=vire[:2])


@pytest.mark.parametrize("returned", [math.nan, None, "many", math.inf])
def test_an_objective_that_returns_no_number_is_refused_naming_it(june13, vire, returned):
    def my_measure(report, side):
        return returned

    with pytest.raises(RefusedError, match="objective: my_measure returned") as caught:
        best_targets(june13, "german", 1, candidates=vire[:2], objective=my_measure)
    assert repr(returned) in str(caught.value)


def test_an_objective_that_goes_wrong_after_the_first_cut_is_refused_too(june13, vire):
    calls = []

    def flaky(report, side):
        calls.append(report)
        return 13.0 if len(calls) == 1 else math.nan  # a number for the uncut state, then nonsense

    with pytest.raises(RefusedError, match="objective: flaky returned nan"):
        best_targets(june13, "german", 1, candidates=vire[:2], objective=flaky)


def test_greedy_stops_at_its_budget_and_says_so(june13, vire):
    shortlist = vire[:6]
    result = best_targets(june13, "german", 3, candidates=shortlist, method="greedy", budget=8)
    assert result.evaluations <= 8 and result.stopped and "budget" in result.stopped
    assert "budget" in result.summary() and len(result.picks) == 1
    free = best_targets(june13, "german", 3, candidates=shortlist, method="greedy")
    assert free.evaluations > 8 and not free.stopped


def test_a_budget_greedy_cannot_even_start_with_is_refused(june13):
    with pytest.raises(RefusedError, match=r"budget: 1 .* greedy needs at least (\d+)"):
        best_targets(june13, "german", 1, budget=1, method="greedy")


def test_an_exact_search_too_large_is_refused_up_front_with_its_size_an_estimate_and_greedy(june13):
    n = len(targets(june13, "bridges"))
    sets = math.comb(n, 4)
    with pytest.raises(RefusedError, match=r"method: an exact search") as caught:
        best_targets(june13, "german", 4, method="exact")
    said = str(caught.value)
    assert f"{sets:,}" in said and "about" in said and "method='greedy'" in said
    with pytest.raises(RefusedError, match=f"{sets:,}"):  # a budget that does not cover it is no help
        best_targets(june13, "german", 4, method="exact", budget=10_000)


def test_the_exact_search_tries_the_sets_a_batch_at_a_time():
    from normandy_lab.interdiction.search import EXACT_BATCH, exact

    class Counting:
        def __init__(self):
            self.batches = []

        def values(self, sets):
            sets = list(sets)
            self.batches.append(len(sets))
            return [float(sum(s)) for s in sets]

    counting = Counting()
    picks, value = exact(counting, 40, 3)  # 9,880 sets
    assert picks == (37, 38, 39) and value == 114
    assert max(counting.batches) <= EXACT_BATCH and sum(counting.batches) == math.comb(40, 3)


def test_a_summary_where_nothing_was_cut_says_so_and_why(june13, vire):
    idle = [t for t in vire if t not in vire[:12]][-3:]  # bridges no German line crosses
    result = best_targets(june13, "german", 2, candidates=idle, method="greedy")
    assert result.picks == [] and result.gain == 0
    said = result.summary()
    assert "0 cuts" not in said and "by 0" not in said
    assert said.startswith("nothing cut against the german side") and "none of the 3 targets" in said


# -- side_by_side --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "date",
    ["banana", "", "7 June 1944", None, dt.datetime(1944, 6, 7, 12), ["1944-06-07"], "1944-02-30",
     "1944-06-31", 19440607],
)  # fmt: skip
def test_side_by_side_refuses_what_is_not_a_date_naming_the_argument(date):
    with pytest.raises(RefusedError, match=r"^side_by_side: date: ") as caught:
        nl.side_by_side(date)
    assert repr(date) in str(caught.value) and "YYYY-MM-DD" in str(caught.value)


def test_scenarios_on_refuses_the_same_dates():
    from normandy_lab.sidebyside import scenarios_on

    with pytest.raises(RefusedError, match=r"^scenarios_on: date: '1944-06-31'"):
        scenarios_on("1944-06-31")


def test_the_study_functions_take_a_state_or_a_scenario_s_name_and_refuse_the_rest(june13):
    from normandy_lab.interdiction.history import historical_targets

    assert targets(BASE, ["B2816"]) == targets(june13, ["B2816"])
    with pytest.raises(RefusedError, match="targets: state: None is not a state"):
        targets(None)
    with pytest.raises(RefusedError, match="historical_targets: state: 5 is not a state"):
        historical_targets(5)


@pytest.mark.parametrize("upto", ["1", -1, 5, 1.0])
def test_the_picks_made_up_to_a_number_refuse_what_is_not_one(june13, vire, upto):
    result = best_targets(june13, "german", 1, candidates=vire[:2])
    with pytest.raises(RefusedError, match="upto: "):
        result.edits(upto)
    with pytest.raises(RefusedError, match="upto: "):
        result.cut_state(upto)


def test_against_optimum_refuses_a_bad_side_or_method_before_any_search():
    from normandy_lab.interdiction.history import against_optimum

    with pytest.raises(RefusedError, match=r"against_optimum: side: 'germans'.*did you mean 'german'"):
        against_optimum("1944-06-07", side="germans")
    with pytest.raises(RefusedError, match="against_optimum: method: 'gredy'"):
        against_optimum("1944-06-07", method="gredy")


def test_the_history_of_attacks_refuses_the_same_dates(june13):
    from normandy_lab.interdiction.history import against_optimum, historical_targets

    with pytest.raises(RefusedError, match=r"^historical_targets: date: 'banana'"):
        historical_targets(june13, until="banana")
    with pytest.raises(RefusedError, match=r"^scenarios_on: date: '1944-06-31'"):
        against_optimum("1944-06-31")


@pytest.mark.parametrize("threshold", [0, 1.5, "0.25", None, True])
def test_the_disagreements_threshold_is_a_share(threshold):
    from normandy_lab.sidebyside import SideBySide

    empty = SideBySide(dt.date(1944, 6, 7), {}, pd.DataFrame())
    with pytest.raises(RefusedError, match="disagreements: threshold: "):
        empty.disagreements(threshold)


def test_a_date_outside_every_game_is_the_project_s_refusal():
    with pytest.raises(RefusedError, match="side by side needs two"):
        nl.side_by_side("1944-05-01")


@pytest.mark.parametrize(
    ("scenarios", "said"),
    [
        ({"bfn": "bfn_1944-06-07_am+x"}, r"scenarios: 'bfn_1944-06-07_am\+x'.*\+1"),
        ({"bfn": "bfn_1944-06-07_am", "kg": "bfn_1944-06-13_am"}, "scenarios: 'kg'.*a bfn scenario"),
        ({"chess": "bfn_1944-06-07_am", "kg": "kg_1944-06-07_t02"}, "scenarios: 'chess'.*bfn"),
        ({"bfn": 5, "kg": "kg_1944-06-07_t02"}, "scenarios: 'bfn': 5 is not"),
        ({"bfn": "bfn_1944-06-07_am"}, "side by side needs two"),
        ("bfn_1944-06-07_am", "a mapping"),
    ],
)
def test_side_by_side_refuses_bad_scenarios_naming_the_argument(scenarios, said):
    with pytest.raises(NormandyLabError, match=said):
        nl.side_by_side("1944-06-07", scenarios)


# -- load_scenario and the expected date ---------------------------------------------------------------


@pytest.mark.parametrize("name", [None, 1944, "x" * 10_000, "bfn_1944-06-13_pm", "bfn\x00"])
def test_load_scenario_refuses_a_bad_name_with_the_project_s_error(name):
    with pytest.raises(ScenarioError) as caught:
        nl.load_scenario(name)
    assert len(str(caught.value)) < 2_000  # the scenarios listed, not the 10,000 characters echoed
    if name == "bfn_1944-06-13_pm":
        assert "did you mean 'bfn_1944-06-13_am'" in str(caught.value)
        assert isinstance(caught.value, FileNotFoundError)  # as callers have always caught it


class _NoAliases(yaml.SafeDumper):
    def ignore_aliases(self, data):
        return True


@pytest.mark.parametrize(
    "scenario", ["bfn_1944-06-13_am", "cobra_1944-07-16_gt15", "kg_1944-06-07_t02", "gts_1944-06-08_0700"]
)
def test_an_impossible_expected_date_is_refused_at_its_line_in_every_game(scenario):
    data = yaml.safe_load((SCENARIO_DIR / f"{scenario}.yaml").read_text(encoding="utf-8"))
    entry = {"unit": data["units"][0]["id"], "why": "rules", "reason": "a test", "date": "1944-06-31",
             "turn": str(data["turn"])}  # fmt: skip
    data["expected_out_of_supply"] = [entry]
    text = yaml.dump(data, Dumper=_NoAliases, sort_keys=False, allow_unicode=True)
    assert "'1944-06-31'" in text  # quoted: it passes the schema's pattern, so only the loader can stop it
    with pytest.raises(ScenarioError, match=r"^x\.yaml:\d+: expected_out_of_supply\[0\]\.date: '1944-06-31'"):
        load_scenario_text(text, "x.yaml")


# -- no plain built-in error raised on purpose --------------------------------------------------------

# Checked by their owners' tests: the rule systems, the files a study, an export and the record read.
ELSEWHERE = ("rules/", "savefile.py", "views/export.py", "engine/study.py", "yamllines.py", "history/")
# Plain errors left on purpose, each a defect of the program or of the package's own data, never of a
# caller's argument: the graph and line builders' invariants, the grid fit over the shipped control
# points, a PNG the exporter itself wrote, and a rule system filling a supply report's field that does not
# exist (engine/report.py: a game's code, not a caller, sets the fields), and a grids data file's model asked
# for over no map at all (schemas/grid_files.py: the grids pass the registered maps, never none), and the
# class server's fork server reading a malformed request or answer between the package's own two processes
# (views/forkserver.py: the fork server answers it with an error, the provisioner catches it and starts that
# kernel the normal way; no user's argument reaches it).
INTERNAL = {
    "engine/layered.py": 5, "network.py": 3, "grids/sheetfit.py": 2, "engine/report.py": 1,
    "grids/georef.py": 2, "grids/__init__.py": 2, "views/export_marks.py": 1, "schemas/grid_files.py": 1,
    "views/forkserver.py": 6,
}  # fmt: skip
PLAIN = ("raise ValueError(", "raise TypeError(", "raise FileNotFoundError(", "raise KeyError(")


def test_a_state_given_a_field_it_does_not_have_is_the_project_s_error_and_still_a_type_error(june13):
    from normandy_lab.engine.state import UnknownMarkerError

    with pytest.raises(UnknownMarkerError, match="did you mean 'weather'") as caught:
        june13.evolve(wether="Storm")
    assert isinstance(caught.value, NormandyLabError) and isinstance(caught.value, TypeError)


def test_the_package_raises_only_the_project_s_errors_on_purpose():
    root = Path(nl.__file__).parent
    found: dict[str, int] = {}
    for path in sorted(root.rglob("*.py")):
        name = path.relative_to(root).as_posix()
        if name.startswith(ELSEWHERE):
            continue
        count = sum(any(p in line for p in PLAIN) for line in path.read_text(encoding="utf-8").splitlines())
        if count:
            found[name] = count
    assert found == INTERNAL
