"""The Greatest Day's supply: no line is traced; the Americans designate three divisions a day (17.3).

From 0700 on 8 June, at every 0700 turn, the American player names three divisions "Supplied" for the day
(the marker ``supplied_divisions``); V Corps is supplied at all times and outside the count; a division is
supplied on the day it arrives; the 90th Infantry Division is Non-Supplied while it is held in its
deployment area, until 0700 on 8 June (17.4); the 82nd, if it dropped on the hypothetical western zones,
may not be named before it has linked up with Utah Beach (17.3, 17.6).  Every unit's report says which of
these made its verdict; there is no line to draw.  The German side has no such limit in the exclusive
rules, and the series' own supply rules are not in the text: German units are reported supplied, with
that said.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from normandy_lab.engine.reasons import EXEMPT, NOT_DESIGNATED
from normandy_lab.engine.report import Route, SupplyReport, UnitSupply
from normandy_lab.engine.state import GameState
from normandy_lab.grids import grid
from normandy_lab.rules.gts import paths  # the module, so a test may stand in for paths.linked_up
from normandy_lab.rules.gts.data import (
    ALWAYS_SUPPLIED,
    DESIGNATED,
    EIGHTY_SECOND,
    LZ_4,
    LZ_5,
    NINETIETH,
    SUPPLY_LIMITS_FROM,
    US_DIVISIONS,
    reading,
)

#: What a Non-Supplied division may not do (17.3), in words.
NON_SUPPLIED_EFFECTS = (
    "no Formation chits; Command: half its roll, without the Command Rating; Dispatch: at most 1 DP a turn "
    "(the 2 extra DP of the 2100 turn still come if its chit is not the last in the mug)"
)


def division_status(state: GameState) -> dict[str, tuple[bool, str, str]]:
    """Return, for each American division, (supplied, rule, why in words) on the state's day."""
    named = set(state.markers["supplied_divisions"])
    limits = state.date >= SUPPLY_LIMITS_FROM
    out = {}
    for division, arrives in US_DIVISIONS.items():
        if division == NINETIETH and not limits:
            out[division] = (False, "17.4", "held in its deployment area until 0700 on 8 June (17.4)")
        elif not limits:
            out[division] = (True, "17.3", "before 0700 on 8 June no division is limited (17.3)")
        elif arrives == state.date:
            out[division] = (True, "17.3", "supplied on the first day of its arrival (17.3)")
        elif division in named:
            out[division] = (True, "17.3", "designated Supplied for the day (17.3)")
        elif state.date < arrives:
            out[division] = (False, "17.3", f"not yet ashore (it arrives on {arrives:%-d June}, INFERRED)")
        else:
            why = "not one of the three divisions designated Supplied today (17.3)"
            if (
                division == EIGHTY_SECOND
                and state.markers["hypothetical_82nd"]
                and not paths.linked_up(state).ok
            ):
                why = "not linked up with Utah Beach, so it may not be designated (17.3, 17.6)"
            out[division] = (False, "17.3", why)
    return out


def designation_problem(state: GameState, divisions: Any) -> str | None:
    """Say why ``divisions`` cannot be today's three Supplied divisions (None: they can)."""
    if not isinstance(divisions, (list, tuple)) or not all(isinstance(d, str) for d in divisions):
        return f"name the Supplied divisions as a list, not {divisions!r}"
    if state.date < SUPPLY_LIMITS_FROM:
        return "the American supply limit begins at 0700 on 8 June (17.3): until then no division is named"
    unknown = [d for d in divisions if d not in US_DIVISIONS]
    if unknown:
        extra = (
            " (V Corps is always supplied, outside the count)" if set(unknown) & set(ALWAYS_SUPPLIED) else ""
        )
        return (
            f"{', '.join(unknown)}: not an American division of the count{extra}; "
            f"they are {', '.join(US_DIVISIONS)}"
        )
    if len(set(divisions)) != len(divisions) or len(divisions) != DESIGNATED:
        return f"exactly {DESIGNATED} different divisions are designated Supplied each day (17.3)"
    if EIGHTY_SECOND in divisions and state.markers["hypothetical_82nd"] and not paths.linked_up(state).ok:
        return "the 82nd, dropped on the western zones, may not be designated before it links up (17.3, 17.6)"
    return None


def determine(state: GameState) -> SupplyReport:
    """Report every unit's supply as designation gives it (17.3, 17.4, 17.6): a state and its rule."""
    status = division_status(state)
    rows: dict[str, UnitSupply] = {}
    for unit in state.units:
        row = UnitSupply(unit_id=unit.id, side=unit.side, hex=unit.hex)
        row.limit = "designation, not a line (17.3)"
        supplied, rule, why = _verdict(unit, status)
        row.general = row.combat = supplied
        row.rule, row.reason = rule, why
        if supplied:
            row.code, row.traced_kind, row.traced_to = EXEMPT, "designated", why
        else:
            row.code = NOT_DESIGNATED
            row.reason = f"Non-Supplied: {why}: {NON_SUPPLIED_EFFECTS}"
        rows[unit.id] = row
    report = SupplyReport(state=state, units=rows, sources={"allied": [], "german": []}, halved=False)
    report.determination = NoRanges(state)
    return report


def _verdict(unit: Any, status: dict[str, tuple[bool, str, str]]) -> tuple[bool, str, str]:
    if unit.side == "german":
        return (
            True,
            "17.3",
            (
                "no German supply limit in the exclusive rules (17.3 limits the Americans); the series' "
                "supply rules are not in the text"
            ),
        )
    if unit.corps in ALWAYS_SUPPLIED or unit.formation in ALWAYS_SUPPLIED:
        return True, "17.3", "V Corps is supplied at all times, outside the count (17.3)"
    if unit.formation in status:
        return status[unit.formation]
    return (
        True,
        "17.3",
        ("corps troops of no division: 17.3 counts divisions, so they are not limited (INFERRED)"),
    )


class NoRanges:
    """A designation has no ranges: no HQ or source reaches any hex (the report's contract, kept empty)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.n = len(grid(state.system))

    def supply_range(self, hq_or_source: str) -> set[str]:
        """Return no hexes: supply is not traced in this game."""
        return set()

    def hq_ranges_at(self) -> dict[str, np.ndarray]:
        """Return no ranges at any hex."""
        return {side: np.full(self.n, "", dtype=object) for side in ("allied", "german")}

    def routes(self) -> list[Any]:
        """Return the paths to draw: the 82nd's link-up (17.6) and the remount paths (15.0).

        The link-up is the western 82nd's with Utah Beach; a remount path is drawn for each unit under an
        Abandoned Transport marker (``abandoned_transport``); each held or broken at its first break.
        """
        found = []
        if self.state.markers["hypothetical_82nd"]:
            link = paths.linked_up(self.state)
            label = f"the 82nd's link-up from {self.state.markers['supply_drop_zone']}: {link.words}"
            found.append(Route(label, "17.6", tuple(link.path), link.ok, link.first_break))
        for unit_id in self.state.markers["abandoned_transport"]:
            if self.state.unit(unit_id).status != "active":
                continue
            remount = paths.remount_path(self.state, unit_id)
            label = f"{unit_id} remounting its transport: {remount.words}"
            found.append(Route(label, "15.0", tuple(remount.path), remount.ok, remount.first_break))
        return found


# 17.6: the 82nd's four air supply missions, in their order, one a day from 8 June, each flown the night
# before the day it serves; a Storm puts the ones not yet flown back a day.
MISSIONS = ("Indianapolis", "Jackson", "Lubbock", "Memphis")
FIRST_MISSION_NIGHT = dt.date(1944, 6, 7)  # 17.6: "Mission Indianapolis - Night, 7 June"


def _storms(state: GameState, first: dt.date, last: dt.date) -> list[str]:
    """Return the Storm days of ``storm_days`` from ``first`` up to, not including, ``last`` (ISO dates)."""
    return [d for d in state.markers["storm_days"] if first.isoformat() <= d < last.isoformat()]


def missions_put_back(state: GameState) -> int:
    """Return how many days Storms have put the 82nd's missions back by today (reading storm_delays_missions).

    ``by_day``: each Storm day from 8 June before today (its mission could not drop: the zone "is also
    closed on any turn the weather is Storm"); ``night_drop``: each Storm on a mission's Night from 7 June
    to the Night before last (17.6: "If a Storm occurs, then the supply missions get delayed a day").
    """
    if reading(state, "storm_delays_missions") == "night_drop":
        return len(_storms(state, FIRST_MISSION_NIGHT, state.date - dt.timedelta(days=1)))
    return len(_storms(state, SUPPLY_LIMITS_FROM, state.date))


def mission_today(state: GameState) -> str | None:
    """Return the supply mission that serves today (17.6), or None: none left, or the day is a Storm.

    One a day from 8 June in their order, each flown the Night before (Indianapolis the Night of 7 June);
    Storms put the rest back a day (``missions_put_back``; the marker ``storm_days`` is kept as the days go
    by).  By the reading ``night_drop`` a Storm on last Night leaves today with no mission.
    """
    if state.weather == "Storm" or state.date < SUPPLY_LIMITS_FROM:
        return None
    last_night = (state.date - dt.timedelta(days=1)).isoformat()
    if reading(state, "storm_delays_missions") == "night_drop" and last_night in state.markers["storm_days"]:
        return None  # last Night's mission was not flown: it waits a day
    n = (state.date - SUPPLY_LIMITS_FROM).days - missions_put_back(state)
    return MISSIONS[n] if 0 <= n < len(MISSIONS) else None


def eighty_second_supply(state: GameState) -> str:
    """Say how the 82nd of the western drops stands for supply today (17.6), in words with the rule.

    Linked up, it needs no drops.  Otherwise its drop zone is closed by a German unit in it or by a
    Storm (then every 82nd unit has TQ -1 until a drop gets through or it links up); from 0700 on 11 June
    without link-up its TQ drops by 2.  A Storm puts the missions back a day; there were four
    (Indianapolis to Memphis).
    """
    if not state.markers["hypothetical_82nd"]:
        return "the 82nd dropped on its historical zones: 17.6 does not apply"
    link = paths.linked_up(state)
    if link.ok:
        return f"{link.words}: no TQ penalty"
    if state.date >= SUPPLY_LIMITS_FROM.replace(day=11):
        return f"{link.words}; not linked up by 0700 on 11 June: TQ -2 until it links up (17.6)"
    zone_name = state.markers["supply_drop_zone"]
    zone = set(LZ_5 if zone_name == "LZ 5" else LZ_4)
    held = sorted(u.id for u in state.units_of("german") if u.hex in zone)
    if held or state.weather == "Storm":
        why = f"held by {', '.join(held)}" if held else "Storm"
        return f"{link.words}; drop zone {zone_name} closed ({why}): TQ -1 until a drop gets through (17.6)"
    mission = mission_today(state)
    delayed = missions_put_back(state)
    later = f", put back {delayed} day{'s' if delayed > 1 else ''} by Storm" if delayed and mission else ""
    drop = f"mission {mission} drops into {zone_name}{later}" if mission else "no mission is left for today"
    return f"{link.words}; {drop} (17.6)"
