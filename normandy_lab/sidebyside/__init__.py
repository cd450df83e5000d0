"""The rule systems side by side: each game's supply verdicts on a date several games cover (issue 19).

The flow: :func:`scenarios_on` (the historical scenarios whose first turn holds the date, one a game) ->
each scenario's supply, by formation (:mod:`.formations` gives a formation one key across the games) ->
:class:`SideBySide`: a long table (``table``), the formations two or more games judge differently
(``disagreements``, with the rule numbers behind each game's verdicts) and a map (``figure``): every game's
formations on the real map, over the historical front of the date.  A game's verdicts rest on its own
rules and its own set-up: where a scenario's positions are not the date's own (a turn of three days, a
set-up of the day before), the table says the scenario's date and turn.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import pandas as pd

from normandy_lab.errors import RefusedError
from normandy_lab.sidebyside.formations import formation_key

__all__ = ["APART_KM", "KINDS", "SideBySide", "classify", "formation_key", "scenarios_on", "side_by_side"]

# The shapes a game's formations are drawn with: its look's (``Look.marker``), else the next one no other
# registered game has (never a KeyError for a game registered later).
_MARKER_CYCLE = ("circle", "square", "triangle", "diamond", "hex", "inverted_triangle", "star", "plus")


def marker_of(system: str) -> str:
    """Return the marker a game's formations are drawn with: its own, or the next one no game has."""
    from normandy_lab.rules import available, look

    own = look(system).marker
    if own:
        return own
    keys = available()
    taken = {look(k).marker for k in keys} - {""}
    free = [m for m in _MARKER_CYCLE if m not in taken] or list(_MARKER_CYCLE)
    others = [k for k in keys if not look(k).marker]
    return free[others.index(system) % len(free)] if system in others else free[0]


def system_name(system: str) -> str:
    """Return a game's title, as its rule system gives it."""
    from normandy_lab.rules import get

    return str(get(system).title)


def _spans() -> tuple[tuple[str, str, dt.date, dt.date], ...]:
    """Return every historical scenario's game, name and the days its first turn spans (of the games now)."""
    from normandy_lab.rules import available

    return _spans_of(tuple(available()))


@lru_cache(maxsize=4)
def _spans_of(keys: tuple[str, ...]) -> tuple[tuple[str, str, dt.date, dt.date], ...]:
    """Return every historical scenario's game, name and the days its first turn spans.

    The package's ``scenarios/`` (each named by its file's stem), then the folder of every registered game
    that has one (``Game.scenarios``, each named by its path): a game registered later appears too.
    """
    from normandy_lab.engine.scenario import SCENARIO_DIR, load_scenario
    from normandy_lab.rules import games

    paths = [(p, p.stem) for p in sorted(SCENARIO_DIR.glob("*_1944-*.yaml"))]
    for game in games():
        if game.scenarios is not None:
            paths += [(p, str(p)) for p in sorted(game.scenarios.glob("*_1944-*.yaml"))]
    found = []
    for path, name in paths:
        state = load_scenario(path)
        last = state.rules.next_date(state.date) - dt.timedelta(days=1)
        found.append((state.game, name, state.date, max(state.date, last)))
    return tuple(found)


def scenarios_on(date: Any, stepped: bool = True) -> dict[str, str]:
    """Return, per game, the historical scenario whose first turn holds ``date`` (the latest if several).

    With ``stepped``, a game with no such scenario but one whose next turn holds the date is given as
    ``"<name>+1"``: that scenario stepped into its next turn, its units where the set-up put them (KG's
    22.6.8 on Turn 3, 8 June, when the Allies start tracing; BfN's 7 June on 8 June).
    """
    day = date_arg("scenarios_on", date)
    found: dict[str, str] = {}
    for system, name, first, last in _spans():
        if first <= day <= last:
            found[system] = name
    if stepped:
        for system, name, _first, last in _spans():
            if system not in found and last + dt.timedelta(days=1) <= day <= _next_last(name):
                found[system] = f"{name}+1"
    return found


@lru_cache(maxsize=32)
def _next_last(name: str) -> dt.date:
    """Return the last day of the turn after a scenario's first."""
    from normandy_lab.engine.scenario import load_scenario

    state = load_scenario(name)
    rules = state.rules
    start = rules.next_date(state.date)
    return max(start, rules.next_date(start) - dt.timedelta(days=1))


def date_arg(caller: str, date: Any) -> dt.date:
    """Return the day a date argument gives: a date, or its text as YYYY-MM-DD; refuse anything else.

    A datetime is refused rather than cut to its day: a time of day means nothing to a game's date, and
    one given may be a mistake for another day.
    """
    fix = "give a date, or its text as YYYY-MM-DD (e.g. '1944-06-07')"
    if isinstance(date, dt.datetime) or not isinstance(date, dt.date | str):
        raise RefusedError(f"{caller}: date: {_shown(date)} is not a date; {fix}")
    if isinstance(date, dt.date):
        return date
    if not _ISO_DAY.fullmatch(date):
        raise RefusedError(f"{caller}: date: {_shown(date)} is not a date as YYYY-MM-DD; {fix}")
    try:
        return dt.date.fromisoformat(date)
    except ValueError:  # the form is right, the day does not exist (1944-06-31)
        raise RefusedError(f"{caller}: date: {_shown(date)} is not a day of the calendar; {fix}") from None


_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
# A scenario stepped on by more turns than this is no longer the scenario's situation (units stand where the
# set-up put them): side by side steps one turn; a few are allowed for a study of one's own.
MAX_STEPS = 9


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _parse_spec(spec: str) -> tuple[str, int]:
    """Split a scenario spec, ``name`` or ``name+N``, into the name and the turns to step it."""
    name, plus, steps = spec.partition("+")
    if not plus:
        return name, 0
    if not steps.isdigit() or not 1 <= int(steps) <= MAX_STEPS:
        raise RefusedError(
            f"side_by_side: scenarios: {_shown(spec)}: after '+' comes the number of turns to step the "
            f"scenario, 1 to {MAX_STEPS}; write e.g. '{name}+1'"
        )
    return name, int(steps)


def _checked_scenarios(scenarios: Any) -> dict[str, str]:
    """Return the ``scenarios`` argument checked: each game's key, with a scenario of that game.

    Two keys naming scenarios of one game would compare that game with itself under two names, without a
    word: the key must be the game of the scenario it names.
    """
    from normandy_lab.engine.scenario import load_scenario
    from normandy_lab.rules import available

    games = list(available())
    if not isinstance(scenarios, Mapping):
        raise RefusedError(
            f"side_by_side: scenarios: {_shown(scenarios)} is not a mapping; give {{game: scenario}}, "
            "e.g. {'bfn': 'bfn_1944-06-07_am', 'kg': 'kg_1944-06-07_t02'}"
        )
    chosen: dict[str, str] = {}
    for key, spec in scenarios.items():
        if key not in games:
            close = difflib.get_close_matches(str(key), games, n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            listed = ", ".join(games)
            said = f"side_by_side: scenarios: {_shown(key)} is not a game"
            raise RefusedError(f"{said}; {hint}the games are {listed}")
        if not isinstance(spec, str):
            raise RefusedError(
                f"side_by_side: scenarios: {key!r}: {_shown(spec)} is not a scenario's name; give its name "
                "as text, or name+1 for it stepped one turn"
            )
        name, _ = _parse_spec(spec)
        system = load_scenario(name).game  # an unknown name is refused there, with the nearest
        if system != key:
            raise RefusedError(
                f"side_by_side: scenarios: {key!r}: {spec!r} is a {system} scenario, not a {key} one; each "
                "game appears once, under its own key"
            )
        chosen[key] = spec
    return chosen


def state_of(spec: str) -> Any:
    """Return the state a scenario spec names: ``name``, or ``name+1`` stepped into its next turn."""
    from normandy_lab.engine.scenario import load_scenario
    from normandy_lab.engine.sequence import next_phase

    name, steps = _parse_spec(spec)
    state = load_scenario(name)
    for _ in range(steps):
        start = (state.date, state.turn)
        while (state.date, state.turn) == start:
            state = next_phase(state)
        while state.date == start[0]:  # a day of several turns: on to the next day
            state = next_phase(state)
    return state


def _by_formation(name: str, state: Any = None) -> pd.DataFrame:
    """Return one scenario's supply by formation: units, in supply, the rules behind, where they stand.

    ``state`` is the state ``name`` names when the caller has it already.
    """
    import numpy as np

    from normandy_lab.engine.supply import supply
    from normandy_lab.grids import grid

    state = state_of(name) if state is None else state
    report = supply(state)
    g = grid(state.system)
    rows = []
    # A verdict resting on a reconstruction (the game's own words, e.g. KG's derived map) says so by its rule.
    note = getattr(state.rules, "verdict_note", None)
    why = {e.unit_id: e.why for e in state.expected_now()}
    range_rule = state.rules.rule_refs.get("unit_supply_range", "")
    for unit in state.units:
        key = formation_key(unit)
        if not key or unit.status != "active":
            continue
        row = report[unit.id]
        said = note(state, why.get(unit.id)) if note is not None and not row.general else ""
        lon, lat = g.center(unit.hex)
        rows.append(
            {
                "key": key, "formation": unit.formation, "side": unit.side, "unit": unit.id,
                "in_supply": bool(row.general),
                "rule": "" if row.general else f"{row.rule} [{said}]" if said else row.rule,
                # What supplied a unit in supply: its rule (the game's range rule where the line names none)
                # and what it traced to; why a unit out is out, by the scenario's expected list.
                "supplied_by": _supplied_by(row, range_rule, note(state, None) if note is not None else "")
                if row.general
                else "",
                "why": "" if row.general else why.get(unit.id, "unlisted"),
                "lon": lon, "lat": lat,
            }
        )  # fmt: skip
    units = pd.DataFrame(rows)
    grouped = units.groupby(["key", "side"], sort=True)
    table = grouped.agg(
        formation=("formation", "first"),
        units=("unit", "size"),
        in_supply=("in_supply", "sum"),
        lon=("lon", "mean"),
        lat=("lat", "mean"),
    ).reset_index()
    outs = units[~units["in_supply"]].groupby("key")
    out_units = {k: sorted(g["unit"]) for k, g in outs}
    out_rules = {k: sorted({part for r in g["rule"] for part in r.split(", ") if part}) for k, g in outs}
    out_why = {k: sorted(set(g["why"])) for k, g in outs}
    ins = units[units["in_supply"]].groupby("key")
    in_rules = {k: sorted(set(g["supplied_by"])) for k, g in ins}
    table["out_units"] = table["key"].map(lambda k: ", ".join(out_units.get(k, [])))
    table["rules"] = table["key"].map(lambda k: ", ".join(out_rules.get(k, [])))
    table["out_why"] = table["key"].map(lambda k: ", ".join(out_why.get(k, [])))
    table["supplied_by"] = table["key"].map(lambda k: "; ".join(in_rules.get(k, [])))
    table["share_in"] = table["in_supply"] / table["units"]
    table.insert(0, "system", state.game)
    table.insert(1, "scenario", name)
    table.insert(2, "date", state.date.isoformat())
    table.insert(3, "turn", state.turn)
    table.insert(4, "positions", positions_words(name, state))
    table["in_supply"] = table["in_supply"].astype(int)
    table["lon"] = table["lon"].astype(float).round(5)
    table["lat"] = table["lat"].astype(float).round(5)
    return table.assign(share_in=np.round(table["share_in"], 3))


def _supplied_by(row: Any, range_rule: str, said: str) -> str:
    """Name what supplied a unit in supply.

    Its rule (the game's range rule where none is named), what it traced to, and the reconstruction or
    reading the verdict rests on, if any.
    """
    words = f"{row.rule or range_rule} ({row.traced_kind})"
    return f"{words} [{said}]" if said else words


def positions_words(spec: str, state: Any) -> str:
    """Say whose positions a scenario's units stand at: its set-up's, or its set-up's stepped on."""
    name, steps = _parse_spec(spec)
    if not steps:
        return f"the set-up of {state.date:%d %B} ({state.turn})"
    turns = "one turn" if steps == 1 else f"{steps} turns"
    return (
        f"{name} stepped {turns} into {state.date:%d %B} ({state.turn}): its units stand where its set-up "
        "put them"
    )


#: Two games place a formation this far apart (km, between the means of its units) or more: a set-up
#: difference, not the same situation judged by two designers' rules (about two hexes of the coarser maps).
APART_KM = 5.0

#: What a disagreement is, in the order the table gives them: the designers' models first.
KINDS = ("rule difference", "set-up difference", "map/reconstruction artefact")


def _km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Return the distance between two lon/lat points in km (an equirectangular approximation)."""
    import math

    mean_lat = math.radians((a[1] + b[1]) / 2)
    dx = math.radians(b[0] - a[0]) * math.cos(mean_lat)
    dy = math.radians(b[1] - a[1])
    return 6371.0 * math.hypot(dx, dy)


def classify(group: pd.DataFrame) -> tuple[str, str]:
    """Say what kind of disagreement one formation's rows (one a game) are, and name what makes it so.

    * a **map/reconstruction artefact** when a game's verdicts rest on its derived map or a reconstruction
      (the scenario's expected list says ``map``, or the rule cites a RECONSTRUCTED piece);
    * a **set-up difference** when the games do not put the same units in the same place: a verdict the
      expected list gives to the set-up, a scenario stepped on from another day's set-up, or the
      formation's units standing :data:`APART_KM` or more apart;
    * else a **rule difference**: the same formation in the same place, judged by two designers' rules,
      each named (the rules of the units out, and what supplied those in supply).
    """
    names = {str(r["system"]): r for _, r in group.iterrows()}
    stepped = [s for s, r in names.items() if "stepped" in str(r["positions"])]
    also = f" (positions stepped from the set-up: {', '.join(stepped)})" if stepped else ""
    artefacts = [
        f"{s}: out by {r['rules']}" for s, r in names.items()
        if "map" in str(r["out_why"]).split(", ") or _reconstructed(r["rules"])
    ]  # fmt: skip
    artefacts += [
        f"{s}: in by {r['supplied_by']}" for s, r in names.items() if _reconstructed(r["supplied_by"])
    ]
    if artefacts:
        return KINDS[2], "rests on a derived map or a reconstruction: " + "; ".join(artefacts) + also
    setup = [
        f"{s}: the expected list gives the set-up" for s, r in names.items() if "setup" in str(r["out_why"])
    ]
    points = {s: (float(r["lon"]), float(r["lat"])) for s, r in names.items()}
    systems = sorted(points)
    far = max((_km(points[a], points[b]), a, b) for i, a in enumerate(systems) for b in systems[i + 1 :])
    if far[0] >= APART_KM:
        setup.append(f"{far[1]} and {far[2]} place its units {far[0]:.0f} km apart")
    if setup:
        return KINDS[1], "; ".join(setup) + also
    rules = []
    for s, r in names.items():
        said = []
        if r["rules"]:
            said.append(f"out by {r['rules']}")
        if r["supplied_by"]:
            said.append(f"in by {r['supplied_by']}")
        rules.append(f"{s}: {', '.join(said)}")
    return KINDS[0], "; ".join(rules) + also


def _reconstructed(rules: Any) -> bool:
    """Tell whether a verdict's rule words say it rests on the derived map or a reconstruction."""
    words = str(rules).lower()
    return "derived map" in words or "reconstruct" in words


@dataclass
class SideBySide:
    """Every game's supply verdicts on one date, by formation.

    Attributes
    ----------
    date
        The date asked for.
    scenarios
        The scenario of each game used (``scenarios_on``).
    table
        One row a formation a game: ``system``, ``scenario``, the scenario's ``date`` and ``turn``,
        ``positions`` (whose positions the units stand at: the set-up's, or the set-up stepped on), the
        formation's ``key`` (:func:`formation_key`) and the game's name for it, ``side``, ``units`` (on the
        map), ``in_supply``, ``share_in``, ``out_units``, ``rules`` (the rule numbers behind the verdicts of
        the units out), ``out_why`` (why the scenario's expected list gives for them: history, rules,
        setup, map; ``unlisted`` when it has none), ``supplied_by`` (the rules and what the units in supply
        traced to, with the reading or reconstruction a verdict rests on), ``lon``/``lat`` (where its units
        stand, on average).
    """

    date: dt.date
    scenarios: dict[str, str]
    table: pd.DataFrame = field(repr=False)

    def disagreements(self, threshold: float = 0.25) -> pd.DataFrame:
        """Return the formations that two or more games judge differently, with the rules behind each.

        Different: one game has every unit of it in supply and another some out, or the shares in supply
        differ by ``threshold`` or more.  One row a formation: its key and side, its ``kind`` and ``why``
        (:func:`classify`: a rule difference, a set-up difference or a map/reconstruction artefact, and
        what makes it so), then per game ``units in / units`` and the rules behind its verdicts (blank where
        a game does not have the formation).  The rule differences come first: they are the designers'
        models compared; the set-up differences and the artefacts follow.
        """
        if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not 0 < threshold <= 1:
            raise RefusedError(
                f"disagreements: threshold: {_shown(threshold)} is not allowed; give the difference of the "
                "shares in supply that counts, a number above 0 and at most 1 (default 0.25)"
            )
        rows = []
        for (key, side), group in self.table.groupby(["key", "side"], sort=True):
            if group["system"].nunique() < 2:
                continue
            shares = group["share_in"]
            split = (shares == 1).any() and (shares < 1).any()
            if not split and shares.max() - shares.min() < threshold:
                continue
            kind, why = classify(group)
            row: dict[str, Any] = {"key": key, "side": side, "kind": kind, "why": why}
            for _, g in group.iterrows():
                row[g["system"]] = f"{g['in_supply']}/{g['units']} in supply"
                row[f"{g['system']} rules"] = g["rules"] or "-"
            rows.append(row)
        if not rows:
            return pd.DataFrame(columns=["key", "side", "kind", "why"])
        out = pd.DataFrame(rows).fillna("")  # blank: a formation that game does not have that day
        # The designers' models first: the rule differences, then the set-ups, then the artefacts.
        order = out["kind"].map(KINDS.index)
        return out.assign(_order=order).sort_values(["_order", "key"], kind="stable").drop(columns="_order")

    def figure(self, width: int = 1000, height: int = 760) -> Any:
        """Draw every game's formations on the real map over the historical front of the date.

        Each game has its marker (BfN circle, Cobra square, KG triangle, GTS diamond); the colour is the
        share of the formation's units in supply (green all, orange some, red none); the hover says the
        game, the formation, its count and the rules.
        """
        from bokeh.models import ColumnDataSource, HoverTool, Legend, LegendItem

        from normandy_lab.views.history import history_map
        from normandy_lab.views.mapview import to_mercator

        table = self.table
        pad = 0.15
        extent = (
            float(table["lon"].min()) - pad, float(table["lat"].min()) - pad,
            float(table["lon"].max()) + pad, float(table["lat"].max()) + pad,
        )  # fmt: skip
        fig = history_map(self.date, extent=extent, width=width, height=height)
        # A game whose scenario is stepped on from its set-up says so in the title (and each point's hover).
        games = ", ".join(
            f"{spec} (stepped: units where its set-up put them)" if "+" in spec else spec
            for spec in self.scenarios.values()
        )
        fig.title.text = f"Supply by formation, {self.date:%d %B %Y} ({games}), over the record's front"
        items = []
        for system, group in table.groupby("system", sort=True):
            x, y = to_mercator(group["lon"].to_numpy(), group["lat"].to_numpy())
            colour = ["#2e7d32" if s == 1 else "#c62828" if s == 0 else "#ef6c00" for s in group["share_in"]]
            source = ColumnDataSource(
                {
                    "x": list(x), "y": list(y), "colour": colour,
                    "system": [system_name(str(system))] * len(group),
                    "formation": group["formation"].tolist(),
                    "count": [f"{a}/{b}" for a, b in zip(group["in_supply"], group["units"], strict=True)],
                    "rules": [r or "-" for r in group["rules"]], "scenario": group["scenario"].tolist(),
                    "positions": group["positions"].tolist(),
                }
            )  # fmt: skip
            glyph = fig.scatter(
                "x", "y", source=source, marker=marker_of(str(system)), size=13, fill_color="colour",
                line_color="#222222", fill_alpha=0.85,
            )  # fmt: skip
            items.append(LegendItem(label=system_name(str(system)), renderers=[glyph]))
        fig.add_layout(Legend(items=items, location="top_left"))
        fig.add_tools(
            HoverTool(
                tooltips=[("game", "@system"), ("formation", "@formation"), ("in supply", "@count"),
                          ("rules behind the out", "@rules"), ("scenario", "@scenario"),
                          ("positions", "@positions")]
            )
        )  # fmt: skip
        return fig


def side_by_side(date: Any, scenarios: dict[str, str] | None = None) -> SideBySide:
    """Put every game's supply verdicts of ``date`` side by side, by formation (see :class:`SideBySide`).

    ``scenarios`` names the scenario of each game to use (default: :func:`scenarios_on`); a date no two
    games cover is refused, with the dates that are.

    Raises
    ------
    RefusedError
        Before any scenario's supply is worked out: a ``date`` that is not a date (text not YYYY-MM-DD, a
        day the calendar lacks, None, a datetime, a list), a ``scenarios`` that is not a mapping of a game
        to one of its scenarios (``name`` or ``name+N``), and fewer than two games.
    """
    day = date_arg("side_by_side", date)
    chosen = _checked_scenarios(scenarios) if scenarios is not None else scenarios_on(day)
    if len(chosen) < 2 and scenarios is not None:
        raise RefusedError(
            f"side_by_side: scenarios: {len(chosen)} game given ({', '.join(chosen) or 'none'}); side by "
            f"side needs two or more: add another game's scenario of {day}, or leave scenarios out"
        )
    if len(chosen) < 2:
        days = {d for _, _, first, last in _spans() for d in _days(first, last)}
        covered = sorted(d.isoformat() for d in days if len(scenarios_on(d)) >= 2)
        raise RefusedError(
            f"{day} is covered by {', '.join(chosen) or 'no game'}: side by side needs two; dates two games "
            f"cover: {', '.join(covered)}"
        )
    states = {game: state_of(spec) for game, spec in chosen.items()}
    for game, spec in chosen.items():  # a scenario of another day would compare two dates as one
        state = states[game]
        last = max(state.date, state.rules.next_date(state.date) - dt.timedelta(days=1))  # a turn of days
        if not state.date <= day <= last:
            held = f"{state.date}" if last == state.date else f"{state.date} to {last}"
            raise RefusedError(
                f"side_by_side: scenarios: {game}: {spec!r} is on {held}, not {day}; give a scenario of "
                f"{day} (scenarios_on({day.isoformat()!r}) lists them) or leave scenarios out"
            )
    table = pd.concat([_by_formation(spec, states[game]) for game, spec in chosen.items()], ignore_index=True)
    return SideBySide(day, chosen, table)


def _days(first: dt.date, last: dt.date) -> list[dt.date]:
    return [first + dt.timedelta(days=n) for n in range((last - first).days + 1)]
