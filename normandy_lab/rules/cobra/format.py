"""Cobra's scenario file format: its schemas (:mod:`.schema`) and its section, marker by marker.

Each marker of the section is read and checked in :mod:`.section` (a
:class:`~normandy_lab.rules.section.Marker`): the same check a scenario file, a study's marker edit and an
explorer control get.
"""

from __future__ import annotations

from typing import Any

from normandy_lab.rules.cobra.schema import CobraScenarioSchema, CobraUnitSchema
from normandy_lab.rules.cobra.section import SECTION
from normandy_lab.rules.section import Marker, ScenarioFormat


def scenario_schema() -> Any:
    """Return Cobra's scenario schema (:mod:`.schema`)."""
    return CobraScenarioSchema


def unit_schema() -> Any:
    """Return Cobra's unit schema (:mod:`.schema`)."""
    return CobraUnitSchema


def section() -> tuple[Marker, ...]:
    """Return Cobra's section (:mod:`.section`)."""
    return tuple(SECTION)


FORMAT = ScenarioFormat(
    scenario_schema=scenario_schema,
    unit_schema=unit_schema,
    section=section,
    # Added with 9.1b's displacement: out of older fingerprints while at its default.
    late_markers=frozenset({"hq_displaced"}),
)
