"""The Greatest Day: Utah Beach as data: its day of two-hour turns, weather, air power and divisions.

Only the game's exclusive rules are in the seeds; the Grand Tactical Series rules (sequence of play, chit
activation, Fire Zones, the fire and assault tables) and the scenario booklets are not.  What the
exclusive rules state carries its rule number; what they leave to the series rules is said to be missing,
never filled in as if it were the book's.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from normandy_lab.rules.base import Phase, SupplyState

ALLIED, GERMAN = "allied", "german"

# -- time (1.1, 17.3) ---------------------------------------------------------------------------------
# Two-hour day turns from 0700 to 2100, then one Night turn; a new date begins after the Night (1.1: "The
# Night turn begins the turn after the 2100 turn").
TURNS = ("0700", "0900", "1100", "1300", "1500", "1700", "1900", "2100", "Night")
FIRST_DAY = dt.date(1944, 6, 6)
# 3.4.2: "On Night, 5 June a battalion may not receive more than 4 Straggler Recovery Points per turn";
# 18.7: "During all 5, 6, and 7 June Game Turns": the game opens on the Night of 5 June (Drop One, 3.3),
# dated by the evening before as 1.1 dates every Night; that date has its Night turn only.
OPENING_NIGHT = dt.date(1944, 6, 5)
SUPPLY_LIMITS_FROM = dt.date(1944, 6, 8)  # 17.3: "At the start of the 0700, 8 June game turn"
AIR_ALLOCATION_FROM = dt.date(1944, 6, 7)  # 17.1: "At the start of the 0700 turn of June 7"


def _phases(turn: str) -> tuple[Phase, ...]:
    """Return a turn's steps: those the exclusive rules name, then one Activation phase.

    The series' sequence of play (GTS 2.0c) is not in the text: the steps are 17.3's Step A and 17.1's
    phase B on the 0700 turn, then an Activation phase whose chit draws are not played (its results say so).
    """
    daily = (
        (
            Phase("Supply Designation", turn, ALLIED, "bookkeeping", "17.3 (Step A)"),
            Phase("Air Power", turn, ALLIED, "air", "17.1 (phase B)"),
        )
        if turn == "0700"
        else ()
    )
    return (
        *daily,
        Phase("Activation", turn, None, "activation", "GTS series rules (not in the text)"),
        Phase("End of Turn", turn, None, "end_of_turn", "1.1"),
    )


SEQUENCE = {turn: _phases(turn) for turn in TURNS}

# -- weather and air (1.2, 17.1) ------------------------------------------------------------------------
# Fighter-bombers per day, and how many of them may go on interdiction (17.1).  Storm also doubles the
# MP to enter a hex off the roads (1.2: played in ``movement.py``) and cuts fire by 2 (the series' fire).
WEATHER_EFFECTS = {
    "Clear": {"supply_halved": False, "fighter_bombers": 9, "interdiction_max": 4},
    "Overcast": {"supply_halved": False, "fighter_bombers": 5, "interdiction_max": 2},
    "Storm": {"supply_halved": False, "fighter_bombers": 0, "interdiction_max": 0},
}

# -- the divisions the American supply limit counts (17.3, 17.4, 17.6) ------------------------------
#: The American divisions and the day each arrives ("supplied on the first day of its arrival", 17.3).
#: The 90th ID's first units came ashore on 6-7 June; it is released on 8 June (17.4).
US_DIVISIONS = {
    "4th Infantry Division": dt.date(1944, 6, 6),
    "82nd Airborne Division": dt.date(1944, 6, 6),
    "101st Airborne Division": dt.date(1944, 6, 6),
    "90th Infantry Division": dt.date(1944, 6, 7),
    # 13.4 lists it among the American divisions ("9th Infantry Division: 3 organic formations + 1
    # attachment"); the day it lands is in the booklets (GAP): 10 June, when its first regiment came
    # ashore at Utah (history, INFERRED).
    "9th Infantry Division": dt.date(1944, 6, 10),
}
ALWAYS_SUPPLIED = ("V Corps",)  # 17.3: supplied at all times, outside the count
DESIGNATED = 3  # 17.3: "designate 3 Divisions as 'Supplied' for the day"
NINETIETH, EIGHTY_SECOND = "90th Infantry Division", "82nd Airborne Division"
NINETIETH_RELEASED = dt.datetime(1944, 6, 8, 7, 0)  # 17.4: restricted "until 0700, 8 June"

# 17.6: the 82nd's supply drop zones in the hypothetical scenarios (LZ 4, LZ 5; 3.2's hex lists).
LZ_4 = ("87.042", "88.042", "88.043", "89.041", "89.042")
LZ_5 = ("81.040", "81.041", "82.041", "82.042")
# The Utah Beach Reinforcement hexes are printed on the Beach Overlay and the scenario maps (GAP).  INFERRED
# from what the text asks of them, one for each of the four Utah causeways (2.3.7: "treated just as Roads";
# the exit roads of maps/geography/roads_1944.yaml, each with its source): the first hex of the exit road
# off the beach.  Why those hexes:
# * 4.1.4: once the beach is cleared "reinforcements are simply placed on a reinforcement hex near the
#   shore", and "all Beach hexes become out of play": a land hex by the shore, not a Beach hex;
# * 17.6 ("a path of continuous Road hexes from the Supply Drop Zone to the Utah Beach Reinforcement hex")
#   and 15.0 ("a continuous path of ... Road hexes ... to a Beach Reinforcement hex") end road paths at it:
#   a road hex;
# * 4.3.2, 4.3.3 speak of "reinforcement hexes on that Beach Overlay", "their respective Reinforcement hex
#   (or hexes)": more than one, on the beach's own ground;
# * behind the Utah shore lay the inundations (Marsh on the derived map), which a vehicle crosses only along
#   a road (2.1.7): the four causeways are the only roads off the beach, so only their shore ends can be
#   where landed troops and vehicles join the roads.
# Exit 1 (Pouppeville) 18.031, Exit 2 (La Madeleine, D913) 19.026, Exit 3 (Audouville) 22.025 (its road
# starts on the Beach hex 22.024), Exit 4 (Saint-Martin) 26.021.  The old reading (the four actual landing
# hexes of 4.5.2) held no road hex, so no American could remount.
UTAH_REINFORCEMENT_HEXES = ("18.031", "19.026", "22.025", "26.021")
UTAH_EXITS = {"18.031": "Exit 1", "19.026": "Exit 2", "22.025": "Exit 3", "26.021": "Exit 4"}
# 2.3.3-2.3.5: the hexes of Raised (white), Embankment (yellow: "work exactly like Raised") and Sunken (red)
# Roads/Railroads, where a leg unit not in Column pays "double the terrain cost" and a vehicle enters only in
# Column through the road's own hexsides.  No source places one: the text names none by hex (2.3.3 only says
# Raised Railroads are not used in this game), the map sheets are not in the seeds, and the project's road
# data (maps/geography/roads_1944.yaml) classes roads as highway, primary or secondary only; the causeways
# are plain roads (2.3.7).  Mentions of embankments in the data's own sources (the N13 across the low ground
# east of Carentan in maps/geography/wetlands.yaml; the railway near Chef-du-Pont in
# maps/history/lodgement_june.yaml) describe the ground, not which hexes the game colours: none is placed.
RAISED_OR_SUNKEN_ROAD_HEXES: frozenset[str] = frozenset()
REMOUNT_ROAD_HEXES = 10  # 15.0: "at least 10 Road hexes"
GERMAN_FRIENDLY_EDGES = ("north", "west", "south")  # 15.0

SUPPLY_STATES = (SupplyState("general", "supply", "17.3"),)

UNIT_TYPES = (
    "infantry", "parachute", "glider", "armor", "tank_destroyer", "recon", "artillery", "engineer",
    "anti_tank", "flak", "hq", "machine_gun", "static",
)  # fmt: skip
SIZES = ("company", "battalion", "regiment", "division_hq", "corps_hq")
UNIT_DEFAULTS = {t: {"ma": 6, "mechanized": t in ("armor", "tank_destroyer", "recon")} for t in UNIT_TYPES}

MARKERS = {
    # 17.3: the three divisions the Americans designated Supplied today (Step A of the 0700 turn).
    "supplied_divisions": (),
    # 17.6: the 82nd dropped on the hypothetical western zones (DZ 1-3, LZ 4-5), and its supply drop
    # zone (LZ 4 or LZ 5).
    "hypothetical_82nd": False,
    "supply_drop_zone": "LZ 4",
    # 17.1: fighter-bombers the Allies put on interdiction today.
    "fighter_bombers_on_interdiction": 0,
    # 17.1: the German reinforcement hexes entering this turn (scenario booklets: GAP; given by the scenario).
    "german_reinforcement_hexes": (),
    # 2.3.3, 2.3.5, 15.0: the units under an Abandoned Transport marker, whose remount paths are drawn.
    "abandoned_transport": (),
    # 17.6: the days (ISO dates) that were Storm, each putting the 82nd's remaining missions back a day.
    "storm_days": (),
    # 4.4.1, 4.4.3: the hex of each Utah Assault Force marker, from which its ships' ranges are counted;
    # 4.4.7's example places them (UtS 20.025, UtN 37.010).  Added after studies were saved (late_markers).
    "assault_force_markers": {"UtN": "37.010", "UtS": "20.025"},
}

# Where the text is open, the engine's reading of it: options a scenario, a study or an analyst may change
# (state.options, checked by the options schema, rules.gts.schema); a verdict that rests on one names it.
# Read them with ``reading(state, name)``.
READINGS = {
    # 17.1: "If he rolls equal to or less than the number of Fighter Bombers he has on Interdiction": the
    # d10 reads 0-9, so with no plane a 0 would still be "equal".  ``no_roll`` (default): an empty
    # Interdiction box interdicts nothing; ``roll``: the Allies roll anyway, a 0 keeping the Germans out.
    "interdiction_with_no_planes": "no_roll",
    # 1.2: a Storm doubles the MP to enter a hex "unless a Unit is in Column and moving along a
    # Road/Railroad"; Column is not modelled.  ``along_roads`` (default): a step along a road or railway
    # counts as in Column, so is not doubled; ``never``: every step doubles.
    "storm_column": "along_roads",
    # Fire Zones (15.0: the remount path "must be free of Enemy Units or Fire Zones") are the series', not in
    # the text; what the text says of them (paths.fire_zone quotes it) gives them a unit's range.  ``range``
    # (default): each enemy unit but an HQ covers the hexes within its range: its ``fire_range`` where the
    # scenario gives it (the counters' ranges are a GAP), 8 for an AA unit (17.1, 3.3), else 1; cut to 1
    # under a Barrage marker or with an enemy next to it (17.1).  ``adjacent``: the old stand-in, the hexes
    # of and next to each enemy unit but an HQ.
    "fire_zones": "range",
    # 17.6: link-up is "a path of continuous Road hexes from the Supply Drop Zone to the Utah Beach
    # Reinforcement hex"; rivers "can only be crossed at Bridges" (2.2.4).  ``breaks`` (default): a road
    # does not go on across a river whose bridge is destroyed; ``ignored``: road hexes on either side still
    # count as continuous.
    "link_up_destroyed_bridge": "breaks",
    # 17.6 names no enemy at all; a German unit in a road hex of the path holds it (INFERRED).
    # ``on_the_path`` (default): only a hex a German unit stands in; ``next_to_the_path``: a German unit next
    # to a road hex closes it too (15.0, by contrast, names Fire Zones and 17.6 does not).
    "link_up_german_units": "on_the_path",
    # 15.0: "at least 10 Road hexes toward the friendly board edge for the Germans (north, west or south
    # board edges)".  ``any_edge`` (default): the road hex reached lies nearer any one of the three edges
    # than where the road path began (each is "the friendly board edge"); ``nearest_edge``: nearer the edge
    # nearest to it (the old reading).
    "remount_toward": "any_edge",
    # 17.6: "If a Storm occurs, then the supply missions get delayed a day"; drops "take place during the
    # Division Activation chit" and the zone "is also closed on any turn the weather is Storm".  ``by_day``
    # (default): each Storm day from 8 June, when the day's mission cannot drop, puts the rest back a day;
    # ``night_drop``: only a Storm on the Night a mission is flown (7 June onwards) puts it back.
    "storm_delays_missions": "by_day",
    # 4.1.4: once a beach is cleared its overlay goes and "all Beach hexes become out of play for all
    # players"; 4.3.3: "No Allied Unit may enter a Beach hex on a Beach Overlay with a cleared Beach".  Utah
    # was cleared on D-Day (whether the booklets' 8 June set-up keeps the overlay: GAP).  ``out_of_play``
    # (default): from 8 June no unit enters a Beach hex; ``enterable``: the overlay kept, Americans may.
    "beach_from_8_june": "out_of_play",
}
#: Readings added after studies of the game were saved: left out of ``OPTIONS`` (so out of a state's options
#: and its fingerprint) while at their default, as ``ScenarioFormat.late_markers`` does for markers; a
#: scenario, a sweep or an edit that sets one puts it in the state's options.
LATE_READINGS = frozenset({
    "fire_zones", "link_up_destroyed_bridge", "link_up_german_units", "remount_toward",
    "storm_delays_missions", "beach_from_8_june",
})  # fmt: skip


def reading(state: Any, name: str) -> Any:
    """Return the reading ``name`` a state plays: its option, or the default of ``READINGS``."""
    return state.options.get(name, READINGS[name])


OPTIONS = {
    # Fire Zones (the series') switched off altogether for the remount path (15.0) when False; how far they
    # reach is the reading ``fire_zones``.
    "fire_zone_stand_in": True,
    "what_if_interdiction": "block",
    **{name: value for name, value in READINGS.items() if name not in LATE_READINGS},
}

RULE_NOTES = {
    "17.3": "From 0700 on 8 June the Americans designate three divisions Supplied each day; V Corps is "
    "always supplied; a division is supplied on the day it arrives.",
    "17.4": "The 90th Infantry Division is Non-Supplied while it stays in its deployment area, until 0700 on "
    "8 June.",
    "17.6": "The 82nd's supply drops (hypothetical western drops): closed by a German unit in the zone or by "
    "Storm; link-up is a continuous road path from the drop zone to the Utah Beach Reinforcement hex.",
    "17.1": "Fighter-bombers: 9 a clear day, 5 overcast, none in a storm; up to 4 (2 overcast) on "
    "interdiction: a d10 (0-9) at or under their number keeps the reinforcements at a hex out this turn.",
    "15.0": "Remounting abandoned transport: from terrain a vehicle may be in, a path a vehicle could drive "
    "to the nearest road, then 10 road hexes towards a friendly edge or to a Beach Reinforcement hex (the "
    "shore end of a causeway), free of enemy units and Fire Zones.",
}
