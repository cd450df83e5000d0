"""How Cobra is shown beyond its rules: counters, rings, controls, sectors, side-by-side marker.

Its two maps run from the Cotentin to Falaise (the breakout and the pocket), so it offers every named sector.
Nothing here changes a verdict: each control offers a marker edit its rules check (``CobraRules.set_marker``).
"""

from __future__ import annotations

from normandy_lab.rules.game import ControlSpec, Look
from normandy_lab.rules.sectors import NORMANDY_SECTORS

#: The explorer's controls: the carpet bombing plan (14.3), the Army Boundary (5.9, 5.9.1), the exit flags.
CONTROLS = (
    ControlSpec(
        key="carpet_plan",
        label="Carpet bombing target",
        rule="14.3",
        kind="hex",
        edit_op="marker",
        edit_field="carpet_plan",
        button="Plan",
        help="Plan a carpet bombing in an Allied Combat Phase (14.3a): it flies at the start of the next "
        "turn's Allied Combat Phase if that turn is clear (14.3b), with 3 AP against an enemy-occupied "
        "hex (14.3e); an Allied unit entering it in the Mechanized Movement Phase stops there (14.3i). "
        "Leave it empty to cancel.",
    ),
    ControlSpec(
        key="army_boundary",
        label="Allied Army Boundary (column of map A)",
        rule="5.9",
        kind="number",
        edit_op="marker",
        edit_field="army_boundary",
        button="Move",
        help="The Allied Army Boundary: US units may not end a move more than one hex east of it, "
        "British units more than one hex west (5.9b-c); it moves one column a turn, A23 to A30 (5.9.1).",
    ),
    ControlSpec(
        key="boundary_extension",
        label="Boundary extension (Vire end, east end)",
        rule="5.9.1",
        kind="hexes",
        edit_op="marker",
        edit_field="boundary_extension",
        button="Extend",
        help="From the turn after one that ended with an Allied unit south of Vire (5.9.1b), the "
        "boundary may run east from a hex within three of Vire to one in column 51 of map A (5.9.1c); "
        "each end then moves a hex north or south at a time. Leave it empty to remove it.",
    ),
    ControlSpec(
        key="allied_exited",
        label="An Allied unit has exited a map edge",
        rule="5.3c",
        kind="flag",
        edit_op="marker",
        edit_field="allied_exited",
        button="Set",
        help="After an Allied unit exits a map edge the weather grips German movement less (5.3c).",
    ),
    ControlSpec(
        key="south_edge_lost",
        label="The south edge is lost to the Germans",
        rule="10.4",
        kind="flag",
        edit_op="marker",
        edit_field="south_edge_lost",
        button="Set",
        help="Once an Allied unit has exited the south edge, the Germans may not trace to it (10.4).",
    ),
)

LOOK = Look(
    sectors=dict(NORMANDY_SECTORS),
    marker="square",
    controls=CONTROLS,
    ring_words={
        "full": "in supply (10.3)",
        "out": "out of supply: line too long",
        "cut": "isolated: no line",
    },
    glyphs={
        "infantry": "INF",
        "parachute": "PARA",
        "armor": "ARM",
        "mech_infantry": "MECH",
        "recon": "RCN",
        "flak": "FLAK",
        "delay": "DLY",
        "hq": "HQ",
    },
    size_marks={"battalion": "II", "regiment": "III", "brigade": "X", "division": "XX", "corps_hq": "XXX"},
    # How a line is counted where 10.3 is open (rules.cobra.metric), in the panel's words.
    reading_words={
        "major_road": {
            "per_run": "each run along a major road counts as one hex (10.3f)",
            "per_line": "all the major-road hexes of a line together count as one hex (10.3f)",
        },
        "major_river": {
            "replaces": "crossing a major river off the roads counts six hexes in all (10.3g)",
            "adds": "crossing a major river off the roads counts six hexes plus the hex entered (10.3g)",
        },
    },
)
