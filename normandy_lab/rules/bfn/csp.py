"""Allied Combat Supply Points (BfN 7.6.2-7.6.4, 19.4.1, 20.4).

The Allies gain CSPs every day in the Night Inter-Phase's weather phase (by
the day's weather, plus 10 for each complete Mulberry and 5 for a repaired
Cherbourg port) and spend them on supported attacks, defensive artillery and
carpet bombing.  The Germans have no CSPs.  The costs are rules data
(``ruleset(system).supply["csp_costs"]``).
"""

from __future__ import annotations

import math

from normandy_lab.engine.state import GameState
from normandy_lab.rules import ruleset


def daily_csp_income(state: GameState, weather: str | None = None, cherbourg_port: bool = False) -> int:
    """Return the CSPs the Allies gain on a day (7.6.2, 8.0, 19.4.1, 20.4).

    Parameters
    ----------
    state
        The state: its ruleset and its complete Mulberries (``state.mulberries``).
    weather
        The day's weather (default: the state's).
    cherbourg_port
        Whether Cherbourg's port is repaired to level 9 and held (20.4).
    """
    rules = state.rules
    costs = rules.supply["csp_costs"]
    income = int(rules.weather_effects[weather or state.weather]["csp"])
    income += costs["mulberry_per_day"] * len(state.mulberries)
    if cherbourg_port:
        income += costs["cherbourg_port_per_day"]
    return income


def attack_csp_cost(
    system: str, attacking_hexes: int, supports: int = 0, air: bool = False, graduated: bool = False
) -> int:
    """Return the CSPs an Allied attack costs.

    Parameters
    ----------
    system
        The rule system.
    attacking_hexes
        Hexes the attack comes from: one is a Normal Attack, more a Major Attack.
    supports
        Artillery and naval units supporting it.
    air
        Whether it has Ground Support.
    graduated
        Use the optional Graduated Allied Supply Cost Table (7.6.3o).

    Notes
    -----
    7.6.2 and 7.6.4: a Normal Attack costs 1 CSP when it uses artillery, naval
    or air support and nothing without; a Major Attack costs 3.  7.6.3o: 0 for
    one hex with at most 4 points of in-division fire (taken here as one
    support), 1 for one hex with two supports, 2 for several hexes with up to
    two, +1 with air, +1 for each two supports beyond two.
    """
    costs = ruleset(system).supply["csp_costs"]
    if not graduated:
        if attacking_hexes > 1:
            return costs["major_attack"]
        return costs["normal_attack"] if supports or air else costs["unsupported_single_hex"]
    cost = (0 if supports <= 1 else 1) if attacking_hexes <= 1 else 2
    cost += math.ceil(max(0, supports - 2) / 2)
    return cost + (1 if air else 0)
