"""Files, round two (issue 28, part 4; reliability review 2, N10-N14 and the faults).

Sizes capped before any work, a study that always saves (a scenario renamed or changed after opening, a full
disk said with the file's name, a file that is not a study never replaced), control characters at their line
and column, record dates outside the campaign, a destroyed bridge where there is none, a fingerprint that does
not depend on the order of a scenario's lists, and studies that add what a scenario file may not hold.
Each test fails on the code before the fix (``91a78a4``).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

import normandy_lab as nl
from normandy_lab.engine import ScenarioError
from normandy_lab.engine.scenario import MAX_UNITS, historical_scenarios, load_scenario_text
from normandy_lab.engine.study import (
    MAX_STUDY_EDITS,
    Study,
    StudyError,
    StudySaveError,
    fingerprint,
    load_study,
    save_study,
)
from normandy_lab.errors import ExportRefusedError, NormandyLabError
from normandy_lab.history.lodgement import HistoryError, records

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "tests" / "data" / "bfn_pegasus_1944-06-07.yaml"
SCENARIOS = [name for system in ("bfn", "cobra", "kg", "gts") for name in historical_scenarios(system)]


# ----------------------------------------------------------------------------- N10, N11: sizes before work


def test_a_study_naming_a_huge_scenario_is_refused_without_reading_it(tmp_path):
    """N10: a 3 GB (sparse) file named as the scenario is refused by its size, never read to be hashed."""
    huge = tmp_path / "huge.yaml"
    with huge.open("wb") as handle:
        handle.truncate(3 * 1024**3)
    study = tmp_path / "s.study.json"
    study.write_text(
        json.dumps(
            {
                "format": "normandy_lab.study/1",
                "scenario": str(huge),
                "scenario_sha256": "0" * 64,
                "edits": [],
                "fingerprint": "0" * 64,
            }
        )
    )
    with pytest.raises(StudyError, match="larger than"):
        load_study(study)


def test_a_scenario_with_more_units_than_the_cap_is_refused_before_its_units_are_checked():
    """N11: 30,000 units in one hex used to take minutes and load; now refused at the units line."""
    head = SMALL.read_text(encoding="utf-8").split("units:")[0]
    unit = (
        "  - {{id: DE-X{n}, name: x, side: german, nationality: DE, type: infantry, size: battalion,"
        " hex: C3517, steps: 3}}\n"
    )
    text = head + "units:\n" + "".join(unit.format(n=n) for n in range(MAX_UNITS + 1))
    with pytest.raises(ScenarioError, match=rf"units: {MAX_UNITS + 1:,} units, more than the {MAX_UNITS:,}"):
        load_scenario_text(text, "many.yaml")


def test_a_scenario_text_beyond_the_cap_is_refused_before_it_is_parsed():
    text = "name: x\n" + "# padding\n" * 500_000
    with pytest.raises(ScenarioError, match=r"[0-9,]+ characters, more than the 4,194,304"):
        load_scenario_text(text, "long.yaml")


def test_a_study_with_more_edits_than_the_cap_is_refused_before_any_is_replayed(tmp_path):
    """D5: a study of 200,000 edits ran past 30 s; now refused at once, naming the cap."""
    payload = {
        "format": "normandy_lab.study/1",
        "scenario": str(SMALL),
        "edits": [{"op": "next_phase"}] * (MAX_STUDY_EDITS + 1),
        "fingerprint": "0" * 64,
    }
    path = tmp_path / "long.study.json"
    path.write_text(json.dumps(payload))
    with pytest.raises(StudyError, match=f"more than the {MAX_STUDY_EDITS:,}"):
        load_study(path)


def test_a_study_in_code_stops_at_the_cap(monkeypatch):
    import normandy_lab.engine.study as study_module

    monkeypatch.setattr(study_module, "MAX_STUDY_EDITS", 2)
    study = Study(str(SMALL))
    study.apply({"op": "interdict", "hex": "C3013"})
    study.apply({"op": "interdict", "hex": "C3012"})
    with pytest.raises(StudyError, match="at most 2 edits"):
        study.apply({"op": "interdict", "hex": "C3011"})
    assert len(study.edits) == 2


# ----------------------------------------------------------------------------- N12, faults: the work always saves


@pytest.fixture
def own_scenario(tmp_path) -> Path:
    path = tmp_path / "mine.yaml"
    path.write_text(SMALL.read_text(encoding="utf-8"), encoding="utf-8")
    return path


def test_a_study_saves_after_its_scenario_was_renamed_and_reopens(own_scenario, tmp_path):
    """N12: the scenario renamed after opening; the save keeps its text, and the study reopens the same."""
    study = Study(str(own_scenario))
    study.apply({"op": "interdict", "hex": "C3013"})
    own_scenario.rename(tmp_path / "renamed.yaml")
    saved = save_study(study, tmp_path / "work.study.json")
    payload = json.loads(saved.read_text())
    assert payload["scenario_text"] == SMALL.read_text(encoding="utf-8")
    again = load_study(saved)
    assert fingerprint(again.state) == fingerprint(study.state) and again.edits == study.edits
    save_study(again, saved)  # and saves again, still carrying the text
    assert "scenario_text" in json.loads(saved.read_text())


def test_a_study_whose_scenario_changed_after_opening_keeps_the_text_it_was_made_on(own_scenario, tmp_path):
    study = Study(str(own_scenario))
    study.apply({"op": "interdict", "hex": "C3013"})
    own_scenario.write_text(
        own_scenario.read_text(encoding="utf-8").replace("weather: Overcast", "weather: Storm"),
        encoding="utf-8",
    )
    saved = save_study(study, tmp_path / "work.study.json")
    again = load_study(saved)  # the edits replay on the text they were made on: no "changed since"
    assert again.state.weather == study.state.weather == "Overcast"
    assert fingerprint(again.state) == fingerprint(study.state)


def test_a_study_beside_its_unchanged_scenario_does_not_carry_its_text(own_scenario, tmp_path):
    study = Study(str(own_scenario))
    saved = save_study(study, tmp_path / "work.study.json")
    payload = json.loads(saved.read_text())
    assert "scenario_text" not in payload and payload["scenario_file"] == "mine.yaml"
    shipped = save_study(Study("bfn_1944-06-13_am"), tmp_path / "shipped.study.json")
    assert "scenario_text" not in json.loads(shipped.read_text())


def test_a_full_disk_says_which_study_and_keeps_the_one_saved_before(tmp_path):
    """Faults: a write that fails (EFBIG under a file-size limit, as a full disk) names the study."""
    target = tmp_path / "work.study.json"
    save_study(Study(str(SMALL)), target)
    before = target.read_bytes()
    code = textwrap.dedent(
        f"""
        import resource, signal
        import normandy_lab as nl
        from normandy_lab.engine.study import StudySaveError
        study = nl.Study({str(SMALL)!r}, title="x" * 200_000)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (50_000, 50_000))
        try:
            nl.save_study(study, {str(target)!r})
        except StudySaveError as exc:
            print("REFUSED", exc)
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert "REFUSED" in done.stdout, done.stderr
    assert str(target) in done.stdout and "the version saved before is kept" in done.stdout
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["work.study.json"]


def test_the_save_error_is_the_projects_and_an_os_error():
    assert issubclass(StudySaveError, NormandyLabError) and issubclass(StudySaveError, OSError)


@pytest.mark.parametrize(
    "content",
    [
        SMALL.read_bytes(),
        b'{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}',
        b"place,lon,lat\n",
        b"",
    ],
    ids=["scenario", "notebook", "table", "empty"],
)
def test_a_study_is_never_saved_over_a_file_that_is_not_a_study(tmp_path, content):
    target = tmp_path / "target.json"
    target.write_bytes(content)
    with pytest.raises(ExportRefusedError, match="not a study"):
        save_study(Study(str(SMALL)), target)
    assert target.read_bytes() == content
    save_study(Study(str(SMALL)), target, overwrite=True)  # said explicitly
    assert json.loads(target.read_text())["format"] == "normandy_lab.study/1"


def test_a_study_replaces_a_study_compact_or_pretty(tmp_path):
    target = save_study(Study(str(SMALL)), tmp_path / "a.study.json")
    target.write_text(json.dumps(json.loads(target.read_text()), separators=(",", ":")))
    study = Study(str(SMALL))
    study.apply({"op": "interdict", "hex": "C3013"})
    save_study(study, target)
    assert json.loads(target.read_text())["edits"] == study.edits


# ----------------------------------------------------------------------------- N14: the last of round one


@pytest.mark.parametrize(("char", "name"), [("\x00", "NUL"), ("\x1b", "ESC"), ("\x7f", "DEL")])
def test_a_control_character_is_reported_at_its_line_and_column(tmp_path, char, name):
    lines = SMALL.read_text(encoding="utf-8").splitlines()
    number = next(n for n, line in enumerate(lines) if line.startswith("name:"))
    lines[number] = lines[number].replace("12.5.4", f"12.{char}5.4")
    path = tmp_path / "ctrl.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    column = lines[number].index(char) + 1
    with pytest.raises(ScenarioError, match=rf"ctrl.yaml:{number + 1}: column {column}: .*\({name}\)"):
        nl.load_scenario(path)


def test_a_control_character_in_a_record_file_is_at_its_line(tmp_path):
    path = tmp_path / "lodgement_x.yaml"
    path.write_text("sources: {A: a book}\nrecords:\n- date: '1944-06-0\x1b7'\n", encoding="utf-8")
    with pytest.raises(HistoryError, match=r":3: column \d+: .*ESC"):
        records([path])


def _lodgement(date: str) -> str:
    return textwrap.dedent(
        f"""\
        sources: {{A: a book}}
        records:
        - date: '{date}'
          sources: [A]
          accuracy_km: 2
          allied:
          - name: the beachhead
            outline: [Bayeux, Caen, Ouistreham]
        """
    )


@pytest.mark.parametrize("date", ["1943-06-07", "1945-06-07", "1944-06-05", "1944-09-01"])
def test_a_lodgement_date_outside_the_campaign_is_refused_at_its_line(tmp_path, date):
    """D11: dates of 1943 and 1945 used to load, sorting before or after the whole campaign."""
    path = tmp_path / "lodgement_x.yaml"
    path.write_text(_lodgement(date), encoding="utf-8")
    with pytest.raises(HistoryError, match=rf":3: records\[0\].date: {date} is outside the campaign"):
        records([path])


def _one_fact(tmp_path: Path, date: str, source: str) -> Path:
    """Write a facts file of one fact (its date on line 4, its source on line 7)."""
    path = tmp_path / "facts_x.yaml"
    path.write_text(
        f"sources: {{A: a book}}\nfacts:\n- place: Caen\n  date: '{date}'\n  side: allied\n"
        f"  event: taken\n  source: {source}\n",
        encoding="utf-8",
    )
    return path


def test_a_fact_date_outside_the_campaign_is_refused_at_its_line(tmp_path):
    from normandy_lab.history.facts import facts

    with pytest.raises(HistoryError, match=r":4: facts\[0\].date: 1945-07-09 is outside the campaign"):
        facts([_one_fact(tmp_path, "1945-07-09", "A")])


def test_an_empty_record_file_is_said_to_be_empty(tmp_path):
    path = tmp_path / "lodgement_x.yaml"
    path.write_text("# nothing yet\n", encoding="utf-8")
    with pytest.raises(HistoryError, match=r":1: the file is empty"):
        records([path])


def test_a_destroyed_bridge_where_the_map_has_none_is_refused_at_its_line(tmp_path):
    """D9: a hexside with no bridge loaded as a destroyed bridge; the destroy_bridge edit already refused it."""
    text = SMALL.read_text(encoding="utf-8").replace(
        "units:", "destroyed_bridges:\n- [C3014, C3013]\n- [C3212, C3213]\nunits:", 1
    )
    path = tmp_path / "bridges.yaml"
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index("destroyed_bridges:") + 1
    said = re.escape(
        f"bridges.yaml:{line}: destroyed_bridges: entry 2: there is no bridge on the C3212|C3213"
    )
    with pytest.raises(ScenarioError, match=said):
        nl.load_scenario(path)
    from normandy_lab.engine.edits import destroy_bridge

    with pytest.raises(NormandyLabError, match="no bridge"):  # as the edit has long said
        destroy_bridge(nl.load_scenario(SMALL), "C3212", "C3213")


def test_the_bridges_the_kg_rulebook_names_load_though_the_derived_map_lacks_them():
    """KG 22.6.8 and 22.7 list destroyed bridges the derived map does not have; the set-ups still load."""
    assert "N3436|N3437" in nl.load_scenario("kg_1944-06-07_t02").destroyed_bridges
    assert "N3847|N3948" in nl.load_scenario("kg_1944-06-19_t14").destroyed_bridges


def _every_list_reversed(value):
    if isinstance(value, list):
        return [_every_list_reversed(v) for v in reversed(value)]
    if isinstance(value, dict):
        return {k: _every_list_reversed(v) for k, v in value.items()}
    return value


def _reordered(name: str, tmp_path: Path) -> Path:
    """Write the scenario with every list in it reversed (units, beachheads, nests, expected, cities...)."""
    from normandy_lab.engine.scenario import scenario_path

    data = _every_list_reversed(yaml.safe_load(scenario_path(name).read_text(encoding="utf-8")))
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_scenario_with_its_lists_reordered_has_the_same_fingerprint_and_supply(name, tmp_path):
    """D13: every list of a scenario taken in another order is the same state, and the supply agrees."""
    first, second = nl.load_scenario(name), nl.load_scenario(_reordered(name, tmp_path))
    assert fingerprint(first) == fingerprint(second)
    one, other = nl.supply(first), nl.supply(second)
    assert {u: (r.general, r.code, r.traced_to) for u, r in one.units.items()} == {
        u: (r.general, r.code, r.traced_to) for u, r in other.units.items()
    }


def test_the_old_fingerprint_kept_the_order_of_the_beachheads(tmp_path):
    """What the fix changed: the file-order fingerprint (studies saved before) differs for reordered lists."""
    name = "bfn_1944-06-13_am"
    first, second = nl.load_scenario(name), nl.load_scenario(_reordered(name, tmp_path))
    assert first.beachheads != second.beachheads
    assert fingerprint(first, file_order=True) != fingerprint(second, file_order=True)


def test_a_study_saved_with_the_file_order_fingerprint_still_opens(tmp_path):
    study = Study(str(SMALL))
    study.apply({"op": "interdict", "hex": "C3013"})
    saved = save_study(study, tmp_path / "old.study.json")
    payload = json.loads(saved.read_text())
    payload["fingerprint"] = fingerprint(study.state, file_order=True)  # as saved before issue 28
    saved.write_text(json.dumps(payload))
    assert load_study(saved).edits == study.edits


def _added(unit_id: str, **fields) -> dict:
    unit = {"id": unit_id, "name": unit_id, "side": "german", "nationality": "DE", "steps": 1}
    return {"op": "add_unit", "unit": {**unit, **fields}}


def test_a_crafted_study_cannot_add_a_unit_of_a_formation_without_its_hq(tmp_path):
    """D10: BfN 7.2, a division's units need its HQ; a scenario file may not say otherwise, nor a study."""
    edit = _added(
        "X1",
        side="allied",
        nationality="UK",
        type="infantry",
        size="battalion",
        formation="49th Division",
        hex="C2913",
        steps=3,
    )
    with pytest.raises(NormandyLabError, match="no HQ of '49th Division'"):
        Study(str(SMALL)).apply(edit)
    study = Study(str(SMALL))
    payload = {
        "format": "normandy_lab.study/1",
        "scenario": str(SMALL),
        "edits": [edit],
        "fingerprint": fingerprint(study.state),
    }
    path = tmp_path / "crafted.study.json"
    path.write_text(json.dumps(payload))
    with pytest.raises(StudyError, match="no HQ of '49th Division'"):
        load_study(path)


def test_a_study_cannot_stack_twelve_strongpoints_in_one_hex():
    """D10: BfN 18.9.1 gives a strongpoint a Stacking Value of 1, and 6.0 allows 6 points a hex."""
    study = Study(str(SMALL))
    edits = [_added(f"SP{n}", type="strongpoint", size="company", hex="C3516") for n in range(12)]
    with pytest.raises(NormandyLabError, match=r"7 stacking points .*\(the limit is 6"):
        for edit in edits:
            study.apply(edit)
    assert len(study.edits) == 6


def test_bfn_supply_cities_given_with_no_value_are_refused_not_taken_as_none(tmp_path):
    """Review 2, note 3: `german_supply_cities:` with no value read as no city at all (7.4), without a word."""
    from normandy_lab.engine.scenario import scenario_path

    text = scenario_path("bfn_1944-06-13_am").read_text(encoding="utf-8")
    emptied = re.sub(r"german_supply_cities:\n(- .*\n)+", "german_supply_cities:\n", text)
    assert emptied != text
    path = tmp_path / "nocities.yaml"
    path.write_text(emptied, encoding="utf-8")
    line = emptied[: emptied.index("german_supply_cities:")].count("\n") + 1
    with pytest.raises(
        ScenarioError, match=rf"nocities.yaml:{line}: german_supply_cities: is given with no value"
    ):
        nl.load_scenario(path)


# ----------------------------------------------------------------------------- a second fuzz, after the fixes


def _scenario_with(tmp_path: Path, name: str, old: str, new: str) -> Path:
    from normandy_lab.engine.scenario import scenario_path

    text = scenario_path(name).read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / f"{name}.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_a_partial_strength_table_keeps_the_rules_values_and_a_bad_one_is_refused(tmp_path):
    """options.strength_per_step was any mapping: a partial one crashed the explorer (KeyError: 'armor')."""
    partial = _scenario_with(
        tmp_path,
        "bfn_1944-06-13_am",
        "\nunits:",
        "\noptions:\n  strength_per_step: {infantry: [2, 3]}\nunits:",
    )
    state = nl.load_scenario(partial)
    from normandy_lab.rules.bfn.sequence import unit_strength

    armour = next(u for u in state.units if u.type == "armor" and u.attack is None)
    infantry = next(u for u in state.units if u.type == "infantry" and u.attack is None)
    assert unit_strength(state, armour) == unit_strength(nl.load_scenario("bfn_1944-06-13_am"), armour)
    assert unit_strength(state, infantry) == (2 * infantry.steps, 3 * infantry.steps)
    bad = _scenario_with(
        tmp_path,
        "bfn_1944-06-13_am",
        "\nunits:",
        "\noptions:\n  strength_per_step: {infantry: banana}\nunits:",
    )
    with pytest.raises(ScenarioError, match=r"options.strength_per_step.infantry"):
        nl.load_scenario(bad)


@pytest.mark.parametrize(
    ("option", "said"),
    [
        ("night_halving_until: '1950-01-01'", "outside the campaign"),
        ("what_if_interdiction: '+0'", "not in the form required"),
        ("what_if_interdiction: '+99999999999999999999'", "not in the form required"),
    ],
)
def test_options_outside_what_they_can_mean_are_refused(tmp_path, option, said):
    path = _scenario_with(tmp_path, "bfn_1944-06-13_am", "\nunits:", f"\noptions:\n  {option}\nunits:")
    with pytest.raises(ScenarioError, match=said):
        nl.load_scenario(path)


def test_a_sweep_variant_is_held_to_the_same_option_checks():
    variants = [{"name": "late", "options": {"night_halving_until": "1950-01-01"}}]
    rows = nl.sweep("bfn_1944-06-13_am", variants, client=False, progress=False, reasons=False)
    assert list(rows["code"]) == ["error"] and "outside the campaign" in rows["rule"].iloc[0]


def test_an_independent_formation_that_no_unit_has_is_refused(tmp_path):
    path = _scenario_with(
        tmp_path,
        "bfn_1944-06-07_am",
        "independent_formations:\n",
        "independent_formations:\n- No Such Formation\n",
    )
    with pytest.raises(ScenarioError, match="'No Such Formation' is the formation of no unit"):
        nl.load_scenario(path)


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (
            "german_supply_cities:\n- Cherbourg\n",
            "german_supply_cities:\n- Cherbourg\n- Cherbourg\n",
            "Cherbourg given twice",
        ),
    ],
)
def test_bfn_lists_given_twice_are_refused(tmp_path, old, new, said):
    with pytest.raises(ScenarioError, match=said):
        nl.load_scenario(_scenario_with(tmp_path, "bfn_1944-06-13_am", old, new))


def test_the_same_weapons_nest_twice_is_refused_but_two_nests_of_one_name_apart_load(tmp_path):
    """22.7 prints two 'Afld WN' in N1309 and N1416; the same nest in the same hex twice is a copy."""
    assert nl.load_scenario("kg_1944-06-19_t14")
    doubled = _scenario_with(
        tmp_path,
        "kg_1944-06-19_t14",
        "- name: Afld WN\n  hex: N1309\n  state: set_up\n",
        "- name: Afld WN\n  hex: N1309\n  state: set_up\n- name: Afld WN\n  hex: N1309\n  state: set_up\n",
    )
    with pytest.raises(ScenarioError, match="'Afld WN' in N1309 is listed twice"):
        nl.load_scenario(doubled)


def test_a_misspelt_gts_division_is_refused_not_supplied_as_corps_troops(tmp_path):
    """17.3 counts divisions by name: a misspelt one stood outside the count, Supplied without a word."""
    small = ROOT / "tests" / "data" / "gts_utah_1944-06-08_small.yaml"
    text = small.read_text(encoding="utf-8")
    path = tmp_path / "gts.yaml"
    path.write_text(
        text.replace("formation: 4th Infantry Division", "formation: 4th Infantry Divison", 1), "utf-8"
    )
    with pytest.raises(ScenarioError, match="did you mean '4th Infantry Division'"):
        nl.load_scenario(path)


def test_a_section_marker_given_with_no_value_is_refused(tmp_path):
    """Cobra `army_boundary:` with no value loaded, while the edit refused None."""
    path = _scenario_with(tmp_path, "cobra_1944-07-16_gt15", "army_boundary: 24", "army_boundary:")
    with pytest.raises(ScenarioError, match=r"army_boundary: None: Input should be a valid integer"):
        nl.load_scenario(path)


def test_side_by_side_refuses_a_scenario_of_another_day():
    with pytest.raises(NormandyLabError, match="'bfn_1944-07-25_am' is on 1944-07-25, not 1944-06-07"):
        nl.side_by_side("1944-06-07", scenarios={"bfn": "bfn_1944-07-25_am", "kg": "kg_1944-06-07_t02"})


def test_a_fact_citing_an_unknown_source_key_is_refused_at_its_line(tmp_path):
    from normandy_lab.history.facts import facts

    with pytest.raises(HistoryError, match=r":7: facts\[0\].source: unknown source key 'NOPE'"):
        facts([_one_fact(tmp_path, "1944-07-09", "NOPE")])


def test_a_record_file_that_is_a_list_says_so_at_line_1(tmp_path):
    path = tmp_path / "lodgement_x.yaml"
    path.write_text("- 1\n- 2\n", encoding="utf-8")
    with pytest.raises(HistoryError, match=r":1: the file is a list, not a mapping of fields"):
        records([path])


def test_a_marker_value_of_no_kind_names_the_kinds_it_may_be(tmp_path):
    study = Study("kg_1944-06-07_t02")
    saved = save_study(study, tmp_path / "kg.study.json")
    payload = json.loads(saved.read_text())
    payload["edits"] = [{"op": "marker", "name": "rail_capacity", "value": 2.0}]
    saved.write_text(json.dumps(payload))
    with pytest.raises(
        StudyError, match=r"2.0 is none of the kinds this value may be: .*a whole number.*write 2"
    ):
        load_study(saved)


def test_an_added_unit_of_an_independent_formation_says_so_and_loads():
    """The edit's independent_formation stands for a scenario's independent_formations (BfN 7.2)."""
    edit = _added(
        "X1",
        side="allied",
        nationality="UK",
        type="armor",
        size="battalion",
        formation="27th Armoured Brigade",
        hex="C2913",
        steps=3,
    )
    with pytest.raises(NormandyLabError, match="independent_formation: true"):
        Study(str(SMALL)).apply(edit)
    study = Study(str(SMALL))
    study.apply({**edit, "independent_formation": True})
    assert study.state.unit("X1").formation == "27th Armoured Brigade"


# ----------------------------------------------------------------------------- a third look, after the second fuzz


def test_a_study_title_that_could_not_reopen_is_refused_when_given():
    for title in (5, None, ["x"], "t\x1b[2J"):
        with pytest.raises(StudyError, match="a study's title is text"):
            Study(str(SMALL), title=title)


@pytest.mark.parametrize("name", ["kg_1944-06-19_t14", "cobra_1944-07-16_gt15", "gts_1944-06-08_0700"])
def test_the_air_edit_is_refused_by_a_game_without_air_points_by_map(name):
    with pytest.raises(NormandyLabError, match="keeps no air points by map sheet"):
        Study(name).apply({"op": "air", "allied": {"N": 3}})


def test_a_long_file_name_the_file_system_takes_can_be_saved_and_exported(tmp_path):
    from bokeh.plotting import figure

    from normandy_lab.views.export import save_html

    page = save_html(figure(), tmp_path / ("n" * 240 + ".html"))
    assert page.exists() and sorted(p.name for p in tmp_path.iterdir()) == [page.name]
    saved = save_study(Study(str(SMALL)), tmp_path / ("s" * 230 + ".study.json"))
    assert load_study(saved).edits == []


def test_a_study_of_another_format_version_is_not_replaced(tmp_path):
    target = tmp_path / "new.study.json"
    target.write_text(json.dumps({"format": "normandy_lab.study/2", "edits": []}))
    before = target.read_bytes()
    with pytest.raises(ExportRefusedError, match="another format"):
        save_study(Study(str(SMALL)), target)
    assert target.read_bytes() == before


def test_a_study_cannot_grow_past_the_units_a_scenario_may_hold(monkeypatch):
    import normandy_lab.engine.scenario as scenario_module

    study = Study(str(SMALL))
    monkeypatch.setattr(scenario_module, "MAX_UNITS", len(study.state.units))
    with pytest.raises(NormandyLabError, match="at most"):
        study.apply(_added("X9", type="infantry", size="battalion", hex="C3516", steps=3))


def test_a_file_of_millions_of_tiny_values_is_refused_while_being_read():
    from normandy_lab.yamllines import MAX_EVENTS

    text = SMALL.read_text(encoding="utf-8") + "off_map:\n" + "-\n" * (MAX_EVENTS + 10)
    with pytest.raises(ScenarioError, match=f"more than {MAX_EVENTS:,} values"):
        load_scenario_text(text, "tiny.yaml")


def test_control_characters_written_as_yaml_escapes_are_refused(tmp_path):
    text = SMALL.read_text(encoding="utf-8").replace(
        'name: "12.5.4 example', 'name: "12.5.4\\e[2J example', 1
    )
    path = tmp_path / "escaped.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"escaped.yaml:\d+: name: .*control character"):
        nl.load_scenario(path)


def test_a_study_or_a_notebook_opened_as_a_scenario_says_what_it_is(tmp_path):
    saved = save_study(Study(str(SMALL)), tmp_path / "a.study.json")
    with pytest.raises(ScenarioError, match=r"this is a study, not a scenario; open it with nl\.load_study"):
        nl.load_scenario(saved)
    notebook = tmp_path / "n.ipynb"
    notebook.write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    with pytest.raises(ScenarioError, match="this is a Jupyter notebook"):
        nl.load_scenario(notebook)


def test_side_by_side_given_one_game_says_so():
    with pytest.raises(NormandyLabError, match="1 game given \\(kg\\); side by side needs two or more"):
        nl.side_by_side("1944-06-19", scenarios={"kg": "kg_1944-06-19_t14"})


def test_a_bfn_beachhead_is_one_of_the_five_beaches(tmp_path):
    """7.4: the beachheads are the landing beaches; 'Banana' loaded as a supply source."""
    path = _scenario_with(tmp_path, "bfn_1944-06-13_am", "name: Utah", "name: Banana")
    with pytest.raises(ScenarioError, match=r"beachheads\[0\].name: 'Banana' is not allowed"):
        nl.load_scenario(path)
