"""Issue 32, section 3: BfN's supply determination as passes returning records, and ``explain``'s record.

The passes (``rules/bfn/passes.py``) each return their result; the explanations read the side's record
(:class:`SideVerdicts`), and make an :class:`Explanation` per unit out of supply, from which the words
come.  A report names the chain its line runs through (``UnitSupply.via``) and the readings its verdict
rests on, for every unit.
"""

from __future__ import annotations

import dataclasses
import math

import pytest

import normandy_lab as nl
from normandy_lab.engine.reasons import ATTACHMENT_FULL, BLOCKED, CUT_OFF, HQ_OUT_OF_SUPPLY, OUT_OF_RANGE
from normandy_lab.engine.report import Explanation, UnitSupply
from normandy_lab.rules.bfn.passes import corps_hqs, determine_side, division_hqs
from normandy_lab.rules.bfn.supply import READING_KEYS


@pytest.fixture(scope="module")
def june13():
    state = nl.load_scenario("bfn_1944-06-13_am")
    return state, nl.supply(state)


@pytest.fixture(scope="module")
def storm():
    """1 July in a Storm (7.3.3): many units out, for every kind of reason."""
    state = nl.load_scenario("bfn_1944-07-01_am").evolve(weather="Storm")
    return state, nl.supply(state)


def test_each_pass_returns_its_result_and_the_driver_composes_them(june13):
    """7.2: the corps and division HQ passes, run on their own, give the report's verdicts."""
    state, report = june13
    for side, verdicts in report.determination.sides.items():
        ctx = verdicts.ctx
        corps = corps_hqs(ctx)
        divisions = division_hqs(ctx, corps)
        hqs = [u for u in state.units_of(side) if u.hq in ("corps", "division", "kg")]
        assert hqs
        for u in hqs:
            trace = corps.traces[u.id] if u.hq == "corps" else divisions.traces[u.id]
            assert trace.supplied == report[u.id].general, u.id
        again = determine_side(ctx)
        assert {uid: t.supplied for uid, t in again.traces.items()} == {
            u.id: report[u.id].general for u in state.units_of(side)
        }
        assert again.combat == {u.id: report[u.id].combat for u in state.units_of(side)}


def test_via_is_the_chain_of_hqs_to_a_source(june13):
    """7.2, 7.6.1: a unit's line runs unit -> HQ -> ... -> source; ``via`` names each step as data."""
    state, report = june13
    sources = {h for hexes in report.sources.values() for h in hexes}
    ids = {u.id for u in state.units}
    by_hq = 0
    for r in report.units.values():
        if not r.general:
            assert r.via == (), r.unit_id
            continue
        if r.traced_kind == "ship":  # not traced (the Attachment Reference Chart)
            continue
        assert r.via and r.via[0] == r.traced_id, r.unit_id
        for step, rest in zip(r.via, range(len(r.via)), strict=True):
            if step in ids:  # an HQ: its own chain is the rest of this one
                assert report[step].via == r.via[rest + 1 :], (r.unit_id, step)
        assert r.via[-1] in sources, r.unit_id
        by_hq += r.via[0] in ids and len(r.via) >= 2
    assert by_hq > 50


def test_every_report_names_the_readings_its_verdict_rests_on(june13):
    """Where the rulebook is open (rules.bfn.READINGS): every unit, in supply or not, says which reading."""
    _, report = june13
    assert all(set(r.readings) == set(READING_KEYS) for r in report.units.values())
    assert any(r.general for r in report.units.values())


def test_explain_gives_a_record_from_which_the_words_are_made(storm):
    """Each unit out of supply has an Explanation: what binds, the rule, the hex, the length and limit."""
    _, report = storm
    out = report.out_of_supply()
    assert len(out) > 20
    seen = set()
    for r in out:
        e = report.explain(r.unit_id)
        assert isinstance(e, Explanation), r.unit_id
        assert (e.code, e.rule, e.hex) == (r.code, r.rule, r.blocking_hex)
        # The units behind the binding hex; for full places, the units holding them.
        assert list(e.units) == r.blocking_units or e.binds == "places"
        assert e.weather_bound == r.weather_bound
        seen.add(e.binds)
        if e.binds == "range":
            assert e.code == OUT_OF_RANGE and e.shortfall > 0 and e.shortfall == r.shortfall
            assert e.shortfall_unit in ("hexes", "MP") and (e.limit in r.reason or "besieged" in r.reason)
            assert math.isfinite(e.length_mp) and e.length_mp == r.length_mp
        elif e.binds == "block":
            assert e.code == BLOCKED and any(b.binding and b.hex == e.hex for b in r.blocks)
            assert f"({e.rule}) is the cause" in r.reason
        elif e.binds == "ring":
            assert e.code == CUT_OFF and r.reason.startswith("cut off") and e.length_mp == math.inf
        elif e.binds == "hq":
            assert e.code == HQ_OUT_OF_SUPPLY and not report[e.hq].general
            assert r.reason.endswith(report[e.hq].reason)
        else:
            assert e.binds == "places" and e.code == ATTACHMENT_FULL and e.hq in r.reason
            assert e.units and all(uid in r.reason for uid in e.units)
    assert {"range", "hq"} <= seen
    assert all(report.explain(r.unit_id) is None for r in report.units.values() if r.general)


def test_a_unit_report_behaves_as_a_dataclass_and_refuses_unknown_fields():
    """``dataclasses.replace`` works (every field is a constructor keyword); a misspelt field is refused."""
    r = UnitSupply("X", "allied", "C2820", general=True, traced_kind="source", via=("C3413",))
    copy = dataclasses.replace(r, combat=True)
    assert copy.general and copy.combat and copy.via == ("C3413",) and copy.unit_id == "X"
    with pytest.raises(TypeError, match="no field 'genral'"):
        r.fill(genral=True)
    fields = dict(general=True, combat=False, isolated=True, limit="6 hexes or 6 MP (7.3.1)", length_hexes=3.0,
                  length_mp=4.5, path=["C2820", "C2821"], readings={"hq_bridging": "own_line"})
    made = UnitSupply.verdict("Y", "german", "C2820", traced_kind="source", traced_id="C2821", **fields)
    assert made == UnitSupply("Y", "german", "C2820", traced_kind="source", traced_id="C2821", **fields)
    r.exempt("6 June exception", "exempt", "7.5", "in supply by the 6 June exception (7.5)")
    assert r.general and r.combat and r.traced_to == "6 June exception (7.5)" and r.via == ()


def test_a_counterfactual_with_more_range_keeps_the_hq_verdicts_and_gives_the_full_verdicts(storm):
    """7.2, 7.3.1: longer unit ranges leave the HQs' lines as they are; the verdicts-only determination
    that reuses them (what a range reason's trials run) gives the same General Supply as a full one."""
    from normandy_lab.rules.bfn.lines import Limits

    _, report = storm
    base = report.determination.sides["allied"]
    limits = base.ctx.limits
    longer = base.ctx.with_limits(Limits(hexes=limits.hexes + 2, mp=limits.mp + 2, division=limits.division))
    quick = determine_side(longer, verdicts_only=True, hqs=base)
    full = determine_side(longer)
    assert {u: t.supplied for u, t in quick.traces.items()} == {u: t.supplied for u, t in full.traces.items()}
    assert quick.attachments.attached_to == full.attachments.attached_to
    gained = [u for u, t in full.traces.items() if t.supplied and not base.supplied(u)]
    assert gained  # the longer range does supply more units: the comparison is not empty
    other = base.ctx.with_limits(Limits(hexes=limits.hexes, mp=limits.mp, division=limits.division + 1))
    with pytest.raises(ValueError, match="division HQ range"):
        determine_side(other, verdicts_only=True, hqs=base)
