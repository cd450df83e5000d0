"""The Killing Ground's scenario file format: its schemas (:mod:`.schema`) and its section, marker by marker.

Each marker of the section is read and checked in :mod:`.section` (a
:class:`~normandy_lab.rules.section.Marker`): the same check a scenario file, a study's marker edit and an
explorer control get.
"""

from __future__ import annotations

from typing import Any

from normandy_lab.rules.kg.schema import KgScenarioSchema, KgUnitSchema
from normandy_lab.rules.kg.section import SECTION
from normandy_lab.rules.section import Marker, ScenarioFormat


def scenario_schema() -> Any:
    """Return The Killing Ground's scenario schema (:mod:`.schema`)."""
    return KgScenarioSchema


def unit_schema() -> Any:
    """Return The Killing Ground's unit schema (:mod:`.schema`)."""
    return KgUnitSchema


def section() -> tuple[Marker, ...]:
    """Return The Killing Ground's section (:mod:`.section`)."""
    return tuple(SECTION)


FORMAT = ScenarioFormat(
    scenario_schema=scenario_schema,
    unit_schema=unit_schema,
    section=section,
    # Added with 26.10.2's depot row, 26.10.7's rail SP and 26.10.1's payment: out of older fingerprints.
    late_markers=frozenset({
        "depot_sp", "cherbourg_rail_on", "hq_support_paid", "hq_unsupported", "air_rail_value",
        "rail_capacity", "rail_interdiction_level", "depot_improve", "rail_moves", "reinforcement_track",
    }),
)  # fmt: skip
