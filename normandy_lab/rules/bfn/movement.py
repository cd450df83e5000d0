"""The Battle for Normandy's movement allowance (11.2, 10.5, 10.7, 7.5, 7.5o).

What interdiction, the phase, night, supply and isolation leave a unit to move with.

The engine moves units (:mod:`normandy_lab.engine.movement`: terrain and road costs, 5.2's zones of
control); this is the allowance BfN gives them.
"""

from __future__ import annotations

import datetime as dt
import math

from normandy_lab.engine.state import GameState, Unit


def allowance(state: GameState, unit: Unit, in_supply: bool = True, isolated: bool = False) -> float:
    """Return the unit's movement allowance now, after interdiction, supply, night and phase.

    11.2: interdiction first; 10.5: in the Mechanized Movement phase only mechanized units move, at half
    (rounded up) unless a recon's light-blue MA; 10.7: Allied allowances halved at night until July;
    7.5: halved out of supply.

    7.5o: an isolated mechanized unit (no line of any length to a friendly
    corps HQ) has an allowance of 2, and none in the Mechanized Movement Phase.
    """
    from normandy_lab.engine.sequence import current_phase

    rules = state.rules
    ma = float(unit.ma if unit.ma is not None else rules.unit_defaults[unit.type]["ma"])
    ma = max(0.0, ma - rules.air_ma_penalty(state, unit))  # BfN 11.2: before any other effect
    phase = current_phase(state)
    if phase.kind == "mech_movement":
        # 10.5: only mechanized units move; yellow MAs at half (rounded up), the light-blue MAs of
        # mechanized recon units at full allowance.
        full = bool(rules.unit_defaults.get(unit.type, {}).get("full_ma_in_mech_phase"))
        ma = (ma if full else math.ceil(ma / 2)) if unit.mechanized else 0.0
    night_until = dt.date.fromisoformat(state.options.get("night_halving_until", "1944-07-01"))
    if state.turn == "Night" and unit.side == "allied" and state.date < night_until:
        ma = math.ceil(ma / 2)
    if not in_supply:
        ma = math.ceil(ma / 2)
    if isolated and unit.mechanized:
        ma = 0.0 if phase.kind == "mech_movement" else 2.0
    return float(ma)
