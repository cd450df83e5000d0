"""How The Battle for Normandy is shown beyond its rules: the explorer's sectors, its side-by-side marker.

The campaign map runs from Cherbourg to Falaise, so it offers every named sector of the front.
"""

from __future__ import annotations

from normandy_lab.rules.game import Look
from normandy_lab.rules.sectors import NORMANDY_SECTORS

LOOK = Look(sectors=dict(NORMANDY_SECTORS), marker="circle")
