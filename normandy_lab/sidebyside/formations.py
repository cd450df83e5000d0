"""One name for a formation across the four games: "352. Infanterie-Division" (BfN), "352 ID" (KG, Cobra).

Each game writes its formations its own way.  :func:`formation_key` reduces a unit's formation to its side's
nationality, its number (or name, for the Guards), an SS mark and its kind (infantry, armoured or airborne
division; armoured, infantry or commando brigade; regiment), which is what the same formation has in common
across the games: ``"DE 352 div"``, ``"DE 12 SS div"``, ``"US 82 airborne div"``, ``"UK 1 commando bde"``.
"""

from __future__ import annotations

import re
from typing import Any

_NUMBER = re.compile(r"\d+")


def formation_key(unit: Any) -> str:
    """Return the cross-game key of a unit's formation ("" for a unit of none)."""
    text = (unit.formation or "").strip()
    if not text:
        return ""
    words = text.replace(".", " ").replace("-", " ")
    lower = f" {words.lower()} "
    number = _NUMBER.search(words)
    name = number.group() if number else _named(lower)
    if unit.side == "german":
        return f"DE {name}{' SS' if ' ss ' in lower else ''} {_german_kind(lower)}"
    return f"{_nation(unit, lower)} {name} {_allied_kind(lower)}"


def _named(lower: str) -> str:
    """Name a formation without a number: the Guards, Panzer Lehr."""
    for word in ("guards", "gds", "lehr"):
        if f" {word} " in lower:
            return "guards" if word == "gds" else word
    return lower.strip()


def _german_kind(lower: str) -> str:
    if "regiment" in lower or " rgt " in lower:
        return "rgt"
    if "brigade" in lower or " bde " in lower:
        return "bde"
    if any(w in lower for w in ("fallschirm", " fsjg ", " fj ")):
        return "para div"
    if any(w in lower for w in ("panzergrenadier", " pzgd ", " pzgr ")):
        return "pzgr div"
    if any(w in lower for w in ("panzer", " pz ")):
        return "pz div"
    return "div"


def _nation(unit: Any, lower: str) -> str:
    if unit.nationality in ("US", "FR"):
        return unit.nationality
    if "canadian" in lower or " cid " in lower or " cdn " in lower:
        return "CA"
    return "PL" if "polish" in lower else "UK"


def _allied_kind(lower: str) -> str:
    if "brigade" in lower or " bde " in lower:
        if "special service" in lower or " ss bde " in lower or "commando" in lower:
            return "commando bde"
        if any(w in lower for w in ("armoured", "armored", " armd ", " tank ")):
            return "armd bde"
        return "inf bde"
    if "airborne" in lower or " ab " in lower:
        return "airborne div"
    if any(w in lower for w in ("armoured", "armored", " ad ")):
        return "armd div"
    return "inf div"
