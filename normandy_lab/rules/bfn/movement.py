"""The Battle for Normandy's movement: costs (10.x, 7.5), leaving a zone of control (5.2), the allowance.

The engine moves units (:mod:`normandy_lab.engine.movement`: the search, the stop on entering an enemy
zone of control); this module is what BfN says each step costs (10.2 roads, the reconstructed 10.6
Terrain Effects Chart of :mod:`normandy_lab.rules.bfn.data`), what leaving an enemy zone of control costs
(5.2) and what interdiction, the phase, night, supply and isolation leave a unit to move with.
"""

from __future__ import annotations

import datetime as dt
import math

import numpy as np

from normandy_lab.engine.sequence import current_phase
from normandy_lab.engine.state import GameState, Unit
from normandy_lab.network import edge_arrays
from normandy_lab.rules.base import MoveCosts
from normandy_lab.terrain import ROAD_CLASSES, terrain_map


def edge_costs(state: GameState, unit: Unit, in_supply: bool, ma: float) -> MoveCosts:
    """Return the cost of every step for ``unit`` (10.x terrain and hexside costs, roads 10.2, 7.5).

    Off the roads, the terrain entered plus the water crossed (10.6; a missing entry prohibits the
    move: vehicles and streams, mechanized units and marsh).  Along a road or railway the terrain is
    negated; out of supply a road costs as a railway, 1 MP (7.5, 10.2).
    """
    rules = state.rules
    e = edge_arrays(state.system)
    parts = _map_parts(state.system)
    cls = "mechanized" if unit.mechanized else "infantry"
    destroyed = (
        parts.hexsides.isin(list(state.destroyed_bridges))
        if state.destroyed_bridges
        else np.zeros(len(parts.hexsides), dtype=bool)
    )
    bridged = (e.road_bridge | e.rail_bridge) & ~destroyed[e.side]
    water = parts.water
    on_road = (e.road > 0) & np.where(water, bridged, True)
    on_rail = e.railway.astype(bool) & (bridged | ~water)
    base = parts.label_costs(rules.terrain_cost[cls], ma)[e.dst]
    extra = parts.feature_costs(rules.terrain_cost["hexside"][cls], np.inf)
    off_road = np.where(parts.crossing, np.where(np.isinf(extra), ma, base + extra), base)
    off_road[np.isnan(base)] = np.nan
    road_cost = np.array([np.nan] + [float(rules.road_cost[c]) for c in ROAD_CLASSES[1:]])[e.road]
    along = np.where(in_supply & on_road, road_cost, 1.0)
    cost = np.where(on_road | on_rail, along, off_road)
    return MoveCosts(cost, parts.label, on_road, on_rail, parts.feature)


class _Labelled:
    """Labels (one per hex or per edge) as codes into their distinct values, for costs looked up by label.

    ``costs(table, all_value)`` is :func:`normandy_lab.engine.movement.lookup_costs` of the labels: each
    distinct label looked up once, not each row compared with each label (a step's costs were worked out
    for every unit selected and every move checked, issue 33, section 4).
    """

    def __init__(self, values: np.ndarray) -> None:
        self.distinct = list(dict.fromkeys(values.tolist()))
        index = {v: k for k, v in enumerate(self.distinct)}
        self.codes = np.array([index[v] for v in values.tolist()], dtype=np.int64)

    def costs(self, table: dict, all_value: float) -> np.ndarray:
        looked = np.full(len(self.distinct), np.nan)
        for k, label in enumerate(self.distinct):
            cost = table.get(label)
            if cost is not None:
                looked[k] = all_value if cost == "all" else float(cost)
        return looked[self.codes]


class _MapParts:
    """What a step's cost reads of the map and never changes with the state: found once per map."""

    def __init__(self, system: str) -> None:
        tmap = terrain_map(system, progress=False)
        e = edge_arrays(system)
        self.tmap, self.edges = tmap, e  # the tables these were found from (a new one: found again)
        settlement = tmap.hexes["settlement"].to_numpy()
        self.label = np.where(settlement == "City", "City", tmap.hexes["terrain"].to_numpy()).astype(object)
        names = tmap.hexsides["water_feature"].to_numpy()
        self.hexsides = tmap.hexsides.index
        self.water = e.water > 0
        feature = np.array([f if isinstance(f, str) else "" for f in names], dtype=object)[e.side]
        self.feature = np.where(self.water, feature, "")
        self.crossing = self.feature != ""
        for array in (self.label, self.feature, self.water, self.crossing):
            array.setflags(write=False)  # shared by every call's MoveCosts: read, never written
        self._labels, self._features = _Labelled(self.label), _Labelled(self.feature)

    def label_costs(self, table: dict, all_value: float) -> np.ndarray:
        """Return each hex's cost to enter by its terrain label (NaN: prohibited)."""
        return self._labels.costs(table, all_value)

    def feature_costs(self, table: dict, all_value: float) -> np.ndarray:
        """Return each edge's cost to cross its hexside's water feature (NaN: prohibited or none)."""
        return self._features.costs(table, all_value)


_PARTS: dict[str, _MapParts] = {}


def _map_parts(system: str) -> _MapParts:
    """Return the map's parts, found again when the terrain map or the edge table is another object."""
    parts = _PARTS.get(system)
    tmap, edges = terrain_map(system, progress=False), edge_arrays(system)
    if parts is None or parts.tmap is not tmap or parts.edges is not edges:
        parts = _PARTS[system] = _MapParts(system)
    return parts


def leaving_ezoc_cost(state: GameState, holding: bool) -> float:
    """Return the MP to leave an EZOC (5.2): 2, but none at night or when a friendly unit stays behind."""
    return 0.0 if state.turn == "Night" or holding else 2.0


def allowance(state: GameState, unit: Unit, in_supply: bool = True, isolated: bool = False) -> float:
    """Return the unit's movement allowance now, after interdiction, supply, night and phase.

    11.2: interdiction first; 10.5: in the Mechanized Movement phase only mechanized units move, at half
    (rounded up) unless a recon's light-blue MA; 10.7: Allied allowances halved at night until July;
    7.5: halved out of supply.

    7.5o: an isolated mechanized unit (no line of any length to a friendly
    corps HQ) has an allowance of 2, and none in the Mechanized Movement Phase.
    """
    rules = state.rules
    ma = float(unit.ma if unit.ma is not None else rules.unit_defaults[unit.type]["ma"])
    ma = max(0.0, ma - rules.air_ma_penalty(state, unit))  # BfN 11.2: before any other effect
    phase = current_phase(state)
    if phase.kind == "mech_movement":
        # 10.5: only mechanized units move; yellow MAs at half (rounded up), the light-blue MAs of
        # mechanized recon units at full allowance.
        full = bool(rules.unit_defaults.get(unit.type, {}).get("full_ma_in_mech_phase"))
        ma = (ma if full else math.ceil(ma / 2)) if unit.mechanized else 0.0
    night_until = dt.date.fromisoformat(state.options.get("night_halving_until", "1944-07-01"))
    if state.turn == "Night" and unit.side == "allied" and state.date < night_until:
        ma = math.ceil(ma / 2)
    if not in_supply:
        ma = math.ceil(ma / 2)
    if isolated and unit.mechanized:
        ma = 0.0 if phase.kind == "mech_movement" else 2.0
    return float(ma)
