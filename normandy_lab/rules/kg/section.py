"""The Killing Ground's section of a scenario, marker by marker (``normandy_lab.rules.section``).

The types and ranges are the scenario schema's (:mod:`.schema`): the Mulberry and depot levels, the armies'
and the depots' SP, the air allocation of 26.15 (its OMM boxes by name), the rail markers of 26.4.3-26.4.4,
and each Weapons Nest's name and state.  Here is what a type cannot say: a Weapons Nest's printed hex on
the KG map and on land (26.2.4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from normandy_lab.gamemap import game_map
from normandy_lab.rules.api import Checker, ScenarioError, unit_from_entry
from normandy_lab.rules.kg.data import BOXES
from normandy_lab.rules.section import Marker, MarkerValueError, hex_on_map

if TYPE_CHECKING:
    from normandy_lab.engine.state import GameState


def _flag(raw: Any, rules: Any) -> bool:
    return bool(raw)


def _default(name: str) -> Any:
    def read(raw: Any, rules: Any) -> Any:
        return rules.markers[name] if raw is None else raw

    return read


def _merged(name: str) -> Any:
    def read(raw: Any, rules: Any) -> dict[str, int]:
        return {**rules.markers[name], **dict(raw or {})}

    return read


def _depot_sp(raw: Any, rules: Any) -> dict[str, int]:
    return dict(raw or {})


def _omm_targets(raw: Any, rules: Any) -> dict[str, int]:
    """Return the boxes that have air units on them (a box given 0 has none, 26.15.4)."""
    return {box: n for box, n in dict(raw or {}).items() if n}


def _nests(raw: Any, rules: Any) -> tuple[tuple[tuple[str, str], ...], ...]:
    """Return the Weapons Nests as the state keeps them: each its sorted fields, a printed hex canonical."""
    out = []
    seen: dict[tuple[str, str], int] = {}
    for n, nest in enumerate(raw or ()):
        fields = dict(nest)
        # Each nest is one work on the map (26.2.4); two of one name may stand apart (22.7 prints two
        # "Afld WN"), but one name twice in one hex, or twice with no hex, is the same nest copied.
        key = (str(fields.get("name")), str(fields.get("hex") or "").upper())
        if key in seen:
            where = f" in {key[1]}" if key[1] else ""
            raise MarkerValueError(
                f"{key[0]!r}{where} is listed twice (first as entry {seen[key] + 1})",
                "keep one entry",
                (n, "name"),
            )
        seen[key] = n
        if fields.get("hex") is not None:
            fields["hex"] = hex_on_map(rules, fields["hex"], (n, "hex"))
        out.append(tuple(sorted((k, str(v)) for k, v in fields.items() if v is not None)))
    return tuple(out)


def _check_nests(state: GameState, nests: Any) -> None:
    """26.2.4: a Weapons Nest is a German work on land; a printed hex at sea is a slip."""
    terrain = game_map(state.system).terrain.hexes["terrain"]
    for n, nest in enumerate(nests):
        hex_id = dict(nest).get("hex")
        if hex_id and terrain.loc[hex_id] in ("Sea", "All Sea", "Impassable"):
            raise MarkerValueError(
                f"{hex_id} is a sea hex: a Weapons Nest stands on land (26.2.4)",
                "correct the hex id",
                (n, "hex"),
            )


def _track(raw: Any, rules: Any) -> tuple[tuple[str, tuple[tuple[tuple[str, Any], ...], ...]], ...]:
    """Return the reinforcement track as the state keeps it: (turn, units), each unit its sorted fields."""
    out = []
    for n, entry in enumerate(raw or ()):
        units = []
        for k, unit in enumerate(entry["units"]):
            fields = {key: v for key, v in dict(unit).items() if v is not None}
            fields["hex"] = hex_on_map(rules, fields["hex"], (n, "units", k, "hex"))
            units.append(tuple(sorted(fields.items())))
        out.append((entry["turn"], tuple(sorted(units, key=lambda u: dict(u)["id"]))))
    # The track's order says nothing: by turn, then by unit id (a file may list them in any order).
    return tuple(sorted(out, key=lambda e: int(e[0].split()[-1])))


def _check_track(state: GameState, track: Any) -> None:
    """Refuse a track whose units could not arrive (22.7.2, 26.16).

    A unit on the track is a unit to come: a new id, a turn still to be played, a unit a scenario could hold
    (its fields checked as the units in play are), off the map in an arrival box of its side.
    """
    now = int(state.turn.split()[-1])
    seen = {u.id for u in state.units}
    for n, (turn, units) in enumerate(track):
        if int(turn.split()[-1]) < now:
            raise MarkerValueError(
                f"{turn} is before the scenario's {state.turn}: the track holds units still to arrive",
                f"give {state.turn} or later, or put the units in play",
                (n, "turn"),
            )
        for k, unit in enumerate(units):
            fields = dict(unit)
            loc = (n, "units", k)
            if fields["id"] in seen:
                raise MarkerValueError(
                    f"a unit with id {fields['id']!r} is already in the scenario",
                    "give each unit its own id",
                    (*loc, "id"),
                )
            seen.add(fields["id"])
            box = BOXES.get(fields.get("box") or "")
            if fields.get("status") != "off_map" or box is None or box.side != fields["side"]:
                raise MarkerValueError(
                    "a unit on the track arrives off the map, in a box of its side (26.16.1: a Floating "
                    "Reserve box or the Allied Holding Box; 26.16.2: an OMM box)",
                    "give status: off_map and the box it arrives in",
                    (*loc, "box"),
                )
            try:
                unit_from_entry(Checker("reinforcement track"), fields, "unit", state.rules,
                                game_map(state.system).grid)  # fmt: skip
            except ScenarioError as exc:
                raise MarkerValueError(str(exc).split(": ", 2)[-1], "correct the unit", loc) from None


SECTION = (
    Marker("stage", _default("stage"), rule="26.3.2"),
    Marker("army_sp", _merged("army_sp"), rule="26.10"),
    Marker("mulberry", _merged("mulberry"), rule="26.19.2"),
    Marker("depots", _merged("depots"), rule="26.19.3"),
    Marker("depot_sp", _depot_sp, rule="26.10.2"),
    Marker("weapons_nests", _nests, _check_nests, rule="26.2.4, 22.6.8"),
    Marker("fortress_cherbourg", _flag, rule="26.20.6"),
    Marker("cherbourg_sp", rule="26.10.7"),
    Marker("air_supply_ap", _default("air_supply_ap"), rule="26.15.1"),
    Marker("air_rail", _flag, rule="26.15.2"),
    Marker("air_rail_value", rule="26.4.4"),
    Marker("rail_capacity", rule="26.4.3"),
    Marker("rail_interdiction_level", _default("rail_interdiction_level"), rule="26.4.4"),
    Marker("air_omm_targets", _omm_targets, rule="26.15.4"),
    Marker("reinforcement_track", _track, _check_track, rule="22.7.2, 26.16"),
)
