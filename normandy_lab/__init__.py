"""normandy_lab: the 1944 Normandy campaign on the hex grids of four wargames.

The public API is re-exported here; see ``docs/architecture.md``.
"""

from __future__ import annotations

from normandy_lab import gazetteer, geography, hexgrid
from normandy_lab.gazetteer import UnknownPlaceError, lookup
from normandy_lab.georef import ControlPoint, Georeference
from normandy_lab.grid import HexGrid, grid
from normandy_lab.numbering import SYSTEMS, HexIdError, scheme
from normandy_lab.terrain import TerrainConfig, TerrainMap, terrain_map

__version__ = "0.1.0"

__all__ = [
    "SYSTEMS",
    "ControlPoint",
    "Georeference",
    "HexGrid",
    "HexIdError",
    "TerrainConfig",
    "TerrainMap",
    "UnknownPlaceError",
    "__version__",
    "gazetteer",
    "geography",
    "grid",
    "hexgrid",
    "lookup",
    "scheme",
    "terrain_map",
]
