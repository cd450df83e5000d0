"""Column data of the explorer's layers: pure functions of a state and its reports.

Views never compute rules: these functions only turn a state, a supply
report and the terrain into the columns of bokeh ``ColumnDataSource``s
(Web Mercator).  A step or an edit replaces whole columns at once.
"""

from __future__ import annotations

import html
from functools import lru_cache
from typing import Any

import numpy as np

from normandy_lab.engine.state import GameState
from normandy_lab.engine.supply import SupplyReport
from normandy_lab.engine.zoc import zoc_mask
from normandy_lab.grids import grid
from normandy_lab.rules import look
from normandy_lab.views.hexcells import sheet_outlines
from normandy_lab.views.mapview import to_mercator

# The ring around a unit's marker says its supply state at a glance; the rule system says which ring a
# unit's report gets (``RuleSet.supply_ring``: BfN's full ring is General and Combat Supply, 7.2 and
# 7.6.1, partial General only, cut isolated, 7.5o) and the game's look what each means (``Look.ring_words``).
RING_COLOURS = {
    "full": "#000000",
    "partial": "#888888",
    "out": "#ff8c00",
    "cut": "#ffe000",
}
# Each ring's colour in words, and the colour its words are written in on the key.
_RING_KEY = {
    "full": ("black", ""),
    "partial": ("grey", ""),
    "out": ("orange", "#e07000"),
    "cut": ("yellow", "#b89b00"),
}
_RING_ORDER = ("full", "partial", "out", "cut")  # from the best to the worst


def ring_key_html(game: Any) -> str:
    """Return the key of the counter rings in the game's words (``<small>counter rings: ...``).

    ``game`` is a state, a game's key, its rules or its :class:`~normandy_lab.rules.Look`
    (:func:`normandy_lab.rules.look`).
    """
    parts = []
    words_of = look(game).ring_words
    for ring in _RING_ORDER:
        words = words_of.get(ring)
        if words:
            colour, ink = _RING_KEY[ring]
            text = f"{colour} {html.escape(words)}"
            parts.append(f"<span style='color:{ink}'>{text}</span>" if ink else text)
    return f"<small>counter rings: {', '.join(parts)}</small>"


def worst_ring(rings: list[str]) -> str:
    """Return the worst of several rings (a formation symbol shows its worst unit's)."""
    return max(rings, key=_RING_ORDER.index) if rings else "full"


def worse_ring_colour(a: str, b: str) -> str:
    """Return the ring colour of the worse of two supply states (a symbol standing for two formations)."""
    ring = {colour: name for name, colour in RING_COLOURS.items()}
    return RING_COLOURS[worst_ring([ring.get(a, "full"), ring.get(b, "full")])]


def unit_glyph(game: Any, unit_type: str) -> str:
    """Return the label a game's look gives a unit type on its counter, else the type's first letters.

    ``game`` is a state, a game's key, its rules or its :class:`~normandy_lab.rules.Look`.
    """
    return look(game).glyph(unit_type)


@lru_cache(maxsize=4)
def hex_centres(system: str) -> tuple[np.ndarray, np.ndarray]:
    """Return the Web Mercator centres (x, y) of every hex in grid order (cached per grid)."""
    lon, lat = grid(system).centers()
    return to_mercator(lon, lat)


def supply_summary(state: GameState, report: SupplyReport) -> str:
    """Return the weather and how many units of each side are out of General Supply, for captions."""
    out = report.out_of_supply()
    allied = sum(r.side == "allied" for r in out)
    line = f"weather {state.weather} — out of supply: {allied} Allied, {len(out) - allied} German"
    lead = getattr(state.rules, "supply_lead", None)  # GTS: no division designated yet, said first
    said = lead(state).split(";")[0] if lead is not None else ""
    return f"{said} — {line}" if said else line


def zoc_hexes(state: GameState, side: str) -> list[int]:
    """Return the dense indices of the hexes in ``side``'s zone of control (5.1).

    Seen from one side, its EZOC is the other side's ZOC.
    """
    return np.nonzero(zoc_mask(state, side))[0].tolist()


def unit_data(state: GameState, report: SupplyReport) -> dict[str, list]:
    """One marker per unit, stacks fanned out around the hex centre, supply state as columns."""
    g = grid(state.system)
    cx, cy = hex_centres(state.system)
    hex_size = g.georeference.hex_size_m * 1.5  # Mercator metres are ~1.5 ground metres at 49° N
    stacks = state.stacks()
    shown = look(state)  # the game's counters: colours, glyphs, echelon marks
    data: dict[str, list] = {
        key: []
        for key in (
            "x", "y", "unit_id", "name", "side", "colour", "glyph", "echelon", "label", "hex_id", "steps",
            "strength", "general", "combat", "isolated", "supply", "line", "stack", "formation",
        )
    }  # fmt: skip
    # No "reason" column: no hover shows it, and reading it made the engine explain every unit out of
    # supply (its counterfactual trials) at each redraw: 85 % of a Storm's redraw (issue 33, section 4).
    # A click on a unit explains that one unit (its report in the side panel).
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
            data["colour"].append(shown.side_colour(u.side))
            data["glyph"].append(shown.glyph(u.type))
            data["echelon"].append(shown.size_marks.get(u.size, ""))
            label = f"{shown.glyphs.get(u.type, u.type)} {shown.size_marks.get(u.size, '')}"
            data["label"].append(label.strip())
            data["hex_id"].append(hex_id)
            data["steps"].append(u.steps)
            attack, defense = state.rules.unit_strength(state, u, r.general)
            data["strength"].append(f"{attack}-{defense}")
            data["general"].append(r.general)
            data["combat"].append(r.combat)
            data["isolated"].append(r.isolated)
            data["supply"].append(supply)
            data["line"].append(RING_COLOURS[state.rules.supply_ring(r)])
            data["stack"].append(len(units))
            data["formation"].append(u.formation or "corps troops")
    return data


def path_data(
    state: GameState, report: SupplyReport, unit_ids: list[str] | None = None, side: str | None = None
) -> dict[str, list]:
    """Return the traced lines of supply (all units, the listed ones, or one side's) as multi_line columns."""
    g = grid(state.system)
    cx, cy = hex_centres(state.system)
    xs, ys, owners, sides, lines = [], [], [], [], []
    for uid, r in report.units.items():
        if unit_ids is not None and uid not in unit_ids:
            continue
        if side is not None and r.side != side:
            continue
        if len(r.path) < 2:
            continue
        idx = [g.index(h) for h in r.path]
        # Lists, not arrays: jupyter_bokeh sends each numpy array of a list column as its own message.
        xs.append(np.round(cx[idx], 1).tolist())
        ys.append(np.round(cy[idx], 1).tolist())
        owners.append(uid)
        sides.append(r.side)
        lines.append(" → ".join(r.path))
    return {"xs": xs, "ys": ys, "unit_id": owners, "side": sides, "hexes": lines}


def interdiction_hexes(state: GameState) -> list[int]:
    """Return the dense indices of the analyst's interdicted hexes (a what-if)."""
    g = grid(state.system)
    return sorted(g.index(h) for h in state.interdicted_hexes)


def source_range_hexes(state: GameState, report: SupplyReport, sides: tuple[str, ...]) -> list[int]:
    """Return the hexes within a unit's supply range of a source of the given sides (7.3.1, 7.4)."""
    g = grid(state.system)
    reach: set[str] = set()
    for side in sides:
        for source in report.sources.get(side, []):
            reach |= set(report.supply_range(source))
    return sorted(g.index(h) for h in reach)


def range_hexes(state: GameState, report: SupplyReport, owner: str | None) -> list[int]:
    """Return the supply range of one HQ or source hex as dense indices (empty when None)."""
    if not owner:
        return []
    g = grid(state.system)
    return sorted(g.index(h) for h in report.supply_range(owner))


@lru_cache(maxsize=4)
def sheet_polygons(system: str) -> dict[str, Any]:
    """Return each map sheet's area as a shapely geometry in lon/lat (the union of its hexes), cached."""
    import shapely

    frame = grid(system).to_geodataframe()
    return {str(sheet): shapely.union_all(part.geometry.values) for sheet, part in frame.groupby("sheet")}


@lru_cache(maxsize=4)
def _hex_polygons(system: str) -> Any:
    """Return each hex's polygon (lon/lat) by canonical id, cached per grid."""
    return grid(system).to_geodataframe().geometry


def zone_data(report: SupplyReport) -> tuple[dict[str, list], dict[str, list]]:
    """Return the outlines of the rule system's zones (``SupplyReport.zones``) and a label for each.

    Each zone is drawn as the outline of the union of its hexes (a part of it apart gets its own
    outline); its label stands at the top of its largest part, so that nested bands (KG's support
    radius, then 1 SP, 2 SP ...) label their rings one above another.
    """
    import shapely

    outlines: dict[str, list] = {"xs": [], "ys": [], "label": [], "side": []}
    labels: dict[str, list] = {"x": [], "y": [], "text": []}
    polygons = _hex_polygons(report.state.system)
    for zone in report.zones():
        if not zone.hexes:
            continue
        shape = shapely.union_all(polygons.loc[list(zone.hexes)].values)
        parts = list(getattr(shape, "geoms", [shape]))
        for part in parts:
            coords = np.asarray(part.exterior.coords)
            mx, my = to_mercator(coords[:, 0], coords[:, 1])
            outlines["xs"].append(np.round(mx, 1).tolist())
            outlines["ys"].append(np.round(my, 1).tolist())
            outlines["label"].append(f"{zone.label} ({zone.rule})")
            outlines["side"].append(zone.side)
        largest = max(parts, key=lambda p: p.area)
        coords = np.asarray(largest.exterior.coords)
        top = int(np.argmax(coords[:, 1]))
        x, y = to_mercator(coords[top : top + 1, 0], coords[top : top + 1, 1])
        labels["x"].append(round(float(x[0]), 1))
        labels["y"].append(round(float(y[0]), 1))
        labels["text"].append(zone.short or zone.label)
    return outlines, labels


def route_data(report: SupplyReport) -> tuple[dict[str, list], dict[str, list]]:
    """Return the paths the rule system tests (``SupplyReport.routes``) as lines, and where each breaks."""
    cx, cy = hex_centres(report.state.system)
    g = grid(report.state.system)
    lines: dict[str, list] = {"xs": [], "ys": [], "label": [], "colour": []}
    breaks: dict[str, list] = {"x": [], "y": [], "label": []}
    for route in report.routes():
        if not route.path:
            continue
        at = [g.index(h) for h in route.path]
        lines["xs"].append([round(float(cx[i]), 1) for i in at])
        lines["ys"].append([round(float(cy[i]), 1) for i in at])
        lines["label"].append(f"{route.label} ({route.rule})")
        lines["colour"].append("#1e7b1e" if route.ok else "#c0392b")
        if route.first_break:
            i = g.index(route.first_break)
            breaks["x"].append(round(float(cx[i]), 1))
            breaks["y"].append(round(float(cy[i]), 1))
            breaks["label"].append(f"{route.label}: broken at {route.first_break} ({route.rule})")
    return lines, breaks


def regional_interdiction_data(state: GameState) -> dict[str, list]:
    """Return each map sheet's outline with its air interdiction penalty, as the rule system gives it.

    Only sheets with a penalty are listed (BfN 11.1.2, 11.2: their German units lose that many MPs in
    the AM and PM movement phases).  The label gives the air and AA points behind it.
    """
    outlines = sheet_outlines(state.system)
    data: dict[str, list] = {key: [] for key in ("xs", "ys", "sheet", "penalty", "alpha", "text")}
    for region in state.rules.air_regions(state):
        if region.penalty <= 0 or region.sheet not in outlines:
            continue
        xs, ys = outlines[region.sheet]
        data["xs"].append(xs)
        data["ys"].append(ys)
        data["sheet"].append(region.sheet)
        data["penalty"].append(region.penalty)
        data["alpha"].append(min(0.08 + 0.04 * region.penalty, 0.35))
        data["text"].append(region.effect)
    return data


def move_hexes(state: GameState, report: SupplyReport, unit_id: str | None) -> tuple[list[int], dict]:
    """Return the hexes the unit can reach in a movement phase, and labels of the MPs each costs.

    The engine's movement range (5.2, 10.x) with the unit's supply state from the report
    (out of supply, the allowance is reduced as the rules say).  Both are empty when None.
    """
    from normandy_lab.engine.movement import movement_range

    if not unit_id or not any(u.id == unit_id and u.status == "active" for u in state.units):
        return [], {"x": [], "y": [], "text": []}
    g = grid(state.system)
    cx, cy = hex_centres(state.system)
    reach = movement_range(
        state, unit_id, in_supply=report[unit_id].general, isolated=report[unit_id].isolated
    )
    indices = sorted(g.index(h) for h in reach)
    ids = g.ids()
    return indices, {
        "x": [round(float(cx[i]), 1) for i in indices],
        "y": [round(float(cy[i]), 1) for i in indices],
        "text": [f"{reach[ids[i]]:g}" for i in indices],
    }


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
    """Return ``multi_line`` columns of the front the units imply (hexsides between the sides' ground).

    The front depends only on where each side's units stand (``history.compare.implied_sides``: active
    units, no ships, none cut off), so it is kept for the last few placements: a weather change, a
    destroyed bridge, an interdiction or their undo redraw the map without working it out again.
    """
    from normandy_lab.history.compare import implied_front
    from normandy_lab.views.history import line_columns

    key = (
        state.system,
        *(
            frozenset(u.hex for u in state.units_of(side) if u.status == "active" and u.type != "ship"
                      and not u.cut_off)
            for side in ("allied", "german")
        ),
    )  # fmt: skip
    if key not in _IMPLIED_FRONTS:
        columns = line_columns(implied_front(state))
        columns["label"] = ["front implied by the units (nearest unit's side)"] * len(columns["xs"])
        _IMPLIED_FRONTS[key] = columns
        while len(_IMPLIED_FRONTS) > 8:
            _IMPLIED_FRONTS.pop(next(iter(_IMPLIED_FRONTS)))
    return {column: list(values) for column, values in _IMPLIED_FRONTS[key].items()}


#: Implied fronts by placement of the units (implied_front_data), oldest first.
_IMPLIED_FRONTS: dict[tuple, dict[str, list]] = {}


# Words that formation names repeat, and the short forms a map label uses.
_SHORT_WORDS = {
    "Infantry": "Inf", "Infanterie": "Inf", "Armoured": "Armd", "Armored": "Armd", "Division": "Div",
    "Brigade": "Bde", "Airborne": "Abn", "Panzer": "Pz", "SS-Panzer": "SS-Pz", "Parachute": "Para",
    "Panzergrenadier": "PzGr", "Special": "Sp", "Service": "Svc", "Canadian": "Cdn", "Regiment": "Rgt",
    "Fallschirmjäger": "FJ", "Luftlande": "LL", "Kampfgruppe": "KG", "Schnelle": "Schn", "Werfer": "Werf",
    "SS-Panzergrenadier": "SS-PzGr",
    "Panzerkorps": "PzK",
    "Armeekorps": "AK",
    "troops": "tps",
}  # fmt: skip


def short_formation_name(name: str) -> str:
    """Return a map label for a formation: its number and kind, without nicknames or brackets.

    ``"12. SS-Panzer-Division Hitlerjugend"`` becomes ``"12. SS-Pz-Div"``,
    ``"50th (Northumbrian) Infantry Division"`` becomes ``"50th Inf Div"``.
    """
    import re

    plain = re.sub(r"\([^)]*\)", "", name)
    words = []
    for word in plain.replace("-", " - ").split():
        if word == "-":
            words.append("-")
            continue
        short = _SHORT_WORDS.get(word)
        if short is None and words and words[-1] in ("Div", "Bde") and not word[0].isdigit():
            break  # a nickname after the formation's kind ("Hitlerjugend", "Götz von Berlichingen")
        words.append(short or word)
    text = " ".join(words).replace(" - ", "-").replace("- ", "-").replace(" -", "-")
    return text.strip(" -")[:18]


def formation_key(unit: Any) -> str:
    """Return the formation a unit's symbol is drawn with: its division or brigade, else its corps' troops."""
    return unit.formation or (f"{unit.corps} troops" if unit.corps else "army troops")


def formation_data(state: GameState, report: SupplyReport) -> dict[str, list]:
    """Return one symbol per formation (division, brigade, or a corps' own troops) at its units' centre.

    The symbol's ring is the worst supply state among its units; ``bar`` shows
    the share of its units in General Supply as six cells.
    """
    g = grid(state.system)
    cx, cy = hex_centres(state.system)
    groups: dict[tuple[str, str], list] = {}
    for u in state.units:
        if u.status != "active":
            continue
        groups.setdefault((u.side, formation_key(u)), []).append(u)
    data: dict[str, list] = {
        key: []
        for key in (
            "x",
            "y",
            "key",
            "name",
            "short",
            "side",
            "colour",
            "line",
            "units",
            "out",
            "bar",
            "echelon",
            "glyph",
        )
    }
    for (side, key), units in sorted(groups.items()):
        idx = [g.index(u.hex) for u in units]
        supplied = [report[u.id].general for u in units]
        out = len(units) - sum(supplied)
        cells = round(6 * sum(supplied) / len(units))
        data["x"].append(round(float(np.median(cx[idx])), 1))
        data["y"].append(round(float(np.median(cy[idx])), 1))
        data["key"].append(key)
        data["name"].append(key)
        data["short"].append(short_formation_name(key))
        data["side"].append(side)
        data["colour"].append(look(state).side_colour(side))
        data["line"].append(RING_COLOURS[worst_ring([state.rules.supply_ring(report[u.id]) for u in units])])
        data["units"].append(len(units))
        data["out"].append(out)
        data["bar"].append("▰" * cells + "▱" * (6 - cells))
        echelons = {u.size for u in units}
        data["echelon"].append("XX" if "division_hq" in echelons or len(units) > 6 else "X")
        data["glyph"].append(_formation_arm(key, units, state))
    return data


# The kind of division its name gives (an armoured division has more infantry battalions than tank
# regiments, so a count of its units would call it infantry).
_NAMED_ARMS = (
    ("panzergrenadier", "MECH"), ("armoured", "ARM"), ("armored", "ARM"), ("panzer", "ARM"),
    ("airborne", "PARA"), ("parachute", "PARA"), ("fallschirm", "PARA"),
)  # fmt: skip


def _formation_arm(name: str, units: list, state: GameState) -> str:
    """Return the arm written inside a formation's symbol: from its name, else its units' commonest type."""
    lowered = name.lower()
    for word, arm in _NAMED_ARMS if not lowered.endswith("troops") else ():  # a corps' troops are mixed
        if word in lowered:
            return arm
    shown = look(state)
    arms = [shown.glyph(u.type) for u in units if not u.hq]
    return max(sorted(set(arms)), key=arms.count) if arms else "HQ"


def formation_units(state: GameState, key: str) -> list[str]:
    """Return the ids of the active units a formation symbol stands for (its ``key``).

    A symbol standing for several formations (grouped where they would overlap on the screen,
    :mod:`normandy_lab.views.declutter`) has their keys joined by ``" + "``.
    """
    from normandy_lab.views.declutter import GROUP_JOIN

    keys = {key, *key.split(GROUP_JOIN)}
    return [u.id for u in state.units if u.status == "active" and formation_key(u) in keys]


def _hexside_middle(system: str, a: str, b: str) -> tuple[float, float]:
    """Return the middle of the hexside between two adjacent hexes (Web Mercator, to 0.1 m)."""
    g = grid(system)
    cx, cy = hex_centres(system)
    i, j = g.index(a), g.index(b)
    return round(float(cx[i] + cx[j]) / 2, 1), round(float(cy[i] + cy[j]) / 2, 1)


@lru_cache(maxsize=4)
def bridge_data(system: str) -> dict[str, list]:
    """Return every road bridge of a map as a marker on its hexside (midpoint, along the hexside)."""
    from normandy_lab.terrain import terrain_map

    g = grid(system)
    cx, cy = hex_centres(system)
    bridges = terrain_map(system, progress=False).bridges()
    data: dict[str, list] = {key: [] for key in ("x", "y", "a", "b", "water", "angle")}
    for a, b, water in zip(bridges["a"], bridges["b"], bridges["water_name"], strict=True):
        x, y = _hexside_middle(system, a, b)
        i, j = g.index(a), g.index(b)
        data["x"].append(x)
        data["y"].append(y)
        data["a"].append(a)
        data["b"].append(b)
        data["water"].append(str(water or "water"))
        # The hexside runs across the line joining the two centres; a dash drawn along it.
        data["angle"].append(round(float(np.arctan2(cy[j] - cy[i], cx[j] - cx[i]) + np.pi / 2), 3))
    return data


def broken_bridge_data(state: GameState) -> dict[str, list]:
    """Return the bridges the analyst destroyed (a what-if), road or rail, as markers on their hexsides."""
    from normandy_lab.terrain import terrain_map

    sides = terrain_map(state.system, progress=False).hexsides
    data: dict[str, list] = {key: [] for key in ("x", "y", "a", "b", "water")}
    for key in sorted(state.destroyed_bridges):
        a, b = key.split("|")
        x, y = _hexside_middle(state.system, a, b)
        data["x"].append(x)
        data["y"].append(y)
        data["a"].append(a)
        data["b"].append(b)
        water = sides.at[key, "water_name"] if key in sides.index else ""
        data["water"].append(str(water or "water"))
    return data


def unit_positions(units: dict[str, list], unit_ids: list[str] | set[str]) -> dict[str, list]:
    """Return the drawn positions of some units (from :func:`unit_data` columns), for rings around them."""
    wanted = set(unit_ids)
    rows = [k for k, uid in enumerate(units["unit_id"]) if uid in wanted]
    return {
        "x": [units["x"][k] for k in rows],
        "y": [units["y"][k] for k in rows],
        "unit_id": [units["unit_id"][k] for k in rows],
    }
