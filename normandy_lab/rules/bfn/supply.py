"""Lines of supply, exactly as The Battle for Normandy's rules say (7.x), with the reasons.

Rules implemented:

* 7.2 -- corps HQs are in supply at any length to a source; division HQs
  within 20 MPs of a source or of an in-supply corps HQ; division units
  within 6 hexes or 6 MPs (whichever succeeds) of a source or of their
  in-supply division HQ; non-division units to a source or an in-supply
  corps HQ, or attached to a division HQ (at most three per HQ); until
  11 June the beachheads act as corps HQs.
* 7.3 -- a line of supply may not enter hexes held by enemy units, nor a
  vacant hex in an EZOC (a friendly unit there negates it, 5.4).
* 7.3.2 -- supply MPs are counted at infantry rates: 1/2 MP along primary
  roads, 1/3 MP along highways, other terrain at its infantry cost; an
  unbridged stream or river hexside may be crossed only by the tracing unit
  itself, from its own hex (an HQ starts counting from the far bank, so it
  bridges the river for its units, 7.3.2 exception, 14.2.1).
* 7.3.3 -- supply ranges are halved in Heavy Rain and Storm.
* 7.4 -- sources: Allied beachheads (US units to Utah and Omaha, British,
  Canadian and Polish units to Gold, Juno and Sword for combat supply; any
  beachhead for general supply); German road and highway hexes leaving the
  east and south map edges, and German-controlled City hexes of Bayeux,
  Cherbourg, Caen, Argentan, Flers and Vire (general supply only).
* 7.6.1 -- combat supply traces unit -> division HQ -> corps HQ -> source
  (a division HQ may not skip its corps HQ).
* 7.5 -- out of supply: attack strength and movement allowance halved.
* 7.5o -- isolated: no line of any length to a friendly corps HQ.

Distances are computed by the engine's compiled searches
(:mod:`normandy_lab.engine.search`) over the edges of
:func:`normandy_lab.network.edge_arrays`; :func:`.reference.supply_networkx` computes
the same distances with networkx weight callables, and the tests prove the
two agree.  :func:`determine_supply` is what
``BFN_RULES.determine_supply(state)`` (and so :func:`normandy_lab.supply`) runs.
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache

import numpy as np

from normandy_lab.engine.reasons import EXEMPT
from normandy_lab.engine.report import SupplyReport, UnitSupply
from normandy_lab.engine.search import FAR, SIXTHS
from normandy_lab.engine.state import GameState, Unit
from normandy_lab.engine.zoc import hex_control
from normandy_lab.grids import grid
from normandy_lab.rules.api import INF, Situation, as_hexes, as_mp
from normandy_lab.rules.bfn.lines import Limits, TraceNet
from normandy_lab.rules.common import edge_road_hexes
from normandy_lab.terrain import terrain_map

CW = ("UK", "CA", "PL")
US = ("US", "FR")


def german_sources(state: GameState, rules, situation: Situation | None = None) -> list[int]:
    """7.4: road hexes leaving the east or south map edge, and German-controlled supply-city hexes.

    ``situation`` when already found (its zones of control decide who holds a city hex, 3.3).
    """
    cities = _city_hexes(state.system, frozenset(state.german_supply_cities))
    zoc, occupied = (situation.zoc, situation.occupied) if situation is not None else (None, None)
    held = cities[hex_control(state, zoc, occupied, at=cities) != "allied"]
    return sorted(set(edge_road_hexes(state.system, state.maps)) | set(held.tolist()))


@lru_cache(maxsize=32)
def _city_hexes(system: str, cities: frozenset[str]) -> np.ndarray:
    """Return the City hexes of the named built-up areas (7.4); they depend only on the map."""
    tmap = terrain_map(system, progress=False)
    builtup = tmap.hexes["builtup_name"].to_numpy()
    settlement = tmap.hexes["settlement"].to_numpy()
    return np.nonzero((settlement == "City") & np.isin(builtup, sorted(cities)))[0]


@lru_cache(maxsize=8)
def _beach_hexes(system: str) -> np.ndarray:
    """Return the Beach hexes of a map (the landing rows beside a beachhead, 19.4.1)."""
    from normandy_lab.terrain.vocab import VOCABULARIES

    tmap = terrain_map(system, progress=False)
    return tmap.hexes["terrain"].to_numpy() == VOCABULARIES[system].beach


def _cw(nationality: str | None) -> bool:
    return nationality in CW


def _same_army(a: str | None, b: str | None) -> bool:
    """US and CW units may not attach to each other's divisions (6.3)."""
    return (a in US) == (b in US)


def _as_lengths(hexes: int, sixths: int) -> tuple[float, float]:
    """Return a search's hex count and sixths of an MP as hexes and MPs (inf: none within the search)."""
    return (INF if hexes >= FAR else float(hexes)), (INF if sixths >= FAR else sixths / SIXTHS)


def _hex_place(system: str, hex_id: str) -> str:
    """Return the place a hex is in or near (the gazetteer is loaded only when a report's words are read)."""
    from normandy_lab.terrain.places import hex_place

    return hex_place(system, hex_id)


def _army(side: str, nationality: str | None) -> str:
    """Return the supply family of a unit for Combat Supply (7.4): "US", "CW" or "DE"."""
    if side == "german":
        return "DE"
    return "US" if nationality in US else "CW"


# The rule readings where the rulebook is open (their defaults and meanings: rules.bfn.READINGS).
READING_KEYS = (
    "german_artillery_attach", "combat_supply_chain", "isolation_corps_hq", "hq_bridging", "mulberry_sources",
)  # fmt: skip


class SideSupply:
    """The supply determination of one side (7.2-7.6), step by step."""

    def __init__(
        self, state: GameState, side: str, lines: TraceNet, rules, limits: Limits, situation: Situation
    ) -> None:
        g = lines.g
        self.state, self.side, self.lines, self.rules, self.limits = state, side, lines, rules, limits
        self.situation = situation
        self._trials: dict[tuple[float, float], SideSupply] = {}
        self.ids = g.id_array
        self.units = state.units_of(side)
        self.at = np.array([situation.position[u.id] for u in self.units], dtype=np.int64)
        self.query = {u.id: k for k, u in enumerate(self.units)}
        self._hqs_by_hex: dict[tuple[int, str], Unit] = {}  # (hex, HQ kind) -> the HQ there
        for k, u in enumerate(self.units):
            if u.hq:
                self._hqs_by_hex.setdefault((int(self.at[k]), u.hq), u)
        self.readings = {key: state.options.get(key, rules.options.get(key)) for key in READING_KEYS}
        if side == "allied":
            # 7.4: Combat Supply comes from a beachhead of the unit's own nation; 19.4.1: a complete
            # Mulberry makes the beach hexes beside its beachhead sources too.
            rows = {b.name: self._beach_rows(b) for b in state.beachheads}
            self.sources = sorted({h for hexes in rows.values() for h in hexes})
            self.by_army = {
                "US": sorted({h for b in state.beachheads if b.nationality in US for h in rows[b.name]}),
                "CW": sorted({h for b in state.beachheads if b.nationality not in US for h in rows[b.name]}),
            }
        else:
            self.sources = german_sources(state, rules, situation)
            # 7.4: the supply cities give General Supply only.
            self.by_army = {"DE": sorted(set(edge_road_hexes(state.system, state.maps)))}
        self.reports = {u.id: UnitSupply(unit_id=u.id, side=side, hex=u.hex) for u in self.units}
        self.attached_to: dict[str, str] = {}  # unit id -> formation whose HQ supplies it
        self.refused: dict[str, list[str]] = {}  # unit id -> HQs in range whose places were all taken
        # formation -> (unit id, of another division) of each unit holding a place at its HQ (7.2, 20.3)
        self.places_taken: dict[str, list[tuple[str, bool]]] = {}
        self._brigade_division: dict[str, str] = {}  # CW armoured brigade -> the division supplying it
        self.kind: dict[str, str] = {}  # unit id -> what it traced to (source, division HQ, corps HQ...)

    def _path(self, nodes: np.ndarray) -> list[str]:
        return self.ids[nodes].tolist()

    def _beach_rows(self, beachhead) -> list[int]:
        """Return a beachhead's source hexes: its hex, and beside it a Mulberry's beach hexes (19.4.1)."""
        g = self.lines.g
        at = g.index(beachhead.hex)
        if beachhead.name not in self.state.mulberries or self.readings["mulberry_sources"] != "beach_rows":
            return [at]
        beach = _beach_hexes(self.state.system)
        return sorted({at} | {n for n in self.lines.land_neighbours(at) if beach[n]})

    def run(self) -> None:
        """Determine this side's supply, pass by pass (7.2-7.6)."""
        self.corps_hqs()
        self.division_hqs()
        self.unit_lines()
        self.attach()
        self.combat()
        self.isolation()
        # The reasons are worked out when first read (UnitSupply): the verdicts are complete now.
        waiting = [r for r in self.reports.values() if not r.general]
        for r in waiting:
            r._pending = self.explain
        self._waiting = waiting

    def with_more_range(self, hexes: float, mp: float) -> SideSupply:
        """Return this side's verdicts with the units' range longer by ``hexes`` hexes and ``mp`` MP (7.3.1).

        The counterfactual a range reason stands on: "out of range by 2 hexes" means that two more hexes
        (and as many more MP) supply the unit, attachments chosen again (7.2).  The division HQs' 20 MP
        and everything else stay.  Only the verdicts are determined (no reasons), each extension once.
        """
        key = (round(float(hexes), 6), round(float(mp), 6))
        if key not in self._trials:
            limits = Limits(
                hexes=self.limits.hexes + key[0], mp=self.limits.mp + key[1], division=self.limits.division
            )
            trial = SideSupply(self.state, self.side, self.lines, self.rules, limits, self.situation)
            trial.corps_hqs()
            trial.division_hqs()
            trial.unit_lines()
            trial.attach()
            self._trials[key] = trial
        return self._trials[key]

    def explain(self) -> None:
        """Work out why every unit of the side out of supply is out (:mod:`.explain`)."""
        from normandy_lab.rules.bfn.explain import explain_side

        for r in self._waiting:
            r._pending = None  # first, so that reading a report during the explanation does not recurse
        explain_side(self)

    # -- what a line reached, in words -------------------------------------------------------

    def _name_target(self, r: UnitSupply, kind: str, target_hex: str, hq: Unit | None = None) -> None:
        """Fill a report's ``traced_kind``, ``traced_id`` and ``traced_to`` (id, name and place)."""
        system = self.state.system

        def words() -> str:  # made when first read: most reports are never shown
            place = _hex_place(system, target_hex) if target_hex else ""
            if hq is not None:
                label = "attached to division HQ" if kind == "attached" else kind
                return f"{label} {hq.id} ({hq.name}) at {place}"
            return f"{kind} at {place}" if place else kind

        # Straight into the report (hundreds a determination): its fields, and the words to make later.
        r.__dict__.update(
            traced_kind=kind,
            traced_id=hq.id if hq is not None else target_hex,
            _traced_to_value="",
            _words=words,
        )

    def _hq_at(self, hex_index: int, kind: str) -> Unit | None:
        return self._hqs_by_hex.get((hex_index, kind))

    # -- 7.2: the HQs ------------------------------------------------------------------------

    def corps_hqs(self) -> None:
        """7.2: corps HQs at any length to a source; beachheads are corps HQs until 11 June.

        7.6.1, 7.4: a corps HQ has Combat Supply when its line reaches a source of
        its own army (German: a road off the map edge; the supply cities give
        General Supply only).
        """
        lines = self.lines
        corps = [u for u in self.units if u.hq == "corps"]
        hexes = self.at[[self.query[u.id] for u in corps]].astype(np.int64)
        best, ptr, flat = lines.nearest(hexes, self.sources)
        ok = best < FAR
        length = as_hexes(best)
        reach_army = {key: lines.reaches(t, hexes) for key, t in self.by_army.items() if t and len(hexes)}
        self.corps_ok, self.corps_combat = {}, {}
        for j, u in enumerate(corps):
            r = self.reports[u.id]
            r.general = self.corps_ok[u.id] = bool(ok[j])
            r.limit = "any length to a source (7.2)"
            r.length_hexes = float(length[j])
            r.path = self._path(flat[ptr[j] : ptr[j + 1]])
            if r.general:
                self._name_target(r, "source", r.path[-1] if r.path else "")
            army = _army(self.side, u.nationality)
            self.corps_combat[u.id] = bool(ok[j]) and army in reach_army and bool(reach_army[army][j])
        self.corps_hexes = sorted({int(h) for h, k in zip(hexes, ok, strict=True) if k})
        # The corps HQs (and, before they land, the beachheads) that pass on Combat Supply, by army.
        self.combat_corps = {key: [] for key in self.by_army}
        for j, u in enumerate(corps):
            if self.corps_combat[u.id]:
                self.combat_corps[_army(self.side, u.nationality)].append(int(hexes[j]))
        self.beachheads_as_corps = self.side == "allied" and self.state.date < dt.date.fromisoformat(
            self.rules.supply["beachheads_are_corps_hq_until"]
        )
        if self.beachheads_as_corps:
            self.corps_hexes = sorted(set(self.corps_hexes) | set(self.sources))
            for key, beach in self.by_army.items():
                self.combat_corps[key] = sorted(set(self.combat_corps[key]) | set(beach))
        if self.readings["combat_supply_chain"] != "own_army":
            every = sorted({h for hexes_ in self.combat_corps.values() for h in hexes_})
            self.combat_corps = {key: every for key in self.combat_corps}

    def division_hqs(self) -> None:
        """7.2: division (and KG) HQs within 20 MP of a source or an in-supply corps HQ; 7.6.1 for combat."""
        lines, limit = self.lines, self.limits.division_n
        self.divs = [u for u in self.units if u.hq in ("division", "kg")]
        hexes = self.at[[self.query[u.id] for u in self.divs]].astype(np.int64)
        roots = sorted(set(self.sources) | set(self.corps_hexes))
        self.hq_roots = roots
        best, ptr, flat = lines.to_roots(roots, hexes, "mp", limit, free=True)
        ok = best <= limit
        length = as_mp(best)
        # 7.6.1: for Combat Supply a division HQ may not skip its corps HQ, which must itself
        # have Combat Supply from a source of the HQ's own army (7.4).
        combat_ok = np.zeros(len(self.divs), dtype=bool)
        for army, targets in self.combat_corps.items():
            passing = set(targets)
            mine = []
            for j, u in enumerate(self.divs):
                if _army(self.side, u.nationality) != army or not ok[j]:
                    continue
                end = int(flat[ptr[j + 1] - 1]) if ptr[j + 1] > ptr[j] else -1
                if end in passing:  # its line already ends at a corps HQ passing Combat Supply on
                    combat_ok[j] = True
                else:
                    mine.append(j)
            if mine and targets:
                got = lines.distances(targets, hexes[mine], "mp", limit, free=True)
                combat_ok[mine] = got <= limit
        self.div_ok, self.div_combat = {}, {}
        text = f"{self.limits.division:g} MP to a source or an in-supply corps HQ (7.2)"
        for j, u in enumerate(self.divs):
            r = self.reports[u.id]
            r.general = self.div_ok[u.id] = bool(ok[j])
            r.limit = text
            r.length_mp = float(length[j])
            if r.general:
                r.path = self._path(flat[ptr[j] : ptr[j + 1]])
                end = int(flat[ptr[j + 1] - 1]) if ptr[j + 1] > ptr[j] else int(hexes[j])
                corps = self._hq_at(end, "corps")
                if corps is not None:
                    self._name_target(r, "corps HQ", str(self.ids[end]), corps)
                else:
                    beach = self.side == "allied" and self.beachheads_as_corps
                    self._name_target(r, "beachhead" if beach else "source", str(self.ids[end]))
            self.div_combat[u.formation] = bool(ok[j]) and bool(combat_ok[j])
        self.hq_of = {u.formation: u for u in self.divs}

    # -- 7.3.1: the units ----------------------------------------------------------------------

    def unit_lines(self) -> None:
        """7.2, 7.3.1: every other unit within 6 hexes or 6 MP of a source or of its supplying HQ."""
        state, rules, limits = self.state, self.rules, self.limits
        supply_rules = rules.supply
        units, m = self.units, len(self.units)
        pathfinder_on = (
            self.side == "allied"
            and bool(state.pathfinders)
            and (state.date.isoformat(), state.turn) in {tuple(t) for t in supply_rules["pathfinder_turns"]}
        )
        self.pathfinder_on = pathfinder_on
        airborne_types = supply_rules["airborne_types"]
        plain = [q for q, u in enumerate(units) if not u.hq and u.type != "ship"]
        self.plain = plain
        every_plain = np.array(plain, dtype=np.int64)  # asked by every in-supply HQ: one array, shared
        # 7.2: breakdown companies count as corps units for supply, except on the invasion turns.
        invasion = state.turn in ("6 June Night", "6 June Invasion")
        headless = {
            q
            for q in plain
            if not units[q].formation
            or units[q].formation not in self.hq_of
            or (units[q].breakdown and not invasion)
        }
        self.headless = headless
        airborne = [
            q
            for q in plain
            if units[q].type in airborne_types or "airborne" in (units[q].formation or "").lower()
        ]
        # The groups of targets, and which units ask each: the sources (every unit), the corps HQs
        # (units of no division), the pathfinders (7.4, 7.5, 17.1: airborne units, 6-7 June), each
        # division HQ (its own units, and, when in supply, the units of no division, which may
        # attach to it), and the corps HQs passing on Combat Supply, by army (7.6.1).
        groups = [self.lines.near(self.sources, self.at[plain], limits), self.corps_hexes]
        asked = [plain, sorted(headless)]
        # Lines are kept where a unit may trace its own supply; other distances only compare.
        wanted = [np.ones(len(plain), dtype=bool), np.ones(len(headless), dtype=bool)]
        self.pathfinder_group = -1
        if pathfinder_on:
            self.pathfinder_group = len(groups)
            groups.append(sorted(self.lines.g.index(h) for h in state.pathfinders))
            asked.append(airborne)
            wanted.append(np.ones(len(airborne), dtype=bool))
        first_div = len(groups)
        div_order = sorted(self.divs, key=lambda u: str(u.formation))
        self.group_of = {u.formation: first_div + k for k, u in enumerate(div_order)}
        members: dict[str, list[int]] = {}
        for q in plain:
            members.setdefault(units[q].formation, []).append(q)
        # Formations as small integers: comparing them for every HQ is then one array operation.
        code = {f: k for k, f in enumerate(members)}
        plain_formation = np.array([code[units[q].formation] for q in plain], dtype=np.int64)
        plain_headless = np.array([q in headless for q in plain], dtype=bool)
        for u in div_order:
            groups.append([int(self.at[self.query[u.id]])])
            # An in-supply HQ is asked about every unit: its own, and any that may attach to it (7.2);
            # the line of a unit of another division is found only if it does attach (_attached).
            if self.div_ok[u.id]:
                asked.append(every_plain)
                wanted.append(plain_headless | (plain_formation == code.get(u.formation, -1)))
            else:
                asked.append(members.get(u.formation, []))
                wanted.append(np.ones(len(asked[-1]), dtype=bool))
        ranges = self.lines.ranges(groups, asked, self.at, limits, lines_wanted=wanted)
        self.ranges = ranges
        # The lines kept by the range search as hex ids, for _trace.
        self._line_ids = self.ids[ranges.lines].tolist()
        self.supplied_divs = [u for u in div_order if self.div_ok[u.id]]
        self.supplied_groups = [self.group_of[u.formation] for u in self.supplied_divs]
        self.cover_names = [u.id for u in self.supplied_divs] + ["corps HQ"]
        self.cover_groups = [self.group_of[u.formation] for u in self.supplied_divs] + [1]
        # Each unit's own options in the order they are tried (-1: not open to it).
        options = np.full((m, 4), -1, dtype=np.int64)
        options[plain, 0] = 0
        if pathfinder_on:
            options[airborne, 1] = self.pathfinder_group
        for q in plain:
            if q in headless:
                options[q, 3] = 1
            elif self.div_ok[self.hq_of[units[q].formation].id]:
                options[q, 2] = self.group_of[units[q].formation]
        self.options = options
        rows = np.arange(m)[:, None]
        group = np.maximum(options, 0)
        within = (options >= 0) & (
            (ranges.dist[group, 0, rows] <= limits.hexes_n) | (ranges.dist[group, 1, rows] <= limits.mp_n)
        )
        chosen = np.where(within.any(axis=1), within.argmax(axis=1), -1)
        # Within range of its own in-supply division HQ (7.6.1 asks again, for Combat Supply).
        self.in_own_hq_range = within[:, 2].tolist()
        # Each unit's lengths to the group it traces to and its line (in the metric that met the
        # limit), read for all the units at once.
        every = rows[:, 0]
        chosen_group = options[every, np.maximum(chosen, 0)]
        hex_counts = ranges.dist[chosen_group, 0, every]
        metric = (hex_counts > limits.hexes_n).astype(np.int64)
        slot = (chosen_group * 2 + metric) * m + every
        starts, stops = ranges.line_start[slot].tolist(), ranges.line_stop[slot].tolist()
        hex_lengths, sixth_lengths = hex_counts.tolist(), ranges.dist[chosen_group, 1, every].tolist()
        chosen = chosen.tolist()
        line_ids, hq_of, by_index = self._line_ids, self.hq_of, self.lines.g.index_of
        range_text = f"{limits.hexes:g} hexes or {limits.mp:g} MP (7.3.1)"
        self.range_text = range_text
        for q, u in enumerate(units):
            if u.hq:
                continue
            r = self.reports[u.id]
            if u.type == "ship":
                # Ships are not land units: they trace no line of supply; they
                # attach to any division for combat (Attachment Reference Chart).
                r.general, r.combat = True, True
                r.traced_kind, r.traced_to = "ship", "ship at sea (not traced)"
                r.limit = "none (naval)"
                r.path = [u.hex]
                self.kind[u.id] = "ship"
                continue
            r.limit = range_text
            column = chosen[q]
            if column < 0:
                continue
            kind = ("source", "pathfinder", "division HQ", "corps HQ")[column]
            path = line_ids[starts[q] : stops[q]]
            hq = hq_of[u.formation] if column == 2 else None
            if column == 3:
                hq = self._hq_at(by_index[path[-1]] if path else int(self.at[q]), "corps")
            self._record(r, kind, _as_lengths(hex_lengths[q], sixth_lengths[q]), path, hq)
        if self.readings["hq_bridging"] == "for_its_units":
            self._bridging_hqs(members)

    def _bridging_hqs(self, members: dict[str, list[int]]) -> None:
        """Apply the "for_its_units" reading of 7.3.2/14.2.1: an in-supply HQ bridges the water around it.

        Its own units still out of range trace to it again with those hexsides
        bridged; the ones now within range are supplied by it.
        """
        limits = self.limits
        for hq in self.supplied_divs:
            at = int(self.at[self.query[hq.id]])
            wet = self.lines.wet_edges_at(at)
            waiting = [q for q in members.get(hq.formation, []) if not self.reports[self.units[q].id].general]
            if not wet or not waiting:
                continue
            found = self.lines.ranges([[at]], [waiting], self.at, limits, opened=self.lines.bridged(wet))
            for q in waiting:
                hexes, sixths = found.dist[0, :, q].tolist()
                if hexes > limits.hexes_n and sixths > limits.mp_n:
                    continue
                r = self.reports[self.units[q].id]
                r.general = True
                r.length_hexes = INF if hexes >= FAR else float(hexes)
                r.length_mp = INF if sixths >= FAR else sixths / SIXTHS
                r.path = self._path(found.line(0, 0 if hexes <= limits.hexes_n else 1, q))
                self._name_target(r, "division HQ", hq.hex, hq)
                self.kind[r.unit_id] = "division HQ"

    def _trace(
        self,
        r: UnitSupply,
        q: int,
        group: int,
        kind: str,
        hq: Unit | None = None,
        lengths: tuple[float, float] | None = None,
    ) -> None:
        """Record a unit's line to a group of targets: lengths, path (in the metric that met the limit).

        ``lengths`` (hexes, MPs) when the caller has read them already (:meth:`_lengths`).
        """
        hexes, mp = lengths if lengths is not None else self._lengths(group, q)
        metric = 0 if hexes <= self.limits.hexes else 1
        slot = (group * 2 + metric) * len(self.units) + q
        ranges = self.ranges
        path = self._line_ids[int(ranges.line_start[slot]) : int(ranges.line_stop[slot])]
        if hq is None and kind == "division HQ":
            hq = self.hq_of[self.units[q].formation]
        if hq is None and kind == "corps HQ":
            hq = self._hq_at(self.lines.g.index(path[-1] if path else r.hex), "corps")
        self._record(r, kind, (hexes, mp), path, hq)

    def _record(
        self, r: UnitSupply, kind: str, lengths: tuple[float, float], path: list[str], hq: Unit | None
    ) -> None:
        """Record a unit in General Supply: its lengths (hexes, MPs), its line and what it reached."""
        # Straight into the report's fields (see UnitSupply: these are stored behind properties).
        r.__dict__.update(
            general=True, _length_hexes_value=lengths[0], _length_mp_value=lengths[1], _path_value=path
        )
        self._name_target(r, kind, path[-1] if path else r.hex, hq)
        self.kind[r.unit_id] = kind

    def _lengths(self, group: int, q: int) -> tuple[float, float]:
        """Return a unit's distance to a group of targets in hexes and MPs (inf: none within the search)."""
        hexes, sixths = self.ranges.dist[group, :, q].tolist()
        return _as_lengths(hexes, sixths)

    def _in_range(self, group: int, q: int) -> bool:
        d = self.ranges.dist[group, :, q]
        return bool(d[0] <= self.limits.hexes_n or d[1] <= self.limits.mp_n)

    # -- 7.2, 20.3: attachment -----------------------------------------------------------------

    def attach(self) -> None:
        """Attach units with no line of their own to in-supply division or KG HQs (7.2, 20.3).

        Free attachments first (the Attachment Reference Chart's exceptions: a
        CW division supplies one whole CW armoured brigade; ships, Crocodiles
        and AVREs attach without taking a place; German artillery too under
        the "free" reading); then the places of each HQ are filled as the
        owner would, so that the most units are supplied
        (:func:`~normandy_lab.rules.bfn.attachment.best_attachments`).
        """
        from normandy_lab.rules.bfn.attachment import AttachHQ, AttachOption, best_attachments

        supply_rules, units = self.rules.supply, self.units
        waiting = [q for q in self.plain if not self.reports[units[q].id].general]
        if not waiting or not self.supplied_divs:
            return
        # Division units of another division need their distances to the other HQs.
        others = [q for q in waiting if q not in self.headless and self._may_leave_division(units[q])]
        divs = self.supplied_divs
        limits = self.limits
        # dist[k, metric, q]: each unit's distance to each in-supply division HQ k (from the range search).
        dist = self.ranges.dist[self.supplied_groups]
        in_range = (dist[:, 0, :] <= limits.hexes_n) | (dist[:, 1, :] <= limits.mp_n)

        free_types = set(supply_rules["free_attach_types"])
        if self.side == "german" and self.readings["german_artillery_attach"] == "free":
            free_types |= {"artillery", "rocket_artillery"}
        hqs, choices, in_reach = [], [], {}
        for hq in self.supplied_divs:
            kg = hq.hq == "kg"
            capacity = supply_rules["kg_attach_limit"] if kg else supply_rules["attach_limit"]
            other = capacity if kg else supply_rules["attach_other_division"]
            hqs.append(AttachHQ(hq.formation, capacity, other))
        for q in waiting:
            u = units[q]
            if q not in self.headless and q not in others:
                continue
            reachable = [
                (divs[k], dist[k, :, q])
                for k in np.nonzero(in_range[:, q])[0].tolist()
                if self._may_attach(u, divs[k])
            ]
            reachable.sort(key=lambda item: (int(item[1][1]), str(item[0].formation)))
            if not reachable:
                continue
            in_reach[u.id] = [hq.formation for hq, _ in reachable]
            if self._attach_freely(q, u, reachable, free_types):
                continue
            for hq, d in reachable:
                other_division = q not in self.headless and not self._artillery(u)
                cost = int(d[1]) if d[1] < FAR else int(d[0]) * SIXTHS
                choices.append(AttachOption(u.id, hq.formation, cost, other_division))
        chosen = best_attachments(hqs, choices)
        other_division = {(o.unit_id, o.formation): o.other_division for o in choices}
        for q in waiting:
            u = units[q]
            formation = chosen.get(u.id)
            if formation is None:
                if u.id in in_reach and not self.reports[u.id].general:
                    self.refused[u.id] = in_reach[u.id]
                continue
            self.places_taken.setdefault(formation, []).append((u.id, other_division[(u.id, formation)]))
            self._attached(q, u, self.hq_of[formation], "")

    def place_free(self, u: Unit, hq: Unit) -> bool:
        """Whether an in-supply HQ still has a place this unit could take (7.2, 20.3), as attached now.

        A unit the chart lets attach freely needs none; a unit of another division needs the HQ's one
        place for such a unit too (7.2; a KG HQ takes any, 20.3).
        """
        supply_rules = self.rules.supply
        free_types = set(supply_rules["free_attach_types"])
        if self.side == "german" and self.readings["german_artillery_attach"] == "free":
            free_types |= {"artillery", "rocket_artillery"}
        if u.type in free_types:
            return True
        kg = hq.hq == "kg"
        taken = self.places_taken.get(hq.formation, [])
        if len(taken) >= supply_rules["kg_attach_limit" if kg else "attach_limit"]:
            return False
        if kg or not self.of_another_division(u, hq):
            return True
        return sum(other for _, other in taken) < supply_rules["attach_other_division"]

    def of_another_division(self, u: Unit, hq: Unit) -> bool:
        """Whether a unit would take an HQ's one place for a non-artillery unit of another division (7.2).

        A breakdown company is a corps unit (7.2, 15.1), and so is a unit whose division has no HQ.
        """
        q = self.query[u.id]
        return q not in self.headless and u.formation != hq.formation and not self._artillery(u)

    def _artillery(self, u: Unit) -> bool:
        return u.type in ("artillery", "rocket_artillery")

    def _may_leave_division(self, u: Unit) -> bool:
        """7.2: one non-artillery unit of another division may attach; German artillery attaches freely."""
        return not self._artillery(u) or self.side == "german"

    def _may_attach(self, u: Unit, hq: Unit) -> bool:
        """Whether the rules let this unit attach to this HQ at all (6.3, 7.2, 20.3)."""
        if self.side == "allied" and not _same_army(u.nationality, hq.nationality):
            return False  # 6.3: US and CW units do not attach to each other's divisions
        return u.formation != hq.formation or u.breakdown  # a breakdown company is a corps unit (7.2)

    def _attach_freely(self, q: int, u: Unit, reachable, free_types: set[str]) -> bool:
        """Attach without a place where the chart allows: a whole CW armoured brigade, the free types."""
        supply_rules = self.rules.supply
        brigade = (
            u.formation
            if q in self.headless
            and u.formation
            and u.nationality in supply_rules["brigade_attach_nationalities"]
            and u.type in supply_rules["brigade_attach_types"]
            else None
        )
        for hq, _ in reachable:
            f = hq.formation
            if brigade and _cw(hq.nationality) and self._brigade_division.get(brigade, f) == f:
                self._brigade_division[brigade] = f
                self._attached(q, u, hq, " (whole CW armoured brigade)")
                return True
            if u.type in free_types:
                self._attached(q, u, hq, " (free attachment)")
                return True
        return False

    def _attached(self, q: int, u: Unit, hq: Unit, how: str) -> None:
        r = self.reports[u.id]
        self._trace(r, q, self.group_of[hq.formation], "attached", hq)
        if not r.path:  # a unit of another division: its line was not kept by the range search
            metric = "hexes" if r.length_hexes <= self.limits.hexes else "mp"
            hq_hex = int(self.at[self.query[hq.id]])
            limit = self.limits.hexes_n if metric == "hexes" else self.limits.mp_n
            lines, origin = self.lines, np.array([self.at[q]])

            def find() -> list[str]:  # searched when first read
                _, ptr, flat = lines.to_roots([hq_hex], origin, metric, limit)
                return self._path(flat[ptr[0] : ptr[1]])

            r._find_path = find
            self._name_target(r, "attached", hq.hex, hq)
        if how:
            words = r._words
            r._words = lambda: words() + how
        self.attached_to[u.id] = hq.formation

    # -- 7.6.1: Combat Supply --------------------------------------------------------------------

    def combat(self) -> None:
        """7.6.1: Combat Supply runs unit -> division HQ (or the HQ it is attached to) -> corps HQ -> source.

        A division unit has it when it is within range of its own division HQ
        and that HQ has it (even if its General Supply came straight from a
        source); a corps unit when attached to a division HQ that has it, or
        within range of a corps HQ of its army that has it (before the Allied
        corps HQs land, a beachhead of its nation, 7.6.1); pathfinders give
        none (7.5); German supply cities give none (7.4).
        """
        corps_combat_at = {
            army: {int(h) for h in hexes} for army, hexes in self.combat_corps.items()
        }  # the hexes passing Combat Supply on, by army
        # Corps units whose line does not already end at such a corps HQ: one search per army.
        asking: dict[str, list[int]] = {}
        for q in sorted(self.headless):
            u, r = self.units[q], self.reports[self.units[q].id]
            if r.general and u.id not in self.attached_to:
                army = _army(self.side, u.nationality)
                end = self.lines.g.index_of.get(r.path[-1]) if r.path else None
                if end not in corps_combat_at.get(army, set()):
                    asking.setdefault(army, []).append(q)
        reached: set[int] = set()
        for army, qs in asking.items():
            targets = sorted(corps_combat_at.get(army, set()))
            if not targets:
                continue
            origins = self.at[qs]
            by_hexes = self.lines.distances(targets, origins, "hexes", self.limits.hexes_n)
            by_mp = self.lines.distances(targets, origins, "mp", self.limits.mp_n)
            reached |= {
                q for q, h, m in zip(qs, by_hexes.tolist(), by_mp.tolist(), strict=True) if h < FAR or m < FAR
            }
        for q, u in enumerate(self.units):
            r = self.reports[u.id]
            if not r.general or u.type == "ship":
                continue
            if u.hq == "corps":
                r.combat = self.corps_combat[u.id]
            elif u.hq in ("division", "kg"):
                r.combat = self.div_combat[u.formation]
            elif u.id in self.attached_to:
                r.combat = self.div_combat.get(self.attached_to[u.id], False)
            elif q in self.headless:
                army = _army(self.side, u.nationality)
                end = self.lines.g.index_of.get(r.path[-1]) if r.path else None
                r.combat = end in corps_combat_at.get(army, set()) or q in reached
            else:
                hq = self.hq_of.get(u.formation)
                r.combat = (
                    hq is not None and self.div_combat.get(u.formation, False) and self.in_own_hq_range[q]
                )

    def isolation(self) -> None:
        """7.5o: isolated -- no line of any length to a friendly corps HQ (an in-supply one, or any)."""
        targets = list(self.corps_hexes)
        if self.readings["isolation_corps_hq"] == "any":
            targets += [int(self.at[self.query[u.id]]) for u in self.units if u.hq == "corps"]
        if targets:
            reach = self.lines.reaches(sorted(set(targets)), self.at)
        else:
            reach = np.zeros(len(self.units), dtype=bool)
        for u, reached in zip(self.units, reach.tolist(), strict=True):
            self.reports[u.id].isolated = not reached and not (u.hq == "corps" and self.corps_ok.get(u.id))


class BfnDetermination:
    """The determination behind a BfN supply report: both sides' steps, which answer for the ranges."""

    def __init__(self, state: GameState, sides: dict[str, SideSupply], limits: Limits) -> None:
        self.state, self.sides, self.limits = state, sides, limits

    def supply_range(self, hq_or_source: str) -> set[str]:
        """Return the hexes from which a unit could trace to an HQ (unit id) or a source hex.

        The hexes within 6 hexes or 6 MPs (halved in bad weather) by a legal
        line (7.3.1), the unit's own first step across water included.
        """
        sides, limits = self.sides, self.limits
        g = grid(self.state.system)
        group = None
        if hq_or_source in {u.id for u in self.state.units}:
            unit = self.state.unit(hq_or_source)
            side, target = unit.side, g.index(unit.hex)
            if unit.hq in ("division", "kg"):
                group = sides[side].group_of.get(unit.formation)
        else:
            target = g.index(hq_or_source)
            side = "allied" if target in self.sides["allied"].sources else "german"
        if group is not None:
            cover = sides[side].ranges.covered(group)
        else:
            ranges = sides[side].lines.ranges([[target]], [[]], np.empty(0, dtype=np.int64), limits)
            cover = ranges.covered(0)
        return set(g.id_array[cover].tolist())

    def hq_ranges_at(self) -> dict[str, np.ndarray]:
        """Return, per side, the names of the in-supply HQs whose range covers each hex ("; "-joined).

        Division (and KG) HQs by id, and "corps HQ" for the corps HQs' ranges (7.2, 7.3.1).
        """
        out = {}
        for side, determination in self.sides.items():
            text = np.full(len(grid(self.state.system)), "", dtype=object)
            for name, group in zip(determination.cover_names, determination.cover_groups, strict=True):
                hit = determination.ranges.covered(group)
                text[hit] = [f"{t}; {name}" if t else name for t in text[hit]]
            out[side] = text
        return out


def determine_supply(state: GameState) -> SupplyReport:
    """Determine the General and Combat Supply of every unit (BfN 7.x) with the reasons.

    Returns
    -------
    SupplyReport
        ``report[unit_id]`` gives a :class:`UnitSupply`.
    """
    rules = state.rules
    g = grid(state.system)
    halved = bool(rules.weather_effects[state.weather]["supply_halved"])
    factor = 0.5 if halved else 1.0  # 7.3.3
    limits = Limits(
        hexes=rules.supply["unit_range_hexes"] * factor,
        mp=rules.supply["unit_range_mp"] * factor,
        division=rules.supply["division_hq_range_mp"] * factor,
    )
    situation = Situation.of(state)
    reports: dict[str, UnitSupply] = {}
    sides: dict[str, SideSupply] = {}
    for side in ("allied", "german"):
        lines = TraceNet(state, side, situation)
        determination = SideSupply(state, side, lines, rules, limits, situation)
        determination.run()
        sides[side] = determination
        reports.update(determination.reports)
    # 7.5, June 6th exceptions: on the 6 June Night and Beach Invasion turns,
    # paratroops, invasion units and every German unit are in general and
    # combat supply whatever their lines.
    if state.turn in ("6 June Night", "6 June Invasion"):
        for r in reports.values():
            if not (r.general and r.combat):
                r.general = r.combat = True
                r._pending = r._words = None  # nothing to explain, nothing traced
                r.code, r.rule, r.reason = EXEMPT, "7.5", "in supply by the 6 June exception (7.5)"
                r.traced_kind, r.traced_id, r.traced_to = "6 June exception", "", "6 June exception (7.5)"
                r.blocking_hex, r.blocking_units = "", []
    report = SupplyReport(
        state=state,
        units=reports,
        sources={side: [str(g.id_array[s]) for s in d.sources] for side, d in sides.items()},
        halved=halved,
    )
    report.determination = BfnDetermination(state, sides, limits)
    return report


def side_lines(state: GameState, side: str) -> TraceNet:
    """One side's lines on a state, built on their own (for the references and the benchmark)."""
    return TraceNet(state, side, Situation.of(state))


def defensive_support_eligible(report: SupplyReport, unit_id: str) -> bool:
    """Return whether a unit may receive defensive artillery support as far as supply goes (12.5.4).

    A unit in General Supply may; an out-of-supply unit may if it is within
    three hexes (in any weather) of another friendly unit in General Supply.
    """
    state = report.state
    unit = state.unit(unit_id)
    if report[unit_id].general:
        return True
    g = grid(state.system)
    reach = state.rules.supply["defensive_support_hexes"]
    return any(
        report[other.id].general and g.distance(unit.hex, other.hex) <= reach
        for other in state.units_of(unit.side)
        if other.id != unit_id
    )


def effective_strength(unit: Unit, report: SupplyReport, attack: int) -> int:
    """Return an attack strength after the unit's supply (7.5): the one rule, :func:`attack_after_supply`."""
    from normandy_lab.rules.bfn.sequence import attack_after_supply

    return attack_after_supply(attack, report[unit.id].general)
