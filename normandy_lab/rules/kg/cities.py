"""The Killing Ground's German supply sources on the map, each with where it comes from (26.11.2, 26.10.7).

26.11.2 gives the Germans three kinds of source in the Build-up: a supported corps HQ (for mechanized units
and units with a corps designation), a German city hex within 6 hexes whose road line of any length leaves
the south or east map edge for a German off-map (OMM) box, and any Cherbourg city hex while N1410 is German.
The corps HQs are units (the scenario places them); the edges and boxes are ``data.OMM_ENTRIES`` and
``data.BOXES`` (their entry roads RECONSTRUCTED); this module says which hexes are city hexes and why.

The text prints one city hex, N1410 (26.10.7, 26.11.2), and names two cities with city hexes, Cherbourg
("Any Cherbourg city hex", 26.11.2) and Caen ("Caen city hexes", 26.23.2).  Every other city hex of the
printed map is not in the text, so the derived KG map RECONSTRUCTS them by one stated criterion
(:data:`~normandy_lab.rules.kg.map.KG_CITY_CRITERION`, applied in the terrain derivation): a 1944 town or
city of the built-up layer is a City hex, a village is not.  A verdict that rests on a RECONSTRUCTED city hex
says so in its reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import pandas as pd

from normandy_lab.gamemap import game_map
from normandy_lab.rules.kg.map import KG_CITY_CRITERION

__all__ = ["KG_CITY_CRITERION", "CityHex", "city_hexes", "city_table", "provenance"]

PRINTED = {"N1410": "printed in the text: Cherbourg's key hex (26.10.7, 26.11.2)"}
NAMED = {
    "Cherbourg": "the text names Cherbourg's city hexes (26.11.2: 'Any Cherbourg city hex'); which hexes "
    "they are is derived from the 1944 built-up outline",
    "Caen": "the text names Caen's city hexes (26.23.2: 'Caen city hexes'); which hexes they are is "
    "derived from the 1944 built-up outline",
}


@dataclass(frozen=True)
class CityHex:
    """One KG city hex: its hex, its town, its basis (``printed``, ``named`` or ``RECONSTRUCTED``) and why."""

    hex: str
    town: str
    basis: str
    reason: str

    @property
    def reconstructed(self) -> bool:
        """Whether the hex is a city hex only by the derived map's criterion."""
        return self.basis == "RECONSTRUCTED"


@lru_cache(maxsize=2)
def city_hexes(system: str = "kg") -> tuple[CityHex, ...]:
    """Return every City hex of the derived KG map, with its provenance, in hex order."""
    hexes = game_map(system).terrain.hexes
    cities = hexes[hexes["settlement"] == "City"]
    out = []
    for hex_id, town in zip(cities.index, cities["builtup_name"], strict=True):
        town = str(town or "")
        if hex_id in PRINTED:
            out.append(CityHex(hex_id, town, "printed", PRINTED[hex_id]))
        elif town in NAMED:
            out.append(CityHex(hex_id, town, "named", NAMED[town]))
        else:
            out.append(
                CityHex(
                    hex_id,
                    town,
                    "RECONSTRUCTED",
                    f"{town} is a town of the 1944 built-up layer; the printed map's city hexes are not in "
                    f"the text, so it is a city hex by the criterion: {KG_CITY_CRITERION}",
                )
            )
    return tuple(out)


def city_table(system: str = "kg") -> pd.DataFrame:
    """Return :func:`city_hexes` as a table indexed by hex (town, basis, reason)."""
    rows = city_hexes(system)
    return pd.DataFrame(
        {
            "town": [c.town for c in rows],
            "basis": [c.basis for c in rows],
            "reason": [c.reason for c in rows],
        },
        index=pd.Index([c.hex for c in rows], name="hex"),
    )


def provenance(hex_id: str, system: str = "kg") -> CityHex | None:
    """Return a city hex's provenance (None when the hex is no city hex)."""
    return next((c for c in city_hexes(system) if c.hex == hex_id), None)
