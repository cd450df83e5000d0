"""The rule systems side by side on a shared date (issue 19): one key a formation, each game's verdicts."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import normandy_lab as nl
from normandy_lab.sidebyside import scenarios_on, side_by_side
from normandy_lab.sidebyside.formations import formation_key


def _unit(formation, side="german", nationality="DE"):
    return SimpleNamespace(formation=formation, side=side, nationality=nationality)


@pytest.mark.parametrize(
    ("names", "key"),
    [
        (["352. Infanterie-Division", "352 ID"], "DE 352 div"),
        (["12. SS-Panzer-Division Hitlerjugend", "12 SS Pz"], "DE 12 SS pz div"),
        (["2. Panzer-Division", "2 Pz"], "DE 2 pz div"),
        (["3. Fallschirmjäger-Division", "3 FJ", "3 FsJg Div"], "DE 3 para div"),
        (["Panzer-Lehr-Division", "Lehr Pz", "Pz Lehr"], "DE lehr pz div"),
        (["Fallschirmjäger-Regiment 6", "6 FsJg Rgt"], "DE 6 rgt"),
    ],
)
def test_one_key_for_a_german_formation_however_a_game_writes_it(names, key):
    assert {formation_key(_unit(n)) for n in names} == {key}


def test_allied_formations_keep_their_nation_and_kind_apart():
    us = {formation_key(_unit(n, "allied", "US")) for n in ("2nd Armored Division", "2 AD")}
    assert us == {"US 2 armd div"}
    assert formation_key(_unit("2 ID", "allied", "US")) == "US 2 inf div"
    assert formation_key(_unit("3 CID", "allied", "CA")) == formation_key(
        _unit("3rd Canadian Infantry Division", "allied", "CA")
    )
    assert formation_key(_unit("3 ID", "allied", "UK")) == "UK 3 inf div"
    assert (
        formation_key(_unit("1 SS Bde", "allied", "UK"))
        == formation_key(_unit("1st Special Service Brigade", "allied", "UK"))
        == "UK 1 commando bde"
    )
    assert (
        formation_key(_unit("6th Airborne Division", "allied", "CA")) == "UK 6 airborne div"
    )  # its Canadians


def test_the_dates_several_games_cover():
    assert scenarios_on("1944-06-07", stepped=False) == {
        "bfn": "bfn_1944-06-07_am",
        "kg": "kg_1944-06-07_t02",
    }
    assert scenarios_on("1944-06-19", stepped=False) == {
        "bfn": "bfn_1944-06-19_am",
        "kg": "kg_1944-06-19_t14",
    }
    assert scenarios_on("1944-07-18", stepped=False) == {
        "bfn": "bfn_1944-07-18_am",
        "cobra": "cobra_1944-07-16_gt15",  # GT 15 is 16-18 July
    }
    on_8 = scenarios_on("1944-06-08")
    assert on_8["gts"] == "gts_1944-06-08_0700" and on_8["kg"] == "kg_1944-06-07_t02+1"  # Turn 3
    with pytest.raises(ValueError, match="dates two games cover"):
        side_by_side("1944-08-07")


@pytest.fixture(scope="module")
def july18():
    return side_by_side("1944-07-18")


def test_each_game_s_row_is_its_own_supply_by_formation(july18):
    for name in july18.scenarios.values():
        state = nl.load_scenario(name)
        report = nl.supply(state)
        rows = july18.table[july18.table["scenario"] == name].set_index("key")
        for key, row in rows.iterrows():
            units = [u for u in state.units if u.status == "active" and formation_key(u) == key]
            assert row["units"] == len(units)
            assert row["in_supply"] == sum(report[u.id].general for u in units)
            out = sorted(u.id for u in units if not report[u.id].general)
            assert row["out_units"] == ", ".join(out)


def test_disagreements_name_the_rules_behind_each_game_s_verdicts():
    june7 = side_by_side("1944-06-07")
    table = june7.disagreements()
    assert len(table) and {"bfn", "kg", "bfn rules", "kg rules"} <= set(table.columns)
    row = table.set_index("key").loc["DE 91 div"]  # 91. LL: BfN's HQ ranges against KG's city supply
    assert "26.11.2" in row["kg rules"] and "in supply" in row["bfn"]
    for _, r in table.iterrows():
        shares = {s: tuple(int(x) for x in r[s].split(" ")[0].split("/")) for s in ("bfn", "kg") if r[s]}
        if len(shares) == 2:
            full = [a == b for a, b in shares.values()]
            assert any(full) != all(full) or len({a / b for a, b in shares.values()}) == 2


def test_the_figure_draws_each_game_over_the_front(july18):
    fig = july18.figure()
    markers = {r.glyph.marker for r in fig.renderers if hasattr(r.glyph, "marker")}
    assert {"circle", "square"} <= markers  # BfN and Cobra
    assert "18 July 1944" in fig.title.text


# -- what kind of disagreement (issue 31, section 3) -----------------------------------------------------


def _rows(*games):
    """A formation's rows, one a game: (system, share in, out_why, rules, supplied_by, lon, lat, positions)."""
    import pandas as pd

    cols = ("system", "share_in", "out_why", "rules", "supplied_by", "lon", "lat", "positions")
    return pd.DataFrame([dict(zip(cols, g, strict=True)) for g in games])


def test_classify_tells_a_rule_difference_from_a_set_up_difference_and_an_artefact():
    from normandy_lab.sidebyside import classify

    here = "the set-up of 07 June (AM)"
    same_place = _rows(
        ("bfn", 0.5, "rules", "7.3.1", "7.3.1 (division HQ)", -0.80, 49.30, here),
        ("kg", 1.0, "", "", "26.11.1 (exempt)", -0.81, 49.30, here),
    )
    kind, why = classify(same_place)
    assert kind == "rule difference" and "bfn: out by 7.3.1" in why and "kg: in by 26.11.1 (exempt)" in why
    apart = _rows(
        ("bfn", 0.5, "rules", "7.3.1", "7.3.1 (division HQ)", -0.80, 49.30, here),
        ("kg", 1.0, "", "", "26.11.1 (exempt)", -0.70, 49.30, here),  # about 7 km east
    )
    kind, why = classify(apart)
    assert kind == "set-up difference" and "7 km apart" in why
    placed = _rows(
        ("bfn", 0.5, "setup", "7.3.1", "", -0.80, 49.30, here),
        ("kg", 1.0, "", "", "26.11.1 (exempt)", -0.80, 49.30, here),
    )
    assert classify(placed)[0] == "set-up difference"
    derived = _rows(
        ("bfn", 1.0, "", "", "7.3.1 (division HQ)", -0.80, 49.30, here),
        ("kg", 0.0, "map", "26.11.2 [derived map]", "", -0.80, 49.30, here),
    )
    kind, why = classify(derived)
    assert kind == "map/reconstruction artefact" and "kg: out by 26.11.2 [derived map]" in why


def test_an_artefact_is_never_presented_as_a_rule_difference_and_rules_come_first():
    from normandy_lab.sidebyside import KINDS

    table = side_by_side("1944-06-07").disagreements()
    assert set(table["kind"]) <= set(KINDS) and table["why"].str.len().min() > 0
    order = [KINDS.index(k) for k in table["kind"]]
    assert order == sorted(order)  # the designers' models first
    by_key = table.set_index("key")
    for key in ("DE 352 div", "DE 709 div", "DE 91 div"):  # KG's verdicts rest on its derived city hexes
        assert by_key.loc[key, "kind"] == "map/reconstruction artefact"
        assert "derived map" in by_key.loc[key, "why"]
    rules = table[table["kind"] == "rule difference"]
    assert not rules["why"].str.contains("derived map").any()


def test_a_rule_difference_names_each_game_s_rule():
    table = side_by_side("1944-06-19").disagreements()
    rules = table[table["kind"] == "rule difference"]
    assert len(rules)
    for why in rules["why"]:
        assert "bfn: " in why and "kg: " in why  # both designers' rules, out or in


def test_a_stepped_scenario_says_so_in_the_table_and_on_the_map():
    june8 = side_by_side("1944-06-08")
    kg = june8.table[june8.table["system"] == "kg"]
    assert kg["positions"].str.contains("kg_1944-06-07_t02 stepped one turn into 08 June").all()
    gts = june8.table[june8.table["system"] == "gts"]
    assert gts["positions"].str.startswith("the set-up of 08 June").all()
    assert "stepped: units where its set-up put them" in june8.figure().title.text


def test_every_date_the_docs_promise_has_two_games():
    """docs/studies.md names the dates two games share; each is covered (16 and 17 July are not promised)."""
    from pathlib import Path

    text = Path(__file__).resolve().parents[1].joinpath("docs", "studies.md").read_text(encoding="utf-8")
    assert "share 7 and 19 June, and BfN and Cobra share 18 July" in text
    for day in ("1944-06-07", "1944-06-19", "1944-07-18", "1944-06-08"):
        assert len(scenarios_on(day)) >= 2, day
    for day in ("1944-07-16", "1944-07-17"):
        with pytest.raises(ValueError, match=r"dates two games cover: .*1944-07-18"):
            side_by_side(day)


def test_a_game_registered_later_gets_its_own_marker_and_its_title():
    """The side-by-side figure draws any registered game: no table of the four keys to extend (issue 32).

    A game whose look names a marker (the toy on its own map: a star) is drawn with it; a game whose look
    names none gets one that no other game has.  (It used to register a bare rule system on BfN's map, which
    is shown as BfN, with BfN's marker: it passed only after another test had registered the toy game.)
    """
    import dataclasses
    import sys
    from pathlib import Path

    from normandy_lab import rules
    from normandy_lab.sidebyside import marker_of, system_name

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import toy_game  # registers the toy game, with its own look

    plain = dataclasses.replace(toy_game.GAME, key="toy_plain", title="Toy, plain", look=None, map_data=None)
    rules.register_game(plain)
    try:
        keys = ("bfn", "cobra", "kg", "gts", "toy", "toy_plain")
        markers = [marker_of(k) for k in keys]
        assert len(set(markers)) == len(keys), markers  # the plain toy's is one no other game has
        assert marker_of("toy") == toy_game.LOOK.marker
        assert system_name("toy") == rules.get("toy").title and system_name("kg") == rules.get("kg").title
    finally:
        rules.unregister_game("toy_plain")
