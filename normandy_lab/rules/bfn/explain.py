"""Why each unit out of supply is out: the binding constraint, established, not guessed (BfN 7.2, 7.3).

For every unit the determination left out of General Supply this module
finds what binds, in this order:

1. its division HQ is out of supply and the unit is within range of it
   (``hq_out_of_supply``: the HQ's own reason follows);
2. the HQs within its range have no attachment place left (``attachment_full``);
3. otherwise the shortest *legal* line to each thing it may use (a source,
   its in-supply division HQ, a corps HQ, a pathfinder): if there is none at
   any length the unit is ``cut_off`` and the ring that closes it is named;
   else it is ``out_of_range`` by the difference to the limit.

Then the *way it would take* if nothing stood in it: the shortest route to
the same targets over the map with every enemy unit, zone of control,
interdicted hex and unbridged hexside lifted (the sea stays).  Each block on
that route is tried alone: its enemy units removed (with their zones of
control), or its hexside bridged, or its hex freed, and the unit's line
searched again within the limit.  A block that alone brings the unit into
range is *binding* and becomes the reason (``blocked``); the others are
named as "in the way".  If even the free route is too long, no block is the
cause and the report says so: the distance binds.

The trial re-searches only the unit's own line against the HQs and sources
as they are (and, for its own HQ out of supply, that HQ's line too).  The
tests check every binding claim of the historical scenarios against a full
re-determination with the block removed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from normandy_lab.engine.reasons import (
    ATTACHMENT_FULL,
    BLOCKED,
    CUT_OFF,
    HQ_OUT_OF_SUPPLY,
    OUT_OF_RANGE,
    Block,
    count_words,
    join_words,
    mp_words,
)
from normandy_lab.engine.report import Explanation
from normandy_lab.engine.search import FAR, NO_COSTS, SIXTHS, components, search_full
from normandy_lab.network import edge_arrays
from normandy_lab.rules.api import INF, as_hexes, as_mp, impassable, water_names
from normandy_lab.rules.bfn.lines import Limits
from normandy_lab.rules.bfn.passes import AnyLength, determine_side, may_attach, may_leave_division

if TYPE_CHECKING:
    from normandy_lab.engine.report import UnitSupply
    from normandy_lab.engine.state import Unit
    from normandy_lab.rules.bfn.passes import SideVerdicts


class _Candidate:
    """Something an out-of-supply unit may trace to, with its limits and the distances found."""

    def __init__(
        self,
        label: str,
        targets: list[int],
        limit_hexes: int,
        limit_mp: int,
        free: bool = False,
        group: int = -1,
    ):
        self.label = label
        self.group = group  # the determination's range group of these targets (-1: none)
        self.available = True  # False: its own division HQ, itself out of supply
        self.hq_id = ""  # the HQ's unit id when the target is one HQ
        self.targets = sorted(set(targets))
        self.limit_hexes = limit_hexes  # -1: not counted in hexes (division HQs count MPs only)
        self.limit_mp = limit_mp  # in sixths
        self.free = free  # an HQ's own first step across water costs nothing (7.3.2 exception)
        self.attach = False  # an in-supply HQ the unit may attach to (7.2, 20.3)
        # (relative, absolute, unit) when the least extra range that supplies the unit is not this line's
        # own shortfall (other units leave an HQ's place free with more range): see nearest_way
        self.claimed: tuple[float, float, str] | None = None
        self.hexes = FAR
        self.mp = FAR

    def within(self, hexes: int, mp: int, factor: float = 1.0) -> bool:
        by_hexes = self.limit_hexes >= 0 and hexes <= self.limit_hexes * factor
        return by_hexes or mp <= self.limit_mp * factor

    def shortfall(self) -> tuple[float, float, str]:
        """Return how far beyond its limit the best legal line is: relative, absolute, and the unit."""
        if self.claimed is not None:
            return self.claimed
        options = []
        if self.limit_hexes >= 0 and self.hexes < FAR:
            over = self.hexes - self.limit_hexes
            options.append((over / max(self.limit_hexes, 1), float(over), "hexes"))
        if self.mp < FAR:
            over = self.mp - self.limit_mp
            options.append((over / max(self.limit_mp, 1), over / SIXTHS, "MP"))
        # On a tie the hexes: an MP claim lengthens the hex limit too (rounded up), so says less.
        return min(options, key=lambda o: (o[0], o[2] != "hexes")) if options else (INF, INF, "")


@dataclass
class _Wording:
    """What a reason says beyond its record (:class:`Explanation`): the words of its parts, found on the way.

    ``ring`` what closes a pocket; ``attach`` whether HQs it may attach to were among the targets;
    ``lengths`` the best line's lengths in words; ``claimed`` the places bind, not the line alone;
    ``hq_reason`` its HQ's own reason; ``refused`` a nearer HQ with no place left; ``besieged`` the
    sentence that replaces a range reason for a unit the scenario marks cut off; ``places`` the HQs' full
    places; ``cause`` the binding block; ``in_way`` the other blocks, on ``free_way``.
    """

    ring: str = ""
    attach: bool = False
    lengths: str = ""
    claimed: bool = False
    hq_reason: str = ""
    refused: str = ""
    besieged: str = ""
    places: list[str] = field(default_factory=list)
    cause: str = ""
    in_way: str = ""
    free_way: str = ""


def _reason(e: Explanation, said: _Wording) -> str:
    """Return a reason's words, made from its record and the words of its parts."""
    if e.binds == "hq":
        return f"{e.target} is out of supply, and it is within range of it (7.2): {said.hq_reason}"
    if e.binds == "places":
        return "within range only of HQs whose attachment places are taken: " + "; ".join(said.places)
    if said.ring:  # no legal line of any length
        rules = "7.2, 7.3" if said.attach else "7.3"
        text = f"cut off: no legal line of any length reaches {e.target} ({rules}); closed by {said.ring}"
    elif said.besieged:
        text = said.besieged
    else:
        over = count_words(e.shortfall, e.shortfall_unit)
        if said.claimed:  # the line alone is not what binds: the places are
            text = (
                f"out of range by {over}: with that much more range {e.target} would take it, other units "
                f"then leaving it a place (its line is {said.lengths}); the limit is {e.limit}"
            )
        else:
            text = (
                f"out of range by {over}: the shortest legal line to {e.target} is {said.lengths}; "
                f"the limit is {e.limit}"
            )
        if said.hq_reason:
            text += f"; and that HQ is out of supply: {said.hq_reason}"
        elif e.weather_bound:
            text += "; within the fair-weather range (7.3.3 halves ranges in Heavy Rain and Storm)"
        if said.refused:
            text += f"; nearer, {said.refused} would have no attachment place left for it (7.2)"
    if said.cause:
        text = f"{said.cause} is the cause: without it the unit would be in range; as it is, {text}"
    if said.in_way:
        alone = "; removing any one of them alone does not restore supply" if not said.cause else ""
        text += f". Also in the way of the {said.free_way}: {said.in_way}{alone}"
    return text


def explain_side(det: SideVerdicts, reports: dict[str, UnitSupply]) -> None:
    """Fill the code, rule, reason, blocks and candidates of every unit of a side out of supply.

    ``det`` is the side's determination (the passes' results), ``reports`` the side's reports made from it.
    """
    out = [u for u in det.ctx.units if not det.supplied(u.id)]
    if out:
        _explain_units(_Explainer(det, reports), out)


def _explain_units(explainer: _Explainer, out: list[Unit]) -> None:
    """Explain these units out of supply (their hooks already cleared), HQs first."""
    # HQs first: their units' reasons may be theirs.
    hqs = [u for u in out if u.hq == "corps"] + [u for u in out if u.hq in ("division", "kg")]
    units = [u for u in out if not u.hq]
    for batch in (hqs, units):
        jobs = [(u, explainer.candidates(u)) for u in batch if not explainer.settled_early(u)]
        explainer.measure(jobs)
        for u, cands in jobs:
            explainer.explain(u, cands)


class SideReasons:
    """The reasons of a side's units out of supply, each worked out when it is first read.

    The first unit read is explained alone (the explorer's side panel reads the one unit clicked, and a
    Storm leaves ~200 units out whose counterfactual trials took half a second, issue 33, section 4);
    what its reason stands on is read from the other reports, so an HQ whose reason it quotes is explained
    first, the same way.  The next unit read explains every unit left at once, HQs first, as
    :func:`explain_side` does (a summary, a table or an export reads them all).  A reason is the same
    whichever way it is reached: it is a function of the side's verdicts (the trials and the distances
    are exact, whatever else is asked with them) and of its HQ's reason.

    Parameters
    ----------
    det
        The side's determination (the passes' results).
    reports
        The side's reports made from it; each unit out of supply gets :meth:`hook` as its
        ``explain_later``.
    """

    def __init__(self, det: SideVerdicts, reports: dict[str, UnitSupply]) -> None:
        self.det, self.reports = det, reports
        self._left = {u.id: u for u in det.ctx.units if not det.supplied(u.id)}
        self._explainer: _Explainer | None = None
        self._asked = 0
        self._nested = 0

    def hook(self, unit_id: str) -> Callable[[], None]:
        """Return the work a unit's report runs when one of its reasons is first read."""
        return lambda: self.explain(unit_id)

    def explain(self, unit_id: str) -> None:
        """Explain ``unit_id`` (alone the first time, or read by another's explanation), else all left."""
        if unit_id not in self._left:
            return
        self._asked += 1
        alone = self._nested or self._asked == 1
        ids = [unit_id] if alone else list(self._left)
        # An exemption (7.5, 6 June) cleared a unit's hook after the verdicts: it has nothing to explain.
        chosen = [self._left.pop(i) for i in ids]
        chosen = [u for u in chosen if not self.reports[u.id].general]
        for u in chosen:  # first: reading a report during the explanation must not recurse
            self.reports[u.id].explain_later(None)
        if self._explainer is None:
            self._explainer = _Explainer(self.det, self.reports)
        self._nested += 1
        try:
            _explain_units(self._explainer, chosen)
        finally:
            self._nested -= 1


class _Explainer:
    def __init__(self, det: SideVerdicts, reports: dict[str, UnitSupply]):
        self.det, self.reports = det, reports
        self._trials: dict[tuple[float, float], SideVerdicts] = {}
        self._any_length = AnyLength(det)  # the trials' unit range searches, at any length, searched once
        # unit id -> what it may use, with its distances (for a unit, not an HQ: see _supplied)
        self._ways: dict[str, list[_Candidate]] = {}
        self.lines = det.ctx.lines
        self.graph = det.ctx.lines.graph
        self.ids = det.ctx.ids
        self.edges = edge_arrays(det.ctx.state.system)
        self.impassable = impassable(det.ctx.state.system, det.ctx.state.maps)
        self._free_routes: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}

    # -- the candidates -------------------------------------------------------------------------

    def candidates(self, u: Unit) -> list[_Candidate]:
        det, limits = self.det, self.det.ctx.limits
        if u.hq == "corps":
            return [_Candidate("a source", det.ctx.sources, -1, FAR - 1, True)]
        if u.hq in ("division", "kg"):
            return [
                _Candidate(
                    "a source or an in-supply corps HQ", det.divisions.roots, -1, limits.division_n, True
                )
            ]
        q = det.ctx.query[u.id]
        found = [_Candidate("a source", det.ctx.sources, limits.hexes_n, limits.mp_n, group=0)]
        hq = det.divisions.hq_of.get(u.formation) if q not in det.unit_lines.headless else None
        if hq is not None:
            at = int(det.ctx.at[det.ctx.query[hq.id]])
            group = det.unit_lines.group_of[u.formation]
            label = f"its division HQ {hq.id}" + (
                "" if det.divisions.ok[hq.id] else " (itself out of supply)"
            )
            own = _Candidate(label, [at], limits.hexes_n, limits.mp_n, group=group)
            own.available, own.hq_id = bool(det.divisions.ok[hq.id]), hq.id
            found.append(own)
        if q in det.unit_lines.headless and det.corps.hexes:
            found.append(_Candidate("a corps HQ", det.corps.hexes, limits.hexes_n, limits.mp_n, group=1))
        if det.unit_lines.pathfinder_on and det.unit_lines.options[q, 1] >= 0:
            hexes = sorted(det.ctx.lines.g.index(h) for h in det.ctx.state.pathfinders)
            group = det.unit_lines.pathfinder_group
            found.append(_Candidate("a pathfinder", hexes, limits.hexes_n, limits.mp_n, group=group))
        return found + self.attach_candidates(u, q)

    def attach_candidates(self, u: Unit, q: int) -> list[_Candidate]:
        """Return the in-supply division and KG HQs a unit may attach to (7.2, 20.3), one candidate each.

        A corps unit (a breakdown company among them, 7.2, 15.1) may attach to any of its army's (6.3);
        a division unit to another division's, in that HQ's one place for such a unit (German artillery
        freely).  An HQ with no place left for it is a candidate not available now.
        """
        det, limits = self.det, self.det.ctx.limits
        if q not in det.unit_lines.headless and not may_leave_division(det.ctx.side, u):
            return []
        found = []
        for hq in det.unit_lines.supplied_divs:
            if (q not in det.unit_lines.headless and hq.formation == u.formation) or not may_attach(
                det.ctx.side, u, hq
            ):
                continue
            kind, rule = ("KG", "20.3") if hq.hq == "kg" else ("division", "7.2")
            own = hq.formation == u.formation  # its own division's HQ: a breakdown company (15.1)
            label = (
                f"its division HQ {hq.id} (to attach as a corps unit, 7.2, 15.1)"
                if own
                else f"the {kind} HQ {hq.id} (to attach, {rule})"
            )
            at = int(det.ctx.at[det.ctx.query[hq.id]])
            c = _Candidate(
                label, [at], limits.hexes_n, limits.mp_n, group=det.unit_lines.group_of[hq.formation]
            )
            c.attach, c.hq_id, c.available = True, hq.id, det.place_free(u, hq)
            found.append(c)
        return found

    def measure(self, jobs: list[tuple[Unit, list[_Candidate]]]) -> None:
        """Find the shortest legal line from each unit to each of its candidates, at any length.

        Distances the determination's range searches already found are exact
        and reused; the others are searched once per set of targets for all
        the units that ask it.
        """
        det = self.det
        asked: dict[tuple, list[tuple[_Candidate, int]]] = {}
        labels = self.labels()
        for u, cands in jobs:
            q = det.ctx.query[u.id]
            origin = int(det.ctx.at[q])
            pocket = self.pocket_labels(origin)
            for c in cands:
                if not c.targets:
                    continue
                # No target in the unit's piece of the map: no line at any length, nothing to search.
                if not pocket & set(labels[c.targets].tolist()):
                    continue
                for metric in ("hexes", "mp") if c.limit_hexes >= 0 else ("mp",):
                    known = (
                        det.unit_lines.ranges.dist[c.group, 0 if metric == "hexes" else 1, q]
                        if c.group >= 0
                        else FAR
                    )
                    if known < FAR:
                        setattr(c, metric, int(known))
                    else:
                        asked.setdefault((tuple(c.targets), c.free, metric), []).append((c, origin))
        for (targets, free, metric), wanted in asked.items():
            origins = np.array([o for _, o in wanted], dtype=np.int64)
            found = self.lines.distances(list(targets), origins, metric, FAR, free=free)
            for (c, _), value in zip(wanted, found.tolist(), strict=True):
                setattr(c, metric, int(value))

    def labels(self) -> np.ndarray:
        """Return the connected pieces of the map for this side's lines (computed once)."""
        lines, gr = self.lines, self.graph
        if lines._labels is None:
            lines._labels = components(gr.rev_ptr, gr.rev_nbr, lines.costs.rev_open, lines.blocked)
        return lines._labels

    def pocket_labels(self, origin: int) -> set[int]:
        """Return the pieces a line from ``origin`` can run in: its own, and those its first step reaches."""
        lines, gr, labels = self.lines, self.graph, self.labels()
        found = {int(labels[origin])}
        for k in range(gr.fwd_ptr[origin], gr.fwd_ptr[origin + 1]):
            x = int(gr.fwd_nbr[k])
            if lines.costs.fwd_first[k] and not lines.blocked[x]:
                found.add(int(labels[x]))
        return found

    def settled_early(self, u: Unit) -> bool:
        """Explain the units whose HQ is out of supply or whose HQs are full; True when done."""
        det = self.det
        if u.hq is not None:
            return False
        r = self.reports[u.id]
        q = det.ctx.query[u.id]
        hq = det.divisions.hq_of.get(u.formation) if q not in det.unit_lines.headless else None
        if (
            hq is not None
            and not det.divisions.ok[hq.id]
            and det.unit_lines.in_range(det.unit_lines.group_of[u.formation], q, det.ctx.limits)
        ):
            self._hq_out(r, hq)
            return True
        if u.id in det.attachments.refused:
            self._full(r, u)
            return True
        return False

    # -- one unit -------------------------------------------------------------------------------

    def explain(self, u: Unit, cands: list[_Candidate]) -> None:
        """Explain one unit out of supply: its record (what binds, :class:`Explanation`), then its words."""
        det = self.det
        r = self.reports[u.id]
        origin = int(det.ctx.at[det.ctx.query[u.id]])
        cands = [c for c in cands if c.targets]
        shown = [
            {
                "target": c.label,
                "hexes": float(as_hexes(c.hexes)) if c.limit_hexes >= 0 else INF,
                "mp": float(as_mp(c.mp)),
                "why": self._candidate_words(c),
            }
            for c in self.shown(cands)
        ]
        reachable = [c for c in cands if c.mp < FAR or c.hexes < FAR]
        usable = [c for c in reachable if c.available]
        blocks, best_free, free_within = self.free_route_blocks(u, origin, cands)
        if free_within:  # a block can bind only if the way without any is short enough
            for block in blocks:
                block.binding = self.restores(u, origin, cands, block)
        binding = [b for b in blocks if b.binding]
        main = binding[0] if binding else (blocks[0] if blocks else None)
        at = dict(hex=main.hex, units=tuple(main.units)) if main is not None else {}
        limit = r.limit or det.unit_lines.range_text
        said = _Wording()
        if not reachable:
            labels = [c.label for c in cands if not c.attach]
            said.attach = any(c.attach for c in cands)
            if said.attach:
                labels.append("an HQ it may attach to")
            what = join_words(labels, "or") or "a source or an HQ"
            said.ring = self.ring(origin, free=bool(u.hq))
            e = Explanation(CUT_OFF, "7.3", "ring", what, limit=limit, **at)
        else:
            if u.hq is None:
                self._ways[u.id] = cands
            best, refused = self.nearest_way(u, usable, reachable)
            relative, shortfall, unit = best.shortfall()
            rule = "7.2" if u.hq in ("division", "kg") else ("7.2, 7.3.1" if best.attach else "7.3.1")
            said.lengths, said.claimed = self._length_words(best), best.claimed is not None
            weather = False
            if not best.available and not best.attach:  # its own division HQ, out of supply
                said.hq_reason = self.reports[best.hq_id].reason
            elif det.ctx.limits.mp < det.ctx.rules.supply["unit_range_mp"] and self._within_fair(best):
                weather, rule = True, rule + ", 7.3.3"
            if refused is not None:
                said.refused = f"{refused.label.split(' (')[0]} ({self._length_words(refused)})"
            if u.cut_off and u.hq is None and relative > 1:
                said.besieged = self._besieged()
            e = Explanation(
                OUT_OF_RANGE, rule, "range", best.label, length_hexes=float(as_hexes(best.hexes))
                if best.limit_hexes >= 0 else INF, length_mp=float(as_mp(best.mp)), limit=limit,
                shortfall=shortfall, shortfall_unit=unit, hq=best.hq_id, weather_bound=weather, **at,
            )  # fmt: skip
        if binding:
            said.cause = f"{binding[0].words()} ({binding[0].rule})"
            e = replace(e, code=BLOCKED, rule=binding[0].rule, binds="block")
        in_way = [b for b in blocks if not b.binding]
        if in_way:
            said.in_way = join_words([b.words() for b in in_way[:4]]) + (" ..." if len(in_way) > 4 else "")
            said.free_way = best_free
        r.fill(
            explanation=e, code=e.code, rule=e.rule, reason=_reason(e, said), blocks=blocks,
            length_hexes=e.length_hexes, length_mp=e.length_mp, shortfall=e.shortfall,
            weather_bound=e.weather_bound, blocking_hex=e.hex, blocking_units=list(e.units), candidates=shown,
        )  # fmt: skip

    def nearest_way(
        self, u: Unit, usable: list[_Candidate], reachable: list[_Candidate]
    ) -> tuple[_Candidate, _Candidate | None]:
        """Return what the least extra range would supply the unit by, and a nearer HQ that would not.

        Its own ways (a source, its division HQ, a corps HQ, a pathfinder) need only their line within
        range.  An HQ it may attach to (7.2, 20.3) needs a place too, and with a longer range other
        units compete for the places, or leave them for lines of their own: so where such an HQ is
        nearer than its own ways, the side's verdicts are determined again with more range, nearest
        first, until one supplies the unit; and one step (a hex, or 1/6 MP) less must not.  The claim
        then made is exact: that much more range supplies it, and less does not.
        """
        own = [c for c in usable if not c.attach] or [c for c in reachable if not c.attach]
        best = min(own, key=lambda c: c.shortfall()[0], default=None)
        bound = best.shortfall()[0] if best is not None else INF
        attach = sorted(
            (c for c in reachable if c.attach and c.shortfall()[0] < bound), key=lambda c: c.shortfall()[0]
        )
        if not attach:
            return best, None
        refused, low = None, 0
        for c in [*attach, *([best] if best is not None else [])]:
            _, over, unit = c.shortfall()
            if not self._supplied(u, *self._extension(over, unit)):
                if c.attach and refused is None:
                    refused = c
                low = round(over * SIXTHS)
                continue
            less = self._extension(over - (1 if unit == "hexes" else 1 / SIXTHS), unit)
            if not self._supplied(u, *less):
                return c, (refused if refused is not c else None)
            # Less already supplies it (other units left places free): the least extension lies between.
            high = round(over * SIXTHS) - 1
            while high - low > 1:
                mid = (low + high) // 2
                if self._supplied(u, *self._extension(mid / SIXTHS, "MP")):
                    high = mid
                else:
                    low = mid
            return self._found_at(u, high / SIXTHS, attach, c), refused
        if best is None:  # no way of its own at any length, and no HQ would take it: the nearest
            return min(reachable, key=lambda c: c.shortfall()[0]), None
        return best, refused

    def trial(self, hexes: float, mp: float) -> SideVerdicts:
        """Return this side's verdicts with the units' range longer by ``hexes`` hexes and ``mp`` MP (7.3.1).

        The counterfactual a range reason stands on: "out of range by 2 hexes" means that two more hexes
        (and as many more MP) supply the unit, attachments chosen again (7.2).  The division HQs' 20 MP
        and everything else stay.  Only the General Supply verdicts are determined, each extension once.
        """
        key = (round(float(hexes), 6), round(float(mp), 6))
        if key not in self._trials:
            limits = self.det.ctx.limits
            longer = Limits(hexes=limits.hexes + key[0], mp=limits.mp + key[1], division=limits.division)
            longer_ctx = self.det.ctx.with_limits(longer)
            self._trials[key] = determine_side(
                longer_ctx, verdicts_only=True, hqs=self.det, any_length=self._any_length
            )
        return self._trials[key]

    def _extension(self, over: float, unit: str) -> tuple[float, float]:
        """Return the extra hexes and MP of a range longer by ``over`` (an MP shortfall rounds hexes up)."""
        half = self.det.ctx.limits.hexes / max(
            self.det.ctx.rules.supply["unit_range_hexes"], 1
        )  # 1, or 1/2 in Storm
        hexes = over if unit == "hexes" else float(np.ceil(over / half - 1e-9) * half)
        return hexes, over

    def _supplied(self, u: Unit, hexes: float, mp: float) -> bool:
        """Whether ``hexes`` hexes and ``mp`` MP more range supply the unit (:meth:`trial`).

        A trial is skipped when nothing the unit may use, an HQ it may attach to included, is within the
        longer range by its shortest legal line (measured at any length): no line, no supply (7.2, 7.3.1).
        Not under the ``hq_bridging`` reading "for_its_units", where an HQ's bridged water adds lines.
        """
        ways = self._ways.get(u.id)
        if ways is not None and self.det.ctx.readings["hq_bridging"] != "for_its_units":
            limits = self.det.ctx.limits
            longer = Limits(hexes=limits.hexes + hexes, mp=limits.mp + mp, division=limits.division)
            if not any(
                (c.available or c.attach) and (c.hexes <= longer.hexes_n or c.mp <= longer.mp_n) for c in ways
            ):
                return False
        return self.trial(hexes, mp).supplied(u.id)

    def _found_at(self, u: Unit, over: float, attach: list[_Candidate], fallback: _Candidate) -> _Candidate:
        """Return the way a unit takes with ``over`` MP more range, claimed at that shortfall."""
        trial = self.trial(*self._extension(over, "MP"))
        formation = trial.attachments.attached_to.get(u.id)
        hq_id = trial.divisions.hq_of[formation].id if formation else ""
        way = next((c for c in attach if c.hq_id == hq_id), fallback)
        found = _Candidate(way.label, way.targets, way.limit_hexes, way.limit_mp)
        found.attach, found.hq_id, found.available = way.attach, way.hq_id, way.available
        found.hexes, found.mp = way.hexes, way.mp
        extra_hexes, _ = self._extension(over, "MP")
        if way.limit_hexes >= 0 and way.hexes <= way.limit_hexes + extra_hexes:  # its hex line may bind
            hexes = float(way.hexes - way.limit_hexes)
            if self._supplied(u, hexes, hexes) and not self._supplied(u, hexes - 1, hexes - 1 / SIXTHS):
                return way
        found.claimed = (over / max(self.det.ctx.limits.mp, 1e-9), over, "MP")
        return found

    def shown(self, cands: list[_Candidate]) -> list[_Candidate]:
        """Return the candidates a report lists: all, but of the HQs it may attach to only the nearest.

        The nearest with a place for it, and, when nearer still, the nearest with none left.
        """
        attach = [c for c in cands if c.attach and (c.mp < FAR or c.hexes < FAR)]
        open_ = min((c for c in attach if c.available), key=lambda c: c.shortfall()[0], default=None)
        full = min((c for c in attach if not c.available), key=lambda c: c.shortfall()[0], default=None)
        keep = [c for c in (open_, full) if c is not None]
        if open_ is not None and full is not None and full.shortfall()[0] >= open_.shortfall()[0]:
            keep = [open_]
        return [c for c in cands if not c.attach] + keep

    def _besieged(self) -> str:
        """Say why a unit the scenario marks cut off, and the rules leave out far beyond range, is out.

        The record has it cut off behind the enemy's line, but the rules see no closed ring (7.3): its
        nearest legal line runs out round the enemy, more than twice its range.  A count of hexes on such
        a line says nothing a class needs; that it stands outside the game's supply net does.  The
        shortfall stays in the report (``shortfall``): that much more range would supply it.
        """
        limit = self.det.unit_lines.range_text.removesuffix(" (7.3.1)")
        return (
            "besieged behind the enemy's line (cut off on this date, by the scenario's record) and outside "
            f"the game's supply net: no source or HQ it may use is within twice its range of {limit} "
            "(7.3.1); the rules see no ring of enemy closing it (7.3), so distance alone holds it out"
        )

    def _within_fair(self, c: _Candidate) -> bool:
        return c.within(c.hexes, c.mp, factor=2.0)

    def _length_words(self, c: _Candidate) -> str:
        parts = []
        if c.limit_hexes >= 0 and c.hexes < FAR:
            parts.append(count_words(c.hexes, "hexes"))
        if c.mp < FAR:
            parts.append(mp_words(c.mp / SIXTHS))
        return " or ".join(parts)

    def _candidate_words(self, c: _Candidate) -> str:
        if c.mp >= FAR and c.hexes >= FAR:
            return "no legal line"
        _, over, unit = c.shortfall()
        full = "; no attachment place left for it" if c.attach and not c.available else ""
        return f"out of range by {count_words(over, unit)} ({self._length_words(c)}){full}"

    def _hq_out(self, r: UnitSupply, hq: Unit) -> None:
        """7.2: its division HQ is out of supply and the unit is within range of it: the HQ's reason binds."""
        hq_report = self.reports[hq.id]
        e = Explanation(
            HQ_OUT_OF_SUPPLY, "7.2", "hq", f"its division HQ {hq.id}", hq_report.blocking_hex,
            tuple(hq_report.blocking_units), r.length_hexes, r.length_mp, r.limit, hq=hq.id,
            weather_bound=hq_report.weather_bound,
        )  # fmt: skip
        r.fill(
            explanation=e, code=e.code, rule=e.rule, reason=_reason(e, _Wording(hq_reason=hq_report.reason)),
            blocks=[Block(**vars(b)) for b in hq_report.blocks], blocking_hex=e.hex,
            blocking_units=list(e.units), weather_bound=e.weather_bound,
        )  # fmt: skip

    def _full(self, r: UnitSupply, u: Unit) -> None:
        """7.2, 20.3: within range only of HQs whose attachment places are all taken."""
        det = self.det
        rule, taken, holders = "7.2", [], []
        for formation in det.attachments.refused[u.id]:
            hq = det.divisions.hq_of[formation]
            held = det.attachments.places_taken.get(formation, [])
            mine = sorted(uid for uid, _ in held)
            places = det.ctx.rules.supply["kg_attach_limit" if hq.hq == "kg" else "attach_limit"]
            if hq.hq == "kg":
                rule = "7.2, 20.3"
                taken.append(
                    f"the KG HQ {hq.id} already has {len(mine)} of its {places} attached ({', '.join(mine)})"
                )
                holders.append((hq.id, mine))
                continue
            # A unit of another division needs the HQ's one place for such a unit (7.2): when another
            # holds it, that is what binds, whether or not a corps unit's place is free too.
            others = sorted(uid for uid, other in held if other)
            if det.of_another_division(u, hq) and others:
                taken.append(
                    f"the division HQ {hq.id} already has its one unit of another division attached "
                    f"({others[0]})"
                )
                holders.append((hq.id, others[:1]))
            else:
                taken.append(
                    f"the division HQ {hq.id} already has {len(mine)} of {places} attached "
                    f"({', '.join(mine)})"
                )
                holders.append((hq.id, mine))
        first, units = holders[0] if holders else ("", [])
        e = Explanation(
            ATTACHMENT_FULL, rule, "places", f"the HQ {first}", units=tuple(units),
            length_hexes=r.length_hexes, length_mp=r.length_mp, limit=r.limit, hq=first,
        )  # fmt: skip
        r.fill(explanation=e, code=e.code, rule=e.rule, reason=_reason(e, _Wording(places=taken)))

    # -- the route with nothing in the way -------------------------------------------------------

    def free_route_blocks(
        self, u: Unit, origin: int, cands: list[_Candidate]
    ) -> tuple[list[Block], str, bool]:
        """Return the blocks on the shortest route to the nearest candidate over the map with no blocks.

        Only a route within the limit can make a block binding; a longer free route
        is still searched so the report can say what stands on the direct way.
        """
        best: tuple[float, list[int], _Candidate] | None = None
        within = False
        for c in cands:
            for metric in ("hexes", "mp") if c.limit_hexes >= 0 else ("mp",):
                limit = c.limit_hexes if metric == "hexes" else c.limit_mp
                dist, pred = self._free_search(tuple(c.targets), metric, limit)
                if dist[origin] > limit:
                    continue
                within = True
                score = dist[origin] / max(limit, 1)
                if best is None or score < best[0]:
                    path = [origin]
                    while pred[path[-1]] >= 0:
                        path.append(int(pred[path[-1]]))
                    best = (score, path, c)
        if best is None:
            return [], "", False
        _, path, c = best
        return self.blocks_on(path, free=c.free), f"direct way to {c.label}", within

    def _free_search(
        self, targets: tuple[int, ...], metric: str, limit: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """Search from the targets over the map with no blocks, as far as the limit (cached)."""
        key = (targets, metric, limit)
        if key not in self._free_routes:
            gr, c = self.graph, self.lines.costs
            step = c.rev_ones if metric == "hexes" else c.rev_mp
            dist, pred, _ = search_full(
                gr.rev_ptr, gr.rev_nbr, c.rev_land, step, self.impassable,
                np.asarray(targets, dtype=np.int64), int(limit), np.empty(0, dtype=np.int64), NO_COSTS,
            )  # fmt: skip
            self._free_routes[key] = (dist, pred)
        return self._free_routes[key]

    def _edge(self, a: int, b: int) -> int:
        gr = self.graph
        row = slice(gr.fwd_ptr[a], gr.fwd_ptr[a + 1])
        hit = np.nonzero(gr.fwd_nbr[row] == b)[0]
        return int(gr.fwd_eid[row][hit[0]])

    def blocks_on(self, path: list[int], free: bool) -> list[Block]:
        """Name each block along a route: enemy units, vacant EZOC hexes, interdicted hexes, water."""
        lines, ids = self.lines, self.ids
        found: list[Block] = []
        for step, (a, b) in enumerate(itertools.pairwise(path)):
            e = self._edge(a, b)
            first_step = step == 0
            if not lines.costs.open[e] and lines.costs.land[e] and not (first_step and lines.costs.first[e]):
                name = water_names(self.det.ctx.state.system)[e]
                found.append(Block("water", str(ids[b]), water=name, near_hex=str(ids[a])))
            if lines.enemy[b]:
                found.append(Block("enemy", str(ids[b]), units=list(lines.enemy_units_at.get(b, []))))
            elif lines.interdicted[b]:
                found.append(Block("interdicted", str(ids[b])))
            elif lines.in_ezoc[b] and not lines.negating[b]:
                by = sorted(
                    uid
                    for near in lines.land_neighbours(b)
                    if lines.enemy_ground[near]
                    for uid in lines.enemy_units_at.get(near, [])
                )
                found.append(Block("ezoc", str(ids[b]), units=by))
        return found

    # -- the trial: does removing one block restore supply? --------------------------------------

    def restores(self, u: Unit, origin: int, cands: list[_Candidate], block: Block) -> bool:
        lines, g = self.lines, self.lines.g
        blocked, rev_open, fwd_first = None, None, None
        at = g.index(block.hex)
        if block.kind == "enemy":
            blocked = lines.blocked_without(enemy_hexes=[at])
        elif block.kind == "ezoc":
            near = [h for h in lines.land_neighbours(at) if lines.enemy_ground[h]]
            blocked = lines.blocked_without(enemy_hexes=near)
        elif block.kind == "interdicted":
            blocked = lines.blocked_without(interdicted_hex=at)
        elif block.kind == "water":
            rev_open, _, fwd_first = lines.bridged([self._edge(g.index(block.near_hex), at)])
        else:
            return False
        trial = dict(blocked=blocked, rev_open=rev_open, fwd_first=fwd_first)
        o = np.array([origin], dtype=np.int64)
        for c in cands:
            # Only a target whose way with nothing in it is short enough can come within range.
            if c.available and self._free_within(c, origin) and self._reaches(c, o, trial):
                return True
        # A division unit whose own HQ is out of supply: the block may free both.
        det = self.det
        hq = det.divisions.hq_of.get(u.formation) if u.hq is None else None
        if hq is not None and not det.divisions.ok[hq.id]:
            hq_at = np.array([det.ctx.at[det.ctx.query[hq.id]]], dtype=np.int64)
            hq_line = _Candidate("", det.divisions.roots, -1, det.ctx.limits.division_n, True)
            own = _Candidate("", [int(hq_at[0])], det.ctx.limits.hexes_n, det.ctx.limits.mp_n)
            if self._reaches(hq_line, hq_at, trial) and self._reaches(own, o, trial):
                return True
        return False

    def _free_within(self, c: _Candidate, origin: int) -> bool:
        metrics = (
            (("hexes", c.limit_hexes), ("mp", c.limit_mp)) if c.limit_hexes >= 0 else (("mp", c.limit_mp),)
        )
        return any(self._free_search(tuple(c.targets), m, limit)[0][origin] <= limit for m, limit in metrics)

    def _reaches(self, c: _Candidate, origins: np.ndarray, trial: dict) -> bool:
        if not c.targets:
            return False
        mp = int(self.lines.distances(c.targets, origins, "mp", c.limit_mp, free=c.free, **trial)[0])
        if mp <= c.limit_mp:
            return True
        if c.limit_hexes < 0:
            return False
        hexes = int(self.lines.distances(c.targets, origins, "hexes", c.limit_hexes, free=c.free, **trial)[0])
        return hexes <= c.limit_hexes

    # -- the ring of a pocket ---------------------------------------------------------------------

    def ring(self, origin: int, free: bool) -> str:
        """Say what closes the pocket a cut-off unit stands in: enemy units, EZOC hexes, water, the sea."""
        lines, e = self.lines, self.edges
        labels = self.labels()
        pocket_labels = self.pocket_labels(origin)
        inside = np.isin(labels, sorted(pocket_labels)) & ~lines.blocked
        inside[origin] = True
        leaving = inside[e.src] & ~inside[e.dst]
        dst = e.dst[leaving]
        sea = self.impassable[dst] | e.all_sea[leaving]
        enemy = lines.enemy[dst] & ~sea
        interdicted = lines.interdicted[dst] & ~enemy & ~sea
        ezoc = lines.in_ezoc[dst] & ~lines.negating[dst] & ~enemy & ~interdicted & ~sea
        water = ~lines.costs.open[leaving] & ~sea & ~(enemy | ezoc | interdicted)
        parts = []
        enemy_hexes = sorted(set(self.ids[dst[enemy]].tolist()))
        if enemy_hexes:
            units = sorted(
                {uid for h in np.unique(dst[enemy]) for uid in lines.enemy_units_at.get(int(h), [])}
            )
            shown = ", ".join(units[:6]) + (" ..." if len(units) > 6 else "")
            parts.append(
                f"enemy units in {len(enemy_hexes)} hex{'es' if len(enemy_hexes) > 1 else ''} ({shown})"
            )
        ezoc_hexes = sorted(set(self.ids[dst[ezoc]].tolist()))
        if ezoc_hexes:
            shown = ", ".join(ezoc_hexes[:6]) + (" ..." if len(ezoc_hexes) > 6 else "")
            parts.append(
                f"{len(ezoc_hexes)} vacant hex{'es' if len(ezoc_hexes) > 1 else ''} "
                f"in enemy zones of control ({shown})"
            )
        if interdicted.any():
            parts.append(f"{len(set(dst[interdicted].tolist()))} interdicted hexes")
        if water.any():
            names = sorted(
                {
                    n or "unnamed water"
                    for n in water_names(self.det.ctx.state.system)[np.nonzero(leaving)[0][water]]
                }
            )
            parts.append("the unbridged " + join_words(names))
        if sea.any():
            parts.append("the sea")
        size = int(inside.sum())
        return (
            f"{join_words(parts) or 'the edge of the map'} (a pocket of {size} hex{'es' if size > 1 else ''})"
        )
