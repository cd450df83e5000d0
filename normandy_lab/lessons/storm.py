"""Lesson 3: what the storm of 19 to 22 June 1944 did to both sides' supply, under each game that covers it.

The games that cover the storm are found, not listed: :func:`normandy_lab.sidebyside.scenarios_on` names each
game's historical scenario holding 19 June.  For each, the engine determines supply in the scenario's own
weather and again with the weather set to Overcast (the weather before the storm, 6-7 June in BfN's 8.1o),
and counts each side's units out; the rule system's weather table says why they differ or do not.
History beside it: the timeline's storm and the loss of Mulberry A, with their sources.
"""

from __future__ import annotations

import html
from typing import Any

import pandas as pd

from normandy_lab.engine.reasons import OUT_OF_RANGE
from normandy_lab.lessons.base import Exercise, Lesson, event_html, sources_html, table

#: The first day of the storm.
DAY = "1944-06-19"
#: The weather the storm is compared with.
CALM = "Overcast"
GAME_NAMES = {
    "bfn": "The Battle for Normandy",
    "cobra": "Cobra",
    "kg": "The Killing Ground",
    "gts": "The Greatest Day: Utah Beach",
}


def _out(report: Any, side: str) -> int:
    return len(report.out_of_supply(side))


def study_game(system: str, spec: str) -> dict[str, Any]:
    """Work out one game's answer: each side's units out in the storm and in calm weather, and why.

    Returns
    -------
    dict
        ``system``, ``scenario``, ``weather`` (the scenario's), ``out`` (``{(weather, side): count}``),
        ``halved`` (whether the rules halve supply ranges in it), ``weather_bound`` (units out only because
        of the halving, as the engine marks them), ``effects`` (the rule system's weather table row),
        ``summary`` (the engine's account) and ``income`` (KG: the Allied SP income in words, both weathers).
    """
    import normandy_lab as nl
    from normandy_lab.engine.edits import set_weather
    from normandy_lab.engine.whatif import supply_summary
    from normandy_lab.sidebyside import state_of

    state = state_of(spec)
    calm = set_weather(state, CALM)
    storm, quiet = nl.supply(state), nl.supply(calm)
    out = {}
    for side in ("allied", "german"):
        out[(state.weather, side)] = _out(storm, side)
        out[(CALM, side)] = _out(quiet, side)
    effects = dict(getattr(state.rules, "weather_effects", {}) or {}).get(state.weather, {})
    income = {}
    if system == "kg":
        from normandy_lab.rules.kg.logistics import allied_income_words

        income = {state.weather: allied_income_words(state), CALM: allied_income_words(calm)}
    return {
        "system": system,
        "scenario": spec,
        "date": state.date,
        "turn": state.turn,
        "weather": state.weather,
        "out": out,
        "halved": bool(storm.halved),
        # Counted as the engine's summary counts them: units beyond range only under the halving (7.3.3).
        "weather_bound": sum(bool(r.weather_bound) for r in storm.out_of_supply() if r.code == OUT_OF_RANGE),
        "effects": effects,
        "summary": supply_summary(storm),
        "income": income,
        "units": {side: len(state.units_of(side)) for side in ("allied", "german")},
    }


def _effect_words(game: dict[str, Any]) -> str:
    """Say what the rule system's weather table gives the scenario's weather."""
    effects = game["effects"]
    said = []
    if "supply_halved" in effects:
        said.append("supply ranges halved" if effects["supply_halved"] else "supply ranges not halved")
    if effects.get("no_landing"):
        said.append("nothing lands over the beaches")
    if "csp" in effects:  # BfN's Summary of Weather Effects (8.0)
        said.append(f"{effects['csp']} CSPs a day (8.0)")
    if effects.get("air") is False:
        said.append("no Air Allocation Phase (11.1.1)")
    return ", ".join(said) or "no effect listed"


def lesson() -> Lesson:
    """Return the lesson, every verdict worked out by the engine now."""
    from normandy_lab.history.timeline import timeline
    from normandy_lab.sidebyside import scenarios_on

    covering = scenarios_on(DAY)
    games = [study_game(system, spec) for system, spec in covering.items()]
    rows = []
    for game in games:
        for side in ("allied", "german"):
            rows.append(
                {
                    "game": f"{GAME_NAMES.get(game['system'], game['system'])} "
                    f"({game['date'].day} June, {game['turn']})",
                    "side": side.capitalize(),
                    f"units out, {game['weather']}": game["out"][(game["weather"], side)],
                    f"units out, {CALM}": game["out"][(CALM, side)],
                    "of": game["units"][side],
                }
            )
    frame = pd.DataFrame(rows)
    missing = sorted(set(GAME_NAMES) - set(covering))
    effect_lines = "".join(
        f"<li><b>{html.escape(GAME_NAMES.get(g['system'], g['system']))}</b>, {g['weather']}: "
        f"{html.escape(_effect_words(g))}"
        + (
            f"; the engine marks {g['weather_bound']} units out only because of the halving"
            if g["halved"]
            else ""
        )
        + "".join(
            f"; Allied supply points: {html.escape(text)}"
            for w, text in g["income"].items()
            if w == g["weather"]
        )
        + "</li>"
        for g in games
    )
    game_html = (
        f"<p>The games with a historical scenario on {DAY[8:].lstrip('0')} June 1944: "
        f"{html.escape(', '.join(GAME_NAMES.get(s, s) for s in covering))}"
        + (
            f" (not {html.escape(', '.join(GAME_NAMES[s] for s in missing))}, whose scenarios lie elsewhere)"
            if missing
            else ""
        )
        + f". Each is played in its own weather and again in {CALM} weather:</p>"
        + table(frame)
        + f"<p>What each game's weather table does in the storm:</p><ul>{effect_lines}</ul>"
    )
    storm_text, storm_sources = event_html("great_storm")
    mulberry_text, mulberry_sources = event_html("mulberry_a_lost")
    events = timeline()
    during = events[
        (events["start"] >= pd.Timestamp(DAY).date()) & (events["start"] <= pd.Timestamp("1944-06-22").date())
    ]
    others = ", ".join(
        str(n)
        for n, c in zip(during["name"], during["category"], strict=True)
        if c != "storm" and "Mulberry" not in str(n)
    )
    history_html = (
        storm_text
        + mulberry_text
        + (f"<p>Also begun in those days, by the same timeline: {html.escape(others)}.</p>" if others else "")
        + sources_html([*storm_sources, *mulberry_sources])
    )
    rests_on = [f"{GAME_NAMES.get(g['system'], g['system'])}, {g['turn']}: {g['summary']}" for g in games]
    if "bfn" in covering:
        rests_on.append(
            "The Battle for Normandy's Historical Weather (8.1o) gives 6-9 June only; the Storm of 19-21 "
            "June "
            "is added to it from the histories (Ellis, Victory in the West; Ruppenthal, Logistical Support), "
            "a reading of this project, not the rulebook's."
        )
    if "kg" in covering:
        rests_on.append(
            "The Killing Ground's weather table is not in the text; the engine's Storm halves no supply "
            "range and "
            "lands nothing over the beaches (26.14.1), and its air points in a storm are inferred."
        )

    by = {g["system"]: g for g in games}

    def answer_one() -> str:
        g = by.get("bfn")
        if g is None:
            return "<p>BfN has no scenario on that day.</p>"
        a, b = (g["out"][(g["weather"], "allied")], g["out"][(CALM, "allied")])
        c, d = (g["out"][(g["weather"], "german")], g["out"][(CALM, "german")])
        return (
            f"<p>Allied: {a} out in the {g['weather']} against {b} in {CALM}; German: {c} against {d}. "
            f"{'Both sides lose supply' if a > b and c > d else 'The sides are not hit alike'}: BfN halves "
            "every "
            "supply range in a storm (7.3.3), whoever the unit belongs to.</p>"
        )

    def answer_two() -> str:
        g = by.get("kg")
        if g is None:
            return "<p>KG has no scenario on that day.</p>"
        same = all(g["out"][(g["weather"], s)] == g["out"][(CALM, s)] for s in ("allied", "german"))
        income = g["income"].get(g["weather"], "")
        return (
            f"<p>{'No unit changes' if same else 'Some units change'}: in KG's storm "
            f"{html.escape(_effect_words(g))} (26.14.1). On this turn the engine says of the Allied supply "
            f"points: {html.escape(income)}.</p>"
        )

    def answer_three() -> str:
        text, _ = event_html("mulberry_a_lost")
        said = "; ".join(f"{GAME_NAMES.get(g['system'], g['system'])}: {_effect_words(g)}" for g in games)
        return (
            f"<p>In the games' weather tables the storm means: {html.escape(said)}. A game that stops the "
            "landing of supply is nearer the history of unloading cut to a fraction; a game that halves "
            "ranges hits both sides' lines alike. No game's supply lines show a harbour lost:</p>" + text
        )

    exercises = [
        Exercise(
            "In The Battle for Normandy, how many units of each side are out of supply in the storm, and "
            "how many "
            f"in {CALM} weather? Does the storm favour one side?",
            answer_one,
        ),
        Exercise(
            "In The Killing Ground, does the storm put any unit out of supply? What does it stop instead?",
            answer_two,
        ),
        Exercise(
            "History says the storm cut unloading to a fraction of plan. Which game is nearer to that, and "
            "what did the storm destroy that neither game's lines show?",
            answer_three,
        ),
    ]
    return Lesson(
        title="Lesson 3: the storm of 19-22 June",
        question=(
            "<p>From 19 to 22 June 1944 a gale blew on the invasion coast. <b>What did the storm do to each "
            "side's supply, according to each game that covers those days?</b></p><p>The games' answers are "
            "worked out now by their rules engines; history is beside them.</p>"
        ),
        game=game_html,
        history=history_html,
        rests_on=rests_on,
        exercises=exercises,
        facts={"games": {g["system"]: g["out"] for g in games}, "covering": covering},
    )
