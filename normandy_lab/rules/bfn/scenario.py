"""The Battle for Normandy's section of a scenario file, and what a BfN state keeps beside its units.

A BfN state's markers (``GameState.markers``) are the Allied beachheads (7.4, 18.8.2), the German supply
cities (7.4), the Allied Combat Supply Points (7.6), the pathfinder hexes (17.1), the beachheads whose
Mulberry is complete (19.4) and the air and AA points per map (11.1).  The file's schema has checked their
types (:mod:`normandy_lab.schemas`); this reads them and checks what a type cannot say.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from normandy_lab.rules.api import Checker, canonical_hex, hex_list

#: The markers of a BfN state and their defaults (a scenario gives its own).
MARKERS: dict[str, Any] = {
    "beachheads": (),
    "air_points": {},
    "aa_points": {},
    "german_supply_cities": frozenset(),
    "csp": 0,
    "pathfinders": frozenset(),
    "mulberries": (),
}


@dataclass(frozen=True)
class Beachhead:
    """An Allied beachhead (18.8.2): a supply source, a corps HQ until the corps HQs land (7.2)."""

    name: str
    nationality: str
    hex: str


def scenario_markers(rules: Any, data: Any, path: str, g: Any) -> dict[str, Any]:
    """Read the BfN section of a scenario: beachheads, air, pathfinders, Mulberries, supply cities, CSPs."""
    check = Checker(path)
    beachheads = tuple(
        Beachhead(
            name=entry["name"],
            nationality=entry["nationality"],
            hex=canonical_hex(check, entry, f"beachheads[{n}].hex", entry["hex"], g),
        )
        for n, entry in enumerate(data.get("beachheads") or [])
    )
    mulberries = tuple(data.get("mulberries") or [])
    names = [b.name for b in beachheads]
    if any(m not in names for m in mulberries):
        raise check.fail(
            data,
            "mulberries",
            f"{list(mulberries)!r} is not a list of the scenario's beachheads",
            f"name the beachheads whose Mulberry is complete (19.4), from {', '.join(names) or 'none'}",
        )
    air = data.get("air") or {}
    points = {}
    for key in ("allied", "german_aa"):
        part = air.get(key) or {}
        for sheet in part:
            if sheet not in g.scheme.sheets:
                raise check.fail(
                    air,
                    f"air.{key}",
                    f"unknown map {sheet!r}",
                    f"maps are {', '.join(sorted(g.scheme.sheets))}",
                )
        points[key] = dict(part)
    for listed in ("pathfinders", "german_supply_cities", "mulberries"):
        values = [str(v).upper() if listed == "pathfinders" else str(v) for v in data.get(listed) or []]
        twice = sorted({v for v in values if values.count(v) > 1})
        if twice:  # a slip: a second entry adds nothing, and may hide the one meant
            raise check.fail(data, listed, f"{', '.join(twice)} given twice", "give each once")
    if "german_supply_cities" in data and data["german_supply_cities"] is None:
        # An empty line is not "none" (that is []) nor the rules' list (that is no line): say which.
        default = ", ".join(sorted(rules.supply["german_supply_cities"]))
        raise check.fail(
            data,
            "german_supply_cities",
            "is given with no value",
            f"list the German supply cities (7.4), write [] for none, or remove the line for the rules' "
            f"list ({default})",
        )
    return {
        "beachheads": beachheads,
        "air_points": points["allied"],
        "aa_points": points["german_aa"],
        "german_supply_cities": frozenset(
            data.get("german_supply_cities", rules.supply["german_supply_cities"]) or []
        ),
        "csp": data.get("csp", 0),
        "pathfinders": frozenset(hex_list(check, data, "pathfinders", g)),
        "mulberries": mulberries,
    }
