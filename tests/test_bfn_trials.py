"""Issue 33, section 1: the counterfactual trials of BfN's explanations share their searches.

A reason "out of range by 2 hexes" stands on trials: the side determined again with longer unit ranges
(7.3.1), its HQs' verdicts kept (:meth:`normandy_lab.rules.bfn.explain._Explainer.trial`).  Each trial
searched the same groups of targets to its own limits; now, after the first few, one search to twice the
limits asked (again, further, when a trial asks beyond) serves them, cut at each trial's limits (:class:`normandy_lab.rules.bfn.passes.AnyLength`).  What a trial gives must be exactly
what a search to its limits gives: every distance, verdict and attachment, and so every reason.
"""

from __future__ import annotations

import numpy as np
import pytest

import normandy_lab as nl
from normandy_lab.engine.lines import Situation
from normandy_lab.errors import RefusedError
from normandy_lab.rules.bfn import passes
from normandy_lab.rules.bfn.lines import Limits, TraceNet
from normandy_lab.rules.bfn.passes import AnyLength, determine_side
from normandy_lab.rules.bfn.supply import side_context

# Longer ranges as the explanations ask them (hexes, MP): a sixth of an MP, whole hexes, far beyond.
# Each past the last searched to, then one within it again.
EXTENSIONS = [(0.0, 1 / 6), (1.0, 1.0), (1.0, 0.5), (3.0, 2.5), (6.0, 6.0), (20.0, 20.0), (2.0, 1.5)]


def limits_of(state) -> Limits:
    """The state's unit and division HQ ranges (7.2, 7.3.1), halved in Heavy Rain and Storm (7.3.3)."""
    rules = state.rules
    factor = 0.5 if rules.weather_effects[state.weather]["supply_halved"] else 1.0
    return Limits(
        hexes=rules.supply["unit_range_hexes"] * factor,
        mp=rules.supply["unit_range_mp"] * factor,
        division=rules.supply["division_hq_range_mp"] * factor,
    )


def trial_record(verdicts) -> dict:
    """What a trial answers with: each unit's verdict and line lengths, the attachments, the distances."""
    found, attached = verdicts.unit_lines, verdicts.attachments
    return {
        "supplied": {u.id: verdicts.supplied(u.id) for u in verdicts.ctx.units},
        "traces": {
            unit_id: (t.supplied, t.kind, t.hexes, t.mp) for unit_id, t in sorted(verdicts.traces.items())
        },
        "attached_to": dict(attached.attached_to),
        "refused": dict(attached.refused),
        "places_taken": dict(attached.places_taken),
        "dist": found.ranges.dist.tolist(),
    }


@pytest.mark.parametrize("weather", ["Storm", "Clear"])
@pytest.mark.parametrize("scenario", ["bfn_1944-06-13_am", "bfn_1944-07-18_am"])
def test_a_trial_cut_from_the_shared_search_is_the_trial_searched_to_its_limits(scenario, weather, monkeypatch):
    monkeypatch.setattr(AnyLength, "FIRST_ALONE", 0)  # every trial from the shared search
    state = nl.load_scenario(scenario).evolve(weather=weather)
    situation = Situation.of(state)
    limits = limits_of(state)
    for side in ("allied", "german"):
        ctx = side_context(state, side, TraceNet(state, side, situation), limits, situation)
        det = determine_side(ctx)
        shared = AnyLength(det)
        for hexes, mp in EXTENSIONS:
            longer = ctx.with_limits(Limits(limits.hexes + hexes, limits.mp + mp, limits.division))
            searched = determine_side(longer, verdicts_only=True, hqs=det)
            cut = determine_side(longer, verdicts_only=True, hqs=det, any_length=shared)
            assert trial_record(cut) == trial_record(searched), (side, hexes, mp)
        assert shared._bound[0] >= limits.hexes + 20  # searched again, further: the trials asked beyond
        with pytest.raises(IndexError):  # a trial keeps no range: reading one fails, it is never empty
            cut.unit_lines.ranges.covered(0)
        with pytest.raises(RefusedError):  # it serves the trials of its own determination only
            determine_side(longer, verdicts_only=True, hqs=determine_side(ctx), any_length=shared)


def test_the_reasons_of_a_storm_are_those_of_trials_searched_to_their_limits(monkeypatch):
    """Every reason and verdict of a Storm's ~200 units out of supply, with and without the shared search."""
    from test_supply_kept import contents

    state = nl.load_scenario("bfn_1944-06-13_am").evolve(weather="Storm")
    shared = contents(state.rules.determine_supply(state))
    calls: list[int] = []

    def searched(self, ctx, groups, asked, limits):  # as before: each trial searched to its limits
        calls.append(1)
        wanted = [np.zeros(len(a), dtype=bool) for a in asked]
        return ctx.lines.ranges(groups, asked, ctx.at, limits, lines_wanted=wanted)

    monkeypatch.setattr(passes.AnyLength, "ranges", searched)
    alone = contents(state.rules.determine_supply(state))
    assert len(calls) > 20  # the explanations made their trials
    assert alone == shared


def test_the_attachments_kept_for_a_group_are_its_own_and_never_changed_by_a_reader():
    """7.2: the trials ask the same groups of units and HQs again; the answers kept are the flow's."""
    from normandy_lab.rules.bfn.attachment import AttachHQ, AttachOption, _solve_uncached, best_attachments

    # Four corps units that reach one division HQ (3 places, 7.2); two reach another HQ too.
    options = [
        AttachOption("u1", "A", 6, False), AttachOption("u2", "A", 7, False),
        AttachOption("u3", "A", 8, False), AttachOption("u4", "A", 9, False),
        AttachOption("u3", "B", 30, False), AttachOption("u4", "B", 31, False),
    ]  # fmt: skip
    hqs = [AttachHQ("A", 3, 1), AttachHQ("B", 3, 1)]
    first = best_attachments(hqs, options)
    assert first == _solve_uncached({hq.formation: hq for hq in hqs}, options)
    assert sorted(first) == ["u1", "u2", "u3", "u4"]  # the flow sends one of them to B
    first["u1"] = "changed by a reader"
    again = best_attachments(hqs, options)
    assert again["u1"] == "A"
    # Another HQ's places, the same options: another answer, not the kept one.
    one_place = best_attachments([AttachHQ("A", 1, 1), AttachHQ("B", 3, 1)], options)
    assert one_place == _solve_uncached({"A": AttachHQ("A", 1, 1), "B": AttachHQ("B", 3, 1)}, options)
    assert list(one_place.values()).count("A") == 1
