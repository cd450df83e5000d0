"""The grids room: each rule system's georeferenced hex grid, ``normandy_lab.grid(system)``.

A :class:`HexGrid` joins a numbering :class:`~normandy_lab.grids.numbering.Scheme`
(the printed ids and the sheets), the hex lattice (:mod:`normandy_lab.grids.hexgrid`)
and a :class:`~normandy_lab.grids.georef.Georeference` fitted to the system's
control points.  Every visible hex of every sheet gets a dense index, so that
rules can work on numpy arrays.
"""

from __future__ import annotations

from functools import cache, cached_property
from types import MappingProxyType
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from normandy_lab.errors import RefusedError
from normandy_lab.geo import gazetteer
from normandy_lab.geo.crs import lonlat_to_metric, metric_to_lonlat
from normandy_lab.grids.coastfit import (
    SIDE_BANDS,
    CoastHex,
    band_target,
    coast_hexes,
    fit_with_coast,
    shoreline,
)
from normandy_lab.grids.georef import (
    ControlPoint,
    Georeference,
    control_points,
    fit_similarity,
)
from normandy_lab.grids.hexgrid import (
    HEX_DIRECTIONS,
    LAYOUT_FLAT,
    LAYOUT_POINTY,
    Hex,
    Layout,
    hex_distance,
    hex_round_array,
    hex_to_pixel_array,
    pixel_to_hex_array,
    polygon_corners_array,
    qoffset_from_cube_array,
    qoffset_to_cube_array,
    roffset_from_cube_array,
    roffset_to_cube_array,
)
from normandy_lab.grids.numbering import HexIdError, Scheme, scheme

if TYPE_CHECKING:  # geopandas is imported when a frame is asked for (it is slow to import)
    import geopandas

# Names of the axial directions of hexgrid.HEX_DIRECTIONS on the map (the
# layout plane has y pointing south).
POINTY_DIRECTIONS = ("E", "NE", "NW", "W", "SW", "SE")
FLAT_DIRECTIONS = ("SE", "NE", "N", "NW", "SW", "S")


def layout_of(hex_scheme: Scheme) -> Layout:
    """Return the unit :class:`~normandy_lab.grids.hexgrid.Layout` of a scheme's orientation."""
    return Layout(LAYOUT_POINTY if hex_scheme.orientation == "pointy" else LAYOUT_FLAT)


def global_to_axial(hex_scheme: Scheme, gcol: np.ndarray, grow: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Convert global offset coordinates of a scheme's lattice to axial ones."""
    if hex_scheme.orientation == "pointy":
        return roffset_to_cube_array(hex_scheme.offset, gcol, grow)
    return qoffset_to_cube_array(hex_scheme.offset, gcol, grow)


def plane_of_ids(hex_scheme: Scheme, hex_ids: tuple[str, ...] | list[str]) -> tuple[float, float]:
    """Return the lattice-plane centroid (``y`` north) of one or more printed ids."""
    cols, rows = zip(*(hex_scheme.to_global(h) for h in hex_ids), strict=True)
    q, r = global_to_axial(hex_scheme, np.array(cols), np.array(rows))
    x, y = hex_to_pixel_array(layout_of(hex_scheme), q, r)
    return float(x.mean()), float(-y.mean())


# RMS distance from the centre of a regular hexagon to a point spread
# uniformly over it, in hexes across the flats: sqrt(5/36).
HEX_QUANTISATION_RMS = (5.0 / 36.0) ** 0.5


def control_sigma(hex_scheme: Scheme, point: ControlPoint) -> float:
    """Return the standard error (metres) of a control point.

    Two independent errors add: the place's own accuracy (from the
    gazetteer) and where inside its hex the place may lie (a single hex:
    0.37 hex RMS; a group of n hexes: that divided by sqrt(n)).
    """
    accuracy = gazetteer.place(point.place).accuracy_m
    quantisation = HEX_QUANTISATION_RMS * hex_scheme.hex_size_m / len(point.hex_ids) ** 0.5
    return float((accuracy**2 + quantisation**2) ** 0.5)


def fit_control_points(
    hex_scheme: Scheme,
    points: list[ControlPoint] | tuple[ControlPoint, ...],
    printed_size: bool = False,
    coast: list[CoastHex] | tuple[CoastHex, ...] = (),
) -> tuple[Georeference, np.ndarray, np.ndarray, np.ndarray]:
    """Fit a scheme's placement to control points by weighted least squares.

    With ``printed_size`` (or a single point) the hex size is held at the
    rulebook's printed scale and only origin and rotation are fitted.  Coastal
    hexes (:mod:`normandy_lab.grids.coastfit`), when given, add one equation each:
    the hex centre's distance from the shoreline.

    Returns
    -------
    tuple
        The :class:`~normandy_lab.grids.georef.Georeference`, the points' lattice-plane
        coordinates ``(n, 2)``, their Lambert-93 coordinates ``(n, 2)`` and
        their standard errors ``(n,)``.

    Raises
    ------
    ValueError
        With no point, or coastal hexes together with a held hex size or
        fewer than two points.
    """
    if not points:
        raise ValueError(
            f"{hex_scheme.system}: no control point is marked 'fit' in maps/grids/control_points.yaml"
        )
    plane = np.array([plane_of_ids(hex_scheme, p.hex_ids) for p in points])
    lon, lat = zip(*(gazetteer.lookup(p.place) for p in points), strict=True)
    X, Y = lonlat_to_metric(lon, lat)
    metric = np.column_stack([X, Y])
    sigma = np.array([control_sigma(hex_scheme, p) for p in points])
    # One point fixes the origin only: hold the printed hex size, grid north up.
    fixed = hex_scheme.hex_size_m / np.sqrt(3.0) if printed_size or len(points) < 2 else None
    if not coast:
        return fit_similarity(plane, metric, scale=fixed, sigma=sigma), plane, metric, sigma
    if fixed is not None:
        raise ValueError(
            f"{hex_scheme.system}: coastal hexes need a free hex size and at least two fit points"
        )
    targets = [band_target(c.side, hex_scheme.hex_size_m) for c in coast]
    geo = fit_with_coast(
        plane,
        metric,
        sigma,
        np.array([plane_of_ids(hex_scheme, [c.hex_id]) for c in coast]),
        [t[0] for t in targets],
        [t[1] for t in targets],
        shoreline(),
    )
    return geo, plane, metric, sigma


class HexGrid:
    """A rule system's hex grid placed on the Earth.

    Use :func:`grid` to get one; grids are cached.

    Parameters
    ----------
    hex_scheme
        The numbering scheme, with every sheet placed on the lattice.
    """

    def __init__(self, hex_scheme: Scheme) -> None:
        self.scheme = hex_scheme
        self.system = hex_scheme.system
        self.layout = layout_of(hex_scheme)
        self._build_index()

    # -- lattice ----------------------------------------------------------

    def _global_to_axial(self, gcol: np.ndarray, grow: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return global_to_axial(self.scheme, gcol, grow)

    def _axial_to_global(self, q: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.scheme.orientation == "pointy":
            return roffset_from_cube_array(self.scheme.offset, q, r)
        return qoffset_from_cube_array(self.scheme.offset, q, r)

    def _plane(self, q: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        # The layout plane has y down (south); the georeference wants y north.
        x, y = hex_to_pixel_array(self.layout, q, r)
        return x, -y

    def _build_index(self) -> None:
        best: dict[tuple[int, int], tuple[int, str, str]] = {}
        for sheet in self.scheme.sheets.values():
            rows = np.arange(sheet.rows[0], sheet.rows[1] + 1)
            cols = np.arange(sheet.cols[0], sheet.cols[1] + 1)
            for row in rows:
                for col in cols:
                    if not sheet.contains(int(row), int(col)):
                        continue
                    key = sheet.to_global(int(row), int(col))
                    current = best.get(key)
                    if current is None or sheet.stacking > current[0]:
                        best[key] = (
                            sheet.stacking,
                            sheet.letter,
                            self.scheme.format(sheet.letter, int(row), int(col)),
                        )
        keys = sorted(best, key=lambda k: (k[1], k[0]))
        gcol = np.array([k[0] for k in keys], dtype=np.int64)
        grow = np.array([k[1] for k in keys], dtype=np.int64)
        q, r = self._global_to_axial(gcol, grow)
        self._ids = np.array([best[k][2] for k in keys], dtype=object)
        self._sheets = np.array([best[k][1] for k in keys], dtype=object)
        self._q, self._r = q, r
        self._gcol, self._grow = gcol, grow
        self._index_of_axial = {(int(a), int(b)): i for i, (a, b) in enumerate(zip(q, r, strict=True))}
        self._index_of_id = {hex_id: i for i, hex_id in enumerate(self._ids)}
        for array in (self._ids, self._sheets, self._q, self._r, self._gcol, self._grow):
            array.flags.writeable = False  # published below, and shared by every state of the map

    # -- the dense index: the plug-in API's view of the grid ---------------
    #
    # Rules work on numpy arrays indexed by the dense hex index.  These read-only views are what a
    # game may use (see docs/architecture.md, "The plug-in API"); everything with a leading
    # underscore is the grid's own and may change.

    @property
    def id_array(self) -> np.ndarray:
        """The canonical id of every hex, as a read-only object array in dense-index order.

        ``g.id_array[i]`` is the id of hex ``i``; index it with a mask or an index array to turn
        the result of an array rule into ids.  :meth:`ids` gives the same ids as a new list.

        Examples
        --------
        >>> g = grid("bfn")
        >>> str(g.id_array[g.index("A4118")])
        'A4118'
        """
        return self._ids

    @property
    def index_of(self) -> MappingProxyType[str, int]:
        """A read-only mapping from each canonical id to its dense index.

        Faster than :meth:`index` inside a loop, but it knows canonical ids only (the ids of
        :attr:`id_array`, upper case); :meth:`index` also accepts a hex's id on a sheet beneath.
        """
        return MappingProxyType(self._index_of_id)

    @property
    def index_of_axial(self) -> MappingProxyType[tuple[int, int], int]:
        """A read-only mapping from each hex's axial ``(q, r)`` on the global lattice to its dense index."""
        return MappingProxyType(self._index_of_axial)

    @property
    def q(self) -> np.ndarray:
        """The axial ``q`` of every hex on the global lattice (read-only, dense-index order)."""
        return self._q

    @property
    def r(self) -> np.ndarray:
        """The axial ``r`` of every hex on the global lattice (read-only, dense-index order)."""
        return self._r

    @property
    def global_col(self) -> np.ndarray:
        """The global offset column of every hex (it grows eastwards; read-only, dense-index order)."""
        return self._gcol

    @property
    def global_row(self) -> np.ndarray:
        """The global offset row of every hex (it grows southwards; read-only, dense-index order)."""
        return self._grow

    @property
    def sheet_array(self) -> np.ndarray:
        """The letter of the sheet each hex is visible on (read-only object array, dense-index order)."""
        return self._sheets

    def plane(self, q: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return the layout-plane ``(x, y)`` of axial coordinates, y pointing north.

        :attr:`georeference` takes these to metres (``plane_to_metric``).
        """
        return self._plane(q, r)

    # -- ids and adjacency ------------------------------------------------

    def ids(self) -> list[str]:
        """Return the canonical id of every hex (the id printed on the visible sheet)."""
        return list(self._ids)

    def __len__(self) -> int:
        return len(self._ids)

    def __contains__(self, hex_id: object) -> bool:
        try:
            self.index(str(hex_id))
        except HexIdError:
            return False
        return True

    def axial(self, hex_id: str) -> Hex:
        """Return the axial coordinates of a printed id on the global lattice."""
        gcol, grow = self.scheme.to_global(hex_id)
        q, r = self._global_to_axial(np.array([gcol]), np.array([grow]))
        return Hex(int(q[0]), int(r[0]))

    def index(self, hex_id: str) -> int:
        """Return the dense index of a hex (any of its printed ids is accepted)."""
        try:
            found = self._index_of_id.get(hex_id.strip().upper())
        except AttributeError:  # not text (None, a number): refused, not a defect
            raise HexIdError(f"{self.system}: {hex_id!r:.80} is not a hex id; give it as text") from None
        if found is not None:
            return found
        h = self.axial(hex_id)
        found = self._index_of_axial.get((h.q, h.r))
        if found is None:  # pragma: no cover - parse() already rejects off-sheet ids
            raise HexIdError(f"{self.system}: {hex_id!r} is not on the map")
        return found

    def canonical(self, hex_id: str) -> str:
        """Return the visible id of a hex given any of its printed ids.

        Where sheets overlap, a hex has an id on each sheet; the one on the
        top sheet (rule of each system's sheet arrangement) is canonical.
        """
        return str(self._ids[self.index(hex_id)])

    def aliases(self, hex_id: str) -> list[str]:
        """Return every printed id of a hex, the visible one first."""
        i = self.index(hex_id)
        return self.scheme.ids_at(int(self._gcol[i]), int(self._grow[i]))

    def _printed_id(self, j: int, letter: str) -> str:
        """Return the id of hex ``j`` as printed on sheet ``letter``, else its canonical id."""
        sheet = self.scheme.sheets[letter]
        row, col = sheet.from_global(int(self._gcol[j]), int(self._grow[j]))
        if sheet.contains(row, col):
            return self.scheme.format(letter, row, col)
        return str(self._ids[j])

    def neighbors(self, hex_id: str) -> list[str]:
        """Return the ids of the hexes adjacent to ``hex_id`` that are on the map.

        Ids are given as printed on the sheet of ``hex_id`` where that sheet
        has the neighbour (where sheets overlap, a hex has an id on each);
        elsewhere the visible sheet's id is given.
        """
        letter = self.scheme.parse(hex_id)[0]
        i = self.index(hex_id)
        q, r = int(self._q[i]), int(self._r[i])
        result = []
        for d in HEX_DIRECTIONS:
            j = self._index_of_axial.get((q + d.q, r + d.r))
            if j is not None:
                result.append(self._printed_id(j, letter))
        return result

    def directions(self) -> tuple[str, ...]:
        """Return the six direction names of this grid, in axial-direction order.

        Pointy-top grids (``bfn``, ``kg``) have hexsides facing E and W;
        flat-top grids (``cobra``, ``gts``) have hexsides facing N and S.
        Directions are those of the printed map's north.
        """
        return POINTY_DIRECTIONS if self.scheme.orientation == "pointy" else FLAT_DIRECTIONS

    def step(self, hex_id: str, direction: str, count: int = 1) -> str | None:
        """Return the hex ``count`` steps from ``hex_id`` towards ``direction``.

        Returns None when that hex is off the maps.  The id is given as
        printed on the sheet of ``hex_id`` where that sheet has it.
        """
        names = self.directions()
        key = direction.upper()
        if key not in names:
            raise RefusedError(f"{self.system}: direction {direction!r} is not one of {', '.join(names)}")
        d = HEX_DIRECTIONS[names.index(key)]
        h = self.axial(hex_id)
        j = self._index_of_axial.get((h.q + d.q * count, h.r + d.r * count))
        return None if j is None else self._printed_id(j, self.scheme.parse(hex_id)[0])

    def distance(self, a: str, b: str) -> int:
        """Return the distance in hexes between two hexes."""
        return hex_distance(self.axial(a), self.axial(b))

    def sheet_of(self, hex_id: str) -> str:
        """Return the letter of the sheet on which the hex is visible."""
        return str(self._sheets[self.index(hex_id)])

    # -- georeference ----------------------------------------------------

    @cached_property
    def georeference(self) -> Georeference:
        """The similarity transform fitted to this system's ``fit`` control points and coastal hexes.

        Weighted least squares (:func:`fit_control_points`): each point counts
        by the inverse square of its standard error.
        """
        points = [p for p in control_points(self.system) if p.use == "fit"]
        coast = [c for c in coast_hexes(self.system) if c.use == "fit"]
        return fit_control_points(self.scheme, points, coast=coast)[0]

    def _plane_of_point(self, point: ControlPoint) -> tuple[float, float]:
        return plane_of_ids(self.scheme, point.hex_ids)

    def _plane_of_id(self, hex_id: str) -> tuple[float, float]:
        return plane_of_ids(self.scheme, [hex_id])

    def center(self, hex_id: str) -> tuple[float, float]:
        """Return ``(lon, lat)`` of the centre of a hex."""
        X, Y = self.georeference.plane_to_metric(*self._plane_of_id(hex_id))
        lon, lat = metric_to_lonlat(X, Y)
        return float(lon), float(lat)

    def centers(self) -> tuple[np.ndarray, np.ndarray]:
        """Return ``(lon, lat)`` arrays of every hex centre, in dense-index order."""
        X, Y = self.georeference.plane_to_metric(*self._plane(self._q, self._r))
        return metric_to_lonlat(X, Y)

    def locate(self, lon: float, lat: float) -> str | None:
        """Return the canonical id of the hex containing a point, or None off the maps."""
        found = self.locate_array(np.array([lon]), np.array([lat]))[0]
        return None if found is None else str(found)

    def locate_array(self, lon: np.ndarray, lat: np.ndarray) -> np.ndarray:
        """Vectorised :meth:`locate`: an object array of ids (None off the maps)."""
        X, Y = lonlat_to_metric(lon, lat)
        x, y = self.georeference.metric_to_plane(X, Y)
        fq, fr = pixel_to_hex_array(self.layout, x, -y)
        q, r = hex_round_array(fq, fr)
        out = np.empty(len(q), dtype=object)
        for k, key in enumerate(zip(q.tolist(), r.tolist(), strict=True)):
            i = self._index_of_axial.get(key)
            out[k] = None if i is None else self._ids[i]
        return out

    def to_geodataframe(self) -> geopandas.GeoDataFrame:
        """Return one polygon per hex, EPSG:4326, indexed by canonical id.

        Columns: ``hex_id``, ``sheet``, ``q``, ``r``, ``geometry``.
        """
        import geopandas as gpd
        import shapely

        xs, ys = polygon_corners_array(self.layout, self._q, self._r)
        X, Y = self.georeference.plane_to_metric(xs, -ys)
        lon, lat = metric_to_lonlat(X.ravel(), Y.ravel())
        coords = np.stack([lon.reshape(X.shape), lat.reshape(X.shape)], axis=-1)
        polygons = shapely.polygons(coords)
        frame = gpd.GeoDataFrame(
            {
                "hex_id": self._ids.astype(str),
                "sheet": self._sheets.astype(str),
                "q": self._q,
                "r": self._r,
            },
            geometry=polygons,
            crs="EPSG:4326",
        )
        return frame.set_index(pd.Index(self._ids.astype(str), name="id"))

    # -- control points and residuals ------------------------------------

    def control_points(self) -> pd.DataFrame:
        """Return the control points: hex, place, rule, use and reason."""
        rows = [
            {
                "hex_id": p.label,
                "sheet": self.scheme.parse(p.hex_ids[0])[0],
                "place": p.place,
                "rule": p.rule,
                "use": p.use,
                "reason": p.reason,
            }
            for p in control_points(self.system)
        ]
        return pd.DataFrame(rows, columns=["hex_id", "sheet", "place", "rule", "use", "reason"])

    def residuals(self) -> pd.DataFrame:
        """Return the residual of every control point under the fitted placement.

        Columns: ``hex_id``, ``sheet``, ``place``, ``use``, ``place_lon``,
        ``place_lat``, ``hex_lon``, ``hex_lat``, ``east_km``, ``north_km``
        (place minus hex centre), ``residual_km``, ``residual_hex`` (in hexes
        of the fitted size), ``sigma_km`` (the point's standard error, its
        weight in the fit), ``located_hex`` (the hex that contains the place)
        and ``hexes_off`` (its distance from the cited hex).
        """
        rows = []
        geo = self.georeference
        for p in control_points(self.system):
            lon, lat = gazetteer.lookup(p.place)
            X, Y = lonlat_to_metric([lon], [lat])
            hx, hy = geo.plane_to_metric(*self._plane_of_point(p))
            hlon, hlat = metric_to_lonlat(hx, hy)
            de, dn = float(X[0] - hx), float(Y[0] - hy)
            located = self.locate(lon, lat)
            rows.append(
                {
                    "hex_id": p.label,
                    "sheet": self.scheme.parse(p.hex_ids[0])[0],
                    "place": p.place,
                    "use": p.use,
                    "place_lon": lon,
                    "place_lat": lat,
                    "hex_lon": float(hlon),
                    "hex_lat": float(hlat),
                    "east_km": de / 1000.0,
                    "north_km": dn / 1000.0,
                    "residual_km": float(np.hypot(de, dn)) / 1000.0,
                    "residual_hex": float(np.hypot(de, dn)) / geo.hex_size_m,
                    "sigma_km": control_sigma(self.scheme, p) / 1000.0,
                    "located_hex": located,
                    "hexes_off": None
                    if located is None
                    else min(self.distance(h, located) for h in p.hex_ids),
                }
            )
        return pd.DataFrame(rows)

    def residual_summary(self) -> pd.DataFrame:
        """Return RMS and maximum residuals of the ``fit`` points, per sheet and for the grid.

        The last row (sheet ``"all"``) is the whole grid.
        """
        table = self.residuals()
        used = table[table["use"] == "fit"]
        rows = []
        groups = [(sheet, part) for sheet, part in used.groupby("sheet")] + [("all", used)]
        for sheet, part in groups:
            rows.append(
                {
                    "system": self.system,
                    "sheet": sheet or "(single)",
                    "points": len(part),
                    "rms_km": float(np.sqrt(np.mean(part["residual_km"] ** 2))),
                    "max_km": float(part["residual_km"].max()),
                    "rms_hex": float(np.sqrt(np.mean(part["residual_hex"] ** 2))),
                    "max_hex": float(part["residual_hex"].max()),
                }
            )
        return pd.DataFrame(rows)

    def coast_residuals(self) -> pd.DataFrame:
        """Return where each coastal hex of the rules falls against the shoreline.

        Columns: ``hex_id``, ``side``, ``use``, ``rule``, ``reason``,
        ``hex_lon``, ``hex_lat``, ``seaward_km`` and ``seaward_hex`` (the
        centre's signed distance from the GSHHG shoreline, positive at sea),
        ``band_low_hex`` and ``band_high_hex`` (where the rule puts it) and
        ``in_band``.  Empty for a system without coastal hexes.
        """
        columns = [
            "hex_id", "side", "use", "rule", "reason", "hex_lon", "hex_lat",
            "seaward_km", "seaward_hex", "band_low_hex", "band_high_hex", "in_band",
        ]  # fmt: skip
        hexes = coast_hexes(self.system)
        if not hexes:
            return pd.DataFrame(columns=columns)
        geo = self.georeference
        plane = np.array([self._plane_of_id(c.hex_id) for c in hexes])
        X, Y = geo.plane_to_metric(plane[:, 0], plane[:, 1])
        distance, _, _ = shoreline().signed_distance(X, Y)
        lon, lat = metric_to_lonlat(X, Y)
        rows = []
        for k, c in enumerate(hexes):
            low, high = SIDE_BANDS[c.side]
            seaward = float(distance[k]) / geo.hex_size_m
            rows.append(
                {
                    "hex_id": c.hex_id,
                    "side": c.side,
                    "use": c.use,
                    "rule": c.rule,
                    "reason": c.reason,
                    "hex_lon": float(lon[k]),
                    "hex_lat": float(lat[k]),
                    "seaward_km": float(distance[k]) / 1000.0,
                    "seaward_hex": seaward,
                    "band_low_hex": low,
                    "band_high_hex": high,
                    "in_band": low <= seaward <= high,
                }
            )
        return pd.DataFrame(rows, columns=columns)

    def describe(self) -> dict[str, object]:
        """Return a summary: hex count, sheets, fitted size and rotation, extent."""
        lon, lat = self.centers()
        geo = self.georeference
        return {
            "system": self.system,
            "title": self.scheme.title,
            "hexes": len(self),
            "sheets": sorted(self.scheme.sheets),
            "nominal_hex_m": self.scheme.hex_size_m,
            "fitted_hex_m": geo.hex_size_m,
            "rotation_deg": geo.rotation_deg,
            "lon_range": (float(lon.min()), float(lon.max())),
            "lat_range": (float(lat.min()), float(lat.max())),
        }


@cache
def grid(system: str) -> HexGrid:
    """Return the georeferenced grid of ``system`` (``"bfn"``, ``"cobra"``, ``"kg"``, ``"gts"``).

    Examples
    --------
    >>> g = grid("bfn")
    >>> g.distance("A4118", "A4112")
    6
    """
    return HexGrid(scheme(system))


__all__ = ["ControlPoint", "HexGrid", "grid"]
