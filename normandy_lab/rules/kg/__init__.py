"""The Killing Ground with its OVERLORD expansion (section 26, scenarios 22.6-22.7): the third rule system.

``data`` the Build-up's calendar, sequence, units, boxes and numbers (RECONSTRUCTED where the base rules
are needed); ``supply`` the Build-up's supply (26.9-26.11); ``schema`` its scenario section and unit
marks; ``system`` the rule system class.  The base *Killing Ground* rules are not in the seeds.
"""

from __future__ import annotations

from normandy_lab.rules.kg.data import (
    BOXES,
    MARKERS,
    OPTIONS,
    READINGS,
    RULE_NOTES,
    SEQUENCE,
    SUPPLY,
    SUPPLY_STATES,
    TURNS,
    UNIT_DEFAULTS,
    WEATHER_EFFECTS,
)
from normandy_lab.rules.kg.format import FORMAT
from normandy_lab.rules.kg.look import LOOK
from normandy_lab.rules.kg.map import MAP_DATA
from normandy_lab.rules.kg.system import KgRules

KG_RULES = KgRules(
    system="kg",
    title="The Killing Ground: OVERLORD",
    turns=TURNS,
    sequence=SEQUENCE,
    weather_effects=WEATHER_EFFECTS,
    historical_weather={},
    unit_defaults=UNIT_DEFAULTS,
    supply=SUPPLY,
    options=OPTIONS,
    campaign=("1944-06-06", "1944-08-20"),
    rule_notes=RULE_NOTES,
    rule_refs={"zoc": "26.2.3", "unit_supply_range": "26.11.1"},
    supply_states=SUPPLY_STATES,
    markers=MARKERS,
    # 22.6.8 and 22.7 list destroyed bridges ("N3436/N3337, N3436/N3435, N3436/3437"; "N3725/N3726,
    # N3847/N3948"); the derived map has a bridge on N3725/N3726 only (N3436's hexsides cross no water at
    # all): the others are the printed map's bridges, which the derived map lacks.
    unordered_markers=frozenset({"weapons_nests"}),  # each nest stands for itself (26.2.3-26.2.4)
    bridges_named_by_the_rules=frozenset(
        {"N3337|N3436", "N3435|N3436", "N3436|N3437", "N3725|N3726", "N3847|N3948"}
    ),
    # No bridge changes a KG verdict: supply.py reads no destroyed bridge, its lines crossing rivers (KG 11.3
    # and the base rules' rivers are not in the text).  Clear this if a river or bridge rule is played.
    no_bridge_effect=(
        "a supply line crosses any river: the Build-up's lines (26.11.1, 26.11.2) are counted per the base "
        "game's 11.3, whose river and bridge rules are not in the text, so the engine RECONSTRUCTS lines "
        "that cross rivers and read no bridge (22.7 is traced by the same rules); the text's own bridges "
        "are movement and engineering (26.4.5: a mech unit may not use a Minor Road as a bridge hexside; "
        "26.19.5: repairing a major-river bridge costs 1 SP)"
    ),
    boxes=BOXES,
)  # fmt: skip

__all__ = [
    "FORMAT",
    "KG_RULES",
    "LOOK",
    "MAP_DATA",
    "READINGS",
    "KgRules",
]
