"""The real scenario: BfN, 13 June 1944, AM."""

from __future__ import annotations

from collections import Counter

import pytest

import normandy_lab as nl
from normandy_lab.engine import load_scenario, supply
from normandy_lab.engine.zoc import hex_control


@pytest.fixture(scope="module")
def state():
    return load_scenario("bfn_1944-06-13_am")


def test_it_loads_with_both_armies(state):
    sides = Counter(u.side for u in state.units)
    assert sides["allied"] >= 150 and sides["german"] >= 100
    assert {b.name for b in state.beachheads} == {"Utah", "Omaha", "Gold", "Juno", "Sword"}
    assert str(state.date) == "1944-06-13" and state.turn == "AM"


def test_every_unit_cites_a_source(state):
    assert all(u.source for u in state.units), [u.id for u in state.units if not u.source][:5]


@pytest.mark.parametrize(
    "formation",
    [
        "1st Infantry Division", "2nd Infantry Division", "29th Infantry Division", "4th Infantry Division",
        "90th Infantry Division", "82nd Airborne Division", "101st Airborne Division", "2nd Armored Division",
        "50th (Northumbrian) Infantry Division", "7th Armoured Division", "3rd Canadian Infantry Division",
        "3rd Infantry Division", "6th Airborne Division", "51st (Highland) Infantry Division",
    ],
)  # fmt: skip
def test_allied_divisions_are_there_with_their_hq(state, formation):
    units = [u for u in state.units if u.formation and formation.split(" (")[0] in u.formation]
    assert units, formation
    assert any(u.hq == "division" for u in units), formation


@pytest.mark.parametrize(
    "formation",
    [
        "709",
        "243",
        "91",
        "77",
        "352",
        "17. SS",
        "3. Fallschirm",
        "12. SS",
        "Lehr",
        "21. Panzer",
        "716",
        "2. Panzer",
    ],
)
def test_german_divisions_are_there(state, formation):
    assert any(u.formation and formation in u.formation for u in state.units_of("german")), formation


def test_corps_hqs(state):
    corps = {u.id for u in state.units if u.hq == "corps"}
    assert len([c for c in corps if c.startswith(("US", "UK", "CA"))]) >= 4
    assert len([c for c in corps if c.startswith("DE")]) >= 2


@pytest.mark.parametrize(
    ("place", "side"),
    [
        ("Carentan", "allied"),  # taken by the 101st on 12 June
        ("Caumont-l'Éventé", "allied"),  # reached by the US 1st Division on 12-13 June
        ("Villers-Bocage", "allied"),  # the 7th Armoured's lead there on the morning of the 13th
        ("Bayeux", "allied"),
        ("Sainte-Mère-Église", "allied"),
        ("Isigny-sur-Mer", "allied"),
        ("Ranville", "allied"),
        ("Tilly-sur-Seulles", "german"),  # Panzer Lehr
        ("Caen", "german"),
        ("Montebourg", "german"),
        ("Cherbourg", "german"),
        ("Saint-Lô", "german"),
        ("Lingèvres", "german"),
        ("Cristot", "german"),
    ],
)
def test_the_front_of_13_june(state, place, side):
    """The units' positions give each side the ground the histories say it held that morning."""
    g = nl.grid("bfn")
    control = hex_control(state)
    hex_id = g.locate(*nl.lookup(place))
    other = "german" if side == "allied" else "allied"
    assert control[g.index(hex_id)] != other, f"{place} ({hex_id}) is held by the {other} side"


def test_supply_runs_and_explains_every_failure(state):
    report = supply(state)
    assert len(report.units) == len(state.units)
    for r in report.out_of_supply():
        assert r.reason, r.unit_id
    supplied = sum(r.general for r in report.units.values()) / len(report.units)
    assert supplied > 0.5
