"""The campaign's timeline, 6 June to 25 August 1944.

``maps/history/timeline.yaml`` lists the campaign's events (landings,
operations, battles, captures, the storm) with their dates, a gazetteer place,
the formations involved and a short description in the project's own words,
each with its sources.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

from normandy_lab.geo import gazetteer
from normandy_lab.history.lodgement import (
    HistoryError,
    _fail,
    entry_date,
    history_dir,
    resolve_waypoint,
)
from normandy_lab.schemas.record import EventCategory, TimelineSchema
from normandy_lab.schemas.validation import validate
from normandy_lab.yamllines import load_yaml_with_lines, read_user_text

if TYPE_CHECKING:  # for annotations only: these load when a frame is asked for
    import geopandas

CATEGORIES: tuple[str, ...] = get_args(EventCategory)
LAST_DAY = dt.date(1944, 8, 25)


def timeline(path: str | Path | None = None) -> geopandas.GeoDataFrame:
    """Return the campaign's events, in date order.

    Columns: ``id``, ``name``, ``start``, ``end`` (the start when the event
    lasted one day), ``place``, ``lon``, ``lat``, ``formations`` (a tuple),
    ``category``, ``description``, ``sources`` (full citations), and a point
    ``geometry`` in EPSG:4326.

    Raises
    ------
    HistoryError
        A malformed file: file, line, field, what is wrong and how to fix it.
    """
    import geopandas as gpd
    import shapely

    file = Path(path) if path is not None else history_dir() / "timeline.yaml"
    data = load_yaml_with_lines(
        read_user_text(file, HistoryError, "record file"), str(file), HistoryError, aliases=True
    )
    validate(TimelineSchema, data, str(file), HistoryError)
    sources = data["sources"]
    rows: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for i, entry in enumerate(data["events"]):
        where = f"events[{i}]"
        if entry["id"] in seen:
            raise _fail(
                file,
                entry,
                f"{where}.id",
                f"{entry['id']!r} is already used at line {seen[entry['id']]}",
                "give each event its own id",
            )
        seen[entry["id"]] = entry.line
        start = entry_date(file, entry, f"{where}.start")
        end = entry_date(file, entry, f"{where}.end") if entry.get("end") else start
        if not (dt.date(1944, 6, 5) <= start <= end <= LAST_DAY):
            raise _fail(
                file,
                entry,
                f"{where}.start",
                f"dates {start}..{end} are out of order or outside the campaign",
                f"give dates from 1944-06-05 to {LAST_DAY}, start before end",
            )
        if "lonlat" in entry:
            lon, lat = resolve_waypoint(entry["lonlat"], file, entry, f"{where}.lonlat")
        else:
            try:
                lon, lat = gazetteer.lookup(entry["place"])
            except KeyError as exc:
                raise _fail(
                    file,
                    entry,
                    f"{where}.place",
                    str(exc).strip("'\""),
                    "use a gazetteer name, or give the place's lonlat: [lon, lat]",
                ) from None
        cited = []
        for key in entry["sources"]:
            if key not in sources:
                raise _fail(
                    file,
                    entry,
                    f"{where}.sources",
                    f"unknown source key {key!r}",
                    "add it to the file's sources",
                )
            cited.append(f"{key}: {sources[key]}")
        rows.append(
            {
                "id": str(entry["id"]),
                "name": str(entry["name"]),
                "start": start,
                "end": end,
                "place": str(entry["place"]),
                "lon": lon,
                "lat": lat,
                "formations": tuple(str(f) for f in entry.get("formations") or ()),
                "category": entry["category"],
                "description": " ".join(str(entry["description"]).split()),
                "sources": tuple(cited),
            }
        )
    rows.sort(key=lambda row: (row["start"], row["end"]))
    return gpd.GeoDataFrame(
        rows, geometry=[shapely.Point(r["lon"], r["lat"]) for r in rows], crs="EPSG:4326"
    ).reset_index(drop=True)
