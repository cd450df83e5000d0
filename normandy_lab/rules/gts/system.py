"""The Greatest Day: Utah Beach as a rule system: its verdicts over :mod:`.data`."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from normandy_lab.errors import RefusedError
from normandy_lab.rules.base import RuleSet, no_marker_edit
from normandy_lab.rules.gts.air import interdiction_limit, interdiction_table
from normandy_lab.rules.gts.data import (
    ALWAYS_SUPPLIED,
    EIGHTY_SECOND,
    OPENING_NIGHT,
    SUPPLY_LIMITS_FROM,
    TURNS,
    US_DIVISIONS,
    WEATHER_EFFECTS,
)
from normandy_lab.rules.gts.movement import movement_costs
from normandy_lab.rules.gts.supply import (
    NON_SUPPLIED_EFFECTS,
    determine,
    division_status,
    eighty_second_supply,
)
from normandy_lab.rules.section import checked

if TYPE_CHECKING:
    from normandy_lab.engine.report import SupplyReport
    from normandy_lab.engine.state import GameState


@dataclass(frozen=True, eq=False)
class GtsRules(RuleSet):
    """The Greatest Day: Utah Beach (exclusive rules only: the series rules and the booklets are GAPs)."""

    def turn_order(self, date: Any) -> tuple[str, ...]:
        """Return a date's turns: 0700 to 2100 every two hours, then the Night (1.1).

        5 June has its Night only (3.4.2, 18.7: "Night, 5 June", the airborne drops), then 6 June's 0700.
        """
        if date == OPENING_NIGHT or str(date) == OPENING_NIGHT.isoformat():
            return ("Night",)
        return TURNS

    def next_date(self, date: dt.date) -> dt.date:
        """Return the next date: a new date begins after the Night turn (1.1)."""
        return date + dt.timedelta(days=1)

    def new_day(self, state: GameState, date: Any) -> GameState:
        """Begin a new date; a day that ends in Storm joins ``storm_days`` (17.6: the missions wait a day)."""
        if state.weather == "Storm":
            days = tuple(sorted({*state.markers["storm_days"], state.date.isoformat()}))
            state = state.evolve(storm_days=days)
        return super().new_day(state, date)

    def exerts_zoc(self, unit: Any) -> bool:
        """No unit exerts a zone of control: the series uses Fire Zones instead (not in the text)."""
        return False

    def movement_costs(self, state: GameState, unit: Any, in_supply: bool, ma: float) -> Any:
        """Return where a unit may go and what a step costs, by 1.2 and 2.1-2.4 (the TEC is a GAP)."""
        return movement_costs(state, unit)

    def determine_supply(self, state: GameState) -> SupplyReport:
        """Report each unit's supply as the day's designation gives it (17.3, 17.4, 17.6; :mod:`.supply`)."""
        return determine(state)

    def supply_lead(self, state: GameState) -> str:
        """Return what a supply summary must say first: no division designated yet (17.3), or nothing.

        From 0700 on 8 June a state with no designation reports every American division Non-Supplied;
        that is an unmade choice, not a verdict, and the summary says so before any count.
        """
        if state.date < SUPPLY_LIMITS_FROM or state.markers["supplied_divisions"]:
            return ""
        return (
            "No division designated yet: choose three (17.3); until then every American division counts as "
            "Non-Supplied, which is the unmade choice, not history"
        )

    def phase_results(self, state: GameState, phase: Any) -> dict[str, Any]:
        """Say what a step puts on the table: the Supplied divisions, the air, the Activation not played."""
        if phase.name == "Supply Designation":
            status = division_status(state)
            results: dict[str, Any] = {
                division: ("Supplied: " if ok else "Non-Supplied: ") + why
                + ("" if ok or why.startswith("not yet ashore") else f" -- {NON_SUPPLIED_EFFECTS}")
                for division, (ok, _, why) in status.items()
            }  # fmt: skip
            if state.markers["hypothetical_82nd"]:
                results["82nd supply (17.6)"] = eighty_second_supply(state)
            return results
        if phase.kind == "air":
            planes = WEATHER_EFFECTS[state.weather]["fighter_bombers"]
            return {
                "fighter_bombers": f"{planes} today ({state.weather}, 17.1)",
                "on_interdiction": f"{state.markers['fighter_bombers_on_interdiction']} of at most "
                f"{interdiction_limit(state)} (17.1)",
                **{f"reinforcement hex {h}": words for h, words in interdiction_table(state).items()},
            }
        if phase.kind == "activation":
            return {
                "activation": "the chit draws are not played: the series rules (GTS 2.0c) are not in the "
                "text",
                **{f"interdiction at {h}": words for h, words in interdiction_table(state).items()},
            }
        return {}

    def set_marker(self, state: GameState, name: str, value: Any) -> GameState:
        """Let the analyst name the Supplied divisions (17.3), the planes (17.1) and the 82nd's drops (17.6).

        ``supplied_divisions`` (three names), ``fighter_bombers_on_interdiction``, ``supply_drop_zone``
        (LZ 4 or LZ 5), ``hypothetical_82nd`` (it dropped on the western zones), ``abandoned_transport``
        and ``assault_force_markers`` (4.4.3: orders ``{"force": "UtS", "hex": "17.029"}``).
        """
        if name == "abandoned_transport" and isinstance(value, str):  # one unit id alone
            value = [value]
        if name == "assault_force_markers" and isinstance(value, list):
            # An edit moves markers as orders, [{"force": "UtS", "hex": "17.029"}] (4.4.3), since a study's
            # marker value has no mapping of hexes; a scenario file gives the mapping itself.
            if not all(isinstance(o, dict) and set(o) == {"force", "hex"} for o in value):
                raise RefusedError(
                    'move an Assault Force marker as [{"force": "UtS", "hex": "17.029"}] (4.4.3)'
                )
            value = {**state.markers["assault_force_markers"], **{o["force"]: o["hex"] for o in value}}
        if name in ("supplied_divisions", "fighter_bombers_on_interdiction", "supply_drop_zone",
                    "hypothetical_82nd", "abandoned_transport", "assault_force_markers"):  # fmt: skip
            # The checks a scenario's section gets (rules.gts.section): types, names, 17.1, 17.3, 17.6.
            return state.evolve(**{name: checked(state, name, value)})
        settable = ("supplied_divisions", "fighter_bombers_on_interdiction", "supply_drop_zone",
                    "hypothetical_82nd", "abandoned_transport", "assault_force_markers")  # fmt: skip
        raise RefusedError(
            no_marker_edit(self.title, name, settable, f" (the {EIGHTY_SECOND}'s rules: 17.6)")
        )

    def unit_problem(self, entry: Any) -> tuple[str, str, str] | None:
        """Refuse an American formation the designation does not know (17.3 counts divisions by name).

        A misspelt division would otherwise stand outside the count as corps troops, supplied without a
        word; corps troops give no formation.
        """
        formation = entry.get("formation")
        if entry.get("side") != "allied" or formation is None:
            return None
        known = [*US_DIVISIONS, *ALWAYS_SUPPLIED]
        if formation in known:
            return None
        import difflib

        close = difflib.get_close_matches(str(formation), known, n=2)
        hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
        return (
            "formation",
            f"{formation!r} is not a division the American supply limit counts (17.3)",
            f"{hint}give one of {', '.join(known)}, or leave formation out for corps troops",
        )
