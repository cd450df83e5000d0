"""A scenario file's core (``normandy_lab.scenario/1``, ``docs/scenarios.md``): what every game shares.

A rule system's scenario schema (``ScenarioFormat.scenario_schema``) derives from :class:`ScenarioSchema`: it
names its game in ``system``, narrows the turns, weathers, units and options to its own, and adds its own
section.  The scenario loader (:mod:`normandy_lab.engine.scenario`) validates a file against it first,
then checks what a type cannot say (a hex on the map, a division's HQ present, stacking, the dates).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StrictBool, StrictInt

from normandy_lab.schemas.fields import (
    Count,
    Date,
    HexId,
    HexPair,
    HqKind,
    LonLat,
    Nationality,
    Side,
    Status,
    StrictModel,
    Text,
    UnitId,
    Why,
)
from normandy_lab.schemas.validation import register_doc_page


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

    A rule system's scenario schema (``ScenarioFormat.scenario_schema``) derives from it: it names its game in
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


# A game's scenario and unit schemas derive from these: their fields are described on the same page.
register_doc_page(ScenarioSchema, "docs/scenarios.md")
register_doc_page(UnitSchema, "docs/scenarios.md")

__all__ = ["ExpectedOutSchema", "ScenarioSchema", "UnitSchema"]
