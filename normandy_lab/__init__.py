"""normandy_lab: the 1944 Normandy campaign on the hex grids of four wargames.

The public API is re-exported here; see ``docs/architecture.md``.
"""

from __future__ import annotations

from normandy_lab import gazetteer, geography, hexgrid
from normandy_lab.engine import GameState, ScenarioError, Unit, ezoc, ezoc_coverage, load_scenario, supply
from normandy_lab.engine.sequence import next_phase, phase_effects, previous_phase
from normandy_lab.engine.study import Study, StudyError, load_study, save_study
from normandy_lab.engine.whatif import supply_summary, supply_table
from normandy_lab.gazetteer import UnknownPlaceError, lookup
from normandy_lab.georef import ControlPoint, Georeference
from normandy_lab.grid import HexGrid, grid
from normandy_lab.numbering import SYSTEMS, HexIdError, scheme
from normandy_lab.terrain import TerrainConfig, TerrainMap, terrain_map

__version__ = "0.1.0"


def explore(source, **kwargs):  # -> normandy_lab.views.explorer.Explorer
    """Open the explorer on a scenario, a state or a study (see :func:`normandy_lab.views.explorer.explore`).

    Imported lazily so that the engine can be used without bokeh and ipywidgets loaded.
    """
    from normandy_lab.views.explorer import explore as open_explorer

    return open_explorer(source, **kwargs)


__all__ = [
    "SYSTEMS",
    "ControlPoint",
    "GameState",
    "Georeference",
    "HexGrid",
    "HexIdError",
    "ScenarioError",
    "Study",
    "StudyError",
    "TerrainConfig",
    "TerrainMap",
    "Unit",
    "UnknownPlaceError",
    "__version__",
    "explore",
    "ezoc",
    "ezoc_coverage",
    "gazetteer",
    "geography",
    "grid",
    "hexgrid",
    "load_scenario",
    "load_study",
    "lookup",
    "next_phase",
    "phase_effects",
    "previous_phase",
    "save_study",
    "scheme",
    "supply",
    "supply_summary",
    "supply_table",
    "terrain_map",
]
