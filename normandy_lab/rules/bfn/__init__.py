"""The Battle for Normandy (GMT, 2013): the first rule system.

``data`` holds the rules as data (sequence, weather, the reconstructed terrain and interdiction tables,
supply numbers, readings); ``system`` the rule system class; ``supply`` (7.x), ``explain`` (why a unit is
out), ``attachment`` (7.2, 20.3), ``csp`` (7.6) and ``setup_check`` (HQ placement) its determinations.
"""

from __future__ import annotations

from normandy_lab.rules.bfn.data import (
    BFN_RULE_NOTES,
    BFN_RULES,
    CALENDAR,
    CSP_COSTS,
    HISTORICAL_WEATHER,
    INTERDICTION_TRACK,
    READINGS,
    SEQUENCE,
    SIZES,
    STRENGTH_PER_STEP,
    SUPPLY,
    TERRAIN_COST,
    UNIT_DEFAULTS,
    UNIT_TYPES,
    WEATHER_EFFECTS,
    WEATHER_TABLE,
)
from normandy_lab.rules.bfn.format import FORMAT
from normandy_lab.rules.bfn.look import LOOK
from normandy_lab.rules.bfn.map import MAP_DATA
from normandy_lab.rules.bfn.system import BfnRules

__all__ = [
    "BFN_RULES",
    "BFN_RULE_NOTES",
    "CALENDAR",
    "CSP_COSTS",
    "FORMAT",
    "HISTORICAL_WEATHER",
    "INTERDICTION_TRACK",
    "LOOK",
    "MAP_DATA",
    "READINGS",
    "SEQUENCE",
    "SIZES",
    "STRENGTH_PER_STEP",
    "SUPPLY",
    "TERRAIN_COST",
    "UNIT_DEFAULTS",
    "UNIT_TYPES",
    "WEATHER_EFFECTS",
    "WEATHER_TABLE",
    "BfnRules",
]
