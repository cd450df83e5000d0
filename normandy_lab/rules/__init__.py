"""Rule systems: one per game, found by key in a registry.  The engine core asks a state for its rules.

``get("bfn")`` returns The Battle for Normandy's rules; a rule system made in code (a variant of one, built
with :func:`dataclasses.replace`, or a new game) is registered with :func:`register`, or given to a state
with :meth:`GameState.with_rules <normandy_lab.engine.state.GameState.with_rules>`; everything that takes a
system key also takes a rule system object.
"""

from __future__ import annotations

from collections.abc import Callable

from normandy_lab.errors import RefusedError
from normandy_lab.rules.base import CalendarEntry, OffMapBox, Phase, RuleSet, RuleSystem

# key -> the rule system, or a function that builds it when first asked (a game's module loads then).
_REGISTRY: dict[str, RuleSet | Callable[[], RuleSet]] = {}


def register(rules: RuleSet | Callable[[], RuleSet], key: str | None = None) -> None:
    """Register a rule system under ``key`` (by default its own ``system``), replacing any before it.

    ``rules`` may be a function that returns the rule system, so that a game's
    module is imported only when a state of that game is first made.
    """
    if key is None:
        if not isinstance(rules, RuleSet):
            raise RefusedError("give the key of a function that builds a rule system: register(f, key=...)")
        key = rules.system
    _REGISTRY[key] = rules


def get(system: str | RuleSet) -> RuleSet:
    """Return the rule system of ``system``: a key (``"bfn"``), or a rule system object, returned as it is.

    Raises
    ------
    NotImplementedError
        For a key no rule system is registered under; the message lists those that are.
    """
    if isinstance(system, RuleSet):
        return system
    entry = _REGISTRY.get(system)
    if entry is None:
        raise NotImplementedError(
            f"the {system!r} rules are not implemented yet; the registered rule systems are "
            f"{', '.join(available()) or 'none'}"
        )
    if not isinstance(entry, RuleSet):
        entry = _REGISTRY[system] = entry()
    return entry


def available() -> list[str]:
    """Return the keys of the registered rule systems."""
    return sorted(_REGISTRY)


def ruleset(system: str | RuleSet) -> RuleSet:
    """Return the rule system of ``system`` (the same as :func:`get`, under its older name)."""
    return get(system)


def scenario_kind(key: str) -> str:
    """Return the file kind of a game's scenarios: ``"scenario"`` (the first game's) or ``"scenario_<key>"``.

    The JSON Schemas in ``schemas/`` are named after it (``schemas/scenario_kg.schema.json``).
    """
    return "scenario" if key == "bfn" else f"scenario_{key}"


def _bfn() -> RuleSet:
    from normandy_lab.rules.bfn import BFN_RULES

    return BFN_RULES


register(_bfn, key="bfn")


def _cobra() -> RuleSet:
    from normandy_lab.rules.cobra import COBRA_RULES

    return COBRA_RULES


register(_cobra, key="cobra")


def _kg() -> RuleSet:
    from normandy_lab.rules.kg import KG_RULES

    return KG_RULES


register(_kg, key="kg")


def _gts() -> RuleSet:
    from normandy_lab.rules.gts import GTS_RULES

    return GTS_RULES


register(_gts, key="gts")


def __getattr__(name: str):  # BFN_RULES, as before, without importing the game before it is asked for
    if name == "BFN_RULES":
        return get("bfn")
    raise AttributeError(name)


__all__ = [
    "CalendarEntry",
    "OffMapBox",
    "Phase",
    "RuleSet",
    "RuleSystem",
    "available",
    "get",
    "register",
    "ruleset",
    "scenario_kind",
]
