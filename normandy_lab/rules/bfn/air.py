"""Air interdiction in The Battle for Normandy (11.1-11.2, 23.6): each map a region, its penalty by map.

Rules implemented:

* 11.1.1 -- no Air Allocation Phase, so no interdiction, on 6 June and in
  Heavy Rain or Storm; air points are never flown at night.
* 11.1.2 -- each map is a region; Allied points on maps B and C are halved
  (rounded up) before the German AA is subtracted.
* 11.2 -- the difference is read on the Air Interdiction Track; the penalty
  is subtracted from the movement allowance of German units in the AM and
  PM Movement and Mechanized Movement phases, by the map each unit starts
  on, before any other effect.  The track itself is not in the rulebook:
  :data:`~normandy_lab.rules.bfn.INTERDICTION_TRACK` is RECONSTRUCTED from
  the worked example (0 -> none, 10 -> 1 MP, 20 -> 4 MP) and configurable.
* 23.6 -- expansion map F counts as D and G as E.
"""

from __future__ import annotations

import datetime as dt
import math

from normandy_lab.engine.state import GameState, Unit
from normandy_lab.grids import grid
from normandy_lab.rules.base import AirRegion

HALVED_MAPS = ("B", "C")
SAME_AS = {"F": "D", "G": "E"}


def track_penalty(difference: int, track: tuple[tuple[int, int], ...]) -> int:
    """Read the Air Interdiction Track: the MP penalty for an Allied-minus-AA difference."""
    penalty = 0
    for smallest, value in track:
        if difference >= smallest:
            penalty = value
    return penalty


def air_active(state: GameState) -> bool:
    """Return whether Allied air flies today (11.1.1)."""
    rules = state.rules
    return state.date != dt.date(1944, 6, 6) and bool(rules.weather_effects[state.weather]["air"])


def map_penalties(state: GameState) -> dict[str, int]:
    """Return the interdiction MP penalty of every map (11.2).

    Examples
    --------
    The rulebook's example: Allied 20/20/50 on A/B/C against AA 10/10/5
    gives A 1, B 0 and C 4 MPs.
    """
    rules = state.rules
    sheets = sorted(grid(state.system).scheme.sheets)
    if not air_active(state):
        return dict.fromkeys(sheets, 0)
    out = {}
    for sheet in sheets:
        source = SAME_AS.get(sheet, sheet)
        allied = state.air_points.get(source, 0)
        if source in HALVED_MAPS:
            allied = math.ceil(allied / 2)
        out[sheet] = track_penalty(allied - state.aa_points.get(source, 0), rules.interdiction_track)
    return out


def interdiction_penalty(state: GameState, unit: Unit, phase_turn: str | None = None) -> int:
    """Return the MP penalty interdiction takes from ``unit`` now (German units, AM/PM only)."""
    turn = phase_turn or state.turn
    if unit.side != "german" or turn not in ("AM", "PM"):
        return 0
    sheet = grid(state.system).sheet_of(unit.hex)
    return map_penalties(state).get(sheet, 0)


def air_regions(state: GameState) -> list[AirRegion]:
    """Return every map with its Allied air and German AA points and the penalty they make (11.1.2, 11.2)."""
    refs = state.rules.rule_refs
    penalties = map_penalties(state)
    out = []
    for sheet in sorted(penalties):
        source = SAME_AS.get(sheet, sheet)
        air, aa = int(state.air_points.get(source, 0)), int(state.aa_points.get(source, 0))
        halved = f" (halved on this map, {refs.get('air_halved', '')})" if source in HALVED_MAPS else ""
        out.append(
            AirRegion(
                label=f"map {sheet}",
                rule=refs.get("air_interdiction", ""),
                sheet=sheet,
                allied=air,
                against=aa,
                penalty=penalties[sheet],
                effect=(
                    f"map {sheet}: Allied air {air}{halved} against AA {aa}: "
                    f"German units -{penalties[sheet]} MP ({refs.get('air_interdiction', '')})"
                ),
            )
        )
    return out
