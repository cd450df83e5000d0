"""What every part of the explorer shares: its modes and views, and how a map is first framed."""

from __future__ import annotations

from typing import Any

from normandy_lab.engine.state import GameState
from normandy_lab.grids import grid

ENEMY = {"allied": "german", "german": "allied"}
VIEWS = ("phasing side", "allied", "german", "both sides")
MODES = (
    "inspect",
    "move unit",
    "interdict hex",
    "destroy bridge",
    "repair bridge",
    "add unit",
    "remove unit",
)
FRONT_VIEW = "the scenario's front"


def _default_extent(state: GameState) -> tuple[float, float, float, float]:
    g = grid(state.system)
    points = [g.center(u.hex) for u in state.units]
    lons = sorted(p[0] for p in points)
    lats = sorted(p[1] for p in points)
    # The middle 96 % of the units, with a margin: one far-off unit does not shrink the map.
    lo, hi = int(len(points) * 0.02), max(int(len(points) * 0.98) - 1, 0)
    return (lons[lo] - 0.08, lats[lo] - 0.05, lons[hi] + 0.08, lats[hi] + 0.05)


def _edit_ops(explorer: Any) -> list[dict[str, Any]]:
    return explorer.study.edits if explorer.study is not None else explorer._edits
