"""normandy_lab: the 1944 Normandy campaign on the hex grids of four wargames.

The public API is re-exported here; see ``docs/architecture.md``.  Each name is imported when first used
(PEP 562), so ``import normandy_lab`` is cheap: the engine, its compiled searches (numba), the terrain and
the views load only when a program asks for them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from normandy_lab.grids import HexGrid, grid

# The function ``grid`` has the name of the module the grids lived in before they became the ``grids``
# room; that old path (``normandy_lab.grid``, an alias of ``normandy_lab.grids`` for one release) is
# loaded now, and the function bound again after it, so that importing it later cannot make
# ``normandy_lab.grid`` a module.
importlib.import_module("normandy_lab.grid")
grid = importlib.import_module("normandy_lab.grids").grid  # noqa: F811 - bound again on purpose

__version__ = "0.1.0"
# The modules the package offers as attributes.
_MODULES = ("gazetteer", "geography", "hexgrid", "interdiction", "rules")

# Public name -> the module that defines it (a module's own name for the modules themselves).
_LAZY: dict[str, str] = {
    "gazetteer": "normandy_lab.geo.gazetteer",
    "geography": "normandy_lab.geo.geography",
    "hexgrid": "normandy_lab.grids.hexgrid",
    "interdiction": "normandy_lab.interdiction",
    "rules": "normandy_lab.rules",
    "GameState": "normandy_lab.engine",
    "ScenarioError": "normandy_lab.engine",
    "Unit": "normandy_lab.engine",
    "ezoc": "normandy_lab.engine",
    "ezoc_coverage": "normandy_lab.engine",
    "load_scenario": "normandy_lab.engine",
    "scenarios": "normandy_lab.engine.scenario",
    "supply": "normandy_lab.engine",
    "next_phase": "normandy_lab.engine.sequence",
    "phase_effects": "normandy_lab.engine.sequence",
    "previous_phase": "normandy_lab.engine.sequence",
    "step_to": "normandy_lab.engine.sequence",
    "Session": "normandy_lab.session",
    "Study": "normandy_lab.engine.study",
    "StudyError": "normandy_lab.engine.study",
    "load_study": "normandy_lab.engine.study",
    "save_study": "normandy_lab.engine.study",
    "supply_summary": "normandy_lab.engine.whatif",
    "supply_graph": "normandy_lab.interdiction.graph",
    "sweep": "normandy_lab.sweeps",
    "side_by_side": "normandy_lab.sidebyside",
    "supply_table": "normandy_lab.engine.whatif",
    "UnknownPlaceError": "normandy_lab.geo.gazetteer",
    "lookup": "normandy_lab.geo.gazetteer",
    "ControlPoint": "normandy_lab.grids.georef",
    "Georeference": "normandy_lab.grids.georef",
    "SYSTEMS": "normandy_lab.grids.numbering",
    "HexIdError": "normandy_lab.grids.numbering",
    "scheme": "normandy_lab.grids.numbering",
    "TerrainConfig": "normandy_lab.terrain",
    "TerrainMap": "normandy_lab.terrain",
    "terrain_map": "normandy_lab.terrain",
}

if TYPE_CHECKING:  # what a type checker and an editor see: the same names, imported eagerly
    from normandy_lab import interdiction, rules
    from normandy_lab.engine import GameState, ScenarioError, Unit, ezoc, ezoc_coverage, load_scenario, supply
    from normandy_lab.engine.sequence import next_phase, phase_effects, previous_phase, step_to
    from normandy_lab.engine.study import Study, StudyError, load_study, save_study
    from normandy_lab.engine.whatif import supply_summary, supply_table
    from normandy_lab.geo import gazetteer, geography
    from normandy_lab.geo.gazetteer import UnknownPlaceError, lookup
    from normandy_lab.grids import hexgrid
    from normandy_lab.grids.georef import ControlPoint, Georeference
    from normandy_lab.grids.numbering import SYSTEMS, HexIdError, scheme
    from normandy_lab.interdiction.graph import supply_graph
    from normandy_lab.sidebyside import side_by_side
    from normandy_lab.sweeps import sweep
    from normandy_lab.terrain import TerrainConfig, TerrainMap, terrain_map


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'normandy_lab' has no attribute {name!r}")
    loaded = importlib.import_module(module)
    value = loaded if name in _MODULES else getattr(loaded, name)
    globals()[name] = value  # the next use is a plain lookup
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


def explore(source, **kwargs):  # -> normandy_lab.views.explorer.Explorer
    """Open the explorer on a scenario, a state or a study (see :func:`normandy_lab.views.explorer.explore`).

    Imported lazily so that the engine can be used without bokeh and ipywidgets loaded.
    """
    # In the function: import cost (bokeh and ipywidgets load with the first explorer).
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
    "Session",
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
    "interdiction",
    "load_scenario",
    "load_study",
    "lookup",
    "next_phase",
    "phase_effects",
    "previous_phase",
    "rules",
    "save_study",
    "scenarios",
    "scheme",
    "side_by_side",
    "step_to",
    "supply",
    "supply_graph",
    "supply_summary",
    "supply_table",
    "sweep",
    "terrain_map",
]
