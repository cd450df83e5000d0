"""A study file (``normandy_lab.study/1``, ``docs/files.md``) and the edits it stores.

Each edit has one model, told apart by its ``op`` (:data:`Edit`); :data:`EDIT` checks one edit given
from code (``apply_edit``).  The fields of an edit that are a game's own (a weather, an added unit's
categories) are checked against the state's rules by :func:`check_game_fields`.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, TypeAdapter, create_model

from normandy_lab.schemas.fields import (
    NO_CONTROL,
    SHA256,
    SLUG,
    HexId,
    HexPair,
    Points,
    StrictModel,
    Text,
    UnitId,
)
from normandy_lab.schemas.scenario import UnitSchema
from normandy_lab.schemas.validation import register_doc_page, validate


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
EDIT: TypeAdapter[Any] = TypeAdapter(Edit)
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


register_doc_page(StudySchema, "docs/files.md")
register_doc_page(EDIT, "docs/files.md")


@functools.lru_cache(maxsize=8)
def weather_model(rules: Any) -> type[BaseModel]:
    """Return a model of ``{"weather": ...}`` whose value must be one of a rule system's weathers."""
    choices: Any = Literal[tuple(rules.weather_effects)]  # a type built at run time: Any to a type checker
    model: type[BaseModel] = create_model(
        "Weather", __config__=ConfigDict(extra="forbid", strict=True), weather=(choices, ...)
    )
    return model


def check_game_fields(
    rules: Any, unit_schema: Any, edit: dict[str, Any], where: str, error: type[Exception]
) -> None:
    """Check the fields of an edit that are a game's own: a weather among its weathers, an added unit's.

    ``unit_schema`` is the game's model of one unit (its file format's, ``ScenarioFormat.unit_schema()``);
    ``where`` prefixes the message (a study's ``file: edits[2]``); the error is raised at the field.
    """
    if edit.get("op") == "weather":
        validate(weather_model(rules), {"weather": edit.get("weather")}, where, error)
    elif edit.get("op") == "add_unit":
        validate(unit_schema, edit.get("unit"), f"{where}: unit", error)


__all__ = [
    "EDIT",
    "EDIT_OPS",
    "AddUnitEdit",
    "AirEdit",
    "BridgeEdit",
    "Edit",
    "InterdictEdit",
    "MarkerEdit",
    "MoveEdit",
    "NextPhaseEdit",
    "RemoveUnitEdit",
    "StudySchema",
    "WeatherEdit",
    "check_game_fields",
    "weather_model",
]
