"""The Greatest Day: Utah Beach (MMP, Grand Tactical Series; exclusive rules only): the fourth rule system.

``data`` the day of two-hour turns, weather and air, the divisions and the 82nd's zones; ``supply`` the
day's designation of three Supplied divisions (17.3, 17.4, 17.6), no line traced; ``paths`` the link-up
and remount path tests (17.6, 15.0) on the real roads; ``air`` fighter-bomber interdiction (17.1);
``schema`` the scenario section; ``system`` the rule system class.  The series rules (sequence of play,
chit activation, Fire Zones, fire and assault) and the scenario booklets are not in the seeds.
"""

from __future__ import annotations

from normandy_lab.rules.gts.data import (
    MARKERS,
    OPTIONS,
    READINGS,
    RULE_NOTES,
    SEQUENCE,
    SUPPLY_STATES,
    TURNS,
    UNIT_DEFAULTS,
    WEATHER_EFFECTS,
)
from normandy_lab.rules.gts.format import FORMAT
from normandy_lab.rules.gts.look import LOOK
from normandy_lab.rules.gts.map import MAP_DATA
from normandy_lab.rules.gts.system import GtsRules

GTS_RULES = GtsRules(
    system="gts",
    title="The Greatest Day: Utah Beach",
    turns=TURNS,
    sequence=SEQUENCE,
    weather_effects=WEATHER_EFFECTS,
    historical_weather={},
    unit_defaults=UNIT_DEFAULTS,
    supply={},
    options=OPTIONS,
    # From the Night of 5 June (3.4.2, 18.7) to the last date the exclusive rules name (INFERRED).
    campaign=("1944-06-05", "1944-06-13"),
    rule_notes=RULE_NOTES,
    rule_refs={"zoc": "Fire Zones (series rules, not in the text)", "unit_supply_range": "17.3"},
    supply_states=SUPPLY_STATES,
    markers=MARKERS,
    unordered_markers=frozenset({"supplied_divisions"}),  # 17.3: three divisions for the day, in no order
)  # fmt: skip

__all__ = [
    "FORMAT",
    "GTS_RULES",
    "LOOK",
    "MAP_DATA",
    "READINGS",
    "GtsRules",
]
