"""Where the units of a state stand, and which hexes no line of a side may enter, in every game.

:class:`Situation` finds every unit's hex and both sides' zones of control once per state;
:func:`blocked_mask` is what blocks a line in every game (enemy units, vacant hexes in an EZOC that no
friendly unit negates, interdicted hexes, the sea and the sheets not in play).  The converters
:func:`as_mp` and :func:`as_hexes` turn the search kernels' integer distances
(:mod:`normandy_lab.engine.search`: hexes, sixths of an MP, ``FAR`` for no line) into floats.

What a line costs is each game's own: BfN's 7.3.2 costs and its searches (``TraceNet``) live in
:mod:`normandy_lab.rules.bfn.lines`; Cobra and KG search on :mod:`normandy_lab.engine.layered`.
"""

from __future__ import annotations

import math
import threading
import weakref
from dataclasses import dataclass

import numpy as np

from normandy_lab.engine.search import FAR, SIXTHS
from normandy_lab.engine.state import GameState, other_side
from normandy_lab.engine.zoc import zoc_mask
from normandy_lab.gamemap import game_map
from normandy_lab.grids import grid

INF = math.inf


def as_mp(sixths: np.ndarray | int) -> np.ndarray | float:
    """Convert distances in sixths of an MP (FAR: no line) to MPs (inf)."""
    value = np.where(np.asarray(sixths) >= FAR, INF, np.asarray(sixths) / SIXTHS)
    return float(value) if value.ndim == 0 else value


def as_hexes(count: np.ndarray | int) -> np.ndarray | float:
    """Convert hex counts (FAR: no line) to floats (inf)."""
    value = np.where(np.asarray(count) >= FAR, INF, np.asarray(count, dtype=float))
    return float(value) if value.ndim == 0 else value


def water_names(system: str) -> np.ndarray:
    """Return the name of the water each directed edge crosses ("" where none is named)."""
    return game_map(system).water_names


def impassable(system: str, maps: frozenset[str] = frozenset()) -> np.ndarray:
    """Hexes no line may enter: sea and impassable terrain, and the hexes of sheets not in play."""
    return game_map(system).closed(maps)


def in_play(system: str, maps: frozenset[str] = frozenset()) -> np.ndarray:
    """Return which hexes lie on the map sheets in play (every hex when ``maps`` is empty: all sheets)."""
    return game_map(system).in_play(maps)


@dataclass(frozen=True)
class Situation:
    """Where the units of a state stand, computed once for both sides' lines and hex control."""

    position: dict[str, int]  # unit id -> dense hex index
    occupied: dict[str, np.ndarray]  # side -> hexes its active units hold
    ground: dict[str, np.ndarray]  # side -> hexes its active ground units hold (they exert the ZOC, 5.1)
    zoc: dict[str, np.ndarray]  # side -> hexes in its ZOC (5.1, 5.3)
    negating: dict[str, np.ndarray]  # side -> hexes where its units negate the enemy's ZOC for lines (5.4)

    @classmethod
    def of(cls, state: GameState) -> Situation:
        """Find where every unit of ``state`` stands and the zones of control of both sides.

        Kept for the last few states asked about: one user action reads it several times (the supply of
        both sides, the EZOC layer, who controls a hex), and a state never changes.  Its arrays are
        read-only, so no reader can change what the next one sees.
        """
        with _RECENT_LOCK:
            kept = _RECENT.get(id(state))
            if kept is not None and kept[0]() is state:
                return kept[1]
        situation = cls._find(state)
        with _RECENT_LOCK:
            _RECENT[id(state)] = (weakref.ref(state), situation)
            while len(_RECENT) > _RECENT_KEPT:
                del _RECENT[next(iter(_RECENT))]  # the oldest first (dicts keep insertion order)
        return situation

    @classmethod
    def _find(cls, state: GameState) -> Situation:
        g = grid(state.system)
        index_of = g.index_of  # unit hexes are canonical ids (the scenario loader made them so)
        position = {u.id: index_of[u.hex] if u.hex in index_of else g.index(u.hex) for u in state.units}
        occupied = {side: np.zeros(len(g), dtype=bool) for side in ("allied", "german")}
        ground = {side: np.zeros(len(g), dtype=bool) for side in ("allied", "german")}
        negating = {side: np.zeros(len(g), dtype=bool) for side in ("allied", "german")}
        exerts, negates = state.rules.exerts_zoc, state.rules.negates_ezoc
        exempt = state.rules.zoc_exempt(state)  # units that exert none on this state (Cobra 17.3.8)
        for u in state.units:
            if u.status == "active":
                occupied[u.side][position[u.id]] = True
                if exerts(u) and u.id not in exempt:
                    ground[u.side][position[u.id]] = True
                if negates(u):
                    negating[u.side][position[u.id]] = True
        zoc = {side: zoc_mask(state, side, ground[side]) for side in ("allied", "german")}
        for masks in (occupied, ground, zoc, negating):
            for mask in masks.values():
                mask.setflags(write=False)
        return cls(position, occupied, ground, zoc, negating)


# The situations of the last few states (:meth:`Situation.of`), by the state's id with a weak reference
# that tells a live state from a new one given a freed state's id.  A lock: the Dask sweep's workers may
# run threads.
_RECENT: dict[int, tuple[weakref.ref[GameState], Situation]] = {}
_RECENT_KEPT = 8
_RECENT_LOCK = threading.Lock()


def interdicted_mask(state: GameState) -> np.ndarray:
    """Return the hexes the analyst interdicted, where the state's option makes them block lines ("block")."""
    g = grid(state.system)
    interdicted = np.zeros(len(g), dtype=bool)
    if state.options.get("what_if_interdiction", "block") == "block":
        for hex_id in state.interdicted_hexes:
            interdicted[g.index(hex_id)] = True
    return interdicted


def blocked_mask(state: GameState, side: str, situation: Situation) -> np.ndarray:
    """Return the hexes no line of ``side`` may enter or leave, in every game.

    Enemy units, vacant hexes in an enemy zone of control (a unit that negates it there opens it), the
    analyst's interdicted hexes, the sea and impassable terrain, and the sheets not in play.
    """
    enemy = other_side(side)
    ezoc = situation.zoc[enemy] & ~situation.negating[side]
    closed = impassable(state.system, state.maps)
    blocked: np.ndarray = situation.occupied[enemy] | ezoc | interdicted_mask(state) | closed
    return blocked


__all__ = [
    "INF",
    "Situation",
    "as_hexes",
    "as_mp",
    "blocked_mask",
    "impassable",
    "in_play",
    "interdicted_mask",
    "water_names",
]
