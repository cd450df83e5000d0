"""What an interdiction study may cut: bridges, road hexes, a list of hexes, the hexes of an area.

A :class:`Target` is one thing air power could strike: a bridge (a hexside with a road or rail bridge; cut,
it is destroyed, as ``destroy_bridge`` does) or a hex (cut, it is interdicted by the analyst, as
``interdict_hex`` does: the state's option ``what_if_interdiction`` says whether that blocks lines or costs
MP).  :func:`targets` lists them for a map, filtered by what 1944 air power could reach: the bridges over a
named river, inside an area (a shapely geometry in longitude and latitude), not already down.  A hex where
an HQ stands is labelled so ("HQ in hex ..."): cutting it strikes the headquarters, not a road; ``hqs=False``
leaves such hexes out.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from normandy_lab.engine.state import GameState
from normandy_lab.errors import RefusedError


@dataclass(frozen=True)
class Target:
    """One thing to cut: ``kind`` ``"bridge"`` (``key`` its hexside, ``"A1|A2"``) or ``"hex"`` (its id).

    ``label`` says it in words (the river and the road a bridge carries, say).

    The key is kept in its canonical form, so that one bridge is one target however it is written:
    ``Target("bridge", "B4114|b4015")`` is ``Target("bridge", "B4015|B4114")`` (hex ids in capitals, a
    hexside's two hexes in order), and its bound, its name in a sweep and its cut are the same.

    Examples
    --------
    >>> Target("bridge", "B4114|b4015").key
    'B4015|B4114'
    >>> Target("hex", " b2816 ").edit()
    {'op': 'interdict', 'hex': 'B2816'}
    """

    kind: str
    key: str
    label: str = ""

    def __post_init__(self) -> None:
        if self.kind not in ("bridge", "hex"):
            raise RefusedError(
                f"Target: kind: {_shown(self.kind)} is not allowed; give 'bridge' (key 'A|B', a hexside) or "
                "'hex' (key a hex id)"
            )
        if not isinstance(self.key, str):
            raise RefusedError(f"Target: key: {_shown(self.key)} is not text; give a hex id or hexside 'A|B'")
        parts = [p.strip().upper() for p in self.key.split("|")]
        if self.kind == "bridge" and len(parts) != 2:
            raise RefusedError(
                f"Target: key: {_shown(self.key)} is not a bridge's hexside; give its two hexes, 'A|B'"
            )
        # frozen: the canonical key is set once, here (the sorted pair is the map's hexside index).
        object.__setattr__(self, "key", "|".join(sorted(parts)))

    def hexes(self) -> tuple[str, ...]:
        """Return the hex ids the target touches (a bridge's two, a hex's own)."""
        return tuple(self.key.split("|")) if self.kind == "bridge" else (self.key,)

    def cut(self, state: GameState) -> GameState:
        """Return ``state`` with this target cut: the bridge destroyed, or the hex interdicted.

        The same edits a study makes (``destroy_bridge``, ``interdict_hex``): a key that names no bridge
        is refused there, with its reason.
        """
        from normandy_lab.engine.edits import destroy_bridge
        from normandy_lab.engine.interdiction import interdict_hex

        if self.kind == "bridge":
            return destroy_bridge(state, *self.hexes())
        return interdict_hex(state, self.key)

    def edit(self) -> dict[str, Any]:
        """Return the study edit that makes this cut (``Study.apply``)."""
        if self.kind == "bridge":
            a, b = self.key.split("|")
            return {"op": "destroy_bridge", "hexside": [a, b]}
        return {"op": "interdict", "hex": self.key}


def targets(
    state: GameState | str,
    candidates: str | Iterable[str] | Any = "bridges",
    river: str | list[str] | None = None,
    within: Any = None,
    hqs: bool = True,
) -> list[Target]:
    """List what may be cut on ``state``'s map.

    Parameters
    ----------
    candidates
        ``"bridges"`` (every road or rail bridge still standing), ``"road_hexes"`` (every land hex a road
        runs through), a list of text, each a hex id (``"B2816"``: cut, it is interdicted) or a bridge's
        hexside (``"B4015|B4114"``: cut, it is destroyed), a shapely geometry (longitude, latitude): the land
        hexes whose centres lie inside it, or a list of :class:`Target` (a shortlist, taken as it is).
    river
        Keep only the bridges over water of this name (``"Orne"``, ``"Vire"``: the map's ``water_name``),
        or of any name of a list (``["Orne", "Odon"]``).  The whole name is matched, without regard to case
        or accents, as ``terrain_map(system).bridges(name)`` matches it: ``"Vire"`` takes the bridges over
        the Vire, not those over the Canal de Vire et Taute; a hexside where two waters meet carries both
        names (``"Vire; Elle"``) and is taken by that name.
    within
        Keep only the targets inside this shapely geometry (longitude, latitude): a bridge by its middle, a
        hex by its centre.
    hqs
        Whether the hexes where an HQ stands are candidates (True: labelled "HQ in hex ...", since cutting
        one strikes a headquarters rather than a road; False: left out, for road interdiction proper).

    Returns
    -------
    list of Target
        In the map's order, each once (empty when, say, every bridge over the river is down already).

    Raises
    ------
    RefusedError
        For a ``candidates`` that is none of these (an empty list, a number, a misspelt kind, an area that
        holds no land hex), a ``river`` that is not text or not a water any bridge of the map crosses
        (with the nearest names), a ``within`` that is not an area, is empty or holds no target; and for an
        item of a list that is not a hex of the map, or a hexside with no standing bridge (``candidates[n]``,
        the value and why).
    """
    return _targets(state_arg(state, "targets"), candidates, river, within, "targets", hqs)


def state_arg(state: Any, caller: str) -> GameState:
    """Return the state a study works on: a state, or a scenario's name or path, loaded; refuse the rest."""
    from pathlib import Path

    from normandy_lab.engine.scenario import load_scenario

    if isinstance(state, GameState):
        return state
    if isinstance(state, str | Path):
        return load_scenario(state)  # an unknown name is refused there, with the nearest
    raise RefusedError(
        f"{caller}: state: {_shown(state)} is not a state; give a GameState (nl.load_scenario(...), "
        "study.state) or a scenario's name"
    )


KINDS = ("bridges", "road_hexes")


def _targets(
    state: GameState, candidates: Any, river: Any, within: Any, caller: str, hqs: bool = True
) -> list[Target]:
    """:func:`targets`, its refusals beginning with ``caller`` (the public function the user called)."""
    from normandy_lab.grids import grid
    from normandy_lab.terrain import terrain_map

    _check_area(within, "within", caller)
    if not isinstance(hqs, bool):
        raise RefusedError(f"{caller}: hqs: {_shown(hqs)} is not True or False; say whether HQ hexes are cut")
    if river is not None and not (
        isinstance(river, str)
        or (isinstance(river, list | tuple) and river and all(isinstance(r, str) for r in river))
    ):
        raise RefusedError(
            f"{caller}: river: {_shown(river)} is not text; name a river, e.g. river='Vire', or a list of "
            "them, river=['Orne', 'Odon']"
        )
    if isinstance(candidates, list | tuple) and candidates and all(isinstance(c, Target) for c in candidates):
        if river is not None or within is not None:
            raise RefusedError(
                f"{caller}: river= and within= choose among the map's targets, not a list of Targets; "
                "filter the list yourself, or give candidates='bridges'"
            )
        return list(dict.fromkeys(candidates))  # chosen already (another study's picks, a shortlist)
    ids_given = _hex_ids_given(candidates, caller)
    tmap = terrain_map(state.system, progress=False)
    g = grid(state.system)
    if candidates == "bridges":
        rivers: str | list[str] = "" if river is None else river if isinstance(river, str) else list(river)
        sides = tmap.hexsides
        standing = ~sides.index.isin(list(state.destroyed_bridges))
        keep = (sides["road_bridge"] | sides["rail_bridge"]) & standing
        if river is not None:
            keep &= _over_river(sides, rivers, caller, state.system)
        if state.maps:  # only the sheets in play
            keep &= sides["a"].map(g.sheet_of).isin(state.maps) & sides["b"].map(g.sheet_of).isin(state.maps)
        chosen = sides[keep]
        if within is not None:
            middles = [geom.interpolate(0.5, normalized=True) for geom in chosen.geometry]
            chosen = chosen[[within.contains(point) for point in middles]]
            if chosen.empty:
                raise RefusedError(
                    f"{caller}: within: the area {_bounds(within)} holds no target: no standing bridge "
                    f"{'over the ' + _rivers(rivers) + ' ' if rivers else ''}of the {state.system} map has "
                    "its middle inside it; check the area (longitude, latitude, in that order) or widen it"
                )
        return [Target("bridge", str(key), _bridge_words(row)) for key, row in chosen.iterrows()]
    if river is not None:
        raise RefusedError(f"{caller}: river: river= filters bridges; use candidates='bridges'")
    hexes = tmap.hexes
    land = hexes["terrain"].astype(str).map(lambda t: t not in ("Sea", "All Sea", "Impassable"))
    if candidates == "road_hexes":
        ids = [h for h in _road_hexes(state.system) if land[h]]
    elif ids_given is None:  # an area
        from shapely import contains_xy

        inside = contains_xy(candidates, *_centres(state.system))
        ids = [str(g.id_array[i]) for i in inside.nonzero()[0] if land[str(g.id_array[i])]]
        if not ids:
            raise RefusedError(
                f"{caller}: candidates: the area {_bounds(candidates)} holds no land hex of the "
                f"{state.system} map; check the area (longitude, latitude, in that order) or widen it"
            )
    else:
        return _listed(state, ids_given, within, hqs, caller)
    if within is not None:
        from shapely import contains_xy

        lon, lat = _centres(state.system)
        inside = contains_xy(within, lon, lat)
        ids = [h for h in ids if inside[g.index(h)]]
        if not ids:
            raise RefusedError(
                f"{caller}: within: the area {_bounds(within)} holds no target: none of the hexes chosen "
                "has its centre inside it; check the area (longitude, latitude, in that order)"
            )
    at_hq = hq_hexes(state)
    if not hqs:
        ids = [h for h in ids if h not in at_hq]
        if not ids:
            raise RefusedError(
                f"{caller}: hqs: every hex chosen holds an HQ, and hqs=False leaves them out; choose other "
                "hexes, or hqs=True to strike the HQs"
            )
    seen: dict[str, None] = dict.fromkeys(ids)
    return [Target("hex", h, f"HQ in hex {h}: {at_hq[h]}" if h in at_hq else f"hex {h}") for h in seen]


#: What an item of a list of candidates may be, for the refusals.
A_CANDIDATE = "a candidate is a hex id ('B2816'), a bridge's hexside 'A|B' ('B4015|B4114') or a Target"


def _listed(state: GameState, given: list[str], within: Any, hqs: bool, caller: str) -> list[Target]:
    """Return the targets a list of text names, in its order: hex ids and bridges' hexsides ``"A|B"``.

    Each item is checked here, so that a refusal names it (``candidates[2]``), its value and why, rather
    than failing later in the search with the grid's bare message.
    """
    from shapely import contains_xy

    from normandy_lab.grids import grid
    from normandy_lab.terrain import terrain_map

    g = grid(state.system)
    sides = terrain_map(state.system, progress=False).hexsides
    at_hq = hq_hexes(state)
    found: list[Target] = []
    for n, text in enumerate(given):
        said = f"{caller}: candidates[{n}]: {_shown(text)}"
        parts = [p.strip() for p in text.split("|")]
        try:
            ids = [g.canonical(p) for p in parts]
        except RefusedError as exc:  # HexIdError: malformed, or off the map
            what = "a bridge's hexside" if len(parts) > 1 else "a hex"
            raise RefusedError(
                f"{said} is not {what} of the {state.system} map ({exc}); {A_CANDIDATE}"
            ) from None
        if len(ids) == 1:
            h = ids[0]
            if not hqs and h in at_hq:
                continue
            found.append(Target("hex", h, f"HQ in hex {h}: {at_hq[h]}" if h in at_hq else f"hex {h}"))
            continue
        if len(ids) != 2 or g.distance(ids[0], ids[1]) != 1:
            raise RefusedError(
                f"{said} is not a hexside: a bridge's hexside is two adjacent hexes, 'A|B'; {A_CANDIDATE}"
            )
        key = "|".join(sorted(ids))
        if key not in sides.index or not (sides.at[key, "road_bridge"] or sides.at[key, "rail_bridge"]):
            raise RefusedError(
                f"{said}: no bridge on that hexside of the {state.system} map, so nothing to cut there; give "
                "a bridged hexside (targets(state, 'bridges') lists them) or a hex id to interdict"
            )
        if key in state.destroyed_bridges:
            raise RefusedError(
                f"{said}: the bridge is down already, so cutting it changes nothing; leave it out, or repair "
                "it first (the repair_bridge edit)"
            )
        found.append(Target("bridge", key, _bridge_words(sides.loc[key])))
    if not found:
        raise RefusedError(
            f"{caller}: hqs: every hex chosen holds an HQ, and hqs=False leaves them out; choose other "
            "hexes, or hqs=True to strike the HQs"
        )
    if within is not None:
        lon, lat = _centres(state.system)
        places = [
            sides.at[t.key, "geometry"].interpolate(0.5, normalized=True).coords[0]
            if t.kind == "bridge"
            else (lon[g.index(t.key)], lat[g.index(t.key)])
            for t in found
        ]
        inside = contains_xy(within, [x for x, _ in places], [y for _, y in places])
        found = [t for t, keep in zip(found, inside, strict=True) if keep]
        if not found:
            raise RefusedError(
                f"{caller}: within: the area {_bounds(within)} holds no target: none of the hexes and "
                "bridges chosen has its centre or middle inside it; check the area (longitude, latitude, in "
                "that order)"
            )
    return list(dict.fromkeys(found))


def hq_hexes(state: GameState) -> dict[str, str]:
    """Return the hexes where an HQ of either side stands on the map, each with the HQs' names.

    Cutting such a hex (interdicting it) closes the HQ's own hex to the lines that run to it: it strikes
    the headquarters, which is not road interdiction, so the targets and the result say so.
    """
    names: dict[str, list[str]] = {}
    for unit in state.units:
        if unit.hq and unit.status == "active":
            names.setdefault(unit.hex, []).append(unit.name)
    return {h: ", ".join(n) for h, n in names.items()}


def _shown(value: Any) -> str:
    """Say a value as its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _bounds(area: Any) -> str:
    """Say where an area lies: its bounds in longitude and latitude."""
    x0, y0, x1, y1 = area.bounds
    return f"(lon {x0:.3f} to {x1:.3f}, lat {y0:.3f} to {y1:.3f})"


def _check_area(area: Any, name: str, caller: str) -> None:
    """Refuse an ``area`` argument that is not a shapely geometry, or is an empty one (None passes)."""
    from shapely.geometry.base import BaseGeometry

    if area is None:
        return
    if not isinstance(area, BaseGeometry):
        raise RefusedError(
            f"{caller}: {name}: {_shown(area)} is not an area; give a shapely geometry in longitude and "
            "latitude, e.g. shapely.box(-1.2, 49.0, -0.9, 49.3)"
        )
    if area.is_empty:
        raise RefusedError(f"{caller}: {name}: an empty area holds nothing; give an area with a surface")


def _hex_ids_given(candidates: Any, caller: str) -> list[str] | None:
    """Check ``candidates``; return the hex ids when it is a list of them (None for a kind or an area)."""
    from shapely.geometry.base import BaseGeometry

    allowed = "'bridges', 'road_hexes', a list of hex ids, a shapely area or a list of Targets"
    if isinstance(candidates, str):
        if candidates in KINDS:
            return None
        close = difflib.get_close_matches(candidates, KINDS, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        raise RefusedError(f"{caller}: candidates: {_shown(candidates)} is not allowed; {hint}give {allowed}")
    if isinstance(candidates, BaseGeometry):
        _check_area(candidates, "candidates", caller)
        return None
    if isinstance(candidates, Mapping | bytes) or not isinstance(candidates, Iterable):
        raise RefusedError(f"{caller}: candidates: {_shown(candidates)} is not allowed; give {allowed}")
    given = list(candidates)
    if not given:
        raise RefusedError(f"{caller}: candidates: an empty list has nothing to cut; give {allowed}")
    for n, item in enumerate(given):
        if not isinstance(item, str):
            raise RefusedError(
                f"{caller}: candidates[{n}]: {_shown(item)} is not a candidate; {A_CANDIDATE}, and a list "
                "holds text only (hex ids and hexsides) or Targets only"
            )
    return given


def _rivers(river: str | list[str]) -> str:
    """Say a river argument in words: "Vire", or "Orne or Odon"."""
    return river if isinstance(river, str) else " or ".join(river)


def _plain(name: str) -> str:
    """Return a water's name folded for matching: no case, no accents (``"Sélune"`` is ``"selune"``)."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).strip()


def _over_river(sides: Any, river: str | list[str], caller: str, system: str) -> Any:
    """Return which hexsides cross the river (or rivers) of that whole name; refuse a name no bridge crosses.

    The rule is the map's own (:meth:`normandy_lab.terrain.TerrainMap.bridges`): a hexside is over the
    Vire when its ``water_name`` is the whole name "Vire", case and accents aside.  So "Vire" is not found
    inside "Canal de Vire et Taute", and a hexside where two waters meet is named by both ("Vire; Elle")
    and taken by that name; the road bridges of ``targets(state, "bridges", river="Vire")`` are exactly
    ``terrain_map(system).bridges("Vire")``.  A list of names takes the bridges over any of them.
    """
    rivers = [river] if isinstance(river, str) else list(river)
    bridged = sides[sides["road_bridge"] | sides["rail_bridge"]]["water_name"].dropna().astype(str)
    names = sorted({text.strip() for text in bridged if text.strip()})
    by_plain = {_plain(n): n for n in names}
    wanted = set()
    for one in rivers:
        if _plain(one) not in by_plain:
            close = [by_plain[c] for c in difflib.get_close_matches(_plain(one), list(by_plain), n=3)]
            hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
            raise RefusedError(
                f"{caller}: river: no bridge of the {system} map crosses a water named {_shown(one)}; {hint}"
                f"the waters bridged are: {', '.join(names)}"
            )
        wanted.add(_plain(one))
    return sides["water_name"].fillna("").astype(str).map(lambda text: _plain(text) in wanted)


def water_names(text: str) -> set[str]:
    """Return the waters a hexside's ``water_name`` names, each folded as :func:`_plain` folds a river."""
    return {_plain(part) for part in str(text).split(";")}


def _bridge_words(row: Any) -> str:
    water = row["water_name"] or row["water"] or "water"
    road = row["road"] if row["road"] not in ("", "none", None) else ""
    carries = row["road_name"] or road or ("railway" if row["rail_bridge"] else "track")
    return f"bridge over the {water} ({carries})"


def _road_hexes(system: str) -> list[str]:
    """Return the hexes a road enters or leaves, in the map's order."""
    import numpy as np

    from normandy_lab.gamemap import game_map

    gmap = game_map(system)
    e = gmap.edges
    on = np.zeros(len(gmap.grid), dtype=bool)
    on[e.src[e.road > 0]] = True
    return [str(gmap.grid.id_array[i]) for i in np.nonzero(on)[0]]


def _centres(system: str) -> tuple[Any, Any]:
    """Return the hexes' centres in longitude and latitude, in the dense order."""
    from normandy_lab.grids import grid

    return grid(system).centers()
