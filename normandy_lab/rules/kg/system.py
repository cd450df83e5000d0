"""The Killing Ground with OVERLORD as a rule system: the Build-up's verdicts over :mod:`.data`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from normandy_lab.engine.sequence import current_phase
from normandy_lab.engine.supply import supply
from normandy_lab.errors import RefusedError
from normandy_lab.gamemap import game_map
from normandy_lab.rules.base import RuleSet, no_marker_edit
from normandy_lab.rules.kg import logistics
from normandy_lab.rules.kg.air import air_summary, set_air_marker
from normandy_lab.rules.kg.caveats import rule_note, supply_caveat
from normandy_lab.rules.kg.data import ARMY_SUPPORT_AND_REPLACEMENT, FIRST_DAY, FULL_STEPS, turn_of
from normandy_lab.rules.kg.logistics import (
    GERMAN_SP,
    allied_income_words,
    arrival_roll,
    boost_mulberry,
    cherbourg_rail,
    engineering_words,
    improve_depot,
    naval_fire_protection,
)
from normandy_lab.rules.kg.rail import interdiction_roll, rail_move, rail_words
from normandy_lab.rules.kg.supply import determine, paid_this_turn
from normandy_lab.rules.kg.track import arrive, track_words
from normandy_lab.rules.kg.withdrawal import withdraw
from normandy_lab.rules.section import checked

if TYPE_CHECKING:
    from normandy_lab.engine.report import SupplyReport
    from normandy_lab.engine.state import GameState


@dataclass(frozen=True, eq=False)
class KgRules(RuleSet):
    """The Killing Ground with OVERLORD, its Build-up stage (26.x); the base KG rules are RECONSTRUCTED."""

    def turn_order(self, date: Any) -> tuple[str, ...]:
        """Return the one turn of a date: Turn n is 6 June + n - 1 days (Turn 3 = 8 June, 26.11.1)."""
        return (f"Turn {turn_of(date)}",)

    def turn_problem(self, date: Any, turn: str) -> tuple[str, str] | None:
        """Refuse Turn 1 (the D-Day Playbook is not in the seeds) and a turn that is not the date's."""
        if date == FIRST_DAY or turn == "Turn 1":
            return (
                "Turn 1 (6 June) is played on the D-Day Playbook's landing phases, not in the seeds",
                "start on Turn 2 (7 June), as 22.6.8 does",
            )
        right = f"Turn {turn_of(date)}"
        if turn != right:
            return f"{date} is {right}, not {turn}", f"write turn: {right}, or change the date"
        return None

    def set_marker(self, state: GameState, name: str, value: Any) -> GameState:
        """Let the analyst set a Mulberry's construction level (26.19.2) or an army's SP reserve (26.10).

        ``mulberry_A`` / ``mulberry_B`` (or ``mulberry`` with ``{"A": level}``): a whole number from 0;
        the support radius it gives is RECONSTRUCTED but for level 5 (26.10.5).  ``army_sp_US``,
        ``army_sp_UK``, ``army_sp_DE`` (or ``army_sp`` with a mapping): whole numbers from 0.
        """
        if name == "fortress_cherbourg":
            declared = _declare_fortress(state, checked(state, name, value))
            if declared and not state.markers["fortress_cherbourg"]:  # declared now: its withdrawal turn
                return state.evolve(fortress_cherbourg=True, fortress_declared_on=state.date.isoformat())
            return state.evolve(fortress_cherbourg=declared)
        if name == "cherbourg_withdrawal":  # 26.20.6: the Cherbourg Units that try to get away south
            return withdraw(state, value)
        if name == "cherbourg_rail":  # 26.10.7: a rail point brings Cherbourg up to 2 SP
            return cherbourg_rail(state, value)
        if name == "rail_move":  # 26.4.3: a unit from the Rail Reinforcement box, with its die
            return rail_move(state, value)
        if name == "depot_improve":  # 26.19.3: 1 SP after seeing a failed depot roll
            return improve_depot(state, value)
        if name == "mulberry_boost":  # 26.19.2: 1 SP for -2 on this turn's roll
            return boost_mulberry(state, value)
        # The markers of the scenario's section: the same checks as a scenario file's (rules.kg.section).
        if name in ("cherbourg_sp", "rail_capacity", "air_rail_value", "rail_interdiction_level"):
            return state.evolve(**{name: checked(state, name, value)})  # 26.10.7, 26.4.3, 26.4.4
        if name in ("air_supply_ap", "air_rail", "air_omm_targets"):
            return set_air_marker(state, name, value)
        markers = {"mulberry": ("A", "B"), "army_sp": ("US", "UK", "DE"), "depot_sp": ("US", "UK")}
        said = name
        for marker, keys in markers.items():
            if name.startswith(f"{marker}_") and name[len(marker) + 1 :] in keys:
                name, value = marker, {name[len(marker) + 1 :]: value}  # mulberry_A: 3 is mulberry: {A: 3}
            if name != marker:
                continue
            checked(state, marker, value, said)  # the scenario schema's mapping, its keys and ranges
            return state.evolve(**{marker: {**state.markers[marker], **(value or {})}})
        settable = ("mulberry_A", "mulberry_B", "army_sp_US", "army_sp_UK", "army_sp_DE", "depot_sp_US",
                    "depot_sp_UK", "mulberry_boost", "depot_improve", "rail_move", "cherbourg_sp",
                    "cherbourg_rail", "rail_capacity", "rail_interdiction_level", "fortress_cherbourg",
                    "cherbourg_withdrawal", "air_supply_ap", "air_rail", "air_rail_value",
                    "air_omm_targets")  # fmt: skip
        more = " (and mulberry, army_sp, depot_sp as mappings)"
        raise RefusedError(no_marker_edit(self.title, name, settable, more))

    def phase_results(self, state: GameState, phase: Any) -> dict[str, Any]:
        """Say what a phase shows: air (26.15), SP (26.10), naval fire (26.8.2), construction (26.19)."""
        if phase.kind == "air":
            return air_summary(state)
        if phase.name == "Corps and Artillery Support":
            paid = paid_this_turn(state)
            return {
                "army_sp": dict(state.markers["army_sp"]),
                "hq_support_paid": {a: paid.get(a, 0) for a in ("US", "UK", "DE", "cherbourg")}
                if paid is not None
                else "not paid this turn (after the Build-up, or the segment not played yet)",
                "unsupported": list(state.markers["hq_unsupported"]),
                "cherbourg_sp": state.markers["cherbourg_sp"],
                "rule": "26.10.1, 26.10.5: 1 SP first lifts the Unsupported marker of each Allied corps HQ "
                "that began the segment under one; then each HQ beyond its Mulberry radius costs SP, those "
                "just lifted first, then the rest cheapest first. 26.10.6: one German HQ free, each other "
                "1 SP. 26.10.7: the Cherbourg HQ free while N1410 traces to an off-map box, "
                "else 1 Cherbourg SP",
            }
        if phase.name == "Army Support":
            return {
                "army_sp": dict(state.markers["army_sp"]),
                "german_income": f"{GERMAN_SP[bool(state.markers['v_panzer']['active'])]} SP a turn (26.10)",
                "allied_income": allied_income_words(state),
                "cherbourg_sp": state.markers["cherbourg_sp"],
                "fortress_cherbourg": _fortress_words(state),
            }
        if phase.name == "Allied Engineering":
            return engineering_words(state)
        if phase.name == "German Movement":
            return rail_words(state)
        if phase.name == "Replacement and Reinforcement":
            return track_words(state)
        if phase.name == "Allied Naval Bombardment":
            return naval_fire_protection(state)
        return {}

    def enter_phase(self, state: GameState) -> GameState:
        """Do what a phase's beginning does (:mod:`.logistics`).

        Corps and Artillery Support: the SP the Allied corps HQs cost (26.10.1).  Army Support: the German
        SP (26.10), and the Allied SP landed and paid by the depots (26.10.2).
        Replacement and Reinforcement: the units the scenario's reinforcement track brings this turn
        (22.7.2, 26.16; :mod:`.track`).  Allied Engineering: the Mulberry and depot rolls (26.19.2,
        26.19.3).  German Combat: the Rail Interdiction roll that ends German rail movement (26.4.4).
        Game-turn Indication: V Panzer Army's activation roll from Turn 20 (26.20.1), and the end of the
        Build-up once both depots are complete (26.3.2, 26.21.2).
        """
        name = current_phase(state).name
        if name == "Corps and Artillery Support":
            return logistics.support_corps_hqs(state)
        if name == "Army Support":
            return logistics.land_allied_sp(logistics.pay_army_support(state))
        if name == "Replacement and Reinforcement":  # 22.7.2's Track Adjustments arrive (26.16)
            return arrive(state)
        if name == "Allied Engineering":
            return logistics.engineering_rolls(state)
        if name == "German Combat":  # German rail movement has ended with the German Movement phase (26.4.4)
            return interdiction_roll(state)
        if name != "Game-turn Indication":
            return state
        state = logistics.v_panzer_roll(state)
        if state.markers["stage"] == "build-up" and logistics.build_up_over(state):
            state = state.evolve(
                stage="killing_ground",
                log=state.log.then(
                    "both depots complete: the Build-up ends with this turn (26.3.2); from the next turn "
                    "supply is traced by the standard Killing Ground rules as far as the text gives them "
                    "(the reading standard_rules, by_stage; the depots at 22.7.2's Depot Locations), as for "
                    "22.7; the rest of the Transition (26.21.2) is not played"
                ),
            )
        return state

    def unit_arrives(self, state: GameState, unit: Any) -> tuple[GameState, Any]:
        """Roll a German mechanized reinforcement's supply as it is placed in an off-map box (26.16.2)."""
        return arrival_roll(state, unit)

    def zoc_class(self, unit: Any) -> str:
        """Return a unit's ZOC class (26.2.3): its scenario's ``zoc``, else RECONSTRUCTED by type and size.

        Regiments, brigades and divisions exert a full ZOC; battalions a battalion ZOC (the bar symbol
        is on the counters: GAP); HQs, artillery, flak and British paratroopers none (Player's Notes).
        """
        given = unit.attr("zoc")
        if given:
            return given
        if unit.hq is not None or unit.type in ("artillery", "flak"):
            return "none"
        if unit.type == "parachute" and unit.nationality in ("UK", "CA"):
            return "none"
        return "battalion" if unit.size in ("battalion", "company") else "full"

    def exerts_zoc(self, unit: Any) -> bool:
        """Tell whether a unit exerts a ZOC of either class (26.2.3)."""
        return self.zoc_class(unit) != "none"

    def zoc_crosses(self, edges: Any) -> Any:
        """Extend a ZOC over every land hexside, into no city hex (Player's Notes, citing KG)."""
        settlement = game_map(self.system).terrain.hexes["settlement"].to_numpy()
        return ~edges.all_sea & (settlement[edges.dst] != "City")

    def unit_problem(self, entry: Any) -> tuple[str, str, str] | None:
        """Refuse more steps than a unit of its size has (RECONSTRUCTED per size)."""
        most = FULL_STEPS[entry["size"]]
        if entry["steps"] > most:
            return "steps", f"{entry['steps']!r} is more than a {entry['size']} has ({most})", "lower it"
        return None

    def determine_supply(self, state: GameState) -> SupplyReport:
        """Determine the Build-up's supply (26.9-26.11; :mod:`.supply`)."""
        return determine(state)

    def supply_caveat(self, state: GameState) -> str:
        """Say what this state's supply verdicts rest on beyond the text (:mod:`.caveats`)."""
        return supply_caveat(state)

    def verdict_note(self, state: GameState, why: str | None) -> str:
        """Return the words side by side adds to a verdict's rule (:func:`.caveats.rule_note`)."""
        return rule_note(state, why)


def _declare_fortress(state: GameState, value: Any) -> bool:
    """Return the Fortress Cherbourg marker after a declaration, or refuse one the rules do not allow.

    26.20.6: "During the Army Support and Replacement Phase" the German player may declare it "any time
    after Turn 12", and must in the turn N1410 can trace no supply line to an off-map box: whether the
    Cherbourg HQ still stands or not (the obligation rests on N1410 alone).  Once declared it stays.
    """
    if not isinstance(value, bool):
        raise RefusedError(f"fortress_cherbourg is true or false, not {value!r}")
    if state.markers["fortress_cherbourg"] and not value:
        raise RefusedError("Fortress Cherbourg, once declared, stays declared (26.20.6)")
    if not value or state.markers["fortress_cherbourg"]:
        return value
    phase = current_phase(state).name
    if phase not in ARMY_SUPPORT_AND_REPLACEMENT:
        raise RefusedError(
            f"Fortress Cherbourg is declared during the Army Support and Replacement Phase (26.20.6: its "
            f"segments here are {', '.join(ARMY_SUPPORT_AND_REPLACEMENT)}), not in {phase}"
        )
    if turn_of(state.date) <= 12 and not fortress_due(state):
        raise RefusedError(
            f"Fortress Cherbourg may be declared after Turn 12 (this is Turn {turn_of(state.date)}), or "
            "must be in the turn N1410 traces to no off-map box (26.20.6)"
        )
    return value


def fortress_due(state: GameState) -> bool:
    """Tell whether 26.20.6 forces Fortress Cherbourg now: N1410 traces no supply line to a German box.

    Read from the supply determination, with or without a Cherbourg HQ on the map.
    """
    return bool(supply(state).determination.fortress_due)


def _fortress_words(state: GameState) -> str:
    """Say where Fortress Cherbourg stands in the Army Support and Replacement Phase (26.20.6)."""
    if state.markers["fortress_cherbourg"]:
        return "declared (26.20.6)"
    if fortress_due(state):
        return "must be declared this turn: N1410 traces to no German off-map box (26.20.6)"
    if turn_of(state.date) > 12:
        return "may be declared in this phase (after Turn 12, 26.20.6)"
    return "may not be declared before Turn 13 unless N1410 is cut off (26.20.6)"
