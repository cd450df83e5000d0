"""What a class must be told before it reads a KG supply picture: where it rests on a reconstruction.

The summary line (``nl.supply_summary``), the explorer's title block and its exports, and
``nl.side_by_side`` all read :func:`supply_caveat`, so the words are the same wherever a verdict is shown.
"""

from __future__ import annotations

from typing import Any

STANDARD_RULES = (
    "RECONSTRUCTION, not history: this turn is played by the standard Killing Ground rules (22.7.1, "
    "26.21.2), which are not in the text; the engine traces it by the Build-up's supply rules (26.9-26.11) "
    "instead and does not vouch for this supply picture."
)
CITIES = (
    "German city hexes other than Caen's and Cherbourg's are RECONSTRUCTED from the 1944 built-up layer "
    "(rules.kg.cities): verdicts of 26.11.2 rest on them."
)


def supply_caveat(state: Any) -> str:
    """Return what a KG state's supply verdicts rest on beyond the text ("" when nothing)."""
    if state.markers.get("stage") == "killing_ground":
        return f"{STANDARD_RULES} {CITIES}"
    return CITIES


def rule_note(state: Any, why: str | None) -> str:
    """Return the words side by side adds to a KG verdict's rule: the reconstruction it rests on, if any."""
    if state.markers.get("stage") == "killing_ground":
        return "reconstruction: 22.7's rules not in the text"
    if why == "map":
        return "derived map"
    return ""
