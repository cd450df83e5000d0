"""History against the optimum: the bridges the Allies attacked, set against the engine's best picks.

``maps/history/bridge_attacks.yaml`` lists the bridges and crossing towns Allied aircraft attacked, with
dates, attackers, outcomes and sources.  :func:`historical_targets` finds, on one game's map, the bridge
hexsides of the attacks made up to a date: the bridges over the named river within reach of the attack's
position (1.5 km for a named bridge, 3 km for a town's crossings).  :func:`against_optimum`
then asks, for each game covering a date (:func:`normandy_lab.sidebyside.scenarios_on`): with those
bridges standing, how much would cutting all of them have hurt the German side's supply, and how much could
the same number of cuts have done at best (the optimiser's answer, and its bound)?  The plan is scored as
planned: an attack that missed still counts as a target, and the table says each attack's outcome.  Under a
game whose rules give bridges no effect on supply (``RuleSet.no_bridge_effect``: The Killing Ground), both
tables say so in their ``note`` column, and the scores are left empty (NaN) rather than reported as 0.
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
from normandy_lab.interdiction.candidates import Target

ATTACKS_FILE = Path(__file__).resolve().parents[2] / "maps" / "history" / "bridge_attacks.yaml"
REACH_KM = {"bridge": 1.5, "chokepoint": 3.0}


@lru_cache(maxsize=1)
def attacks() -> pd.DataFrame:
    """Return the attacks of ``maps/history/bridge_attacks.yaml``: one row an attack, its first date."""
    import yaml

    data = yaml.safe_load(ATTACKS_FILE.read_text(encoding="utf-8"))
    rows = []
    for entry in data["attacks"]:
        dates = sorted(dt.date.fromisoformat(str(d)) for d in entry["dates"])
        rows.append(
            {
                "bridge": entry["bridge"], "river": entry["river"], "place": entry["place"],
                "lon": float(entry["lonlat"][0]), "lat": float(entry["lonlat"][1]), "first": dates[0],
                "dates": ", ".join(d.isoformat() for d in dates), "by": entry["by"],
                "outcome": entry["outcome"],
                "phase": entry["phase"], "source": entry["source"],
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
    river: str | None = None,
) -> pd.DataFrame:
    """Score the historical attacks up to ``date`` against the best cuts, under each game covering it.

    For each game (:func:`normandy_lab.sidebyside.scenarios_on`): the scenario with the attacked bridges
    standing (repaired if the scenario has them down) is the baseline; ``history`` is how many of
    ``side``'s units cutting every attacked bridge puts out of supply; ``best`` what the optimiser finds for
    the same number of cuts over every bridge of the map (or ``candidates``, ``river``; ``method``: greedy by
    default, the exact search being out of reach), and ``bound`` the most any such cuts could do.
    ``share`` is ``history / best`` (NaN when no cut does anything).  A game whose rules give bridges no
    effect on supply (``RuleSet.no_bridge_effect``: The Killing Ground, whose lines cross any river) is not
    searched: its row keeps the attacks and cuts, leaves ``history``, ``best``, ``bound`` and ``share`` NaN,
    and says why in ``note`` ("" for the other games).
    """
    from normandy_lab.engine.supply import supply
    from normandy_lab.interdiction.best import _one_of, best_targets, no_bridge_note
    from normandy_lab.sidebyside import scenarios_on, state_of

    # Refused before the first scenario is stepped and searched, not by the first search.
    _one_of("side", side, ("allied", "german"), caller="against_optimum")
    _one_of("method", method, ("auto", "exact", "greedy"), caller="against_optimum")
    games = []
    for system, spec in scenarios_on(date).items():
        state = state_of(spec)
        found = historical_targets(state, until=date)
        keys = sorted(set(found["target"]))
        note = no_bridge_note(state)
        standing = state.evolve(destroyed_bridges=state.destroyed_bridges - set(keys))
        if keys and not note:  # the candidates checked in every game before the first search
            _enough(standing, spec, date, len(keys), candidates, river)
        games.append((system, spec, found, keys, note, standing))
    rows = []
    for system, spec, found, keys, note, standing in games:
        if not keys:
            rows.append({"system": system, "scenario": spec, "attacks": 0, "cuts": 0, "note": note})
            continue
        if note:  # no bridge cut changes this game's supply: no "0" of a search, but why
            rows.append(
                {
                    "system": system, "scenario": spec, "attacks": found["bridge"].nunique(),
                    "cuts": len(keys), "history": math.nan, "best": math.nan, "bound": math.nan, "method": "",
                    "share": math.nan, "best_picks": "", "attacked": "; ".join(sorted(set(found["bridge"]))),
                    "note": note,
                }
            )  # fmt: skip
            continue
        before = len(supply(standing).out_of_supply(side))
        cut = standing
        for key in keys:
            cut = Target("bridge", key).cut(cut)
        history = len(supply(cut).out_of_supply(side)) - before
        best = best_targets(standing, side, len(keys), candidates=candidates, river=river, method=method)
        rows.append(
            {
                "system": system, "scenario": spec, "attacks": found["bridge"].nunique(), "cuts": len(keys),
                "history": history, "best": best.gain, "bound": best.bound, "method": best.method,
                "share": history / best.gain if best.gain else math.nan,
                "best_picks": ", ".join(t.key for t in best.picks),
                "attacked": "; ".join(sorted(set(found["bridge"]))), "note": "",
            }
        )  # fmt: skip
    return pd.DataFrame(rows)


def _enough(standing: GameState, spec: str, date: Any, cuts: int, candidates: Any, river: Any) -> None:
    """Refuse candidates (or a river) that hold fewer targets than the attacks cut: the search gets as many.

    Checked for every game before the first search, as ``best_targets`` checks ``k``, so that a bad
    ``candidates`` or ``river`` is refused naming ``against_optimum``'s own argument.
    """
    from normandy_lab.errors import RefusedError
    from normandy_lab.interdiction.candidates import _targets

    n = len(_targets(standing, candidates, river, None, "against_optimum"))
    if cuts > n:
        given = f"candidates={candidates!r:.60}" + (f", river={river!r}" if river is not None else "")
        raise RefusedError(
            f"against_optimum: candidates: on {spec} the attacks up to {date} cut {cuts} bridges, so the "
            f"optimiser is given {cuts} cuts, but {given} hold only {n}; give candidates that hold at least "
            f"{cuts} (candidates='bridges' without river= holds every bridge standing)"
        )
