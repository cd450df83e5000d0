"""The Killing Ground's section of a scenario, marker by marker (``normandy_lab.rules.section``).

The types and ranges are the scenario schema's (:mod:`.schema`): the Mulberry and depot levels, the armies'
and the depots' SP, the air allocation of 26.15 (its OMM boxes by name), the rail markers of 26.4.3-26.4.4,
and each Weapons Nest's name and state.  Here is what a type cannot say: a Weapons Nest's printed hex on
the KG map and on land (26.2.4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
    from normandy_lab.gamemap import game_map

    terrain = game_map(state.system).terrain.hexes["terrain"]
    for n, nest in enumerate(nests):
        hex_id = dict(nest).get("hex")
        if hex_id and terrain.loc[hex_id] in ("Sea", "All Sea", "Impassable"):
            raise MarkerValueError(
                f"{hex_id} is a sea hex: a Weapons Nest stands on land (26.2.4)",
                "correct the hex id",
                (n, "hex"),
            )


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
)
