"""Typed schemas of the files users write and read (pydantic v2).

Scenarios, studies and their edits, the historical record and the grid data.
Each file kind has one model: the types of its fields, the values a
category may take (sides, nationalities, statuses, event categories), and
no field it does not know.  A scenario's model is a core every game shares
(:class:`ScenarioSchema`) narrowed by its rule system to its own turns,
weathers, unit types and sizes and options, with its own section
(``RuleSet.scenario_schema``).  The loaders
validate a file against its model first, and an error is reported at the
file's line with the field, what is wrong and the values allowed
(:func:`validate`); the loaders then check what a type cannot say (a hex
on the map, a division's HQ present, stacking, the campaign's dates).

The models are exported as JSON Schema (``schemas/*.schema.json``,
:func:`write_json_schemas`) so that an editor completes and checks a
scenario or study while it is written (``docs/files.md``).

Why pydantic: it is the most used validation library in Python, kept up
by a large team, fast (its core is compiled), exports JSON Schema, and its
errors carry the location of each problem, which maps onto the
line-aware YAML nodes of :mod:`normandy_lab.yamllines`.
"""

from __future__ import annotations

import datetime as dt
import difflib
import functools
import json
import re
from pathlib import Path
from typing import Annotated, Any, Literal, get_args, get_origin

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    TypeAdapter,
    ValidationError,
    create_model,
)

from normandy_lab.paths import REPO_ROOT
from normandy_lab.words import COAST_SIDES, EXPECTED_WHY, UNIT_ID_PATTERN

SCHEMA_DIR = REPO_ROOT / "schemas"

# The categories every game shares; a game's own (unit types, sizes, turns, weathers) are in its rule
# system's scenario schema (``RuleSet.scenario_schema``; BfN's in normandy_lab.rules.bfn.schema).
Side = Literal["allied", "german"]
Nationality = Literal["US", "UK", "CA", "FR", "PL", "DE"]
Status = Literal["active", "eliminated", "off_map"]
HqKind = Literal["division", "corps", "kg"]
Why = Literal[tuple(EXPECTED_WHY)]  # type: ignore[valid-type]

# The patterns text fields must match, and what each means in words (for the advice of an error).
# Some text, and no control character but tab and line breaks: an ESC or a NUL written as a YAML escape
# ("\e", "\0") would reach tables, GeoPackages and terminals as it is.
_NO_CONTROL = r"[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]"
NOT_BLANK = rf"^{_NO_CONTROL}*[^\s\x00-\x1f\x7f-\x9f]{_NO_CONTROL}*$"
NO_CONTROL = rf"^{_NO_CONTROL}*$"
HEX_ID = r"^[A-Za-z0-9.]+$"
UNIT_ID = f"^{UNIT_ID_PATTERN.pattern}$"
DATE = r"^\d{4}-\d{2}-\d{2}$"
WHAT_IF_INTERDICTION = r"^(block|\+[1-9][0-9]?)$"  # +1 to +99 MP: +0 would interdict nothing
MAP_LETTER = r"^[A-Z]$"
SHA256 = r"^[0-9a-f]{64}$"
SLUG = r"^[A-Za-z0-9_-]+$"
_PATTERN_WORDS = {
    NOT_BLANK: "it may not be blank, nor hold a control character (ESC, NUL, ...; tab and new lines may)",
    NO_CONTROL: "it may not hold a control character (ESC, NUL, ...; tab and new lines may)",
    HEX_ID: "a hex id is letters, digits and dots, as the map prints it (C2913, 30.027)",
    UNIT_ID: "an id is letters, digits and . _ : + -, starting with a letter or digit, at most 64 of them",
    DATE: "write the date as YYYY-MM-DD, e.g. 1944-06-13",
    WHAT_IF_INTERDICTION: "write block, or + and a number of MP from 1 to 99 (+2)",
    MAP_LETTER: "a map is one capital letter (A, B, C ...)",
    SHA256: "it is written by save_study; save the study again rather than edit it",
    SLUG: "an id is letters, digits, _ and -",
}

Text = Annotated[str, Field(min_length=1, pattern=NOT_BLANK)]
HexId = Annotated[str, Field(min_length=3, max_length=12, pattern=HEX_ID)]
UnitId = Annotated[str, Field(pattern=UNIT_ID)]
Date = dt.date | Annotated[str, Field(pattern=DATE)]
Count = Annotated[StrictInt, Field(ge=0)]
Points = dict[Annotated[str, Field(pattern=MAP_LETTER)], Count]
# YAML and JSON have lists, not tuples: a pair is a list of two.
HexPair = Annotated[list[HexId], Field(min_length=2, max_length=2)]
LonLat = Annotated[list[float], Field(min_length=2, max_length=2)]


class StrictModel(BaseModel):
    """The base of every file section's schema: no field the schema does not name, no type coercion.

    A game's scenario and unit sections (``rules/<game>/schema.py``) subclass it, or the core's
    :class:`ScenarioSchema` and :class:`UnitSchema` that do.
    """

    model_config = ConfigDict(extra="forbid", strict=True)


class UnitSchema(StrictModel):
    """A unit of a scenario (or one added by an edit): the fields every game shares.

    A game's scenario schema narrows ``type`` and ``size`` to its own categories.
    """

    id: UnitId
    name: Text
    side: Side
    nationality: Nationality
    type: Text
    size: Text
    hex: HexId
    steps: Annotated[StrictInt, Field(ge=1, le=12)]
    mechanized: StrictBool | None = None
    formation: Text | None = None
    corps: Text | None = None
    hq: HqKind | None = None
    ma: Count | None = None
    attack: Count | None = None
    defense: Count | None = None
    status: Status = "active"
    cut_off: StrictBool = False
    breakdown: StrictBool = False
    box: Text | None = None
    near: Text | LonLat | None = None
    source: str | None = None
    note: str | None = None


class ExpectedOutSchema(StrictModel):
    """A unit the scenario expects out of General Supply, and why."""

    unit: UnitId
    why: Why
    reason: Text
    source: str = ""
    # The turn the verdict is expected on, when not the scenario's own (both given, or neither).
    date: Date | None = None
    turn: Text | None = None


class ScenarioSchema(StrictModel):
    """A scenario file's core (``normandy_lab.scenario/1``, ``docs/scenarios.md``): what every game shares.

    A rule system's scenario schema (``RuleSet.scenario_schema``) derives from it: it names its game in
    ``system``, narrows the turns, weathers, units and options to its own, and adds its own section.
    """

    model_config = ConfigDict(extra="forbid", strict=True, title="normandy_lab scenario")

    format: Literal["normandy_lab.scenario/1"] = "normandy_lab.scenario/1"
    system: Text
    name: Text
    date: Date
    turn: Text
    phase: Text | None = None
    weather: Text | None = None
    seed: Count = 0
    maps: list[Text] | None = None
    destroyed_bridges: list[HexPair] | None = None
    interdiction: list[HexId] | None = None
    control: dict[HexId, Side] | None = None
    units: Annotated[list[UnitSchema], Field(min_length=1)]
    sources: list[Text] | None = None
    description: str | None = None
    # Units the set-up leaves off the map, for the record: each a line of text or a mapping of its fields.
    off_map: list[Text | dict[Text, Any]] | None = None
    options: dict[str, Any] | None = None
    independent_formations: list[Text] | None = None
    expected_out_of_supply: list[ExpectedOutSchema] | None = None


# The edits a study stores, one model each, told apart by their "op".
class _Edit(StrictModel):
    pass


class MoveEdit(_Edit):
    """Move a unit to a hex (checked against the rules)."""

    op: Literal["move"]
    unit: UnitId
    to: HexId


class InterdictEdit(_Edit):
    """Interdict a hex (a what-if), or clear it."""

    op: Literal["interdict", "clear_interdiction"]
    hex: HexId


class BridgeEdit(_Edit):
    """Destroy or repair the bridge on a hexside."""

    op: Literal["destroy_bridge", "repair_bridge"]
    hexside: HexPair


class WeatherEdit(_Edit):
    """Set the weather of the day."""

    op: Literal["weather"]
    weather: Text  # one of the game's weathers: the edit checks it against the state's rules


class AirEdit(_Edit):
    """Set the air points per map."""

    op: Literal["air"]
    allied: Points | None = None
    german_aa: Points | None = None


class AddUnitEdit(_Edit):
    """Add a unit (its fields as in a scenario; its game's categories are checked against the state's)."""

    op: Literal["add_unit"]
    unit: UnitSchema
    # The unit's formation has no HQ of its own (an independent brigade, as a scenario's
    # independent_formations): BfN 7.2 then asks for none.
    independent_formation: StrictBool = False


class RemoveUnitEdit(_Edit):
    """Remove a unit."""

    op: Literal["remove_unit"]
    unit: UnitId


class NextPhaseEdit(_Edit):
    """Step to the next phase."""

    op: Literal["next_phase"]


class MarkerEdit(_Edit):
    """Set one of the game's markers (Cobra's carpet bombing plan, supply points ...), as its rules allow."""

    op: Literal["marker"]
    name: Annotated[str, Field(pattern=SLUG, max_length=64)]
    # A flag, a number, a hex, supply points by army, a few hexes (Cobra's extended boundary's two ends), or
    # a few orders of named fields (KG's Cherbourg Unit Withdrawal: {"unit": ..., "to": ...} each).
    value: (
        StrictBool
        | StrictInt
        | Text
        | dict[str, StrictInt]
        | Annotated[list[Text], Field(max_length=8)]
        | Annotated[
            list[dict[Annotated[str, Field(pattern=SLUG, max_length=32)], Text]], Field(max_length=16)
        ]
        | None
    ) = None


Edit = Annotated[
    MoveEdit
    | InterdictEdit
    | BridgeEdit
    | WeatherEdit
    | AirEdit
    | AddUnitEdit
    | RemoveUnitEdit
    | NextPhaseEdit
    | MarkerEdit,
    Field(discriminator="op"),
]
# An edit alone (``apply_edit`` checks one given from code against it), and the ops there are.
EDIT = TypeAdapter(Edit)
EDIT_OPS: tuple[str, ...] = tuple(
    op for model in get_args(get_args(Edit)[0]) for op in get_args(model.model_fields["op"].annotation)
)


class StudySchema(BaseModel):
    """A study file (``normandy_lab.study/1``, ``docs/files.md``): JSON, so not strict about number kinds."""

    model_config = ConfigDict(extra="forbid", title="normandy_lab study")

    format: Literal["normandy_lab.study/1"]
    title: Annotated[str, Field(pattern=NO_CONTROL)] = ""
    scenario: Text
    scenario_file: str | None = None
    scenario_sha256: Annotated[str, Field(pattern=SHA256)] | None = None
    # The scenario's text as the study opened it, kept when its file had been renamed, moved, deleted or
    # changed by the time the study was saved (docs/files.md, Studies).
    scenario_text: Annotated[str, Field(max_length=20 * 1024 * 1024)] | None = None
    edits: list[Edit] = []
    state_label: str = ""
    fingerprint: Annotated[str, Field(pattern=SHA256)]


# The historical record (``docs/history.md``): written by the project's compilers, and by users who
# digitise their own lines or facts.  Places are resolved against the gazetteer after validation.
SourceKey = Annotated[str, Field(min_length=1, pattern=NOT_BLANK)]
Sources = dict[SourceKey, Text]
Km = Annotated[float, Field(ge=-100, le=100)]


class OffsetSchema(StrictModel):
    """A waypoint a stated distance from a place: ``{near: PLACE, km: [east, north]}``."""

    near: Text | LonLat
    km: Annotated[list[Km], Field(min_length=2, max_length=2)] = [0.0, 0.0]


# A gazetteer name, a [lon, lat] pair, or an offset from a place.
Waypoint = Text | LonLat | OffsetSchema


class AreaSchema(StrictModel):
    """An Allied area or a German pocket: a ring of waypoints."""

    name: Text
    outline: Annotated[list[Waypoint], Field(min_length=3)]
    note: str | None = None
    source: str | None = None


class LodgementRecordSchema(StrictModel):
    """The Allied-held ground at the end of one date."""

    date: Date
    time: Text | None = None
    sources: Annotated[list[SourceKey], Field(min_length=1)]
    accuracy_km: Annotated[float, Field(gt=0, le=50)]
    uncertain: str | None = None
    allied: Annotated[list[AreaSchema], Field(min_length=1)]
    german_pockets: list[AreaSchema] | None = None
    notes: str | None = None


class LodgementFileSchema(StrictModel):
    """A lodgement file (``maps/history/lodgement_*.yaml``)."""

    model_config = ConfigDict(extra="forbid", strict=True, title="normandy_lab lodgement record")

    sources: Sources | None = None
    records: Annotated[list[LodgementRecordSchema], Field(min_length=1)]


class FactSchema(StrictModel):
    """Who held a place at the end of a date, from a narrative."""

    place: Text
    lonlat: LonLat | None = None
    date: Date
    side: Side
    event: str | None = None
    source: SourceKey


class FactsFileSchema(StrictModel):
    """A file of dated facts (``maps/history/facts_*.yaml``)."""

    model_config = ConfigDict(extra="forbid", strict=True, title="normandy_lab dated facts")

    sources: Sources | None = None
    facts: Annotated[list[FactSchema], Field(min_length=1)]


EventCategory = Literal[
    "landing", "airborne", "battle", "operation", "storm", "capture", "logistics", "command"
]


class EventSchema(StrictModel):
    """An event of the campaign's timeline."""

    id: Annotated[str, Field(pattern=SLUG)]
    name: Text
    start: Date
    end: Date | None = None
    place: Text
    lonlat: LonLat | None = None
    place_note: str | None = None
    formations: list[Text] | None = None
    category: Literal[
        "landing", "airborne", "battle", "operation", "storm", "capture", "logistics", "command"
    ]
    description: Text
    sources: Annotated[list[SourceKey], Field(min_length=1)]


class TimelineSchema(StrictModel):
    """The campaign's timeline (``maps/history/timeline.yaml``)."""

    model_config = ConfigDict(extra="forbid", strict=True, title="normandy_lab timeline")

    sources: Sources
    events: Annotated[list[EventSchema], Field(min_length=1)]


# The grids' data files (``docs/grids.md``): hexes the rulebooks tie to places or to the shore.
GridSystem = Literal["bfn", "cobra", "kg", "gts"]
ControlUse = Literal["fit", "check", "dropped"]


class _GridEntry(StrictModel):
    rule: Text
    use: ControlUse
    reason: str | None = None


class ControlPointSchema(_GridEntry):
    """A hex (or group of hexes) that a rule ties to a named place."""

    hex: HexId | Annotated[list[HexId], Field(min_length=1)]
    place: Text


class CoastHexSchema(_GridEntry):
    """A hex that a rule puts on the shore."""

    hex: HexId
    side: Literal[COAST_SIDES]  # type: ignore[valid-type]


ControlPointsFile = TypeAdapter(dict[GridSystem, list[ControlPointSchema] | None])
CoastHexesFile = TypeAdapter(dict[GridSystem, list[CoastHexSchema] | None])

SCHEMAS: dict[str, type[BaseModel] | TypeAdapter] = {
    "study": StudySchema,
    "lodgement": LodgementFileSchema,
    "facts": FactsFileSchema,
    "timeline": TimelineSchema,
    "control_points": ControlPointsFile,
    "coast_hexes": CoastHexesFile,
}
# Where each kind's fields are described, for the "unknown field" advice.
_DOC_PAGE: dict[Any, str] = {
    StudySchema: "docs/files.md",
    EDIT: "docs/files.md",
    LodgementFileSchema: "docs/history.md",
    FactsFileSchema: "docs/history.md",
    TimelineSchema: "docs/history.md",
    ControlPointsFile: "docs/grids.md",
    CoastHexesFile: "docs/grids.md",
}


def validate(model: type[BaseModel] | TypeAdapter, data: Any, path: str, error: type[Exception]) -> None:
    """Validate parsed data against a model; raise ``error`` at the line of the first problem.

    The message reads ``file:line: field: what is wrong; how to fix it``; for
    a category it lists the values allowed and suggests the nearest.  Data
    without lines (JSON, or a value from code) is reported as ``file: field: ...``.
    """
    if not isinstance(model, TypeAdapter) and not isinstance(data, dict):
        title = model.model_config.get("title") or "data"
        what = "empty" if data is None else f"a {'list' if isinstance(data, list) else type(data).__name__}"
        raise error(
            f"{path}:1: the file is {what}, not a mapping of fields; write the fields of a {title} file "
            f"({_doc_page(model)})"
        )
    try:
        if isinstance(model, TypeAdapter):
            model.validate_python(data)
        else:
            model.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        kinds = _union_kinds(errors)
        if kinds:  # a value none of a union's kinds takes: name them all, not the first one tried
            first = errors[0]
            loc = tuple(first["loc"][:-1])
            value = first.get("input")
            hint = (
                f" (write {int(value)}, not {value})"
                if isinstance(value, float) and value.is_integer() and "a whole number" in kinds
                else ""
            )
            raise error(
                f"{_where(path, data, loc)}: {_field_name(loc, data)}: {value!r} is none of the kinds this "
                f"value may be: {', '.join(kinds)}{hint}"
            ) from None
        first = _most_useful(errors)
        message = _message(first, data, path, _doc_page(model))
        raise error(message + _misspelt(first, errors, model)) from None


# What each kind a union may take is called, for a value that is none of them (a marker edit's value).
_KIND_WORDS = {
    "bool_type": "true or false",
    "int_type": "a whole number",
    "string_type": "text",
    "dict_type": "a mapping",
    "list_type": "a list",
    "float_type": "a number",
}


def _union_kinds(errors: list[dict[str, Any]]) -> list[str]:
    """Return the kinds a union offered, when every error is one branch's type refusing one value; else []."""
    if len(errors) < 2 or len({tuple(e["loc"][:-1]) for e in errors}) != 1:
        return []
    if not all(e["type"] in _KIND_WORDS or e["type"] == "none_required" for e in errors):
        return []
    return list(dict.fromkeys(_KIND_WORDS[e["type"]] for e in errors if e["type"] in _KIND_WORDS))


@functools.lru_cache(maxsize=8)
def weather_model(rules: Any) -> type[BaseModel]:
    """Return a model of ``{"weather": ...}`` whose value must be one of a rule system's weathers."""
    choices = Literal[tuple(rules.weather_effects)]  # type: ignore[valid-type]
    return create_model("Weather", __config__=ConfigDict(extra="forbid", strict=True), weather=(choices, ...))


def check_game_fields(rules: Any, edit: dict[str, Any], where: str, error: type[Exception]) -> None:
    """Check the fields of an edit that are a game's own: a weather among its weathers, an added unit's.

    ``where`` prefixes the message (a study's ``file: edits[2]``); the error is raised at the field.
    """
    if edit.get("op") == "weather":
        validate(weather_model(rules), {"weather": edit.get("weather")}, where, error)
    elif edit.get("op") == "add_unit":
        validate(rules.unit_schema(), edit.get("unit"), f"{where}: unit", error)


def _doc_page(model: Any) -> str:
    """Return where a file kind's fields are described."""
    if isinstance(model, type) and issubclass(model, (ScenarioSchema, UnitSchema)):
        return "docs/scenarios.md"
    return _DOC_PAGE.get(model, "docs/files.md")


def _most_useful(errors: list[dict[str, Any]]) -> dict[str, Any]:
    """Pick the error to report: the deepest location, not a union's alternatives over the whole value.

    Between equals an unknown field comes first: it is usually the misspelling of the one missing.
    """
    return max(
        errors,
        key=lambda e: (len(e["loc"]), e["type"] != "union_tag_invalid", e["type"] == "extra_forbidden"),
    )


def _misspelt(first: dict[str, Any], errors: list[dict[str, Any]], model: Any) -> str:
    """For an unknown field, name the field it most resembles: a missing one, else any of its mapping."""
    if first["type"] != "extra_forbidden":
        return ""
    parent, name = tuple(first["loc"][:-1]), str(first["loc"][-1])
    missing = [str(e["loc"][-1]) for e in errors if e["type"] == "missing" and tuple(e["loc"][:-1]) == parent]
    close = difflib.get_close_matches(name, missing, n=1)
    if close:
        return f" (did you mean {close[0]!r}, which is missing?)"
    close = difflib.get_close_matches(name, _fields_at(model, parent), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _fields_at(model: Any, loc: tuple) -> list[str]:
    """Return the field names of the model reached by following ``loc`` through fields, lists and dicts."""
    annotation = getattr(model, "_type", model)  # a TypeAdapter keeps the type it adapts
    for part in (*loc, None):
        while True:  # unwrap Annotated, X | None, list[X], dict[K, X] down to a model
            args = [a for a in get_args(annotation) if a is not type(None)]
            if isinstance(annotation, type) and issubclass(annotation, BaseModel):
                break
            if not args:
                return []
            annotation = args[-1] if get_origin(annotation) is dict else args[0]
        if part is None:
            return list(annotation.model_fields)
        if isinstance(part, int):
            continue
        field = annotation.model_fields.get(part)
        if field is None:
            return []
        annotation = field.annotation
    return []


def _field_name(loc: tuple, data: Any, missing: bool = False) -> str:
    """Name the field at ``loc`` as written in the file: ``records[0].allied[2].outline``.

    Pydantic puts the branch of a union in its locations (``date``, ``OffsetSchema``, ``str``); they are told
    from fields by walking the data: a part that is not a key or index of the value reached is a branch,
    except an edit's op (kept: it says which edit the fields were read as) and a missing field.
    """
    out, node = "", data
    for i, part in enumerate(loc):
        if isinstance(part, int) and isinstance(node, list) and 0 <= part < len(node):
            out, node = out + f"[{part}]", node[part]
        elif isinstance(node, dict) and part in node:
            out, node = (f"{out}.{part}" if out else str(part)), node[part]
        elif isinstance(node, dict) and node.get("op") == part:
            out = f"{out}.{part}" if out else str(part)  # an edit's op: which of the edits it was taken for
        elif missing and i == len(loc) - 1 and isinstance(node, dict):
            out = f"{out}.{part}" if out else str(part)  # a missing field
    return out or "(file)"


def line_of(data: Any, loc: tuple) -> int:
    """Return the line of the deepest mapping key on the location's path (LineDict remembers them).

    Parameters
    ----------
    data
        The file as read (:class:`~normandy_lab.yamllines.LineDict` and lists).
    loc
        A pydantic error's location: keys and list positions, outermost first.

    Returns
    -------
    int
        The line number, 0 when ``data`` knows none.
    """
    line, node = getattr(data, "line", 0), data
    for part in loc:
        if isinstance(node, dict) and part in node:
            line = getattr(node, "key_lines", {}).get(part, getattr(node, "line", line))
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
            line = getattr(node, "line", line)
        else:
            break
    return line


def _where(path: str, data: Any, loc: tuple) -> str:
    """Return ``path:line``, or the path alone when the data carries no lines (line 0)."""
    line = line_of(data, loc)
    return f"{path}:{line}" if line else path


def _message(err: dict[str, Any], data: Any, path: str, doc: str) -> str:
    # An edit's "op" tells which model applies: an unknown or missing op is reported as that field's.
    if err["type"] in ("union_tag_invalid", "union_tag_not_found"):
        ctx = err["ctx"]
        tag_field = (*err["loc"], ctx["discriminator"].strip("'"))
        if err["type"] == "union_tag_not_found":
            err = {**err, "type": "missing", "loc": tag_field}
        else:
            err = {**err, "type": "literal_error", "loc": tag_field, "input": ctx["tag"]}
            err["ctx"] = {"expected": ctx["expected_tags"]}
    loc = tuple(err["loc"])
    field = _field_name(loc, data, missing=err["type"] == "missing")
    value = err.get("input")
    kind = err["type"]
    shown = repr(value) if len(repr(value)) <= 80 else repr(value)[:77] + "..."
    if kind == "extra_forbidden":
        return f"{_where(path, data, loc)}: {field}: unknown field; see {doc} for the fields"
    if kind == "missing":
        return f"{_where(path, data, loc[:-1])}: {field}: missing required field; add it"
    if kind in ("literal_error", "enum"):
        allowed = err.get("ctx", {}).get("expected", "")
        options = [s.strip().strip("'") for s in allowed.replace(" or ", ",").split(",") if s.strip()]
        close = difflib.get_close_matches(str(value), options, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        return f"{_where(path, data, loc)}: {field}: {shown} is not allowed; {hint}use one of {allowed}"
    if kind == "string_type" and isinstance(value, int | float) and not isinstance(value, bool):
        # YAML reads 20.025 or 1944 as a number; the id or text was meant.
        return (
            f"{_where(path, data, loc)}: {field}: {shown} was read as a number; "
            f'write it in quotes ("{value}") so that it stays text'
        )
    said = re.sub(r" or instance of \w+", "", err["msg"])  # the model's class name means nothing in a file
    if kind == "string_pattern_mismatch":
        said = "not in the form required"  # the regular expression itself helps no one writing a file
    return f"{_where(path, data, loc)}: {field}: {shown}: {said}; {_advice(err, doc)}"


def _advice(err: dict[str, Any], doc: str) -> str:
    """How to fix a value of the wrong type or range."""
    kind, ctx = err["type"], err.get("ctx", {})
    if kind.startswith("int_"):
        return "give a whole number"
    if kind.startswith("float_"):
        return "give a number"
    if kind.startswith("bool_"):
        return "write true or false"
    if kind.startswith("date_"):
        return "write the date as YYYY-MM-DD, e.g. 1944-06-13"
    if kind == "string_type":
        return "write it as text"
    if kind == "list_type":
        return "give a list: [a, b], or one '- item' per line"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return "give a mapping of field: value"
    if kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
        bound = {"greater_than_equal": "at least", "greater_than": "more than"}.get(kind, "at most")
        limit = ctx.get("ge", ctx.get("gt", ctx.get("le", ctx.get("lt"))))
        return f"give a number {bound} {limit}"
    if kind == "string_too_short":
        return "it may not be empty"
    if kind in ("too_short", "too_long", "string_too_long"):
        return "give the number of items said"
    if kind == "string_pattern_mismatch":
        return _PATTERN_WORDS.get(ctx.get("pattern", ""), f"see {doc}")
    return f"see {doc}"


def _kinds() -> dict[str, type[BaseModel] | TypeAdapter]:
    """Return every file kind with its schema: each game's scenarios, then :data:`SCHEMAS`."""
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
    from normandy_lab.savefile import write_text_atomically

    return [
        write_text_atomically(folder / f"{name}.schema.json", json.dumps(json_schema(name), indent=2) + "\n")
        for name in _kinds()
    ]


if __name__ == "__main__":  # python -m normandy_lab.schemas
    for written in write_json_schemas():
        print("wrote", written)
