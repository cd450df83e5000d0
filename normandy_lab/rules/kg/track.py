"""The reinforcement track a scenario sets (22.7.2's Track Adjustments) and its arrivals (26.16).

22.7 puts units on the Game-Turn Record Track for Turns 14-16 ("Allied Reinforcement Track Adjustments",
"German Reinforcement Track Adjustments").  The rest of the track is printed on the card (a GAP), so only
the units a scenario lists are played: the state keeps them in the marker ``reinforcement_track`` and the
Replacement and Reinforcement phase of their turn puts them in play, off the map in the box they arrive in
(26.16.1: U.S. units in the U.S. Floating Reserve box, British and Canadian in the Commonwealth one, a
British AGRA in the Allied Holding Box; 26.16.2: a German unit in an OMM box, where a tank or mechanized
unit rolls for its supply).  From the box a unit comes on by a move, as any unit in a box does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from normandy_lab.engine.edits import add_unit
from normandy_lab.gamemap import game_map
from normandy_lab.rules.api import Checker, unit_from_entry

if TYPE_CHECKING:
    from normandy_lab.engine.state import GameState

__all__ = ["arrive", "track_words"]


def _due(state: GameState) -> list[tuple[str, Any]]:
    return [(turn, units) for turn, units in state.markers["reinforcement_track"] if turn == state.turn]


def arrive(state: GameState) -> GameState:
    """Put in play the units the track brings this turn, each in its arrival box (22.7.2, 26.16)."""
    due = _due(state)
    if not due:
        return state
    grid = game_map(state.system).grid
    for _, units in due:
        for fields in units:
            entry = dict(fields)
            unit = unit_from_entry(Checker("reinforcement track"), entry, "unit", state.rules, grid)
            state = add_unit(state, unit)
            state = state.evolve(
                log=state.log.then(
                    f"{entry.get('printed') or unit.id} arrives from the reinforcement track in {unit.box} "
                    "(22.7.2's Track Adjustments; 26.16)"
                )
            )
    left = tuple(e for e in state.markers["reinforcement_track"] if e[0] != state.turn)
    return state.evolve(reinforcement_track=left)


def track_words(state: GameState) -> dict[str, Any]:
    """Say what the track holds: this turn's arrivals and the turns still to come (22.7.2, 26.16)."""
    track = state.markers["reinforcement_track"]
    if not track:
        return {}

    def names(units: Any) -> list[str]:
        return [f"{dict(u).get('printed') or dict(u)['id']} ({dict(u)['box']})" for u in units]

    return {
        "reinforcements_this_turn": [n for _, units in _due(state) for n in names(units)],
        "reinforcement_track": {turn: names(units) for turn, units in track if turn != state.turn},
        "reinforcement_rule": "22.7.2's Reinforcement Track Adjustments, placed as 26.16.1-26.16.2 say; the "
        "rest of the track is on the card (not in the text), so only the units the scenario lists arrive",
    }
