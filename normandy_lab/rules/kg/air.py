"""The Killing Ground's Build-up air power (26.15), as the text gives it: points and where they may go.

What the Allied Air phase puts on the table: the Air Points General Air Interdiction gets by the weather
(26.15.3), the points the Allied player has put on Supply Interdiction (at most 4, 26.15.1), whether the
last air unit drawn went to Rail Interdiction (26.15.2), and the air units placed on German off-map boxes
(at most 2 in one box, attacking at -2, 26.15.4).  What the points do is read on the Air Interdiction Table
and the air rules of the base game (KG 15), which are not in the text: nothing is rolled, and the results
say so.
"""

from __future__ import annotations

from typing import Any

from normandy_lab.engine.state import GameState
from normandy_lab.rules.section import checked

# 26.15.3: Clear/Scattered 6, Light Overcast 4, Heavy Overcast 2, Rain 2 less.  The scenario weathers are
# Clear, Overcast, Rain and Storm (the KG weather table is a GAP): Overcast is read as Light Overcast, Rain
# as Light Overcast with rain (4 - 2), and a Storm, which the rule does not list, as no air (INFERRED).
GENERAL_AIR_POINTS = {"Clear": 6, "Overcast": 4, "Rain": 2, "Storm": 0}
SUPPLY_INTERDICTION_MAX = 4  # 26.15.1
OMM_TARGET_MAX = 2  # 26.15.4: air units in one box


def air_summary(state: GameState) -> dict[str, str]:
    """Return what the Allied Air phase of ``state`` puts on the table, in words with the rules."""
    general = GENERAL_AIR_POINTS.get(state.weather, 0)
    supply_ap = state.markers["air_supply_ap"]
    targets = state.markers["air_omm_targets"]
    return {
        "general_air_interdiction": f"{general} automatic Air Points in {state.weather} weather (26.15.3)",
        "supply_interdiction": f"{supply_ap} of at most {SUPPLY_INTERDICTION_MAX} Air Points (26.15.1)",
        "rail_interdiction": (
            "the last air unit drawn for Supply Interdiction goes to Rail Interdiction (26.15.2)"
            if state.markers["air_rail"]
            else "none (26.15.2)"
        ),
        "targeted_omm_interdiction": (
            "; ".join(f"{n} air unit{'s' if n > 1 else ''} on {box}" for box, n in sorted(targets.items()))
            + ", each attack at -2 (26.15.4)"
            if targets
            else "none (26.15.4)"
        ),
        "results": "not rolled: the Air Interdiction Table and KG 15 are not in the text",
    }


def set_air_marker(state: GameState, name: str, value: Any) -> GameState:
    """Return ``state`` with an air allocation set, or refuse one 26.15 does not allow.

    The value is checked as a scenario's is (``rules.kg.section``): at most 4 Air Points on Supply
    Interdiction (26.15.1), a flag for Rail Interdiction (26.15.2), and up to 2 air units on each German
    OMM box named (26.15.4), merged with those already placed.
    """
    given = checked(state, name, value)
    if name != "air_omm_targets":
        return state.evolve(**{name: given})
    targets = {box: n for box, n in {**state.markers["air_omm_targets"], **(value or {})}.items() if n}
    return state.evolve(air_omm_targets=targets)
