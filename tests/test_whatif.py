"""What-if comparisons (engine.whatif) and the terrain's bridge listing used by the teaching notebook."""

from __future__ import annotations

import pytest

import normandy_lab as nl
from normandy_lab.engine.edits import destroy_bridge, set_weather
from normandy_lab.engine.whatif import (
    cause,
    out_of_supply_counts,
    supply_changes,
    supply_summary,
    supply_table,
)

SCENARIO = "bfn_1944-06-13_am"


@pytest.fixture(scope="module")
def state():
    return nl.load_scenario(SCENARIO)


def test_supply_table_has_one_row_per_unit_and_a_cause_for_every_unit_out_of_supply(state):
    table = supply_table(nl.supply(state))
    assert len(table) == len(state.units)
    out = table[~table.general]
    assert (out["cause"] != "").all() and (out["code"] != "").all() and (out["rule"] != "").all()
    assert (table.loc[table.general, "cause"] == "").all()


def test_cause_is_read_from_the_code_and_the_binding_block(state):
    report = nl.supply(state)
    for r in report.out_of_supply():
        said = cause(r)
        assert said and said != r.code
        if r.code == "blocked":
            binding = next(b for b in r.blocks if b.binding)
            assert (
                said
                == {
                    "water": "unbridged river or stream (7.3.2)",
                    "ezoc": "enemy zone of control (5.4, 7.3)",
                    "enemy": "enemy unit on the line (7.3)",
                    "interdicted": "interdicted hex (what-if)",
                }[binding.kind]
            )
    assert all(cause(r) == "" for r in report.units.values() if r.general)


def test_supply_summary_counts_every_unit_out_once(state):
    report = nl.supply(state)
    line = supply_summary(report)
    out = len(report.out_of_supply())
    assert line.startswith(f"{out} of {len(report.units)} out of General Supply: ")
    counted = [int(part.strip().split()[0]) for part in line.split(": ", 1)[1].split(".")[0].split(";")]
    assert sum(counted) == out


def test_a_storm_halves_ranges_so_more_units_are_out_of_supply(state):
    """7.3.3: ranges halved in Storm; no unit gains supply from bad weather."""
    storm = set_weather(state, "Storm")
    before, after = out_of_supply_counts(state), out_of_supply_counts(storm)
    assert after["allied"] > before["allied"] and after["german"] >= before["german"]
    changes = supply_changes(state, storm)
    lost = changes[changes["general_before"] != changes["general_after"]]
    assert len(lost) == sum(after.values()) - sum(before.values())
    assert not lost["general_after"].any()


def test_no_change_means_an_empty_comparison(state):
    assert supply_changes(state, state).empty


def test_bridges_over_a_named_river(state):
    tmap = nl.terrain_map("bfn", progress=False)
    vire = tmap.bridges("Vire")
    assert len(vire) >= 10 and set(vire["water_name"]) == {"Vire"}
    assert len(tmap.bridges()) > len(vire)
    with pytest.raises(KeyError, match="no water named 'Vyre'"):
        tmap.bridges("Vyre")
    # Destroying all of them never puts a unit back into supply (7.3.2).
    cut = state
    for a, b in zip(vire.a, vire.b, strict=True):
        cut = destroy_bridge(cut, a, b)
    changes = supply_changes(state, cut)
    assert not changes["general_after"].any() and len(changes) > 0
