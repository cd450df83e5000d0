"""The Greatest Day's section of a scenario, marker by marker (``normandy_lab.rules.section``).

The types are the scenario schema's (:mod:`.schema`): the divisions of the count by name, at most three
(17.3), the planes on interdiction (17.1), the 82nd's drop zone (17.6), hexes and unit ids.  Here is what a
type cannot say: the day's designation as 17.3 and 17.6 allow it (``designation_problem``), no more planes
on interdiction than the day's weather allows (17.1), reinforcement hexes on the GTS map, and units under
an Abandoned Transport marker that are on the map (15.0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from normandy_lab.rules.gts.air import interdiction_problem
from normandy_lab.rules.gts.naval import marker_problem
from normandy_lab.rules.gts.supply import designation_problem
from normandy_lab.rules.section import Marker, MarkerValueError, hex_on_map, hexes_on_map

if TYPE_CHECKING:
    from normandy_lab.engine.state import GameState


def _default(name: str) -> Any:
    def read(raw: Any, rules: Any) -> Any:
        return rules.markers[name] if raw is None else raw

    return read


def _check_designation(state: GameState, divisions: Any) -> None:
    """17.3, 17.6: three different divisions of the count, from 8 June, the 82nd once linked up.

    An empty designation is the morning before the analyst names the three (the scenario's default).
    """
    problem = designation_problem(state, list(divisions)) if divisions else None
    if problem:
        raise MarkerValueError(problem, "name three different divisions of the count, or none (17.3)")


def _check_planes(state: GameState, planes: Any) -> None:
    """17.1: the planes on interdiction are at most what the day's weather allows."""
    problem = interdiction_problem(state, planes)
    if problem:
        raise MarkerValueError(problem, "lower the number, or change the weather")


def _check_abandoned(state: GameState, ids: Any) -> None:
    """15.0: an Abandoned Transport marker is on a unit on the map."""
    active = {u.id for u in state.units if u.status == "active"}
    unknown = [i for i in ids if i not in active]
    if unknown:
        raise MarkerValueError(
            f"{', '.join(unknown)}: not a unit on the map (15.0)", "name active units' ids"
        )


def _read_markers(raw: Any, rules: Any) -> dict[str, str]:
    """4.4.3: each force's marker hex, canonical on the map; a force not given keeps its default."""
    given = {k: hex_on_map(rules, v, (k,)) for k, v in dict(raw or {}).items()}
    return {**rules.markers["assault_force_markers"], **given}


def _check_markers(state: GameState, markers: Any) -> None:
    """4.4.1, 4.4.3: each Assault Force marker in its sector, on an Impassable hex along the coast."""
    for force, hex_id in dict(markers).items():
        problem = marker_problem(state, force, hex_id)
        if problem:
            raise MarkerValueError(problem, "place it in its sector, off the coast (4.4.3)", (force,))


SECTION = (
    Marker("supplied_divisions", lambda raw, rules: tuple(raw or ()), _check_designation, rule="17.3, 17.6"),
    Marker("hypothetical_82nd", lambda raw, rules: bool(raw), rule="17.6"),
    Marker("supply_drop_zone", _default("supply_drop_zone"), rule="17.6"),
    Marker(
        "fighter_bombers_on_interdiction",
        _default("fighter_bombers_on_interdiction"),
        _check_planes,
        rule="17.1",
    ),
    Marker("german_reinforcement_hexes", lambda raw, rules: hexes_on_map(rules, raw), rule="17.1"),
    Marker(
        "abandoned_transport",
        lambda raw, rules: tuple(sorted(set(raw or ()))),
        _check_abandoned,
        rule="2.3.3, 2.3.5, 15.0",
    ),
    Marker("assault_force_markers", _read_markers, _check_markers, rule="4.4.3"),
)
