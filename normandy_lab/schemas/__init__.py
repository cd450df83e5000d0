"""Typed schemas of the files users write and read (pydantic v2), one module per file kind.

Scenarios (:mod:`~normandy_lab.schemas.scenario`), studies and their edits
(:mod:`~normandy_lab.schemas.study`), the historical record (:mod:`~normandy_lab.schemas.record`) and the
grids' data (:mod:`~normandy_lab.schemas.grid_files`), over the field types they share
(:mod:`~normandy_lab.schemas.fields`).  Each file kind has one model: the types of its fields, the values
a category may take (sides, nationalities, statuses, event categories), and no field it does not know.
A scenario's model is a core every game shares (:class:`ScenarioSchema`) narrowed by its rule system to
its own turns, weathers, unit types and sizes and options, with its own section
(``ScenarioFormat.scenario_schema``).  The loaders validate a file against its model first, and an error is
reported at the file's line with the field, what is wrong and the values allowed
(:func:`~normandy_lab.schemas.validation.validate`); the loaders then check what a type cannot say (a hex
on the map, a division's HQ present, stacking, the campaign's dates).

The models are exported as JSON Schema (``schemas/*.schema.json`` at the repository's root,
:func:`write_json_schemas`, ``python -m normandy_lab.schemas``) so that an editor completes and checks a
scenario or study while it is written (``docs/files.md``).

Each room imports the module of its own files (the grids ``schemas.grid_files``, the record
``schemas.record``, the engine ``schemas.scenario`` and ``schemas.study``), none of which imports the
engine, the grids or the registry; this package's namespace gathers every public name for users and for
older code (``from normandy_lab.schemas import validate`` still works).

Why pydantic: it is the most used validation library in Python, kept up by a large team, fast (its core
is compiled), exports JSON Schema, and its errors carry the location of each problem, which maps onto
the line-aware YAML nodes of :mod:`normandy_lab.yamllines`.
"""

from __future__ import annotations

from normandy_lab.schemas.fields import (
    DATE,
    HEX_ID,
    MAP_LETTER,
    NO_CONTROL,
    NOT_BLANK,
    PATTERN_WORDS,
    SHA256,
    SLUG,
    UNIT_ID,
    WHAT_IF_INTERDICTION,
    Count,
    Date,
    HexId,
    HexPair,
    HqKind,
    LonLat,
    Nationality,
    Points,
    Side,
    Status,
    StrictModel,
    Text,
    UnitId,
    Why,
)
from normandy_lab.schemas.grid_files import (
    CoastHexSchema,
    ControlPointSchema,
    ControlUse,
    coast_hexes_file,
    control_points_file,
)
from normandy_lab.schemas.kinds import SCHEMA_DIR, SCHEMAS, grid_file_model, json_schema, write_json_schemas
from normandy_lab.schemas.record import (
    AreaSchema,
    EventCategory,
    EventSchema,
    FactSchema,
    FactsFileSchema,
    Km,
    LodgementFileSchema,
    LodgementRecordSchema,
    OffsetSchema,
    SourceKey,
    Sources,
    TimelineSchema,
    Waypoint,
)
from normandy_lab.schemas.scenario import ExpectedOutSchema, ScenarioSchema, UnitSchema
from normandy_lab.schemas.study import (
    EDIT,
    EDIT_OPS,
    AddUnitEdit,
    AirEdit,
    BridgeEdit,
    Edit,
    InterdictEdit,
    MarkerEdit,
    MoveEdit,
    NextPhaseEdit,
    RemoveUnitEdit,
    StudySchema,
    WeatherEdit,
    check_game_fields,
    weather_model,
)
from normandy_lab.schemas.validation import Model, doc_page, line_of, register_doc_page, validate

__all__ = [
    "DATE",
    "EDIT",
    "EDIT_OPS",
    "HEX_ID",
    "MAP_LETTER",
    "NOT_BLANK",
    "NO_CONTROL",
    "PATTERN_WORDS",
    "SCHEMAS",
    "SCHEMA_DIR",
    "SHA256",
    "SLUG",
    "UNIT_ID",
    "WHAT_IF_INTERDICTION",
    "AddUnitEdit",
    "AirEdit",
    "AreaSchema",
    "BridgeEdit",
    "CoastHexSchema",
    "ControlPointSchema",
    "ControlUse",
    "Count",
    "Date",
    "Edit",
    "EventCategory",
    "EventSchema",
    "ExpectedOutSchema",
    "FactSchema",
    "FactsFileSchema",
    "HexId",
    "HexPair",
    "HqKind",
    "InterdictEdit",
    "Km",
    "LodgementFileSchema",
    "LodgementRecordSchema",
    "LonLat",
    "MarkerEdit",
    "Model",
    "MoveEdit",
    "Nationality",
    "NextPhaseEdit",
    "OffsetSchema",
    "Points",
    "RemoveUnitEdit",
    "ScenarioSchema",
    "Side",
    "SourceKey",
    "Sources",
    "Status",
    "StrictModel",
    "StudySchema",
    "Text",
    "TimelineSchema",
    "UnitId",
    "UnitSchema",
    "Waypoint",
    "WeatherEdit",
    "Why",
    "check_game_fields",
    "coast_hexes_file",
    "control_points_file",
    "doc_page",
    "grid_file_model",
    "json_schema",
    "line_of",
    "register_doc_page",
    "validate",
    "weather_model",
    "write_json_schemas",
]


def __getattr__(name: str) -> Model:
    # The grid files' models by their older names: built over the registered maps when asked for (the
    # maps are the grids' to say, kinds.grid_file_model), so they are no longer constants of this package.
    kinds = {"ControlPointsFile": "control_points", "CoastHexesFile": "coast_hexes"}
    if name in kinds:
        return grid_file_model(kinds[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
