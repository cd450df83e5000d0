"""Cobra's section of a scenario, marker by marker: what each value may be (``normandy_lab.rules.section``).

The types and ranges are the scenario schema's (:mod:`.schema`); here is what a type cannot say: the
boundary's extension placed as 5.9.1b places it and only after a turn that ended south of Vire, that turn
not later than the scenario's own (5.9.1b), and wrecked beaches that are beach hexes (17.3.6f).
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from normandy_lab.grids import grid
from normandy_lab.rules.cobra.boundary import placement_problem
from normandy_lab.rules.cobra.data import turn_of
from normandy_lab.rules.cobra.points import FORCED_STORM_GT
from normandy_lab.rules.section import Marker, MarkerValueError, hexes_on_map
from normandy_lab.terrain import terrain_map

if TYPE_CHECKING:
    from normandy_lab.engine.state import GameState


def _supply_points(raw: Any, rules: Any) -> dict[str, int]:
    """Return the three armies' points: an army a file leaves out keeps the rules' value."""
    return {**rules.markers["supply_points"], **dict(raw or {})}


def _track_line(raw: Any, rules: Any) -> dict[str, int] | None:
    """Return a turn-track line (11.1a, 11.3) with its unknown armies left out, or None."""
    known = {army: n for army, n in (raw or {}).items() if n is not None}
    return known or None


def _flag(raw: Any, rules: Any) -> bool:
    return bool(raw)


def _extension(raw: Any, rules: Any) -> tuple[str, ...] | None:
    return hexes_on_map(rules, raw) if raw else None


def _check_extension(state: GameState, ends: Any) -> None:
    """5.9.1b: the markers where the rule places them, after a turn that ended with a unit south of Vire."""
    if ends is None:
        return
    problem = placement_problem(state, list(ends))
    if problem:
        raise MarkerValueError(
            problem,
            "give [the Vire end, the east end] as 5.9.1b places them, after the turn south_of_vire_gt "
            "names, or leave the extension out",
        )


def _check_south_of_vire(state: GameState, gt: Any) -> None:
    """5.9.1b: the turn that ended with an Allied unit south of Vire is this one or an earlier one."""
    now = turn_of(state.date)
    if gt is not None and gt > now:
        raise MarkerValueError(
            f"GT {gt} is later than the scenario's turn (GT {now}): it has not been played yet (5.9.1b)",
            f"give a game turn from 1 to {now}, or leave it out",
        )


@lru_cache(maxsize=2)
def beach_hexes(system: str) -> frozenset[str]:
    """Return the beach hexes of the map (the derived terrain's ``beach``), by canonical id."""
    beach = terrain_map(system, progress=False).hexes["beach"].fillna("").astype(str)
    g = grid(system)
    return frozenset(g.canonical(h) for h in beach[beach != ""].index)


def _check_wrecked(state: GameState, hexes: Any) -> None:
    """17.3.6f: only a beach hex is wrecked (a German unit ended an Allied player turn on it)."""
    beaches = beach_hexes(state.system)
    for n, hex_id in enumerate(hexes):
        if hex_id not in beaches:
            raise MarkerValueError(
                f"{hex_id} is not a beach hex: only a beach is wrecked (17.3.6f)",
                f"give beach hexes ({', '.join(sorted(beaches)[:4])} ...), or leave the hex out",
                (n,),
            )


def _weather_history(raw: Any, rules: Any) -> tuple[str, ...]:
    return tuple(raw or ())


def _check_weather_history(state: GameState, history: Any) -> None:
    """5.3: the weather played before this turn fits the turns before it and what 5.3 fixes."""
    gt = turn_of(state.date)
    history = list(history or ())
    if len(history) > gt - 1:
        raise MarkerValueError(
            f"{len(history)} turns of weather before GT {gt}, which has {gt - 1} before it",
            "give the weather of the turns already played, oldest first, the last the turn before this one",
        )
    storms = 0
    for n, weather in enumerate(history):
        storms = storms + 1 if weather == "Storm" else 0
        if storms > 3:
            raise MarkerValueError(
                "a fourth storm turn in a row: after three storm turns the weather is overcast (5.3a)",
                "write Overcast for that turn",
                (n,),
            )
    if len(history) != gt - 1:
        return  # the turns before are not all stated: what 5.3 fixes for a game begun on GT 1 is unknown
    fixed = {0: "Clear", 1: "Overcast"}  # 5.3: GT 1 clear, GT 2 overcast
    for n, weather in fixed.items():
        if n < len(history) and history[n] != weather:
            raise MarkerValueError(
                f"GT {n + 1} is {weather} in a game begun on GT 1 (5.3), not {history[n]}",
                f"write {weather} for GT {n + 1}",
                (n,),
            )
    if len(history) >= FORCED_STORM_GT and "Storm" not in history[:FORCED_STORM_GT]:
        raise MarkerValueError(
            f"no storm by GT {FORCED_STORM_GT}: with none before, GT {FORCED_STORM_GT} is a storm (5.3)",
            f"write Storm for GT {FORCED_STORM_GT} or an earlier turn",
            (FORCED_STORM_GT - 1,),
        )


SECTION = (
    Marker("supply_points", _supply_points, rule="11.1, 11.0c"),
    Marker("allied_income", _track_line, rule="11.1a, 11.3"),
    Marker("command_limits", _track_line, rule="11.1a, 11.3"),
    Marker("army_boundary", rule="5.9, 5.9.1a"),
    Marker("south_of_vire_gt", check=_check_south_of_vire, rule="5.9.1b"),
    Marker("boundary_extension", _extension, _check_extension, rule="5.9.1b-d"),
    Marker("south_edge_lost", _flag, rule="10.4"),
    Marker("weather_history", _weather_history, _check_weather_history, rule="5.3, 11.1b"),
    Marker("cherbourg_entered", _flag, rule="17.3.5e"),
    Marker("campaign", _flag, rule="17.3"),
    Marker("wrecked_beaches", lambda raw, rules: hexes_on_map(rules, raw), _check_wrecked, rule="17.3.6f"),
)
