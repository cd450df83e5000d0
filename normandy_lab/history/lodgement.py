"""Where the front lines fell: the Allied lodgement in Normandy, date by date.

The record lives in ``maps/history/lodgement_*.yaml``: for each date, the
Allied-held ground at the end of that day as rings of waypoints (gazetteer
names, ``[lon, lat]`` pairs or offsets from a place) digitised from the
official histories' situation maps, with the sources and an accuracy statement.
A ring that meets the sea is taken offshore, so that the GSHHG coastline of the
map issue forms the coast; German pockets are subtracted.  The format is
described in ``docs/history.md``.

Public functions work in longitude/latitude (EPSG:4326); distances are
measured in Lambert-93 metres.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from normandy_lab.errors import FileRefusedError
from normandy_lab.geo import gazetteer
from normandy_lab.geo.crs import lonlat_to_metric
from normandy_lab.paths import map_file, maps_dir
from normandy_lab.schemas.record import LodgementFileSchema
from normandy_lab.schemas.validation import validate
from normandy_lab.yamllines import LineDict, load_yaml_with_lines, read_user_text

if TYPE_CHECKING:  # for annotations only (shapely has no types: to mypy these read as Any)
    import shapely

#: The campaign area the record covers (lon/lat box): the extent of the
#: GSHHG land extract.  Allied ground past it is clipped; its edges are not front.
CAMPAIGN_AREA: tuple[float, float, float, float] = (-2.6, 48.0, 1.2, 49.97)
#: Landing day, the first date that can be asked about.
FIRST_DAY = dt.date(1944, 6, 6)
Side = Literal["allied", "german", "contested"]
# Coast and area-edge parts of a lodgement's boundary are removed with this
# buffer (degrees, about 1 m): the clip makes them coincide with the land outline.
_EDGE_TOLERANCE_DEG = 1e-5


class HistoryError(FileRefusedError):
    """A malformed historical record, or a question outside the record."""


@dataclass(frozen=True)
class LodgementRecord:
    """The Allied-held ground at the end of one date.

    Attributes
    ----------
    date
        The date (the situation at the end of that day unless ``time`` says otherwise).
    time
        ``"evening"`` (the default) or another time of day the record shows.
    sources
        Full citations of the sources.
    accuracy_km
        How far the line may be off in general, in km.
    uncertain
        Where the line is least certain, in words.
    area_names, pocket_names
        Names of the Allied areas and of the German pockets.
    geometry
        The Allied-held ground (shapely, lon/lat), clipped to the land of the campaign area.
    front
        The lines where it meets German-held ground (coast and area edge excluded).
    path, line
        The file and line the record comes from.
    """

    date: dt.date
    time: str
    sources: tuple[str, ...]
    accuracy_km: float
    uncertain: str
    area_names: tuple[str, ...]
    pocket_names: tuple[str, ...]
    geometry: Any = field(repr=False)
    front: Any = field(repr=False)
    path: Path = field(repr=False)
    line: int = 0


def history_dir() -> Path:
    """Return ``maps/history/``, where the historical record lives."""
    return maps_dir() / "history"


def _as_date(value: Any, what: str = "date") -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise HistoryError(f"{what} {value!r} is not a date; give 'YYYY-MM-DD' or a datetime.date")


def _fail(path: Path, where: Any, field_name: str, problem: str, fix: str) -> HistoryError:
    line = where.line_of(field_name.split(".")[-1]) if isinstance(where, LineDict) else int(where or 0)
    return HistoryError(f"{path}:{line}: {field_name}: {problem}; {fix}")


#: The days a lodgement line or a dated fact may have: from the landings to the end of August 1944, when
#: the last German forces of Normandy were back over the Seine and the record ends (a line of 1943 or
#: 1945 is a typing slip, which would otherwise sort silently before or after the whole campaign).
RECORD_DAYS = (FIRST_DAY, dt.date(1944, 8, 31))


def entry_date(
    path: Path, entry: LineDict, field_name: str, within: tuple[dt.date, dt.date] | None = None
) -> dt.date:
    """Return the date in ``entry``'s field ``field_name`` (its last part names the key).

    An impossible date that passed the schema's pattern (1944-06-31) is an error at its line, and so is
    a date outside ``within`` (first and last day allowed), when given.
    """
    try:
        day = _as_date(entry[field_name.split(".")[-1]])
    except HistoryError as exc:
        raise _fail(path, entry, field_name, str(exc), "give a real date as 'YYYY-MM-DD'") from None
    if within is not None and not within[0] <= day <= within[1]:
        raise _fail(
            path,
            entry,
            field_name,
            f"{day} is outside the campaign the record covers ({within[0]} to {within[1]})",
            "check the year and month",
        )
    return day


def _metres_per_degree(lat: float) -> tuple[float, float]:
    return 111_320.0 * np.cos(np.radians(lat)), 110_574.0


def resolve_waypoint(item: Any, path: Path, where: Any, field_name: str) -> tuple[float, float]:
    """Turn one waypoint into ``(lon, lat)``.

    A waypoint is a gazetteer name, a ``[lon, lat]`` pair, or
    ``{near: <name or [lon, lat]>, km: [east, north]}`` (an offset in km).
    """
    if isinstance(item, dict) and "near" in item:
        lon, lat = resolve_waypoint(item["near"], path, where, field_name + ".near")
        offset = item.get("km", [0, 0])
        if not (
            isinstance(offset, list) and len(offset) == 2 and all(isinstance(v, int | float) for v in offset)
        ):
            raise _fail(
                path,
                where,
                field_name + ".km",
                f"offset {offset!r} is not [east_km, north_km]",
                "give two numbers in km, e.g. km: [1.0, -0.5]",
            )
        per_lon, per_lat = _metres_per_degree(lat)
        return lon + 1000.0 * offset[0] / per_lon, lat + 1000.0 * offset[1] / per_lat
    if isinstance(item, str):
        try:
            return gazetteer.lookup(item)
        except KeyError as exc:
            raise _fail(
                path, where, field_name, str(exc).strip("'\""), "use a gazetteer name or a [lon, lat] pair"
            ) from None
    if (
        isinstance(item, list | tuple)
        and len(item) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in item)
    ):
        lon, lat = float(item[0]), float(item[1])
        if not (-6.0 <= lon <= 4.0 and 46.0 <= lat <= 51.5):
            raise _fail(
                path,
                where,
                field_name,
                f"point [{lon}, {lat}] is far outside Normandy",
                "check for swapped longitude and latitude (give [lon, lat])",
            )
        return lon, lat
    raise _fail(
        path,
        where,
        field_name,
        f"waypoint {item!r} is not understood",
        "give a gazetteer name, [lon, lat] or {near: NAME, km: [east, north]}",
    )


def _ring_polygon(entry: Any, path: Path, field_name: str) -> shapely.Polygon:
    import shapely

    outline = entry["outline"]
    points = [
        resolve_waypoint(item, path, entry, f"{field_name}.outline[{i}]") for i, item in enumerate(outline)
    ]
    polygon = shapely.Polygon(points)
    if not polygon.is_valid:
        raise _fail(
            path,
            entry,
            f"{field_name}.outline",
            f"the ring of {entry.get('name', 'this area')!r} is not a valid polygon "
            f"({shapely.is_valid_reason(polygon)})",
            "reorder the waypoints so that the ring does not cross itself",
        )
    return polygon


@functools.cache
def _campaign_land() -> shapely.Geometry:
    """Return the land of the campaign area (GSHHG), as one shapely geometry."""
    import geopandas as gpd
    import shapely

    land = gpd.read_file(map_file("coast", "gshhg_land.geojson")).geometry.values
    return shapely.intersection(shapely.union_all(land), shapely.box(*CAMPAIGN_AREA))


@functools.cache
def _not_front() -> shapely.Geometry:
    """Boundaries that are not front lines: the coast and the campaign area's edge."""
    import shapely

    edges = shapely.union(_campaign_land().boundary, shapely.box(*CAMPAIGN_AREA).boundary)
    return edges.buffer(_EDGE_TOLERANCE_DEG)


def _build_record(entry: Any, path: Path, index: int, sources: dict[str, str]) -> LodgementRecord:
    import shapely

    # The file has passed its schema (types, fields, enumerations); what is left is what a type cannot say.
    where = f"records[{index}]"
    date = entry_date(path, entry, f"{where}.date", within=RECORD_DAYS)
    cited = []
    for key in entry["sources"]:
        if key in sources:
            cited.append(f"{key}: {sources[key]}")
        elif len(key) > 25:  # a citation written out in full
            cited.append(key)
        else:
            raise _fail(
                path,
                entry,
                f"{where}.sources",
                f"unknown source key {key!r}",
                f"add it to the file's sources (known: {', '.join(sources) or 'none'})",
            )
    accuracy = entry["accuracy_km"]
    areas = entry["allied"]
    pockets = entry.get("german_pockets") or []
    allied = shapely.union_all([_ring_polygon(a, path, f"{where}.allied[{i}]") for i, a in enumerate(areas)])
    german = [_ring_polygon(p, path, f"{where}.german_pockets[{i}]") for i, p in enumerate(pockets)]
    held = shapely.intersection(allied, _campaign_land())
    if german:
        held = shapely.difference(held, shapely.union_all(german))
    if held.is_empty:
        raise _fail(
            path,
            entry,
            f"{where}.allied",
            "the areas hold no land of the campaign area",
            "check the waypoints (lon/lat order, places)",
        )
    front = shapely.line_merge(shapely.difference(held.boundary, _not_front()))
    return LodgementRecord(
        date=date,
        time=str(entry.get("time", "evening")),
        sources=tuple(cited),
        accuracy_km=float(accuracy),
        uncertain=str(entry.get("uncertain", "")).strip(),
        area_names=tuple(str(a.get("name", "")) for a in areas),
        pocket_names=tuple(str(p.get("name", "")) for p in pockets),
        geometry=held,
        front=front,
        path=path,
        line=entry.line,
    )


@functools.cache
def _load_file(path: Path, mtime: float) -> tuple[LodgementRecord, ...]:
    # The project's own record files are built once and kept on disk (terrain.derived): the fronts' shapes
    # cost most of the explorer's first opening in a kernel (issue 33, section 4).  Other files are built.
    from normandy_lab.terrain.derived import derived

    if path.is_relative_to(maps_dir().resolve()):
        return derived("lodgement", lambda: _build_file(path), str(path.relative_to(maps_dir().resolve())))
    return _build_file(path)


def _build_file(path: Path) -> tuple[LodgementRecord, ...]:
    data = load_yaml_with_lines(
        read_user_text(path, HistoryError, "record file"), str(path), HistoryError, aliases=True
    )
    validate(LodgementFileSchema, data, str(path), HistoryError)
    sources = data.get("sources") or {}
    return tuple(_build_record(entry, path, i, sources) for i, entry in enumerate(data["records"]))


def lodgement_files() -> list[Path]:
    """Return the files of the lodgement record (``maps/history/lodgement_*.yaml``)."""
    return sorted(history_dir().glob("lodgement_*.yaml"))


def records(files: Sequence[str | Path] | None = None) -> list[LodgementRecord]:
    """Every lodgement record, in date order.

    Parameters
    ----------
    files
        Lodgement files to read instead of ``maps/history/lodgement_*.yaml``.

    Raises
    ------
    HistoryError
        A malformed file (file, line, field, what is wrong and how to fix it), or
        one date recorded twice.
    """
    paths = [Path(p) for p in files] if files is not None else lodgement_files()
    found: dict[dt.date, LodgementRecord] = {}
    for path in paths:
        if not path.exists():
            raise HistoryError(f"{path}: no such lodgement file")
        for record in _load_file(path.resolve(), path.stat().st_mtime):
            if record.date in found:
                first = found[record.date]
                raise HistoryError(
                    f"{path}:{record.line}: date: {record.date} is already recorded at "
                    f"{first.path}:{first.line}; keep one record per date"
                )
            found[record.date] = record
    if not found:
        where = ", ".join(map(str, paths)) if files is not None else f"{history_dir()} (lodgement_*.yaml)"
        raise HistoryError(f"no lodgement records found in {where}")
    return [found[d] for d in sorted(found)]


def lodgement_dates(files: Sequence[str | Path] | None = None) -> list[dt.date]:
    """Return the dates of the lodgement record, in order."""
    return [r.date for r in records(files)]


def record(date: Any, files: Sequence[str | Path] | None = None) -> LodgementRecord:
    """Return the record in force on ``date``: the latest one on or before it.

    Raises
    ------
    HistoryError
        Before 6 June 1944, or after the last record.
    """
    day = _as_date(date)
    found = records(files)
    if day < max(FIRST_DAY, found[0].date):
        raise HistoryError(
            f"{day} is before the landings: the record starts on {found[0].date}; ask for a date from then on"
        )
    if day > found[-1].date:
        raise HistoryError(
            f"{day} is after the last record ({found[-1].date}); ask for a date up to {found[-1].date}"
        )
    return [r for r in found if r.date <= day][-1]


def lodgement(date: Any, files: Sequence[str | Path] | None = None) -> shapely.Geometry:
    """Return the Allied-held ground on ``date`` (shapely, lon/lat, EPSG:4326).

    The latest record on or before the date holds; see :func:`record`.
    """
    return record(date, files).geometry


def front_line(date: Any, files: Sequence[str | Path] | None = None) -> shapely.Geometry:  # (Multi)LineString
    """Return the lines where Allied ground meets German ground on ``date`` (coast excluded)."""
    return record(date, files).front


def _to_metric(geometry: shapely.Geometry) -> shapely.Geometry:
    import shapely

    def project(coords: np.ndarray) -> np.ndarray:
        x, y = lonlat_to_metric(coords[:, 0], coords[:, 1])
        return np.column_stack([x, y])

    return shapely.transform(geometry, project)


def _metric(rec: LodgementRecord) -> tuple[shapely.Geometry, shapely.Geometry, shapely.Geometry]:
    """Return a record's ground, the German ground and the front in Lambert-93 metres (cached).

    The cache is keyed by the file's modification time, like the records themselves, so an
    edited file is never answered from stale geometry.
    """
    return _metric_of(rec.path, rec.line, rec.path.stat().st_mtime)


@functools.cache
def _metric_of(
    path: Path, line: int, mtime: float
) -> tuple[shapely.Geometry, shapely.Geometry, shapely.Geometry]:
    import shapely

    rec = next(r for r in _load_file(path, mtime) if r.line == line)
    german = shapely.difference(_campaign_land(), rec.geometry)
    return _to_metric(rec.geometry), _to_metric(german), _to_metric(rec.front)


def _point(place_or_lonlat: Any) -> tuple[float, float]:
    if isinstance(place_or_lonlat, str):
        return gazetteer.lookup(place_or_lonlat)
    try:
        lon, lat = (float(v) for v in place_or_lonlat)
    except (TypeError, ValueError):
        raise HistoryError(f"{place_or_lonlat!r} is neither a gazetteer name nor a (lon, lat) pair") from None
    west, south, east, north = CAMPAIGN_AREA
    if not (west <= lon <= east and south <= lat <= north):
        raise HistoryError(
            f"({lon}, {lat}) is outside the campaign area {CAMPAIGN_AREA}; check lon/lat order"
        )
    return lon, lat


def distance_to_front_km(place_or_lonlat: Any, date: Any, files: Sequence[str | Path] | None = None) -> float:
    """Distance in km from a place to the front line of ``date``."""
    import shapely

    rec = record(date, files)
    _, _, front = _metric(rec)
    x, y = _to_metric(shapely.Point(_point(place_or_lonlat))).coords[0]
    return float(shapely.distance(front, shapely.Point(x, y))) / 1000.0


def held_by(
    place_or_lonlat: Any, date: Any, tolerance_km: float = 0.5, files: Sequence[str | Path] | None = None
) -> Side:
    """Who held a place on ``date``: ``"allied"``, ``"german"`` or ``"contested"``.

    Parameters
    ----------
    place_or_lonlat
        A gazetteer name or a ``(lon, lat)`` pair.
    date
        The date; the latest record on or before it holds.
    tolerance_km
        A place within this distance of the front line is ``"contested"``:
        the record cannot tell its side.
    files
        Lodgement files to read instead of the project's record.
    """
    import shapely

    rec = record(date, files)
    allied, german, front = _metric(rec)
    x, y = _to_metric(shapely.Point(_point(place_or_lonlat))).coords[0]
    point = shapely.Point(x, y)
    if front.is_empty is False and shapely.distance(front, point) <= tolerance_km * 1000.0:
        return "contested"
    # A coastal place just off the GSHHG land goes with the nearer ground.
    return "allied" if shapely.distance(allied, point) < shapely.distance(german, point) else "german"
