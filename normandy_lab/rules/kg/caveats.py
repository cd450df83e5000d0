"""What a class must be told before it reads a KG supply picture: where it rests on a reconstruction.

The summary line (``nl.supply_summary``), the explorer's title block and its exports, and
``nl.side_by_side`` all read :func:`supply_caveat`, so the words are the same wherever a verdict is shown.
"""

from __future__ import annotations

from typing import Any

from normandy_lab.rules.kg.supply import standard_rules

# A turn after the Build-up (22.7, or the Transition: stage killing_ground) traced by the standard rules, as
# far as the text gives them (the reading standard_rules, by_stage by default: rules.kg.supply).
STANDARD_RULES = (
    "This turn is played by the standard Killing Ground rules (22.7.1, 26.21.2), traced as far as the text "
    "gives them (the reading standard_rules): 6 hexes to a supported HQ (11.4.1, named by 26.11.1), Allied "
    "corps HQs to their army's depot at 22.7.2's Depot Locations, German HQs to an off-map box, German "
    "city hexes only Cherbourg's (26.11.2 kept by 22.7.6a). The rest of the standard rules is not in the "
    "text: the support radius and its SP (10.5.1) are not charged, and a line counts one a hex (11.3 "
    "RECONSTRUCTED)."
)
# The same turn traced by the Build-up's rules instead (standard_rules: build_up).
BUILD_UP_ON_STANDARD = (
    "RECONSTRUCTION, not history: this turn is played by the standard Killing Ground rules (22.7.1, "
    "26.21.2); the reading standard_rules: build_up traces it by the Build-up's supply rules (26.9-26.11) "
    "instead and the engine does not vouch for this supply picture."
)
CITIES = (
    "German city hexes other than Caen's and Cherbourg's are RECONSTRUCTED from the 1944 built-up layer "
    "(rules.kg.cities): verdicts of 26.11.2 rest on them."
)


def _standard(state: Any) -> bool:
    return standard_rules(state)


def supply_caveat(state: Any) -> str:
    """Return what a KG state's supply verdicts rest on beyond the text ("" when nothing)."""
    if _standard(state):  # the reconstructed city hexes serve no more (26.11.2: "During the Build-up")
        return STANDARD_RULES
    if state.markers.get("stage") == "killing_ground":
        return f"{BUILD_UP_ON_STANDARD} {CITIES}"
    return CITIES


def rule_note(state: Any, why: str | None) -> str:
    """Return the words side by side adds to a KG verdict's rule: the reconstruction it rests on, if any."""
    if why == "map":
        return "derived map"
    if _standard(state):
        return "standard rules as far as the text gives them (reading standard_rules)"
    if state.markers.get("stage") == "killing_ground":
        return "reconstruction: 22.7's rules not in the text, traced by the Build-up's"
    return ""
