"""How The Greatest Day: Utah Beach is shown beyond its rules: the explorer's sectors, its marker.

Its map is the Utah beachhead, from the beach to Carentan: of the front's named sectors it offers the one
it shows.
"""

from __future__ import annotations

from normandy_lab.rules.game import Look
from normandy_lab.rules.sectors import chosen

LOOK = Look(sectors=chosen("Utah and Sainte-Mère-Église"), marker="diamond")
