"""How The Battle for Normandy is shown beyond its rules: counters, rings, controls, sectors, marker.

The campaign map runs from Cherbourg to Falaise, so it offers every named sector of the front.  Nothing
here changes a verdict: the rules are :mod:`.system` and :mod:`.data`.
"""

from __future__ import annotations

from normandy_lab.rules.game import ControlSpec, Look
from normandy_lab.rules.sectors import NORMANDY_SECTORS

#: The label on each unit type's counter (3.4's types).
GLYPHS = {
    "infantry": "INF",
    "parachute": "PARA",
    "glider": "GLI",
    "commando": "CDO",
    "ranger": "RGR",
    "armor": "ARM",
    "assault_gun": "StuG",
    "tank_destroyer": "TD",
    "mech_infantry": "MECH",
    "recon": "REC",
    "artillery": "ART",
    "rocket_artillery": "RKT",
    "anti_tank": "AT",
    "flak": "FLAK",
    "engineer": "ENG",
    "hq": "HQ",
    "static": "STAT",
    "strongpoint": "SP",
}
#: Each size's echelon mark.
SIZE_MARKS = {
    "company": "I",
    "battalion": "II",
    "regiment": "III",
    "brigade": "X",
    "division_hq": "XX",
    "corps_hq": "XXX",
    "army_hq": "XXXX",
}

#: The air and AA points per map sheet (11.1): one button applies both as one ``air`` edit.
CONTROLS = (
    ControlSpec(
        key="air_points",
        label="air",
        rule="11.1",
        kind="points_per_map",
        edit_op="air",
        edit_field="allied",
        button="Apply air",
        help="Air allocation per map sheet (11.1): where Allied air points beat the German AA points, "
        "German units on that map lose movement points (11.2).",
    ),
    ControlSpec(
        key="aa_points",
        label="AA",
        rule="11.1",
        kind="points_per_map",
        edit_op="air",
        edit_field="german_aa",
        button="Apply air",
    ),
)

LOOK = Look(
    sectors=dict(NORMANDY_SECTORS),
    marker="circle",
    glyphs=GLYPHS,
    size_marks=SIZE_MARKS,
    # The rings BfnRules.supply_ring gives: full needs Combat Supply too (7.6.1), cut is isolated (7.5o).
    ring_words={
        "full": "in General and Combat Supply",
        "partial": "General only",
        "out": "out of supply",
        "cut": "isolated",
    },
    controls=CONTROLS,
    # What each reading of rules.bfn.READINGS does, in the rulebook's terms (the panel shows these).
    reading_words={
        "german_artillery_attach": {
            "counts": "German artillery attached to a division takes one of its three places (7.2)",
            "free": "German artillery attaches to any division without taking one of its places (7.2)",
        },
        "combat_supply_chain": {
            "own_army": "Combat Supply passes only through HQs of the unit's own army (7.4, 7.6.1)",
            "any_army": "Combat Supply may pass through a corps HQ of the other Allied army (7.4, 7.6.1)",
        },
        "isolation_corps_hq": {
            "in_supply": "a unit is isolated when no line of any length reaches a corps HQ in supply (7.5o)",
            "any": "a unit is isolated when no line of any length reaches any friendly corps HQ (7.5o)",
        },
        "hq_bridging": {
            "own_line": "an HQ beside a river crosses it on its own line only (7.3.2, 14.2.1)",
            "for_its_units": "an HQ beside a river lets its units' lines cross the water around its hex "
            "(7.3.2, 14.2.1)",
        },
        "mulberry_sources": {
            "beach_rows": "with a Mulberry, the beachhead hex and the beach hexes next to it are sources "
            "(19.4.1)",
            "beachhead_only": "with a Mulberry, the beachhead hex alone is a source (19.4.1)",
        },
    },
)
