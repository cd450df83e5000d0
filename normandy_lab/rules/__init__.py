"""Rule systems: one RuleSet per game.  The engine core (normandy_lab.engine) is rules-agnostic."""

from __future__ import annotations

from normandy_lab.rules.base import CalendarEntry, Phase, RuleSet
from normandy_lab.rules.bfn import BFN_RULES


def ruleset(system: str) -> RuleSet:
    """Return the RuleSet of ``system``.

    Raises
    ------
    NotImplementedError
        For a system whose rules are not implemented yet.
    """
    if system == "bfn":
        return BFN_RULES
    raise NotImplementedError(
        f"the {system!r} rules are not implemented yet; the engine supports 'bfn' (The Battle for Normandy)"
    )


__all__ = ["BFN_RULES", "CalendarEntry", "Phase", "RuleSet", "ruleset"]
