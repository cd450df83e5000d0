"""Cobra's scenario schema: the core of every scenario narrowed to Cobra, and Cobra's own section.

Cobra's section: the supply points of each army (11.1, 17.1.1), the Allied income and command limits where
the analyst reads them off the turn track (11.1a, 11.3), the Allied Army Boundary (5.9, 17.2), and
whether the south map edge is lost to the Germans (10.4); a unit may carry the placement latitude its
set-up allows (``within``, 17.2).  Exported with the other schemas in ``schemas/``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, StrictBool, StrictInt

from normandy_lab.rules.cobra.data import SIZES, TURNS, UNIT_TYPES, WEATHER_EFFECTS
from normandy_lab.rules.cobra.metric import READINGS
from normandy_lab.rules.cobra.points import FIRST_STORM_READINGS
from normandy_lab.schemas.fields import WHAT_IF_INTERDICTION, Count, HexId, StrictModel
from normandy_lab.schemas.scenario import ScenarioSchema, UnitSchema

UnitType = Literal[UNIT_TYPES]  # type: ignore[valid-type]
Size = Literal[SIZES]  # type: ignore[valid-type]
Turn = Literal[TURNS]  # type: ignore[valid-type]
Weather = Literal[tuple(WEATHER_EFFECTS)]  # type: ignore[valid-type]


class CobraUnitSchema(UnitSchema):
    """A Cobra unit: its type and size among the game's, and how far from its hex it may set up (17.2)."""

    type: UnitType
    size: Size
    within: Annotated[StrictInt, Field(ge=1, le=10)] | None = None


class SupplyPointsSchema(StrictModel):
    """Each army's supply points (11.1): US and British/Canadian attack supply, German attack supply."""

    US: Count = 0
    UK: Count = 0
    DE: Annotated[StrictInt, Field(ge=0, le=12)] = 0  # 11.0c: never more than 12


class TrackLineSchema(StrictModel):
    """A line of the Game Turn Record Track for the US and British armies (11.1a, 11.3; not in the text)."""

    US: Annotated[StrictInt, Field(ge=0, le=20)] | None = None
    UK: Annotated[StrictInt, Field(ge=0, le=20)] | None = None


class CobraOptionsSchema(StrictModel):
    """The readings a scenario may choose where the text is open: 10.3 (``rules.cobra.metric``), 11.1b."""

    major_road: Literal[READINGS["major_road"]] | None = None  # type: ignore[valid-type]
    major_river: Literal[READINGS["major_river"]] | None = None  # type: ignore[valid-type]
    what_if_interdiction: Annotated[str, Field(pattern=WHAT_IF_INTERDICTION)] | None = None
    first_storm: Literal[FIRST_STORM_READINGS] | None = None  # type: ignore[valid-type]  # 11.1b (points)


class CobraScenarioSchema(ScenarioSchema):
    """A scenario of Cobra (``system: cobra``)."""

    model_config = ConfigDict(extra="forbid", strict=True, title="normandy_lab scenario (Cobra)")

    system: Literal["cobra"]
    turn: Turn
    weather: Weather | None = None
    units: Annotated[list[CobraUnitSchema], Field(min_length=1)]
    options: CobraOptionsSchema | None = None  # type: ignore[assignment]
    # Cobra's own section
    supply_points: SupplyPointsSchema | None = None
    allied_income: TrackLineSchema | None = None  # 11.1a: SP a turn, as the analyst reads the track
    command_limits: TrackLineSchema | None = None  # 11.3: attacks (and overruns) a turn
    # 5.9.1a: the boundary stays between the 3300 and 4000 hex rows of map B, columns 23 to 30 of map A.
    # No null: an empty line is no column (the edit refuses None too); leave the line out for none given.
    army_boundary: Annotated[StrictInt, Field(ge=23, le=30)] = None  # type: ignore[assignment]
    south_of_vire_gt: Annotated[StrictInt, Field(ge=1, le=28)] | None = None  # 5.9.1b
    boundary_extension: Annotated[list[HexId], Field(min_length=2, max_length=2)] | None = None  # 5.9.1b-c
    south_edge_lost: StrictBool = False
    # 5.3, 11.1b: the weather of the game turns already played, oldest first (the last one is the turn before
    # this one): what 5.3a's columns and modifiers and 11.1b's first storm read (rules.cobra.section).
    weather_history: list[Weather] | None = None
    cherbourg_entered: StrictBool = False
    campaign: StrictBool = False
    # 17.3.6f: beach hexes, each once (on the map and a beach: rules.cobra.section)
    wrecked_beaches: Annotated[list[HexId], Field(json_schema_extra={"uniqueItems": True})] | None = None
