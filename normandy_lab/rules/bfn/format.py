"""The Battle for Normandy's file format: its schemas (:mod:`.schema`), its section (:mod:`.scenario`).

BfN reads its section as a whole (the beachheads and their Mulberries, the air and AA points per map, the
supply cities, CSPs and pathfinders: :func:`.scenario.scenario_markers`) rather than marker by marker.
"""

from __future__ import annotations

from typing import Any

from normandy_lab.rules.bfn.scenario import scenario_markers
from normandy_lab.rules.bfn.schema import BfnScenarioSchema, BfnUnitSchema
from normandy_lab.rules.section import ScenarioFormat


def scenario_schema() -> Any:
    """Return BfN's scenario schema: the core narrowed to BfN, and its section (rules/bfn/schema.py)."""
    return BfnScenarioSchema


def unit_schema() -> Any:
    """Return BfN's unit schema: its unit types and sizes (3.4)."""
    return BfnUnitSchema


FORMAT = ScenarioFormat(scenario_schema=scenario_schema, unit_schema=unit_schema, read=scenario_markers)
