"""The three lessons (issue 33, section 2): the answer button, each lesson's verdicts against the engine's own,
and the notebooks that show them (thin, stripped, executed by nbmake with the rest of ``notebooks/``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from normandy_lab.errors import RefusedError
from normandy_lab.lessons import LESSONS, Reveal, lesson

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks" / "lessons"


# -- the answer button -------------------------------------------------------------------------------------


def test_an_answer_is_not_in_the_page_until_revealed_and_leaves_it_when_hidden():
    reveal = Reveal("<p>the 9th Division reached Barneville</p>")
    # Nothing of the answer is in any widget's state, which is all a page ever receives.
    states = [w.get_state() for w in (reveal.box, reveal.button, reveal.output)]
    assert "Barneville" not in json.dumps(states, default=str)
    assert reveal.shown == ""
    reveal.button.click()  # as the page's button does
    assert "Barneville" in reveal.output.get_state()["value"]
    assert reveal.button.description == "Hide the answer"
    reveal.button.click()
    assert reveal.shown == "" and reveal.button.description == "Show the answer"


def test_an_answer_worked_out_on_demand_is_worked_out_once():
    calls = []

    def answer():
        calls.append(1)
        return "<p>42</p>"

    reveal = Reveal(answer)
    assert calls == []
    reveal.press()
    reveal.press()
    reveal.press()
    assert reveal.shown == "<p>42</p>" and calls == [1]


def test_an_answer_must_be_text_or_a_function():
    with pytest.raises(RefusedError, match="answer must be HTML text or a function"):
        Reveal(42)  # type: ignore[arg-type]


def test_an_unknown_lesson_is_named_with_the_known_ones():
    with pytest.raises(KeyError, match="cotentin, panzer_lehr, storm"):
        lesson("normandy")


# -- the lessons' verdicts ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cotentin():
    return lesson("cotentin")


@pytest.fixture(scope="module")
def panzer_lehr():
    return lesson("panzer_lehr")


@pytest.fixture(scope="module")
def storm():
    return lesson("storm")


def test_cotentin_the_record_closes_the_peninsula_between_16_and_18_june(cotentin):
    import datetime as dt

    from normandy_lab.history.lodgement import held_by

    facts = cotentin.facts
    assert facts["first_allied"] == dt.date(1944, 6, 18) and facts["last_german"] == dt.date(1944, 6, 16)
    assert held_by("Barneville-Carteret", facts["first_allied"]) == "allied"
    # The timeline's account of the cut and its sources are beside the game's answer.
    assert "Barneville on 18 June" in cotentin.history and "Utah Beach to Cherbourg" in cotentin.history


def test_cotentin_every_northern_hq_lives_on_cherbourg_and_not_without_it(cotentin):
    """7.2, 7.4: the HQs north of Barneville trace to Cherbourg's source; struck off, none is in supply."""
    import normandy_lab as nl

    games = cotentin.facts["games"]
    assert [g["date"].isoformat() for g in games] == ["1944-06-07", "1944-06-13", "1944-06-19"]
    north = [hq for g in games for hq in g["hqs"] if hq["north"]]
    assert north and cotentin.facts["north_hqs_to_cherbourg"] == len(north)
    assert all(hq["without"] == "out of supply" for hq in north)
    # The lesson's verdicts are the engine's: the 19 June 243. ID HQ, determined here again.
    state = nl.load_scenario("bfn_1944-06-19_am")
    assert nl.supply(state)["DE-243-HQ"].traced_id == next(
        hq["source_hex"] for hq in games[-1]["hqs"] if hq["hq"] == "DE-243-HQ"
    )
    without = state.evolve(german_supply_cities=frozenset(state.german_supply_cities) - {"Cherbourg"})
    assert not nl.supply(without)["DE-243-HQ"].general


def test_cotentin_answers_give_the_lines_in_mp_and_the_storm_halving(cotentin):
    first, second, third, kg, fourth = (
        e.answer() if callable(e.answer) else e.answer for e in cotentin.exercises
    )
    assert "39 MP; the limit is 20 MP" in first
    assert "18 June" in second and "16 June" in second
    assert "61 MP" in third and "halved" in third  # 7.3.3 on 19 June's Storm
    assert "26 June" in fourth  # Cherbourg surrendered
    # KG (26.10.7): Cherbourg traces to an off-map box on 7 June, to none on 19 June, and the reading is said.
    assert "7 June: supported: its line reaches N1410, which traces to a German off-map box" in kg
    assert "19 June: supported: its line reaches N1410, which traces to no off-map box" in kg
    assert "taken to be there" in kg
    assert any("RECONSTRUCTED" in line for line in cotentin.rests_on)  # KG's derived city hexes
    assert any("what-if" in line for line in cotentin.rests_on)
    assert any("Storm halving" in line for line in cotentin.rests_on)  # the engine's own summary


def test_panzer_lehr_the_searches_agree_with_the_engine(panzer_lehr):
    """The best single cut is exact (each bridge a line crosses), the pair at least as good, history cut too."""
    import normandy_lab as nl
    from normandy_lab.interdiction import Target
    from normandy_lab.lessons.panzer_lehr import DIVISION, SCENARIO

    facts = panzer_lehr.facts
    assert facts["units"] == 11 and facts["shortlist"] >= 1
    assert facts["best"][1] <= facts["bound"] and facts["best"][2] >= facts["best"][1]
    # The pair's verdict is the engine's: cut the two bridges here and determine supply again.
    state = nl.load_scenario(SCENARIO)
    units = {u.id for u in state.units if u.formation == DIVISION}
    cut = state
    for key in facts["pair"]:
        cut = Target("bridge", key).cut(cut)
    report = nl.supply(cut)
    assert len(facts["pair"]) == 2 and sorted(u for u in units if not report[u].general) == facts["pair_out"]
    assert facts["history_units"] == 0 and facts["history_german"] > 0
    assert "Thury-Harcourt" in panzer_lehr.history and "dday-overlord.com" in panzer_lehr.history


def test_panzer_lehr_answers_say_what_the_search_found(panzer_lehr):
    first, second, third, fourth = (
        e.answer() if callable(e.answer) else e.answer for e in panzer_lehr.exercises
    )
    assert f"puts {panzer_lehr.facts['best'][1]} of 11 out" in first
    assert "No one bridge starves Panzer Lehr" in first
    assert f"puts {panzer_lehr.facts['best'][2]} out" in second
    assert third.startswith("<p>0 of Panzer Lehr") and "I. SS-Pz.Korps" in third
    assert "Odon" in fourth


def test_storm_each_game_that_covers_it_and_its_weather_rule(storm):
    from normandy_lab.sidebyside import scenarios_on

    facts = storm.facts
    assert (
        facts["covering"]
        == scenarios_on("1944-06-19")
        == {"bfn": "bfn_1944-06-19_am", "kg": "kg_1944-06-19_t14"}
    )
    bfn, kg = facts["games"]["bfn"], facts["games"]["kg"]
    for side in ("allied", "german"):  # BfN 7.3.3 halves every range in a Storm; KG's Storm halves none
        assert bfn[("Storm", side)] > bfn[("Overcast", side)]
        assert kg[("Storm", side)] == kg[("Overcast", side)]
    first, second, third = (e.answer() for e in storm.exercises)
    assert "Both sides lose supply" in first and "7.3.3" in first
    assert "No unit changes" in second and "26.14.1" in second
    assert "Mulberry A" in third
    assert "Ruppenthal" in storm.history and any("8.1o" in line for line in storm.rests_on)


def test_the_pages_hold_no_answer_until_one_is_revealed(storm):
    exercises = storm.show_exercises()
    first = storm.exercises[0].answer()
    page = json.dumps([w.get_state() for w in _widgets(exercises)], default=str)
    assert "Both sides lose supply" not in page
    storm.reveals[0].button.click()
    assert storm.reveals[0].shown == first
    assert all(r.shown == "" for r in storm.reveals[1:])
    # The question and the answers' blocks carry the classes the browser tests find.
    assert "nl-lesson-question" in storm.show_question()._dom_classes
    assert "nl-lesson-game" in storm.show_answers().children[0]._dom_classes


def _widgets(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from _widgets(child)


# -- the notebooks ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_each_lesson_notebook_is_thin_stripped_and_served(name):
    path = NOTEBOOKS / LESSONS[name]
    notebook = json.loads(path.read_text())
    code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    assert code and all(c["outputs"] == [] and c["execution_count"] is None for c in code)
    assert all(len("".join(c["source"]).splitlines()) <= 4 for c in code)  # the logic is in the package
    assert f'lesson("{name}")' in "".join(code[0]["source"])
    served = REPO / "class" / f"lesson_{LESSONS[name]}"
    assert served.resolve() == path.resolve()
