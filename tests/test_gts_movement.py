"""The Greatest Day: Utah Beach, movement (issue 30, section 1): each test named by its rule (1.2, 2.1-2.4).

On the small Utah state of ``tests/test_gts_rules.py`` and the real map's hexsides.  A step's base cost is
1 MP (the Terrain Effects Chart is a series table, not in the text); what the exclusive rules add is tested.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import normandy_lab as nl
from normandy_lab.engine.state import Unit
from normandy_lab.network import edge_arrays
from normandy_lab.rules.gts.data import OPTIONS
from normandy_lab.rules.gts.movement import movement_costs
from normandy_lab.rules.gts.schema import GtsOptionsSchema

SMALL = Path(__file__).parent / "data" / "gts_utah_1944-06-08_small.yaml"


@pytest.fixture(scope="module")
def june8():
    return nl.load_scenario(SMALL)


@pytest.fixture(scope="module")
def sides():
    """Each directed edge's hexside water feature, and the edge arrays."""
    e = edge_arrays("gts")
    hexsides = nl.terrain_map("gts", progress=False).hexsides
    return e, hexsides["water_feature"].fillna("").astype(str).to_numpy()[e.side]


def _unit(uid, mechanized=False):
    return Unit(
        id=uid, name=uid, side="allied", nationality="US", type="armor" if mechanized else "infantry",
        mechanized=mechanized, size="company", formation=None, corps=None, hq=None, hex="28.048", steps=1,
    )  # fmt: skip


def _open(costs):
    return ~np.isnan(costs.cost)


def test_2_2_3_a_stream_costs_infantry_2_more_and_stops_vehicles_off_the_road(june8, sides):
    """2.2.3: a Leg Unit crossing a Stream "without using a Road pays 2 additional movement points" (not
    in Column; Column is not modelled, so off the road a leg unit is not in it); vehicles "may not cross
    Streams except when using a Road"."""
    e, feature = sides
    leg = movement_costs(june8, _unit("L"))
    vehicle = movement_costs(june8, _unit("V", mechanized=True))
    stream_off_road = (feature == "Stream") & (e.road == 0) & _open(leg)
    stream_on_road = (feature == "Stream") & (e.road > 0) & _open(leg)
    assert stream_off_road.any() and stream_on_road.any()
    assert (leg.cost[stream_off_road] == 3).all()  # 1 MP (the chart's GAP) + 2
    assert (leg.cost[stream_on_road] == 1).all()  # along a road: no surcharge
    assert np.isnan(vehicle.cost[stream_off_road]).all()
    assert _open(vehicle)[stream_on_road].any()  # the road's stream "bridges" are just roads


def test_2_4_3_vehicles_do_not_cross_unimproved_railway_bridges(june8, sides):
    """2.4.3: "Vehicles cannot cross Railroad Bridges unless the Railroad Bridge is 'improved'".  Improving
    is an Engineer Action in play; the derived map and the scenario mark no bridge improved (GAP), so none
    is; a hexside with a road bridge too is crossed by the road."""
    e, feature = sides
    leg = movement_costs(june8, _unit("L"))
    vehicle = movement_costs(june8, _unit("V", mechanized=True))
    rail_only = e.rail_bridge & ~e.road_bridge & (feature == "River")
    assert rail_only.any() and _open(leg)[rail_only].any()  # men on foot cross (2.4.1: in Column)
    assert np.isnan(vehicle.cost[rail_only]).all()
    assert _open(vehicle)[e.road_bridge & (feature == "River")].any()  # road bridges stay open


def test_2_1_4_a_vehicle_enters_a_town_in_column_not_only_along_a_road(june8):
    """2.1.4: wheeled and tracked units "cannot enter or leave a Town hex unless in Column": a road is not
    asked (2.3.1: off the road, the base terrain cost).  Woods and Marsh still ask for the road (2.1.2, 2.1.7)."""
    e = edge_arrays("gts")
    terrain = nl.terrain_map("gts", progress=False).hexes["terrain"].astype(str).to_numpy()
    vehicle = movement_costs(june8, _unit("V", mechanized=True))
    into_town_off_road = (terrain[e.dst] == "Town") & (e.road == 0) & (terrain[e.src] == "Hedgerow")
    assert into_town_off_road.any() and _open(vehicle)[into_town_off_road].any()
    assert (vehicle.cost[into_town_off_road & _open(vehicle)] == 1).all()
    into_woods_off_road = (terrain[e.dst] == "Woods") & (e.road == 0)
    assert np.isnan(vehicle.cost[into_woods_off_road]).all()


def test_1_2_a_storm_doubles_movement_costs_unless_in_column_along_a_road(june8, sides):
    """1.2 (Storm): "Movement Point costs to enter a hex are doubled unless a Unit is in Column and moving
    along a Road/Railroad".  Reading ``storm_column``: ``along_roads`` (default) takes a step along a road
    or railway as in Column; ``never`` doubles every step."""
    e, feature = sides
    clear = movement_costs(june8, _unit("L"))
    storm_state = replace(june8, weather="Storm")
    storm = movement_costs(storm_state, _unit("L"))
    on_lines = (e.road > 0) | e.railway.astype(bool)
    ok = _open(clear)
    assert np.array_equal(_open(storm), ok)  # the same hexes open
    assert (storm.cost[ok & ~on_lines] == 2 * clear.cost[ok & ~on_lines]).all()
    assert (storm.cost[ok & on_lines] == clear.cost[ok & on_lines]).all()
    assert (storm.cost[ok & ~on_lines & (feature == "Stream")] == 6).all()  # the surcharge doubles too
    never = replace(storm_state, options={**storm_state.options, "storm_column": "never"})
    assert (movement_costs(never, _unit("L")).cost[ok] == 2 * clear.cost[ok]).all()
    assert OPTIONS["storm_column"] == "along_roads"
    assert GtsOptionsSchema(storm_column="never").storm_column == "never"
    with pytest.raises(ValueError):
        GtsOptionsSchema(storm_column="sometimes")


def test_2_3_4_2_3_5_raised_embankment_and_sunken_roads_double_leg_costs_off_column(june8, monkeypatch):
    """2.3.4: Embankment Roads "work exactly like Raised Roads/Railroads"; 2.3.3(4): a Leg Unit not in Column
    "must pay double the terrain cost"; 2.3.3(3): "Vehicle Units not in Column can never enter a hex with a
    Raised Road/Railroad".  No source places one (``data.RAISED_OR_SUNKEN_ROAD_HEXES`` is empty): set one
    here to hold the rule, and the map as shipped is unchanged."""
    from normandy_lab.rules.gts import data

    assert not data.RAISED_OR_SUNKEN_ROAD_HEXES
    e = edge_arrays("gts")
    g = nl.grid("gts")
    before_leg, before_car = movement_costs(june8, _unit("L")), movement_costs(june8, _unit("V", True))
    monkeypatch.setattr(data, "RAISED_OR_SUNKEN_ROAD_HEXES", frozenset({"30.029"}))  # a village on a road
    leg, car = movement_costs(june8, _unit("L")), movement_costs(june8, _unit("V", True))
    into = e.dst == g.index("30.029")
    off_road, on_road = into & (e.road == 0), into & (e.road > 0)
    assert off_road.any() and on_road.any()
    assert (leg.cost[off_road] == 2 * before_leg.cost[off_road]).all()
    assert (leg.cost[on_road] == before_leg.cost[on_road]).all()  # in Column along it (taken so on a road)
    assert np.isnan(car.cost[off_road]).all() and np.array_equal(car.cost[on_road], before_car.cost[on_road])
