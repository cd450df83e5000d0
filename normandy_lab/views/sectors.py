"""Named sectors of the Normandy front: the views a teacher jumps to.

Each sector is a view extent (west, south, east, north in degrees, WGS84)
drawn round the places that name it; they are framing choices, not facts
about 1944, and every rule system's map uses the same ones.
"""

from __future__ import annotations

#: Sector name -> (west, south, east, north) in degrees.
SECTORS: dict[str, tuple[float, float, float, float]] = {
    "Cotentin and Cherbourg": (-1.95, 49.22, -1.10, 49.73),
    "Utah and Sainte-Mère-Église": (-1.45, 49.30, -1.10, 49.48),
    "Carentan to Saint-Lô": (-1.40, 49.03, -0.95, 49.34),
    "Omaha and the Aure": (-1.10, 49.18, -0.70, 49.40),
    "Caumont to Villers-Bocage": (-0.95, 49.00, -0.55, 49.25),
    "Bayeux and the British beaches": (-0.80, 49.18, -0.25, 49.38),
    "Caen and the Orne": (-0.60, 49.05, -0.15, 49.32),
    "Falaise and the pocket": (-0.45, 48.70, 0.15, 49.02),
}
