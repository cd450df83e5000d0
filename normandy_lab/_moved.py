"""Old module paths that moved with issue 15's rooms (``geo/``, ``grids/``, ``terrain/``).

Each still imports, for one release, as the module it moved to (the same object, private names included).
"""

from __future__ import annotations

import importlib
import sys

#: old path -> new path
MOVED = {
    "normandy_lab.gazetteer": "normandy_lab.geo.gazetteer",
    "normandy_lab.geography": "normandy_lab.geo.geography",
    "normandy_lab.hexgrid": "normandy_lab.grids.hexgrid",
    "normandy_lab.numbering": "normandy_lab.grids.numbering",
    "normandy_lab.georef": "normandy_lab.grids.georef",
    "normandy_lab.coastfit": "normandy_lab.grids.coastfit",
    "normandy_lab.sheetfit": "normandy_lab.grids.sheetfit",
    "normandy_lab.terrain_vocab": "normandy_lab.terrain.vocab",
    "normandy_lab.grid": "normandy_lab.grids",
}


def alias(old: str) -> None:
    """Make ``old`` the module it moved to (called by the one-line module left at the old path)."""
    sys.modules[old] = importlib.import_module(MOVED[old])
