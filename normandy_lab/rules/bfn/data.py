"""The Battle for Normandy (GMT, 2013 rulebook) as data.

Rule numbers are the rulebook's (``../shared/seeds/000_*``; digest
``../shared/rules/battle-for-normandy.md``).  The Terrain Effects Chart, the
Air Interdiction Track and the counters' values are not in the rulebook:
what is reconstructed is marked RECONSTRUCTED here and in ``docs/engine.md``,
and every reconstructed number can be changed through :data:`BFN_RULES`'s
``options`` or by building a new RuleSet with :func:`dataclasses.replace`.
"""

from __future__ import annotations

from normandy_lab.rules.base import CalendarEntry, Phase, SupplyState
from normandy_lab.rules.bfn.scenario import MARKERS
from normandy_lab.rules.bfn.system import BfnRules

ALLIED, GERMAN = "allied", "german"


def _player_turn(turn: str) -> tuple[Phase, ...]:
    """Return the phases of an AM or PM turn; the two are identical (4.0 B, C)."""
    return (
        Phase("Allied Artillery Ready", turn, ALLIED, "bookkeeping", "12.5.2"),
        Phase("Allied Movement", turn, ALLIED, "movement", "10.0, 7.1"),
        Phase("Allied Combat", turn, ALLIED, "combat", "12.0"),
        Phase("Allied Mechanized Movement", turn, ALLIED, "mech_movement", "10.5"),
        Phase("German Artillery Ready", turn, GERMAN, "bookkeeping", "12.5.2"),
        Phase("German Movement", turn, GERMAN, "movement", "10.0, 7.1, 11.2"),
        Phase("German Combat", turn, GERMAN, "combat", "12.0"),
        Phase("German Mechanized Movement", turn, GERMAN, "mech_movement", "10.5, 11.2"),
        Phase("Allied Armed Recon Air Attack", turn, ALLIED, "armed_recon", "11.3"),
        Phase("End of Turn", turn, None, "end_of_turn", "4.0; 20.7"),
    )


# 4.0: Night turn (Night Inter-Phase, Allied and German Night player turns),
# AM and PM turns, End of Day.
SEQUENCE: dict[str, tuple[Phase, ...]] = {
    "Night": (
        Phase("Weather Determination", "Night", None, "weather", "8.0, 8.1o"),
        Phase("Mulberry Harbor Construction", "Night", ALLIED, "bookkeeping", "19.4.1"),
        Phase("Cherbourg Port Destruction", "Night", GERMAN, "bookkeeping", "20.4"),
        Phase("Allied Naval Movement", "Night", ALLIED, "naval", "10.9"),
        Phase("Replacement & Reinforcement", "Night", None, "reinforcement", "9.2-9.6, 20.3"),
        Phase("Air Allocation", "Night", None, "air", "11.1, 11.2"),
        Phase("Allied Engineering", "Night", ALLIED, "engineering", "14.0"),
        Phase("Allied Artillery Ready", "Night", ALLIED, "bookkeeping", "12.5.2"),
        Phase("Allied Night Movement", "Night", ALLIED, "movement", "10.7, 7.1"),
        Phase("Allied Night Combat", "Night", ALLIED, "combat", "12.6.1"),
        Phase("German Engineering", "Night", GERMAN, "engineering", "14.0"),
        Phase("German Artillery Ready", "Night", GERMAN, "bookkeeping", "12.5.2"),
        Phase("German Night Movement", "Night", GERMAN, "movement", "10.7, 7.1"),
        Phase("German Night Combat", "Night", GERMAN, "combat", "12.6.1"),
    ),
    "AM": _player_turn("AM"),
    "PM": (*_player_turn("PM"), Phase("End of Day", "PM", None, "end_of_day", "4.0 D")),
    # 3.7 and 16.0: 6 June has no Night Inter-Phase and no Night player turns.
    "6 June Night": (
        Phase("Allied Parachute Drop", "6 June Night", ALLIED, "bookkeeping", "17.1-17.4"),
        Phase("German Airborne Reaction", "6 June Night", GERMAN, "movement", "17.5"),
    ),
    "6 June Invasion": (
        Phase("Beach Invasion Phase 1", "6 June Invasion", ALLIED, "combat", "18.3-18.7"),
        Phase("Beach Invasion Phase 2", "6 June Invasion", ALLIED, "combat", "18.3-18.7"),
        Phase("Beach Invasion Phase 3", "6 June Invasion", ALLIED, "combat", "18.3-18.7"),
        Phase("Invasion End Phase", "6 June Invasion", None, "bookkeeping", "18.8"),
    ),
}

# 8.0: 2D6 weather table (roll range, weather).
WEATHER_TABLE = (
    (12, 12, "Clear"),
    (10, 11, "Partly Cloudy"),
    (9, 9, "Cloudy"),
    (8, 8, "Overcast"),
    (7, 7, "Heavy Overcast"),
    (6, 6, "Fog"),
    (5, 5, "Light Showers"),
    (3, 4, "Heavy Rain"),
    (2, 2, "Storm"),
)

# Summary of Weather Effects (8.0): CSPs per day, Allied air points lost,
# supply range halved (7.3.3), combat DRM, whether there is an Air
# Allocation Phase (11.1.1: none in Heavy Rain or Storm).
WEATHER_EFFECTS = {
    "Clear": {"csp": 12, "air_loss": 0, "supply_halved": False, "combat_drm": 0, "air": True},
    "Partly Cloudy": {"csp": 11, "air_loss": 10, "supply_halved": False, "combat_drm": 0, "air": True},
    "Cloudy": {"csp": 10, "air_loss": 30, "supply_halved": False, "combat_drm": 0, "air": True},
    "Overcast": {"csp": 9, "air_loss": 40, "supply_halved": False, "combat_drm": 0, "air": True},
    "Heavy Overcast": {"csp": 8, "air_loss": 55, "supply_halved": False, "combat_drm": 0, "air": True},
    "Fog": {"csp": 7, "air_loss": 70, "supply_halved": False, "combat_drm": 0, "air": True},
    "Light Showers": {"csp": 6, "air_loss": 80, "supply_halved": False, "combat_drm": 0, "air": True},
    "Heavy Rain": {"csp": 5, "air_loss": None, "supply_halved": True, "combat_drm": -1, "air": False},
    "Storm": {"csp": 0, "air_loss": None, "supply_halved": True, "combat_drm": -2, "air": False},
}

# 8.1o Historical Weather gives 6-9 June.  The great Channel storm of
# 19-21 June 1944 (which wrecked Mulberry A) is added from the histories
# (Ellis, Victory in the West I, ch. XI; Ruppenthal, Logistical Support I,
# ch. X); other dates have no historical entry and are rolled.
HISTORICAL_WEATHER = {
    "1944-06-06": "Overcast",
    "1944-06-07": "Overcast",
    "1944-06-08": "Cloudy",
    "1944-06-09": "Heavy Rain",
    "1944-06-19": "Storm",
    "1944-06-20": "Storm",
    "1944-06-21": "Storm",
}

# RECONSTRUCTED Terrain Effects Chart (the TEC is not in the rulebook; 10.6
# states Farmland 2 MP for infantry, Flooded/Marsh all MPs for infantry and
# road-only for mechanized, streams +2 and closed to vehicles, major rivers
# all MPs for infantry and bridge-only for the rest).  "all" = the unit's
# whole allowance; None = prohibited.
TERRAIN_COST = {
    "infantry": {
        "Clear": 1,
        "Farmland": 2,
        "Bocage": 3,
        "Forest": 2,
        "Flooded/Marsh": "all",
        "Beach": 1,
        "Sea": None,
        "City": 1,
    },
    "mechanized": {
        "Clear": 1,
        "Farmland": 2,
        "Bocage": 4,
        "Forest": 3,
        "Flooded/Marsh": None,
        "Beach": 1,
        "Sea": None,
        "City": 1,
    },
}
# 10.6: hexside costs.
HEXSIDE_COST = {
    "infantry": {"Stream": 2, "Major River": "all"},
    "mechanized": {"Stream": None, "Major River": None},
}

# 10.6, 7.3.2: road rates per hex (the normal highway rate is not given;
# RECONSTRUCTED as the primary rate; 1/3 is the strategic and supply rate).
ROAD_COST = {"highway": 0.5, "primary": 0.5, "secondary": 1.0, "railway": 1.0}
SUPPLY_ROAD_COST = {"highway": 1.0 / 3.0, "primary": 0.5, "secondary": 1.0, "railway": 1.0}

# RECONSTRUCTED counter values by unit type (the counters are not in the
# rulebook): movement allowance, mechanized, stacking points (6.0: 6 per hex).
UNIT_DEFAULTS = {
    "infantry": {"ma": 6, "mechanized": False, "stack": 2},
    "parachute": {"ma": 6, "mechanized": False, "stack": 2},
    "glider": {"ma": 6, "mechanized": False, "stack": 2},
    "commando": {"ma": 7, "mechanized": False, "stack": 2},
    "ranger": {"ma": 7, "mechanized": False, "stack": 2},
    "armor": {"ma": 10, "mechanized": True, "stack": 2},
    "assault_gun": {"ma": 10, "mechanized": True, "stack": 2},
    "tank_destroyer": {"ma": 10, "mechanized": True, "stack": 2},
    "mech_infantry": {"ma": 10, "mechanized": True, "stack": 2},
    # 10.5: mechanized recon's MA is printed light blue: its full allowance in the Mechanized Movement Phase.
    "recon": {"ma": 12, "mechanized": True, "stack": 1, "full_ma_in_mech_phase": True},
    "artillery": {"ma": 6, "mechanized": False, "stack": 1},
    "rocket_artillery": {"ma": 8, "mechanized": True, "stack": 1},
    "anti_tank": {"ma": 6, "mechanized": False, "stack": 1},
    "flak": {"ma": 6, "mechanized": False, "stack": 1},
    "engineer": {"ma": 6, "mechanized": False, "stack": 1},
    "hq": {"ma": 8, "mechanized": False, "stack": 1},
    "static": {"ma": 0, "mechanized": False, "stack": 1},
    "strongpoint": {"ma": 0, "mechanized": False, "stack": 1},  # 18.9.1: a Stacking Value of 1
    # CW specialised armour (79th Armoured Division) and naval gunfire units:
    # they attach freely to any division (Attachment Reference Chart, exception 2).
    "flame_tank": {"ma": 10, "mechanized": True, "stack": 1},  # Churchill Crocodile
    "avre": {"ma": 10, "mechanized": True, "stack": 1},
    "ship": {"ma": 0, "mechanized": False, "stack": 0},  # bombardment ships, placed at sea
}

SIZES = ("company", "battalion", "regiment", "brigade", "division_hq", "corps_hq", "army_hq")

# 7.2, 7.3.1, 7.3.3, 7.4 and the Supply Reference Chart.
SUPPLY = {
    "unit_range_hexes": 6,  # 7.3.1: six hexes ...
    "unit_range_mp": 6,  # ... or 6 MPs, the owner's choice
    "division_hq_range_mp": 20,  # 7.2
    "attach_limit": 3,  # 7.2: up to three other units per division HQ
    "attach_other_division": 1,  # 7.2: of the three, one non-artillery unit of another division
    "kg_attach_limit": 6,  # 20.3: a KG HQ supplies six units of any division or corps
    "defensive_support_hexes": 3,  # 12.5.4: OOS units within 3 hexes of a supplied unit
    "beachheads_are_corps_hq_until": "1944-06-11",  # 7.2
    "german_supply_cities": ("Bayeux", "Cherbourg", "Caen", "Argentan", "Flers", "Vire"),  # 7.4
    "marsh_supply_cost": 6,  # RECONSTRUCTED: 'all MPs' of an infantry allowance of 6
    # Attachment Reference Chart, exception 2: these attach to any division
    # and do not count towards its three attached units.
    "free_attach_types": ("ship", "flame_tank", "avre"),
    # Exception 1: a CW division may supply every unit of one CW armoured
    # (tank) brigade on top of the three; 23.3 adds the Belgian and Dutch brigades.
    "brigade_attach_nationalities": ("UK", "CA", "PL", "BE", "NL"),
    "brigade_attach_types": ("armor", "mech_infantry", "recon"),
    # 7.4, 7.5, 17.1: pathfinder hexes are General Supply sources for the
    # airborne divisions, treated as division HQs, until the end of the 7 June AM turn.
    "pathfinder_turns": (("1944-06-06", "PM"), ("1944-06-07", "Night"), ("1944-06-07", "AM")),
    "airborne_types": ("parachute", "glider"),
}

# Where the rulebook is open, the engine's reading of it: options a scenario, a study or an analyst may
# change (state.options); every supply report names the readings it used (UnitSupply.readings).
READINGS = {
    # 7.2: "the German player may freely attach division and corps artillery": to any division, each
    # still taking one of the three places ("counts"), or without taking a place at all ("free").
    "german_artillery_attach": "counts",
    # 7.4, 7.6.1: Combat Supply ends at a beachhead of the unit's own nation; may the chain pass
    # through a corps HQ of the other Allied army? "own_army": no; "any_army": yes.
    "combat_supply_chain": "own_army",
    # 7.5o: isolated means no line of any length to "a friendly corps HQ". "in_supply": an in-supply
    # corps HQ (a unit next to a cut-off corps HQ is isolated with it); "any": any corps HQ.
    "isolation_corps_hq": "in_supply",
    # 7.3.2 exception and 14.2.1: an HQ counts its own line from the far bank of an adjacent river.
    # "own_line": only its own; "for_its_units": its own units' lines may cross the water hexsides
    # around the HQ's hex too.
    "hq_bridging": "own_line",
    # 19.4.1: with a Mulberry in place "all three of these hex rows" are sources. "beach_rows": the
    # beachhead hex and the beach hexes next to it; "beachhead_only": the beachhead hex alone.
    "mulberry_sources": "beach_rows",
}

# 7.6.2-7.6.4: Allied Combat Supply Point costs, and 7.6.3o's graduated table.
CSP_COSTS = {
    "normal_attack": 1,  # attacking from one hex with artillery, naval or air support
    "unsupported_single_hex": 0,  # 7.6.4: no support, one hex: free
    "major_attack": 3,  # attacking from several hexes
    "defensive_artillery_per_hex": 1,
    "firing_alone_per_unit": 1,  # 13.1
    "carpet_bombing": 10,  # 19.3
    "port_repair_per_step": 5,  # 20.4
    "mulberry_per_day": 10,  # 19.4.1, from the day after completion
    "cherbourg_port_per_day": 5,  # 20.4, at repair level 9
}

# 2.3 of the digest: the date-triggered rules, with what the engine does with each.
CALENDAR = (
    CalendarEntry(
        "1944-06-06",
        "1944-06-06",
        "No air allocation and no turn-based replacement points; Germans, "
        "paratroops and invasion units in General and Combat Supply in the Night and Invasion turns; "
        "no Ground Support",
        "11.1.1, 9.3.4, 7.5, 18.5",
        "june6_supply",
    ),
    CalendarEntry(
        "1944-06-06",
        "1944-06-07",
        "Pathfinder hexes are General Supply sources for the airborne "
        "divisions (as division HQs) from the 6 June PM turn to the end of the 7 June AM turn; no "
        "Combat Supply through them",
        "7.4, 7.5, 17.1",
        "pathfinders",
    ),
    CalendarEntry(
        "1944-06-07",
        "1944-06-07",
        "Scheduled glider landings arrive whatever the weather; Mulberry "
        "sites chosen in the Night Inter-Phase",
        "17.7, 19.4.1",
    ),
    CalendarEntry(
        "1944-06-08",
        "1944-06-08",
        "Airborne units may receive replacements; airborne companies may combine",
        "9.3.3, 9.3.5, 15.4",
    ),
    CalendarEntry(
        "1944-06-06",
        "1944-06-10",
        "Allied Beachheads act as corps HQs in all ways until the corps HQs land on 11 June",
        "7.2",
        "beachheads_as_corps",
    ),
    CalendarEntry("1944-06-15", "1944-06-15", "German sudden-death check (optional)", "22.11o"),
    CalendarEntry(
        "1944-06-28", "1944-06-28", "Cherbourg victory-point check at the end of the Night turn", "20.4"
    ),
    CalendarEntry(
        "1944-06-30",
        "1944-07-05",
        "Battleship and US 82nd/101st Airborne withdrawal rolls (automatic on 5 July)",
        "19.1, 19.2",
    ),
    CalendarEntry(
        "1944-06-06",
        "1944-06-30",
        "Allied movement halved at night; -1 weather DRM the day after a Storm",
        "10.7, 8.1",
        "night_halving",
    ),
    CalendarEntry("1944-07-07", "1944-07-07", "Six Rhino units arrive", "19.9"),
    CalendarEntry("1944-07-16", "1944-08-20", "Carpet bombing allowed (two per game, 10 CSP each)", "19.3.1"),
    CalendarEntry(
        "1944-07-25",
        "1944-08-20",
        "Optional Armored Column Cover: US 2nd and 3rd Armored get one free air point each per AM/PM turn",
        "22.12o",
    ),
    CalendarEntry(
        "1944-08-01",
        "1944-08-20",
        "+1 weather DRM after a Clear day; CW tank battalions may stack with infantry (optional)",
        "8.1, 6.1o",
    ),
)

# RECONSTRUCTED Air Interdiction Track (11.2): (smallest Allied-minus-AA
# difference, MP penalty).  The rulebook's example fixes 0 -> 0, 10 -> 1 and
# 20 -> 4; the steps between are a reconstruction.
INTERDICTION_TRACK = ((5, 1), (13, 2), (17, 3), (20, 4), (30, 5))

# RECONSTRUCTED combat strengths per step (attack, defense) by type; the
# counters are not in the rulebook.  A unit's strength is its steps times
# these, rounded up; a scenario may give a unit its printed values instead.
STRENGTH_PER_STEP = {
    "infantry": (1.0, 1.0),
    "parachute": (1.2, 1.2),
    "glider": (1.0, 1.0),
    "commando": (1.3, 1.2),
    "ranger": (1.3, 1.2),
    "armor": (1.7, 1.2),
    "assault_gun": (1.3, 1.3),
    "tank_destroyer": (1.3, 1.0),
    "mech_infantry": (1.3, 1.3),
    "recon": (0.8, 0.8),
    "artillery": (0.0, 1.0),
    "rocket_artillery": (0.0, 1.0),
    "anti_tank": (0.5, 1.5),
    "flak": (0.3, 1.0),
    "engineer": (0.7, 0.7),
    "hq": (0.0, 1.0),
    "static": (0.0, 1.0),
    "strongpoint": (0.0, 2.0),
    "flame_tank": (1.7, 1.0),
    "avre": (1.3, 1.0),
    "ship": (0.0, 0.0),
}

UNIT_TYPES = tuple(UNIT_DEFAULTS)

# One line per rule the engine and the explorer cite, in our words (the rulebook is the authority).
BFN_RULE_NOTES = {
    "3.3": "Control: a hex belongs to the side occupying it, or whose zone of control alone covers it.",
    "5.1": "Zone of control: most units project one into the six hexes around them.",
    "5.4": "A line of supply may not enter an empty hex in an enemy zone of control.",
    "7.1": "General Supply is judged at the start of a unit's movement; Combat Supply when it attacks.",
    "7.2": "In General Supply: a line to a source, or to an HQ that is itself in supply.",
    "7.3": "A line of supply is a chain of hexes; it may not enter enemy units or un-negated enemy zones.",
    "7.3.1": "Units trace up to 6 hexes or 6 MP (owner's choice); division HQs 20 MP; corps HQs any length.",
    "7.3.2": "An unbridged river may be crossed by a line only as the tracing unit's own first step.",
    "7.3.3": "In Heavy Rain or Storm every supply range is halved (3 hexes or 3 MP, 10 MP for HQs).",
    "7.4": "Sources: Allied beachheads (and Mulberries); German road edges and supply cities.",
    "7.5": "Out of supply: attack and movement halved, no replacements, no Combat Supply.",
    "7.5o": "Isolated: no line of any length to a friendly corps HQ or source.",
    "7.6.1": "Combat Supply runs unit, division HQ, corps HQ, source of the unit's own nation; no skipping.",
    "7.6.3o": "An attack in Combat Supply spends combat supply points, more for bigger attacks.",
    "8.0": "Weather is rolled each day; it changes movement, air and supply ranges.",
    "10.0": "Movement: each hex and hexside costs movement points by terrain; roads reduce the cost.",
    "10.5": "Mechanized movement: mechanized units move again after combat.",
    "10.7": "Night movement: Allied units move at half allowance at night.",
    "11.1": "Air points are allocated to the maps each day.",
    "11.2": "Air interdiction: German units on a map lose movement points by Allied air against German AA.",
    "11.3": "Armed reconnaissance: aircraft may attack units that moved along roads in the open.",
    "12.0": "Combat: the phasing side attacks adjacent enemy units.",
    "12.5.2": "Artillery is made ready for the player turn.",
    "14.0": "Engineering: bridges are built, repaired or destroyed.",
    "14.2": "A destroyed bridge can be repaired by engineers.",
    "17.1": "Pathfinders: on 6 June airborne units may trace supply to a pathfinder hex.",
    "20.3": "A German Kampfgruppe HQ supplies up to six units of any formation.",
}

BFN_RULES = BfnRules(
    system="bfn",
    title="The Battle for Normandy",
    rule_notes=BFN_RULE_NOTES,
    rule_refs={
        "control": "3.3",
        "zoc": "5.1",
        "unit_supply_range": "7.3.1",
        "combat_supply_chain": "7.6.1",
        "air_allocation": "11.1",
        "air_halved": "11.1.2",
        "air_interdiction": "11.2",
        "enemy_hex": "10.1",  # a unit may not enter an enemy-occupied hex (the core's refusal cites it)
    },
    turns=("Night", "AM", "PM"),
    sequence=SEQUENCE,
    weather_table=WEATHER_TABLE,
    weather_effects=WEATHER_EFFECTS,
    historical_weather=HISTORICAL_WEATHER,
    terrain_cost={**TERRAIN_COST, "hexside": HEXSIDE_COST},  # type: ignore[dict-item]
    road_cost=ROAD_COST,
    unit_defaults=UNIT_DEFAULTS,
    supply={**SUPPLY, "road_cost": SUPPLY_ROAD_COST, "csp_costs": CSP_COSTS},
    interdiction_track=INTERDICTION_TRACK,
    options={
        "historical_weather": True,  # 8.1o, extended with dated storms
        "what_if_interdiction": "block",  # analyst hex interdiction: "block" or "+N" MP
        "night_halving_until": "1944-07-01",  # 10.7
        "strength_per_step": STRENGTH_PER_STEP,  # RECONSTRUCTED counters
        **READINGS,
    },
    unit_types=UNIT_TYPES,
    sizes=SIZES,
    stacking_limit=6,
    stacking_points={k: v["stack"] for k, v in UNIT_DEFAULTS.items()},
    unordered_markers=frozenset({"beachheads"}),  # 7.4: any beachhead in range is a source; none comes first
    campaign=("1944-06-06", "1944-08-20"),
    calendar=CALENDAR,
    markers=MARKERS,
    supply_states=(
        SupplyState("general", "General Supply", "7.2"),
        SupplyState("combat", "Combat Supply", "7.6.1"),
        SupplyState("isolated", "isolated", "7.5o"),
    ),
)
