"""Every file kind and its JSON Schema (``schemas/*.schema.json``), for editors that complete and check.

The one module of the schemas that asks the registry: each game's scenario kind is its rules' scenario
schema (``RuleSet.scenario_schema``), so the list of kinds is read from :mod:`normandy_lab.rules` when it
is asked for, not when this module is imported.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from normandy_lab.paths import REPO_ROOT
from normandy_lab.savefile import write_text_atomically
from normandy_lab.schemas.grid_files import CoastHexesFile, ControlPointsFile
from normandy_lab.schemas.record import FactsFileSchema, LodgementFileSchema, TimelineSchema
from normandy_lab.schemas.study import StudySchema
from normandy_lab.schemas.validation import Model

SCHEMA_DIR = REPO_ROOT / "schemas"

# The file kinds no game owns, by name (each game's scenario kind is added from the registry).
SCHEMAS: dict[str, Model] = {
    "study": StudySchema,
    "lodgement": LodgementFileSchema,
    "facts": FactsFileSchema,
    "timeline": TimelineSchema,
    "control_points": ControlPointsFile,
    "coast_hexes": CoastHexesFile,
}


def _kinds() -> dict[str, Model]:
    """Return every file kind with its schema: each game's scenarios, then :data:`SCHEMAS`."""
    # In the function: the registry imports the games, whose schemas import this package (the plug-in
    # cycle); the import contract allows this one edge (.importlinter).
    from normandy_lab.rules import available, get, scenario_kind

    return {**{scenario_kind(key): get(key).scenario_schema() for key in available()}, **SCHEMAS}


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


__all__ = ["SCHEMAS", "SCHEMA_DIR", "json_schema", "write_json_schemas"]
