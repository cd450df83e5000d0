"""A variant of BfN on BfN's map, under a key of its own (issue 32, section 1).

"A map may be shared by several games, so a variant on BfN's map can be registered under its own key,
named in a scenario's ``system:`` and saved as a study."  The variant here is BfN with an 8-hex (8 MP)
unit supply range instead of 6 (7.3.1), registered as ``bfn_wide`` with BfN's handle (map, look, format)
and other rules.  The module's fixture registers it and unregisters it afterwards, so the other tests (the
JSON Schema export, the snapshot) see the four shipped games alone.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
from pathlib import Path

import pytest

import normandy_lab as nl
from normandy_lab import rules
from normandy_lab.engine.scenario import scenario_path

KEY = "bfn_wide"
# 7th Armoured's 5 RTR on 13 June: 8 hexes or 11 MP from its division HQ (7.3.1 allows BfN 6 or 6).
UNIT = "UK-7AD-5RTR"
REPO = Path(__file__).resolve().parent.parent


def _wide_game() -> rules.Game:
    bfn = rules.get("bfn")
    wide = dataclasses.replace(
        bfn, supply={**bfn.supply, "unit_range_hexes": 8, "unit_range_mp": 8}, variant="8-hex unit range"
    )
    return dataclasses.replace(rules.game("bfn"), key=KEY, title="BfN, 8-hex range", rules=wide)


@pytest.fixture(scope="module")
def wide_file(tmp_path_factory):
    """BfN's 13 June scenario naming the variant in ``system:``, with the variant registered meanwhile."""
    text = scenario_path("bfn_1944-06-13_am").read_text(encoding="utf-8")
    assert re.search(r"^system: bfn$", text, re.M)
    path = tmp_path_factory.mktemp("variant") / "bfn_wide_1944-06-13_am.yaml"
    path.write_text(re.sub(r"^system: bfn$", f"system: {KEY}", text, count=1, flags=re.M), encoding="utf-8")
    rules.register_game(_wide_game())
    try:
        yield path
    finally:
        rules.unregister_game(KEY)
    assert KEY not in rules.available()


def test_its_scenario_file_loads_under_its_key_and_its_rules_decide(wide_file):
    state = nl.load_scenario(wide_file)
    assert (state.system, state.game) == ("bfn", KEY)
    assert state.rules is rules.get(KEY) and state.rules.supply["unit_range_hexes"] == 8
    assert rules.get("bfn").supply["unit_range_hexes"] == 6  # BfN keeps its own rules under its key
    as_bfn = nl.supply(nl.load_scenario("bfn_1944-06-13_am"))[UNIT]
    assert not as_bfn.general and as_bfn.rule == "7.3.1"
    assert "8 hexes" in as_bfn.reason and "the limit is 6 hexes or 6 MP" in as_bfn.reason
    as_wide = nl.supply(state)[UNIT]
    assert as_wide.general and as_wide.length_hexes == 8  # inside the variant's 8 hexes
    # the variant is read by BfN's format: its section (beachheads, air points) is read as BfN's
    assert state.markers == nl.load_scenario("bfn_1944-06-13_am").markers


def test_the_formats_schema_accepts_the_keys_of_the_games_that_read_it(wide_file):
    from pydantic import ValidationError

    schema = rules.scenario_schema(KEY)
    assert rules.scenario_schema("bfn") is schema  # one model for BfN's files, either key
    assert schema.model_fields["system"].annotation.__args__ == ("bfn", KEY)  # from the registry
    assert issubclass(schema, rules.scenario_format("bfn").scenario_schema())
    data = {"system": KEY, "name": "x", "date": "1944-06-13", "turn": "AM", "units": []}
    with pytest.raises(ValidationError) as refused:  # another game's key is still refused by BfN's
        schema.model_validate({**data, "system": "cobra"})
    assert any(e["loc"] == ("system",) for e in refused.value.errors())
    # a game with a format of its own is not widened by BfN's variant
    assert rules.scenario_schema("cobra").model_fields["system"].annotation.__args__ == ("cobra",)


def test_it_opens_in_the_explorer_and_side_by_side_with_bfn(wide_file):
    from normandy_lab.sidebyside import side_by_side
    from normandy_lab.views.explorer import Explorer

    explorer = Explorer(str(wide_file))
    assert explorer.state.game == KEY and explorer.system == "bfn"
    assert explorer.sectors() == Explorer("bfn_1944-06-13_am").sectors()  # BfN's look
    both = side_by_side("1944-06-13", scenarios={"bfn": "bfn_1944-06-13_am", KEY: str(wide_file)})
    table = both.table
    assert set(table["system"]) == {"bfn", KEY}
    # 7th Armoured Division: 5 RTR out of supply under BfN, in supply under the variant (8H, 9 hexes, is
    # out under both)
    armour = table[table["formation"] == "7th Armoured Division"].set_index("system")
    assert UNIT in armour.loc["bfn", "out_units"] and UNIT not in armour.loc[KEY, "out_units"]
    assert armour.loc[KEY, "in_supply"] == armour.loc["bfn", "in_supply"] + 1


def test_a_study_round_trips_under_its_key(wide_file, tmp_path):
    study = nl.Study(str(wide_file))
    assert study.apply({"op": "weather", "weather": "Storm"}), "a weather edit applies"
    path = nl.save_study(study, tmp_path / "wide.json")
    again = nl.load_study(path)
    assert again.state.game == KEY and again.state.weather == "Storm"
    assert {r.unit_id for r in nl.supply(again.state).out_of_supply()} == {
        r.unit_id for r in nl.supply(study.state).out_of_supply()
    }
    # the same edits on BfN's own file lead elsewhere: the study's fingerprint holds the key
    plain = nl.Study("bfn_1944-06-13_am")
    plain.apply({"op": "weather", "weather": "Storm"})
    from normandy_lab.engine.study import fingerprint

    assert fingerprint(plain.state) != fingerprint(again.state)


def test_a_study_of_it_is_refused_clearly_where_it_is_not_registered(wide_file, tmp_path):
    path = nl.save_study(nl.Study(str(wide_file)), tmp_path / "wide.json")
    rules.unregister_game(KEY)
    try:
        with pytest.raises(nl.StudyError) as refused:
            nl.load_study(path)
    finally:
        rules.register_game(_wide_game())
    said = str(refused.value)
    assert said.startswith(f"{path}: ")  # the study file
    assert f"{wide_file}:19: system: '{KEY}' is not allowed (no game is registered under it)" in said
    assert "register the game first" in said and "'bfn'" in said  # what to do


def test_the_json_schemas_of_the_shipped_games_stay_as_exported(wide_file):
    """schemas/*.schema.json byte for byte with only the shipped games; BfN's kind takes both keys meanwhile."""
    from normandy_lab.schemas import json_schema

    with_variant = json_schema("scenario")["properties"]["system"]
    assert with_variant.get("enum") == ["bfn", KEY]
    rules.unregister_game(KEY)
    try:
        for kind in ("scenario", "scenario_cobra", "scenario_kg", "scenario_gts"):
            written = (REPO / "schemas" / f"{kind}.schema.json").read_text(encoding="utf-8")
            assert json.dumps(json_schema(kind), indent=2) + "\n" == written, kind
        assert rules.scenario_schema("bfn") is rules.scenario_format("bfn").scenario_schema()
    finally:
        rules.register_game(_wide_game())


def test_the_walk_through_in_the_docs_runs_as_written(wide_file, tmp_path):
    """docs/rule-systems.md section 3's variant block, run as written in an empty folder (its asserts hold)."""
    text = (REPO / "docs" / "rule-systems.md").read_text(encoding="utf-8")
    section = text.split("**A variant on BfN's map, walked through.**", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert 'rules.register_game(' in code and "rules.unregister_game" in code
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        exec(compile(code, "docs/rule-systems.md", "exec"), {})
    finally:
        os.chdir(cwd)
        rules.register_game(_wide_game())  # the block ends by unregistering it: as the fixture left it
    assert (tmp_path / "wide.json").is_file()
