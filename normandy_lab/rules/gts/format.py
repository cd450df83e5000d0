"""The Greatest Day: Utah Beach's scenario file format: its schemas (:mod:`.schema`) and its section.

Each marker of the section is read and checked in :mod:`.section` (a
:class:`~normandy_lab.rules.section.Marker`): the same check a scenario file, a study's marker edit and an
explorer control get.
"""

from __future__ import annotations

from typing import Any

from normandy_lab.rules.gts.schema import GtsScenarioSchema, GtsUnitSchema
from normandy_lab.rules.gts.section import SECTION
from normandy_lab.rules.section import Marker, ScenarioFormat


def scenario_schema() -> Any:
    """Return The Greatest Day: Utah Beach's scenario schema (:mod:`.schema`)."""
    return GtsScenarioSchema


def unit_schema() -> Any:
    """Return The Greatest Day: Utah Beach's unit schema (:mod:`.schema`)."""
    return GtsUnitSchema


def section() -> tuple[Marker, ...]:
    """Return The Greatest Day: Utah Beach's section (:mod:`.section`)."""
    return tuple(SECTION)


FORMAT = ScenarioFormat(
    scenario_schema=scenario_schema,
    unit_schema=unit_schema,
    section=section,
    # Added with 4.4.3's sectors: out of older fingerprints while at its default (4.4.7's example hexes).
    late_markers=frozenset({"assault_force_markers"}),
)
