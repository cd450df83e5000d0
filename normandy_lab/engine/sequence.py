"""The sequence of play: stepping a state through the phases, and what each phase computes.

The rule system gives the phases of each turn (``RuleSet.sequence``), the turns of a date
(``RuleSet.turn_order``), what a new day brings (``RuleSet.new_day``: its weather, income) and what each
phase computes (``RuleSet.phase_results``); this module steps through them.  The Battle for Normandy's are
in :mod:`normandy_lab.rules.bfn.sequence`.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from normandy_lab.engine.phase import Phase
from normandy_lab.engine.state import GameState
from normandy_lab.errors import RefusedError


def current_phase(state: GameState) -> Phase:
    """Return the phase the state is in."""
    phase: Phase = state.rules.sequence[state.turn][state.phase_index]  # the registry's rules are Any here
    return phase


def next_phase(state: GameState) -> GameState:
    """Return the state at the start of the next phase (stepping over turns and days).

    After the last phase of a date's last turn a new day begins, as the rule
    system says (BfN: the Night turn's Weather Determination rolls or looks up
    the day's weather).
    """
    rules = state.rules
    entered: GameState  # what the rules' enter_phase returns (typed Any through the registry)
    phases = rules.sequence[state.turn]
    if state.phase_index + 1 < len(phases):
        entered = rules.enter_phase(state.evolve(phase_index=state.phase_index + 1))
        return entered
    order = list(rules.turn_order(state.date))
    position = order.index(state.turn) if state.turn in order else len(order) - 1
    if position + 1 < len(order):
        entered = rules.enter_phase(state.evolve(turn=order[position + 1], phase_index=0))
        return entered
    date = rules.next_date(state.date)
    if date > dt.date.fromisoformat(rules.campaign[1]):
        raise RefusedError(f"the campaign ends on {rules.campaign[1]}; there is no next phase")
    entered = rules.enter_phase(rules.new_day(state, date))
    return entered


def step_to(state: GameState, phase: str) -> GameState:
    """Step forward until the state is in the phase named ``phase`` (the state itself if it is already).

    Refused for a name no turn of the game has (the steps would run to the campaign's end).
    """
    if not any(p.name == phase for phases in state.rules.sequence.values() for p in phases):
        raise RefusedError(f"no turn of {state.rules.title} has a phase named {phase!r}")
    while current_phase(state).name != phase:
        state = next_phase(state)
    return state


def previous_phase(state: GameState, history: list[GameState]) -> GameState:
    """Return the state before ``state`` in ``history`` (states are immutable, so stepping back is free)."""
    index = next((i for i, s in enumerate(history) if s is state), None)
    if index is None or index == 0:
        raise RefusedError("no earlier state in this history")
    return history[index - 1]


@dataclass
class PhaseSummary:
    """What a phase computes for display: its name, phasing side, and results."""

    label: str
    phase: Phase
    results: dict[str, Any]


def phase_effects(state: GameState) -> PhaseSummary:
    """Compute what the current phase does, as the state's rule system says (``RuleSet.phase_results``)."""
    phase = current_phase(state)
    return PhaseSummary(label=state.label, phase=phase, results=state.rules.phase_results(state, phase))


def calendar_in_force(state: GameState) -> list[Any]:  # CalendarEntry (rules.base)
    """Return the date-triggered rules in force on the state's date, as ``CalendarEntry``."""
    day = state.date.isoformat()
    return [e for e in state.rules.calendar if e.start <= day <= e.end]
