"""Issue 33, section 4: the supply reports and movement searches kept for the last few states.

An undo shows a state determined a moment ago and a move reads the supply of the state it starts from, so
the engine keeps what it worked out for the last few state objects a session shows
(:mod:`normandy_lab.engine.recent`); any other state is worked out at every call.
What is served from there must be exactly what a new determination gives (every verdict, line, reason,
block and candidate, as the supply snapshot records them), and never for another state: not for an equal
state that is another object, not for the same units under another weather, a cut bridge or an
interdicted hex, not under a rule system registered again.  Only between two states a session shows that
differ in nothing the game's supply reads (BfN's phase, ``RuleSet.supply_ignores``) is one determination
shared (issue 33, section 1).
"""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import pytest

import normandy_lab as nl
from normandy_lab.engine import movement
from normandy_lab.engine.edits import apply_edit
from normandy_lab.engine.reasons import HQ_OUT_OF_SUPPLY, OUT_OF_RANGE
from normandy_lab.engine.recent import keep_for, kept_for
from normandy_lab.engine.supply import KEPT, supply
from normandy_lab.session import Session

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("snapshot_supply", ROOT / "scripts" / "snapshot_supply.py")
snapshot_supply = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(snapshot_supply)

SMALL = "bfn_1944-06-13_am"
MOVER = "CA-2CAB-1H"


def contents_of(row) -> dict:
    """One unit's verdict, line, reason, blocks and candidates, as the supply snapshot records them."""
    entry = {name: snapshot_supply._plain(getattr(row, name)) for name in snapshot_supply.FIELDS}
    entry["blocks"] = snapshot_supply._plain(list(row.blocks))
    return entry


def contents(report) -> dict:
    """Every unit's verdict, line, reason, blocks and candidates, and the HQ ranges (the snapshot's record)."""
    units = {unit_id: contents_of(report[unit_id]) for unit_id in sorted(report.units)}
    ranges = {side: names.tolist() for side, names in sorted(report.hq_ranges_at().items())}
    return {"units": units, "ranges": ranges}


def fresh(state) -> dict:
    """What a new determination of ``state`` gives (the rule system asked directly, nothing kept)."""
    return contents(state.rules.determine_supply(state))


def a_bridge() -> list[str]:
    orne = nl.terrain_map("bfn", progress=False).bridges("Orne")
    return [str(orne.a.iloc[0]), str(orne.b.iloc[0])]


@pytest.fixture(scope="module")
def june13():
    state = nl.load_scenario(SMALL)
    keep_for(state)  # as a session marks each state it shows
    return state


def kept(state):
    keep_for(state)
    return state


def test_the_same_state_gets_the_same_report_and_an_equal_state_its_own(june13):
    report = supply(june13)
    assert supply(june13) is report
    twin = kept(nl.load_scenario(SMALL))  # equal, another object
    assert twin is not june13
    assert supply(twin) is not report
    assert contents(supply(twin)) == contents(report) == fresh(june13)


def test_a_state_no_session_shows_is_determined_at_every_call():
    """A test that changes the map's tables in place between two calls on one state sees the change."""
    state = nl.load_scenario(SMALL)
    assert not kept_for(state)
    first = supply(state)
    assert supply(state) is not first
    assert movement._reach(state, state.unit(MOVER), True, False) is not movement._reach(
        state, state.unit(MOVER), True, False
    )


@pytest.mark.parametrize(
    "edit",
    [
        {"op": "weather", "weather": "Storm"},
        {"op": "move", "unit": MOVER, "to": "C3327"},
        {"op": "destroy_bridge", "hexside": "BRIDGE"},
        {"op": "interdict", "hex": "C3127"},
    ],
    ids=["weather", "move", "bridge", "interdict"],
)
def test_an_edit_then_undo_shows_the_report_of_the_state_before_identical_to_a_new_one(edit):
    edit = {**edit, "hexside": a_bridge()} if edit.get("hexside") == "BRIDGE" else edit
    session = Session(SMALL)
    before_state, before = session.state, session.report
    recorded = contents(before)
    assert session.apply(edit), session.message
    after = session.report
    assert after is not before and after.state is session.state
    assert contents(after) == fresh(session.state)
    assert session.undo()
    assert session.state is before_state and session.report is before
    assert supply(before_state) is before  # kept by the engine too: a move of it reads this report
    assert contents(session.report) == recorded == fresh(nl.load_scenario(SMALL))


def test_a_kept_report_is_never_served_for_another_state(june13):
    shown = supply(june13)
    fair = contents(shown)
    others = {
        "storm": kept(june13.evolve(weather="Storm")),
        "bridge cut": kept(apply_edit(june13, {"op": "destroy_bridge", "hexside": a_bridge()})),
        "hex interdicted": kept(apply_edit(june13, {"op": "interdict", "hex": "C3127"})),
        "the same units, the same weather": kept(june13.evolve(weather=june13.weather)),
    }
    for name, state in others.items():
        assert [u.id for u in state.units] == [u.id for u in june13.units], name
        report = supply(state)
        assert report is not shown and report.state is state, name
        assert contents(report) == fresh(state), name
    # The storm changes verdicts (7.3.3): a report served for the wrong state would show.
    assert contents(supply(others["storm"])) != fair


def test_a_game_registered_again_is_determined_afresh(june13, monkeypatch):
    import normandy_lab.rules as registry

    shown = supply(june13)
    again = dataclasses.replace(june13.rules)  # another rule system object, the same rules
    real_get = registry.get
    monkeypatch.setattr(registry, "get", lambda system: again if system == june13.system else real_get(system))
    assert june13.rules is again
    report = supply(june13)
    assert report is not shown
    assert contents(report) == contents(shown)


def test_only_the_last_few_states_are_kept(june13):
    first = kept(nl.load_scenario(SMALL))
    report = supply(first)
    assert supply(first) is report
    hexes = ["C3127", "C3128", "C3227", "C3228", "C3327", "C3027", "C3028"]
    for k in range(KEPT):  # KEPT other states asked about since, none equal to it but for the phase
        supply(kept(apply_edit(first, {"op": "interdict", "hex": hexes[k]})))
    again = supply(first)
    assert again is not report and again.units is not report.units  # determined again
    assert contents(again) == contents(report)


# -- issue 33, section 1: a report shared by the states that differ only in what the game's supply ignores


def shared(a, b) -> bool:
    """Whether two reports share their units' reports (one determination, its reasons worked out once)."""
    return a.units is b.units


def test_a_step_that_changes_nothing_else_shows_the_reasons_already_worked_out():
    """BfN's supply never reads the phase (7.2-7.6): a step in a Storm, which moves no unit, shows the
    verdicts and reasons of the phase before, read once, told of the new state."""
    session = Session(SMALL)
    assert session.apply({"op": "weather", "weather": "Storm"}), session.message
    storm = session.report
    assert len(storm.out_of_supply()) > 100  # a Storm's ~200 reasons: what a class kernel explained twice
    state = session.state
    session.step()
    assert session.state.phase_index != state.phase_index and session.state.turn == state.turn
    report = session.report
    assert report is not storm and report.state is session.state
    assert shared(report, storm)
    assert contents(report) == fresh(session.state) == fresh(state)


def test_a_report_is_never_shared_with_a_state_that_differs_in_what_supply_reads(june13):
    shown = supply(june13)
    later = kept(june13.evolve(phase_index=june13.phase_index + 1))
    assert shared(supply(later), shown) and contents(supply(later)) == fresh(later)
    moved = kept(apply_edit(june13, {"op": "move", "unit": MOVER, "to": "C3327"}))
    others = {
        "storm": kept(june13.evolve(weather="Storm")),
        "bridge cut": kept(apply_edit(june13, {"op": "destroy_bridge", "hexside": a_bridge()})),
        "hex interdicted": kept(apply_edit(june13, {"op": "interdict", "hex": "C3127"})),
        "a unit moved": moved,
        "another turn": kept(june13.evolve(turn="PM")),
        "the storm, a phase later": kept(june13.evolve(weather="Storm", phase_index=june13.phase_index + 1)),
        "the unit moved, a phase later": kept(moved.evolve(phase_index=moved.phase_index + 1)),
    }
    for name, state in others.items():
        report = supply(state)
        for other in others.values():
            if other is not state and other.evolve(phase_index=state.phase_index) == state:
                continue  # the phase-later twins: equal but for the phase, they may share
            assert other is state or not shared(report, supply(other)), name
        assert not shared(report, shown), name
        assert contents(report) == fresh(state), name
    # A phase later, the storm and the move share with their own state only.
    assert shared(supply(others["the storm, a phase later"]), supply(others["storm"]))
    assert shared(supply(others["the unit moved, a phase later"]), supply(moved))


def test_a_report_is_shared_only_between_states_a_session_shows_under_one_rule_system(june13, monkeypatch):
    import normandy_lab.rules as registry
    from normandy_lab.rules.bfn.system import BfnRules

    shown = supply(june13)
    unmarked = june13.evolve(phase_index=june13.phase_index + 1)  # no session shows it
    assert not shared(supply(unmarked), shown)
    again = dataclasses.replace(june13.rules)  # a game registered again: its answers are its own
    real_get = registry.get
    with monkeypatch.context() as patch:
        patch.setattr(registry, "get", lambda system: again if system == june13.system else real_get(system))
        assert not shared(supply(kept(june13.evolve(phase_index=june13.phase_index + 2))), shown)
    with monkeypatch.context() as patch:  # a game whose supply may read every field shares nothing
        patch.setattr(BfnRules, "supply_ignores", frozenset())
        assert not shared(supply(kept(june13.evolve(phase_index=june13.phase_index + 3))), shown)


def test_a_kept_movement_search_is_the_search_of_that_state_only(june13):
    report = supply(june13)
    row = report[MOVER]
    reach = movement.movement_range(june13, MOVER)
    assert movement.movement_range(june13, MOVER, row.general, row.isolated) == reach
    unit = june13.unit(MOVER)
    assert movement._reach(june13, unit, row.general, row.isolated) is movement._reach(
        june13, unit, row.general, row.isolated
    )
    moved = kept(apply_edit(june13, {"op": "move", "unit": MOVER, "to": "C3327"}))
    cut = kept(apply_edit(june13, {"op": "destroy_bridge", "hexside": a_bridge()}))
    for state in (moved, cut, kept(june13.evolve(weather="Storm"))):
        found = movement.movement_range(state, MOVER)
        in_supply, isolated = supply(state)[MOVER].general, supply(state)[MOVER].isolated
        searched, _ = movement._search(state, state.unit(MOVER), in_supply, isolated)
        ids = nl.grid(state.system).id_array
        assert set(found) <= {str(ids[i]) for i in searched}
        assert all(found[str(ids[i])] == cost for i, (cost, _) in searched.items() if str(ids[i]) in found)
    assert movement.movement_range(moved, MOVER) != reach  # it moved: another range


def test_a_unit_read_first_is_explained_alone_with_the_reason_the_whole_side_gives_it():
    """BfN's reasons are worked out when first read: the first unit alone (what the side panel reads), with
    what its reason stands on (its HQ's reason), then the rest of its side at once.  Every reason is the
    one explaining the whole side gives, whichever unit is read first (7.2, 7.3)."""
    state = nl.load_scenario(SMALL).evolve(weather="Storm")  # ~200 units out of supply (7.3.3)
    whole = fresh(state)["units"]
    out = [u for u, row in whole.items() if row["general"] is False]
    codes = sorted({whole[u]["code"] for u in out})
    assert {HQ_OUT_OF_SUPPLY, OUT_OF_RANGE} <= set(codes)  # units whose reason is their HQ's, and others
    firsts = [next(u for u in out if whole[u]["code"] == code) for code in codes]
    firsts.append(next(u for u in out if state.unit(u).hq))  # an HQ first
    for unit_id in firsts:
        report = state.rules.determine_supply(state)
        assert contents_of(report[unit_id]) == whole[unit_id], unit_id  # read alone, first
        # ... and alone: most of the side's reasons are still to be worked out (a Storm's took 0.5 s).
        waiting = [u for u in out if report.units[u].__dict__["_pending"] is not None]
        assert len(waiting) > len(out) // 2, unit_id
        assert contents(report)["units"] == whole, unit_id  # then every other unit


def test_bfn_s_determination_reads_none_of_the_fields_it_declares_ignored(june13):
    """The ground of the sharing above: BfN's supply (7.2-7.6) is the same in every phase of the turn and
    under any seed or draws, so ``BfnRules.supply_ignores`` may name them.  Each phase is determined afresh,
    nothing kept; were a phase read (a phasing side's EZOC, say), one of them would differ."""
    from normandy_lab.rules.bfn.system import BfnRules

    assert BfnRules.supply_ignores == {"phase_index", "seed", "draws", "log"}
    first = fresh(june13)
    phases = len(june13.rules.sequence[june13.turn])
    assert phases > 1
    for index in range(phases):
        if index != june13.phase_index:
            assert fresh(june13.evolve(phase_index=index)) == first, index
    assert fresh(june13.evolve(seed=june13.seed + 1, draws=june13.draws + 7)) == first
