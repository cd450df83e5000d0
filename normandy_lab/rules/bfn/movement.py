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
    from normandy_lab.engine.movement import lookup_costs

    rules = state.rules
    tmap = terrain_map(state.system, progress=False)
    e = edge_arrays(state.system)
    cls = "mechanized" if unit.mechanized else "infantry"
    settlement = tmap.hexes["settlement"].to_numpy()
    label = np.where(settlement == "City", "City", tmap.hexes["terrain"].to_numpy()).astype(object)
    names = tmap.hexsides["water_feature"].to_numpy()
    destroyed = (
        tmap.hexsides.index.isin(list(state.destroyed_bridges))
        if state.destroyed_bridges
        else np.zeros(len(names), dtype=bool)
    )
    bridged = (e.road_bridge | e.rail_bridge) & ~destroyed[e.side]
    water = e.water > 0
    on_road = (e.road > 0) & np.where(water, bridged, True)
    on_rail = e.railway.astype(bool) & (bridged | ~water)
    base = lookup_costs(label, rules.terrain_cost[cls], ma)[e.dst]
    feature = np.array([f if isinstance(f, str) else "" for f in names], dtype=object)[e.side]
    feature = np.where(water, feature, "")
    crossing = feature != ""
    extra = lookup_costs(feature, rules.terrain_cost["hexside"][cls], np.inf)
    off_road = np.where(crossing, np.where(np.isinf(extra), ma, base + extra), base)
    off_road[np.isnan(base)] = np.nan
    road_cost = np.array([np.nan] + [float(rules.road_cost[c]) for c in ROAD_CLASSES[1:]])[e.road]
    along = np.where(in_supply & on_road, road_cost, 1.0)
    cost = np.where(on_road | on_rail, along, off_road)
    return MoveCosts(cost, label, on_road, on_rail, feature)


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
    from normandy_lab.engine.sequence import current_phase

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
