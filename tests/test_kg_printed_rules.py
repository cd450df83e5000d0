"""Rules the KG engine once played differently from the text (issue 29, section 1).

Each test quotes the rule it holds the engine to (a short phrase and its number in OVERLORD's section 26
or scenario 22.7) and works a case as a careful player would, from the rulebook alone.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

import normandy_lab as nl
from normandy_lab.engine.sequence import next_phase, step_to


@pytest.fixture(scope="module")
def t2():
    return nl.load_scenario("kg_1944-06-07_t02")


@pytest.fixture(scope="module")
def t3(t2):
    state = t2
    while state.turn == t2.turn:
        state = next_phase(state)
    return state


@pytest.fixture(scope="module")
def t14():
    return nl.load_scenario("kg_1944-06-19_t14")


def _placed(state, **hexes):
    """Return ``state`` with the units named (``id=hex``) standing active on those hexes."""
    where = {uid.replace("_", "-"): h for uid, h in hexes.items()}
    return state.evolve(
        units=tuple(
            replace(u, status="active", box=None, hex=where[u.id]) if u.id in where else u
            for u in state.units
        )
    )


def _band_hexes(state, cost: int) -> list[str]:
    """Return open hexes where a US corps HQ costs exactly ``cost`` SP beyond the radius (26.10.5)."""
    report = nl.supply(state.evolve(army_sp={**state.markers["army_sp"], "US": 9}))
    bands = {z.label.split(":")[1].split("(")[0].strip(): set(z.hexes) for z in report.zones()
             if z.label.startswith("US")}  # fmt: skip
    inner = bands["free"] if cost == 1 else bands[f"{cost - 1} SP"]
    occupied = {u.hex for u in state.units if u.status == "active"}
    found = []
    for h in sorted(bands[f"{cost} SP"] - inner - occupied):
        row = nl.supply(_placed(state.evolve(army_sp={**state.markers["army_sp"], "US": 9}), US_5CorpsHQ=h))
        if f"for {cost} SP" in row["US-5CorpsHQ"].traced_to:
            found.append(h)
            if len(found) == 2:
                break
    return found


# -- 26.10.1: the order HQs are paid in ----------------------------------------------------------------


def test_26_10_1_the_hqs_that_began_unsupported_are_paid_for_first(t3):
    """26.10.1: "Supporting HQs is a 2 part process": first "spend 1 SP to remove the Unsupported marker
    from each HQ unit that begins the segment marked Unsupported", then SP for the HQs beyond the radius.

    The US army holds 3 SP.  5 Corps HQ began the turn Unsupported and stands where the radius costs 2 SP;
    7 Corps HQ, unmarked, where it costs 1.  Part 1 lifts 5 Corps's marker (1 SP); part 2 pays its 2 SP:
    the army is spent and 7 Corps goes unsupported.  Paying the cheapest first would support 7 Corps
    instead.
    """
    two, one = _band_hexes(t3, 2)[0], _band_hexes(t3, 1)[0]
    state = _placed(t3, US_5CorpsHQ=two, US_7CorpsHQ=one).evolve(
        army_sp={**t3.markers["army_sp"], "US": 3}, hq_unsupported=("US-5CorpsHQ",)
    )
    report = nl.supply(state)
    assert report["US-5CorpsHQ"].general
    assert "after 1 SP lifted the Unsupported marker" in report["US-5CorpsHQ"].traced_to
    assert not report["US-7CorpsHQ"].general
    assert "would need 4 SP and holds 3" in report["US-7CorpsHQ"].reason  # 1 + 2 before it, 1 its own
    # The reason is true: with 4 SP both are supported.
    assert nl.supply(state.evolve(army_sp={**state.markers["army_sp"], "US": 4}))["US-7CorpsHQ"].general
    # The segment pays 3 SP and marks 7 Corps HQ.
    paid = step_to(state, "Corps and Artillery Support")
    assert paid.markers["army_sp"]["US"] == 0 and paid.markers["hq_unsupported"] == ("US-7CorpsHQ",)


def test_26_10_1_a_marker_not_lifted_for_want_of_sp_keeps_its_hq_unsupported(t3):
    """26.10.1: "If an army does not have enough SPs to do so, the HQs stay unsupported"."""
    free = _band_hexes(t3, 1)[0]
    state = _placed(t3, US_5CorpsHQ=free).evolve(
        army_sp={**t3.markers["army_sp"], "US": 0}, hq_unsupported=("US-5CorpsHQ",)
    )
    row = nl.supply(state)["US-5CorpsHQ"]
    assert not row.general and "lifting the markers comes first" in row.reason
    assert "would need 1 SP to lift this one and holds 0" in row.reason
