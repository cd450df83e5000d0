"""Cobra (Decision Games 2019, rules version 5) as data: the calendar, the sequence, units and readings.

What the rulebook states is cited by rule number; what it does not (the counters' printed values and the
Terrain Effects Chart are on components the seeds lack) is marked RECONSTRUCTED here and in
``docs/rule-systems.md``, and can be replaced through :func:`dataclasses.replace` or a scenario's options.
"""

from __future__ import annotations

import datetime as dt

from normandy_lab.errors import RefusedError
from normandy_lab.rules.base import Phase, SupplyState
from normandy_lab.rules.cobra.metric import LIMIT, READINGS

ALLIED, GERMAN = "allied", "german"

# -- time (2.4, 17.1-17.3) --------------------------------------------------------------------
# GT 1 is 6 June alone; every later game turn is three days.  This calendar is INFERRED from the
# anchors the text gives (GT 1 = 6 June; GT 15 = 16-18 July; GT 27 = 21-23 August; GT 28 = 24-26
# August), and every one of them holds (tests/rules/test_cobra.py).
FIRST_DAY = dt.date(1944, 6, 6)
LAST_TURN = 28


def turn_dates(gt: int) -> tuple[dt.date, dt.date]:
    """Return the first and last day of game turn ``gt`` (1 to 28)."""
    if not 1 <= gt <= LAST_TURN:
        raise RefusedError(f"GT {gt}: Cobra's game turns run from 1 to {LAST_TURN}")
    if gt == 1:
        return FIRST_DAY, FIRST_DAY
    start = FIRST_DAY + dt.timedelta(days=1 + 3 * (gt - 2))
    return start, start + dt.timedelta(days=2)


def turn_of(date: dt.date) -> int:
    """Return the game turn a date falls in."""
    days = (date - FIRST_DAY).days
    if days < 0 or days > (turn_dates(LAST_TURN)[1] - FIRST_DAY).days:
        raise RefusedError(f"{date} is outside Cobra's calendar (6 June to 26 August 1944)")
    return 1 if days == 0 else 2 + (days - 1) // 3


TURNS = tuple(f"GT {n}" for n in range(1, LAST_TURN + 1))


def _phases(turn: str) -> tuple[Phase, ...]:
    """Return the phases of one game turn (4.0): the German player turn, then the Allied one."""
    landing = (
        (Phase("Allied Landing Phase", turn, ALLIED, "reinforcement", "17.3.2"),) if turn == "GT 1" else ()
    )
    return (
        *landing,
        Phase("Weather & German Supply", turn, GERMAN, "weather", "4.0, 5.3, 11.1"),
        Phase("German Replacement", turn, GERMAN, "reinforcement", "12.0"),
        Phase("German Initial Movement", turn, GERMAN, "movement", "5.0, 10.1"),
        Phase("German Combat", turn, GERMAN, "combat", "8.0, 10.2, 11.0"),
        Phase("German Mechanized Movement", turn, GERMAN, "mech_movement", "5.2"),
        Phase("Allied Supply", turn, ALLIED, "bookkeeping", "11.1"),
        Phase("Allied Replacement", turn, ALLIED, "reinforcement", "12.0, 5.7"),
        Phase("Allied Initial Movement", turn, ALLIED, "movement", "5.0, 10.1"),
        Phase("Allied Combat", turn, ALLIED, "combat", "8.0, 10.2, 11.0, 14.3"),
        Phase("Allied Mechanized Movement", turn, ALLIED, "mech_movement", "5.2"),
        Phase("Game Turn Indication", turn, None, "end_of_turn", "4.0"),
    )


SEQUENCE: dict[str, tuple[Phase, ...]] = {turn: _phases(turn) for turn in TURNS}

# -- weather (5.3) ---------------------------------------------------------------------------
# Weather is Allied air power against German movement (5.3b): the German MA is multiplied by this
# fraction, after any halving for supply, rounding up.  The die table's columns are on the map (GAP).
WEATHER_EFFECTS = {
    "Clear": {"german_ma_fraction": (1, 3), "supply_halved": False},
    "Overcast": {"german_ma_fraction": (2, 3), "supply_halved": False},
    "Storm": {"german_ma_fraction": (1, 1), "supply_halved": False},
}
# 17.3.1d: the weather of the Campaign's first two turns is fixed.
HISTORICAL_WEATHER = {"1944-06-06": "Clear", "1944-06-07": "Overcast"}

# -- units (2.3, 8.5, 7.0, 9.0) ------------------------------------------------------------------
# 2.3.4: "US" means the American and French units, "British" the British, Canadian and Polish ones,
# unless a rule says otherwise; so the Allied armies every rule reads (5.9, 6.0-6.1, 8.1d-e, 11.2).
ARMIES = {"US": "US", "FR": "US", "UK": "UK", "CA": "UK", "PL": "UK"}


def army_of(unit) -> str | None:
    """Return the Allied army a unit counts in, ``"US"`` or ``"UK"`` (2.3.4), None for a German unit."""
    return ARMIES.get(unit.nationality)


UNIT_TYPES = ("infantry", "parachute", "armor", "mech_infantry", "recon", "flak", "delay", "hq")
SIZES = ("battalion", "regiment", "brigade", "division", "corps_hq")
# 8.5: battalions, delay units and HQs have 1 step; regiments and brigades 2; Allied infantry divisions 4.
MAX_STEPS = {"battalion": 1, "corps_hq": 1, "regiment": 2, "brigade": 2, "division": 4}
# RECONSTRUCTED: the counters' movement allowances are not in the text.  Delay units 6 (17.3.11) and
# Flak 12 (5.2) are; the rest are the SPI-family values of Cobra's first edition (INFERRED).
UNIT_DEFAULTS = {
    "infantry": {"ma": 4, "mechanized": False},
    "parachute": {"ma": 4, "mechanized": False},
    "armor": {"ma": 8, "mechanized": True},
    "mech_infantry": {"ma": 8, "mechanized": True},
    "recon": {"ma": 10, "mechanized": True},
    "flak": {"ma": 12, "mechanized": True},
    "delay": {"ma": 6, "mechanized": False},
    "hq": {"ma": 8, "mechanized": True},
}
# RECONSTRUCTED: combat strength per step by size (the counters are not in the text).  The one printed
# anchor is an Allied infantry division's 6 after two steps lost (8.5c2): 3 a step.
STRENGTH_PER_STEP = {"battalion": 3, "regiment": 3, "brigade": 3, "division": 3, "corps_hq": 1}

# RECONSTRUCTED Terrain Effects Chart (the chart is printed on the map, GAP).  The text fixes clear 1 MP
# (5.1a), a mechanized unit's light forest + bocage hex 3 MP as the single highest cost (5.6 example),
# river costs added to the hex (5.6), roads negating terrain and rivers (5.6a), a city at clear cost and a
# town at its other terrain (5.6b), mechanized units in marsh only along roads (5.6c), all-sea closed
# (5.6d).  The numbers themselves are INFERRED (SPI-family values): "all" takes the whole allowance, a
# missing entry prohibits the move.
TERRAIN_COST = {
    "infantry": {"Clear": 1, "Beach": 1, "Bocage": 2, "Light Woods": 2, "Marsh": "all", "City": 1},
    "mechanized": {"Clear": 1, "Beach": 1, "Bocage": 3, "Light Woods": 3, "City": 1},
    "hexside": {"Minor River": 1, "Major River": 2},
}
ROAD_COST = {"major": 0.5, "minor": 1.0}  # INFERRED

SUPPLY = {
    "line_limit": LIMIT,  # 10.3a
    # 10.4a: the east edge is column 51 of map A; 10.4b: the south edge is map A's rows 33 and 34.
    "german_east_column": 51,
    "german_south_rows": (33, 34),
    # 10.5: Allied lines run to a primary road off the north edge of map A, hexes A0101 to A3701.
    "allied_north_row": 1,
    "allied_north_columns": (1, 37),
    # 17.3.6a-b: the supply heads of the Campaign.  The symbols are printed on the map (GAP): RECONSTRUCTED
    # as the ports and towns the armies were supplied through (INFERRED): Cherbourg's city hexes (16.1),
    # Isigny, Carentan and Port-en-Bessin; the beaches are sources of their own (17.3.6f).
    "supply_heads": {
        "Cherbourg": ("B1207", "B1307", "B1308", "B1407"),  # all four: B1307 is land, as 16.1 has it
        "Isigny": ("B2619",),
        "Carentan": ("B2219",),
        "Port-en-Bessin": ("B3519",),
    },
    # 17.3.6c: Bayeux's three hexes.
    "bayeux_hexes": ("B3620", "A2601", "A2701"),
    # 10.3b3: the unbridged Dives hexsides of A4101 to A4106 close a line.
    "dives_hexes": tuple(f"A41{r:02d}" for r in range(1, 7)),
}

OPTIONS = {
    "major_road": "per_run",  # 10.3f, see rules.cobra.metric
    "major_river": "replaces",  # 10.3g
    "what_if_interdiction": "block",
}

#: The markers of a Cobra state and their defaults (a scenario gives its own): each army's supply points
#: (11.1), the Allied Army Boundary's column (5.9), whether the south edge is lost to the Germans (10.4).
#: The weather of the turns before (oldest first) and how this turn's came about drive 5.3a's columns and
#: modifiers; ``allied_exited``: an Allied unit has left a map edge (5.3c's relief, 10.4's south edge).
MARKERS = {
    "supply_points": {"US": 0, "UK": 0, "DE": 0},
    # 11.1a, 11.3: the Allied income and command limits of the turn track (a GAP), {"US": n, "UK": n} as
    # the analyst or scenario sets them; None: unknown (rules.cobra.points).
    "allied_income": None,
    "command_limits": None,
    "army_boundary": None,
    # 5.9.1b-d: the first game turn that ended with an Allied unit south of Vire, and the extension of
    # the boundary placed after it (the Vire end, the east end), or None.
    "south_of_vire_gt": None,
    "boundary_extension": None,
    "south_edge_lost": False,
    "allied_exited": False,
    "weather_history": (),
    "weather_roll": "",
    # 14.3: the carpet bombing planned ({"hex", "gt"}), the one carried out this game turn, and the
    # missions flown in GTs 5-14 ("early") and from GT 15 ("late").
    # 17.3.5e: Cherbourg serves the Germans cut off in the Cotentin only while no Allied unit has entered it.
    "cherbourg_entered": False,
    # 17.3: a Campaign scenario (the Allies trace to beaches and supply heads, 17.3.6) and its wrecked
    # beach hexes (a German unit ended an Allied player turn there: never a source again).
    "campaign": False,
    "wrecked_beaches": (),
    # 9.1b: the HQs displaced in the phase now ({"at": [turn, phase index], "ids": [...]}), None: none yet;
    # an HQ displaced a second time in one phase is eliminated.
    "hq_displaced": None,
    "carpet_plan": None,
    "carpet_done": None,
    "carpet_missions": {"early": 0, "late": 0},
}

SUPPLY_STATES = (
    SupplyState("general", "supply", "10.3"),  # said "in supply", "out of supply"
    # 10.2, 5.9f: supply for an attack, judged at the instant of combat; an Allied line may not run more
    # than one hex onto the other army's side of the Allied Army Boundary.
    SupplyState("combat", "attack supply", "10.2, 5.9f"),
    SupplyState("isolated", "isolated: no line of any length", "10.3, 10.6b"),
)

RULE_NOTES = {
    "7.0": "ZOC: every unit but HQs, battalions and Flak; not across major rivers or all-sea hexsides; "
    "not into "
    "the city hexes of Caen or Cherbourg; friendly units other than HQs negate it for supply lines.",
    "10.3": f"A line of at most {LIMIT} hexes to a source, free of enemy units and their un-negated ZOC: a "
    "major-road run counts 1, a minor road 1 a hex, bocage off road 2, a major river crossed off road 6, at "
    "most one marsh hex off the roads.",
    "10.4": "German sources: a primary road off the east edge (A5101-A5134) or the south edge (map A rows "
    "33-34; lost once an Allied unit exits it).",
    "10.5": "Allied sources: a primary road off the north edge of map A (A0101-A3701).",
    "10.6": "Out of supply: MA and combat strength halved (strength at least 1); never eliminated for it.",
}

__all__ = [
    "ARMIES",
    "HISTORICAL_WEATHER",
    "MARKERS",
    "MAX_STEPS",
    "OPTIONS",
    "READINGS",
    "ROAD_COST",
    "RULE_NOTES",
    "SEQUENCE",
    "SIZES",
    "STRENGTH_PER_STEP",
    "SUPPLY",
    "SUPPLY_STATES",
    "TERRAIN_COST",
    "TURNS",
    "UNIT_DEFAULTS",
    "UNIT_TYPES",
    "WEATHER_EFFECTS",
    "army_of",
    "turn_dates",
    "turn_of",
]
