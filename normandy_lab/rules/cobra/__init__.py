"""Cobra (Decision Games 2019, rules version 5): the second rule system.

``data`` holds the calendar, the sequence of play, units and the RECONSTRUCTED values; ``metric`` how
10.3 counts a line (as layers of the core's search graph); ``supply`` the determination (10.3-10.6) and
its reasons; ``schema`` Cobra's scenario section; ``system`` the rule system class.
"""

from __future__ import annotations

from normandy_lab.rules.cobra.data import (
    HISTORICAL_WEATHER,
    MARKERS,
    OPTIONS,
    ROAD_COST,
    RULE_NOTES,
    SEQUENCE,
    SUPPLY,
    SUPPLY_STATES,
    TERRAIN_COST,
    TURNS,
    UNIT_DEFAULTS,
    WEATHER_EFFECTS,
)
from normandy_lab.rules.cobra.format import FORMAT
from normandy_lab.rules.cobra.look import LOOK
from normandy_lab.rules.cobra.map import MAP_DATA
from normandy_lab.rules.cobra.system import CobraRules

COBRA_RULES = CobraRules(
    system="cobra",
    title="Cobra",
    turns=TURNS,
    sequence=SEQUENCE,
    weather_effects=WEATHER_EFFECTS,
    historical_weather=HISTORICAL_WEATHER,
    terrain_cost=TERRAIN_COST,  # RECONSTRUCTED (the chart is on the map); supply lines count as 10.3 says
    road_cost=ROAD_COST,
    unit_defaults=UNIT_DEFAULTS,
    supply=SUPPLY,
    options=OPTIONS,
    campaign=("1944-06-06", "1944-08-26"),
    rule_notes=RULE_NOTES,
    rule_refs={"control": "7.0d", "zoc": "7.0", "unit_supply_range": "10.3", "enemy_hex": "5.1b"},
    supply_states=SUPPLY_STATES,
    markers=MARKERS,
)

__all__ = [
    "COBRA_RULES",
    "FORMAT",
    "LOOK",
    "MAP_DATA",
    "CobraRules",
]
