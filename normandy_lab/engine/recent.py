"""What was worked out for the states a session shows, kept by the state object itself (issue 33, section 4).

A state never changes, so what a pure function of it answers holds as long as that object lives: an undo
shows a state worked out a moment ago, and a move reads the supply and the movement range of the state it
starts from, which the explorer has just drawn.  A :class:`Recent` keeps the answers of the last few states
asked about, each under the state's ``id`` with a weak reference that tells the live state from a new one
given a freed state's ``id``, and the state's rule system at the time (a game registered again since is
another rule system: its answers are worked out afresh).  An equal state that is another object is never
served from here.

Only the states a session marks (:func:`keep_for`: the :class:`~normandy_lab.session.Session` marks each
state it shows) are kept: any other state is worked out at every call, as before.  A script or a test that
changes the map's or the rules' tables in place between two calls on one state (a counterfactual test
bridging a river) gets what the tables say now.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from normandy_lab.engine.state import GameState

__all__ = ["Recent", "keep_for", "kept_for"]

T = TypeVar("T")

# The states marked by a session, by id, with a weak reference (a state's hash would walk every unit).
_MARKED: dict[int, weakref.ref[GameState]] = {}
_MARKED_LOCK = threading.Lock()


def keep_for(state: GameState) -> None:
    """Mark a state whose answers the engine keeps (:class:`Recent`) while it is among the last asked."""
    key = id(state)
    with _MARKED_LOCK:
        held = _MARKED.get(key)
        if held is not None and held() is state:
            return

        def forget(_: weakref.ref[GameState], key: int = key) -> None:
            # The state is gone (its id may now be another's): drop the mark if it is still this one's.
            with _MARKED_LOCK:
                if _MARKED.get(key) is mark:
                    del _MARKED[key]

        mark = weakref.ref(state, forget)
        _MARKED[key] = mark


def kept_for(state: GameState) -> bool:
    """Tell whether a state is marked by :func:`keep_for`."""
    held = _MARKED.get(id(state))
    return held is not None and held() is state


class Recent(Generic[T]):
    """The answers of a function of a state (and a few hashable arguments) for the last ``kept`` asked.

    Parameters
    ----------
    kept
        How many (state, arguments) answers to keep; the least recently asked about goes first.
    """

    def __init__(self, kept: int) -> None:
        self.kept = kept
        self._held: dict[tuple[int, Hashable], tuple[weakref.ref[GameState], Any, T]] = {}
        self._lock = threading.Lock()  # the Dask sweep's workers may run threads

    def get(self, state: GameState, work: Callable[[], T], key: Hashable = ()) -> T:
        """Return ``work()`` for ``state`` and ``key``: kept from a call for the same state object, or new.

        ``work`` must be a function of ``state`` (under its rule system) and ``key`` alone.  A state not
        marked by :func:`keep_for` is always worked out.
        """
        if not kept_for(state):
            return work()
        rules = state.rules
        slot = (id(state), key)
        with self._lock:
            held = self._held.get(slot)
            if held is not None and held[0]() is state and held[1] is rules:
                self._held[slot] = self._held.pop(slot)  # now the most recent
                return held[2]
        answer = work()
        with self._lock:
            self._held.pop(slot, None)
            self._held[slot] = (weakref.ref(state), rules, answer)
            while len(self._held) > self.kept:
                del self._held[next(iter(self._held))]  # dicts keep insertion order: the oldest first
        return answer

    def like(self, state: GameState, same: Callable[[GameState], bool]) -> T | None:
        """Return the latest answer kept for another live state that ``same`` accepts, or None.

        Only answers of a state under ``state``'s rule system, and none for a state not marked by
        :func:`keep_for`.  For a function of a state that reads only part of it: ``same(kept)`` must hold
        only when ``kept`` and ``state`` agree on every part the answers read.
        """
        if not kept_for(state):
            return None
        rules = state.rules
        with self._lock:
            held: list[tuple[weakref.ref[GameState], Any, T]] = list(self._held.values())
        for ref, kept_rules, answer in reversed(held):  # the most recent first
            kept = ref()
            if kept is not None and kept is not state and kept_rules is rules and same(kept):
                found: T = answer
                return found
        return None

    def clear(self) -> None:
        """Forget every answer kept."""
        with self._lock:
            self._held.clear()

    def __len__(self) -> int:
        return len(self._held)
