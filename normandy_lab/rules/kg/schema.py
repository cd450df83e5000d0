"""The Killing Ground's scenario schema: the core narrowed to KG, its unit marks, and its section (26.x)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, StrictBool, StrictInt

from normandy_lab.rules.kg.data import BOXES, SIZES, TURNS, UNIT_TYPES, WEATHER_EFFECTS, ZOC_CLASSES
from normandy_lab.rules.kg.nests import NEST_STATES
from normandy_lab.schemas.fields import WHAT_IF_INTERDICTION, HexId, StrictModel, Text
from normandy_lab.schemas.scenario import ScenarioSchema, UnitSchema

UnitType = Literal[UNIT_TYPES]  # type: ignore[valid-type]
Size = Literal[SIZES]  # type: ignore[valid-type]
Turn = Literal[TURNS]  # type: ignore[valid-type]
Weather = Literal[tuple(WEATHER_EFFECTS)]  # type: ignore[valid-type]
ZocClass = Literal[ZOC_CLASSES]  # type: ignore[valid-type]
NestState = Literal[NEST_STATES]  # type: ignore[valid-type]
# 26.15.4: the German off-map boxes air units may be placed on (the OMM boxes and the Transit Display's).
OmmBox = Literal[tuple(n for n, b in BOXES.items() if b.side == "german" and "OMM" in n)]  # type: ignore[valid-type]
# Support Points held or paid a turn: the text bounds none of them (the tracks are GAPs); more than 99 is
# taken for a typing slip, not a reading of the rules.
SupportPoints = Annotated[StrictInt, Field(ge=0, le=99)]


class KgUnitSchema(UnitSchema):
    """A KG unit: its type and size among the game's; its ZOC class (26.2.3) and its set-up marks (22.0)."""

    type: UnitType
    size: Size
    zoc: ZocClass | None = None
    printed: Text | None = None
    steps_lost: Annotated[StrictInt, Field(ge=0, le=3)] | None = None
    disorganized: StrictBool | None = None
    regroup: StrictBool | None = None
    out_of_supply: StrictBool | None = None
    delayed: StrictBool | None = None
    marks: str | None = None
    type_suffix: str | None = None
    alt_hex: Text | None = None
    # 22.7's marks (22.0): effectiveness levels lost ("-E1"), cadre, an Improved Position on its hex, and
    # 22.7.2(d)'s reduced artillery (whether that is a step is not said, so it is kept as a mark).
    effectiveness_lost: Annotated[StrictInt, Field(ge=0, le=3)] | None = None
    cadre: StrictBool | None = None
    improved_position: StrictBool | None = None
    starts_reduced: StrictBool | None = None
    # 26.2.3: a WN whose counter bears a red IP unit type symbol is never isolated, nor the units by it.
    red_ip: StrictBool | None = None


class KgOptionsSchema(StrictModel):
    """The reconstructions a scenario may change (``rules.kg.data.OPTIONS``)."""

    battalion_zoc_blocks_supply: StrictBool | None = None
    what_if_interdiction: Annotated[str, Field(pattern=WHAT_IF_INTERDICTION)] | None = None
    german_division_supply: Literal["hq_or_city", "city_only"] | None = None  # 26.11.2 (READINGS)
    depot_sp_improvement: Annotated[StrictInt, Field(ge=1, le=5)] | None = None  # 26.19.3 (READINGS)
    rail_box_modifier: Annotated[StrictInt, Field(ge=-3, le=3)] | None = None  # 26.4.3 (READINGS)
    standard_rules: Literal["by_stage", "standard", "build_up"] | None = None  # 22.7.1, 26.21.2 (READINGS)


class ArmySpSchema(StrictModel):
    """Each army's support points (26.10): the 1st US and 2nd British Army reserves, the German SP."""

    US: SupportPoints = 0
    UK: SupportPoints = 0
    DE: SupportPoints = 0


class DepotSpSchema(StrictModel):
    """What the Depot Track's SP row pays each nationality a turn (26.10.2; the card is a GAP)."""

    US: SupportPoints = 0
    UK: SupportPoints = 0


class WeaponsNestSchema(StrictModel):
    """A Weapons Nest of the set-up (26.2.4): its printed name, its state (22.6.8, 22.7), its hex if printed.

    Without ``hex`` the map draws it at its historical position (``maps/history/weapons_nests.yaml``).
    """

    name: Text
    state: NestState
    hex: HexId | None = None


class MulberrySchema(StrictModel):
    """The Mulberry construction levels (26.19.2): A (US, off Omaha), B (British, at Arromanches)."""

    A: Annotated[StrictInt, Field(ge=0, le=10)] = 0
    B: Annotated[StrictInt, Field(ge=0, le=10)] = 0


class DepotsSchema(StrictModel):
    """The depots' spaces on the Depot Track (26.19.3; its length RECONSTRUCTED, rules.kg.logistics)."""

    US: Annotated[StrictInt, Field(ge=0, le=10)] = 0
    UK: Annotated[StrictInt, Field(ge=0, le=10)] = 0


class TrackEntrySchema(StrictModel):
    """Units a scenario puts on the reinforcement track for a later turn (22.7.2's Track Adjustments).

    Each unit is written as the units in play are, standing (``status: off_map``) in the box it arrives in
    (26.16.1: a Floating Reserve box, or the Allied Holding Box for a British AGRA; 26.16.2: an OMM box for
    a German unit) at that box's first entry hex.
    """

    turn: Turn
    units: Annotated[list[KgUnitSchema], Field(min_length=1)]


class KgScenarioSchema(ScenarioSchema):
    """A scenario of The Killing Ground with OVERLORD (``system: kg``)."""

    model_config = ConfigDict(extra="forbid", strict=True, title="normandy_lab scenario (KG)")

    system: Literal["kg"]
    turn: Turn
    weather: Weather | None = None
    units: Annotated[list[KgUnitSchema], Field(min_length=1)]
    options: KgOptionsSchema | None = None  # type: ignore[assignment]
    stage: Literal["build-up", "killing_ground"] = "build-up"
    army_sp: ArmySpSchema | None = None
    mulberry: MulberrySchema | None = None
    depots: DepotsSchema | None = None
    depot_sp: DepotSpSchema | None = None  # 26.10.2
    weapons_nests: list[WeaponsNestSchema] | None = None  # 26.2.4, 22.6.8
    fortress_cherbourg: StrictBool = False  # 26.20.6
    cherbourg_sp: SupportPoints | None = None  # 26.10.7
    air_supply_ap: Annotated[StrictInt, Field(ge=0, le=4)] = 0  # 26.15.1
    air_rail: StrictBool = False  # 26.15.2
    # 26.4.4: the level is compared with a roll of two dice, so a level above 12 (or an air unit's value
    # that would take level 1 past it) says nothing more (DERIVED).
    air_rail_value: Annotated[StrictInt, Field(ge=0, le=11)] | None = None  # 26.4.4, 26.10.7
    # 26.4.3: the most units in the Rail Reinforcement box (22.7 gives 2; the track is a GAP, and more than
    # 20 is taken for a typing slip).
    rail_capacity: Annotated[StrictInt, Field(ge=0, le=20)] | None = None
    rail_interdiction_level: Annotated[StrictInt, Field(ge=1, le=12)] = 1  # 26.4.4
    air_omm_targets: dict[OmmBox, Annotated[StrictInt, Field(ge=0, le=2)]] | None = None  # 26.15.4
    reinforcement_track: list[TrackEntrySchema] | None = None  # 22.7.2, 26.16
