"""The rules-agnostic engine: state, scenarios, zones of control, supply, movement, sequence of play."""

from __future__ import annotations

from normandy_lab.engine.scenario import ScenarioError, load_scenario, load_scenario_text
from normandy_lab.engine.state import GameState, Unit
from normandy_lab.engine.supply import SupplyReport, UnitSupply, supply
from normandy_lab.engine.zoc import ezoc, ezoc_coverage, hex_control

__all__ = [
    "GameState",
    "ScenarioError",
    "SupplyReport",
    "Unit",
    "UnitSupply",
    "ezoc",
    "ezoc_coverage",
    "hex_control",
    "load_scenario",
    "load_scenario_text",
    "supply",
]
