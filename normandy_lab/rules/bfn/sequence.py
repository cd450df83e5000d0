"""The Battle for Normandy's sequence of play: its days, weather, income, and what each phase computes.

Rules: 4.0, 3.7, 8.0, 8.1o, 7.1, 7.5, 7.6.2, 11.1-11.2, 12.4.

The engine steps a state through the phases (:mod:`normandy_lab.engine.sequence`); these are the verdicts
BfN gives at each step: the turns of a date, the weather and income of a new day, and the results of a
phase (who is out of supply at the start of movement, the interdiction by map, every possible attack).
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

from normandy_lab.engine.sequence import calendar_in_force
from normandy_lab.engine.state import GameState
from normandy_lab.engine.supply import supply
from normandy_lab.grids import grid
from normandy_lab.rules import Phase
from normandy_lab.rules.bfn.air import map_penalties
from normandy_lab.rules.bfn.csp import attack_csp_cost, daily_csp_income


def roll_weather(state: GameState, date: dt.date, previous: str | None) -> tuple[str, int]:
    """Determine a day's weather (8.0): the historical weather if the option is on and known, else 2D6.

    Returns the weather and the number of dice drawn.  DRMs: -1 the day
    after a Storm until July; +1 in August after a Clear day.
    """
    rules = state.rules
    if state.options.get("historical_weather", True) and date.isoformat() in rules.historical_weather:
        return rules.historical_weather[date.isoformat()], 0
    rng = state.rng()
    roll = int(rng.integers(1, 7)) + int(rng.integers(1, 7))
    if previous == "Storm" and date < dt.date(1944, 7, 1):
        roll -= 1
    if previous == "Clear" and date.month == 8:
        roll += 1
    roll = max(2, min(12, roll))
    for low, high, name in rules.weather_table:
        if low <= roll <= high:
            return name, 2
    raise AssertionError(f"no weather for roll {roll}")  # pragma: no cover - the table covers 2-12


def new_day(state: GameState, date: dt.date) -> GameState:
    """Begin a new day: its weather (8.0, or the historical weather) and the Allies' Combat Supply Points.

    7.6.2: the Allies gain the day's CSPs in the Night Inter-Phase's weather phase.
    """
    weather, drawn = roll_weather(state, date, state.weather)
    income = daily_csp_income(state, weather)
    return state.after_draws(drawn).evolve(
        date=date,
        turn=state.rules.turn_order(date)[0],
        phase_index=0,
        weather=weather,
        csp=state.csp + income,
        log=state.log.then(f"{date}: weather {weather}, +{income} CSP"),
    )


def phase_results(state: GameState, phase: Phase) -> dict[str, Any]:
    """Compute what a phase does, as the rules say.

    * weather -- the day's weather and its effects (8.0), the CSPs in hand, the dated rules in force;
    * air -- the interdiction penalty of every map (11.2);
    * movement / mechanized movement -- supply is determined at the start of
      movement (7.1): the out-of-supply units of the phasing side, and for
      the Germans the interdiction penalty by map;
    * combat -- the attack-strength halving of out-of-supply units (7.5),
      and every possible attack with its strengths and odds (12.4);
    * others -- bookkeeping, nothing to compute here.
    """
    rules = state.rules
    results: dict[str, Any] = {}
    if phase.kind == "weather":
        results = {"weather": state.weather, **rules.weather_effects[state.weather], "csp_total": state.csp}
        results["calendar"] = [f"{e.event} ({e.rules})" for e in calendar_in_force(state)]
    elif phase.kind == "air":
        results = {"interdiction": map_penalties(state)}
    elif phase.kind in ("movement", "mech_movement", "combat"):
        report = supply(state)
        side = phase.side
        out = [r.unit_id for r in report.out_of_supply(side)]
        results = {"out_of_supply": out, "supply_halved": report.halved}
        if side == "german" and phase.kind != "combat":
            results["interdiction"] = map_penalties(state)
        if phase.kind == "combat":
            results["attack_halved"] = out
            results["attacks"] = combat_odds(state, side)
    return results


def unit_strength(state: GameState, unit) -> tuple[int, int]:
    """Return a unit's (attack, defense) strength: printed values, or the RECONSTRUCTED per-step ones."""
    # A scenario's own values for some types stand beside the rules' for the others.
    per_step = {**state.rules.options["strength_per_step"], **(state.options.get("strength_per_step") or {})}
    attack_per, defense_per = per_step[unit.type]
    attack = unit.attack if unit.attack is not None else math.ceil(attack_per * unit.steps)
    defense = unit.defense if unit.defense is not None else math.ceil(defense_per * unit.steps)
    return attack, defense


def attack_after_supply(attack: int, in_general_supply: bool) -> int:
    """Return an attack strength after supply: halved, rounded up, out of General Supply (7.5)."""
    return attack if in_general_supply else math.ceil(attack / 2)


def supplied_strength(state: GameState, unit, in_general_supply: bool) -> tuple[int, int]:
    """Return a unit's (attack, defense) after supply effects.

    Out of General Supply the attack strength is halved, rounded up (7.5); the defense is unchanged.
    """
    attack, defense = unit_strength(state, unit)
    return attack_after_supply(attack, in_general_supply), defense


def combat_odds(state: GameState, side: str) -> list[dict[str, Any]]:
    """List the possible attacks of ``side``: each enemy hex it is adjacent to, with strengths and odds.

    Rules: 7.5 (an out-of-supply unit's attack strength is halved, rounded
    up; 3.2: combine a stack's values before halving); 12.4 (odds are the
    attack over the defense, rounded in the defender's favour).  Combat
    resolution (the CRT) is not implemented yet: this shows what would go in.
    """
    g = grid(state.system)
    report = supply(state)
    by_hex = state.stacks()
    out = []
    for hex_id, defenders in sorted(by_hex.items()):
        if defenders[0].side == side:
            continue
        attackers = [u for n in g.neighbors(hex_id) for u in by_hex.get(g.canonical(n), []) if u.side == side]
        attackers = [u for u in attackers if unit_strength(state, u)[0] > 0]
        if not attackers:
            continue
        supplied = sum(unit_strength(state, u)[0] for u in attackers if report[u.id].general)
        unsupplied = sum(unit_strength(state, u)[0] for u in attackers if not report[u.id].general)
        attack = supplied + math.ceil(unsupplied / 2)
        defense = sum(unit_strength(state, u)[1] for u in defenders)
        if defense <= 0:
            ratio = "automatic"
        elif attack >= defense:
            ratio = f"{attack // defense}-1"
        else:
            ratio = f"1-{math.ceil(defense / attack)}" if attack else "none"
        out.append(
            {
                "defender_hex": hex_id,
                "defenders": [u.id for u in defenders],
                "attackers": [u.id for u in attackers],
                "attack": attack,
                "attack_lost_to_supply": unsupplied - math.ceil(unsupplied / 2),
                "defense": defense,
                "odds": ratio,
                # 7.6.2: what the attack would cost the Allies with support (the Germans pay none).
                "csp_if_supported": (
                    attack_csp_cost(state.system, len({u.hex for u in attackers}), supports=1)
                    if side == "allied"
                    else 0
                ),
            }
        )
    return out
