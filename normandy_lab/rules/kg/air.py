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
from normandy_lab.errors import RefusedError

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
    """Return ``state`` with an air allocation set, or refuse one 26.15 does not allow."""
    if name == "air_supply_ap":
        whole = isinstance(value, int) and not isinstance(value, bool)
        if not whole or not 0 <= value <= SUPPLY_INTERDICTION_MAX:
            raise RefusedError(
                f"Supply Interdiction takes 0 to {SUPPLY_INTERDICTION_MAX} Air Points (26.15.1)"
            )
        return state.evolve(air_supply_ap=value)
    if name == "air_rail":
        if not isinstance(value, bool):
            raise RefusedError(f"air_rail is true or false, not {value!r}")
        return state.evolve(air_rail=value)
    # air_omm_targets: German off-map boxes -> air units, at most 2 a box, none on a reinforcement box.
    if not isinstance(value, dict):
        raise RefusedError(f"air_omm_targets is a mapping of off-map box to air units, not {value!r}")
    boxes = {name for name, box in state.rules.boxes.items() if box.side == "german" and "OMM" in name}
    for box, units in value.items():
        if box not in boxes:
            raise RefusedError(f"{box!r} is not a German OMM box; the boxes are {', '.join(sorted(boxes))}")
        if not isinstance(units, int) or isinstance(units, bool) or not 0 <= units <= OMM_TARGET_MAX:
            raise RefusedError(f"up to {OMM_TARGET_MAX} air units may be placed in one OMM box (26.15.4)")
    targets = {box: n for box, n in {**state.markers["air_omm_targets"], **value}.items() if n}
    return state.evolve(air_omm_targets=targets)
