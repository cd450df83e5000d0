"""Every file kind and its JSON Schema (``schemas/*.schema.json``), for editors that complete and check.

The one module of the schemas that asks above them: each game's scenario kind is its format's scenario
schema (``ScenarioFormat.scenario_schema``), so the kinds are read from :mod:`normandy_lab.rules` when it
is asked for, not when this module is imported; and the grids' data files hold the maps the grids say
(:func:`grid_file_model`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from normandy_lab.paths import REPO_ROOT
from normandy_lab.savefile import write_text_atomically
from normandy_lab.schemas.grid_files import coast_hexes_file, control_points_file
from normandy_lab.schemas.record import FactsFileSchema, LodgementFileSchema, TimelineSchema
from normandy_lab.schemas.study import StudySchema
from normandy_lab.schemas.validation import Model

SCHEMA_DIR = REPO_ROOT / "schemas"


def grid_file_model(name: str) -> Model:
    """Return the model of a grids data file (``"control_points"``, ``"coast_hexes"``) over its maps.

    The maps a shared grid file may place are the grids' to say
    (:func:`normandy_lab.grids.georef.grid_file_maps`); asked when the model is, so the registry has
    registered its maps by then.
    """
    # In the function, and the one edge of this package to the grids (.importlinter): the key list of a
    # grid file is the registered maps', which live above the schemas.
    from normandy_lab.grids.georef import grid_file_maps

    build = {"control_points": control_points_file, "coast_hexes": coast_hexes_file}[name]
    return build(grid_file_maps())


# The file kinds no game owns, by name (each game's scenario kind is added from the registry); the grids'
# files are built over the registered maps when asked for (grid_file_model).
SCHEMAS: dict[str, Model | Callable[[], Model]] = {
    "study": StudySchema,
    "lodgement": LodgementFileSchema,
    "facts": FactsFileSchema,
    "timeline": TimelineSchema,
    "control_points": partial(grid_file_model, "control_points"),
    "coast_hexes": partial(grid_file_model, "coast_hexes"),
}


def _kinds() -> dict[str, Model]:
    """Return every file kind with its schema: each game's scenarios, then :data:`SCHEMAS`."""
    # In the function: the registry imports the games, whose schemas import this package (the plug-in
    # cycle); the import contract allows this one edge (.importlinter).
    from normandy_lab.rules import available, scenario_kind, scenario_schema

    # (a variant of a game keeps its kind: its files are checked by the one schema, accepting both keys)
    games = {scenario_kind(key): scenario_schema(key) for key in available()}
    return {**games, **{name: _model(entry) for name, entry in SCHEMAS.items()}}


def _model(entry: Model | Callable[[], Model]) -> Model:
    """Return a kind's model, built now if :data:`SCHEMAS` holds the function that builds it."""
    if isinstance(entry, TypeAdapter | type):
        return entry
    return entry()


def json_schema(name: str) -> dict[str, Any]:
    """Return the JSON Schema of a file kind (``scenario`` or a key of :data:`SCHEMAS`)."""
    model = _kinds()[name]
    if isinstance(model, TypeAdapter):
        schema = model.json_schema(mode="validation")
        schema["title"] = f"normandy_lab {name.replace('_', ' ')}"
    else:
        schema = model.model_json_schema(mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"normandy_lab/{name}.schema.json"
    return schema


def write_json_schemas(folder: Path = SCHEMA_DIR) -> list[Path]:
    """Write ``<kind>.schema.json`` for every file kind (run after changing a model)."""
    return [
        write_text_atomically(folder / f"{name}.schema.json", json.dumps(json_schema(name), indent=2) + "\n")
        for name in _kinds()
    ]


__all__ = ["SCHEMAS", "SCHEMA_DIR", "grid_file_model", "json_schema", "write_json_schemas"]
