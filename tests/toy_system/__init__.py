"""A toy rule system on The Battle for Normandy's map, registered beside BfN under its own key (issue 32).

It was written only against the rule-system contract, for the contract tests (issue 15); it is now a game
of its own, ``toy_bfn``, on the map ``bfn``: registered with one line below, it loads from a scenario file
that names it (``scenarios/toy_bfn_pegasus.yaml``, ``system: toy_bfn``) and saves as a study.

Its zone of control: every unit but an HQ exerts one.  Its one supply rule: a unit is in supply when a
legal line of at most ``toy_range_hexes`` hexes (halved in weather that halves supply ranges) joins it to a friendly HQ, of any kind; an HQ is its own source.  A
line is legal where the core says (no enemy unit, no un-negated enemy zone of control, no interdicted
hex, no sea).  It plays on The Battle for Normandy's maps and borrows that game's tables; it uses nothing
of the engine but the contract: the state, the core's searches (:class:`TraceNet`) and the report schema.
Nothing outside this folder knows it exists.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np

from normandy_lab.engine.lines import Situation
from normandy_lab.engine.reasons import CUT_OFF, OUT_OF_RANGE
from normandy_lab.engine.report import SupplyReport, UnitSupply
from normandy_lab.engine.search import FAR
from normandy_lab.engine.state import GameState
from normandy_lab.grids import grid
from normandy_lab.rules import Game, RuleSet, get, look, register_game
from normandy_lab.rules.bfn.lines import TraceNet
from normandy_lab.rules.common import hq_names_by_hex

RULE = "toy 1"
SIDES = ("allied", "german")


@dataclass(frozen=True, eq=False)
class ToyRules(RuleSet):
    """The toy's rules: BfN's tables, its own zones of control and its own supply determination."""

    def exerts_zoc(self, unit) -> bool:
        """HQs exert no zone of control (as in Cobra, 7.0); every other unit does."""
        return unit.hq is None

    def determine_supply(self, state: GameState) -> SupplyReport:
        situation = Situation.of(state)
        limit = self.supply["toy_range_hexes"]
        if self.weather_effects[state.weather].get("supply_halved"):
            limit //= 2
        g = grid(state.system)
        nets, roots, rows = {}, {}, {}
        for side in SIDES:
            net = nets[side] = TraceNet(state, side, situation)
            hqs = [u for u in state.units_of(side) if u.hq and u.status == "active"]
            roots[side] = sorted({situation.position[u.id] for u in hqs})
            dist, pred = net.search(roots[side], "hexes") if roots[side] else (np.full(len(g), FAR), None)
            for u in state.units_of(side):
                row = rows[u.id] = UnitSupply(unit_id=u.id, side=side, hex=u.hex)
                at = situation.position[u.id]
                row.limit = f"{limit} hexes ({RULE})"
                row.length_hexes = float(dist[at]) if dist[at] < FAR else float("inf")
                row.general = row.combat = bool(dist[at] <= limit)
                row.isolated = bool(dist[at] >= FAR)
                if row.general:
                    path = [at]
                    while pred is not None and pred[path[-1]] >= 0:
                        path.append(int(pred[path[-1]]))
                    row.path = g.id_array[path].tolist()
                    row.traced_kind, row.traced_id = "HQ", row.path[-1]
                    row.traced_to = f"HQ at {row.path[-1]}"
                else:
                    row.code, row.rule = (CUT_OFF if row.isolated else OUT_OF_RANGE), RULE
                    row.reason = (
                        f"no legal line to a friendly HQ ({RULE})"
                        if row.isolated
                        else f"the nearest friendly HQ is {int(dist[at])} hexes away; the limit is {limit} ({RULE})"
                    )
        report = SupplyReport(
            state=state, units=rows, sources={}, halved=limit < self.supply["toy_range_hexes"]
        )
        report.determination = _ToyRanges(state, nets, limit)
        return report


class _ToyRanges:
    """The toy's ranges: the hexes within the limit of each HQ."""

    def __init__(self, state: GameState, nets: dict[str, TraceNet], limit: int) -> None:
        self.state, self.nets, self.limit = state, nets, limit

    def supply_range(self, hq_or_source: str) -> set[str]:
        unit = self.state.unit(hq_or_source)
        g = grid(self.state.system)
        dist, _ = self.nets[unit.side].search([g.index(unit.hex)], "hexes")
        return set(g.id_array[dist <= self.limit].tolist())

    def hq_ranges_at(self) -> dict[str, np.ndarray]:
        return hq_names_by_hex(self.state, self.supply_range, SIDES)


def toy_rules(range_hexes: int = 4) -> ToyRules:
    """Return the toy rule system: BfN's tables with the toy's supply range and its own determination."""
    bfn = get("bfn")
    data = {f.name: getattr(bfn, f.name) for f in fields(RuleSet)}  # the contract's (not BfN's own tables)
    data.update(title="Toy", variant="toy", supply={**bfn.supply, "toy_range_hexes": range_hexes})
    return ToyRules(**data)


SCENARIO = Path(__file__).parent / "scenarios" / "toy_bfn_pegasus.yaml"

#: On BfN's map, under its own key; no scenario folder for side by side (its one file is a test situation).
#: Its units are BfN's counters, so it is shown with BfN's look (asked of the registry when first drawn); its
#: scenario file is the core's (no format of its own: no BfN section).
GAME = Game("toy_bfn", "Toy", "bfn", toy_rules, lambda: look("bfn"))

register_game(GAME)


# -- for the contract tests: example states (BfN's situations under the toy's rules) ----------------------


def _example(name: str) -> GameState:
    import normandy_lab as nl

    if name == "13 June":
        return nl.load_scenario("bfn_1944-06-13_am").with_rules(get("toy_bfn"))
    return nl.load_scenario(SCENARIO)


EXAMPLES = {name: (lambda name=name: _example(name)) for name in ("13 June", "Pegasus")}
