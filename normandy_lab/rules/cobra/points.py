"""Cobra's supply points and command limits as a game turn pays and spends them (11.0-11.3).

The Germans are paid by the weather (11.1d: 1 SP in clear, 2 in overcast, 3 in storm turns), and never hold
more than 12 (11.0c).  The Allies are paid what the Game Turn Record Track prints for the turn, US and
British apart (11.1a, 11.2), halved and rounded up in a storm turn, nothing in the game's first storm turn
(11.1b).  The track itself is on map B and not in the text (GAP): the one entry the text quotes is GT 14's
US line, 4/4 (11.3's example: four attacks and four overruns, four SP).  For every other turn the income
and the command limits are what the analyst sets (the markers ``allied_income`` and ``command_limits``,
each ``{"US": n, "UK": n}``, kept from turn to turn until changed); where neither the text nor the
analyst gives a number, none is paid and the phase says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from normandy_lab.engine.state import GameState
from normandy_lab.rules.cobra.data import turn_of

GERMAN_INCOME = {"Clear": 1, "Overcast": 2, "Storm": 3}  # 11.1d
GERMAN_CAP = 12  # 11.0c
ALLIED_ARMIES = ("US", "UK")  # 11.2: the two pools never mix

#: The Game Turn Record Track's US and British "command level / supply points" entries that the text
#: quotes, by game turn: only 11.3's example (GT 14, US 4/4).  The rest of the track is a GAP.
PRINTED_TRACK: dict[int, dict[str, tuple[int, int]]] = {14: {"US": (4, 4)}}


@dataclass(frozen=True)
class Entry:
    """One army's line of the track for a turn: its command limit and SP income, and where they come from.

    Attributes
    ----------
    army : str
        ``"US"`` or ``"UK"``.
    limit : int or None
        Attacks and, separately, overruns the army may make this turn (11.3a); None when unknown.
    income : int or None
        SP the track pays before the storm rule (11.1a); None when unknown.
    source : str
        ``"rulebook 11.3 example"``, ``"set by the analyst"`` or ``"unknown"``.
    """

    army: str
    limit: int | None
    income: int | None
    source: str


def track_entry(state: GameState, army: str, gt: int) -> Entry:
    """Return ``army``'s command limit and income for game turn ``gt``: the text's, else the analyst's."""
    printed = PRINTED_TRACK.get(gt, {}).get(army)
    if printed is not None:
        return Entry(army, printed[0], printed[1], "rulebook 11.3 example")
    income = (state.markers["allied_income"] or {}).get(army)
    limit = (state.markers["command_limits"] or {}).get(army)
    if income is None and limit is None:
        return Entry(army, None, None, "unknown")
    return Entry(army, limit, income, "set by the analyst")


#: READING ``first_storm`` (11.1b: "On the first storm game turn the Allied player does not receive any SP"),
#: a scenario option.  ``"campaign"`` (default): the first storm of the campaign, which 5.3 forces by GT 6
#: ("if there has been no previous storm turn, the weather on GT 6 is automatically storm") in every game
#: begun on GT 1, and which a scenario begun later (Cobra's GT 15) has behind it: a storm on GT 7 or later
#: is never the first; before, it is unless the weather played (``weather_history``) holds one.
#: ``"of_play"``: the first storm among the turns of the game being played, those the scenario states as
#: played (``weather_history``) and this one.
FIRST_STORM_READINGS = ("campaign", "of_play")
FORCED_STORM_GT = 6  # 5.3


def first_storm(state: GameState) -> bool:
    """Whether this turn is the game's first storm turn (11.1b), as the reading ``first_storm`` says."""
    if state.weather != "Storm" or "Storm" in state.markers["weather_history"]:
        return False
    if state.options.get("first_storm", FIRST_STORM_READINGS[0]) == "of_play":
        return True
    return turn_of(state.date) <= FORCED_STORM_GT


def allied_pay(state: GameState, entry: Entry) -> tuple[int | None, str]:
    """Return what ``entry``'s army is paid this turn after the storm rule (11.1b), and why in words."""
    if entry.income is None:
        return None, (
            f"{entry.army}: the income is printed on the Game Turn Record Track (not in the text); "
            "set allied_income to pay it"
        )
    if state.weather == "Storm" and first_storm(state):
        return 0, f"{entry.army}: nothing, the game's first storm turn (11.1b)"
    if state.weather == "Storm":
        paid = math.ceil(entry.income / 2)
        return paid, f"{entry.army}: +{paid}, half of {entry.income} rounded up in a storm (11.1b)"
    return entry.income, f"{entry.army}: +{entry.income} ({entry.source}, 11.1a)"


def pay_germans(state: GameState) -> GameState:
    """Pay the German SP of this turn's weather, up to the cap of 12 (11.1d, 11.0c)."""
    points = dict(state.markers["supply_points"])
    before = points["DE"]
    points["DE"] = min(GERMAN_CAP, before + GERMAN_INCOME[state.weather])
    capped = " (capped at 12, 11.0c)" if before + GERMAN_INCOME[state.weather] > GERMAN_CAP else ""
    return state.evolve(
        supply_points=points,
        log=state.log.then(
            f"GT {turn_of(state.date)}: Germans +{points['DE'] - before} SP in {state.weather.lower()} "
            f"weather (11.1d), {points['DE']} held{capped}"
        ),
    )


def pay_allies(state: GameState) -> GameState:
    """Pay the US and British SP of this turn's track entries (11.1a-b); an unknown entry pays nothing."""
    gt = turn_of(state.date)
    points = dict(state.markers["supply_points"])
    words = []
    for army in ALLIED_ARMIES:
        paid, why = allied_pay(state, track_entry(state, army, gt))
        points[army] += paid or 0
        words.append(why)
    return state.evolve(supply_points=points, log=state.log.then(f"GT {gt}: " + "; ".join(words)))


def command_words(state: GameState, attacks: list[dict[str, Any]]) -> dict[str, str]:
    """Say, per Allied army, its command limit this turn against the attacks on offer (11.3)."""
    gt = turn_of(state.date)
    words = {}
    for army in ALLIED_ARMIES:
        entry = track_entry(state, army, gt)
        offered = sum(1 for a in attacks if a["army"] == army)
        if entry.limit is None:
            words[army] = (
                f"{offered} attacks possible; the limit is printed on the Game Turn Record Track (not in "
                "the text): set command_limits"
            )
        else:
            more = f", {offered - entry.limit} more than the limit" if offered > entry.limit else ""
            words[army] = (
                f"at most {entry.limit} attacks and {entry.limit} overruns ({entry.source}, 11.3); "
                f"{offered} attacks possible{more}"
            )
    return words
