"""Is a scenario set up as the game is played?  HQ counters as supply hubs, and positions against history.

In BfN an HQ counter is not a command post: it is where its division's
supply is handed out, and its player keeps it within reach of the units it
feeds (7.2, 7.3.1) and of a corps HQ (20 MP).  A set-up that puts the
counter at the historical command post, ten hexes behind the battalions,
makes a third of the army "out of supply" for no reason the rules or history
give.  This module finds such problems and proposes the hex a player would
use:

* :func:`setup_problems` -- every division unit beyond 6 hexes and 6 MP of
  its HQ, every division or KG HQ beyond 20 MP of a source or an in-supply
  corps HQ, every division HQ with a unit out of its reach, and (with the
  historical record) every unit standing on ground the record of the
  previous evening gives to the other side;
* :func:`propose_hq_hex` -- for one division or KG HQ, the hex, as 7.8 lets an
  HQ be placed (within 6 MP of a unit of its division, not in an EZOC), that
  leaves the fewest units of its side out of General Supply while the HQ itself
  stays in supply, then reaches the most of its own units, preferring road
  hexes and, among equals, the hex nearest where it stood;
* :func:`propose_corps_hq_hex` -- for a corps HQ, the hex (within 10 hexes of
  a friendly unit, not in an EZOC, 7.8) that brings the most division HQs
  within 20 MP.

Both proposals use the supply engine's own searches, so what they promise
is what :func:`~normandy_lab.engine.supply.supply` then finds.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

import numpy as np

from normandy_lab.engine.search import SIXTHS
from normandy_lab.engine.state import GameState
from normandy_lab.engine.supply import supply
from normandy_lab.grids import grid
from normandy_lab.history.lodgement import held_by
from normandy_lab.network import edge_arrays
from normandy_lab.rules.api import as_mp, impassable
from normandy_lab.rules.bfn.lines import TraceNet


@dataclass(frozen=True)
class SetupProblem:
    """One thing in a scenario's set-up that the rules or the record contradict.

    Attributes
    ----------
    unit_id
        The unit concerned.
    kind
        ``"beyond_hq"`` (a division unit beyond 6 hexes and 6 MP of its HQ),
        ``"hq_beyond_corps"`` (an HQ beyond 20 MP of a source or an in-supply
        corps HQ) or ``"enemy_ground"`` (on ground the record gives the enemy).
    detail
        In words, with the distances.
    """

    unit_id: str
    kind: str
    detail: str


def setup_problems(state: GameState, history: bool = True) -> list[SetupProblem]:
    """Return what in a scenario's set-up breaks the HQ rules (7.2, 7.3.1) or the historical record.

    Distances are legal lines of supply (7.3): a unit cut off from its HQ
    counts as beyond it.  ``history=False`` skips the comparison with the
    record (it needs the lodgement layers).
    """
    report = supply(state)
    problems: list[SetupProblem] = []
    for r in report.units.values():
        unit = state.unit(r.unit_id)
        if unit.hq in ("division", "kg") and not r.general:
            problems.append(SetupProblem(unit.id, "hq_beyond_corps", r.reason))
    sides = report.determination.sides
    limits = report.determination.limits
    for det in sides.values():
        for q in det.unit_lines.plain:
            unit = det.units[q]
            hq = det.divisions.hq_of.get(unit.formation)
            if hq is None:
                continue
            hexes, mp = det.unit_lines.lengths(det.unit_lines.group_of[unit.formation], q)
            if hexes > limits.hexes and mp > limits.mp:
                said = " or ".join(
                    f"{value:g} {what}"
                    for value, what in ((hexes, "hexes"), (mp, "MP"))
                    if np.isfinite(value)
                )
                beyond = f"beyond {limits.hexes:g} hexes and {limits.mp:g} MP"
                said = f"{said} ({beyond})" if said else f"no line within {limits.mp + 6:g} MP ({beyond})"
                r = report[unit.id]
                how = f"; supplied otherwise: {r.traced_to}" if r.general else "; out of General Supply"
                problems.append(
                    SetupProblem(unit.id, "beyond_hq", f"{said} from its division HQ {hq.id} (7.3.1){how}")
                )
    if history:
        problems += _on_enemy_ground(state)
    return problems


def _on_enemy_ground(state: GameState, tolerance_km: float = 1.5) -> list[SetupProblem]:
    """Return the units standing on ground the record of the previous evening gives to the other side.

    Within ``tolerance_km`` of the recorded front a place counts as contested:
    the June fronts are known to about 1.5-2 km (maps/history/README.md).
    """
    g = grid(state.system)
    evening = state.date - dt.timedelta(days=1)
    found = []
    for unit in state.units:
        if unit.status != "active" or unit.cut_off or unit.type == "ship":
            continue
        try:
            holder = held_by(g.center(unit.hex), evening, tolerance_km=tolerance_km)
        except Exception:  # no record covers the date or the place
            continue
        if holder in ("allied", "german") and holder != unit.side:
            found.append(
                SetupProblem(
                    unit.id, "enemy_ground", f"{unit.hex}: the record of {evening} gives it to {holder}"
                )
            )
    return found


@dataclass(frozen=True)
class HqProposal:
    """Where an HQ would best stand: the hex, what it supplies, and how it compares with where it is.

    ``out`` and ``out_now`` count the units of the HQ's side out of General Supply by the engine's full
    determination with the HQ on the proposed hex and where it stands; ``brought_in`` and ``left_out``
    name the units the move puts into and out of General Supply; ``without_combat`` and
    ``without_combat_now`` count its side's units out of Combat Supply (7.6.1) the same way.
    """

    unit_id: str
    current: str
    hex: str
    covered: int  # units of its formation within 6 hexes or 6 MP of it
    members: int  # units of its formation
    covered_now: int
    hq_mp: float  # its line to a source or an in-supply corps HQ
    on_road: bool
    moved_hexes: int
    out: int = 0
    out_now: int = 0
    brought_in: tuple[str, ...] = ()
    left_out: tuple[str, ...] = ()
    without_combat: int = 0  # units of its side out of Combat Supply (7.6.1) with the HQ there
    without_combat_now: int = 0
    tried: int = 0  # candidate hexes whose full determination was run


def _without(state: GameState, unit_id: str) -> GameState:
    return state.evolve(units=tuple(u for u in state.units if u.id != unit_id))


def _room_for(state: GameState, hq) -> np.ndarray:
    """Return the hexes an HQ may be added to: stacking (6.0), and no US/CW mixing (6.3)."""
    rules = state.rules
    g = grid(state.system)
    points = np.zeros(len(g), dtype=np.int64)
    mixed = np.zeros(len(g), dtype=bool)
    us = ("US", "FR")
    for u in state.units:
        if u.side != hq.side or u.id == hq.id or u.status != "active":
            continue
        h = g.index(u.hex)
        points[h] += rules.stacking_points[u.type] * max(1, -(-u.steps // 3))
        if hq.side == "allied" and (u.nationality in us) != (hq.nationality in us):
            mixed[h] = True
    return (points + rules.stacking_points[hq.type] <= rules.stacking_limit) & ~mixed


def _hexes_from(g, here: int) -> np.ndarray:
    """Return every hex's distance in hexes from one hex (axial coordinates)."""
    dq, dr = g.q - g.q[here], g.r - g.r[here]
    return np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr))


def _road_hexes(system: str) -> np.ndarray:
    e = edge_arrays(system)
    road = np.zeros(len(grid(system)), dtype=bool)
    road[e.src[e.road > 0]] = True
    return road


def _moved(state: GameState, unit_id: str, hex_id: str) -> GameState:
    return state.evolve(units=tuple(u if u.id != unit_id else replace(u, hex=hex_id) for u in state.units))


@dataclass(frozen=True)
class _Outcome:
    """What an HQ on one hex leaves its side: the units out of General Supply, and how many lack Combat."""

    out: frozenset[str]
    without_combat: int


def _outcome(state: GameState, side: str) -> _Outcome:
    report = supply(state)
    mine = [r for r in report.units.values() if r.side == side]
    return _Outcome(frozenset(r.unit_id for r in mine if not r.general), sum(not r.combat for r in mine))


def propose_hq_hex(state: GameState, hq_id: str, radius: int = 14, weigh: bool = True) -> HqProposal:
    """Return the hex a player would put a division or KG HQ on to supply his side (7.2, 7.3.1, 7.8).

    Candidates are the hexes within ``radius`` hexes of where it stands that
    7.8 allows (land, no enemy unit, not in an EZOC, within 6 hexes or 6 supply MP of a
    unit of its division, room in the stack) and that keep the HQ within 20 MP of a source
    or an in-supply corps HQ (7.2; halved in Heavy Rain and Storm, 7.3.3).  The best
    leaves the fewest units of its side out of General Supply by the engine's full
    determination (the player's aim: an HQ may best serve a corps unit that attaches
    to it, rather than reach the most of its own); then it reaches the most of its
    own units; then a road hex; then the nearest to where it stands.  A hex that
    leaves more units of the side out of Combat Supply than where the HQ stands
    (7.6.1: the HQ hands out its division's Combat Supply too), or that puts a unit
    the scenario records as cut off into supply (a historical pocket), is not taken.

    The full determination is run only on the candidates within range (7.3.1,
    in the state's weather) of a unit of the side that is out of General Supply
    where the HQ stands, and on the best of the others: a hex from which the HQ
    reaches none of them is taken to bring none in.  With ``weigh=False`` no
    determination is run (the ranking by reach alone, as before issue 31).
    """
    hq = state.unit(hq_id)
    g = grid(state.system)
    report = supply(_without(state, hq_id))
    det = report.determination.sides[hq.side]
    limits = report.determination.limits
    lines: TraceNet = det.lines
    own = [
        q for q, u in enumerate(det.units) if u.formation == hq.formation and not u.hq and u.type != "ship"
    ]
    here = g.index(hq.hex)
    at = det.at
    # 7.8: not in an EZOC, not on an enemy unit, on land; and within the stacking limit (6.0),
    # with no unit of the other Allied army (6.3).
    allowed = ~(lines.in_ezoc | lines.enemy | impassable(state.system, state.maps)) & _room_for(state, hq)
    apart = _hexes_from(g, here)
    near_units = np.zeros(len(g), dtype=bool)
    if own:
        # From the units' hexes, and from the hexes their own first step reaches: a unit's hex never
        # blocks its own line, so a unit standing in an EZOC still reaches out of it (the exact ranges
        # are counted below; this only narrows the candidates).
        starts = {int(at[q]) for q in own}
        gr, first = lines.graph, lines.costs.fwd_first
        for h in list(starts):
            for k in range(gr.fwd_ptr[h], gr.fwd_ptr[h + 1]):
                if first[k] and not lines.blocked[gr.fwd_nbr[k]]:
                    starts.add(int(gr.fwd_nbr[k]))
        # 7.3.1: within 6 hexes or 6 MP (the full limits: the HQ is a candidate if either could reach).
        dist_mp, _ = lines.search(sorted(starts), "mp", limit=6 * SIXTHS)
        dist_hexes, _ = lines.search(sorted(starts), "hexes", limit=6)
        near_units = (dist_mp <= 6 * SIXTHS) | (dist_hexes <= 6)
    candidates = np.nonzero(allowed & (apart <= radius) & (near_units | (np.arange(len(g)) == here)))[0]
    if not len(candidates):
        candidates = np.array([here])
    # The HQ's own line: 20 MP to a source or an in-supply corps HQ, its first step free (7.3.2).
    hq_mp = lines.distances(det.divisions.roots, candidates, "mp", limits.division_n, free=True)
    supplied = hq_mp <= limits.division_n
    if supplied.any():  # an HQ beyond 20 MP supplies no one: only where it stands is kept besides
        keep = supplied | (candidates == here)
        candidates, hq_mp, supplied = candidates[keep], hq_mp[keep], supplied[keep]
    now = _outcome(state, hq.side) if weigh else _Outcome(frozenset(), 0)
    stray = sorted(det.query[u] for u in now.out if u in det.query)
    asked = own + [q for q in stray if q not in own]
    coverage = np.zeros(len(candidates), dtype=np.int64)
    reach_out = np.zeros(len(candidates), dtype=bool)
    if asked:
        ranges = lines.ranges([[int(c)] for c in candidates], [asked] * len(candidates), at, limits)
        d = ranges.dist[:, :, asked]
        within = (d[:, 0, :] <= limits.hexes_n) | (d[:, 1, :] <= limits.mp_n)
        coverage = within[:, : len(own)].sum(axis=1)
        reach_out = within[:, [asked.index(q) for q in stray]].any(axis=1)
    # What the HQ on each candidate leaves its side, by the full determination where it is counted; a
    # candidate not counted is taken to leave what the HQ where it stands leaves.  A candidate is not
    # taken when it leaves more units of its side without Combat Supply (7.6.1: the HQ carries its
    # division's Combat Supply too), or brings into supply a unit the scenario records as cut off (the
    # set-up places HQs for the day as it was, not to break a historical pocket).
    pockets = frozenset(u.id for u in state.units if u.side == hq.side and u.cut_off)
    outcomes: dict[int, _Outcome] = {}

    def count(k: int) -> None:
        outcomes[k] = _outcome(_moved(state, hq_id, str(g.id_array[candidates[k]])), hq.side)
        n_out[k] = len(outcomes[k].out)
        taken[k] = outcomes[k].without_combat <= now.without_combat and pockets - outcomes[k].out <= (
            pockets - now.out
        )

    n_out = np.full(len(candidates), len(now.out), dtype=np.int64)
    taken = np.ones(len(candidates), dtype=bool)
    if now.out:
        for k in np.nonzero(reach_out & supplied & (candidates != here))[0].tolist():
            count(k)
    road = _road_hexes(state.system)[candidates]
    while True:  # the best must be counted: one that does worse than where the HQ stands drops back
        best = int(np.lexsort((apart[candidates], ~road, -coverage, n_out, ~supplied, ~taken))[0])
        if not weigh or best in outcomes or candidates[best] == here:
            break
        count(best)
    covered_now = int(coverage[candidates == here][0]) if (candidates == here).any() else 0
    best_hex = str(g.id_array[candidates[best]])
    outcome = outcomes.get(best, now)
    out, out_now = outcome.out, now.out
    return HqProposal(
        unit_id=hq_id,
        current=hq.hex,
        hex=best_hex,
        covered=int(coverage[best]),
        members=len(own),
        covered_now=covered_now,
        hq_mp=float(as_mp(hq_mp[best])),
        on_road=bool(road[best]),
        moved_hexes=int(apart[candidates[best]]),
        out=len(out),
        out_now=len(out_now),
        brought_in=tuple(sorted(out_now - out)),
        left_out=tuple(sorted(out - out_now)),
        without_combat=outcome.without_combat,
        without_combat_now=now.without_combat,
        tried=len(outcomes),
    )


def propose_corps_hq_hex(
    state: GameState, corps_id: str, radius: int = 10
) -> tuple[str, list[str], list[str]]:
    """Return a hex for a corps HQ that brings stranded division HQs within 20 MP, losing none (7.2, 7.8).

    A division or KG HQ of the corps' army is *stranded* when it is beyond
    20 MP of every source and in-supply corps HQ; it *depends* on this corps
    HQ when this one is the only root within 20 MP.  Candidates are within
    ``radius`` hexes of where the corps HQ stands, not in an EZOC, with a
    line of any length to a source (7.2, 7.8); the chosen hex keeps every
    dependent HQ and gains the most stranded ones (then a road hex, then the
    nearest).  Returns the hex, the HQs it gains, and the HQs that depend on it.
    """
    corps = state.unit(corps_id)
    g = grid(state.system)
    side = corps.side
    report = supply(state)
    det = report.determination.sides[side]
    lines: TraceNet = det.lines
    limit = report.determination.limits.division_n
    here = g.index(corps.hex)
    us = ("US", "FR")
    divs = det.divisions.divs
    hqs = [u for u in divs if side == "german" or (u.nationality in us) == (corps.nationality in us)]
    hq_at = np.array([int(det.at[det.query[u.id]]) for u in hqs], dtype=np.int64)
    others = [h for h in det.divisions.roots if h != here]
    elsewhere = lines.distances(others, hq_at, "mp", limit, free=True) if len(hq_at) else np.array([])
    stranded = [u for u in hqs if not report[u.id].general]
    depends = [u for u, d in zip(hqs, elsewhere.tolist(), strict=True) if report[u.id].general and d > limit]
    apart = _hexes_from(g, here)
    allowed = ~(lines.in_ezoc | lines.enemy | impassable(state.system, state.maps)) & (apart <= radius)
    allowed &= _room_for(state, corps)
    allowed &= lines.reaches(det.sources, np.arange(len(g)))
    candidates = np.nonzero(allowed)[0]
    if not stranded or not len(candidates):
        return corps.hex, [], [u.id for u in depends]

    def within(units) -> np.ndarray:
        ok = np.ones((len(units), len(candidates)), dtype=bool)
        for k, u in enumerate(units):
            dist, _ = lines.search([int(det.at[det.query[u.id]])], "mp", limit=limit)
            ok[k] = dist[candidates] <= limit
        return ok

    keeps = within(depends).all(axis=0)
    gains = within(stranded)
    gained = gains.sum(axis=0) * keeps
    road = _road_hexes(state.system)[candidates]
    order = np.lexsort((apart[candidates], ~road, -gained))
    best = int(order[0])
    if gained[best] == 0:
        return corps.hex, [], [u.id for u in depends]
    won = [u.id for u, ok in zip(stranded, gains[:, best].tolist(), strict=True) if ok]
    return str(g.id_array[candidates[best]]), won, [u.id for u in depends]
