"""Cobra's stacking (6.0-6.1, 17.3.7): at most one division's worth of units of a side in a hex.

A division-sized unit is one division; so are any three regiments or brigades, or any two British or
Canadian brigades (6.0c; a German Kampfgruppe stacks as a regiment, 17.3.7).  The three brigades of the
British 6th Airborne Division may stack together (6.0c exception).  Free (6.1): one HQ and two
battalions; one British or Canadian independent armoured brigade with a British or Canadian infantry
division; one US armoured cavalry regiment (or the 2nd/5th Rangers) with a US division.

An HQ or battalion beyond the free ones counts as a third of a division, as a regiment does (INFERRED:
the text does not say).  Counts are kept in sixths so that thirds and halves add exactly.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from normandy_lab.rules.cobra.data import ARMIES

WHOLE = 6  # sixths of a division
# 2.3.4: "British" takes in the Canadian and Polish units, "US" the French ones.
BRITISH = tuple(n for n, army in ARMIES.items() if army == "UK")
US = tuple(n for n, army in ARMIES.items() if army == "US")


def _share(unit: Any) -> int:
    """Return a unit's share of a division, in sixths (6.0c)."""
    if unit.size == "division":
        return WHOLE
    if unit.nationality in BRITISH and unit.size == "brigade":
        return WHOLE // 2  # two British or Canadian brigades make a division
    return WHOLE // 3  # three regiments or brigades (or Kampfgruppen, 17.3.7) make a division


def _free(units: list[Any]) -> set[str]:
    """Return the ids of the units of one hex that stack for free (6.1)."""
    free: set[str] = set()
    hqs = [u for u in units if u.hq is not None]
    battalions = [u for u in units if u.hq is None and u.size == "battalion"]
    free.update(u.id for u in hqs[:1])
    free.update(u.id for u in battalions[:2])
    british_infantry = any(
        u.size == "division" and u.nationality in BRITISH and u.type == "infantry" for u in units
    )
    if british_infantry:
        independent = [
            u
            for u in units
            if u.nationality in BRITISH and u.size == "brigade" and u.type == "armor" and not u.formation
        ]
        free.update(u.id for u in independent[:1])
    if any(u.size == "division" and u.nationality in US for u in units):
        cavalry = [u for u in units if u.nationality in US and u.type == "recon" and u.size == "regiment"]
        free.update(u.id for u in cavalry[:1])
    return free


def division_load(units: Iterable[Any]) -> int:
    """Return how much of a division the units of one side in one hex come to, in sixths (6.0-6.1)."""
    units = sorted(units, key=lambda u: u.id)
    free = _free(units)
    counted = [u for u in units if u.id not in free]
    airborne = [u for u in counted if u.formation == "6 AB" and u.size == "brigade"]
    load = sum(_share(u) for u in counted if u not in airborne)
    # The 6th Airborne's three brigades may stack together (6.0c exception): all three are one division.
    load += min(sum(_share(u) for u in airborne), WHOLE)
    return load


def stacking_problem(units: Iterable[Any]) -> str | None:
    """Say how the units of one side in one hex break 6.0, or None."""
    units = list(units)
    load = division_load(units)
    if load > WHOLE:
        names = ", ".join(u.id for u in sorted(units, key=lambda u: u.id))
        return f"{names} come to {load / WHOLE:.2g} divisions; the limit is one (6.0b-c, 6.1)"
    return None
