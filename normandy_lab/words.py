"""Words and patterns that the file formats (:mod:`normandy_lab.schemas`) and the engine share.

A leaf: it imports nothing of the package, so that the schemas need not import the engine (or the grids)
for a pattern or a list of words, and the import contract's layers hold (``.importlinter``).
"""

from __future__ import annotations

import re

# The characters a unit id may use: letters, digits and . _ : + -, starting with a letter or digit, at
# most 64. Ids travel into tables, file names and web pages; a restricted set keeps markup and control
# characters out wherever an id is shown.
UNIT_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:+-]{0,63}")

# Why a scenario expects a unit out of General Supply (see normandy_lab.engine.state.ExpectedOut).
EXPECTED_WHY = ("history", "rules", "setup", "map")

# The kinds of coastal hex in maps/grids/coast_hexes.yaml: the keys of
# normandy_lab.grids.coastfit.SIDE_BANDS, which says where each lies (a test holds the two together).
COAST_SIDES = ("sea",)

__all__ = ["COAST_SIDES", "EXPECTED_WHY", "UNIT_ID_PATTERN"]
