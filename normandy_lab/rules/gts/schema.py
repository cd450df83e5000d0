"""The Greatest Day's scenario schema: the core narrowed to GTS, and its own section (17.x)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, StrictBool, StrictInt

from normandy_lab.rules.gts.data import (
    ALWAYS_SUPPLIED,
    DESIGNATED,
    SIZES,
    TURNS,
    UNIT_TYPES,
    US_DIVISIONS,
    WEATHER_EFFECTS,
)
from normandy_lab.schemas.fields import WHAT_IF_INTERDICTION, HexId, StrictModel, UnitId
from normandy_lab.schemas.scenario import ScenarioSchema, UnitSchema

UnitType = Literal[UNIT_TYPES]  # type: ignore[valid-type]
Size = Literal[SIZES]  # type: ignore[valid-type]
Turn = Literal[TURNS]  # type: ignore[valid-type]
Weather = Literal[tuple(WEATHER_EFFECTS)]  # type: ignore[valid-type]
# 17.3: the American divisions of the count; V Corps is named too, so that a designation naming it is
# told why it is not one (it is supplied at all times, outside the count).
Division = Literal[(*US_DIVISIONS, *ALWAYS_SUPPLIED)]  # type: ignore[valid-type]


class GtsUnitSchema(UnitSchema):
    """A GTS unit: its type and size among the game's; its Barrage marker and range where they are known."""

    type: UnitType
    size: Size
    barrage: StrictBool | None = None  # 17.1: under a Barrage marker (its reach cut to 1 hex)
    fire_range: Annotated[StrictInt, Field(ge=0, le=99)] | None = None  # the counter's range (GAP): its FZ


class GtsOptionsSchema(StrictModel):
    """The stand-ins and readings a scenario may switch (``rules.gts.data.OPTIONS``, ``READINGS``)."""

    fire_zone_stand_in: StrictBool | None = None
    what_if_interdiction: Annotated[str, Field(pattern=WHAT_IF_INTERDICTION)] | None = None
    interdiction_with_no_planes: Literal["no_roll", "roll"] | None = None  # 17.1 (a reading)
    storm_column: Literal["along_roads", "never"] | None = None  # 1.2 (a reading)
    fire_zones: Literal["range", "adjacent"] | None = None  # 15.0, 17.1, 3.3 (READINGS)
    link_up_destroyed_bridge: Literal["breaks", "ignored"] | None = None  # 17.6 (READINGS)
    link_up_german_units: Literal["on_the_path", "next_to_the_path"] | None = None  # 17.6 (READINGS)
    remount_toward: Literal["any_edge", "nearest_edge"] | None = None  # 15.0 (READINGS)
    storm_delays_missions: Literal["by_day", "night_drop"] | None = None  # 17.6 (READINGS)
    beach_from_8_june: Literal["out_of_play", "enterable"] | None = None  # 4.1.4, 4.3.3 (READINGS)


class AssaultForceMarkersSchema(StrictModel):
    """Where the two Utah Assault Force markers stand (4.4.3).

    Each in its sector; one left out keeps its default (4.4.7's example: UtS 20.025, UtN 37.010).
    """

    UtN: HexId | None = None
    UtS: HexId | None = None


class GtsScenarioSchema(ScenarioSchema):
    """A scenario of The Greatest Day: Utah Beach (``system: gts``)."""

    model_config = ConfigDict(extra="forbid", strict=True, title="normandy_lab scenario (GTS)")

    system: Literal["gts"]
    turn: Turn
    weather: Weather | None = None
    units: Annotated[list[GtsUnitSchema], Field(min_length=1)]
    options: GtsOptionsSchema | None = None  # type: ignore[assignment]
    supplied_divisions: Annotated[list[Division], Field(max_length=DESIGNATED)] | None = None  # 17.3
    hypothetical_82nd: StrictBool = False  # 17.6
    supply_drop_zone: Literal["LZ 4", "LZ 5"] = "LZ 4"  # 17.6
    fighter_bombers_on_interdiction: Annotated[StrictInt, Field(ge=0, le=4)] = 0  # 17.1
    # 17.1: the hexes German reinforcements enter by, each once (the booklets': GAP)
    german_reinforcement_hexes: (
        Annotated[list[HexId], Field(json_schema_extra={"uniqueItems": True})] | None
    ) = None
    abandoned_transport: list[UnitId] | None = None  # 2.3.3, 2.3.5: units whose remount path (15.0) is drawn
    assault_force_markers: AssaultForceMarkersSchema | None = None  # 4.4.3
