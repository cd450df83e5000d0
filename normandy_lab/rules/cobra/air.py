"""Cobra's Allied air power (14.0-14.3): air points by weather, and carpet bombing planned a turn ahead.

* 14.0: six air points (AP) a clear game turn, three overcast, none in storms.
* 14.3a-d: a carpet bombing is planned at the start of an Allied Combat Phase (the target written down)
  and carried out at the start of the next game turn's Allied Combat Phase, before any other attack,
  only if that turn is clear; otherwise, or at the player's choice, it is cancelled.
* 14.3e: it takes three AP against one enemy-occupied hex; the other three may not be used on that side
  of the Allied Army Boundary.
* 14.3f: one mission in GTs 5-14, two more from GT 15 on (cancelled ones do not count).
* 14.3g: resolved on the 6:1 column, losses taken as steps.  The Combat Results Table's body is not in
  the text, so the engine says what the attack is and does not roll it.
* 14.3h-i: no Allied attack on the bombed hex that phase; an Allied unit entering it in the following
  Mechanized Movement Phase moves no farther.

The markers: ``carpet_plan`` (``{"hex", "gt"}`` while a mission is planned), ``carpet_done`` (the mission
carried out this game turn) and ``carpet_missions`` (``{"early", "late"}``: missions flown in GTs 5-14 and
from GT 15).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from normandy_lab.engine.sequence import current_phase
from normandy_lab.engine.state import GameState
from normandy_lab.errors import RefusedError
from normandy_lab.grids import grid

AIR_POINTS = {"Clear": 6, "Overcast": 3, "Storm": 0}  # 14.0
CARPET_AP = 3  # 14.3e
EARLY, LATE = (5, 14), 15  # 14.3f: one mission in GTs 5-14, two more from GT 15
LIMITS = {"early": 1, "late": 2}


@dataclass(frozen=True)
class CarpetVerdict:
    """Whether a planned carpet bombing is carried out this turn, and why (or why not)."""

    hex: str
    flies: bool
    why: str


def air_points(weather: str) -> int:
    """Return the Allied air points of a game turn's weather (14.0)."""
    return AIR_POINTS[weather]


def period(gt: int) -> str | None:
    """Return which of 14.3f's allowances a game turn draws on ("early", "late"), or None before GT 5."""
    if gt >= LATE:
        return "late"
    if EARLY[0] <= gt <= EARLY[1]:
        return "early"
    return None


def verdict(state: GameState, gt: int) -> CarpetVerdict | None:
    """Say whether the mission planned last game turn flies in game turn ``gt`` (14.3b, d, e, f)."""
    plan = state.markers["carpet_plan"]
    if not plan or plan["gt"] != gt - 1:
        return None
    target = plan["hex"]
    allowance = period(gt)
    flown = state.markers["carpet_missions"]
    if state.weather != "Clear":
        return CarpetVerdict(target, False, f"cancelled: the weather is {state.weather}, not clear (14.3b)")
    if allowance is None:
        return CarpetVerdict(target, False, "cancelled: no carpet bombing before GT 5 (14.3f)")
    if flown.get(allowance, 0) >= LIMITS[allowance]:
        return CarpetVerdict(target, False, f"cancelled: the missions allowed for GT {gt} are flown (14.3f)")
    if not any(u.hex == target and u.status == "active" for u in state.units_of("german")):
        return CarpetVerdict(target, False, f"cancelled: no German unit in {target} (14.3e)")
    return CarpetVerdict(
        target, True, f"flies against {target} with {CARPET_AP} AP at 6:1, losses in steps (14.3e, g)"
    )


def plan(state: GameState, gt: int, target: Any) -> dict[str, Any] | None:
    """Return the plan to record for ``target`` (None cancels); refuse it outside the time 14.3a gives."""
    if target in (None, ""):
        return None
    phase = current_phase(state)
    if phase.name != "Allied Combat":
        raise RefusedError(
            f"a carpet bombing is planned at the start of an Allied Combat Phase (14.3a), not in {phase.name}"
        )
    if not isinstance(target, str) or target not in grid(state.system):
        raise RefusedError(f"{target!r} is not a hex of the Cobra maps; give a hex id such as A1506")
    return {"hex": grid(state.system).canonical(target), "gt": gt}
