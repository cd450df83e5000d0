"""How The Killing Ground is shown beyond its rules: the explorer's sectors, its side-by-side marker.

The OVERLORD North map with the W and E maps covers the whole front; a scenario on the North map alone
offers only the sectors it covers (``normandy_lab.views.sectors.sectors_on``).
"""

from __future__ import annotations

from normandy_lab.rules.game import Look
from normandy_lab.rules.sectors import NORMANDY_SECTORS

LOOK = Look(sectors=dict(NORMANDY_SECTORS), marker="triangle")
