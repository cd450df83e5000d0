"""How The Killing Ground is shown beyond its rules: counters, controls, map key, sectors, marker.

The OVERLORD North map with the W and E maps covers the whole front; a scenario on the North map alone
offers only the sectors it covers (``normandy_lab.views.sectors.sectors_on``).  Nothing here changes a
verdict: each control offers a marker edit the rules check (``KgRules.set_marker``).
"""

from __future__ import annotations

from typing import Any

from normandy_lab.rules.game import ControlSpec, Look
from normandy_lab.rules.sectors import NORMANDY_SECTORS


def _number(key: str, label: str, rule: str, help_text: str) -> ControlSpec:
    """Return a whole-number control on the marker ``key`` (an edit of the study)."""
    return ControlSpec(key, label, rule, "number", "marker", key, button="Set", help=help_text)


#: The explorer's controls: the logistics markers (26.10, 26.19.2) and the air allocations (26.15).
CONTROLS = (
    _number("mulberry_A", "Mulberry A (US) construction level", "26.19.2, 26.10.5",
            "The Mulberry's construction level sets the army's Corps HQ Support Radius (26.10.5: level 5, "
            "radius 3; the other levels RECONSTRUCTED): its HQs within it of a beach are supported free."),
    _number("mulberry_B", "Mulberry B (British) construction level", "26.19.2, 26.10.5",
            "As Mulberry A, for the British and Canadian corps HQs (26.10.5)."),
    _number("army_sp_US", "1st US Army reserve SP", "26.10.1",
            "The SP the US army holds to support its corps HQs beyond the radius (26.10.1, 26.10.5)."),
    _number("army_sp_UK", "2nd British Army reserve SP", "26.10.1",
            "The SP the British army holds to support its corps HQs beyond the radius (26.10.1, 26.10.5)."),
    _number("air_supply_ap", "Air Points on Supply Interdiction", "26.15.1",
            "The Air Points the Allies put on Supply Interdiction, at most 4 (26.15.1); General Air "
            "Interdiction gets its own by the weather (26.15.3)."),
    ControlSpec("air_rail", "Last air unit drawn to Rail Interdiction", "26.15.2", "flag", "marker",
                "air_rail", button="Set",
                help="The last air unit drawn for Supply Interdiction may go to Rail Interdiction, 26.15.2."),
)  # fmt: skip


def control_value(state: Any, key: str) -> Any:
    """Read a control's value: ``mulberry_A`` is the level of Mulberry A, ``army_sp_US`` the US SP."""
    for marker, prefix in (("mulberry", "mulberry_"), ("army_sp", "army_sp_")):
        if key.startswith(prefix):
            return state.markers[marker].get(key[len(prefix) :], 0)
    return state.markers.get(key)


LOOK = Look(
    sectors=dict(NORMANDY_SECTORS),
    marker="triangle",
    controls=CONTROLS,
    # The support radii and costs of 26.10.5 are drawn as rule zones, so the map key lists them.
    map_features=frozenset({"zones"}),
    read_control=control_value,
    glyphs={"infantry": "INF", "parachute": "PARA", "glider": "GLI", "armor": "ARM", "mech_infantry": "MECH",
            "recon": "RCN", "artillery": "ART", "hq": "HQ", "wn": "WN", "ranger": "RGR", "commando": "CDO",
            "flak": "FLAK", "machine_gun": "MG"},
    size_marks={"battalion": "II", "regiment": "III", "brigade": "X", "division": "XX", "corps_hq": "XXX",
                "army_hq": "XXXX"},
    # The readings of rules.kg.READINGS a verdict names, in the panel's words.
    reading_words={
        "standard_rules": {
            "by_stage": "the Build-up's supply rules until the Transition, then the standard Killing Ground "
                        "rules as far as the text gives them (22.7.1, 26.3.2)",
            "standard": "the standard Killing Ground rules, as far as the text gives them (22.7.1)",
            "build_up": "the Build-up's supply rules throughout (26.11)",
        },
        "german_division_supply": {
            "hq_or_city": "German non-mech units without a corps may trace to a supported HQ or to an "
                          "eligible city (26.11.2)",
            "city_only": "German non-mech units without a corps trace to an eligible city only, the others "
                         "to HQs (26.11.2)",
        },
    },
)  # fmt: skip
