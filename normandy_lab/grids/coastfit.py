r"""Coastal hexes: hexes the rules put on the shore, used as line controls in the georeference.

Some rules tie a hex not to a named place but to the shoreline.  In *The
Greatest Day: Utah Beach*, rule 4.4.3 puts each naval Assault Force marker in
an Impassable hex next to a coastal hex with a centre dot, and gives the ends
of each marker's sector and example positions by hex id.  Such a hex says
little about where along the coast it lies, but a good deal about where
across it: its centre is at sea (or on the beach sand), within about a hex
of the shoreline.  Spread along 17 km of coast, these hexes fix the grid's
rotation far better than places known only to a kilometre.

A coastal hex enters the fit as one equation: the signed distance of its
centre from the GSHHG shoreline (positive seaward) should equal the middle
of its *band* (:data:`SIDE_BANDS`), with a standard error that combines the
band's width and the shoreline's own accuracy.  The distance is linearised
at the current placement (its gradient is the unit normal from the nearest
shore point), so :func:`fit_with_coast` iterates to convergence.

The hexes are data, in ``maps/grids/coast_hexes.yaml``: each gives the rule
that puts it on the coast and whether it is fitted or only a check.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from normandy_lab.errors import FileRefusedError
from normandy_lab.geo import geography
from normandy_lab.geo.crs import METRIC_CRS
from normandy_lab.grids.georef import Georeference, fit_similarity, grid_file_maps, read_system_entries
from normandy_lab.paths import map_file

if TYPE_CHECKING:
    import shapely

SIDE_BANDS: dict[str, tuple[float, float]] = {
    # An Impassable hex next to a coastal centre-dot hex (GTS 4.4.3): the shoreline
    # runs between its centre and the land neighbour's, a hex away, so the centre is
    # up to ~0.9 hex out to sea; Beach hexes count as Impassable on the map (GTS
    # 2.1.8), so the centre may also sit on the sand just inside the shoreline.
    "sea": (-0.2, 0.9),
}
"""Where the centre of each kind of coastal hex lies, in hexes seaward of the shoreline."""

SHORELINE_ACCURACY_M = 150.0
"""Standard error of the GSHHG full-resolution shoreline (maps/README.md: 100–200 m)."""

MAX_ITERATIONS = 50
CONVERGED_M = 0.01


class CoastHexError(FileRefusedError):
    """A malformed coastal-hex entry; the message names the file, entry and field."""


@dataclass(frozen=True)
class CoastHex:
    """A hex the rules put on the shore.

    Attributes
    ----------
    system
        Rule-system key.
    hex_id
        The id as the rulebook prints it.
    side
        Which band of :data:`SIDE_BANDS` the hex centre lies in.
    rule
        The rule (and what it says) that puts the hex on the coast.
    use
        ``"fit"``, ``"check"`` or ``"dropped"``.
    reason
        Why a hex is only a check, or dropped.
    """

    system: str
    hex_id: str
    side: str
    rule: str
    use: str
    reason: str = ""


@lru_cache(maxsize=1)
def _load_coast_hexes() -> dict[str, tuple[CoastHex, ...]]:
    path = map_file("grids", "coast_hexes.yaml")
    result: dict[str, list[CoastHex]] = {}
    # In the function for import cost: pydantic loads when the file is first read (grids/georef.py says more).
    from normandy_lab.schemas.grid_files import coast_hexes_file

    model = coast_hexes_file(grid_file_maps())
    for system, _, entry in read_system_entries(path, model, CoastHexError):
        result.setdefault(system, []).append(
            CoastHex(
                system=system,
                hex_id=entry["hex"],
                side=str(entry["side"]),
                rule=str(entry["rule"]),
                use=str(entry["use"]),
                reason=str(entry.get("reason", "") or ""),
            )
        )
    return {system: tuple(hexes) for system, hexes in result.items()}


def coast_hexes(system: str) -> tuple[CoastHex, ...]:
    """Return the coastal hexes of ``system`` as listed in the data file (empty if none)."""
    return _load_coast_hexes().get(system, ())


def clear_cache() -> None:
    """Forget the loaded coastal hexes (after the data file changed)."""
    _load_coast_hexes.cache_clear()


def band_target(side: str, hex_size_m: float) -> tuple[float, float]:
    """Return the expected seaward distance of a coastal hex centre and its standard error, metres.

    The centre is taken as uniformly spread over the side's band; the
    shoreline's own error adds in quadrature.
    """
    low, high = SIDE_BANDS[side]
    spread = (high - low) / math.sqrt(12.0) * hex_size_m
    return 0.5 * (low + high) * hex_size_m, math.hypot(spread, SHORELINE_ACCURACY_M)


class Shoreline:
    """The GSHHG shoreline in Lambert-93, for signed distances.

    Parameters
    ----------
    land
        Land as one shapely (multi)polygon in Lambert-93 metres.
    """

    def __init__(self, land: shapely.Geometry) -> None:
        import shapely

        self.land = land
        self.boundary = land.boundary
        shapely.prepare(self.land)

    def signed_distance(
        self, X: npt.ArrayLike, Y: npt.ArrayLike
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Return the distance of points from the shore (positive at sea) and its gradient.

        Returns
        -------
        tuple of numpy.ndarray
            ``distance`` (metres, negative on land), and the ``x`` and ``y``
            components of the unit normal pointing out to sea at each point
            (the gradient of the signed distance).
        """
        import shapely

        points = shapely.points(np.asarray(X, float), np.asarray(Y, float))
        feet = shapely.get_coordinates(shapely.shortest_line(self.boundary, points))[0::2]
        px, py = shapely.get_coordinates(points).T
        dx, dy = px - feet[:, 0], py - feet[:, 1]
        length = np.hypot(dx, dy)
        sign = np.where(shapely.contains(self.land, points), -1.0, 1.0)
        safe = np.where(length > 0, length, 1.0)
        return sign * length, sign * dx / safe, sign * dy / safe


@cache
def shoreline() -> Shoreline:
    """Return the project's shoreline (``maps/coast/gshhg_land.geojson``) in Lambert-93."""
    import shapely

    return Shoreline(shapely.union_all(geography.layer("land").to_crs(METRIC_CRS).geometry.values))


def fit_with_coast(
    plane_xy: npt.ArrayLike,
    metric_xy: npt.ArrayLike,
    sigma: npt.ArrayLike,
    coast_plane_xy: npt.ArrayLike,
    coast_target_m: npt.ArrayLike,
    coast_sigma_m: npt.ArrayLike,
    shore: Shoreline,
) -> Georeference:
    """Weighted least-squares similarity fit to control points and coastal hexes.

    Parameters
    ----------
    plane_xy, metric_xy, sigma
        The control points: ``(n, 2)`` lattice-plane and Lambert-93
        coordinates and their standard errors (metres); at least two.
    coast_plane_xy
        ``(m, 2)`` lattice-plane centres of the coastal hexes.
    coast_target_m, coast_sigma_m
        Each coastal hex's expected seaward distance and its standard error,
        metres (:func:`band_target`).
    shore
        The shoreline the distances are measured from.

    Returns
    -------
    Georeference
        The transform minimising the weighted squared residuals of both kinds.

    Raises
    ------
    RuntimeError
        If the iteration does not settle (a coastal hex that flips between
        two stretches of shore).
    """
    p = np.asarray(plane_xy, float).reshape(-1, 2)
    m = np.asarray(metric_xy, float).reshape(-1, 2)
    w = 1.0 / np.asarray(sigma, float)
    c = np.asarray(coast_plane_xy, float).reshape(-1, 2)
    target = np.asarray(coast_target_m, float)
    wc = 1.0 / np.asarray(coast_sigma_m, float)
    geo = fit_similarity(p, m, sigma=sigma)
    # The point equations do not change between iterations.
    point_rows = np.zeros((2 * len(p), 4))
    point_rows[0::2] = np.column_stack([p[:, 0], -p[:, 1], np.ones(len(p)), np.zeros(len(p))])
    point_rows[1::2] = np.column_stack([p[:, 1], p[:, 0], np.zeros(len(p)), np.ones(len(p))])
    point_rows *= np.repeat(w, 2)[:, None]
    point_rhs = m.reshape(-1) * np.repeat(w, 2)
    for _ in range(MAX_ITERATIONS):
        X, Y = geo.plane_to_metric(c[:, 0], c[:, 1])
        distance, nx, ny = shore.signed_distance(X, Y)
        # Linearised at the current placement: n . P(params) = target - d + n . P_now.
        coast_rows = (
            np.column_stack([nx * c[:, 0] + ny * c[:, 1], -nx * c[:, 1] + ny * c[:, 0], nx, ny]) * wc[:, None]
        )
        coast_rhs = (target - distance + nx * X + ny * Y) * wc
        solution, *_ = np.linalg.lstsq(
            np.vstack([point_rows, coast_rows]), np.concatenate([point_rhs, coast_rhs]), rcond=None
        )
        new = Georeference(*(float(v) for v in solution))
        moved = np.hypot(*(np.array(new.plane_to_metric(c[:, 0], c[:, 1])) - np.array([X, Y])))
        geo = new
        if float(moved.max()) < CONVERGED_M:
            return geo
    raise RuntimeError(
        f"the fit to control points and coastal hexes did not settle in {MAX_ITERATIONS} iterations; "
        "check the coastal hexes in maps/grids/coast_hexes.yaml"
    )
