"""Lesson 1: why the German garrison of the Cotentin was cut off, and when.

The question a class is asked: the US VII Corps drove west across the Cotentin in mid-June 1944; when were the
German divisions in the north of the peninsula cut off from the rest of the German army, and what kept them
going after it?

The game's answer comes from *The Battle for Normandy*'s engine on each of its June scenarios (and *The
Killing Ground*'s, :func:`kg_study`: whether Cherbourg itself still traces to an off-map box): which supply
source each division HQ in the north traces to (7.2, 7.4), and, as a what-if the rulebook does not play, the
same HQs with Cherbourg struck off the German supply cities of 7.4: how long their shortest legal line to any
other source or corps HQ would be, against the range 7.2 allows (halved in a Storm, 7.3.3).  History beside
it: the lodgement record's side for Barneville on each dated front, and the timeline's accounts of
the cut and of Cherbourg's fall, with their sources.
"""

from __future__ import annotations

import datetime as dt
import html
import math
from typing import Any

import pandas as pd

from normandy_lab.lessons.base import Exercise, Lesson, event_html, sources_html, table

#: The town on the west coast the 9th US Division reached in the night of 17/18 June 1944.
BARNEVILLE = "Barneville-Carteret"
#: West of this longitude, and north of Barneville, is the north of the peninsula (the Vire estuary and
#: Grandcamp lie east of it).
PENINSULA_EAST_LON = -1.1
#: The German supply city whose loss the what-if plays (7.4).
CHERBOURG = "Cherbourg"


def june_scenarios(system: str = "bfn") -> list[str]:
    """Return a game's scenarios of June 1944, in date order (the package's ``scenarios/``)."""
    from normandy_lab.engine.scenario import SCENARIO_DIR

    return sorted(p.stem for p in SCENARIO_DIR.glob(f"{system}_1944-06-*.yaml"))


def kg_study(scenario: str) -> dict[str, Any]:
    """Work out The Killing Ground's answer on one scenario: the northern units, and Cherbourg's own line.

    In KG a German line may end at Cherbourg's city hexes while N1410 is German (26.11.2), and a unit whose
    line reaches N1410 is supported through it: the engine says whether N1410 itself traces to a German
    off-map box or not (26.10.7).  Returns ``scenario``, ``date``, ``turn``, ``units``, ``in_supply``,
    ``cherbourg`` (the engine's words for the units supported through N1410; "" when none is) and
    ``summary`` (its account of the map, with what it rests on).
    """
    import normandy_lab as nl
    from normandy_lab.engine.whatif import supply_summary

    state = nl.load_scenario(scenario)
    report = nl.supply(state)
    north = _north(state)
    through = sorted({report[u.id].traced_to for u in north if report[u.id].traced_kind == "supported"})
    return {
        "scenario": scenario,
        "date": state.date,
        "turn": state.turn,
        "units": len(north),
        "in_supply": sum(report[u.id].general for u in north),
        "cherbourg": "; ".join(through),
        "summary": supply_summary(report),
    }


def _north(state: Any) -> list[Any]:
    """Return the German units standing north of Barneville's latitude in the peninsula."""
    from normandy_lab.geo.gazetteer import lookup
    from normandy_lab.grids import grid

    _, cut_lat = lookup(BARNEVILLE)
    g = grid(state.system)
    found = []
    for unit in state.units_of("german"):
        lon, lat = g.center(unit.hex)
        if lat > cut_lat and lon < PENINSULA_EAST_LON:
            found.append(unit)
    return found


def _line_words(row: Any) -> str:
    """Say an HQ's verdict without Cherbourg: in supply and to what, or how far its line falls short."""
    from normandy_lab.views.wording import mp_words

    if row.general:
        return f"still in supply: {row.traced_to}"
    if math.isfinite(row.length_mp):
        length = mp_words(row.length_mp)
        return f"out of supply: its shortest legal line is {length} MP; the limit is {row.limit}"
    return f"out of supply: {row.reason}"


def without_words(hq: dict[str, Any]) -> str:
    """Say an HQ's verdict without Cherbourg in full: its shortest legal line against the limit."""
    return _line_words(hq["without_report"][hq["hq"]])


def study(scenario: str) -> dict[str, Any]:
    """Work out one scenario: the northern units, their HQs' sources, and the what-if without Cherbourg.

    Returns
    -------
    dict
        ``scenario``, ``date``, ``weather``, ``units`` (German units north of Barneville), ``in_supply``
        (of them, in General Supply), ``summary`` (the engine's one-line account of the whole map), and
        ``hqs``: per division or corps HQ those units trace to, a dict with ``hq``, ``name``, ``where``,
        ``north`` (whether it stands north of Barneville too), ``traces_to``, ``without`` (its verdict with
        Cherbourg struck off 7.4's list, "in supply" or "out of supply"), ``without_report`` (that
        determination, for :func:`without_words`) and ``readings``.
    """
    import normandy_lab as nl
    from normandy_lab.engine.whatif import supply_summary
    from normandy_lab.views.wording import place_of, reading_words

    state = nl.load_scenario(scenario)
    report = nl.supply(state)
    north = _north(state)
    cities = frozenset(state.german_supply_cities)
    without = nl.supply(state.evolve(german_supply_cities=cities - {CHERBOURG}))
    north_ids = {u.id for u in north}
    hqs: dict[str, dict[str, Any]] = {}
    for unit in north:
        row = report[unit.id]
        hq = row.traced_id if row.traced_kind in ("division HQ", "attached", "corps HQ") else ""
        if not hq or hq in hqs or hq not in report.units:
            continue
        own = report[hq]
        hqs[hq] = {
            "hq": hq,
            "name": state.unit(hq).name,
            "where": place_of(state.system, own.hex),
            "north": hq in north_ids,
            "traces_to": own.traced_to if own.general else f"out of supply: {own.reason}",
            # Only the verdict here: its words (the line's length against the limit) need the side's
            # explanations, seconds of work, so they are made when an answer asks (:func:`without_words`).
            "without": "in supply" if without[hq].general else "out of supply",
            "without_report": without,
            "readings": reading_words(state.rules, own.readings),
            "source_hex": own.traced_id if own.general and own.traced_kind == "source" else "",
        }
    return {
        "scenario": scenario,
        "date": state.date,
        "weather": state.weather,
        "units": len(north),
        "in_supply": sum(report[u.id].general for u in north),
        "summary": supply_summary(report),
        "hqs": list(hqs.values()),
        "cities": sorted(cities),
    }


def _to_cherbourg(hq: dict[str, Any]) -> bool:
    """Tell whether an HQ traces to one of Cherbourg's source hexes (the engine names the place)."""
    from normandy_lab.geo.gazetteer import lookup
    from normandy_lab.grids import grid

    source = hq["source_hex"]
    if not source:
        return False
    lon, lat = grid("bfn").center(source)
    city_lon, city_lat = lookup(CHERBOURG)
    # The city's source hexes lie within a few km of its centre (Fort du Roule is 1 km from it).
    return abs(lon - city_lon) < 0.06 and abs(lat - city_lat) < 0.04


def barneville_record() -> list[tuple[dt.date, str]]:
    """Return who held Barneville on each dated front of June 1944 in the lodgement record."""
    from normandy_lab.history.lodgement import held_by, lodgement_dates

    return [(d, held_by(BARNEVILLE, d)) for d in lodgement_dates() if d.month == 6]


def _day(day: dt.date) -> str:
    return f"{day.day} {day:%B}"


def lesson() -> Lesson:
    """Return the lesson, every verdict worked out by the engine now."""
    from normandy_lab.history.lodgement import record
    from normandy_lab.rules import ruleset
    from normandy_lab.views.wording import mp_words

    games = [study(name) for name in june_scenarios()]
    kg = [kg_study(name) for name in june_scenarios("kg")]
    held = barneville_record()
    first_allied = next((d for d, side in held if side == "allied"), None)
    last_german = max(d for d, side in held if side == "german" and (not first_allied or d < first_allied))
    rows = []
    for game in games:
        for hq in game["hqs"]:
            rows.append(
                {
                    "date": f"{_day(game['date'])} ({game['weather']})",
                    "German units north of Barneville (in supply)": f"{game['units']} ({game['in_supply']})",
                    "HQ": f"{hq['name']}, at {hq['where']}"
                    + ("" if hq["north"] else " (south of Barneville)"),
                    # The engine's words in full where the source is not Cherbourg's; its hex otherwise.
                    "traces to": f"Cherbourg's source hex {hq['source_hex']} (7.4)"
                    if _to_cherbourg(hq)
                    else hq["traces_to"],
                    "with Cherbourg struck off the supply cities (what-if)": hq["without"],
                }
            )
    frame = pd.DataFrame(rows)
    north_hqs = [hq for game in games for hq in game["hqs"] if hq["north"]]
    to_cherbourg = sum(_to_cherbourg(hq) for hq in north_hqs)
    game_html = (
        "<p>In <i>The Battle for Normandy</i> a unit is in General Supply if it can trace a legal line "
        "to its division HQ, and the HQ one to a supply source or a corps HQ in supply (7.2); Cherbourg "
        "is one of the German supply cities (7.4). For each June scenario, the HQs that the German units "
        "in the north of the peninsula trace to, and, as a what-if, the same HQs if Cherbourg were not a "
        "supply city:</p>"
        + table(frame)
        + f"<p>Of the {len(north_hqs)} HQ verdicts north of Barneville, {to_cherbourg} trace to Cherbourg's "
        "own source hexes.</p>"
    )
    if kg:
        kg_rows = pd.DataFrame(
            {
                "date": [f"{_day(g['date'])} ({g['turn']})" for g in kg],
                "German units north of Barneville (in supply)": [
                    f"{g['units']} ({g['in_supply']})" for g in kg
                ],
                "a unit supported through Cherbourg (N1410)": [g["cherbourg"] or "none" for g in kg],
            }
        )
        game_html += (
            "<p>In <i>The Killing Ground</i> a German line may end at Cherbourg's city hexes while N1410 is "
            "German (26.11.2), and a unit whose line reaches N1410 is supported if N1410 itself traces to a "
            "German off-map box (26.10.7). The engine on KG's June scenarios:</p>" + table(kg_rows)
        )
    history = [(d, side) for d, side in held]
    history_rows = pd.DataFrame(
        {
            "front of": [_day(d) for d, _ in history],
            "Barneville held by": [side.capitalize() for _, side in history],
        }
    )
    cut_text, cut_sources = event_html("cotentin_cut")
    fall_text, fall_sources = event_html("cherbourg")
    record_sources = list(record(first_allied).sources) if first_allied else []
    history_html = (
        cut_text
        + fall_text
        + "<p>The project's lodgement record (the front traced from the official histories' maps) gives "
        "Barneville's side on each dated front:</p>"
        + table(history_rows)
        + sources_html([*cut_sources, *fall_sources, *record_sources])
    )
    bfn = ruleset("bfn")
    rests_on = [
        "Every verdict is the engine's, on the scenario files' positions: researched from the histories the "
        "files cite, some estimated (each unit's source is in its file).",
        "Cherbourg struck off the supply cities is a what-if: the rulebook has no rule for losing a city "
        "before the game takes it; the engine simply plays 7.2 and 7.4 without it.",
    ]
    for game in games:
        rests_on.append(f"{_day(game['date'])}: {game['summary']}")
    readings = sorted({hq["readings"] for hq in north_hqs if hq["readings"]})
    rests_on += [f"Rule readings the HQ verdicts used: {r}." for r in readings]
    rests_on += [f"The Killing Ground, {_day(g['date'])}: {g['summary']}" for g in kg]
    halved = bfn.rule_notes.get("7.3.3", "") if hasattr(bfn, "rule_notes") else ""

    by_date = {g["date"]: g for g in games}
    before = max((d for d in by_date if first_allied and d < first_allied), default=None)
    after = min((d for d in by_date if first_allied and d >= first_allied), default=None)

    def hq_of(day: dt.date | None, prefix: str) -> dict[str, Any] | None:
        if day is None:
            return None
        return next((hq for hq in by_date[day]["hqs"] if hq["hq"].startswith(prefix)), None)

    def answer_one() -> str:
        hq = hq_of(before, "DE-243")
        if hq is None:
            return "<p>The engine finds no 243. ID HQ in that scenario.</p>"
        return (
            f"<p>On {_day(before)} the 243. ID's HQ traces to: {html.escape(hq['traces_to'])}. Without "
            f"Cherbourg it would be {html.escape(without_words(hq))}. So in the game the north lived on "
            "Cherbourg before any cut: no other source was within an HQ's reach even then.</p>"
        )

    def answer_two() -> str:
        if first_allied is None or after is None:
            return "<p>The record gives no Allied Barneville in June.</p>"
        hqs = by_date[after]["hqs"]
        said = "".join(
            f"<li>{html.escape(hq['name'])} at {html.escape(hq['where'])}: "
            f"{html.escape(hq['traces_to'])}</li>"
            for hq in hqs
        )
        alone = all(hq["north"] and _to_cherbourg(hq) for hq in hqs)
        verdict = (
            "All of them stand north of the cut and trace to Cherbourg's source hexes: the garrison is on "
            "its own."
            if alone
            else "Not all of them stand north of the cut or trace to Cherbourg: read where each traces."
        )
        return (
            f"<p>The record's last front with Barneville German is {_day(last_german)}; the next, "
            f"{_day(first_allied)}, has it Allied. BfN's first scenario after that is {_day(after)}. "
            f"There the units north of Barneville trace to these HQs:</p><ul>{said}</ul><p>{verdict}</p>"
        )

    def answer_three() -> str:
        one, two = hq_of(before, "DE-243"), hq_of(after, "DE-243")
        if one is None or two is None:
            return "<p>The engine has no 243. ID HQ in one of the two scenarios.</p>"
        first, second = (hq["without_report"][hq["hq"]] for hq in (one, two))
        change = second.length_mp - first.length_mp
        longer = (
            f"The line is {mp_words(change)} MP longer on {_day(after)}: the front between had moved "
            "(compare the two dates on the tour's map)."
            if math.isfinite(change) and change > 0
            else "The line is not longer on the later date."
        )
        weather = by_date[after]["weather"]
        limit = (
            f" The limit is smaller in the {weather}: {html.escape(halved)}"
            if second.limit != first.limit
            else ""
        )
        return (
            f"<p>Without Cherbourg the 243. ID's HQ is {html.escape(without_words(one))} on "
            f"{_day(before)}, and {html.escape(without_words(two))} on {_day(after)} ({weather}). "
            f"{longer}{limit}</p>"
        )

    def answer_kg() -> str:
        if not kg:
            return "<p>KG has no June scenario.</p>"
        said = "".join(
            f"<li>{_day(g['date'])}: "
            f"{html.escape(g['cherbourg'] or 'no northern unit is supported through N1410')}"
            "</li>"
            for g in kg
        )
        return (
            f"<p>The engine, on KG's June scenarios:</p><ul>{said}</ul><p>Where N1410 traces to no off-map "
            "box, "
            "Cherbourg is cut off from the rest of the German side, and the northern units are supported "
            "only "
            "by a Cherbourg SP that the text does not give: the engine's reading takes it to be there, and "
            "says "
            "so.</p>"
        )

    fall = event_html("cherbourg")[0]
    exercises = [
        Exercise(
            f"On {_day(before) if before else 'the last June scenario before the cut'}, what does the 243. "
            "Infanterie-Division's HQ trace its supply to? Would it be in supply without Cherbourg?",
            answer_one,
        ),
        Exercise(
            "Read Barneville's side in the lodgement record. Between which two fronts did the peninsula "
            "close? In the first BfN scenario after it, where are the HQs of the units north of Barneville, "
            "and what do they trace to?",
            answer_two,
        ),
        Exercise(
            "Compare the 243. ID HQ's line without Cherbourg before and after the cut: its length and its "
            "limit. What changed between the two dates?",
            answer_three,
        ),
        Exercise(
            "In The Killing Ground, does Cherbourg (N1410) itself trace to a German off-map box on 7 June? "
            "On "
            "19 June? What supplies the north when it does not, and what does that verdict rest on?",
            answer_kg,
        ),
        Exercise(
            "In the game, what would the Allies have to take to put the northern garrison out of supply? "
            "When did they take it?",
            (
                "<p>Cherbourg: its source hexes keep every HQ north of the cut in supply (7.4).</p>"
                if to_cherbourg == len(north_hqs)
                else f"<p>Cherbourg keeps {to_cherbourg} of the {len(north_hqs)} HQ verdicts north of the "
                "cut in supply (7.4); read the table for the others.</p>"
            )
            + fall,
        ),
    ]
    return Lesson(
        title="Lesson 1: the Cotentin cut off",
        question=(
            "<p>In mid-June 1944 the US VII Corps attacked west across the Cotentin peninsula. <b>When "
            "were the German divisions in the north of the peninsula cut off from the rest of the German "
            "army, and what kept them in supply afterwards?</b></p><p>The game's answer is worked out now "
            "by the rules engines of <i>The Battle for Normandy</i> and <i>The Killing Ground</i> on each of "
            "their June scenarios; history is beside it.</p>"
        ),
        game=game_html,
        history=history_html,
        rests_on=rests_on,
        exercises=exercises,
        facts={
            "games": games,
            "kg": kg,
            "barneville": held,
            "first_allied": first_allied,
            "last_german": last_german,
            "north_hqs_to_cherbourg": to_cherbourg,
            "north_hqs": len(north_hqs),
        },
    )
