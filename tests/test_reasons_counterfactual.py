"""Every reason the supply report gives is checked by changing the situation and determining supply again.

For each unit out of General Supply in every historical scenario, in fair
weather and in storm (BfN 7.3.3):

* ``blocked``: removing the named block (its enemy units, the units whose
  zone of control makes the hex, or bridging the hexside) brings the unit
  into supply (7.3, 5.4, 7.3.2); a block named only as "in the way" does not.
* ``out_of_range`` by X: X more range (7.3.1, or 7.2's 20 MP for a division
  HQ) supplies it.
* ``cut_off``: no range at all would: with every range a thousand it stays out.
* ``hq_out_of_supply``: supplying its HQ (the HQ's own shortfall added to the
  20 MP) supplies it.
* ``attachment_full``: more attachment places supply it (7.2, 20.3).

Nothing here is tested by the engine's own explanation code: every check is
a full re-determination with :func:`normandy_lab.supply`.
"""

from __future__ import annotations

import importlib
from dataclasses import replace

import numpy as np
import pytest

import normandy_lab as nl
from normandy_lab.engine.reasons import ATTACHMENT_FULL, BLOCKED, CUT_OFF, HQ_OUT_OF_SUPPLY, OUT_OF_RANGE
from normandy_lab.engine.scenario import historical_scenarios
from normandy_lab.engine.search import map_graph
from normandy_lab.network import edge_arrays
from normandy_lab.rules import ruleset

# The modules, not the functions of the same name that normandy_lab.engine exports.
lines_module = importlib.import_module("normandy_lab.rules.bfn.lines")

SCENARIOS = tuple(historical_scenarios())


def _supply_under(state, **changes):
    """Determine supply under a variant of the state's rules with some supply numbers changed."""
    variant = replace(
        state.rules, supply={**state.rules.supply, **changes}, variant=f"counterfactual {changes}"
    )
    return nl.supply(state.with_rules(variant))


def _supply_bridged(state, monkeypatch, near_hex: str, far_hex: str):
    """Determine supply with one more bridge, across the hexside between two hexes."""
    g = nl.grid(state.system)
    a, b = g.index(near_hex), g.index(far_hex)
    e = edge_arrays(state.system)
    edge = np.nonzero((e.src == a) & (e.dst == b))[0][0]
    both = np.nonzero(e.side == e.side[edge])[0]
    graph = map_graph(state.system)
    original = lines_module.supply_edge_costs

    def with_bridge(rules, destroyed):
        costs = original(rules, destroyed)
        open_, first = costs.open.copy(), costs.first.copy()
        open_[both], first[both] = True, False
        return replace(
            costs, open=open_, first=first, rev_open=open_[graph.rev_eid],
            rev_first=first[graph.rev_eid], fwd_first=first[graph.fwd_eid],
        )  # fmt: skip

    with monkeypatch.context() as patch:
        patch.setattr(lines_module, "supply_edge_costs", with_bridge)
        return nl.supply(state)


def _without(state, unit_ids):
    gone = set(unit_ids)
    return state.evolve(units=tuple(u for u in state.units if u.id not in gone))


def _remove_block(state, block, monkeypatch):
    """Return the supply report with one block removed, as the report describes it."""
    if block.kind == "water":
        return _supply_bridged(state, monkeypatch, block.near_hex, block.hex)
    if block.kind in ("enemy", "ezoc"):
        assert block.units, f"a {block.kind} block must name the units behind it"
        return nl.supply(_without(state, block.units))
    if block.kind == "interdicted":
        return nl.supply(state.evolve(interdicted_hexes=state.interdicted_hexes - {block.hex}))
    raise AssertionError(f"unexpected block kind {block.kind}")


def _states():
    for name in SCENARIOS:
        state = nl.load_scenario(name)
        halved = ruleset("bfn").weather_effects[state.weather]["supply_halved"]
        fair = "Overcast" if halved else state.weather
        yield pytest.param(name, fair, id=f"{name}-{fair}")
        yield pytest.param(name, "Storm", id=f"{name}-Storm")


def _determined(name: str, weather: str):
    """Return a scenario in a weather, its supply report, BfN's supply table and the weather's range factor."""
    state = nl.load_scenario(name).evolve(weather=weather)
    factor = 0.5 if ruleset("bfn").weather_effects[weather]["supply_halved"] else 1.0
    return state, nl.supply(state), ruleset("bfn").supply, factor


@pytest.mark.parametrize(("name", "weather"), list(_states()))
def test_every_reason_is_a_true_cause(name, weather, monkeypatch):
    state, report, base, factor = _determined(name, weather)
    wrong = []
    for r in report.out_of_supply():
        assert r.code, f"{r.unit_id} is out of supply with no reason code"
        assert r.reason and r.rule, r.unit_id
        unit = state.unit(r.unit_id)
        for block in r.blocks:
            terrain = nl.terrain_map("bfn", progress=False).hexes.at[block.hex, "terrain"]
            assert block.kind == "sea" or terrain != "Sea", (
                f"{r.unit_id}: a sea hex reported as a {block.kind}"
            )
            restored = _remove_block(state, block, monkeypatch)[r.unit_id].general
            if block.binding and not restored:
                wrong.append(f"{r.unit_id}: removing {block.words()} does not restore supply")
            if not block.binding and restored and r.code != BLOCKED:
                wrong.append(
                    f"{r.unit_id}: {block.words()} alone restores supply but is called only in the way"
                )
        if r.code == BLOCKED:
            assert any(b.binding for b in r.blocks), r.unit_id
        elif r.code == OUT_OF_RANGE:
            extra = r.shortfall / factor
            if unit.hq in ("division", "kg"):
                longer = {"division_hq_range_mp": base["division_hq_range_mp"] + extra}
            else:
                longer = {
                    "unit_range_hexes": int(base["unit_range_hexes"] + np.ceil(extra)),
                    "unit_range_mp": base["unit_range_mp"] + extra,
                }
            if "that HQ is out of supply" in r.reason:  # its best line is to its own HQ, out too
                longer["division_hq_range_mp"] = 1000
            if not _supply_under(state, **longer)[r.unit_id].general:
                wrong.append(f"{r.unit_id}: {r.shortfall:g} more range does not supply it ({r.reason})")
        elif r.code == CUT_OFF:
            after = _supply_under(state, unit_range_hexes=1000, unit_range_mp=1000, division_hq_range_mp=1000)
            if after[r.unit_id].general:
                wrong.append(f"{r.unit_id}: called cut off, but a longer range supplies it")
        elif r.code == HQ_OUT_OF_SUPPLY:
            hq = report.state.unit(next(u.id for u in state.units if u.hq and u.formation == unit.formation))
            hq_report = report[hq.id]
            if hq_report.code == OUT_OF_RANGE:
                after = _supply_under(
                    state,
                    division_hq_range_mp=base["division_hq_range_mp"] + hq_report.shortfall / factor,
                )
                if not after[r.unit_id].general:
                    wrong.append(f"{r.unit_id}: supplying its HQ {hq.id} does not supply it")
        elif r.code == ATTACHMENT_FULL:
            after = _supply_under(state, attach_limit=50, kg_attach_limit=50, attach_other_division=50)
            if not after[r.unit_id].general:
                wrong.append(f"{r.unit_id}: more attachment places do not supply it")
        else:
            wrong.append(f"{r.unit_id}: unknown code {r.code!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(("name", "weather"), list(_states()))
def test_every_range_shortfall_is_exact(name, weather):
    """BfN 7.2, 7.3.1, 15.1: a stated shortfall is the least extra range that supplies the unit.

    7.2 lets "up to three other units" attach to an in-supply division HQ ("one non-artillery unit from
    another division, but the remainder must be corps units"), and 15.1 makes companies corps units; so a
    unit's nearest way back into supply may be an HQ it would attach to, not its own HQ or a corps HQ.
    With one hex (or 1/6 MP) less than the shortfall the report gives, the unit must stay out: a reason
    that names a longer line than the one that binds overstates what the unit lacks.
    """
    state, report, base, factor = _determined(name, weather)
    wrong = []
    for r in report.out_of_supply():
        if r.code != OUT_OF_RANGE or "that HQ is out of supply" in r.reason:
            continue
        unit = state.unit(r.unit_id)
        if unit.hq in ("division", "kg"):
            shorter = {"division_hq_range_mp": base["division_hq_range_mp"] + (r.shortfall - 1 / 6) / factor}
        else:
            in_hexes = float(r.shortfall).is_integer() and "hex" in r.reason.split(":")[0]
            less = r.shortfall - (1 if in_hexes else 1 / 6)
            hexes = base["unit_range_hexes"] * factor + np.floor(less + 1e-9)
            shorter = {
                "unit_range_hexes": hexes / factor,
                "unit_range_mp": (base["unit_range_mp"] * factor + less) / factor,
            }
        if _supply_under(state, **shorter)[r.unit_id].general:
            wrong.append(
                f"{r.unit_id}: less than {r.shortfall:g} more range already supplies it ({r.reason})"
            )
    assert not wrong, "\n".join(wrong)
