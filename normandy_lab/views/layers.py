"""Column data of the explorer's layers: pure functions of a state and its reports.

Views never compute rules: these functions only turn a state, a supply
report and the terrain into the columns of bokeh ``ColumnDataSource``s
(Web Mercator).  A step or an edit replaces whole columns at once.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from normandy_lab.engine.interdiction import map_penalties
from normandy_lab.engine.sequence import supplied_strength
from normandy_lab.engine.state import GameState
from normandy_lab.engine.supply import SupplyReport
from normandy_lab.engine.zoc import zoc_mask
from normandy_lab.grid import grid
from normandy_lab.views.mapview import to_mercator

SIDE_COLOURS = {"allied": "#1f4e9e", "german": "#b22222"}
# NATO-style type letters for the unit markers' labels.
TYPE_GLYPHS = {
    "infantry": "INF",
    "parachute": "PARA",
    "glider": "GLI",
    "commando": "CDO",
    "ranger": "RGR",
    "armor": "ARM",
    "assault_gun": "StuG",
    "tank_destroyer": "TD",
    "mech_infantry": "MECH",
    "recon": "REC",
    "artillery": "ART",
    "rocket_artillery": "RKT",
    "anti_tank": "AT",
    "flak": "FLAK",
    "engineer": "ENG",
    "hq": "HQ",
    "static": "STAT",
    "strongpoint": "SP",
}
# The ring around a unit's marker says its supply state at a glance: General and
# Combat Supply (7.2, 7.6.1), out of supply, and isolated (7.5o: no line of any
# length to a friendly corps HQ).
RING_COLOURS = {
    "combat": "#000000",  # in General and Combat Supply
    "general": "#888888",  # in General Supply only
    "out": "#ff8c00",  # out of General Supply
    "isolated": "#ffe000",  # out of supply and isolated
}


RING_KEY_HTML = (
    "<small>counter rings: black in General and Combat Supply, grey General only, "
    "<span style='color:#e07000'>orange out of supply</span>, "
    "<span style='color:#b89b00'>yellow isolated</span></small>"
)


def _ring(general: bool, combat: bool, isolated: bool) -> str:
    if not general:
        return "isolated" if isolated else "out"
    return "combat" if combat else "general"


SIZE_MARKS = {
    "company": "I",
    "battalion": "II",
    "regiment": "III",
    "brigade": "X",
    "division_hq": "XX",
    "corps_hq": "XXX",
    "army_hq": "XXXX",
}


@lru_cache(maxsize=4)
def _hex_outlines(system: str) -> tuple[list[list[float]], list[list[float]], np.ndarray, np.ndarray]:
    """Mercator outlines and centres of every hex (cached per grid).

    Outlines are plain lists rounded to 0.1 m: jupyter_bokeh sends every
    numpy array of a column as its own comm message, so a layer of a
    thousand hexes as arrays would be thousands of messages per step; as
    lists it is one JSON message.
    """
    frame = grid(system).to_geodataframe()
    xs, ys = [], []
    for polygon in frame.geometry:
        coords = np.asarray(polygon.exterior.coords)
        mx, my = to_mercator(coords[:, 0], coords[:, 1])
        xs.append(np.round(mx, 1).tolist())
        ys.append(np.round(my, 1).tolist())
    lon, lat = grid(system).centers()
    cx, cy = to_mercator(lon, lat)
    return xs, ys, cx, cy


def hex_patches(system: str, indices: np.ndarray | list[int], **columns: Any) -> dict[str, list]:
    """Return ``patches`` columns (``xs``, ``ys``, ``hex_id`` and ``columns``) for hexes by dense index."""
    xs, ys, _, _ = _hex_outlines(system)
    ids = grid(system).ids()
    idx = [int(i) for i in indices]
    data: dict[str, list] = {
        "xs": [xs[i] for i in idx],
        "ys": [ys[i] for i in idx],
        "hex_id": [ids[i] for i in idx],
    }
    for key, values in columns.items():
        data[key] = list(values)
    return data


def supply_summary(state: GameState, report: SupplyReport) -> str:
    """Return the weather and how many units of each side are out of General Supply, for captions."""
    out = report.out_of_supply()
    allied = sum(r.side == "allied" for r in out)
    return f"weather {state.weather} — out of supply: {allied} Allied, {len(out) - allied} German"


def ezoc_data(state: GameState, sides: tuple[str, ...] = ("allied", "german")) -> dict[str, list]:
    """Return the hexes in the ZOC of the given sides, with which side(s) cover them (5.1).

    Seen from one side, its EZOC is the other side's ZOC: pass that side alone.
    """
    allied = zoc_mask(state, "allied") if "allied" in sides else np.zeros(len(grid(state.system)), bool)
    german = zoc_mask(state, "german") if "german" in sides else np.zeros(len(grid(state.system)), bool)
    covered = np.nonzero(allied | german)[0]
    colours = []
    labels = []
    for i in covered:
        if allied[i] and german[i]:
            colours.append("#7b3294")
            labels.append("both ZOCs")
        elif allied[i]:
            colours.append(SIDE_COLOURS["allied"])
            labels.append("Allied ZOC")
        else:
            colours.append(SIDE_COLOURS["german"])
            labels.append("German ZOC")
    return hex_patches(state.system, covered, colour=colours, zoc=labels)


def unit_data(state: GameState, report: SupplyReport) -> dict[str, list]:
    """One marker per unit, stacks fanned out around the hex centre, supply state as columns."""
    g = grid(state.system)
    _, _, cx, cy = _hex_outlines(state.system)
    hex_size = g.georeference.hex_size_m * 1.5  # Mercator metres are ~1.5 ground metres at 49° N
    stacks: dict[str, list] = {}
    for u in state.units:
        if u.status == "active":
            stacks.setdefault(u.hex, []).append(u)
    data: dict[str, list] = {
        key: []
        for key in (
            "x", "y", "unit_id", "name", "side", "colour", "glyph", "echelon", "label", "hex_id", "steps",
            "strength", "general", "combat", "isolated", "supply", "line", "reason", "stack", "formation",
        )
    }  # fmt: skip
    for hex_id, units in stacks.items():
        i = g.index(hex_id)
        for k, u in enumerate(units):
            angle = 2 * np.pi * k / max(len(units), 1)
            offset = 0.0 if len(units) == 1 else hex_size * 0.22
            r = report[u.id]
            supply = (
                "isolated"
                if r.isolated and not r.general
                else ("in supply" if r.general else "OUT OF SUPPLY")
            )
            data["x"].append(float(cx[i] + offset * np.cos(angle)))
            data["y"].append(float(cy[i] + offset * np.sin(angle)))
            data["unit_id"].append(u.id)
            data["name"].append(u.name)
            data["side"].append(u.side)
            data["colour"].append(SIDE_COLOURS[u.side])
            data["glyph"].append(TYPE_GLYPHS.get(u.type, u.type[:4].upper()))
            data["echelon"].append(SIZE_MARKS.get(u.size, ""))
            data["label"].append(f"{TYPE_GLYPHS.get(u.type, u.type)} {SIZE_MARKS.get(u.size, '')}".strip())
            data["hex_id"].append(hex_id)
            data["steps"].append(u.steps)
            attack, defense = supplied_strength(state, u, r.general)
            data["strength"].append(f"{attack}-{defense}")
            data["general"].append(r.general)
            data["combat"].append(r.combat)
            data["isolated"].append(r.isolated)
            data["supply"].append(supply)
            data["line"].append(RING_COLOURS[_ring(r.general, r.combat, r.isolated)])
            data["reason"].append(r.reason)
            data["stack"].append(len(units))
            data["formation"].append(u.formation or "corps troops")
    return data


def path_data(
    state: GameState, report: SupplyReport, unit_ids: list[str] | None = None, side: str | None = None
) -> dict[str, list]:
    """Return the traced lines of supply (all units, the listed ones, or one side's) as multi_line columns."""
    g = grid(state.system)
    _, _, cx, cy = _hex_outlines(state.system)
    xs, ys, owners, colours, lines = [], [], [], [], []
    for uid, r in report.units.items():
        if unit_ids is not None and uid not in unit_ids:
            continue
        if side is not None and r.side != side:
            continue
        if len(r.path) < 2:
            continue
        idx = [g.index(h) for h in r.path]
        # Lists, not arrays: one JSON message per update (see _hex_outlines).
        xs.append(np.round(cx[idx], 1).tolist())
        ys.append(np.round(cy[idx], 1).tolist())
        owners.append(uid)
        colours.append(SIDE_COLOURS[r.side])
        lines.append(" → ".join(r.path))
    return {"xs": xs, "ys": ys, "unit_id": owners, "colour": colours, "hexes": lines}


def interdiction_data(state: GameState) -> dict[str, list]:
    """Return the analyst's interdicted hexes (a what-if) and the regional penalty of their maps (11.2)."""
    g = grid(state.system)
    penalties = map_penalties(state)
    idx = [g.index(h) for h in sorted(state.interdicted_hexes)]
    return hex_patches(
        state.system,
        idx,
        penalty=[
            f"map {g.sheet_of(h)}: -{penalties.get(g.sheet_of(h), 0)} MP"
            for h in sorted(state.interdicted_hexes)
        ],
    )


def source_ranges_data(state: GameState, report: SupplyReport, sides: tuple[str, ...]) -> dict[str, list]:
    """Return the hexes within a unit's supply range of a source of the given sides (7.3.1, 7.4)."""
    g = grid(state.system)
    reach: dict[str, set[str]] = {}
    for side in sides:
        for source in report.sources.get(side, []):
            for hex_id in report.supply_range(source):
                reach.setdefault(hex_id, set()).add(source)
    hexes = sorted(reach, key=g.index)
    return hex_patches(
        state.system, [g.index(h) for h in hexes], owner=[", ".join(sorted(reach[h])) for h in hexes]
    )


def range_data(state: GameState, report: SupplyReport, owner: str | None) -> dict[str, list]:
    """Return the supply range of one HQ or source hex, as hex patches (empty when None)."""
    if not owner:
        return hex_patches(state.system, [])
    g = grid(state.system)
    hexes = report.supply_range(owner)
    return hex_patches(state.system, sorted(g.index(h) for h in hexes))


def same_layer(old: dict[str, list], new: dict[str, list]) -> bool:
    """Tell whether two layer columns draw the same thing (so the browser need not be sent it again).

    Geometry columns follow from the other columns (the hexes, the lines'
    hexes, the units' hexes and stack positions), so they are not compared.
    """
    if old.keys() != new.keys():
        return False
    return all(old[key] == new[key] for key in new if key not in ("xs", "ys"))


@lru_cache(maxsize=4)
def sheet_polygons(system: str) -> dict[str, Any]:
    """Return each map sheet's area as a shapely geometry in lon/lat (the union of its hexes), cached."""
    import shapely

    frame = grid(system).to_geodataframe()
    return {str(sheet): shapely.union_all(part.geometry.values) for sheet, part in frame.groupby("sheet")}


@lru_cache(maxsize=4)
def _sheet_outlines(system: str) -> dict[str, tuple[list[float], list[float]]]:
    """Mercator outline of each map sheet, for drawing (cached per grid)."""
    outlines = {}
    for sheet, shape in sheet_polygons(system).items():
        # A sheet is one block of hexes; keep its largest piece if the union splits.
        polygon = max(getattr(shape, "geoms", [shape]), key=lambda p: p.area)
        coords = np.asarray(polygon.exterior.coords)
        mx, my = to_mercator(coords[:, 0], coords[:, 1])
        outlines[sheet] = (np.round(mx, 1).tolist(), np.round(my, 1).tolist())
    return outlines


def regional_interdiction_data(state: GameState) -> dict[str, list]:
    """Return each map sheet's outline with its air interdiction penalty (11.1.2, 11.2).

    Only sheets with a penalty are listed: their German units lose that many MPs
    in the AM and PM movement phases.  The label gives the air and AA points behind it.
    """
    from normandy_lab.engine.interdiction import HALVED_MAPS, SAME_AS

    outlines = _sheet_outlines(state.system)
    data: dict[str, list] = {key: [] for key in ("xs", "ys", "sheet", "penalty", "alpha", "text")}
    for sheet, penalty in sorted(map_penalties(state).items()):
        if penalty <= 0 or sheet not in outlines:
            continue
        source = SAME_AS.get(sheet, sheet)
        halved = " (halved on this map, 11.1.2)" if source in HALVED_MAPS else ""
        xs, ys = outlines[sheet]
        data["xs"].append(xs)
        data["ys"].append(ys)
        data["sheet"].append(sheet)
        data["penalty"].append(penalty)
        data["alpha"].append(min(0.08 + 0.04 * penalty, 0.35))
        data["text"].append(
            f"map {sheet}: Allied air {state.air_points.get(source, 0)}{halved} against AA "
            f"{state.aa_points.get(source, 0)}: German units -{penalty} MP (11.2)"
        )
    return data


def move_data(state: GameState, report: SupplyReport, unit_id: str | None) -> dict[str, list]:
    """Return the hexes the unit can reach in a movement phase, with the MPs each costs (empty when None).

    The engine's movement range (5.2, 10.x) with the unit's supply state from the report
    (out of supply, the allowance is reduced as the rules say).
    """
    from normandy_lab.engine.movement import movement_range

    if not unit_id or not any(u.id == unit_id and u.status == "active" for u in state.units):
        return hex_patches(state.system, [], mp=[])
    g = grid(state.system)
    reach = movement_range(state, unit_id, in_supply=report[unit_id].general)
    hexes = sorted(reach, key=g.index)
    return hex_patches(state.system, [g.index(h) for h in hexes], mp=[f"{reach[h]:g} MP" for h in hexes])


def history_front_data(state: GameState) -> dict[str, list]:
    """Return ``multi_line`` columns of the historical front line of the state's date.

    Empty outside the record's dates.

    The record is the evening before for Night and AM turns, the day's evening for PM turns
    (:func:`normandy_lab.history.compare.record_for`).
    """
    from normandy_lab.history import HistoryError
    from normandy_lab.history.compare import record_for
    from normandy_lab.views.history import line_columns

    try:
        record = record_for(state.date, state.turn)
    except HistoryError:
        return {"xs": [], "ys": [], "label": []}
    columns = line_columns(record.front)
    label = f"historical front, {record.date:%d %B} ({record.time}), good to about {record.accuracy_km:g} km"
    columns["label"] = [label] * len(columns["xs"])
    return columns


def implied_front_data(state: GameState) -> dict[str, list]:
    """Return ``multi_line`` columns of the front the units imply (hexsides between the sides' ground)."""
    from normandy_lab.history.compare import implied_front
    from normandy_lab.views.history import line_columns

    columns = line_columns(implied_front(state))
    columns["label"] = ["front implied by the units (nearest unit's side)"] * len(columns["xs"])
    return columns


SITUATION_COLUMNS = ("control", "ezoc", "hq_ranges")


def hex_situation(state: GameState, report: SupplyReport) -> dict[str, list[str]]:
    """Return per hex (grid order) its control (3.3), whose EZOC covers it and the HQ ranges reaching it.

    These extend the terrain hexes' hover in the explorer.
    """
    from normandy_lab.engine.zoc import hex_control, zoc_mask

    control = hex_control(state)
    allied, german = zoc_mask(state, "allied"), zoc_mask(state, "german")
    ezoc = np.where(allied & german, "both", np.where(allied, "allied", np.where(german, "german", "")))
    ranges = report.hq_ranges_at()
    reach = [
        "; ".join(part for part in (f"allied: {a}" if a else "", f"german: {g}" if g else "") if part)
        for a, g in zip(ranges["allied"], ranges["german"], strict=True)
    ]
    return {"control": [str(c) for c in control], "ezoc": ezoc.tolist(), "hq_ranges": reach}


def changed_cells(old: dict[str, list], new: dict[str, list]) -> dict[str, list[tuple[int, str]]]:
    """Return the ``ColumnDataSource.patch`` payload that turns ``old`` columns into ``new`` ones."""
    patches = {}
    for name, values in new.items():
        before = old.get(name)
        if before is None or len(before) != len(values):
            continue
        cells = [(i, v) for i, (a, v) in enumerate(zip(before, values, strict=True)) if a != v]
        if cells:
            patches[name] = cells
    return patches
