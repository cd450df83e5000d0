"""A step of a game's sequence of play: the one data type of the rules the engine steps through.

It lives in the engine, which steps states through phases (:mod:`normandy_lab.engine.sequence`); a game's
rules list their phases with it (``RuleSet.sequence``), and :mod:`normandy_lab.rules` re-exports it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Phase:
    """One step of the sequence of play.

    Attributes
    ----------
    name
        As the rulebook names it ("Allied Movement").
    turn
        The turn it belongs to ("Night", "AM", "PM", "End of Day", or a
        special 6 June turn).
    side
        The phasing side ("allied", "german") or None for a shared phase.
    kind
        What the engine does in it: ``weather``, ``air``, ``movement``,
        ``mech_movement``, ``combat``, ``engineering``, ``reinforcement``,
        ``naval``, ``bookkeeping``, ``armed_recon``, ``end_of_turn``,
        ``end_of_day``.
    rules
        Rule numbers.
    """

    name: str
    turn: str
    side: str | None
    kind: str
    rules: str = ""


__all__ = ["Phase"]
