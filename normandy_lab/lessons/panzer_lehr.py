"""Lesson 2: which bridge would have starved Panzer Lehr on 13 June 1944, and what the air forces really hit.

The game's answer is a small interdiction study of *The Battle for Normandy*'s 13 June scenario
(:mod:`normandy_lab.interdiction`): the bridges that any line of the Panzer-Lehr-Division's units or of the
HQs they trace to crosses are the only ones whose cut alone could change its supply (the coverage bound);
an exact search over those few finds the best one, and :func:`best_pair` the best pair, with the division's
units out of General Supply as the measure (7.2, 7.3.2: a line crosses unbridged water only on the unit's
own first step).  History beside it: the bridge attacks up to 13 June in ``maps/history/bridge_attacks.yaml``,
with their sources, cut together on the same scenario.
"""

from __future__ import annotations

import html
import inspect
from functools import cache
from typing import Any

import pandas as pd

from normandy_lab.lessons.base import Exercise, Lesson, sources_html, table

SCENARIO = "bfn_1944-06-13_am"
#: The division, as the scenario's units name their formation.
DIVISION = "Panzer-Lehr-Division"
#: The most bridges cut together (an exact search over the shortlist: its pairs are a few dozen).
MOST_CUTS = 2


def division_out(units: frozenset[str]) -> Any:
    """Return the objective: how many of these units a supply report puts out of General Supply."""

    def division_units_out(report: Any, side: str) -> float:
        return float(sum(1 for u in units if u in report.units and not report.units[u].general))

    return division_units_out


def best_pair(state: Any, shortlist: list[Any], units: frozenset[str]) -> dict[str, Any]:
    """Find the pair of bridges that puts most of ``units`` out, trying every pair that can matter.

    A second cut changes a verdict only if it lies on a line the first cut left (7.2, 7.3.2), so for each
    bridge of ``shortlist`` (those the units' lines cross now) the pairs tried are that bridge and each
    bridge a line crosses once it is cut: every pair that can do better than one cut, and no other.

    Returns
    -------
    dict
        ``picks`` (the two targets), ``out`` (the units put out), ``tried`` (the pairs evaluated).
    """
    import normandy_lab as nl
    from normandy_lab.interdiction import targets
    from normandy_lab.interdiction.search import coverage_bound

    bridges = targets(state, "bridges")
    best: dict[str, Any] = {"picks": [], "out": [], "tried": 0}
    seen: set[frozenset[str]] = set()
    for first in shortlist:
        after = first.cut(state)
        report = nl.supply(after)
        _, crossed = coverage_bound(report, "german", bridges, 1, units=units)
        for second, n in zip(bridges, crossed, strict=True):
            key = frozenset((first.key, second.key))
            if n == 0 or second.key == first.key or key in seen:
                continue
            seen.add(key)
            both = nl.supply(second.cut(after))
            out = sorted(u for u in units if u in both.units and not both.units[u].general)
            best["tried"] += 1
            if len(out) > len(best["out"]):
                best.update(picks=[first, second], out=out)
    return best


@cache
def _attack_sources() -> dict[str, str]:
    """Return the bridge attacks' source keys and their full citations."""
    import yaml

    from normandy_lab.interdiction.history import ATTACKS_FILE

    return dict(yaml.safe_load(ATTACKS_FILE.read_text(encoding="utf-8"))["sources"])


def study() -> dict[str, Any]:
    """Work out the game's answer and the historical attacks' effect on the division.

    Returns
    -------
    dict
        ``state``, ``units`` (the division's unit ids), ``hq_line`` (what its HQ traces to), ``shortlist``
        (the bridges its lines cross), ``bound`` (the most units any one cut of them could put out),
        ``single`` (the best single cut, an :class:`~normandy_lab.interdiction.InterdictionResult`),
        ``pair`` (the best pair, :func:`best_pair`),
        ``attacks`` (the attacks up to the scenario's date found on the map), ``history_units`` and
        ``history_german`` (the division's and the whole German side's units put out by cutting every attacked
        bridge), ``summary`` (the engine's account of the scenario).
    """
    import normandy_lab as nl
    from normandy_lab.engine.whatif import supply_summary
    from normandy_lab.interdiction import Target, targets
    from normandy_lab.interdiction.history import historical_targets
    from normandy_lab.interdiction.search import coverage_bound

    state = nl.load_scenario(SCENARIO)
    report = nl.supply(state)
    units = frozenset(u.id for u in state.units if u.formation == DIVISION)
    if not units:
        raise LookupError(f"{SCENARIO}: no unit of the formation {DIVISION!r}")
    bridges = targets(state, "bridges")
    bound, crossed = coverage_bound(report, "german", bridges, 1, units=units)
    shortlist = [b for b, n in zip(bridges, crossed, strict=True) if n > 0]
    objective = division_out(units)
    options = (
        {"progress": False}
        if "progress" in inspect.signature(nl.interdiction.best_targets).parameters
        else {}
    )
    single = nl.interdiction.best_targets(
        state, "german", 1, candidates=shortlist, objective=objective, method="exact", **options
    )
    pair = best_pair(state, shortlist, units)
    attacks = historical_targets(state)
    keys = sorted(set(attacks["target"]))
    standing = state.evolve(destroyed_bridges=state.destroyed_bridges - set(keys))
    cut = standing
    for key in keys:
        cut = Target("bridge", key).cut(cut)
    before, after = nl.supply(standing), nl.supply(cut)
    hq = (
        next(u for u in sorted(units) if state.unit(u).type == "hq")
        if any(state.unit(u).type == "hq" for u in units)
        else None
    )
    return {
        "state": state,
        "report": report,
        "units": units,
        "hq": hq,
        "hq_line": report[hq].traced_to if hq else "",
        "shortlist": shortlist,
        "crossed": {b.key: n for b, n in zip(bridges, crossed, strict=True) if n > 0},
        "bound": bound,
        "single": single,
        "pair": pair,
        "attacks": attacks,
        "history_units": int(objective(after, "german") - objective(before, "german")),
        "history_german": len(after.out_of_supply("german")) - len(before.out_of_supply("german")),
        "summary": supply_summary(report),
    }


def _unit_names(state: Any, ids: Any) -> str:
    return ", ".join(state.unit(u).name for u in ids) or "none"


def lesson() -> Lesson:
    """Return the lesson, every verdict worked out by the engine now (a few dozen supply determinations)."""
    found = study()
    state = found["state"]
    units = found["units"]
    single, pair = found["single"], found["pair"]
    single_out = sorted({u for row in single.table["units_out"] for u in row} & units)
    picks = [
        {
            "bridges cut": 1,
            "best choice": "; ".join(f"{t.label} ({t.key})" for t in single.picks) or "none",
            "Panzer Lehr units put out": len(single_out),
            "which": _unit_names(state, single_out),
        },
        {
            "bridges cut": 2,
            "best choice": "; ".join(f"{t.label} ({t.key})" for t in pair["picks"]) or "none",
            "Panzer Lehr units put out": len(pair["out"]),
            "which": _unit_names(state, pair["out"]),
        },
    ]
    supplied = sum(found["report"][u].general for u in units)
    crossed = found["crossed"]
    widest = max(crossed.items(), key=lambda kv: kv[1]) if crossed else None
    widest_gain = int(_gain_of(found, widest[0])) if widest else 0
    widest_label = next((t.label for t in found["shortlist"] if widest and t.key == widest[0]), "")
    _forget_cut_tables()  # the searches are done; the answers below need none of their tables
    game_html = (
        f"<p>On the morning of 13 June the division has {len(units)} units on the map, {supplied} of them "
        "in General Supply; "
        f"its HQ traces to {html.escape(found['hq_line'])} (7.2). Its units' lines and its HQ's line cross "
        f"{len(found['shortlist'])} bridges; only these can matter to a single cut. An exact search tries "
        "each of them, and each pair that can matter, with the division's units out of supply as the "
        "measure:</p>"
        + table(pd.DataFrame(picks))
        + (
            f"<p>{widest[1]} of the division's {len(units)} units have a line over the "
            f"{html.escape(widest_label)} ({widest[0]}): that is the bound, the most one cut could do. "
            f"Cutting it puts {widest_gain} out"
            + (": the network offers another way.</p>" if widest_gain < widest[1] else ".</p>")
            if widest
            else ""
        )
    )
    attacks = found["attacks"].drop_duplicates("bridge")
    shown = pd.DataFrame(
        {
            "attack": attacks["bridge"],
            "dates": attacks["dates"],
            "outcome": attacks["outcome"],
            "sources": attacks["source"],
        }
    )
    citations = _attack_sources()
    keys = sorted({k.strip() for text in attacks["source"] for k in str(text).split(",")})
    history_html = (
        "<p>The bridge attacks the project's record holds, up to 13 June, on bridges of this map:</p>"
        + table(shown)
        + f"<p>Cut together on the same scenario, those bridges put <b>{found['history_units']}</b> of "
        "Panzer "
        f"Lehr's units out of supply, and {found['history_german']} German units in all.</p>"
        + sources_html([f"{k}: {citations.get(k, k)}" for k in keys])
    )
    rests_on = [
        "The attacked bridges are placed on the map from the record's positions (each within the attack's "
        "reach of its point, maps/history/bridge_attacks.yaml); where a raid hit a town's crossings the "
        "record "
        "calls it a chokepoint and every bridge of the town within reach is cut.",
        f"13 June: {found['summary']}",
        "The searches are exact: a cut changes a verdict only if a line crosses the bridge (7.2, 7.3.2), so "
        "every single bridge that could matter is tried, and every pair whose second bridge lies on a line "
        "left after the first is cut.",
    ]

    def answer_one() -> str:
        pick = single.picks[0] if single.picks else None
        starves = len(single_out) * 2 > len(units)
        return (
            f"<p>The best single cut is {html.escape(pick.label if pick else 'none')}"
            f"{f' ({pick.key})' if pick else ''}, and it puts {len(single_out)} of {len(units)} out of "
            "supply. "
            + (
                "That bridge starves most of the division."
                if starves
                else "No one bridge starves Panzer Lehr."
            )
            + "</p>"
        )

    def answer_two() -> str:
        if not pair["picks"]:
            return "<p>No pair of bridges puts any of the division out.</p>"
        keys = "; ".join(t.key for t in pair["picks"])
        more = "more than" if len(pair["out"]) > len(single_out) else "no more than"
        return (
            f"<p>The best pair ({html.escape(keys)}) puts {len(pair['out'])} out, {more} the best single "
            f"bridge ({pair['tried']} pairs tried: each bridge on a line now, with each bridge on a line "
            "once "
            "it is cut).</p>"
        )

    def answer_three() -> str:
        why = (
            f"The division's HQ traces to {html.escape(found['hq_line'])}: none of the attacked bridges "
            "lies on a line the division needs, or each has another way round."
            if found["history_units"] == 0
            else "Click those units in the explorer to see which cut line they needed."
        )
        return (
            f"<p>{found['history_units']} of Panzer Lehr's units, and {found['history_german']} German units "
            f"in all. {why}</p>"
        )

    def answer_four() -> str:
        if widest is None:
            return "<p>No line of the division crosses a bridge.</p>"
        return (
            f"<p>Its units trace to their HQ, and the HQ to {html.escape(found['hq_line'])}. "
            f"{widest[1]} of the division's {len(units)} units have a line over {html.escape(widest_label)} "
            f"({widest[0]}); cutting it puts {widest_gain} out"
            + (
                ": a cut must close every legal way, and the road net behind the front has others.</p>"
                if widest_gain < widest[1]
                else ".</p>"
            )
        )

    exercises = [
        Exercise(
            "Which single bridge, cut on 13 June, puts most of Panzer Lehr's units out of supply, and how "
            "many?",
            answer_one,
        ),
        Exercise("Is a pair of bridges worth more than the best single one?", answer_two),
        Exercise(
            "Cut every bridge the air forces attacked up to 13 June. How many of Panzer Lehr's units go out "
            "of supply, and why so few?",
            answer_three,
        ),
        Exercise(
            "Open the explorer on 13 June, click a Panzer Lehr unit and follow its line to its HQ and on. "
            "Which bridge do all the division's lines cross, and what happens if you destroy it?",
            answer_four,
        ),
    ]
    return Lesson(
        title="Lesson 2: a bridge to starve Panzer Lehr",
        question=(
            "<p>On 13 June 1944 the Panzer-Lehr-Division held the front at Tilly-sur-Seulles. <b>Which "
            "bridge, "
            "cut from the air, would have starved it of supply, and what did the air forces really "
            "hit?</b></p>"
            "<p>The game's answer is a search by the engine of <i>The Battle for Normandy</i>; history is "
            "beside it.</p>"
        ),
        game=game_html,
        history=history_html,
        rests_on=rests_on,
        exercises=exercises,
        facts={
            "units": len(units),
            "shortlist": len(found["shortlist"]),
            "bound": found["bound"],
            "best": {1: len(single_out), 2: len(pair["out"])},
            "pairs_tried": pair["tried"],
            "pair": [t.key for t in pair["picks"]],
            "pair_out": pair["out"],
            "single": [t.key for t in single.picks],
            "history_units": found["history_units"],
            "history_german": found["history_german"],
        },
    )


def _gain_of(found: dict[str, Any], key: str) -> float:
    """Return how many of the division's units the single cut of ``key`` puts out."""
    import normandy_lab as nl
    from normandy_lab.interdiction import Target

    objective = division_out(found["units"])
    return objective(nl.supply(Target("bridge", key).cut(found["state"])), "german")


def _forget_cut_tables() -> None:
    """Drop the edge tables BfN's supply search keeps for each set of destroyed bridges it has met.

    Each set has its own (≈ 4 MB: 7.3.2's verdict and cost of every hexside), kept for the next
    determination of the same set; the searches leave 32 of them, 125 MB a student's kernel would hold
    for nothing once the lesson is built (docs/class.md, "Memory per student").  A later determination
    makes the one it needs again.
    """
    from normandy_lab.rules.bfn.lines import supply_edge_costs

    supply_edge_costs.cache_clear()
