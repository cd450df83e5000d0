"""The terrain of every hex and hexside of a grid, derived from geography.

The printed maps are not in the rulebooks, so each grid's terrain is derived
from the real geography of :mod:`normandy_lab.geo.geography`.  A
:class:`TerrainMap` holds

``hexes``
    a GeoDataFrame indexed by canonical hex id: the geographic facts
    (``land_fraction``, ``builtup`` class and fractions, cover fractions,
    ``marsh_fraction``, ``height_m``, ``beach``, the places in the hex) and
    the terrain in the rule system's own words (``terrain``, ``settlement``).
``hexsides``
    a GeoDataFrame of every pair of adjacent hexes (``a``, ``b``) with what
    lies between them: ``water`` (the most important river, stream or canal
    crossed going from one centre to the other, and its name), ``road``
    (the best road class linking the two hexes), ``railway``,
    ``road_bridge``/``rail_bridge``, ``all_sea`` and ``beach``.
``arrays``
    the same as numpy arrays over the grid's dense hex index, for
    vectorised rules.

How the facts are derived (see :class:`TerrainConfig` for the numbers):

* Areas are measured in Lambert-93.  A hex is sea when less than
  ``sea_land_fraction`` of it is land.
* A river, stream or canal lies on a hexside when it crosses the straight
  line between the two hexes' centres: moving from one hex to the other
  crosses it.
* A road or railway links two hexes when its course runs from one to the
  other.  Each course is followed in small steps; where it passes through a
  hex vertex (jumping to a hex that is not adjacent), the hexes between are
  filled in along the hex line, so that every road and railway is a
  continuous chain of hexsides.
* A hexside that carries a road (railway) and a water crossing is a road
  (rail) bridge: a road crossing a river always crosses it on a bridge.
* A hexside is all-sea when the edge between the two hexes touches no land.

Maps are built once and cached on disk (``NORMANDY_LAB_CACHE``, default
``~/.cache/normandy_lab``); the cache key covers every input file, the code
that derives terrain and the configuration, so a change to any of them
rebuilds.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import pickle
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from normandy_lab.errors import RefusedError, UnknownNameError
from normandy_lab.geo import geography
from normandy_lab.grids import HexGrid, grid
from normandy_lab.grids.georef import metric_to_lonlat
from normandy_lab.grids.hexgrid import HEX_DIRECTIONS, Hex, hex_linedraw, hex_round_array, pixel_to_hex_array
from normandy_lab.paths import REPO_ROOT, map_file
from normandy_lab.terrain.vocab import BUILTUP_CLASSES, ROAD_CLASSES, WATER_CLASSES, vocabulary

# Every module a terrain map's content depends on (a test keeps the list complete): a change to any of
# them makes a new cache key, so a cached map is never one the code would no longer build.
_CODE_FILES = (
    "__init__.py",
    "errors.py",
    "geo/__init__.py",
    "geo/crs.py",
    "geo/gazetteer.py",
    "geo/geography.py",
    "grids/__init__.py",
    "grids/coastfit.py",
    "grids/georef.py",
    "grids/hexgrid.py",
    "grids/numbering.py",
    "paths.py",
    "terrain/__init__.py",
    "terrain/vocab.py",
    "yamllines.py",
)


@dataclass(frozen=True)
class TerrainConfig:
    """The numbers of the derivation; every one can be changed.

    Attributes
    ----------
    sea_land_fraction
        A hex with less land than this is a sea hex.
    builtup_fraction
        Share of a hex a built-up area must cover to give the hex its class
        (a city or town whose centre point lies in the hex counts anyway).
    cover_fraction
        Share of a hex that woods (or marsh) must cover for the hex to be
        woods (marsh).
    marsh_fraction
        Share of a hex that marsh or 1944 inundation must cover for the hex
        to be marsh/flooded.
    step_fraction
        Step, in hexes, at which road and railway courses are followed.
    inlet_fraction
        Share of the line between two land hex centres that must cross the
        sea for the hexside to be a water crossing (an estuary or inlet).
    mouth_extension_m
        How far a river that ends at the coast is continued out to sea, so
        that no hexside slips round its mouth.
    """

    sea_land_fraction: float = 0.5
    builtup_fraction: float = 0.25
    cover_fraction: float = 0.4
    marsh_fraction: float = 0.4
    step_fraction: float = 0.1
    inlet_fraction: float = 0.05
    mouth_extension_m: float = 1500.0
    vocabulary_options: dict[str, Any] = field(default_factory=dict)

    def key(self) -> str:
        """Return a stable text of the configuration, for cache keys."""
        return repr(sorted(asdict(self).items()))


@dataclass
class TerrainMap:
    """The terrain of one grid: hexes, hexsides and arrays (see the module docstring)."""

    system: str
    hexes: Any  # geopandas.GeoDataFrame
    hexsides: Any  # geopandas.GeoDataFrame
    arrays: dict[str, np.ndarray]
    config: TerrainConfig

    @property
    def grid(self) -> HexGrid:
        """The grid this map belongs to."""
        return grid(self.system)

    def hexside(self, a: str, b: str) -> pd.Series:
        """Return the hexside record between two adjacent hexes (any printed ids)."""
        g = self.grid
        key = _side_key(g.canonical(a), g.canonical(b))
        try:
            return self.hexsides.loc[key]
        except KeyError:
            raise UnknownNameError(f"{self.system}: {a} and {b} are not adjacent hexes on the map") from None

    def hex(self, hex_id: str) -> pd.Series:
        """Return the record of one hex (any printed id)."""
        return self.hexes.loc[self.grid.canonical(hex_id)]

    def bridges(self, water_name: str | None = None) -> pd.DataFrame:
        """Return the bridged hexsides (a road over water), optionally over one named river.

        Parameters
        ----------
        water_name
            A river, stream or canal as the geography names it (``"Vire"``,
            ``"Orne"``); None for every bridge.

        Raises
        ------
        KeyError
            When no hexside of this map carries water of that name (the
            message lists the names there are).
        """
        sides = self.hexsides
        bridged = sides[sides["road_bridge"].astype(bool)]
        if water_name is not None:
            names = sorted({str(n) for n in sides["water_name"] if n})
            if water_name not in names:
                raise UnknownNameError(
                    f"{self.system}: no water named {water_name!r} on the map; names are: {names}"
                )
            bridged = bridged[bridged["water_name"] == water_name]
        return pd.DataFrame(bridged[["a", "b", "water_feature", "water_name", "road"]]).rename_axis("hexside")

    def bridges_near(
        self, place: str | tuple[float, float], km: float = 5.0, water_name: str | None = None
    ) -> pd.DataFrame:
        """Return the bridges within ``km`` of a place, nearest first.

        Parameters
        ----------
        place
            A gazetteer name (``"Caen"``, any spelling :func:`normandy_lab.lookup` takes) or ``(lon, lat)``.
        km
            The radius, measured from the place to the middle of the bridged hexside.
        water_name
            Only bridges over this river (as in :meth:`bridges`).

        Returns
        -------
        pandas.DataFrame
            The columns of :meth:`bridges` plus ``km`` (distance) and ``bearing`` (from the place).
        """
        import math

        from normandy_lab.geo.gazetteer import compass_point, lookup, offset_km

        origin = lookup(place) if isinstance(place, str) else place
        bridges = self.bridges(water_name)
        g = self.grid
        distances, bearings = [], []
        for a, b in zip(bridges["a"], bridges["b"], strict=True):
            (lon_a, lat_a), (lon_b, lat_b) = g.center(a), g.center(b)
            east, north = offset_km(origin, (lon_a + lon_b) / 2, (lat_a + lat_b) / 2)
            distances.append(round(math.hypot(east, north), 2))
            bearings.append(compass_point(east, north))
        near = bridges.assign(km=distances, bearing=bearings)
        return near[near["km"] <= km].sort_values("km")


def _side_key(a: str, b: str) -> str:
    return f"{a}|{b}" if a < b else f"{b}|{a}"


# ---------------------------------------------------------------------------
# Geometry helpers


def _metric_polygons(g: HexGrid):
    frame = g.to_geodataframe().to_crs("EPSG:2154")
    return frame.geometry.values


def _area_fractions(hex_geoms, polygons, areas: np.ndarray) -> np.ndarray:
    """Share of each hex covered by the union of ``polygons`` (metric)."""
    import shapely

    out = np.zeros(len(hex_geoms))
    if len(polygons) == 0:
        return out
    union = shapely.union_all(polygons)
    tree = shapely.STRtree(hex_geoms)
    hits = np.unique(tree.query(union, predicate="intersects"))
    if len(hits):
        inter = shapely.intersection(hex_geoms[hits], union)
        out[hits] = shapely.area(inter) / areas[hits]
    return np.clip(out, 0.0, 1.0)


def _to_metric(frame):
    return frame.to_crs("EPSG:2154") if len(frame) else frame


class _Stages:
    """A progress bar that names the stage under way and counts finished ones."""

    def __init__(self, system: str, total: int) -> None:
        from tqdm.auto import tqdm

        self.system = system
        self.started = False
        self.bar = tqdm(total=total, desc=f"{system}: terrain", unit="stage", leave=False)

    def next_stage(self, text: str) -> None:
        if self.started:
            self.bar.update(1)
        self.started = True
        self.bar.set_description(f"{self.system} terrain: {text}")

    def close(self) -> None:
        if self.started:
            self.bar.update(1)
        self.bar.close()


# ---------------------------------------------------------------------------
# The build


def _hex_facts(g: HexGrid, config: TerrainConfig, bar) -> dict[str, np.ndarray]:
    import shapely

    geoms = _metric_polygons(g)
    areas = shapely.area(geoms)
    facts: dict[str, Any] = {}

    def step(text: str) -> None:
        if bar is not None:
            bar.next_stage(text)

    step("land and sea")
    land = _to_metric(geography.layer("land")).geometry.values
    facts["land_fraction"] = _area_fractions(geoms, land, areas)

    step("built-up areas")
    builtup = _to_metric(geography.layer("builtup"))
    places = geography.layer("places")
    code = np.zeros(len(geoms), dtype=np.int8)
    for level, name in enumerate(BUILTUP_CLASSES[1:], start=1):
        polys = builtup[builtup["class"] == name].geometry.values
        fraction = _area_fractions(geoms, polys, areas)
        facts[f"{name}_fraction"] = fraction
        code = np.where(fraction >= config.builtup_fraction, np.maximum(code, level), code)
    # The name of the built-up area covering most of each hex.
    builtup_name = np.full(len(geoms), "", dtype=object)
    best = np.zeros(len(geoms))
    if len(builtup):
        tree = shapely.STRtree(geoms)
        for name, polygon in zip(builtup["name"], builtup.geometry, strict=True):
            hits = tree.query(polygon, predicate="intersects")
            share = shapely.area(shapely.intersection(geoms[hits], polygon)) / areas[hits]
            better = share > best[hits]
            best[hits[better]] = share[better]
            builtup_name[hits[better]] = name
    # A city or town whose outline is small against the hex still marks the
    # hex that holds its centre.
    centres = builtup.geometry.representative_point()
    located = g.locate_array(*metric_to_lonlat(centres.x.values, centres.y.values))
    for hex_id, cls, name in zip(located, builtup["class"], builtup["name"], strict=True):
        if hex_id is not None:
            i = g.index(hex_id)
            if BUILTUP_CLASSES.index(cls) > code[i]:
                code[i] = BUILTUP_CLASSES.index(cls)
                builtup_name[i] = name
    facts["builtup"] = code
    facts["builtup_name"] = builtup_name
    facts["hex_id"] = np.array(g.ids(), dtype=object)

    step("land cover")
    cover = _to_metric(geography.layer("landcover"))
    for name in ("bocage", "open", "forest"):
        facts[f"{name}_fraction"] = _area_fractions(
            geoms, cover[cover["class"] == name].geometry.values, areas
        )

    step("marsh and inundations")
    wet = _to_metric(geography.layer("wetlands"))
    facts["marsh_fraction"] = _area_fractions(geoms, wet.geometry.values, areas)
    facts["inundation_fraction"] = _area_fractions(
        geoms, wet[wet["class"] == "inundation"].geometry.values, areas
    )

    step("heights")
    heights = geography.layer("heights")
    height = np.full(len(geoms), np.nan)
    hill_names = np.full(len(geoms), "", dtype=object)
    if len(heights):
        points = heights.geometry.representative_point()
        located = g.locate_array(points.x.values, points.y.values)
        elevations = (
            heights["elevation_m"] if "elevation_m" in heights else pd.Series(np.nan, index=heights.index)
        )
        for hex_id, name, elevation in zip(located, heights["name"], elevations, strict=True):
            if hex_id is None:
                continue
            i = g.index(hex_id)
            elevation = float(elevation) if pd.notna(elevation) else np.nan
            if np.isnan(height[i]) or elevation > height[i]:
                height[i] = elevation
            hill_names[i] = f"{hill_names[i]}; {name}" if hill_names[i] else name
    facts["height_m"] = height
    facts["hills"] = hill_names

    step("beaches")
    coast = _to_metric(geography.layer("coast_features"))
    beaches = coast[coast["class"].isin(["beach", "sector"])]
    beach_name = np.full(len(geoms), "", dtype=object)
    if len(beaches):
        tree = shapely.STRtree(geoms)
        owners = beaches["beach"] if "beach" in beaches else pd.Series("", index=beaches.index)
        for name, cls, owner, geometry in zip(
            beaches["name"], beaches["class"], owners.fillna(""), beaches.geometry, strict=True
        ):
            label = name if cls == "beach" else f"{owner} {name}".strip()
            for i in tree.query(geometry, predicate="intersects"):
                beach_name[i] = f"{beach_name[i]}; {label}" if beach_name[i] else label
    facts["beach"] = beach_name

    step("places")
    place_name = np.full(len(geoms), "", dtype=object)
    best_pop = np.full(len(geoms), -1)
    places = places[places["kind"].isin(["populated place", "village", "hamlet", "town"])]
    located = g.locate_array(places.geometry.x.values, places.geometry.y.values)
    for hex_id, name, population in zip(located, places["name"], places["population"], strict=True):
        if hex_id is None:
            continue
        i = g.index(hex_id)
        if population > best_pop[i]:
            best_pop[i], place_name[i] = population, name
    facts["place"] = place_name
    # A village: a populated place (GeoNames, 500+ people, or a hand-listed
    # village or hamlet) stands in the hex.
    facts["village_point"] = best_pop >= 0
    return facts


def _adjacent_pairs(g: HexGrid) -> tuple[np.ndarray, np.ndarray]:
    left, right = [], []
    for i, (q, r) in enumerate(zip(g.q.tolist(), g.r.tolist(), strict=True)):
        for d in HEX_DIRECTIONS[:3]:
            j = g.index_of_axial.get((q + d.q, r + d.r))
            if j is not None:
                left.append(i)
                right.append(j)
    return np.array(left, dtype=np.int64), np.array(right, dtype=np.int64)


def _course_links(g: HexGrid, lines, config: TerrainConfig) -> list[list[tuple[int, int]]]:
    """For each line (metric), the chain of adjacent hex pairs it runs through."""
    import shapely

    step = g.georeference.hex_size_m * config.step_fraction
    links = []
    for line in lines:
        length = shapely.length(line)
        n = max(2, int(np.ceil(length / step)) + 1)
        pts = shapely.line_interpolate_point(line, np.linspace(0.0, length, n))
        x, y = shapely.get_x(pts), shapely.get_y(pts)
        px, py = g.georeference.metric_to_plane(x, y)
        fq, fr = pixel_to_hex_array(g.layout, px, -py)
        q, r = hex_round_array(fq, fr)
        chain: list[tuple[int, int]] = []
        previous: Hex | None = None
        for qq, rr in zip(q.tolist(), r.tolist(), strict=True):
            here = Hex(qq, rr)
            if here == previous:
                continue
            if previous is not None:
                path = hex_linedraw(previous, here)
                for a, b in itertools.pairwise(path):
                    ia = g.index_of_axial.get((a.q, a.r))
                    ib = g.index_of_axial.get((b.q, b.r))
                    if ia is not None and ib is not None:
                        chain.append((ia, ib))
            previous = here
        links.append(chain)
    return links


def _extend_mouth(line, land, length: float):
    """Continue a river that ends at the coast a little way out to sea.

    A river digitised to its mouth stops on the shoreline; a hexside whose
    centre line passes just seaward of that point would slip round it.
    Continuing the last segment ``length`` metres into the sea closes the gap
    (a line over the sea changes nothing else: sea hexsides are all-sea).
    """
    import shapely

    coords = np.asarray(line.coords)
    end = shapely.Point(coords[-1])
    if length <= 0 or (land.boundary.distance(end) > 500.0 and land.contains(end)):
        return line
    direction = coords[-1] - coords[-2]
    norm = float(np.hypot(*direction))
    if norm == 0:
        return line
    tip = coords[-1] + direction / norm * length
    return shapely.LineString([*coords, tip])


def _attach_crossings(lines, chains, rivers, side, cx, cy, water, water_name) -> np.ndarray:
    """Put each real crossing of a road (railway) over water on the road's own hexside.

    A road may cross a river inside a hex (Pegasus Bridge lies in the same
    BfN hex as Bénouville).  The crossing then belongs to the road's link
    from that hex to the next one: the link whose centre line passes
    nearest the crossing gets the river, and is a bridge.  Returns the mask
    of hexsides that received a crossing.
    """
    import shapely

    crossed = np.zeros(len(water), dtype=bool)
    if not len(rivers):
        return crossed
    tree = shapely.STRtree(rivers.geometry.values)
    names, classes = rivers["name"].to_numpy(), rivers["class"].to_numpy()
    for line, chain in zip(lines, chains, strict=True):
        links = [(k, a, b) for a, b in chain if (k := side(a, b)) is not None]
        if not links:
            continue
        segments = shapely.linestrings([[(cx[a], cy[a]), (cx[b], cy[b])] for _, a, b in links])
        for r in tree.query(line, predicate="intersects"):
            points = shapely.get_parts(shapely.intersection(line, rivers.geometry.values[r]))
            for point in points:
                where = point if point.geom_type == "Point" else point.representative_point()
                k = links[int(np.argmin(shapely.distance(segments, where)))][0]
                level = WATER_CLASSES.index(classes[r])
                water[k] = max(water[k], level)
                if names[r] not in water_name[k].split("; "):
                    water_name[k] = f"{water_name[k]}; {names[r]}" if water_name[k] else names[r]
                crossed[k] = True
    return crossed


def _hexside_facts(g: HexGrid, config: TerrainConfig, bar, text_roads=()) -> dict[str, np.ndarray]:
    import shapely

    def step(text: str) -> None:
        if bar is not None:
            bar.next_stage(text)

    step("hexsides")
    left, right = _adjacent_pairs(g)
    px, py = g.plane(g.q, g.r)
    cx, cy = g.georeference.plane_to_metric(px, py)
    centre_segments = shapely.linestrings(
        np.stack([np.column_stack([cx[left], cy[left]]), np.column_stack([cx[right], cy[right]])], axis=1)
    )
    # The shared edge: perpendicular to the centre line, through its middle,
    # one side long (the circumradius).
    mx, my = (cx[left] + cx[right]) / 2, (cy[left] + cy[right]) / 2
    dx, dy = cx[right] - cx[left], cy[right] - cy[left]
    length = np.hypot(dx, dy)
    half = g.georeference.hex_size_m / np.sqrt(3.0) / 2.0
    ux, uy = -dy / length * half, dx / length * half
    edges = shapely.linestrings(
        np.stack([np.column_stack([mx - ux, my - uy]), np.column_stack([mx + ux, my + uy])], axis=1)
    )
    index_of_pair = {(int(a), int(b)): k for k, (a, b) in enumerate(zip(left, right, strict=True))}

    def side(a: int, b: int) -> int | None:
        return index_of_pair.get((a, b), index_of_pair.get((b, a)))

    n = len(left)
    step("rivers, streams and canals")
    water = np.zeros(n, dtype=np.int8)
    water_name = np.full(n, "", dtype=object)
    rivers = _to_metric(geography.layer("rivers"))
    land = shapely.union_all(_to_metric(geography.layer("land")).geometry.values)
    shapely.prepare(land)
    if len(rivers):
        tree = shapely.STRtree(centre_segments)
        mouths = [_extend_mouth(line, land, config.mouth_extension_m) for line in rivers.geometry]
        for name, cls, geometry in zip(rivers["name"], rivers["class"], mouths, strict=True):
            level = WATER_CLASSES.index(cls)
            for k in tree.query(geometry, predicate="intersects"):
                if level > water[k]:
                    water[k] = level
                    water_name[k] = name
                elif level == water[k] and name not in water_name[k].split("; "):
                    water_name[k] = f"{water_name[k]}; {name}"

    step("sea")
    all_sea = ~shapely.intersects(land, edges)
    # An estuary or inlet: both centres on land, but the line between them
    # crosses open water (the Orne mouth, the Baie des Veys).  It is a water
    # crossing like a major river.
    centres_on_land = shapely.contains_xy(land, cx, cy)
    both = centres_on_land[left] & centres_on_land[right]
    if both.any():
        wet_share = np.zeros(n)
        idx = np.nonzero(both)[0]
        seg = centre_segments[idx]
        wet_share[idx] = shapely.length(shapely.difference(seg, land)) / shapely.length(seg)
        inlet = both & (wet_share >= config.inlet_fraction)
        level = WATER_CLASSES.index("major_river")
        water_name[inlet & (water < level)] = "sea inlet"
        water[inlet] = np.maximum(water[inlet], level)

    step("roads")
    road = np.zeros(n, dtype=np.int8)
    road_name = np.full(n, "", dtype=object)
    roads = _to_metric(geography.layer("roads"))
    chains = _course_links(g, roads.geometry.values, config)
    for name, cls, chain in zip(roads["name"], roads["class"], chains, strict=True):
        level = ROAD_CLASSES.index(cls)
        for a, b in chain:
            k = side(a, b)
            if k is None:
                continue
            road[k] = max(road[k], level)
            if name not in road_name[k].split("; "):
                road_name[k] = f"{road_name[k]}; {name}" if road_name[k] else name
    road_crossings = _attach_crossings(roads.geometry.values, chains, rivers, side, cx, cy, water, water_name)
    from_text = _text_roads(g, text_roads, side, road, road_name)

    step("railways")
    railway = np.zeros(n, dtype=bool)
    railway_name = np.full(n, "", dtype=object)
    rails = _to_metric(geography.layer("railways"))
    chains = _course_links(g, rails.geometry.values, config)
    for name, chain in zip(rails["name"], chains, strict=True):
        for a, b in chain:
            k = side(a, b)
            if k is None:
                continue
            railway[k] = True
            if name not in railway_name[k].split("; "):
                railway_name[k] = f"{railway_name[k]}; {name}" if railway_name[k] else name
    rail_crossings = _attach_crossings(rails.geometry.values, chains, rivers, side, cx, cy, water, water_name)

    step("beaches")
    coast = _to_metric(geography.layer("coast_features"))
    beach_lines = coast[coast["class"] == "beach"].geometry.values
    beach = np.zeros(n, dtype=bool)
    if len(beach_lines):
        beach = shapely.intersects(shapely.union_all(beach_lines), edges)

    return {
        "left": left,
        "right": right,
        "edges": edges,
        "water": water,
        "water_name": water_name,
        "road": road,
        "road_name": road_name,
        "railway": railway,
        "railway_name": railway_name,
        "road_bridge": ((road > 0) & (water > 0)) | road_crossings,
        "rail_bridge": (railway & (water > 0)) | rail_crossings,
        "all_sea": all_sea,
        "beach": beach,
        "from_text": from_text,
    }


def _text_roads(g: HexGrid, text_roads, side, road: np.ndarray, road_name: np.ndarray) -> np.ndarray:
    """Lay the roads a game's text runs through given hexes (``TextRoad``); return each hexside's rule.

    The text is the authority where it states a road's course: each hexside between two successive
    hexes carries the road (keeping a better class it has), and says which rule put it there.
    """
    from_text = np.full(len(road), "", dtype=object)
    for entry in text_roads:
        level = ROAD_CLASSES.index(entry.road)
        for a, b in itertools.pairwise(entry.hexes):
            k = side(g.index(a), g.index(b))
            if k is None:
                raise RefusedError(f"{g.system}: {entry.rule} runs a road from {a} to {b}: not adjacent")
            road[k] = max(road[k], level)
            if entry.name not in road_name[k].split("; "):
                road_name[k] = f"{road_name[k]}; {entry.name}" if road_name[k] else entry.name
            from_text[k] = f"{entry.rule}: {entry.says}"
    return from_text


def build_terrain_map(system: str, config: TerrainConfig | None = None, progress: bool = True) -> TerrainMap:
    """Derive the terrain of ``system``'s grid from geography (no cache)."""
    import geopandas as gpd

    config = config or TerrainConfig()
    g = grid(system)
    bar = _Stages(system, 14) if progress else None
    try:
        facts = _hex_facts(g, config, bar)
        words = vocabulary(system)
        sides = _hexside_facts(g, config, bar, words.text_roads)
        if bar is not None:
            bar.next_stage("terrain types")
        labels = words.classify_hexes(facts, config)
        side_labels = words.classify_hexsides(sides, facts, config)
    finally:
        if bar is not None:
            bar.close()
    ids = np.array(g.ids(), dtype=object)
    polygons = g.to_geodataframe()
    hex_columns = {key: value for key, value in facts.items()}
    hex_columns["builtup"] = np.array(BUILTUP_CLASSES, dtype=object)[facts["builtup"]]
    hex_columns.update(labels)
    hexes = gpd.GeoDataFrame(
        {"hex_id": ids, "sheet": polygons["sheet"].values, **hex_columns},
        geometry=polygons.geometry.values,
        crs="EPSG:4326",
        index=pd.Index(ids, name="id"),
    )
    left, right = sides["left"], sides["right"]
    a, b = ids[left], ids[right]
    keys = [_side_key(x, y) for x, y in zip(a, b, strict=True)]
    edge_lonlat = gpd.GeoSeries(sides["edges"], crs="EPSG:2154").to_crs("EPSG:4326")
    hexsides = gpd.GeoDataFrame(
        {
            "a": a,
            "b": b,
            "water": np.array(WATER_CLASSES, dtype=object)[sides["water"]],
            "water_name": sides["water_name"],
            "road": np.array(ROAD_CLASSES, dtype=object)[sides["road"]],
            "road_name": sides["road_name"],
            "railway": sides["railway"],
            "railway_name": sides["railway_name"],
            "road_bridge": sides["road_bridge"],
            "rail_bridge": sides["rail_bridge"],
            "all_sea": sides["all_sea"],
            "beach": sides["beach"],
            "from_text": sides["from_text"],
            **side_labels,
        },
        geometry=edge_lonlat.values,
        crs="EPSG:4326",
        index=pd.Index(keys, name="side"),
    )
    arrays = {
        "land_fraction": facts["land_fraction"],
        "builtup": facts["builtup"],
        "marsh_fraction": facts["marsh_fraction"],
        "forest_fraction": facts["forest_fraction"],
        "bocage_fraction": facts["bocage_fraction"],
        "open_fraction": facts["open_fraction"],
        "height_m": facts["height_m"],
        "terrain": words.codes(labels["terrain"]),
        "side_left": left,
        "side_right": right,
        "side_water": sides["water"],
        "side_road": sides["road"],
        "side_railway": sides["railway"],
        "side_all_sea": sides["all_sea"],
        "side_road_bridge": sides["road_bridge"],
        "side_rail_bridge": sides["rail_bridge"],
    }
    return TerrainMap(system=system, hexes=hexes, hexsides=hexsides, arrays=arrays, config=config)


# ---------------------------------------------------------------------------
# Cache


def cache_dir() -> Path:
    """Return the terrain cache directory (``NORMANDY_LAB_CACHE`` or ``~/.cache/normandy_lab``)."""
    configured = os.environ.get("NORMANDY_LAB_CACHE")
    base = Path(configured) if configured else Path.home() / ".cache" / "normandy_lab"
    return base / "terrain"


def cache_path(system: str, config: TerrainConfig | None = None) -> Path:
    """Return the file the terrain map of ``system`` is cached in, for the code and data as they are now.

    The name carries :func:`cache_key`, so two machines with the same package and data name the same file:
    a sweep ships this file to a worker whose cache lacks it (:mod:`normandy_lab.sweeps.tables`), and a
    cache directory shared by the workers (``NORMANDY_LAB_CACHE``) serves them all.
    """
    config = config or TerrainConfig()
    return cache_dir() / f"{system}-{_current_key(system, config)}.pickle"


def _data_files() -> list[Path]:
    """Return the data files a terrain map depends on: geography and the grid's placement."""
    return [
        *geography.input_files(),
        map_file("grids", "control_points.yaml"),
        map_file("grids", "coast_hexes.yaml"),
    ]


def _code_digest() -> bytes:
    """Return the hash of the code a terrain map is derived by, as this process loaded it."""
    digest = hashlib.sha256()
    for name in _CODE_FILES:
        digest.update((REPO_ROOT / "normandy_lab" / name).read_bytes())
    return digest.digest()


# The code's part of the key is read once, as the package is imported: a process keeps the key of the code it
# runs.  Read at each call, a process started before an edit of the code would save a map built by the old
# code under the new code's key, for every later process to trust.
_CODE_DIGEST = _code_digest()


def cache_key(system: str, config: TerrainConfig) -> str:
    """Return the hash of everything a terrain map depends on: the data as it is now, the code as loaded."""
    digest = hashlib.sha256()
    digest.update(system.encode())
    digest.update(config.key().encode())
    for path in _data_files():
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    digest.update(_map_data(system).encode())
    digest.update(_CODE_DIGEST)
    return digest.hexdigest()[:20]


def _map_data(system: str) -> str:
    """Return the map's own data by value (scheme, vocabulary, control points), for the cache key.

    A game's package may bring its map (``normandy_lab.rules.register_game``), outside the files above: its
    data then keys its terrain maps by what it is, not by where it is written.
    """
    from normandy_lab.grids.georef import control_points
    from normandy_lab.grids.numbering import scheme

    return repr((scheme(system), vocabulary(system), control_points(system)))


_MEMORY: dict[tuple[str, str], TerrainMap] = {}
_STAMPS: dict[tuple[str, str], tuple[tuple[float, ...], str]] = {}
_CHECKED: dict[tuple[str, str], float] = {}


def forget() -> None:
    """Forget the terrain maps held in memory and the input checks (the disk cache stays)."""
    _MEMORY.clear()
    _STAMPS.clear()
    _CHECKED.clear()


def _current_key(system: str, config: TerrainConfig) -> str:
    """Return the cache key, recomputed only when an input file's modification time changed."""
    memo = (system, config.key())
    known = _STAMPS.get(memo)
    # Inputs are looked at again at most every second: enough to notice an
    # edited data file, cheap for code that asks for the map many times.
    if known is not None and time.monotonic() - _CHECKED.get(memo, 0.0) < 1.0:
        return known[1]
    stamp = tuple(path.stat().st_mtime_ns for path in _data_files())
    _CHECKED[memo] = time.monotonic()
    if known is not None and known[0] == stamp:
        return known[1]
    key = cache_key(system, config)
    _STAMPS[memo] = (stamp, key)
    return key


def terrain_map(system: str, config: TerrainConfig | None = None, progress: bool = True) -> TerrainMap:
    """Return the :class:`TerrainMap` of ``system``, from the cache when it is current.

    The first call for a system (or after any input changed) derives the map
    and saves it under :func:`cache_dir`; later calls load it.  Input files
    are checked at most once a second; :func:`forget` makes a change count
    at once.
    """
    config = config or TerrainConfig()
    key = _current_key(system, config)
    if (system, key) in _MEMORY:
        return _MEMORY[(system, key)]
    path = cache_dir() / f"{system}-{key}.pickle"  # as cache_path() names it
    if path.exists():
        try:
            with open(path, "rb") as handle:
                result = pickle.load(handle)
        except Exception:  # a damaged cache file is rebuilt, never trusted
            path.unlink(missing_ok=True)
            result = None
        if isinstance(result, TerrainMap):
            _MEMORY[(system, key)] = result
            return result
    result = build_terrain_map(system, config, progress=progress)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(f".tmp{os.getpid()}")
    with open(temporary, "wb") as handle:
        pickle.dump(result, handle, protocol=pickle.HIGHEST_PROTOCOL)
    os.replace(temporary, path)  # atomic: a crash never leaves a partial cache file
    _MEMORY[(system, key)] = result
    return result
