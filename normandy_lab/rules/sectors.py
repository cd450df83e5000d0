"""Named views of the Normandy front that the games' looks choose from (the explorer's "Go to:").

Each is a view extent (west, south, east, north in degrees, WGS84) drawn round the places that name it:
framing choices, not facts about 1944.  A game lists those it offers in its look
(``rules/<game>/look.py``: :class:`~normandy_lab.rules.game.Look`); a game on a map elsewhere names its own.
"""

from __future__ import annotations

from normandy_lab.errors import UnknownNameError
from normandy_lab.rules.game import Extent

NORMANDY_SECTORS: dict[str, Extent] = {
    "Cotentin and Cherbourg": (-1.95, 49.22, -1.10, 49.73),
    "Utah and Sainte-Mère-Église": (-1.45, 49.30, -1.10, 49.48),
    "Carentan to Saint-Lô": (-1.40, 49.03, -0.95, 49.34),
    "Omaha and the Aure": (-1.10, 49.18, -0.70, 49.40),
    "Caumont to Villers-Bocage": (-0.95, 49.00, -0.55, 49.25),
    "Bayeux and the British beaches": (-0.80, 49.18, -0.25, 49.38),
    "Caen and the Orne": (-0.60, 49.05, -0.15, 49.32),
    "Falaise and the pocket": (-0.45, 48.70, 0.15, 49.02),
}


def chosen(*names: str) -> dict[str, Extent]:
    """Return the named sectors ``names``, in that order (a look's choice).

    Raises
    ------
    UnknownNameError
        (a ``KeyError``) For a name not in :data:`NORMANDY_SECTORS`, naming those that are.
    """
    unknown = [n for n in names if n not in NORMANDY_SECTORS]
    if unknown:
        known = ", ".join(NORMANDY_SECTORS)
        raise UnknownNameError(f"no sector {', '.join(unknown)}; the sectors are {known}")
    return {name: NORMANDY_SECTORS[name] for name in names}
