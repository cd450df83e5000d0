"""Dated facts of who held which place, to hold the lodgement record to.

``maps/history/facts_*.yaml`` lists (place, date, side) facts taken from the
narratives of the official histories (a town captured on a date, or a village
still held by the Germans), each with its source.  They are independent of the
lodgement outlines: :func:`check_facts` compares each with
:func:`~normandy_lab.history.lodgement.held_by`, and the test suite requires
every one to agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from normandy_lab.history.lodgement import (
    RECORD_DAYS,
    HistoryError,
    distance_to_front_km,
    entry_date,
    held_by,
    history_dir,
    resolve_waypoint,
)
from normandy_lab.schemas.record import FactsFileSchema
from normandy_lab.schemas.validation import validate
from normandy_lab.yamllines import load_yaml_with_lines, read_user_text

if TYPE_CHECKING:  # for annotations only: pandas loads when a table is asked for
    import pandas as pd


def fact_files() -> list[Path]:
    """Return the files of dated facts (``maps/history/facts_*.yaml``)."""
    return sorted(history_dir().glob("facts_*.yaml"))


def facts(files: Sequence[str | Path] | None = None) -> pd.DataFrame:
    """Every (place, date, side) fact, one row each.

    Columns: ``place``, ``lon``, ``lat``, ``date``, ``side``, ``event``,
    ``source``, ``file``, ``line``.
    """
    import pandas as pd

    rows = []
    for path in [Path(p) for p in files] if files is not None else fact_files():
        data = load_yaml_with_lines(
            read_user_text(path, HistoryError, "record file"), str(path), HistoryError, aliases=True
        )
        validate(FactsFileSchema, data, str(path), HistoryError)
        sources = data.get("sources") or {}
        for i, entry in enumerate(data["facts"]):
            where = f"facts[{i}]"
            date = entry_date(path, entry, f"{where}.date", within=RECORD_DAYS)
            point = entry.get("lonlat", entry["place"])
            lon, lat = resolve_waypoint(
                point, path, entry, f"{where}.{'lonlat' if 'lonlat' in entry else 'place'}"
            )
            source = str(entry["source"])
            if source not in sources and len(source) <= 25:  # a key, as the lodgement files check theirs
                known = ", ".join(sources) or "none"
                raise HistoryError(
                    f"{path}:{entry.line_of('source')}: {where}.source: unknown source key {source!r}; "
                    f"add it to the file's sources, or write the citation out (known: {known})"
                )
            rows.append(
                {
                    "place": str(entry["place"]),
                    "lon": lon,
                    "lat": lat,
                    "date": date,
                    "side": entry["side"],
                    "event": str(entry.get("event", "")),
                    "source": f"{source}: {sources[source]}" if source in sources else source,
                    "file": str(path),
                    "line": entry.line,
                }
            )
    return pd.DataFrame(rows)


def check_facts(
    tolerance_km: float = 0.5,
    fact_paths: Sequence[str | Path] | None = None,
    lodgement_paths: Sequence[str | Path] | None = None,
) -> Any:  # -> pandas.DataFrame
    """Compare every fact with the lodgement record.

    A fact agrees when :func:`held_by` gives its side, or ``"contested"``
    (the place is within ``tolerance_km`` of the front line).

    Returns
    -------
    pandas.DataFrame
        The facts with ``held_by``, ``distance_km`` (to the front line) and ``ok``.
    """
    table = facts(fact_paths)
    found, distances = [], []
    for row in table.itertuples():
        found.append(held_by((row.lon, row.lat), row.date, tolerance_km, lodgement_paths))
        distances.append(round(distance_to_front_km((row.lon, row.lat), row.date, lodgement_paths), 2))
    table["held_by"] = found
    table["distance_km"] = distances
    table["ok"] = (table["held_by"] == table["side"]) | (table["held_by"] == "contested")
    return table


def facts_available() -> bool:
    """Return whether the project has any fact files."""
    return bool(fact_files())
