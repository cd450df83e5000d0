"""The Killing Ground with OVERLORD as data: the Build-up's calendar, sequence, units, boxes and numbers.

OVERLORD is an expansion of *The Killing Ground* (section 26 and scenarios 22.6-22.7); the base game's
rules are not in the seeds.  What the OVERLORD text states carries its rule number; what it leaves to the
base rules is RECONSTRUCTED here (from the text's own examples and from the BfN/Cobra consensus), named
as such in ``docs/rule-systems.md``, and open to change through the options or
:func:`dataclasses.replace`.  Never read a RECONSTRUCTED value as the book's.
"""

from __future__ import annotations

import datetime as dt

from normandy_lab.rules.base import OffMapBox, Phase, SupplyState

ALLIED, GERMAN = "allied", "german"

# -- time (26.1, 26.11.1, 22.6.1, 22.7.1) ------------------------------------------------------------
# One turn a day: Turn 1 is 6 June (D-Day, played on the Playbook's landing phases: not in the seeds, out
# of scope), Turn 3 is 8 June (26.11.1), Turn 14 is 19 June (22.7.1), Turn 30 is 5 July (22.6.1).
FIRST_DAY = dt.date(1944, 6, 6)
LAST_TURN = 76  # 20 August, the end of the campaign the project covers
TURNS = tuple(f"Turn {n}" for n in range(2, LAST_TURN + 1))


def turn_of(date: dt.date) -> int:
    """Return the turn of a date (Turn 1 is 6 June)."""
    return (date - FIRST_DAY).days + 1


def _phases(turn: str) -> tuple[Phase, ...]:
    """Return a Build-up turn's phases: RECONSTRUCTED order (the card is a GAP; digest 2.4)."""
    return (
        Phase("Weather", turn, None, "weather", "26.14"),
        Phase("Allied Air", turn, ALLIED, "air", "26.15"),
        Phase("Corps and Artillery Support", turn, None, "bookkeeping", "26.10.1, 26.10.5, 26.10.6"),
        Phase("Army Support", turn, None, "bookkeeping", "26.10.2, 26.19.2"),
        Phase("Sea Landing", turn, ALLIED, "reinforcement", "26.4.1"),
        Phase("Supply", turn, None, "bookkeeping", "26.11"),
        Phase("Replacement and Reinforcement", turn, None, "reinforcement", "26.16, 26.17"),
        Phase("Allied Naval Bombardment", turn, ALLIED, "bookkeeping", "26.8.2, 26.8.3"),
        Phase("Allied Movement", turn, ALLIED, "movement", "KG 6"),
        Phase("Allied Combat", turn, ALLIED, "combat", "KG 8, 26.8"),
        Phase("Allied Engineering", turn, ALLIED, "engineering", "26.19"),
        Phase("German Movement", turn, GERMAN, "movement", "KG 6, 26.4.3"),
        Phase("German Combat", turn, GERMAN, "combat", "KG 8"),
        Phase("German Engineering", turn, GERMAN, "engineering", "26.19"),
        Phase("Game-turn Indication", turn, None, "end_of_turn", "26.21.1, 26.20.1, 26.21.2"),
    )


SEQUENCE = {turn: _phases(turn) for turn in TURNS}
# 26.4.1, 26.20.6: the segments of the Army Support and Replacement Phase, among the phases above (the
# digest's 2.4: Corps and Artillery Support to the reinforcements).
ARMY_SUPPORT_AND_REPLACEMENT = (
    "Corps and Artillery Support", "Army Support", "Sea Landing", "Supply", "Replacement and Reinforcement",
)  # fmt: skip

WEATHER_EFFECTS = {  # the KG weather table is a GAP: the states the text names (26.14.1)
    "Clear": {"supply_halved": False},
    "Overcast": {"supply_halved": False},
    "Rain": {"supply_halved": False},
    "Storm": {"supply_halved": False, "no_landing": True},
}

# -- units (26.2.3, 26.2.4) ---------------------------------------------------------------------------
UNIT_TYPES = (
    "infantry", "parachute", "glider", "armor", "mech_infantry", "recon", "artillery", "anti_tank", "flak",
    "engineer", "machine_gun", "ranger", "commando", "hq", "wn", "garrison",
)  # fmt: skip
SIZES = ("company", "battalion", "regiment", "brigade", "division", "corps_hq", "army_hq")
UNIT_DEFAULTS = {t: {"ma": 6, "mechanized": t in ("armor", "mech_infantry", "recon")} for t in UNIT_TYPES}
# RECONSTRUCTED: steps per unit (the counters are not in the text; 22.0's "-1" takes a step off).
FULL_STEPS = {
    "company": 1,
    "battalion": 2,
    "regiment": 3,
    "brigade": 3,
    "division": 3,
    "corps_hq": 1,
    "army_hq": 1,
}
ZOC_CLASSES = ("full", "battalion", "none")

# -- off-map boxes (26.4.1, 26.4.2, 26.4.7) ------------------------------------------------------------
# The beach landing hexes of each beach are on the map (GAP): here the derived map's Beach hexes of each
# named beach (maps/geography invasion coast), with the coastal hexes 22.6.8 lands units on.
BEACH_HEXES = {
    "Utah": ("N2522",),
    "Omaha": ("N2930", "N2931", "N2932", "N3031", "N3032"),
    "Gold": ("N3135", "N3136", "N3137", "N3139", "N3238", "N3239"),
    "Juno": ("N3242", "N3243"),
    "Sword": ("N3346", "N3447", "N3549"),
}
US_BEACHES, CW_BEACHES = ("Utah", "Omaha"), ("Gold", "Juno", "Sword")
MULBERRY_HEXES = {"A": "N2931", "B": "N3139"}  # 26.4.2, 26.19.2: B is N3139; A, off Omaha, INFERRED
# German off-map movement boxes beyond the south and east edges (26.10.7, 26.11.2; KG 4.5-4.6 GAP): one
# box for every road leaving those edges of the North map (RECONSTRUCTED: their numbers and the roads
# each takes are on the single map's OMM display).
OMM_ENTRIES = (
    "N3455", "N3555", "N3655", "N3755", "N3855", "N3955", "N4355", "N4455", "N4655", "N4855", "N4913",
    "N4915", "N4919", "N4922", "N4923", "N4924", "N4925", "N4926", "N4927", "N4928", "N4929", "N4930",
    "N4931", "N4936", "N4937", "N4939", "N4940", "N4941", "N4942", "N4943", "N4945", "N4946", "N4948",
    "N4949", "N4950", "N4951", "N4955",
)  # fmt: skip


def _boxes() -> dict[str, OffMapBox]:
    boxes = {}
    for beach in ("Utah", "Omaha", "Gold", "Juno", "Sword"):
        for n in (1, 2):
            boxes[f"{beach} LB{n}"] = OffMapBox(f"{beach} LB{n}", BEACH_HEXES[beach], "26.4.1", ALLIED)
    for mulberry in ("A", "B"):  # A off Omaha, B off Gold
        for n in (1, 2):
            name = f"Mulberry {mulberry} LB{n}"
            boxes[name] = OffMapBox(name, (MULBERRY_HEXES[mulberry],), "26.4.2", ALLIED)
    us = tuple(h for b in US_BEACHES for h in BEACH_HEXES[b])
    cw = tuple(h for b in CW_BEACHES for h in BEACH_HEXES[b])
    boxes["US Floating Reserve"] = OffMapBox("US Floating Reserve", us, "26.4.1", ALLIED)
    boxes["British Floating Reserve"] = OffMapBox("British Floating Reserve", cw, "26.4.1", ALLIED)
    boxes["Allied Holding Box"] = OffMapBox("Allied Holding Box", us + cw, "26.10.4", ALLIED)
    boxes["OMM 13"] = OffMapBox("OMM 13", OMM_ENTRIES, "26.10.7, 26.11.2 (RECONSTRUCTED entries)", GERMAN)
    # 22.7's German boxes: another OMM box, the OMM Transit Display's boxes and the holding boxes of
    # 26.20.2 and 26.21.4; their entries are on the map card (GAP), RECONSTRUCTED as OMM 13's edge roads.
    for name, rule in (
        ("OMM 15", "26.10.7"),
        ("OMM Transit Display - Mortain Flers", "26.4.7"),
        ("OMM Transit Display - La Ferte-Mace Domfront", "26.4.7"),
        ("German Flak Protection Box", "26.20.3, 26.21.4"),
        ("Panzer Kampfgruppen Box", "26.20.2"),
    ):
        boxes[name] = OffMapBox(name, OMM_ENTRIES, f"{rule} (RECONSTRUCTED entries)", GERMAN)
    return boxes


BOXES = _boxes()

# -- supply (26.9-26.11) ---------------------------------------------------------------------------
SUPPLY = {
    "allied_unit_range": 3,  # 26.11.1: 3 hexes to a supported HQ or a beach landing hex
    "german_unit_range": 6,  # 26.11.1-2, KG 11.4.1: to a supported corps HQ, or a city hex
    # The standard rules' reach to a supported HQ, which 26.11.1's 3 hexes replace in the Build-up: "the 6 hex
    # range of the standard rules (see 11.4.1)".
    "standard_unit_range": 6,
    "city_range": 6,  # 26.11.2
    # 26.10.5: the Corps HQ Support Radius by Mulberry level; the one point the text gives is 5 -> 3.
    # RECONSTRUCTED for the other levels (monotone through it): 0-2 -> 1, 3-4 -> 2, 5+ -> 3.
    "support_radius": {0: 1, 1: 1, 2: 1, 3: 2, 4: 2, 5: 3},
    "cherbourg_key_hex": "N1410",  # 26.11.2, 26.10.7
    "exempt_until_turn": 2,  # 26.11.1: every Allied unit in supply on Turns 1 and 2
}

# 26.19.3, 26.21.2: the depots are placed on the map at the Transition, each in an Allied-controlled hex
# within 3 hexes of its Mulberry beach hex; the only placement the text prints is 22.7.2's "Depot
# Locations" (U.S. N3224, Commonwealth N3538), used wherever the standard rules trace to the depots (the
# reading standard_rules).
DEPOT_HEXES = {"US": "N3224", "UK": "N3538"}

# Where the text is open, the engine's reading of it: options a scenario, a study or an analyst may change
# (state.options, checked by the options schema, rules.kg.schema); a verdict that rests on one names it.
READINGS = {
    # 26.11.2: "German non-mech units without a Corps designation may trace supply to an eligible city
    # hex".  "hq_or_city": "may" adds the city hexes to the supported HQs every unit traces to under the
    # standard rules (26.10.7 has artillery "trace supply to" the Cherbourg HQ, and 26.20.6's Cherbourg Units
    # "trace supply only to N1410 and/or the Cherbourg HQ", the 709th's infantry among them); "city_only":
    # the sentence before splits the German units in two, the corps and mech units to HQs, the rest to cities.
    "german_division_supply": "hq_or_city",
    # 26.19.3: "expend one Support Point ... to improve the results, after seeing the roll": by how much is
    # not printed.  2 by default, as 26.19.2's same purchase ("spend 1 SP to improve the result of the die
    # roll") flips the Mulberry marker "to its -2 side"; any whole number from 1 to 5 may be set.
    "depot_sp_improvement": 2,
    # 26.4.3: each rail move's die adds "other modifiers indicated in the German Rail Reinforcement box (see
    # Map)": not in the text.  0 by default; the analyst may set what the map prints (-3 to 3).
    "rail_box_modifier": 0,
    # 22.7.1: 22.7 "does not use the OVERLORD: The Build-up expansion rules; apply instead the standard
    # The Killing Ground rules", and the Build-up gives way to them at the Transition (26.3.2, 26.21.2); the
    # standard rules are not in the text.  "standard": trace by them as far as the text gives them
    # (rules.kg.supply: 6 hexes to a supported HQ, 11.4.1 per 26.11.1; Allied HQs to their army's depot,
    # 22.7.2's hexes; German HQs to the off-map boxes as before; German city hexes only Cherbourg's, 22.7.6a
    # keeping 26.11.2's "Cherbourg and Supply").  "by_stage" (the default, as the text has it): standard
    # once the marker stage is killing_ground (22.7 starts there, 22.7.1; 26.3.2: "The Killing Ground
    # rules ... begin with the next game turn" after the Transition).  "build_up": the Build-up's rules
    # everywhere, 22.7 under its caveat (the old reading, kept selectable).
    "standard_rules": "by_stage",
}

OPTIONS = {
    # KG 11.3 is a GAP: a line counts one a hex (RECONSTRUCTED); "battalion" ZOCs block lines by default.
    "battalion_zoc_blocks_supply": True,
    "what_if_interdiction": "block",
    **READINGS,
}

SUPPLY_STATES = (
    SupplyState("general", "supply", "26.11"),
    SupplyState("isolated", "isolated: no line of any length", "KG 11.5 (RECONSTRUCTED)"),
)

MARKERS = {
    "stage": "build-up",  # 26.3.2: "killing_ground" after the Transition
    "army_sp": {"US": 4, "UK": 4, "DE": 8},  # 22.6.3: 1st US and 2nd British Army 4 SP; German 8 a turn
    "mulberry": {"A": 0, "B": 0},  # 26.19.2 levels (22.6.3: both at 0)
    "depots": {"US": 0, "UK": 0},  # 26.19.3: spaces on the Depot Track (rules.kg.logistics)
    "depot_flipped": {},  # 26.19.3: a nationality whose last depot roll failed rolls at -2
    # 26.10.2: the SP a turn the Depot Track's bottom row pays each nationality at its present level (the
    # card is a GAP: 0 unless the analyst sets it).
    "depot_sp": {},
    # 26.10.1: the SP each army paid in this turn's Corps and Artillery Support segment (and the date of that
    # turn), and the Allied corps HQs left under an Unsupported marker there (each pays 1 SP more next turn).
    "hq_support_paid": {},
    "hq_unsupported": (),
    "mulberry_boost": {},  # 26.19.2: a Mulberry given 1 SP this turn rolls at -2
    "depot_improve": {},  # 26.19.3: a nationality that will spend 1 SP after seeing a failed depot roll
    # 26.20.1: V Panzer Army: active or not, the turn space its marker stands in, its SP marker's space.
    "v_panzer": {"active": False, "space": None, "support": None},
    "omm_control": {},  # box name -> side; every OMM box German unless said
    # 26.20.6: Fortress Cherbourg declared; 26.10.7: the Cherbourg HQ's own SP (None: not given).
    "fortress_cherbourg": False,
    "cherbourg_sp": None,
    "cherbourg_rail_on": None,  # 26.10.7: the date of the turn a rail point last brought Cherbourg SP
    # 26.20.6: the date Fortress Cherbourg was declared in play (None: before the scenario, or not), and
    # whether its Cherbourg Units' withdrawal has been made.
    "fortress_declared_on": None,
    "withdrawal_done": False,
    # 26.15: the Allied air allocations (rules.kg.air): Supply Interdiction's points, the rail option, and
    # the air units on German off-map boxes.
    "air_supply_ap": 0,
    "air_rail": False,
    # 26.4.4, 26.10.7: that air unit's Interdiction value (on its counter: not in the text).
    "air_rail_value": None,
    # 26.4.3, 26.4.4: the German Rail Capacity (None: not given; 22.7.3 sets 2) and the Rail Interdiction
    # level (INFERRED to start at 1, the space the rule resets it to).
    "rail_capacity": None,
    "rail_interdiction_level": 1,
    "rail_moves": {},  # 26.4.3: the units moved by rail this turn ({"on": date, "n": count})
    "air_omm_targets": {},
    "weapons_nests": (),  # 22.6.8's WN states (their hexes are on the counters: GAP)
    # 22.7.2's Reinforcement Track Adjustments: the units still on the track, each (turn, its unit entry as
    # sorted fields); the Replacement and Reinforcement phase of that turn brings them into play (26.16).
    "reinforcement_track": (),
}

RULE_NOTES = {
    "26.11.1": "Allied Build-up supply: from Turn 3, a line of at most 3 hexes to a supported HQ or to an "
    "Allied-controlled beach landing hex; on Turns 1 and 2 every Allied unit is in supply.",
    "26.11.2": "German supply: mechanized and corps units to a supported corps HQ within 6; other units to "
    "a German city hex within 6 whose road line reaches a German off-map box; Cherbourg while N1410 is "
    "German.",
    "26.10.5": "HQ support: automatic within the Mulberry level's radius of an own beach (level 5: 3 "
    "hexes); beyond it 1 SP for each further radius.",
}
