"""The analyst's what-if interdiction of hexes (a core option for every rule system).

A hex listed in ``state.interdicted_hexes`` blocks lines of supply (option ``what_if_interdiction:
block``) or costs extra MPs to enter (``+N``).  Air interdiction as a game's rules give it (BfN 11.1-11.2:
a penalty by map) is the rule system's (``RuleSet.air_regions``, ``RuleSet.air_ma_penalty``).
"""

from __future__ import annotations

from normandy_lab.engine.state import GameState
from normandy_lab.grids import grid


def interdict_hex(state: GameState, hex_id: str) -> GameState:
    """Return a state with a hex interdicted by the analyst (a what-if)."""
    canonical = grid(state.system).canonical(hex_id)
    return state.evolve(
        interdicted_hexes=state.interdicted_hexes | {canonical}, log=state.log.then(f"interdict {canonical}")
    )


def clear_interdiction(state: GameState, hex_id: str) -> GameState:
    """Return a state with the analyst's interdiction of a hex removed."""
    canonical = grid(state.system).canonical(hex_id)
    return state.evolve(
        interdicted_hexes=state.interdicted_hexes - {canonical},
        log=state.log.then(f"clear interdiction {canonical}"),
    )
