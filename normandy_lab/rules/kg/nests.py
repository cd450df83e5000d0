"""The Weapons Nests of a KG set-up at their historical positions (OVERLORD 26.2.4, 22.6.8).

22.6.8 gives each WN's state (eliminated, removed, Regroup, reduced, unaffected) but not its hex: that is
printed on the map and the June 6 set-up card, not in the text.  ``maps/history/weapons_nests.yaml`` holds
where each work really was; :func:`standing_nests` places the WNs a state still has on the KG hexes those
points fall in, as a RECONSTRUCTION the map draws and labels as such (they are not units: their steps and
ZOC bars are on the counters, so they block no line).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from normandy_lab.engine.state import GameState

NESTS_FILE = Path(__file__).resolve().parents[3] / "maps" / "history" / "weapons_nests.yaml"
GONE = ("eliminated_reverse", "removed")  # 22.6.8's states of a WN no longer on the map
# Every state a WN of a set-up may be in: as printed (22.7's "set up"), 22.6.8's unaffected, reduced and
# Regroup, and the two of GONE.
NEST_STATES = ("set_up", "unaffected", "reduced", "regroup", *GONE)


@lru_cache(maxsize=1)
def nest_positions() -> dict[str, dict[str, Any]]:
    """Return each WN counter's historical position by its printed name (``weapons_nests.yaml``)."""
    entries = yaml.safe_load(NESTS_FILE.read_text(encoding="utf-8"))[
        "weapons_nests"
    ]  # the project's own file
    return {str(e["name"]): e for e in entries}


def standing_nests(state: GameState) -> list[tuple[str, str, str]]:
    """Return the WNs of the state's set-up still on the map: (name, hex, what the hex rests on) each.

    A hex the set-up prints (22.7 does for the Cherbourg WNs) is used as printed; otherwise the KG hex of
    the work's historical point, said to be one.  A WN 22.6.8 eliminated or removed is gone; one with no
    printed hex and no sourced position is left out (the data file says why).
    """
    positions = nest_positions()
    found: list[tuple[str, str, str]] = []  # several counters share a name ("Festung WN" in 22.7)
    for entry in state.markers["weapons_nests"]:
        fields = dict(entry)
        name, condition = fields.get("name", ""), fields.get("state", "")
        if condition in GONE:
            continue
        if fields.get("hex"):
            found.append((name, str(fields["hex"]), "printed in the set-up"))
        elif (positions.get(name) or {}).get("kg_hex"):
            found.append((name, positions[name]["kg_hex"], "historical position (RECONSTRUCTED)"))
    return found
