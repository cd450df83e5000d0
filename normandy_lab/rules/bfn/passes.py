"""BfN's supply determination of one side, pass by pass (7.2-7.6): each pass a function returning its result.

The passes, in the order the rules need them (each takes what it needs and returns a record; nothing
is kept on a shared object):

1. :func:`corps_hqs` (7.2, 7.4, 7.6.1) -> :class:`CorpsVerdicts`: corps HQs at any length to a source;
   the hexes that act as corps HQs (the beachheads until 11 June) and those passing Combat Supply on.
2. :func:`division_hqs` (7.2, 7.6.1) -> :class:`DivisionVerdicts`: division and KG HQs within 20 MP of
   a source or an in-supply corps HQ, and whether each passes Combat Supply on.
3. :func:`unit_lines` (7.2, 7.3.1, 7.4, 17.1) -> :class:`UnitLines`: every other unit within 6 hexes or
   6 MP of a source, its own in-supply division HQ, a corps HQ (units of no division) or a pathfinder;
   with the ``hq_bridging`` reading "for_its_units" (7.3.2, 14.2.1) :func:`bridged_lines` adds the
   units an HQ reaches across the water around it.
4. :func:`attach` (7.2, 20.3) -> :class:`Attachments`: the units with no line of their own attached to
   in-supply division and KG HQs, as the owner would choose.
5. :func:`combat_supply` (7.6.1) -> Combat Supply by unit id.
6. :func:`isolation` (7.5o) -> isolated by unit id.

:func:`determine_side` composes them into a :class:`SideVerdicts`, the typed record the reports are made
from (:meth:`SideVerdicts.reports`) and the explanations read (:mod:`.explain`).  A unit's line in General
Supply is a :class:`Trace`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from normandy_lab.engine.report import UnitSupply, VerdictMaker
from normandy_lab.engine.search import FAR, SIXTHS
from normandy_lab.engine.state import GameState, Unit
from normandy_lab.errors import RefusedError
from normandy_lab.rules.api import INF, Situation, as_hexes, as_mp
from normandy_lab.rules.bfn.attachment import AttachHQ, AttachOption, best_attachments
from normandy_lab.rules.bfn.lines import Limits, TraceNet
from normandy_lab.terrain.places import hex_place

if TYPE_CHECKING:
    from normandy_lab.rules.base import RuleSet

CW = ("UK", "CA", "PL")
US = ("US", "FR")
# The columns of UnitLines.options: what a unit may trace to, in the order tried (7.2, 7.4, 17.1).
OWN_WAYS = ("source", "pathfinder", "division HQ", "corps HQ")


def _cw(nationality: str | None) -> bool:
    return nationality in CW


def _same_army(a: str | None, b: str | None) -> bool:
    """US and CW units may not attach to each other's divisions (6.3)."""
    return (a in US) == (b in US)


def army(side: str, nationality: str | None) -> str:
    """Return the supply family of a unit for Combat Supply (7.4): "US", "CW" or "DE"."""
    if side == "german":
        return "DE"
    return "US" if nationality in US else "CW"


def as_lengths(hexes: int, sixths: int) -> tuple[float, float]:
    """Return a search's hex count and sixths of an MP as hexes and MPs (inf: none within the search)."""
    return (INF if hexes >= FAR else float(hexes)), (INF if sixths >= FAR else sixths / SIXTHS)


def _hex_place(system: str, hex_id: str) -> str:
    """Return the place a hex is in or near (the gazetteer is loaded only when a report's words are read)."""
    return hex_place(system, hex_id)


def is_artillery(u: Unit) -> bool:
    """Divisional artillery (7.2: it attaches under its own terms)."""
    return u.type in ("artillery", "rocket_artillery")


def may_leave_division(side: str, u: Unit) -> bool:
    """7.2: one non-artillery unit of another division may attach; German artillery attaches freely."""
    return not is_artillery(u) or side == "german"


def may_attach(side: str, u: Unit, hq: Unit) -> bool:
    """Whether the rules let this unit attach to this HQ at all (6.3, 7.2, 20.3)."""
    if side == "allied" and not _same_army(u.nationality, hq.nationality):
        return False  # 6.3: US and CW units do not attach to each other's divisions
    return u.formation != hq.formation or u.breakdown  # a breakdown company is a corps unit (7.2)


# -- what every pass reads ------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SideContext:
    """What every pass of one side reads: the units where they stand, the lines, limits, sources, readings.

    ``at[q]`` is the hex index of ``units[q]`` and ``query[unit_id]`` its ``q``; ``sources`` the side's
    source hexes (7.4), ``by_army`` those giving Combat Supply, by army ("US", "CW", "DE"); ``readings``
    the rule readings in force where the rulebook is open (``rules.bfn.READINGS``).
    """

    state: GameState
    side: str
    lines: TraceNet
    rules: RuleSet
    limits: Limits
    situation: Situation
    units: list[Unit]
    at: np.ndarray
    query: dict[str, int]
    readings: dict[str, Any]
    sources: list[int]
    by_army: dict[str, list[int]]
    hqs_by_hex: dict[tuple[int, str], Unit]

    @property
    def ids(self) -> np.ndarray:
        """The hex ids by index."""
        return self.lines.g.id_array

    def path(self, nodes: np.ndarray) -> list[str]:
        """Return hex indices as hex ids."""
        return self.ids[nodes].tolist()

    def hq_at(self, hex_index: int, kind: str) -> Unit | None:
        """Return the HQ of a kind ("corps", "division", "kg") standing on a hex, if any."""
        return self.hqs_by_hex.get((hex_index, kind))

    def free_types(self) -> set[str]:
        """Return the unit types that attach without taking a place (the Attachment Reference Chart).

        German artillery too under the ``german_artillery_attach`` reading "free" (7.2).
        """
        free = set(self.rules.supply["free_attach_types"])
        if self.side == "german" and self.readings["german_artillery_attach"] == "free":
            free |= {"artillery", "rocket_artillery"}
        return free

    def with_limits(self, limits: Limits) -> SideContext:
        """Return the same side with other ranges (a counterfactual: how much more range supplies a unit)."""
        return replace(self, limits=limits)


@dataclass(slots=True)  # not frozen: hundreds are made per determination, and frozen ones init slower
class Trace:
    """A unit's line as a pass found it (7.2, 7.3.1): what it reached, its lengths and hexes.

    ``supplied`` is its General Supply.  A line not supplied keeps what the pass measured (a corps HQ's
    hex count, a division HQ's MPs) and its ``limit``.  ``kind`` is what it reached ("source", "division
    HQ", "corps HQ", "pathfinder", "attached", "beachhead", "ship"), ``hq`` the HQ when it is one,
    ``target_hex`` the hex it reached (its words name the place); ``path`` the hexes from the unit, or
    ``find_path`` to search them when first read (a unit attached to another division's HQ: the range
    search keeps no line for it).  ``how`` is added to the words ("(free attachment)"); ``words``
    replaces them (a ship).
    """

    limit: str
    supplied: bool = False
    kind: str = ""
    target_hex: str = ""
    hq: Unit | None = None
    hexes: float = INF
    mp: float = INF
    path: list[str] = field(default_factory=list)
    find_path: Callable[[], list[str]] | None = None
    how: str = ""
    words: str = ""

    @property
    def traced_id(self) -> str:
        """The HQ's unit id, or the hex reached (a ship: none)."""
        return self.hq.id if self.hq is not None else self.target_hex

    def words_maker(self, system: str) -> Callable[[], str]:
        """Return what makes the line's words (id, name and place) when a report's are first read."""
        kind, target_hex, hq, how = self.kind, self.target_hex, self.hq, self.how

        def words() -> str:
            place = _hex_place(system, target_hex) if target_hex else ""
            if hq is not None:
                label = "attached to division HQ" if kind == "attached" else kind
                return f"{label} {hq.id} ({hq.name}) at {place}{how}"
            return (f"{kind} at {place}" if place else kind) + how

        return words


# -- 7.2: the HQs --------------------------------------------------------------------------------


@dataclass(frozen=True)
class CorpsVerdicts:
    """The corps HQs' verdicts (7.2, 7.6.1).

    ``traces`` every corps HQ's line (any length to a source); ``combat`` whether each has Combat Supply;
    ``hexes`` the in-supply corps HQs' hexes, with the beachheads while they act as corps HQs
    (``beachheads_as_corps``, until 11 June); ``combat_hexes`` the hexes passing Combat Supply on, by army.
    """

    traces: dict[str, Trace]
    combat: dict[str, bool]
    hexes: list[int]
    combat_hexes: dict[str, list[int]]
    beachheads_as_corps: bool

    def ok(self, unit_id: str) -> bool:
        """Whether a corps HQ is in General Supply."""
        trace = self.traces.get(unit_id)
        return trace is not None and trace.supplied


def corps_hqs(ctx: SideContext) -> CorpsVerdicts:
    """7.2: corps HQs at any length to a source; beachheads are corps HQs until 11 June.

    7.6.1, 7.4: a corps HQ has Combat Supply when its line reaches a source of
    its own army (German: a road off the map edge; the supply cities give
    General Supply only).
    """
    lines = ctx.lines
    corps = [u for u in ctx.units if u.hq == "corps"]
    hexes = ctx.at[[ctx.query[u.id] for u in corps]].astype(np.int64)
    best, ptr, flat = lines.nearest(hexes, ctx.sources)
    ok = best < FAR
    length = as_hexes(best)
    reach_army = {key: lines.reaches(t, hexes) for key, t in ctx.by_army.items() if t and len(hexes)}
    traces, combat = {}, {}
    limit = "any length to a source (7.2)"
    for j, u in enumerate(corps):
        path = ctx.path(flat[ptr[j] : ptr[j + 1]])
        supplied = bool(ok[j])
        traces[u.id] = Trace(
            limit, supplied, "source" if supplied else "", (path[-1] if path else "") if supplied else "",
            hexes=float(length[j]), path=path,
        )  # fmt: skip
        key = army(ctx.side, u.nationality)
        combat[u.id] = supplied and key in reach_army and bool(reach_army[key][j])
    supplied_hexes = sorted({int(h) for h, k in zip(hexes, ok, strict=True) if k})
    # The corps HQs (and, before they land, the beachheads) that pass on Combat Supply, by army.
    combat_hexes: dict[str, list[int]] = {key: [] for key in ctx.by_army}
    for j, u in enumerate(corps):
        if combat[u.id]:
            combat_hexes[army(ctx.side, u.nationality)].append(int(hexes[j]))
    beachheads = ctx.side == "allied" and ctx.state.date < dt.date.fromisoformat(
        ctx.rules.supply["beachheads_are_corps_hq_until"]
    )
    if beachheads:
        supplied_hexes = sorted(set(supplied_hexes) | set(ctx.sources))
        for key, beach in ctx.by_army.items():
            combat_hexes[key] = sorted(set(combat_hexes[key]) | set(beach))
    if ctx.readings["combat_supply_chain"] != "own_army":
        every = sorted({h for found in combat_hexes.values() for h in found})
        combat_hexes = {key: every for key in combat_hexes}
    return CorpsVerdicts(traces, combat, supplied_hexes, combat_hexes, beachheads)


@dataclass(frozen=True)
class DivisionVerdicts:
    """The division and KG HQs' verdicts (7.2, 7.6.1).

    ``divs`` the HQs (in file order), ``roots`` the hexes they trace to (sources and in-supply corps
    HQs), ``traces`` each one's line, ``ok`` its General Supply by unit id, ``combat`` whether it passes
    Combat Supply on, by formation; ``hq_of`` the HQ of each formation.
    """

    divs: list[Unit]
    roots: list[int]
    traces: dict[str, Trace]
    ok: dict[str, bool]
    combat: dict[str, bool]
    hq_of: dict[str, Unit]


def division_hqs(ctx: SideContext, corps: CorpsVerdicts) -> DivisionVerdicts:
    """7.2: division (and KG) HQs within 20 MP of a source or an in-supply corps HQ; 7.6.1 for combat."""
    lines, limit = ctx.lines, ctx.limits.division_n
    divs = [u for u in ctx.units if u.hq in ("division", "kg")]
    hexes = ctx.at[[ctx.query[u.id] for u in divs]].astype(np.int64)
    roots = sorted(set(ctx.sources) | set(corps.hexes))
    best, ptr, flat = lines.to_roots(roots, hexes, "mp", limit, free=True)
    ok = best <= limit
    length = as_mp(best)
    # 7.6.1: for Combat Supply a division HQ may not skip its corps HQ, which must itself
    # have Combat Supply from a source of the HQ's own army (7.4).
    combat_ok = np.zeros(len(divs), dtype=bool)
    for key, targets in corps.combat_hexes.items():
        passing = set(targets)
        mine = []
        for j, u in enumerate(divs):
            if army(ctx.side, u.nationality) != key or not ok[j]:
                continue
            end = int(flat[ptr[j + 1] - 1]) if ptr[j + 1] > ptr[j] else -1
            if end in passing:  # its line already ends at a corps HQ passing Combat Supply on
                combat_ok[j] = True
            else:
                mine.append(j)
        if mine and targets:
            got = lines.distances(targets, hexes[mine], "mp", limit, free=True)
            combat_ok[mine] = got <= limit
    traces, div_ok, div_combat = {}, {}, {}
    text = f"{ctx.limits.division:g} MP to a source or an in-supply corps HQ (7.2)"
    for j, u in enumerate(divs):
        div_ok[u.id] = bool(ok[j])
        if not ok[j]:
            traces[u.id] = Trace(text, mp=float(length[j]))
        else:
            end = int(flat[ptr[j + 1] - 1]) if ptr[j + 1] > ptr[j] else int(hexes[j])
            hq = ctx.hq_at(end, "corps")
            kind = "corps HQ" if hq is not None else ("beachhead" if corps.beachheads_as_corps else "source")
            traces[u.id] = Trace(
                text, True, kind, str(ctx.ids[end]), hq, mp=float(length[j]),
                path=ctx.path(flat[ptr[j] : ptr[j + 1]]),
            )  # fmt: skip
        div_combat[u.formation] = bool(ok[j]) and bool(combat_ok[j])
    return DivisionVerdicts(divs, roots, traces, div_ok, div_combat, {u.formation: u for u in divs})


# -- 7.3.1: the units ----------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitLines:
    """The units' own lines (7.2, 7.3.1) and the range search behind them.

    ``plain`` the units (by ``q``) that are neither HQs nor ships; ``headless`` those of no division with
    an HQ (corps units, breakdown companies: 7.2); ``ranges`` the range search over the target groups:
    0 the sources, 1 the corps HQs, ``pathfinder_group`` the pathfinders (-1 when none), and
    ``group_of[formation]`` each division HQ; ``line_ids`` its lines as hex ids; ``options[q]`` the group
    each of a unit's ways (:data:`OWN_WAYS`) is (-1: not open to it); ``in_own_hq_range[q]`` whether a
    unit is within range of its own in-supply division HQ; ``supplied_divs`` the in-supply division and KG
    HQs (by formation), ``members`` the units of each formation; ``cover_names``/``cover_groups`` the
    ranges drawn on the map; ``traces`` every non-HQ unit's line; ``range_text`` the limit in words.
    """

    plain: list[int]
    headless: set[int]
    pathfinder_on: bool
    pathfinder_group: int
    group_of: dict[str, int]
    members: dict[str, list[int]]
    ranges: Any  # lines._Ranges: dist[group, metric, q], the lines kept and the covers
    line_ids: list[str]
    options: np.ndarray
    in_own_hq_range: list[bool]
    supplied_divs: list[Unit]
    cover_names: list[str]
    cover_groups: list[int]
    traces: dict[str, Trace]
    range_text: str

    @property
    def supplied_groups(self) -> list[int]:
        """The range groups of the in-supply division and KG HQs, in the order of ``supplied_divs``."""
        return [self.group_of[u.formation] for u in self.supplied_divs]

    def lengths(self, group: int, q: int) -> tuple[float, float]:
        """Return a unit's distance to a group of targets in hexes and MPs (inf: none within the search)."""
        hexes, sixths = self.ranges.dist[group, :, q].tolist()
        return as_lengths(hexes, sixths)

    def in_range(self, group: int, q: int, limits: Limits) -> bool:
        """Whether a unit is within 6 hexes or 6 MP (halved in bad weather) of a group of targets (7.3.1)."""
        d = self.ranges.dist[group, :, q]
        return bool(d[0] <= limits.hexes_n or d[1] <= limits.mp_n)

    def line(self, group: int, q: int, limits: Limits) -> list[str]:
        """Return the line the range search kept from a unit to a group (in the metric that met the limit)."""
        hexes = self.ranges.dist[group, 0, q]
        metric = 0 if hexes <= limits.hexes else 1
        slot = (group * 2 + metric) * self.ranges.dist.shape[2] + q
        return self.line_ids[int(self.ranges.line_start[slot]) : int(self.ranges.line_stop[slot])]


class AnyLength:
    """The unit range searches of one side's counterfactuals, searched once for many (7.3.1).

    The explanations of a side's units out of supply determine it again and again with longer unit ranges
    (:meth:`.explain._Explainer.trial`), the HQs' verdicts kept: the same groups of targets asked about the
    same units each time, only the limits longer (a Storm's ~200 units asked 150 trials).  After the first
    few trials (searched to their own limits: a side with few units out asks few), the groups are searched
    once to twice the limits asked, again to twice as far when a trial asks beyond, and each trial's
    distances are those cut at its limits (:meth:`.lines._Ranges.within`: exactly what a search to the
    limits finds).  The sources' group then takes every source (a search to the limits leaves out those
    too far to reach any unit, which changes no distance within them).

    Parameters
    ----------
    hqs
        The side's determination whose HQ verdicts every trial keeps (``determine_side(..., hqs=)``): the
        groups are its HQs, on its map of blocked hexes; it serves no other.
    """

    #: The trials searched to their own limits before the shared search is made.
    FIRST_ALONE = 3

    def __init__(self, hqs: SideVerdicts) -> None:
        self.hqs = hqs
        self._shape: tuple[int, ...] | None = None
        self._bound = (-1, -1)  # the limits (hexes, MP sixths) searched to
        self._ranges: Any = None
        self._asked = 0

    def shared(self) -> bool:
        """Tell whether this trial takes the shared search (:meth:`ranges`): after the first few."""
        self._asked += 1
        return self._asked > self.FIRST_ALONE

    def ranges(self, ctx: SideContext, groups: list[Any], asked: list[Any], limits: Limits) -> Any:
        """Return the distances a search of ``groups`` to ``limits`` finds (lines and ranges not kept)."""
        if ctx.lines is not self.hqs.ctx.lines or ctx.side != self.hqs.ctx.side:
            raise RefusedError("AnyLength: searches of another side or map; determine them to their limits")
        shape = (len(groups), *(len(a) for a in asked))
        need = (int(limits.hexes_n), int(limits.mp_n))
        beyond = need[0] > self._bound[0] or need[1] > self._bound[1]
        if self._ranges is None or self._shape != shape or beyond:
            bound = (max(need[0], 2 * self._bound[0], 2), max(need[1], 2 * self._bound[1], 2))
            self._ranges = ctx.lines.ranges_to(groups, asked, ctx.at, bound)
            self._shape, self._bound = shape, bound
        return self._ranges.within(limits)


def unit_lines(
    ctx: SideContext,
    corps: CorpsVerdicts,
    divisions: DivisionVerdicts,
    keep_lines: bool = True,
    any_length: AnyLength | None = None,
) -> UnitLines:
    """7.2, 7.3.1: every other unit within 6 hexes or 6 MP of a source or of its supplying HQ.

    ``keep_lines=False`` keeps no line (the traces' ``path`` empty): the verdicts and distances only.
    ``any_length`` (with ``keep_lines=False``): the searches shared by the counterfactuals of the same
    side's explanations (with the same HQ verdicts), cut at these limits (:class:`AnyLength`).
    """
    state, limits, units = ctx.state, ctx.limits, ctx.units
    supply_rules = ctx.rules.supply
    m = len(units)
    pathfinder_on = (
        ctx.side == "allied"
        and bool(state.pathfinders)
        and (state.date.isoformat(), state.turn) in {tuple(t) for t in supply_rules["pathfinder_turns"]}
    )
    airborne_types = supply_rules["airborne_types"]
    plain = [q for q, u in enumerate(units) if not u.hq and u.type != "ship"]
    every_plain = np.array(plain, dtype=np.int64)  # asked by every in-supply HQ: one array, shared
    # 7.2: breakdown companies count as corps units for supply, except on the invasion turns.
    invasion = state.turn in ("6 June Night", "6 June Invasion")
    hq_of, div_ok = divisions.hq_of, divisions.ok
    headless = {
        q
        for q in plain
        if not units[q].formation or units[q].formation not in hq_of or (units[q].breakdown and not invasion)
    }
    airborne = [
        q
        for q in plain
        if units[q].type in airborne_types or "airborne" in (units[q].formation or "").lower()
    ]
    # The groups of targets, and which units ask each: the sources (every unit), the corps HQs
    # (units of no division), the pathfinders (7.4, 7.5, 17.1: airborne units, 6-7 June), each
    # division HQ (its own units, and, when in supply, the units of no division, which may
    # attach to it), and the corps HQs passing on Combat Supply, by army (7.6.1).
    if keep_lines or (any_length is not None and not any_length.shared()):
        any_length = None  # searched to its own limits: lines kept, or one of a side's first trials
    # A counterfactual's search at any length takes every source (AnyLength).
    sources = ctx.sources if any_length is not None else ctx.lines.near(ctx.sources, ctx.at[plain], limits)
    groups = [sources, corps.hexes]
    asked: list[Any] = [plain, sorted(headless)]
    # Lines are kept where a unit may trace its own supply; other distances only compare.
    wanted = [np.ones(len(plain), dtype=bool), np.ones(len(headless), dtype=bool)]
    pathfinder_group = -1
    if pathfinder_on:
        pathfinder_group = len(groups)
        groups.append(sorted(ctx.lines.g.index(h) for h in state.pathfinders))
        asked.append(airborne)
        wanted.append(np.ones(len(airborne), dtype=bool))
    first_div = len(groups)
    div_order = sorted(divisions.divs, key=lambda u: str(u.formation))
    group_of = {u.formation: first_div + k for k, u in enumerate(div_order)}
    members: dict[str, list[int]] = {}
    for q in plain:
        members.setdefault(units[q].formation, []).append(q)
    # Formations as small integers: comparing them for every HQ is then one array operation.
    code = {f: k for k, f in enumerate(members)}
    plain_formation = np.array([code[units[q].formation] for q in plain], dtype=np.int64)
    plain_headless = np.array([q in headless for q in plain], dtype=bool)
    for u in div_order:
        groups.append([int(ctx.at[ctx.query[u.id]])])
        # An in-supply HQ is asked about every unit: its own, and any that may attach to it (7.2);
        # the line of a unit of another division is found only if it does attach (attach).
        if div_ok[u.id]:
            asked.append(every_plain)
            wanted.append(plain_headless | (plain_formation == code.get(u.formation, -1)))
        else:
            asked.append(members.get(u.formation, []))
            wanted.append(np.ones(len(asked[-1]), dtype=bool))
    if not keep_lines:
        wanted = [np.zeros(len(a), dtype=bool) for a in asked]
    if any_length is not None:
        ranges = any_length.ranges(ctx, groups, asked, limits)
    else:
        ranges = ctx.lines.ranges(groups, asked, ctx.at, limits, lines_wanted=wanted)
    line_ids = ctx.ids[ranges.lines].tolist()
    supplied_divs = [u for u in div_order if div_ok[u.id]]
    # Each unit's own options in the order they are tried (-1: not open to it).
    options = np.full((m, 4), -1, dtype=np.int64)
    options[plain, 0] = 0
    if pathfinder_on:
        options[airborne, 1] = pathfinder_group
    # Units of no division may trace to a corps HQ; a division's units to their HQ when it is in supply.
    own_div: list[int] = []
    own_group: list[int] = []
    for q in plain:
        if q not in headless:
            formation = units[q].formation
            if div_ok[hq_of[formation].id]:
                own_div.append(q)
                own_group.append(group_of[formation])
    options[sorted(headless), 3] = 1
    options[own_div, 2] = own_group
    rows = np.arange(m)[:, None]
    group = np.maximum(options, 0)
    within = (options >= 0) & (
        (ranges.dist[group, 0, rows] <= limits.hexes_n) | (ranges.dist[group, 1, rows] <= limits.mp_n)
    )
    chosen = np.where(within.any(axis=1), within.argmax(axis=1), -1)
    # Each unit's lengths to the group it traces to and its line (in the metric that met the
    # limit), read for all the units at once.
    every = rows[:, 0]
    chosen_group = options[every, np.maximum(chosen, 0)]
    hex_counts = ranges.dist[chosen_group, 0, every]
    metric = (hex_counts > limits.hexes_n).astype(np.int64)
    slot = (chosen_group * 2 + metric) * m + every
    starts, stops = ranges.line_start[slot].tolist(), ranges.line_stop[slot].tolist()
    hex_lengths, sixth_lengths = hex_counts.tolist(), ranges.dist[chosen_group, 1, every].tolist()
    by_index = ctx.lines.g.index_of
    range_text = f"{limits.hexes:g} hexes or {limits.mp:g} MP (7.3.1)"
    traces: dict[str, Trace] = {}
    hqs_by_hex, at = ctx.hqs_by_hex, ctx.at.tolist()
    for q, (u, column) in enumerate(zip(units, chosen.tolist(), strict=True)):
        if u.hq:
            continue
        if u.type == "ship":
            # Ships are not land units: they trace no line of supply; they
            # attach to any division for combat (Attachment Reference Chart).
            traces[u.id] = Trace("none (naval)", True, "ship", path=[u.hex], words="ship at sea (not traced)")
            continue
        if column < 0:
            traces[u.id] = Trace(range_text)
            continue
        path = line_ids[starts[q] : stops[q]]
        end = path[-1] if path else u.hex
        hq = hq_of[u.formation] if column == 2 else None
        if column == 3:  # the corps HQ at the line's end (ctx.hq_at)
            hq = hqs_by_hex.get((by_index[end] if path else at[q], "corps"))
        hexes, sixths = hex_lengths[q], sixth_lengths[q]  # as_lengths, inline: hundreds of units
        traces[u.id] = Trace(
            range_text, True, OWN_WAYS[column], end, hq, INF if hexes >= FAR else float(hexes),
            INF if sixths >= FAR else sixths / SIXTHS, path,
        )  # fmt: skip
    return UnitLines(
        plain, headless, pathfinder_on, pathfinder_group, group_of, members, ranges, line_ids, options,
        within[:, 2].tolist(), supplied_divs, [u.id for u in supplied_divs] + ["corps HQ"],
        [group_of[u.formation] for u in supplied_divs] + [1], traces, range_text,
    )  # fmt: skip


def bridged_lines(ctx: SideContext, found: UnitLines) -> dict[str, Trace]:
    """Apply the "for_its_units" reading of 7.3.2/14.2.1: an in-supply HQ bridges the water around it.

    Its own units still out of range trace to it again with those hexsides
    bridged; the lines of the ones now within range are returned (to it).
    """
    limits, traces = ctx.limits, {}
    for hq in found.supplied_divs:
        at = int(ctx.at[ctx.query[hq.id]])
        wet = ctx.lines.wet_edges_at(at)
        waiting = [
            q
            for q in found.members.get(hq.formation, [])
            if not found.traces[ctx.units[q].id].supplied and ctx.units[q].id not in traces
        ]
        if not wet or not waiting:
            continue
        searched = ctx.lines.ranges([[at]], [waiting], ctx.at, limits, opened=ctx.lines.bridged(wet))
        for q in waiting:
            hexes, sixths = searched.dist[0, :, q].tolist()
            if hexes > limits.hexes_n and sixths > limits.mp_n:
                continue
            path = ctx.path(searched.line(0, 0 if hexes <= limits.hexes_n else 1, q))
            lengths = as_lengths(hexes, sixths)
            traces[ctx.units[q].id] = Trace(found.range_text, True, "division HQ", hq.hex, hq, *lengths, path)
    return traces


# -- 7.2, 20.3: attachment -----------------------------------------------------------------------


@dataclass(frozen=True)
class Attachments:
    """Who is attached to which HQ (7.2, 20.3), and who was refused.

    ``attached_to`` unit id -> the formation whose HQ supplies it; ``traces`` their lines; ``refused``
    unit id -> the HQs in range whose places were all taken; ``places_taken`` formation -> (unit id, of
    another division) of each unit holding a place at its HQ.
    """

    attached_to: dict[str, str] = field(default_factory=dict)
    traces: dict[str, Trace] = field(default_factory=dict)
    refused: dict[str, list[str]] = field(default_factory=dict)
    places_taken: dict[str, list[tuple[str, bool]]] = field(default_factory=dict)


def of_another_division(found: UnitLines, ctx: SideContext, u: Unit, hq: Unit) -> bool:
    """Whether a unit would take an HQ's one place for a non-artillery unit of another division (7.2).

    A breakdown company is a corps unit (7.2, 15.1), and so is a unit whose division has no HQ.
    """
    q = ctx.query[u.id]
    return q not in found.headless and u.formation != hq.formation and not is_artillery(u)


def place_free(ctx: SideContext, found: UnitLines, attached: Attachments, u: Unit, hq: Unit) -> bool:
    """Whether an in-supply HQ still has a place this unit could take (7.2, 20.3), as attached now.

    A unit the chart lets attach freely needs none; a unit of another division needs the HQ's one
    place for such a unit too (7.2; a KG HQ takes any, 20.3).
    """
    supply_rules = ctx.rules.supply
    if u.type in ctx.free_types():
        return True
    kg = hq.hq == "kg"
    taken = attached.places_taken.get(hq.formation, [])
    if len(taken) >= supply_rules["kg_attach_limit" if kg else "attach_limit"]:
        return False
    if kg or not of_another_division(found, ctx, u, hq):
        return True
    return sum(other for _, other in taken) < supply_rules["attach_other_division"]


def _attached_trace(ctx: SideContext, found: UnitLines, q: int, hq: Unit, how: str) -> Trace:
    """Return the line of a unit attached to an HQ: from the range search, or searched when first read."""
    group = found.group_of[hq.formation]
    hexes, mp = found.lengths(group, q)
    path = found.line(group, q, ctx.limits)
    find = None
    if not path:  # a unit of another division: its line was not kept by the range search
        metric = "hexes" if hexes <= ctx.limits.hexes else "mp"
        hq_hex = int(ctx.at[ctx.query[hq.id]])
        limit = ctx.limits.hexes_n if metric == "hexes" else ctx.limits.mp_n
        lines, origin = ctx.lines, np.array([ctx.at[q]])

        def find() -> list[str]:  # searched when first read
            _, ptr, flat = lines.to_roots([hq_hex], origin, metric, limit)
            return ctx.path(flat[ptr[0] : ptr[1]])

    target = path[-1] if path else hq.hex
    return Trace(found.range_text, True, "attached", target, hq, hexes, mp, path, find, how)


def attach(
    ctx: SideContext, divisions: DivisionVerdicts, found: UnitLines, traces: dict[str, Trace]
) -> Attachments:
    """Attach units with no line of their own to in-supply division or KG HQs (7.2, 20.3).

    Free attachments first (the Attachment Reference Chart's exceptions: a
    CW division supplies one whole CW armoured brigade; ships, Crocodiles
    and AVREs attach without taking a place; German artillery too under
    the "free" reading); then the places of each HQ are filled as the
    owner would, so that the most units are supplied
    (:func:`~normandy_lab.rules.bfn.attachment.best_attachments`).
    ``traces`` are the lines found so far (General Supply: ``supplied``).
    """
    supply_rules, units = ctx.rules.supply, ctx.units
    waiting = [q for q in found.plain if not traces[units[q].id].supplied]
    done = Attachments()
    if not waiting or not found.supplied_divs:
        return done
    # Division units of another division need their distances to the other HQs.
    others = {q for q in waiting if q not in found.headless and may_leave_division(ctx.side, units[q])}
    divs, limits = found.supplied_divs, ctx.limits
    # dist[k, metric, q]: each unit's distance to each in-supply division HQ k (from the range search).
    dist = found.ranges.dist[found.supplied_groups]
    in_range = (dist[:, 0, :] <= limits.hexes_n) | (dist[:, 1, :] <= limits.mp_n)
    free_types = ctx.free_types()
    brigade_division: dict[str, str] = {}  # CW armoured brigade -> the division supplying it

    def attach_to(q: int, u: Unit, hq: Unit, how: str) -> None:
        done.traces[u.id] = _attached_trace(ctx, found, q, hq, how)
        done.attached_to[u.id] = hq.formation

    def attach_freely(q: int, u: Unit, reachable: list[tuple[Unit, Any]]) -> bool:
        """Attach without a place where the chart allows: a whole CW armoured brigade, the free types."""
        brigade = (
            u.formation
            if q in found.headless
            and u.formation
            and u.nationality in supply_rules["brigade_attach_nationalities"]
            and u.type in supply_rules["brigade_attach_types"]
            else None
        )
        for hq, _ in reachable:
            f = hq.formation
            if brigade and _cw(hq.nationality) and brigade_division.get(brigade, f) == f:
                brigade_division[brigade] = f
                attach_to(q, u, hq, " (whole CW armoured brigade)")
                return True
            if u.type in free_types:
                attach_to(q, u, hq, " (free attachment)")
                return True
        return False

    hqs, choices, in_reach = [], [], {}
    for hq in divs:
        kg = hq.hq == "kg"
        capacity = supply_rules["kg_attach_limit"] if kg else supply_rules["attach_limit"]
        other = capacity if kg else supply_rules["attach_other_division"]
        hqs.append(AttachHQ(hq.formation, capacity, other))
    # The units that may attach, with their distances to every in-supply HQ as lists, read at once.
    asking = [q for q in waiting if q in found.headless or q in others]
    near_hqs = in_range[:, asking].T.tolist()
    lengths = dist[:, :, asking].transpose(2, 0, 1).tolist()  # [unit][k] = [hexes, sixths]
    for q, near, d_q in zip(asking, near_hqs, lengths, strict=True):
        u = units[q]
        reachable = [
            (divs[k], d_q[k]) for k, hit in enumerate(near) if hit and may_attach(ctx.side, u, divs[k])
        ]
        reachable.sort(key=lambda item: (int(item[1][1]), str(item[0].formation)))
        if not reachable:
            continue
        in_reach[u.id] = [hq.formation for hq, _ in reachable]
        if attach_freely(q, u, reachable):
            continue
        for hq, d in reachable:
            other_division = q not in found.headless and not is_artillery(u)
            cost = int(d[1]) if d[1] < FAR else int(d[0]) * SIXTHS
            choices.append(AttachOption(u.id, hq.formation, cost, other_division))
    chosen = best_attachments(hqs, choices)
    other_division = {(o.unit_id, o.formation): o.other_division for o in choices}
    for q in waiting:
        u = units[q]
        formation = chosen.get(u.id)
        if formation is None:
            if u.id in in_reach and u.id not in done.traces:
                done.refused[u.id] = in_reach[u.id]
            continue
        done.places_taken.setdefault(formation, []).append((u.id, other_division[(u.id, formation)]))
        attach_to(q, u, divisions.hq_of[formation], "")
    return done


# -- 7.6.1: Combat Supply; 7.5o: isolation --------------------------------------------------------


def combat_supply(
    ctx: SideContext,
    corps: CorpsVerdicts,
    divisions: DivisionVerdicts,
    found: UnitLines,
    attached: Attachments,
    traces: dict[str, Trace],
) -> dict[str, bool]:
    """7.6.1: Combat Supply runs unit -> division HQ (or the HQ it is attached to) -> corps HQ -> source.

    A division unit has it when it is within range of its own division HQ
    and that HQ has it (even if its General Supply came straight from a
    source); a corps unit when attached to a division HQ that has it, or
    within range of a corps HQ of its army that has it (before the Allied
    corps HQs land, a beachhead of its nation, 7.6.1); pathfinders give
    none (7.5); German supply cities give none (7.4).  A ship has it (it
    attaches to any division for combat, the Attachment Reference Chart).
    """
    # The hexes passing Combat Supply on, by army.
    corps_combat_at = {key: {int(h) for h in hexes} for key, hexes in corps.combat_hexes.items()}
    index_of = ctx.lines.g.index_of

    def ends_at_corps(u: Unit, trace: Trace) -> bool:
        end = index_of.get(trace.path[-1]) if trace.path else None
        return end in corps_combat_at.get(army(ctx.side, u.nationality), set())

    # Corps units whose line does not already end at such a corps HQ: one search per army.
    asking: dict[str, list[int]] = {}
    for q in sorted(found.headless):
        u = ctx.units[q]
        if traces[u.id].supplied and u.id not in attached.attached_to and not ends_at_corps(u, traces[u.id]):
            asking.setdefault(army(ctx.side, u.nationality), []).append(q)
    reached: set[int] = set()
    for key, qs in asking.items():
        targets = sorted(corps_combat_at.get(key, set()))
        if not targets:
            continue
        origins = ctx.at[qs]
        by_hexes = ctx.lines.distances(targets, origins, "hexes", ctx.limits.hexes_n)
        by_mp = ctx.lines.distances(targets, origins, "mp", ctx.limits.mp_n)
        reached |= {
            q for q, h, m in zip(qs, by_hexes.tolist(), by_mp.tolist(), strict=True) if h < FAR or m < FAR
        }
    combat: dict[str, bool] = {}
    for q, u in enumerate(ctx.units):
        trace = traces[u.id]
        if u.type == "ship":  # set with its line (unit_lines): not traced
            combat[u.id] = not u.hq
        elif not trace.supplied:
            combat[u.id] = False
        elif u.hq == "corps":
            combat[u.id] = corps.combat[u.id]
        elif u.hq in ("division", "kg"):
            combat[u.id] = divisions.combat[u.formation]
        elif u.id in attached.attached_to:
            combat[u.id] = divisions.combat.get(attached.attached_to[u.id], False)
        elif q in found.headless:
            combat[u.id] = ends_at_corps(u, trace) or q in reached
        else:
            hq = divisions.hq_of.get(u.formation)
            combat[u.id] = (
                hq is not None and divisions.combat.get(u.formation, False) and found.in_own_hq_range[q]
            )
    return combat


def isolation(ctx: SideContext, corps: CorpsVerdicts) -> dict[str, bool]:
    """7.5o: isolated -- no line of any length to a friendly corps HQ (an in-supply one, or any)."""
    targets = list(corps.hexes)
    if ctx.readings["isolation_corps_hq"] == "any":
        targets += [int(ctx.at[ctx.query[u.id]]) for u in ctx.units if u.hq == "corps"]
    if targets:
        reach = ctx.lines.reaches(sorted(set(targets)), ctx.at)
    else:
        reach = np.zeros(len(ctx.units), dtype=bool)
    return {
        u.id: not reached and not (u.hq == "corps" and corps.ok(u.id))
        for u, reached in zip(ctx.units, reach.tolist(), strict=True)
    }


# -- the driver, and its record ------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SideVerdicts:
    """One side's supply determination (7.2-7.6): every pass's result, and each unit's line.

    ``traces`` holds every unit's :class:`Trace` (its General Supply is ``supplied``); ``combat`` and
    ``isolated`` are by unit id (empty for a determination of the verdicts only, see
    :func:`determine_side`).  The explanations (:mod:`.explain`) read this record and nothing else.
    """

    ctx: SideContext
    corps: CorpsVerdicts
    divisions: DivisionVerdicts
    unit_lines: UnitLines
    attachments: Attachments
    traces: dict[str, Trace]
    combat: dict[str, bool]
    isolated: dict[str, bool]

    def supplied(self, unit_id: str) -> bool:
        """Whether a unit is in General Supply (7.2)."""
        return self.traces[unit_id].supplied

    def place_free(self, u: Unit, hq: Unit) -> bool:
        """Whether an in-supply HQ still has a place this unit could take (7.2, 20.3): :func:`place_free`."""
        return place_free(self.ctx, self.unit_lines, self.attachments, u, hq)

    def of_another_division(self, u: Unit, hq: Unit) -> bool:
        """Whether a unit would take an HQ's one place for a unit of another division (7.2)."""
        return of_another_division(self.unit_lines, self.ctx, u, hq)

    def via(self, unit_id: str) -> tuple[str, ...]:
        """Return the chain a unit's supply runs through: what its line reached, then that HQ's, and so on.

        HQs by unit id, the source at the end by hex id (a beachhead acting as a corps HQ by its hex).
        """
        return self._via(unit_id, {})

    def _via(self, unit_id: str, known: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
        """:meth:`via`, with the chains of the HQs already found (``known``, filled): one walk per HQ."""
        found = known.get(unit_id)
        if found is not None:
            return found
        chain: list[str] = []
        trace = self.traces.get(unit_id)
        while trace is not None and trace.supplied and trace.kind != "ship":
            step = trace.traced_id
            if not step or step in chain or step == unit_id:
                break
            chain.append(step)
            if trace.hq is None:
                break
            rest = known.get(step)
            if rest is not None:
                chain.extend(h for h in rest if h not in chain)
                break
            trace = self.traces.get(step)
        known[unit_id] = tuple(chain)
        return known[unit_id]

    def reports(self) -> dict[str, UnitSupply]:
        """Return each unit's report, from the passes' results (the explanations are added later).

        What units share is made once: the ``via`` of the units supplied through one HQ (that HQ, then
        its chain) and the words of the lines ending at one place (made when first read).
        """
        system = self.ctx.state.system
        combat, isolated, traces = self.combat, self.isolated, self.traces
        make = VerdictMaker(self.ctx.side, self.ctx.readings)
        supplied, out_of_supply = make.supplied, make.out
        chains: dict[str, tuple[str, ...]] = {}
        via_through: dict[str, tuple[str, ...]] = {}  # HQ id -> the via of a unit supplied through it
        words_of: dict[tuple[str, str, str, str], Callable[[], str]] = {}  # one maker per line's end
        out: dict[str, UnitSupply] = {}
        for u in self.ctx.units:
            uid = u.id
            t = traces[uid]
            if t.supplied:
                hq, kind = t.hq, t.kind
                if hq is not None:
                    traced_id = hq.id
                    via = via_through.get(traced_id)
                    if via is None:
                        via = via_through[traced_id] = (traced_id, *self._via(traced_id, chains))
                else:
                    traced_id = t.target_hex
                    via = () if kind == "ship" or not traced_id else (traced_id,)
                words = None
                if not t.words:
                    key = (kind, t.target_hex, traced_id if hq is not None else "", t.how)
                    words = words_of.get(key)
                    if words is None:
                        words = words_of[key] = t.words_maker(system)
                # Its words are made when first read (most are never shown), its line searched likewise
                # when no search kept it.
                out[uid] = supplied(
                    uid, u.hex, combat.get(uid, False), isolated.get(uid, False), t.limit, t.hexes, t.mp,
                    t.path, kind, traced_id, via, t.words, words, t.find_path,
                )  # fmt: skip
            else:
                out[uid] = out_of_supply(
                    uid, u.hex, combat.get(uid, False), isolated.get(uid, False), t.limit, t.hexes, t.mp,
                    t.path,
                )  # fmt: skip
        return out

    # What other BfN modules read of a side (the set-up checks): its units, lines and range search.
    @property
    def units(self) -> list[Unit]:
        """The side's units (``q`` indexes them)."""
        return self.ctx.units

    @property
    def at(self) -> np.ndarray:
        """The hex index of each unit."""
        return self.ctx.at

    @property
    def query(self) -> dict[str, int]:
        """Unit id -> its ``q``."""
        return self.ctx.query

    @property
    def lines(self) -> TraceNet:
        """The side's lines (7.3)."""
        return self.ctx.lines

    @property
    def sources(self) -> list[int]:
        """The side's source hexes (7.4)."""
        return self.ctx.sources


def determine_side(
    ctx: SideContext,
    verdicts_only: bool = False,
    hqs: SideVerdicts | None = None,
    any_length: AnyLength | None = None,
) -> SideVerdicts:
    """Determine one side's supply, pass by pass (7.2-7.6).

    With ``verdicts_only`` only General Supply is determined, without the lines (no paths, no Combat
    Supply, no isolation): what a counterfactual of the explanations asks (how much more range supplies a
    unit).  ``hqs``: a determination of the same side whose HQ verdicts stand (the corps and division
    HQs' lines depend on neither unit range, 7.2), so that a counterfactual with longer unit ranges
    does not search them again; ``any_length`` shares the counterfactuals' unit range searches
    (:class:`AnyLength`, with ``verdicts_only`` and ``hqs``).
    """
    if hqs is not None and hqs.ctx.limits.division != ctx.limits.division:
        raise RefusedError(
            "determine_side: hqs= is for the same division HQ range (7.2); determine them again"
        )
    corps = hqs.corps if hqs is not None else corps_hqs(ctx)
    divisions = hqs.divisions if hqs is not None else division_hqs(ctx, corps)
    if any_length is not None and any_length.hqs is not hqs:  # the groups are the same with its HQs only
        raise RefusedError("determine_side: any_length= serves the trials of its own hqs= only")
    found = unit_lines(ctx, corps, divisions, keep_lines=not verdicts_only, any_length=any_length)
    traces = {**corps.traces, **divisions.traces, **found.traces}
    if ctx.readings["hq_bridging"] == "for_its_units":
        traces.update(bridged_lines(ctx, found))
    attached = attach(ctx, divisions, found, traces)
    traces.update(attached.traces)
    if verdicts_only:
        return SideVerdicts(ctx, corps, divisions, found, attached, traces, {}, {})
    combat = combat_supply(ctx, corps, divisions, found, attached, traces)
    return SideVerdicts(ctx, corps, divisions, found, attached, traces, combat, isolation(ctx, corps))
