"""The plug-in API: what a game package may use of the core, in one place.

A game (``normandy_lab/rules/<key>/``) subclasses :class:`RuleSet` and works on the state, the map and
the searches the core provides.  Every name it needs from outside its own folder is re-exported here;
anything with a leading underscore in the core is the core's own and may change without notice.  The
import contract (``.importlinter``, run by ``tests/test_import_contract.py``) holds the other half: the
core never imports a game, and the games never import each other.

The names, by room:

* the contract: :class:`RuleSet` (the base class a game fills in), :class:`RuleSystem` (the Protocol
  it satisfies), its value types (:class:`Phase`, :class:`SupplyState`,
  :class:`OffMapBox`, :class:`MoveCosts`, :class:`Disengaging`, :class:`AirRegion`,
  :class:`CalendarEntry`) and :func:`no_marker_edit`;
* how the game is shown: :class:`Look` (counters, colours, ring words, sectors) and :class:`ControlSpec`
  (the explorer's inputs), on the game's handle beside its rules (:mod:`normandy_lab.rules.game`);
* the state: :class:`GameState`, :class:`Unit`, :func:`other_side`;
* the map: :func:`grid` and :class:`HexGrid` (its dense index: :attr:`HexGrid.id_array`,
  :attr:`HexGrid.index_of`, :attr:`HexGrid.q` ...), :func:`game_map`, :func:`terrain_map`,
  :func:`edge_arrays`;
* positions and blocks, shared by every game: :class:`Situation`, :func:`blocked_mask`,
  :func:`interdicted_mask`, :func:`impassable`, :func:`in_play`, :func:`water_names`,
  :func:`zoc_mask`;
* searches: :func:`map_graph`, :class:`LayeredGraph` with :class:`Move` and :class:`Link`,
  :data:`FAR` (no line), :data:`SIXTHS` (sixths of an MP in a unit), :func:`as_mp`, :func:`as_hexes`,
  :data:`INF`;
* the report a game fills: :class:`SupplyReport`, :class:`UnitSupply`;
* the network its supply determination searched, for :func:`normandy_lab.supply_graph`:
  :class:`SupplyNet`, with :func:`plain_steps`, :func:`layered_steps` and :func:`plain_hex_net`;
* the scenario file: :class:`Checker` (``file:line: field`` errors), :class:`ScenarioError`,
  :func:`canonical_hex`, :func:`hex_list`, :func:`unit_from_entry`, :class:`StrictModel` (the base
  of a game's schema sections), :func:`line_of`.

Examples
--------
>>> from normandy_lab.rules.api import RuleSet, grid
>>> g = grid("bfn")
>>> int(g.index_of["A4118"]) == g.index("A4118")
True
"""

from __future__ import annotations

from normandy_lab.engine.layered import LayeredGraph, Link, Move
from normandy_lab.engine.lines import (
    INF,
    Situation,
    as_hexes,
    as_mp,
    blocked_mask,
    impassable,
    in_play,
    interdicted_mask,
    water_names,
)
from normandy_lab.engine.phase import Phase
from normandy_lab.engine.report import SupplyReport, UnitSupply
from normandy_lab.engine.scenario import Checker, ScenarioError, canonical_hex, hex_list, unit_from_entry
from normandy_lab.engine.search import FAR, SIXTHS, map_graph
from normandy_lab.engine.state import GameState, Unit, other_side
from normandy_lab.engine.zoc import zoc_mask
from normandy_lab.gamemap import game_map
from normandy_lab.grids import HexGrid, grid
from normandy_lab.network import edge_arrays
from normandy_lab.rules.base import (
    AirRegion,
    CalendarEntry,
    Disengaging,
    MoveCosts,
    OffMapBox,
    RuleSet,
    RuleSystem,
    SupplyState,
    no_marker_edit,
)
from normandy_lab.rules.common import hq_names_by_hex
from normandy_lab.rules.game import ControlSpec, Look
from normandy_lab.rules.supply_net import SupplyNet, layered_steps, plain_hex_net, plain_steps
from normandy_lab.schemas.fields import StrictModel
from normandy_lab.schemas.validation import line_of
from normandy_lab.terrain import terrain_map

__all__ = [
    "FAR",
    "INF",
    "SIXTHS",
    "AirRegion",
    "CalendarEntry",
    "Checker",
    "ControlSpec",
    "Disengaging",
    "GameState",
    "HexGrid",
    "LayeredGraph",
    "Link",
    "Look",
    "Move",
    "MoveCosts",
    "OffMapBox",
    "Phase",
    "RuleSet",
    "RuleSystem",
    "ScenarioError",
    "Situation",
    "StrictModel",
    "SupplyNet",
    "SupplyReport",
    "SupplyState",
    "Unit",
    "UnitSupply",
    "as_hexes",
    "as_mp",
    "blocked_mask",
    "canonical_hex",
    "edge_arrays",
    "game_map",
    "grid",
    "hex_list",
    "hq_names_by_hex",
    "impassable",
    "in_play",
    "interdicted_mask",
    "layered_steps",
    "line_of",
    "map_graph",
    "no_marker_edit",
    "other_side",
    "plain_hex_net",
    "plain_steps",
    "terrain_map",
    "unit_from_entry",
    "water_names",
    "zoc_mask",
]
