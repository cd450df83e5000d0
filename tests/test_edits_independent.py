"""An added unit declared independent (BfN 7.2: a formation with no HQ of its own) may have no formation.

The check of what a scenario may hold sorts the state's formations with the added unit's; a unit with no
formation once put ``None`` among them, and the sort failed with a TypeError instead of adding the unit.
"""

from __future__ import annotations

from dataclasses import replace

from normandy_lab.engine import load_scenario
from normandy_lab.engine.edits import add_unit


def test_an_independent_unit_without_a_formation_is_added():
    """BfN 7.2: a unit outside any formation needs no HQ; marked independent, it is added like any other."""
    state = load_scenario("bfn_1944-06-13_am")
    alone = next(u for u in state.units if u.formation is None and u.status == "active")
    added = add_unit(state, replace(alone, id="X-ALONE-1"), independent_formation=True)
    assert [u.id for u in added.units] == [*(u.id for u in state.units), "X-ALONE-1"]
    assert added.unit("X-ALONE-1").formation is None
