"""History against the optimum: the bridges the Allies attacked, set against the engine's best picks.

``maps/history/bridge_attacks.yaml`` lists the bridges and crossing towns Allied aircraft attacked, with
dates, attackers, outcomes and sources.  :func:`historical_targets` finds, on one game's map, the bridge
hexsides of the attacks made up to a date: the bridges over the named river within reach of the attack's
position (1.5 km for a named bridge, 3 km for a town's crossings).  :func:`against_optimum`
then asks, for each game covering a date (:func:`normandy_lab.sidebyside.scenarios_on`): with those
bridges standing, how much would cutting the bridges the attacks may have cut have hurt the German side's
supply, and how much could the same number of cuts have done at best (the optimiser's answer, and whether it
is optimal)?  An attack whose source says it missed cut nothing, so it is not counted (``missed=True``
scores the plan as planned); the table names the attacks left out.  A ``river`` filters both sides alike:
the attacks on that river, and the bridges over it the optimiser may cut.  Under a game whose rules give
bridges no effect on supply (``RuleSet.no_bridge_effect``: The Killing Ground), both tables say so in their
``note`` column, and the scores are left empty (NaN) rather than reported as 0.
"""

from __future__ import annotations

import datetime as dt
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from normandy_lab.engine.state import GameState
from normandy_lab.errors import RefusedError
from normandy_lab.interdiction.candidates import Target, _plain

ATTACKS_FILE = Path(__file__).resolve().parents[2] / "maps" / "history" / "bridge_attacks.yaml"
REACH_KM = {"bridge": 1.5, "chokepoint": 3.0}


@lru_cache(maxsize=1)
def attacks() -> pd.DataFrame:
    """Return the attacks of ``maps/history/bridge_attacks.yaml``: one row an attack, its first date.

    Each row carries its provenance: ``source`` (the file's keys), ``provenance`` (the citations those keys
    stand for) and ``position`` (where its point comes from, and how accurate it is).
    """
    import yaml

    from normandy_lab.errors import FileRefusedError

    data = yaml.safe_load(ATTACKS_FILE.read_text(encoding="utf-8"))
    cited = data["sources"]
    rows = []
    for n, entry in enumerate(data["attacks"]):
        keys = [k.strip() for k in str(entry["source"]).split(",")]
        unknown = [k for k in keys if k not in cited]
        if unknown:
            raise FileRefusedError(
                f"{ATTACKS_FILE}: attacks[{n}] ({entry['bridge']}): source {', '.join(unknown)} is not among "
                "the file's sources; add it under sources: with its citation, or correct the key"
            )
        dates = sorted(dt.date.fromisoformat(str(d)) for d in entry["dates"])
        rows.append(
            {
                "bridge": entry["bridge"], "river": entry["river"], "place": entry["place"],
                "lon": float(entry["lonlat"][0]), "lat": float(entry["lonlat"][1]), "first": dates[0],
                "dates": ", ".join(d.isoformat() for d in dates), "by": entry["by"],
                "outcome": entry["outcome"],
                "phase": entry["phase"], "source": entry["source"],
                "provenance": " | ".join(" ".join(str(cited[k]).split()) for k in keys),
                "position": " ".join(str(entry["position"]).split()),
                "kind": "chokepoint" if "chokepoint" in entry["bridge"] else "bridge",
            }
        )  # fmt: skip
    return pd.DataFrame(rows)


def _km(lon1: float, lat1: float, lon2: Any, lat2: Any) -> Any:
    """Return distances in km (equirectangular: good to a few metres at these ranges)."""
    import numpy as np

    x = np.radians(np.asarray(lon2) - lon1) * math.cos(math.radians(lat1))
    y = np.radians(np.asarray(lat2) - lat1)
    return 6371.0 * np.hypot(x, y)


def historical_targets(state: GameState, until: Any = None) -> pd.DataFrame:
    """Return, on ``state``'s map, the bridge hexsides of the attacks made up to ``until`` (or its date).

    One row a hexside: the attack (``bridge``, ``river``, ``dates``, ``outcome``, ``source``), the hexside
    (``target``), how far its middle lies from the attack's position (``km``) and a ``note``: "" where
    cutting it can change supply, else why it cannot under the state's rules (The Killing Ground's lines
    cross any river).  Attacks off the map, or whose river has no bridge within reach, give no row.
    """
    from normandy_lab.interdiction.best import no_bridge_note
    from normandy_lab.interdiction.candidates import _plain, state_arg, water_names
    from normandy_lab.sidebyside import date_arg
    from normandy_lab.terrain import terrain_map

    state = state_arg(state, "historical_targets")
    last = date_arg("historical_targets", until) if until is not None else state.date
    sides = terrain_map(state.system, progress=False).hexsides
    bridged = sides[sides["road_bridge"] | sides["rail_bridge"]]
    middles = [geom.interpolate(0.5, normalized=True) for geom in bridged.geometry]
    lon = [p.x for p in middles]
    lat = [p.y for p in middles]
    # Each attack's river by its whole name, as best_targets(river=...) matches it: the Vire, not the canal.
    waters = [water_names(text) for text in bridged["water_name"].fillna("")]
    note = no_bridge_note(state)
    rows = []
    for _, attack in attacks().iterrows():
        if attack["first"] > last:
            continue
        km = _km(attack["lon"], attack["lat"], lon, lat)
        river = _plain(attack["river"])
        near = (km <= REACH_KM[attack["kind"]]) & np.array([river in w for w in waters], dtype=bool)
        for key, distance in zip(bridged.index[near], km[near], strict=True):
            rows.append(
                {**attack.to_dict(), "target": str(key), "km": round(float(distance), 2), "note": note}
            )
    columns = [*attacks().columns, "target", "km", "note"]
    return pd.DataFrame(rows, columns=columns)


def against_optimum(
    date: Any,
    side: str = "german",
    method: str = "greedy",
    candidates: Any = "bridges",
    river: str | list[str] | None = None,
    k: int | None = None,
    objective: Any = "units_out",
    formations: Any = None,
    missed: bool = False,
    budget: int | None = None,
    progress: bool = False,
) -> pd.DataFrame:
    """Score the historical attacks up to ``date`` against the best cuts, under each game covering it.

    For each game (:func:`normandy_lab.sidebyside.scenarios_on`): the scenario with the attacked bridges
    standing (repaired if the scenario has them down) is the baseline; ``history`` is how much cutting
    every bridge the attacks may have cut raises the objective (by default, how many of ``side``'s units it
    puts out of supply); ``best`` what the optimiser (:func:`normandy_lab.interdiction.best_targets`, with
    ``method`` and ``budget``) finds for ``k`` cuts (default: as many as the attacks cut), ``status``
    whether that is ``"optimal"`` or how far from it it may be (``optimal`` the same as a column of
    booleans), ``bound`` the most any k cuts could do, ``share`` ``history / best``.

    Parameters
    ----------
    method
        The optimiser's (:func:`~normandy_lab.interdiction.best_targets`): ``"greedy"`` by default (greedy
        and swaps: a few hundred determinations over a whole map, its ``status`` saying how far from optimal
        it may be), ``"auto"`` to prove or improve it by branch and bound within the ``budget``
        (``max_exact``, 2,000 determinations, by default), or ``"exact"``.
    river
        Both sides alike: only the attacks on this river (or these), and only the bridges over it for the
        optimiser.  A bridge is over the river when the river is one of the waters its hexside names
        (``"Orne; Odon"`` at a junction is over the Orne), the rule the attacks are mapped by.
    k
        The optimiser's cuts (a whole number); None: as many as the attacks cut.
    objective, formations
        What is scored, on both sides: ``"units_out"``, ``"line_mp"`` or a function, and for
        ``units_out`` the formations counted (``["DE lehr pz div", "DE 12 SS pz div"]``).
    missed
        Whether an attack whose source says it missed counts as a cut (False: it cut nothing; the
        ``missed`` column names the attacks left out).

    Returns
    -------
    pandas.DataFrame
        One row a game: ``system``, ``scenario``, ``attacks``, ``cuts``, ``missed`` (a list), ``k``,
        ``history``, ``best``, ``bound``, ``method``, ``status``, ``optimal``, ``share``, ``best_picks``
        and ``attacked`` (lists), ``note``.  A game whose rules give bridges no effect on supply
        (``RuleSet.no_bridge_effect``: The Killing Ground, whose lines cross any river) is not searched:
        its row keeps the attacks and cuts, leaves the scores NaN, and says why in ``note`` ("" for the
        other games).  Every column is a plain column, so it survives filtering, joins and concatenation.
    """
    from normandy_lab.engine.supply import supply
    from normandy_lab.interdiction.best import _one_of, _whole, best_targets, no_bridge_note
    from normandy_lab.interdiction.objectives import formation_units, resolve
    from normandy_lab.sidebyside import scenarios_on, state_of

    # Refused before the first scenario is stepped and searched, not by the first search.
    _one_of("side", side, ("allied", "german"), caller="against_optimum")
    _one_of("method", method, ("auto", "exact", "greedy"), caller="against_optimum")
    if k is not None:
        k = _whole("k", k, "k is how many cuts the optimiser makes", caller="against_optimum")
    if not isinstance(missed, bool):
        raise RefusedError(f"against_optimum: missed: {missed!r:.60} is not True or False")
    rivers = _rivers_arg(river)
    games = []
    for system, spec in scenarios_on(date).items():
        state = state_of(spec)
        found = historical_targets(state, until=date)
        if rivers is not None:
            found = found[found["river"].map(_plain).isin(rivers)]
        left_out = found[found["outcome"] == "missed"] if not missed else found.iloc[0:0]
        scored = found.drop(left_out.index)
        keys = sorted(set(scored["target"]))
        note = no_bridge_note(state)
        standing = state.evolve(destroyed_bridges=state.destroyed_bridges - set(found["target"]))
        pool = candidates
        if rivers is not None:
            pool = _over(standing, [river] if isinstance(river, str) else list(river or []), candidates)
        units = None
        if formations is not None:
            units, _ = formation_units(state, side, formations, "against_optimum")
        if keys and not note:  # the candidates checked in every game before the first search
            _enough(standing, spec, date, len(keys), k, pool, river)
        games.append((system, spec, found, left_out, keys, note, standing, pool, units))
    rows = []
    for system, spec, found, left_out, keys, note, standing, pool, units in games:
        common = {
            "system": system, "scenario": spec, "attacks": found["bridge"].nunique(), "cuts": len(keys),
            "missed": sorted(set(left_out["bridge"])), "k": k or len(keys),
            "attacked": sorted(set(found["bridge"])),
        }  # fmt: skip
        empty = {
            "history": math.nan, "best": math.nan, "bound": math.nan, "method": "", "status": "",
            "optimal": False, "share": math.nan, "best_picks": [],
        }  # fmt: skip
        if not keys:
            rows.append({**common, **empty, "k": 0, "note": note})
            continue
        if note:  # no bridge cut changes this game's supply: no "0" of a search, but why
            rows.append({**common, **empty, "note": note})
            continue
        before_report = supply(standing)
        fn, _ = resolve(objective, before_report, side, units)
        cut = standing
        for key in keys:
            cut = Target("bridge", key).cut(cut)
        history = fn(supply(cut), side) - fn(before_report, side)
        best = best_targets(
            standing, side, k or len(keys), candidates=pool, method=method, objective=objective,
            formations=formations, budget=budget, progress=progress,
        )  # fmt: skip
        rows.append(
            {
                **common, "history": history, "best": best.gain, "bound": best.bound, "method": best.method,
                "status": best.status, "optimal": best.optimal,
                "share": history / best.gain if best.gain else math.nan,
                "best_picks": [t.key for t in best.picks], "note": "",
            }
        )  # fmt: skip
    columns = [
        "system", "scenario", "attacks", "cuts", "missed", "k", "history", "best", "bound", "method",
        "status", "optimal", "share", "best_picks", "attacked", "note",
    ]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


def _rivers_arg(river: Any) -> set[str] | None:
    """Return the folded names of a ``river`` argument (one name or a list), None for none."""
    if river is None:
        return None
    names = [river] if isinstance(river, str) else river
    if not isinstance(names, list | tuple) or not names or not all(isinstance(r, str) for r in names):
        raise RefusedError(
            f"against_optimum: river: {river!r:.60} is not text; name a river, e.g. river='Vire', or a list "
            "of them"
        )
    return {_plain(r) for r in names}


def _over(state: GameState, names: list[str], candidates: Any) -> list[Target]:
    """Return the standing bridges (of ``candidates``) one of whose waters is one of ``rivers``.

    The rule the attacks are mapped by (:func:`historical_targets`): a junction's hexside (``"Orne; Odon"``)
    is over each of its waters.  A river no bridge of the map crosses is refused, with the nearest names.
    """
    from normandy_lab.interdiction.candidates import _targets, water_names
    from normandy_lab.terrain import terrain_map

    sides = terrain_map(state.system, progress=False).hexsides
    known = {w for text in sides["water_name"].fillna("") for w in water_names(text)}
    for river in names:
        if _plain(river) not in known:
            _targets(state, "bridges", river, None, "against_optimum")  # refused there, with the nearest
    rivers = {_plain(r) for r in names}
    pool = _targets(state, candidates, None, None, "against_optimum")
    return [
        t
        for t in pool
        if t.kind == "bridge" and water_names(str(sides.at[t.key, "water_name"] or "")) & rivers
    ]


def _enough(
    standing: GameState,
    spec: str,
    date: Any,
    attacked: int,
    k: int | None,
    candidates: Any,
    river: Any = None,
) -> None:
    """Refuse candidates (or a river) that hold fewer targets than the optimiser is to cut.

    Checked for every game before the first search, as ``best_targets`` checks ``k``, so that a bad
    ``candidates`` or ``river`` is refused naming ``against_optimum``'s own argument.
    """
    from normandy_lab.interdiction.candidates import _targets

    if isinstance(candidates, list) and not candidates:
        n = 0
    else:
        n = len(_targets(standing, candidates, None, None, "against_optimum"))
    cuts = k or attacked
    if cuts > n:
        given = (
            f"candidates={candidates!r:.60}" if not isinstance(candidates, list) else "the river's bridges"
        )
        why = f"k={k}" if k else f"the attacks up to {date} cut {attacked} bridges"
        raise RefusedError(
            f"against_optimum: candidates: on {spec} {why}, so the optimiser is given {cuts} cuts, but "
            f"{given} hold only {n}; give candidates that hold at least {cuts} (candidates='bridges' "
            "without river= holds every bridge standing), or a smaller k"
        )
