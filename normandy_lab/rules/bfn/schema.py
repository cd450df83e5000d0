"""The Battle for Normandy's scenario schema: the core of every scenario, narrowed to BfN, and its section.

The core (:class:`normandy_lab.schemas.ScenarioSchema`) holds what every game's scenario has; BfN names
itself in ``system``, narrows the turns, weathers, unit types and sizes to its own, checks its options
(``rules.bfn.READINGS`` and the others, ``docs/engine.md``) and adds its section: the beachheads (7.4),
the Mulberries (19.4), the pathfinders (17.1), the German supply cities (7.4), the Combat Supply Points
(7.6) and the air and AA points per map (11.1).  Exported as ``schemas/scenario.schema.json``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, StrictBool

from normandy_lab.rules.bfn.data import BFN_RULES
from normandy_lab.schemas.fields import WHAT_IF_INTERDICTION, Count, Date, HexId, Points, StrictModel, Text
from normandy_lab.schemas.scenario import ScenarioSchema, UnitSchema

UnitType = Literal[tuple(BFN_RULES.unit_types)]  # type: ignore[valid-type]
Size = Literal[tuple(BFN_RULES.sizes)]  # type: ignore[valid-type]
Turn = Literal[tuple(BFN_RULES.sequence)]  # type: ignore[valid-type]
Weather = Literal[tuple(BFN_RULES.weather_effects)]  # type: ignore[valid-type]
SupplyCity = Literal[tuple(BFN_RULES.supply["german_supply_cities"])]  # type: ignore[valid-type]


class BfnUnitSchema(UnitSchema):
    """A BfN unit: its type and size among the game's."""

    type: UnitType
    size: Size


class BeachheadSchema(StrictModel):
    """An Allied beachhead: a supply source (7.4), one of the five landing beaches."""

    name: Literal["Utah", "Omaha", "Gold", "Juno", "Sword"]
    nationality: Literal["US", "UK", "CA"]
    hex: HexId


class AirSchema(StrictModel):
    """Air points per map: the Allied allocation and the German AA (11.x)."""

    allied: Points | None = None
    german_aa: Points | None = None


StepStrengths = Annotated[
    list[Annotated[float, Field(ge=0, le=20)]], Field(min_length=2, max_length=2)
]  # [attack, defense] a step


class BfnOptionsSchema(StrictModel):
    """The options a scenario may set (their meanings: ``rules.bfn``, ``docs/engine.md``)."""

    historical_weather: StrictBool | None = None
    what_if_interdiction: Annotated[str, Field(pattern=WHAT_IF_INTERDICTION)] | None = None
    night_halving_until: Date | None = None
    # (attack, defense) strength a step of each unit type, for counters without printed values (RECONSTRUCTED
    # by default): a scenario may give some types; the others keep the rules' values.
    strength_per_step: dict[UnitType, StepStrengths] | None = None
    german_artillery_attach: Literal["counts", "free"] | None = None
    combat_supply_chain: Literal["own_army", "any_army"] | None = None
    isolation_corps_hq: Literal["in_supply", "any"] | None = None
    hq_bridging: Literal["own_line", "for_its_units"] | None = None
    mulberry_sources: Literal["beach_rows", "beachhead_only"] | None = None


class BfnScenarioSchema(ScenarioSchema):
    """A scenario of The Battle for Normandy (``system: bfn``)."""

    model_config = ConfigDict(extra="forbid", strict=True, title="normandy_lab scenario")

    system: Literal["bfn"]
    turn: Turn
    weather: Weather | None = None
    units: Annotated[list[BfnUnitSchema], Field(min_length=1)]
    options: BfnOptionsSchema | None = None  # type: ignore[assignment]
    # BfN's own section
    csp: Count = 0
    air: AirSchema | None = None
    beachheads: list[BeachheadSchema] | None = None
    mulberries: list[Text] | None = None
    pathfinders: list[HexId] | None = None
    german_supply_cities: list[SupplyCity] | None = None
