"""A gazetteer of 1944 Normandy.

Three committed sources, all under ``maps/gazetteer/``:

``geonames_normandy.csv``
    Every populated place of 500 inhabitants or more in the campaign area,
    extracted from GeoNames (CC-BY 4.0) by ``scripts/extract_geonames.py``.
``names_1944.yaml``
    Corrections to GeoNames rows: the 1944 name where it differs from the
    modern one (the modern name becomes an alias), short forms used in the
    histories and the rulebooks, and qualifiers that keep names unique.
``hand_places.yaml`` and ``hand_military.yaml``
    What GeoNames lacks: hamlets, hills, forests, bridges, batteries,
    strongpoints, beach sectors, drop zones..., each with its source and an
    accuracy estimate.

Names are matched ignoring accents, case, hyphens, apostrophes and spaces,
with "Saint"/"St" and "Sainte"/"Ste" equivalent.  Hand entries and 1944
names take precedence over GeoNames' own alternate names.
"""

from __future__ import annotations

import csv
import difflib
import math
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from normandy_lab import yamllines
from normandy_lab.errors import FileRefusedError, UnknownNameError
from normandy_lab.paths import map_file

if TYPE_CHECKING:  # for annotations only: these load when a frame is asked for
    import geopandas

# Accept hand entries only inside a generous box around the campaign area:
# a coordinate outside it is a typo (a swapped sign or lat/lon).
_LON_RANGE = (-2.5, 1.5)
_LAT_RANGE = (48.0, 50.2)

HAND_FILES = ("hand_places.yaml", "hand_military.yaml")
_HAND_KEYS = {"name", "kind", "lon", "lat", "aliases", "source", "accuracy_m", "basis"}
BASES = ("sourced", "derived", "estimated")
"""How a coordinate was obtained, from strongest to weakest."""


class UnknownPlaceError(UnknownNameError):
    """A name the gazetteer does not know; the message suggests close names."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown place"


class GazetteerDataError(FileRefusedError):
    """A gazetteer data file is malformed: the message names the file, entry and field."""


@dataclass(frozen=True)
class Place:
    """One gazetteer entry.

    Attributes
    ----------
    name
        The 1944 name.
    kind
        ``"town"``, ``"village"``, ``"bridge"``, ``"battery"`` ... for hand
        entries; ``"populated place"`` for GeoNames rows.
    lon, lat
        WGS84 degrees.
    aliases
        Other names that find this place.
    source
        Where the coordinates come from.
    accuracy_m
        Estimated error of the point as the place's location, metres.
    basis
        ``"sourced"`` (a cited source gives the number; GeoNames rows),
        ``"derived"`` (computed from a position a source describes in words)
        or ``"estimated"`` (placed by the compilers from knowledge of the
        ground).
    origin
        ``"geonames"`` or the hand file it came from.
    population
        GeoNames' (modern) population, 0 for hand entries.
    """

    name: str
    kind: str
    lon: float
    lat: float
    aliases: tuple[str, ...]
    source: str
    accuracy_m: float
    origin: str
    basis: str = "sourced"
    population: int = 0
    note: str = ""
    alternates: tuple[str, ...] = field(default=(), repr=False)


#: The eight compass points, counter-clockwise from east (the order of atan2's angle).
COMPASS_POINTS = ("E", "NE", "N", "NW", "W", "SW", "S", "SE")


def offset_km(origin: tuple[float, float], lon: Any, lat: Any) -> tuple[Any, Any]:
    """Return the east and north offsets (km) of points from an origin (lon, lat).

    A local flat approximation (kilometres per degree at the origin's latitude): good to a
    fraction of a percent over the tens of kilometres between a hex and its nearest place.
    Works on scalars and numpy arrays alike.
    """
    lon0, lat0 = origin
    return (lon - lon0) * 111.32 * math.cos(math.radians(lat0)), (lat - lat0) * 110.57


def compass_point(east_km: float, north_km: float) -> str:
    """Return the compass point (E, NE, N, ...) of an offset."""
    return COMPASS_POINTS[round(math.degrees(math.atan2(north_km, east_km)) / 45) % 8]


def normalize_name(name: str) -> str:
    """Return the matching key of a place name.

    Accents, case, hyphens, apostrophes, dots and repeated spaces are
    ignored; "saint"/"st" and "sainte"/"ste" are equivalent.

    Examples
    --------
    >>> normalize_name("Sainte-Mère-Église")
    'ste mere eglise'
    >>> normalize_name("Ste Mere Eglise")
    'ste mere eglise'
    """
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.lower().replace("œ", "oe").replace("æ", "ae")
    text = re.sub(r"[-'’`.,()/]+", " ", text)
    text = re.sub(r"\bsainte\b", "ste", text)
    text = re.sub(r"\bsaint\b", "st", text)
    return re.sub(r"\s+", " ", text).strip()


def _read_yaml_list(path: Path) -> list[dict[str, Any]]:
    try:
        with open(path, encoding="utf-8") as handle:
            data = yamllines.safe_load(handle)
    except yaml.YAMLError as exc:
        raise GazetteerDataError(f"{path}: not valid YAML: {exc}") from exc
    if data is None:
        return []
    if not isinstance(data, list):
        raise GazetteerDataError(f"{path}: expected a YAML list of entries, got {type(data).__name__}")
    return data


def _check_coordinate(path: Path, where: str, key: str, value: Any, bounds: tuple[float, float]) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise GazetteerDataError(f"{path}: {where}: field {key!r} must be a number, got {value!r}")
    if not bounds[0] <= float(value) <= bounds[1]:
        raise GazetteerDataError(
            f"{path}: {where}: field {key!r} = {value} is outside the campaign area "
            f"({bounds[0]} to {bounds[1]}); check for a swapped sign or swapped lon/lat"
        )
    return float(value)


def _hand_entries(path: Path) -> list[Place]:
    places = []
    for index, entry in enumerate(_read_yaml_list(path), start=1):
        where = f"entry {index}"
        if not isinstance(entry, dict):
            raise GazetteerDataError(f"{path}: {where}: expected a mapping, got {entry!r}")
        if "name" in entry:
            where = f"entry {index} ({entry['name']!r})"
        missing = _HAND_KEYS - set(entry)
        if missing:
            raise GazetteerDataError(
                f"{path}: {where}: missing field(s) {', '.join(sorted(missing))}; every entry needs "
                f"{', '.join(sorted(_HAND_KEYS))}"
            )
        aliases = entry["aliases"] or []
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            raise GazetteerDataError(f"{path}: {where}: field 'aliases' must be a list of strings")
        if entry["basis"] not in BASES:
            raise GazetteerDataError(
                f"{path}: {where}: field 'basis' is {entry['basis']!r}; expected one of {', '.join(BASES)}"
            )
        if not str(entry["source"]).strip():
            raise GazetteerDataError(
                f"{path}: {where}: field 'source' is empty; say where the coordinates come from"
            )
        places.append(
            Place(
                name=str(entry["name"]),
                kind=str(entry["kind"]),
                lon=_check_coordinate(path, where, "lon", entry["lon"], _LON_RANGE),
                lat=_check_coordinate(path, where, "lat", entry["lat"], _LAT_RANGE),
                aliases=tuple(aliases),
                source=str(entry["source"]),
                accuracy_m=float(entry["accuracy_m"]),
                origin=path.name,
                basis=str(entry["basis"]),
                note=str(entry.get("note", "") or ""),
            )
        )
    return places


def _geonames_entries() -> list[Place]:
    path = map_file("gazetteer", "geonames_normandy.csv")
    overrides_path = map_file("gazetteer", "names_1944.yaml")
    overrides: dict[int, dict[str, Any]] = {}
    for index, entry in enumerate(_read_yaml_list(overrides_path), start=1):
        if not isinstance(entry, dict) or "geonameid" not in entry:
            raise GazetteerDataError(f"{overrides_path}: entry {index}: needs a 'geonameid' field")
        overrides[int(entry["geonameid"])] = entry
    places = []
    seen_ids = set()
    with open(path, encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            geonameid = int(row["geonameid"])
            seen_ids.add(geonameid)
            override = overrides.get(geonameid, {})
            name = override.get("name_1944") or row["name"]
            aliases = list(override.get("aliases") or [])
            # A renamed place keeps its modern name as an alias, unless the
            # rename only qualifies a name that several places share.
            if name != row["name"] and not name.startswith(row["name"] + " ("):
                aliases.append(row["name"])
            alternates = tuple(a for a in row["alternates"].split("|") if a)
            places.append(
                Place(
                    name=name,
                    kind="populated place",
                    lon=float(row["lon"]),
                    lat=float(row["lat"]),
                    aliases=tuple(aliases),
                    source=f"GeoNames {geonameid}"
                    + (f"; name: {override['source']}" if override.get("source") else ""),
                    accuracy_m=500.0,
                    origin="geonames",
                    population=int(row["population"] or 0),
                    alternates=alternates,
                )
            )
    unknown = sorted(set(overrides) - seen_ids)
    if unknown:
        raise GazetteerDataError(
            f"{overrides_path}: geonameid(s) {unknown} are not rows of {path.name}; "
            "remove them or re-run scripts/extract_geonames.py"
        )
    return places


@dataclass
class _Index:
    places: list[Place]
    keys: dict[str, int]


@lru_cache(maxsize=1)
def _index() -> _Index:
    places = _geonames_entries()
    for filename in HAND_FILES:
        places.extend(_hand_entries(map_file("gazetteer", filename)))
    keys: dict[str, int] = {}
    owners: dict[str, str] = {}
    # Names and explicit aliases must be unique: a clash is a data error.
    for i, place in enumerate(places):
        for label in (place.name, *place.aliases):
            key = normalize_name(label)
            if key in keys and keys[key] != i:
                other = places[keys[key]]
                raise GazetteerDataError(
                    f"gazetteer: the name {label!r} of {place.name!r} ({place.origin}) clashes with "
                    f"{owners[key]!r} of {other.name!r} ({other.origin}); qualify one of them "
                    "(for GeoNames rows, in maps/gazetteer/names_1944.yaml)"
                )
            keys[key] = i
            owners[key] = label
    # GeoNames' alternate names only fill gaps, and an alternate shared by
    # two places finds neither.
    alternate_hits: dict[str, set[int]] = {}
    for i, place in enumerate(places):
        for label in place.alternates:
            alternate_hits.setdefault(normalize_name(label), set()).add(i)
    for key, hits in alternate_hits.items():
        if key not in keys and len(hits) == 1:
            keys[key] = next(iter(hits))
    return _Index(places=places, keys=keys)


def place(name: str) -> Place:
    """Return the gazetteer entry for ``name``.

    Raises
    ------
    UnknownPlaceError
        When no entry matches; the message lists the closest names.
    """
    index = _index()
    key = normalize_name(name)
    if key in index.keys:
        return index.places[index.keys[key]]
    candidates = difflib.get_close_matches(key, list(index.keys), n=5, cutoff=0.6)
    suggestions = []
    for candidate in candidates:
        suggestion = index.places[index.keys[candidate]].name
        if suggestion not in suggestions:
            suggestions.append(suggestion)
    hint = f"; did you mean {', '.join(repr(s) for s in suggestions)}?" if suggestions else ""
    raise UnknownPlaceError(f"no place called {name!r} in the gazetteer{hint}")


def lookup(name: str) -> tuple[float, float]:
    """Return ``(lon, lat)`` of a place (WGS84 degrees).

    Examples
    --------
    >>> lon, lat = lookup("Ste-Mère-Église")
    >>> round(lat, 2)
    49.41
    """
    entry = place(name)
    return entry.lon, entry.lat


def names() -> list[str]:
    """Return the 1944 names of every entry."""
    return [p.name for p in _index().places]


def places() -> geopandas.GeoDataFrame:
    """Return every entry as a GeoDataFrame of points in EPSG:4326.

    Columns: ``name``, ``kind``, ``aliases`` (joined with ``"|"``),
    ``source``, ``accuracy_m``, ``basis``, ``origin``, ``population``,
    ``geometry``.
    """
    import geopandas as gpd

    rows = _index().places
    return gpd.GeoDataFrame(
        {
            "name": [p.name for p in rows],
            "kind": [p.kind for p in rows],
            "aliases": ["|".join(p.aliases) for p in rows],
            "source": [p.source for p in rows],
            "accuracy_m": [p.accuracy_m for p in rows],
            "basis": [p.basis for p in rows],
            "origin": [p.origin for p in rows],
            "population": [p.population for p in rows],
        },
        geometry=gpd.points_from_xy([p.lon for p in rows], [p.lat for p in rows]),
        crs="EPSG:4326",
    )


def clear_cache() -> None:
    """Forget the loaded data (after editing a gazetteer file)."""
    _index.cache_clear()


# Moved to normandy_lab.terrain.places (they read the grids and the terrain, which stand above geo): the old
# names still resolve, for one release, without geo importing either at load time.
_MOVED_TO_TERRAIN = ("hex_place", "with_places")


def __getattr__(name: str) -> Any:
    if name in _MOVED_TO_TERRAIN:
        import importlib

        return getattr(importlib.import_module("normandy_lab.terrain.places"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
