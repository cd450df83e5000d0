"""How Cobra is shown beyond its rules: the explorer's sectors, its side-by-side marker.

Its two maps run from the Cotentin to Falaise (the breakout and the pocket), so it offers every named sector.
"""

from __future__ import annotations

from normandy_lab.rules.game import Look
from normandy_lab.rules.sectors import NORMANDY_SECTORS

LOOK = Look(sectors=dict(NORMANDY_SECTORS), marker="square")
