"""Cobra (Decision Games 2019, v5) as a rule system (issue 16): each test named by the rule it holds.

The 10.3 worked example is encoded on a hand-made line of hexes (the rule's logic) here; the readings
10.3 leaves open are tried both ways; the zones of control of 7.0 on the real map; the Alternate Cobra
set-up (17.2) and the Campaign's GT 1 (17.3) as scenarios.
"""

from __future__ import annotations

import datetime as dt
import html
import itertools
import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from cobra_support import cobra_unit

import normandy_lab as nl
from normandy_lab.engine.layered import LayeredGraph
from normandy_lab.engine.lines import Situation, blocked_mask
from normandy_lab.engine.reasons import CUT_OFF, EXEMPT
from normandy_lab.engine.scenario import ScenarioError, load_scenario_text, scenario_path
from normandy_lab.engine.state import Unit
from normandy_lab.engine.zoc import zoc_mask
from normandy_lab.rules import get
from normandy_lab.rules.cobra.data import turn_dates, turn_of
from normandy_lab.rules.cobra.metric import N_LAYERS, LineEdges, count_of, line_moves

# -- the calendar (2.4, 17.1-17.3) ---------------------------------------------------------------


def test_2_4_the_calendar_holds_every_anchor_of_the_text():
    assert turn_dates(1) == (dt.date(1944, 6, 6), dt.date(1944, 6, 6))  # 17.3: GT 1 is 6 June
    assert turn_dates(15) == (dt.date(1944, 7, 16), dt.date(1944, 7, 18))  # 17.1: GT 15 is 16-18 July
    assert turn_dates(27) == (dt.date(1944, 8, 21), dt.date(1944, 8, 23))  # 17.3: GT 27 is 21-23 August
    assert turn_dates(28) == (dt.date(1944, 8, 24), dt.date(1944, 8, 26))  # 17.3: GT 28 is 24-26 August
    day = dt.date(1944, 6, 6)
    while day <= dt.date(1944, 8, 26):  # every day falls in exactly the turn whose dates hold it
        first, last = turn_dates(turn_of(day))
        assert first <= day <= last
        day += dt.timedelta(days=1)


def test_a_turn_that_does_not_hold_the_date_is_refused_with_the_right_one():
    cobra = get("cobra")
    assert cobra.turn_problem(dt.date(1944, 7, 17), "GT 15") is None
    problem, fix = cobra.turn_problem(dt.date(1944, 7, 20), "GT 15")
    assert "GT 16" in problem and "GT 16" in fix


# -- the line of supply (10.3), on a hand-made line of hexes ----------------------------------------


def _strip(kinds: list[str]):
    """A row of hexes 0..n joined both ways; ``kinds[i]`` describes the step i -> i+1 (and back).

    A kind is a road class (``major``, ``minor``) or ``off``, with the terrain of the hex entered
    (``bocage``, ``marsh``) and ``river`` for a major river on the hexside, joined by ``+``.
    """
    n = len(kinds) + 1
    src = np.r_[np.arange(n - 1), np.arange(1, n)]
    dst = np.r_[np.arange(1, n), np.arange(n - 1)]
    step = kinds + kinds  # the way back crosses the same hexsides

    def has(word):
        return np.array([word in k.split("+") for k in step])

    # The terrain of the hex entered: forward, that of i+1; backward, that of i (the step before it).
    terrain_fwd = [k.split("+") for k in kinds]
    terrain_back = [["off"], *terrain_fwd[:-1]]
    entered = terrain_fwd + terrain_back
    edges = LineEdges(
        major_road=has("major"),
        minor_road=has("minor"),
        major_river=has("river"),
        closed=has("closed"),
        bocage=np.array(["bocage" in t for t in entered]),
        marsh=np.array(["marsh" in t for t in entered]),
    )
    return n, src, dst, edges


def _count(kinds: list[str], **readings) -> int:
    n, src, dst, edges = _strip(kinds)
    graph = LayeredGraph(n, N_LAYERS, src, dst, line_moves(edges, **readings))
    dist, _ = graph.search(graph.in_every_layer(np.array([n - 1])), graph.node_mask(np.zeros(n, dtype=bool)))
    best, _ = graph.from_origins(dist, graph.node_mask(np.zeros(n, dtype=bool)), np.array([0]))
    return int(count_of(best[0]))


def test_10_3_the_worked_example_counts_9():
    # A1212 -> A1312 (bocage, off road: 2) -> six hexes along a minor road to A1809 (6)
    # -> eleven hexes along the major road to Isigny (1): 9, within 12.
    kinds = ["off+bocage"] + ["minor+bocage"] * 6 + ["major"] * 11
    assert _count(kinds) == 9
    assert _count(kinds, major_road="per_line") == 9  # one run: both readings agree


def test_10_3e_a_minor_road_counts_1_a_hex_whatever_the_terrain_and_10_3d_bocage_off_road_2():
    assert _count(["minor+bocage"] * 4) == 4
    assert _count(["off+bocage"] * 4) == 8
    assert _count(["off"] * 4) == 4


def test_10_3f_each_major_road_run_counts_1_or_the_whole_line_1_by_reading():
    kinds = ["major"] * 5 + ["minor"] + ["major"] * 5  # two runs parted by one minor-road hex
    assert _count(kinds) == 1 + 1 + 1  # per run (default)
    assert _count(kinds, major_road="per_line") == 1 + 1


def test_10_3g_a_major_river_crossed_off_road_counts_6_in_all_or_on_top_by_reading():
    assert _count(["off+river+bocage"]) == 6
    assert _count(["off+river+bocage"], major_river="adds") == 8
    assert _count(["minor+river+bocage"]) == 1  # along a road, the river costs nothing


def test_10_3b4_at_most_one_marsh_hex_off_the_roads():
    assert _count(["off+marsh", "off"]) == 2
    assert _count(["off+marsh", "off+marsh"]) >= 10**9  # no line
    assert _count(["off+marsh", "minor+marsh", "major+marsh"]) == 3  # road hexsides do not spend it


def test_10_3b3_a_closed_hexside_stops_a_line():
    assert _count(["off", "off+closed", "off"]) >= 10**9


def test_the_readings_are_checked():
    with pytest.raises(ValueError, match="per_run, per_line"):
        _count(["off"], major_road="per_hex")


# -- zones of control (7.0) on the real map -------------------------------------------------------


_unit = cobra_unit  # one builder for the Cobra test modules (tests/cobra_support.py)


def test_7_0_hqs_battalions_and_flak_exert_no_zoc_and_hqs_negate_none():
    cobra = get("cobra")
    assert cobra.exerts_zoc(_unit("R", "german", "A3403"))
    assert not cobra.exerts_zoc(_unit("B", "german", "A3403", size="battalion", steps=1))
    assert not cobra.exerts_zoc(_unit("F", "german", "A3403", type="flak"))
    assert not cobra.exerts_zoc(
        _unit("H", "german", "A3403", type="hq", size="corps_hq", hq="corps", steps=1)
    )
    assert cobra.negates_ezoc(_unit("R", "allied", "A3403"))
    assert not cobra.negates_ezoc(
        _unit("H", "allied", "A3403", type="hq", size="corps_hq", hq="corps", steps=1)
    )


def test_7_0a_7_0b_no_zoc_across_a_major_river_nor_into_caen(gt15):
    g = nl.grid("cobra")
    state = gt15.evolve(units=(_unit("DE-X", "german", "A3403"), _unit("DE-Y", "german", "B1209")))
    zoc = zoc_mask(state, "german")
    assert not zoc[g.index("A3504")]  # a city hex of Caen (7.0b)
    assert zoc[g.index("A3503")] and zoc[g.index("A3404")]
    assert not zoc[g.index("B1310")]  # across the Douve, a major river (7.0a)


def test_7_0i_an_hq_alone_does_not_open_an_ezoc_for_lines_a_combat_unit_does(gt15):
    g = nl.grid("cobra")
    german = _unit("DE-X", "german", "A3403")
    hq = _unit("US-HQ", "allied", "A3503", type="hq", size="corps_hq", hq="corps", steps=1)
    state = gt15.evolve(units=(german, hq))
    assert blocked_mask(state, "allied", Situation.of(state))[g.index("A3503")]
    state = gt15.evolve(units=(german, replace(hq, type="infantry", size="regiment", hq=None, steps=2)))
    assert not blocked_mask(state, "allied", Situation.of(state))[g.index("A3503")]


# -- the scenarios (17.2, 17.3) ---------------------------------------------------------------


def test_17_2_alternate_cobra_sets_up_every_printed_unit(gt15):
    sides = {side: len(gt15.units_of(side)) for side in ("allied", "german")}
    assert sides == {"allied": 56, "german": 83}
    assert gt15.turn == "GT 15" and gt15.maps == frozenset({"A", "B"})
    assert gt15.markers["supply_points"] == {"US": 3, "UK": 4, "DE": 4}
    assert gt15.markers["army_boundary"] == 24
    assert gt15.unit("UK-XII-CORPS").hex == "A3103"  # 17.1: "the counters are correct"


def test_17_2_every_out_of_supply_verdict_is_expected_with_its_reason(gt15):
    report = nl.supply(gt15)
    out = {uid for uid, row in report.units.items() if not row.general}
    assert out == {e.unit_id for e in gt15.expected_now()}


def test_17_3_6_everyone_is_in_supply_without_a_line_on_the_campaigns_gt_1():
    state = nl.load_scenario("cobra_1944-06-06_gt01")
    report = nl.supply(state)
    assert all(row.general and row.code == EXEMPT and "17.3.6" in row.rule for row in report.units.values())


def test_a_line_in_supply_is_reported_in_the_words_of_the_10_3_example(gt15):
    report = nl.supply(gt15)
    row = report["CA-3-ID"]
    assert row.general and row.path[0] == gt15.unit("CA-3-ID").hex and row.traced_kind == "source"
    assert row.traced_to.startswith(f"source at {row.path[-1]}") and "10.5" in row.traced_to
    assert int(row.length_hexes) <= 12 and row.readings == {
        "major_road": "per_run",
        "major_river": "replaces",
    }


def test_a_cut_off_reason_is_true_removing_what_it_names_restores_supply(gt15):
    moved = {"US-30-ID": "A1112", "US-35-ID": "A1810", "UK-3-ID": "A3910", "UK-4-ARMBDE": "A4520"}
    state = gt15.evolve(units=tuple(replace(u, hex=moved.get(u.id, u.hex)) for u in gt15.units))
    report = nl.supply(state)
    tried = 0
    for uid in moved:
        row = report[uid]
        assert not row.general and row.code == CUT_OFF and row.isolated
        if "the line would count" not in row.reason:
            continue  # the reason says opening the way would not be enough: nothing to restore
        named = {u for b in row.blocks for u in b.units}
        assert named, row.reason
        without = state.evolve(units=tuple(u for u in state.units if u.id not in named))
        assert nl.supply(without)[uid].general, (uid, row.reason)
        tried += 1
    assert tried


def test_a_cobra_scenario_with_too_many_steps_is_refused_at_its_line():
    text = """
format: normandy_lab.scenario/1
system: cobra
name: bad
date: 1944-07-16
turn: GT 15
units:
  - {id: DE-1, name: one, side: german, nationality: DE, type: infantry, size: regiment, hex: A3403, steps: 3}
"""
    with pytest.raises(ScenarioError, match=r"<text>:8: units\[0\]\.steps: 3 is more than a regiment has"):
        load_scenario_text(text)
    with pytest.raises(ScenarioError, match="GT 16"):
        load_scenario_text(text.replace("steps: 3", "steps: 2").replace("1944-07-16", "1944-07-19"))


# -- weather (5.3) -------------------------------------------------------------------------------


def test_5_3a_the_worked_example_clear_then_storm_on_column_c():
    from normandy_lab.rules.cobra.weather import determine, modifier

    history = ["Overcast", "Clear", "Clear", "Clear"]  # GTs 18, 19 and 20 clear
    gt21 = determine(21, history, die=5)
    assert (gt21.column, gt21.drm, gt21.weather) == ("C", -1, "Clear")  # 5 - 1 = 4: clear
    history.append(gt21.weather)
    assert modifier(history) == -2
    gt22 = determine(22, history, die=2)
    assert (gt22.die + gt22.drm, gt22.weather) == (0, "Storm")  # below the lowest entry, 1: storm
    history.append(gt22.weather)
    assert modifier(history) == 0  # the run is broken: no more modifier


def test_5_3_fixed_turns_three_storms_and_the_columns():
    from normandy_lab.rules.cobra.weather import column, determine

    assert determine(1, [], None, started_on_gt1=True).weather == "Clear"
    assert determine(2, ["Clear"], None, started_on_gt1=True).weather == "Overcast"
    assert determine(6, ["Clear", "Overcast", "Clear", "Clear", "Overcast"], None).weather == "Storm"
    assert determine(9, ["Storm", "Storm", "Storm"], None).weather == "Overcast"
    assert column(8, ["Clear", "Storm", "Storm"]) == "B" and column(8, ["Storm"]) == "A"
    assert column(20, ["Storm", "Storm"]) == "C"


@pytest.mark.parametrize(("weather", "in_supply", "ma"), [
    ("Storm", True, 6), ("Overcast", True, 4), ("Clear", True, 2),  # 5.3b example: 6 / 4 / 2
    ("Storm", False, 3), ("Overcast", False, 2), ("Clear", False, 1),  # halved first, then rounded up
])  # fmt: skip
def test_5_3b_weather_takes_its_share_of_german_movement_after_supply(gt15, weather, in_supply, ma):
    cobra = get("cobra")
    unit = _unit("DE-X", "german", "A3403", ma=6)
    assert cobra.movement_allowance(gt15.evolve(weather=weather), unit, in_supply, False) == ma
    allied = _unit("US-X", "allied", "A1203", ma=6)
    assert cobra.movement_allowance(gt15.evolve(weather="Clear"), allied, in_supply, False) == (
        6 if in_supply else 3
    )


def test_5_3_a_new_game_turn_rolls_its_weather_from_the_seeded_generator(gt15):
    from normandy_lab.engine.sequence import next_phase

    state = gt15
    for _ in range(len(get("cobra").sequence["GT 15"])):
        state = next_phase(state)
    assert state.turn == "GT 16" and state.date == dt.date(1944, 7, 19)
    assert state.markers["weather_history"] == (gt15.weather,)
    assert state.markers["weather_roll"].startswith("column A: ") and state.draws == gt15.draws + 1
    again = gt15
    for _ in range(len(get("cobra").sequence["GT 15"])):
        again = next_phase(again)
    assert again.weather == state.weather and again.markers["weather_roll"] == state.markers["weather_roll"]
    assert "5.3b" in get("cobra").phase_results(state, get("cobra").sequence["GT 16"][0])["german_ma"]


def test_5_3c_after_an_allied_unit_exits_the_germans_move_more(gt15):
    cobra = get("cobra")
    unit = _unit("DE-X", "german", "A3403", ma=6)
    exited = gt15.evolve(allied_exited=True)
    assert cobra.movement_allowance(exited.evolve(weather="Clear"), unit, True, False) == 4
    assert cobra.movement_allowance(exited.evolve(weather="Overcast"), unit, True, False) == 6


def test_17_2_alternate_cobra_against_the_historical_front_of_its_date(gt15):
    """GT 15 is 16-18 July: it is scored against the records made within it (17 and 18 July), not the 12 July
    one in force before it began.  The implied front lies within 3 km of the line on average; 17.2 redrew the
    front to suit the game, and four German regiments it sets north of the Ay stand 4.8-7.8 km inside the
    ground the Americans held: they are flagged, not explained away."""
    import datetime as dt

    from normandy_lab.history.compare import compare_with_history

    result = compare_with_history(gt15)
    assert result.bracket_dates == (dt.date(1944, 7, 17), dt.date(1944, 7, 18))
    assert result.mean_km <= 3.0, result.summary()
    astray = {w["unit"]: w["distance_km"] for w in result.unexplained}
    assert set(astray) == {"DE-1057-91", "DE-1058-91", "DE-920-243", "DE-921-243"}, result.summary()
    assert all(4.5 <= km <= 8.0 for km in astray.values()) and "DE-920-243" in result.summary()


# -- air power and carpet bombing (14.0-14.3) ------------------------------------------------------


def test_14_3_a_carpet_bombing_planned_in_one_turn_flies_in_the_next_if_clear(gt15):
    from normandy_lab.engine.edits import apply_edit, set_weather

    cobra = get("cobra")
    planned = apply_edit(
        nl.step_to(gt15, "Allied Combat"), {"op": "marker", "name": "carpet_plan", "value": "A1305"}
    )
    assert planned.markers["carpet_plan"] == {"hex": "A1305", "gt": 15}  # Panzer Lehr's hex, 14.3a
    gt16 = nl.step_to(planned, "Weather & German Supply")
    assert gt16.turn == "GT 16"
    clear = nl.step_to(set_weather(gt16, "Clear"), "Allied Combat")
    assert clear.markers["carpet_done"] == {"hex": "A1305", "gt": 16} and clear.markers["carpet_plan"] is None
    assert clear.markers["carpet_missions"]["late"] == 1  # 14.3f: from GT 15, two more allowed
    from normandy_lab.engine.sequence import current_phase

    said = cobra.phase_results(clear, current_phase(clear))
    assert "6:1" in said["carpet_bombing"] and said["air_points"].startswith("6 AP")
    # 14.3i: an Allied unit entering the bombed hex in the Mechanized Movement Phase moves no farther.
    mech = nl.step_to(clear, "Allied Mechanized Movement")
    assert cobra.move_stops(mech, mech.unit("US-30-ID"))[nl.grid("cobra").index("A1305")]
    assert cobra.move_stops(clear, clear.unit("US-30-ID")) is None  # only in that phase
    assert cobra.move_stops(mech, mech.unit("DE-130-LEHR")) is None  # only Allied units


def test_14_3b_not_clear_the_mission_is_cancelled_and_not_counted(gt15):
    from normandy_lab.engine.edits import apply_edit, set_weather

    planned = apply_edit(
        nl.step_to(gt15, "Allied Combat"), {"op": "marker", "name": "carpet_plan", "value": "A1305"}
    )
    gt16 = nl.step_to(planned, "Weather & German Supply")
    cloudy = nl.step_to(set_weather(gt16, "Overcast"), "Allied Combat")
    assert cloudy.markers["carpet_done"] is None and cloudy.markers["carpet_plan"] is None
    assert cloudy.markers["carpet_missions"] == {"early": 0, "late": 0}
    assert "not clear (14.3b)" in cloudy.log[-1]


def test_14_3a_a_mission_is_planned_only_in_an_allied_combat_phase(gt15):
    from normandy_lab.engine.edits import apply_edit
    from normandy_lab.errors import RefusedError

    with pytest.raises(RefusedError, match=r"14\.3a"):
        apply_edit(gt15, {"op": "marker", "name": "carpet_plan", "value": "A1305"})
    with pytest.raises(RefusedError, match="Cobra lets no edit set 'csp'"):
        apply_edit(gt15, {"op": "marker", "name": "csp", "value": 3})
    with pytest.raises(RefusedError, match="at most 12"):
        apply_edit(gt15, {"op": "marker", "name": "supply_points", "value": {"DE": 13}})


# -- the 10.3 example on the real map (the data) ---------------------------------------------------


def _road_paths(kind: str):
    import networkx as nx

    from normandy_lab.network import edge_arrays
    from normandy_lab.rules.cobra.supply import line_edges

    edges = line_edges(get("cobra"), frozenset())
    e = edge_arrays("cobra")
    ids = nl.grid("cobra").id_array
    keep = getattr(edges, kind)
    return nx.Graph([(ids[a], ids[b]) for a, b in zip(e.src[keep], e.dst[keep], strict=True)])


def test_10_3_example_on_the_map_a1212_to_a1312_is_bocage_off_road_then_six_hexes_of_minor_road():
    import networkx as nx

    terrain = nl.terrain_map("cobra", progress=False).hexes["terrain"]
    assert terrain["A1212"] == "Bocage" and terrain["A1312"] == "Bocage"  # "hex A1312 (Bocage 2)"
    assert not _road_paths("minor_road").has_edge("A1212", "A1312")
    assert not _road_paths("major_road").has_edge("A1212", "A1312")
    minor = _road_paths("minor_road")
    assert nx.shortest_path_length(minor, "A1312", "A1809") == 6  # "along the minor road ... total of 6"


def test_10_3_example_on_the_map_a_major_road_runs_from_a1809_to_isigny():
    """10.3's example: from A1809 "along major road to Isigny" (the text's course, laid on the map)."""
    import networkx as nx

    isigny = nl.grid("cobra").locate(*nl.lookup("Isigny-sur-Mer"))
    major = _road_paths("major_road")
    assert major.has_node("A1809") and nx.has_path(major, "A1809", isigny)


# -- stacking (6.0-6.1) ----------------------------------------------------------------------------


def _stack(*specs):
    units = []
    for n, (nationality, utype, size, formation) in enumerate(specs):
        side = "german" if nationality == "DE" else "allied"
        hq = "corps" if utype == "hq" else None
        steps = {"division": 4, "regiment": 2, "brigade": 2}.get(size, 1)
        units.append(
            Unit(
                id=f"U{n}", name=f"U{n}", side=side, nationality=nationality, type=utype, mechanized=False,
                size=size, formation=formation, corps=None, hq=hq, hex="A3403", steps=steps,
            )
        )  # fmt: skip
    return units


@pytest.mark.parametrize(
    ("specs", "fits"),
    [
        ([("DE", "infantry", "regiment", "352 ID")] * 3, True),  # 6.0c2: three regiments
        ([("DE", "infantry", "regiment", "352 ID")] * 4, False),
        ([("US", "infantry", "division", None)] * 2, False),  # 6.0b: one division
        ([("UK", "armor", "brigade", "7 AD")] * 2, True),  # 6.0c3: two British brigades
        ([("UK", "armor", "brigade", "7 AD")] * 3, False),
        ([("UK", "parachute", "brigade", "6 AB")] * 3, True),  # 6.0c: the 6th Airborne's three brigades
        ([("US", "infantry", "division", None), ("US", "hq", "corps_hq", None)]
         + [("US", "armor", "battalion", None)] * 2, True),  # 6.1a: one HQ and two battalions free
        ([("US", "infantry", "division", None)] + [("US", "armor", "battalion", None)] * 3, False),
        ([("UK", "infantry", "division", None), ("UK", "armor", "brigade", None)], True),  # 6.1b
        ([("UK", "infantry", "division", None), ("UK", "armor", "brigade", "7 AD")], False),
        ([("US", "infantry", "division", None), ("US", "recon", "regiment", None)], True),  # 6.1c
    ],
)  # fmt: skip
def test_6_0_one_division_a_hex_with_the_free_units_of_6_1(specs, fits):
    from normandy_lab.rules.cobra.stacking import stacking_problem

    assert (stacking_problem(_stack(*specs)) is None) == fits


def test_6_0_the_printed_set_ups_keep_the_stacking_limit_and_an_overstack_is_refused(gt15):
    from collections import defaultdict

    from normandy_lab.rules.cobra.stacking import WHOLE, division_load

    for state in (gt15, nl.load_scenario("cobra_1944-06-06_gt01")):
        stacks = defaultdict(list)
        for u in state.units:
            stacks[(u.hex, u.side)].append(u)
        loads = [division_load(us) for us in stacks.values()]
        assert max(loads) <= WHOLE  # the rulebook's own set-ups are legal
    text = (
        Path(scenario_path("cobra_1944-07-16_gt15"))
        .read_text()
        .replace("    hex: A3505\n", "    hex: A3704\n")
    )
    with pytest.raises(ScenarioError, match=r"hex A3704: .* divisions; the limit is one \(6\.0b-c, 6\.1\)"):
        load_scenario_text(text)


# -- movement: crossing a major river into an enemy zone of control (5.1e) ------------------------


def _orne(gt15, *units):
    """A state with only the given units, at the start of the Allied Initial Movement Phase of GT 15."""
    return nl.step_to(gt15.evolve(units=tuple(units)), "Allied Initial Movement")


BRIGADE = dict(nationality="UK", type="armor", size="brigade", steps=2, mechanized=True)


def test_5_1e_first_example_the_zoc_s_owner_is_not_next_to_the_river(gt15):
    from normandy_lab.engine.movement import check_move

    # The German unit whose ZOC covers 3408 stands at 3409, away from the Orne: the 4th may cross.
    state = _orne(gt15, _unit("UK-4", "allied", "A3308", **BRIGADE), _unit("DE-A", "german", "A3409"))
    g = nl.grid("cobra")
    assert (g.index("A3308"), g.index("A3408")) not in get("cobra").forbidden_steps(state, state.unit("UK-4"))
    assert check_move(state, "UK-4", "A3408").path == ["A3308", "A3408"]  # straight over the bridge


def test_5_1e_second_example_friendly_occupied_or_not(gt15):
    from normandy_lab.engine.movement import check_move

    # The German unit at 3310 is next to the Orne and puts 3309 in its ZOC: only a friend there opens it.
    g = nl.grid("cobra")
    across = (g.index("A3308"), g.index("A3309"))  # the step over the Orne
    alone = _orne(gt15, _unit("UK-4", "allied", "A3308", **BRIGADE), _unit("DE-B", "german", "A3310"))
    assert across in get("cobra").forbidden_steps(alone, alone.unit("UK-4"))
    roundabout = check_move(alone, "UK-4", "A3309")  # it may still get there without crossing into it
    assert roundabout.path[:2] != ["A3308", "A3309"]
    friend = _unit("UK-F", "allied", "A3309", nationality="UK", size="regiment")
    held = _orne(gt15, _unit("UK-4", "allied", "A3308", **BRIGADE), _unit("DE-B", "german", "A3310"), friend)
    assert across not in get("cobra").forbidden_steps(held, held.unit("UK-4"))
    assert check_move(held, "UK-4", "A3309").legal


def test_5_1e_third_example_the_river_is_ignored_for_the_zoc_of_the_regiment_across_it(gt15):
    from normandy_lab.engine.movement import check_move

    # The regiment at 3309 covers 3308 across the Orne for this test: from there into 3408 (in the ZOC
    # of 3409) is EZOC to EZOC, refused; with the regiment gone the first example holds again.
    g = nl.grid("cobra")
    across = (g.index("A3308"), g.index("A3408"))
    units = [_unit("UK-4", "allied", "A3308", **BRIGADE), _unit("DE-A", "german", "A3409")]
    covered = _orne(gt15, *units, _unit("DE-C", "german", "A3309"))
    assert across in get("cobra").forbidden_steps(covered, covered.unit("UK-4"))
    # (It may still reach 3408 the long way, across the Orne into 3407, which no ZOC covers, then east.)
    assert check_move(covered, "UK-4", "A3408").path[:2] != ["A3308", "A3408"]
    clear = _orne(gt15, *units)
    assert across not in get("cobra").forbidden_steps(clear, clear.unit("UK-4"))


def test_5_9_the_army_boundary_a_move_may_cross_it_but_not_end_beyond_one_hex(gt15):
    from normandy_lab.engine.movement import check_move, movement_range

    # The boundary runs down column 24 of map A (17.2).  A lone US regiment at A2310 and a British
    # brigade at A2610, far from any German unit.
    us = _unit("US-R", "allied", "A2310", mechanized=True, type="armor", ma=8)
    uk = _unit(
        "UK-B", "allied", "A2610", nationality="UK", size="brigade", type="armor", mechanized=True, ma=8
    )
    state = _orne(gt15, us, uk, _unit("DE-X", "german", "A4530"))
    assert check_move(state, "US-R", "A2510").legal  # one hex east of the line: allowed (5.9b)
    refused = check_move(state, "US-R", "A2610")
    assert not refused.legal and "5.9b" in refused.reason
    assert not check_move(state, "UK-B", "A2210").legal and check_move(state, "UK-B", "A2310").legal  # 5.9c
    reach = movement_range(state, "US-R")
    g = nl.grid("cobra")
    line = g.global_col[g.index("A2401")]
    assert reach and all(g.global_col[g.index(h)] - line <= 1 for h in reach)


def test_17_3_5_cherbourg_serves_the_germans_once_cut_off_and_never_after_an_allied_entry():
    from normandy_lab.engine.edits import interdict_hex

    state = nl.load_scenario("cobra_1944-06-06_gt01").evolve(date=dt.date(1944, 6, 10), turn="GT 3")
    before = nl.supply(state)["DE-739-709"]  # the garrison regiment at B1309, in Cherbourg
    assert before.general and "(10.4b)" in before.traced_to  # its line still runs to the south edge
    # Close every land hex of map B's row 11, right across the Cotentin (the 920th, on it at B0811, leaves).
    terrain = nl.terrain_map("cobra", progress=False).hexes["terrain"]
    row = [h for h in nl.grid("cobra").id_array if h[0] == "B" and h[3:5] == "11" and terrain[h] != "All Sea"]
    cut = state.evolve(units=tuple(u for u in state.units if u.id != "DE-920-243"))
    for hex_id in row:
        cut = interdict_hex(cut, hex_id)
    after = nl.supply(cut)
    assert after["DE-739-709"].general and "Cherbourg, cut off" in after["DE-739-709"].traced_to  # 17.3.5d-e
    assert "B1308" in after.sources["german"]
    entered = nl.supply(cut.evolve(cherbourg_entered=True))  # 17.3.5e: never once an Allied unit entered
    assert "B1308" not in entered.sources["german"] and not entered["DE-739-709"].general
    # 17.3.5g: an attack by a unit Cherbourg supplies says that Cherbourg supplies one such a turn.
    from normandy_lab.rules.cobra.combat import possible_attacks

    # A US regiment at B1310, next to the garrison: its attacks on it draw on Cherbourg, until the city
    # is entered (then the garrison is out of supply and draws on nothing).
    foe = _unit("US-X", "allied", "B1310")
    attacks = possible_attacks(cut.evolve(units=(*cut.units, foe)), "german")
    mine = [a for a in attacks if "DE-739-709" in a["attackers"]]
    assert mine and all("(17.3.5g)" in a["cherbourg"] for a in mine)
    entered_attacks = possible_attacks(cut.evolve(units=(*cut.units, foe), cherbourg_entered=True), "german")
    assert [a for a in entered_attacks if "DE-739-709" in a["attackers"]]
    assert not any("cherbourg" in a for a in entered_attacks)


# -- what a combat phase puts on the table (8.1, 8.4, 10.0b, 11) ---------------------------------


def test_8_4_odds_are_rounded_in_the_defenders_favour():
    from normandy_lab.rules.cobra.combat import odds

    assert odds(26, 9) == "2:1"  # 8.4 example
    assert odds(9, 26) == "1:3" and odds(12, 12) == "1:1" and odds(5, 0) == "automatic"


def test_8_1_11_each_attack_by_one_army_with_its_sp_cost_and_its_odds_without_sp(gt15):
    from normandy_lab.engine.sequence import current_phase

    def ratio(text):
        a, d = text.split(":")
        return int(a) / int(d)

    for name, cost in (("Allied Combat", 1), ("German Combat", 2)):
        state = nl.step_to(gt15, name)
        attacks = get("cobra").phase_results(state, current_phase(state))["attacks"]
        assert attacks, name
        for attack in attacks:
            armies = {state.unit(u).nationality for u in attack["attackers"]}
            assert armies <= {"US", "FR"} or armies <= {"UK", "CA", "PL"} or armies == {"DE"}  # 8.1d-e
            assert attack["sp_cost"] == cost  # 11.0a-b
            assert ratio(attack["odds_without_sp"]) <= ratio(attack["odds"])  # 10.0b: halved without SP
        assert {a["army"] for a in attacks} == ({"US", "UK"} if cost == 1 else {"DE"})


def test_17_3_8_on_gt_1_paratroops_and_their_neighbours_exert_no_zoc():
    campaign = nl.load_scenario("cobra_1944-06-06_gt01")
    para = _unit("US-506", "allied", "B1808", type="parachute", formation="101 AB")  # beside 729/709 at B1807
    gt1 = campaign.evolve(units=(*campaign.units, para))
    g = nl.grid("cobra")
    german, allied = zoc_mask(gt1, "german"), zoc_mask(gt1, "allied")
    assert not allied.any()  # the only Allied unit is a paratroop regiment
    assert not german[g.index("B1808")]  # the 729th and 919th at B1807 are next to it: no ZOC
    assert german.any()  # the Germans away from it keep theirs
    gt3 = gt1.evolve(date=dt.date(1944, 6, 10), turn="GT 3")
    assert zoc_mask(gt3, "german")[g.index("B1808")] and zoc_mask(gt3, "allied").any()


def test_14_4_naval_support_points_by_turn_and_range_from_the_channel():
    from normandy_lab.rules.cobra.combat import naval_points, naval_reach, naval_words

    assert [naval_points(gt, "Clear") for gt in (1, 2, 3, 4, 10, 11, 27)] == [0, 6, 6, 3, 3, 2, 2]
    assert naval_points(2, "Storm") == 1  # no more than one NSP in storms
    reach = naval_reach("cobra")
    g = nl.grid("cobra")
    assert naval_words(int(reach[g.index("B2619")])).startswith("1 NSP")  # Isigny, by the sea: 14.4c
    assert naval_words(int(reach[g.index("A3504")])).startswith("2 NSP")  # Caen, 4-6 hexes inland: 14.4d
    assert naval_words(int(reach[g.index("A1606")])).startswith("out of")  # Saint-Lô


def test_17_3_6_in_the_campaign_the_allies_trace_to_their_beaches_and_a_wrecked_beach_serves_no_more():
    campaign = nl.load_scenario("cobra_1944-06-06_gt01")
    assert campaign.markers["campaign"]
    landed = (
        _unit("US-1-ID", "allied", "B3117", size="division", steps=4),  # on Omaha (Dog Green)
        _unit("US-29-ID", "allied", "B3017", size="division", steps=4),  # just inland of it
        _unit("UK-50-ID", "allied", "B3919", nationality="UK", size="division", steps=4),  # on Gold (Jig)
    )
    gt3 = campaign.evolve(units=(*campaign.units, *landed), date=dt.date(1944, 6, 10), turn="GT 3")
    report = nl.supply(gt3)
    assert report["US-29-ID"].general and "Omaha beach (17.3.6f)" in report["US-29-ID"].traced_to
    assert report["UK-50-ID"].general and "Gold beach" in report["UK-50-ID"].traced_to
    assert "B1207" not in report.sources["allied"]  # German Cherbourg is no Allied supply head
    wrecked = nl.supply(gt3.evolve(wrecked_beaches=("B3117",)))  # a German unit ended a turn there
    assert "B3117" not in wrecked.sources["allied"] and not wrecked["US-29-ID"].general
    assert wrecked["US-29-ID"].code == "cut_off"


def test_5_9f_an_allied_attack_s_supply_keeps_to_its_side_of_the_boundary(gt15):
    """A US division in the British sector still traces a line (10.3), but not one for an attack (5.9f)."""
    moved = gt15.evolve(units=tuple(replace(u, hex="A2904") if u.id == "US-5-ID" else u for u in gt15.units))
    row = nl.supply(moved)["US-5-ID"]
    assert row.general and not row.combat and nl.supply(moved).states("US-5-ID")["combat"] is False
    home = nl.supply(gt15)["US-5-ID"]
    assert home.general and home.combat
    text = re.sub("<[^>]+>", "", html.unescape(nl.explore(moved).unit_report_html("US-5-ID")))
    assert "It is not in attack supply (10.2, 5.9f)" in text and "chain of HQs" not in text


def test_5_9_1_the_boundary_moves_one_column_a_turn_within_its_limits(gt15):
    from normandy_lab.engine.edits import apply_edit
    from normandy_lab.errors import RefusedError

    moved = apply_edit(gt15, {"op": "marker", "name": "army_boundary", "value": 25})
    assert moved.markers["army_boundary"] == 25
    with pytest.raises(RefusedError, match="one column a turn"):
        apply_edit(gt15, {"op": "marker", "name": "army_boundary", "value": 26})
    with pytest.raises(RefusedError, match="A23 and A30"):
        apply_edit(gt15.evolve(army_boundary=23), {"op": "marker", "name": "army_boundary", "value": 22})


def test_6_2_a_move_may_pass_through_a_full_hex_but_not_end_in_it(gt15):
    from normandy_lab.engine.movement import check_move

    # A2305 holds three regiments of the US 2nd Armored: a full division's worth.
    state = _orne(gt15, *[u for u in gt15.units if u.hex == "A2305"], _unit("US-R", "allied", "A2205", ma=8))
    refused = check_move(state, "US-R", "A2305")
    assert not refused.legal and "overstacked" in refused.reason and "6.2" in refused.reason
    beyond = check_move(state, "US-R", "A2405")
    assert beyond.legal


# -- disengagement (5.0, 5.1d, 5.5) -----------------------------------------------------------------


def test_5_5_a_unit_leaves_an_ezoc_by_disengaging_for_2_mp_more_than_the_hex(gt15):
    from normandy_lab.engine.movement import check_move

    # DE-A at 3409 puts 3408 in its ZOC (the first 5.1e example): from 3408 to 3407, out of it.
    brigade = _unit("UK-4", "allied", "A3408", **BRIGADE)
    engaged = _orne(gt15, brigade, _unit("DE-A", "german", "A3409"))
    free = _orne(gt15, brigade)
    assert zoc_mask(engaged, "german")[nl.grid("cobra").index("A3408")]
    step = check_move(free, "UK-4", "A3407", in_supply=True, isolated=False)
    out = check_move(engaged, "UK-4", "A3407", in_supply=True, isolated=False)
    assert step.path == out.path == ["A3408", "A3407"]
    assert out.cost == step.cost + 2


def test_5_5a_after_disengaging_no_ezoc_again_in_the_same_phase(gt15):
    from normandy_lab.engine.movement import movement_range

    # DE-B stands four hexes west, its ZOC within the brigade's reach: entered (and stopped in) from a
    # free start, never after disengaging from DE-A.
    brigade = _unit("UK-4", "allied", "A3408", **BRIGADE)
    far = _unit("DE-B", "german", "A2908")
    free = _orne(gt15, brigade, far)
    engaged = _orne(gt15, brigade, far, _unit("DE-A", "german", "A3409"))
    g = nl.grid("cobra")
    around_b = {g.canonical(n) for n in g.neighbors("A2908")}
    reached_free = set(movement_range(free, "UK-4", in_supply=True, isolated=False))
    reached = movement_range(engaged, "UK-4", in_supply=True, isolated=False)
    assert reached_free & around_b  # the test can fail: DE-B's ZOC is within reach
    assert reached and not set(reached) & around_b
    ezoc = zoc_mask(engaged, "german")
    assert not any(ezoc[g.index(h)] for h in reached)


def test_5_0_no_one_hex_move_regardless_of_the_allowance_out_of_an_ezoc(gt15):
    from normandy_lab.engine.movement import movement_range

    # An MA of 2 pays no clear hex (1) plus disengaging (2); without the EZOC the one-hex move remains.
    slow = _unit("UK-S", "allied", "A3408", nationality="UK", size="regiment", ma=2)
    engaged = _orne(gt15, slow, _unit("DE-A", "german", "A3409"))
    assert movement_range(engaged, "UK-S", in_supply=True, isolated=False) == {}
    free = _orne(gt15, slow)
    assert movement_range(free, "UK-S", in_supply=True, isolated=False)


def test_5_5_exception_a_german_unit_in_bocage_may_always_disengage_one_hex_into_bocage(gt15):
    from normandy_lab.engine.movement import check_move

    # A2603 is bocage, in the ZOC of the US regiment at A2503; A2704 is bocage and A2703 clear, both
    # out of that ZOC.  With an MA of 1 the German may still step into the bocage, not the clear hex.
    g = nl.grid("cobra")
    terrain = nl.terrain_map("cobra", progress=False).hexes["terrain"].to_numpy()
    assert [terrain[g.index(h)] for h in ("A2603", "A2704", "A2703")] == ["Bocage", "Bocage", "Clear"]
    german = _unit("DE-G", "german", "A2603", ma=1)
    state = _orne(gt15, german, _unit("US-R", "allied", "A2503"))
    into_cover = check_move(state, "DE-G", "A2704", in_supply=True, isolated=False)
    assert into_cover.legal and into_cover.path == ["A2603", "A2704"]
    assert not check_move(state, "DE-G", "A2703", in_supply=True, isolated=False).legal
    # Not for an Allied unit, nor from a clear hex.
    allied = _orne(gt15, _unit("US-G", "allied", "A2603", ma=1), _unit("DE-R", "german", "A2503"))
    assert not check_move(allied, "US-G", "A2704", in_supply=True, isolated=False).legal
    enemy_at = next(g.canonical(n) for n in g.neighbors("A2703") if g.distance(n, "A2603") >= 2)
    from_clear = _orne(gt15, _unit("DE-G", "german", "A2703", ma=1), _unit("US-R", "allied", enemy_at))
    assert zoc_mask(from_clear, "allied")[g.index("A2703")]
    assert not zoc_mask(from_clear, "allied")[g.index("A2603")]
    assert not check_move(from_clear, "DE-G", "A2603", in_supply=True, isolated=False).legal


# -- what the end of a turn does in the Campaign (17.3.5e, 17.3.6) -----------------------------------


def test_17_3_6f_a_german_unit_ending_the_allied_turn_on_a_beach_hex_wrecks_it():
    campaign = nl.load_scenario("cobra_1944-06-06_gt01").evolve(date=dt.date(1944, 6, 7), turn="GT 2")
    raider = _unit("DE-RAID", "german", "B3117")  # on Omaha (Dog Green)
    state = nl.step_to(campaign.evolve(units=(*campaign.units, raider)), "Allied Mechanized Movement")
    assert "B3117" not in state.markers["wrecked_beaches"]  # not while the Allied turn lasts
    ended = nl.step_to(state, "Game Turn Indication")
    assert "B3117" in ended.markers["wrecked_beaches"] and "(17.3.6f)" in ended.log[-1]
    # Alternate Cobra is no Campaign: its beaches are no sources, and nothing is wrecked.
    cobra = nl.load_scenario("cobra_1944-07-16_gt15")
    far = nl.step_to(cobra.evolve(units=(*cobra.units, raider)), "Game Turn Indication")
    assert far.markers["wrecked_beaches"] == ()


def test_17_3_6_paratroops_out_of_supply_at_the_end_of_gt_3_are_eliminated():
    campaign = nl.load_scenario("cobra_1944-06-06_gt01").evolve(date=dt.date(1944, 6, 10), turn="GT 3")
    # A parachute regiment alone deep in the German rear (Saint-Lo) and one on Omaha beach.
    lost = _unit("US-PARA-L", "allied", "A1818", type="parachute")
    safe = _unit("US-PARA-S", "allied", "B3117", type="parachute")
    state = campaign.evolve(units=(*campaign.units, lost, safe))
    report = nl.supply(state)
    assert not report["US-PARA-L"].general and report["US-PARA-S"].general
    ended = nl.step_to(state, "Game Turn Indication")
    assert ended.unit("US-PARA-L").status == "eliminated" and ended.unit("US-PARA-S").status == "active"
    assert "US-PARA-L" in ended.log[-1]
    # At the end of GT 2 nobody is lost: every unit is in supply then (17.3.6d).
    gt2 = nl.step_to(state.evolve(date=dt.date(1944, 6, 7), turn="GT 2"), "Game Turn Indication")
    assert gt2.unit("US-PARA-L").status == "active"


def test_17_3_5e_an_allied_unit_in_a_cherbourg_city_hex_ends_the_city_s_service_to_the_germans():
    campaign = nl.load_scenario("cobra_1944-06-06_gt01").evolve(date=dt.date(1944, 6, 25), turn="GT 8")
    assert not campaign.markers["cherbourg_entered"]
    inside = _unit("US-IN", "allied", "B1308")
    state = nl.step_to(campaign.evolve(units=(*campaign.units, inside)), "German Initial Movement")
    assert state.markers["cherbourg_entered"] and "(17.3.5e)" in " ".join(state.log)
    outside = nl.step_to(campaign, "German Initial Movement")
    assert not outside.markers["cherbourg_entered"]


# -- the extended Allied Army Boundary (5.9.1b-d) -----------------------------------------------------


def test_5_9_1c_the_examples_lines_are_the_hex_lines_between_the_markers():
    from normandy_lab.rules.cobra.boundary import hex_line

    g = nl.grid("cobra")
    row = [str(g.id_array[i]) for i in hex_line("cobra", "A2117", "A5117")]
    assert row == [f"A{c}17" for c in range(21, 52)]  # "a number that contained 17 as the last two digits"
    diagonal = [str(g.id_array[i]) for i in hex_line("cobra", "A2117", "A5132")]
    assert len(diagonal) == 31 and [int(h[1:3]) for h in diagonal] == list(range(21, 52))
    assert all(g.distance(a, b) == 1 for a, b in itertools.pairwise(diagonal)) and diagonal[-1] == "A5132"


def _south_of_vire(gt15):
    """GT 15 ended with a US regiment south of Vire (A2119): the extension may come from GT 16."""
    from normandy_lab.engine.sequence import next_phase

    raid = _unit("US-S", "allied", "A2119")
    ended = nl.step_to(gt15.evolve(units=(*gt15.units, raid)), "Game Turn Indication")
    return ended, next_phase(ended)


def test_5_9_1b_the_extension_follows_a_turn_ending_with_an_allied_unit_south_of_vire(gt15):
    from normandy_lab.engine.edits import apply_edit
    from normandy_lab.errors import RefusedError

    extend = {"op": "marker", "name": "boundary_extension", "value": ["A2117", "A5117"]}
    with pytest.raises(RefusedError, match="none has yet"):
        apply_edit(gt15, extend)
    ended, gt16 = _south_of_vire(gt15)
    assert ended.markers["south_of_vire_gt"] == 15 and "(5.9.1b)" in ended.log[-1]
    with pytest.raises(RefusedError, match="this is that turn"):
        apply_edit(ended, extend)
    assert gt16.turn == "GT 16"
    extended = apply_edit(gt16, extend)
    assert extended.markers["boundary_extension"] == ("A2117", "A5117")
    for state, ends, words in (
        (gt16, ["A2121", "A5117"], "within 3 hexes of Vire"),
        (gt16, ["A2117", "A5017"], "column 51"),
        (gt16.evolve(army_boundary=23), ["A2416", "A5117"], "would not meet"),  # the Vire end east of A23
    ):
        with pytest.raises(RefusedError, match=words):
            apply_edit(state, {**extend, "value": ends})
    # 5.9.1d: then each end one hex north or south a turn.
    nudged = apply_edit(extended, {**extend, "value": ["A2118", "A5116"]})
    assert nudged.markers["boundary_extension"] == ("A2118", "A5116")
    with pytest.raises(RefusedError, match="one hex north or south"):
        apply_edit(extended, {**extend, "value": ["A2117", "A5119"]})


def test_5_9_1d_the_extended_boundary_has_the_same_effects_south_of_its_line(gt15):
    from normandy_lab.engine.edits import apply_edit
    from normandy_lab.rules.cobra.boundary import east_of_boundary

    _, gt16 = _south_of_vire(gt15)
    extended = apply_edit(gt16, {"op": "marker", "name": "boundary_extension", "value": ["A2117", "A5117"]})
    g, rules = nl.grid("cobra"), get("cobra")
    us = _unit("US-M", "allied", "A2420")
    uk = _unit("UK-M", "allied", "A2410", nationality="UK")
    # Far east and south of the line is US ground now; north of it and east of the column British.
    for hex_id, before, after in (("A4025", 16, -8), ("A4010", 16, 7), ("A2417", 0, 0), ("A2517", 1, 0)):
        assert east_of_boundary(gt16)[g.index(hex_id)] == before
        assert east_of_boundary(extended)[g.index(hex_id)] == after
    far_south = g.index("A4025")
    assert rules.end_problem(gt16, us, far_south) and not rules.end_problem(extended, us, far_south)
    assert not rules.end_problem(gt16, uk, g.index("A4022"))
    assert "(5.9c)" in rules.end_problem(extended, uk, g.index("A4022"))
    assert not rules.end_problem(extended, uk, g.index("A4018"))  # one hex across the line: allowed
    assert "(5.9b)" in rules.end_problem(extended, us, g.index("A4010"))


def test_5_9_1b_a_scenario_s_extension_is_checked_where_it_is_written():
    text = """
format: normandy_lab.scenario/1
system: cobra
name: extended
date: 1944-08-03
turn: GT 21
army_boundary: 25
south_of_vire_gt: 20
boundary_extension: [A2117, A5117]
units:
  - {id: DE-1, name: one, side: german, nationality: DE, type: infantry, size: regiment, hex: A4010, steps: 2}
"""
    state = load_scenario_text(text)
    assert state.markers["boundary_extension"] == ("A2117", "A5117")
    with pytest.raises(ScenarioError, match=r"<text>:\d+: boundary_extension: .*column 51 of map A"):
        load_scenario_text(text.replace("A5117", "A4917"))
    with pytest.raises(ScenarioError, match="south of Vire"):
        load_scenario_text(text.replace("south_of_vire_gt: 20\n", ""))


# -- supply points and command limits (11.0-11.3) ----------------------------------------------------


@pytest.mark.parametrize(("weather", "paid"), [("Clear", 1), ("Overcast", 2), ("Storm", 3)])
def test_11_1d_the_germans_are_paid_by_the_weather_and_11_0c_hold_at_most_12(gt15, weather, paid):
    from normandy_lab.rules.cobra.points import pay_germans

    held = gt15.markers["supply_points"]["DE"]
    assert pay_germans(gt15.evolve(weather=weather)).markers["supply_points"]["DE"] == held + paid
    full = gt15.evolve(weather=weather, supply_points={**gt15.markers["supply_points"], "DE": 11})
    assert pay_germans(full).markers["supply_points"]["DE"] == 12


def test_11_1_the_next_turn_pays_the_germans_as_it_begins_and_the_allies_in_their_supply_phase(gt15):
    from normandy_lab.engine.edits import apply_edit
    from normandy_lab.engine.sequence import current_phase, next_phase
    from normandy_lab.rules.cobra.points import GERMAN_INCOME

    cobra = get("cobra")
    state = apply_edit(gt15, {"op": "marker", "name": "allied_income", "value": {"US": 5, "UK": 3}})
    while state.turn == "GT 15":  # GT 15's own Allied Supply phase may pay first: count from its end
        before = dict(state.markers["supply_points"])
        state = next_phase(state)
    assert current_phase(state).name == "Weather & German Supply"
    assert state.markers["supply_points"]["DE"] == min(12, before["DE"] + GERMAN_INCOME[state.weather])
    assert "11.1d" in cobra.phase_results(state, current_phase(state))["german_sp"]
    assert {k: state.markers["supply_points"][k] for k in ("US", "UK")} == {
        "US": before["US"],
        "UK": before["UK"],
    }
    state = nl.step_to(state, "Allied Supply")
    paid = {"Clear": (5, 3), "Overcast": (5, 3), "Storm": (0, 0)}[state.weather]  # no storm in play before
    assert state.markers["supply_points"]["US"] == before["US"] + paid[0]
    assert state.markers["supply_points"]["UK"] == before["UK"] + paid[1]
    assert "11.1" in " ".join(cobra.phase_results(state, current_phase(state))["income"])


def test_11_1b_storm_turns_pay_the_allies_half_rounded_up_and_the_first_storm_nothing(gt15):
    from normandy_lab.rules.cobra.points import pay_allies

    base = gt15.evolve(allied_income={"US": 5, "UK": 3})
    points = base.markers["supply_points"]

    def paid(state):
        after = pay_allies(state).markers["supply_points"]
        return after["US"] - points["US"], after["UK"] - points["UK"]

    assert paid(base.evolve(weather="Clear")) == (5, 3)
    assert paid(base.evolve(weather="Storm", weather_history=("Clear", "Storm"))) == (3, 2)
    # A GT 15 storm is not the first (5.3 forces one by GT 6): the first storm is tried on GT 4.
    gt4 = base.evolve(date=turn_dates(4)[0], turn="GT 4")
    assert paid(gt4.evolve(weather="Storm", weather_history=("Clear", "Overcast", "Clear"))) == (0, 0)
    assert paid(gt15.evolve(weather="Clear")) == (0, 0)  # the track's entry unknown: nothing paid, said so
    assert "Game Turn Record Track" in tuple(pay_allies(gt15.evolve(weather="Clear")).log)[-1]


def test_11_3_example_gt_14_the_us_may_make_four_attacks_and_four_overruns_on_four_sp(gt15):
    from normandy_lab.rules.cobra.points import command_words, track_entry

    gt14 = gt15.evolve(date=turn_dates(14)[0], turn="GT 14")
    entry = track_entry(gt14, "US", 14)
    assert (entry.limit, entry.income, entry.source) == (4, 4, "rulebook 11.3 example")
    assert track_entry(gt14, "UK", 14).limit is None  # the British line of GT 14 is not quoted
    attacks = [{"army": "US"}] * 6 + [{"army": "UK"}]
    words = command_words(gt14, attacks)
    assert "at most 4 attacks and 4 overruns" in words["US"] and "2 more than the limit" in words["US"]
    assert "set command_limits" in words["UK"]
    set_uk = gt14.evolve(command_limits={"UK": 2})
    assert "at most 2 attacks" in command_words(set_uk, attacks)["UK"]


def test_11_1a_the_turn_track_is_set_by_an_edit_or_the_scenario_and_checked(gt15):
    from normandy_lab.engine.edits import apply_edit
    from normandy_lab.errors import RefusedError

    edited = apply_edit(gt15, {"op": "marker", "name": "command_limits", "value": {"US": 6}})
    assert apply_edit(edited, {"op": "marker", "name": "command_limits", "value": {"UK": 4}}).markers[
        "command_limits"
    ] == {"US": 6, "UK": 4}
    for bad in ({"DE": 2}, {"US": -1}, {"US": 21}, "US"):
        with pytest.raises(RefusedError, match=r"11\.1a, 11\.3"):
            apply_edit(gt15, {"op": "marker", "name": "allied_income", "value": bad})
    text = scenario_path("cobra_1944-07-16_gt15").read_text()
    loaded = load_scenario_text(
        text.replace("\nsupply_points:", "\nallied_income: {US: 5}\nsupply_points:", 1)
    )
    assert loaded.markers["allied_income"] == {"US": 5}
    with pytest.raises(ScenarioError, match="allied_income"):
        load_scenario_text(text.replace("\nsupply_points:", "\nallied_income: {DE: 5}\nsupply_points:", 1))
