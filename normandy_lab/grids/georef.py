r"""Placing a hex lattice on the Earth: similarity fits to control points.

A rule system's hexes live on a *lattice plane*: the :class:`~normandy_lab.grids.hexgrid.Layout`
plane of unit hexes (circumradius 1), with ``y`` flipped so that it points
north.  A :class:`Georeference` maps that plane onto Lambert-93 (EPSG:2154),
a conformal metric projection of France, by a similarity transform

.. math::  X = a x - b y + t_x, \\quad Y = b x + a y + t_y

whose four parameters are the hex size (``sqrt(a² + b²)``), the rotation of
the grid from grid north (``atan2(b, a)``) and the origin.  They are fitted
by weighted linear least squares to control points: hexes the rulebooks tie
to named places, whose coordinates come from the gazetteer (and, where the
rules put hexes on the shore, to those coastal hexes: :mod:`normandy_lab.grids.coastfit`).

Control points are data, in ``maps/grids/control_points.yaml``; each says
which rule ties the hex to the place, and whether it is used in the fit
(``fit``), only reported as an independent check (``check``), or dropped
with its reason (``dropped``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from normandy_lab import yamllines
from normandy_lab.errors import FileRefusedError

# The CRS helpers live in geo.crs; still importable from here ("X as X" marks a re-export for mypy).
from normandy_lab.geo.crs import METRIC_CRS as METRIC_CRS
from normandy_lab.geo.crs import lonlat_to_metric as lonlat_to_metric
from normandy_lab.geo.crs import metric_to_lonlat as metric_to_lonlat
from normandy_lab.grids.numbering import map_keys
from normandy_lab.paths import map_file

# Hex size of the lattice plane across the flats: unit circumradius.
PLANE_HEX_WIDTH = math.sqrt(3.0)


class ControlPointError(FileRefusedError):
    """A malformed control-point entry; the message names the file, entry and field."""


@dataclass(frozen=True)
class ControlPoint:
    """A hex the rules tie to a named place.

    Attributes
    ----------
    system
        Rule-system key.
    hex_ids
        The id(s) as the rulebook prints them.  A place the rules tie to a
        group of hexes (a town's city hexes, a drop zone's hex list) is
        matched to the centroid of the group.
    place
        Gazetteer name of the place.
    rule
        The rule (and what it says) that ties the hex to the place.
    use
        ``"fit"``, ``"check"`` or ``"dropped"``.
    reason
        Why a point is only a check or is dropped.
    """

    system: str
    hex_ids: tuple[str, ...]
    place: str
    rule: str
    use: str
    reason: str = ""

    @property
    def label(self) -> str:
        """The hex id, or the ids joined with ``+`` for a group."""
        return "+".join(self.hex_ids)


def read_system_entries(path: Path, schema: Any, error: type[ValueError]) -> Iterator[tuple[str, str, Any]]:
    """Read a grids data file: a mapping of system key to a list of entries.

    The file is validated against ``schema`` (a TypeAdapter of
    :mod:`normandy_lab.schemas.grid_files`: the systems, fields, their types and the
    ``use`` values); this adds that an entry not fitted says why.

    Yields
    ------
    tuple
        ``(system, where, entry)``: ``where`` is ``file:line: system[i]``, for the caller's own messages.

    Raises
    ------
    ValueError
        Of class ``error``, naming the file, the line and the field.
    """
    # In the function for import cost only: `import normandy_lab` loads the grids, and pydantic with the
    # schemas' models would add about half a second to it; they load when a data file is first read.
    from normandy_lab.schemas.validation import validate

    text = yamllines.read_user_text(path, error, "grid data file")
    data = yamllines.load_yaml_with_lines(text, str(path), error)
    validate(schema, data, str(path), error)
    for system, entries in data.items():
        for index, entry in enumerate(entries or []):
            where = f"{path}:{entry.line}: {system}[{index}]"
            if entry["use"] != "fit" and not entry.get("reason"):
                raise error(
                    f"{where}.reason: a {entry['use']!r} entry needs a reason; say why it is not fitted"
                )
            yield str(system), where, entry


@lru_cache(maxsize=1)
def _load_control_points() -> dict[str, tuple[ControlPoint, ...]]:
    path = map_file("grids", "control_points.yaml")
    result: dict[str, list[ControlPoint]] = {}
    from normandy_lab.schemas.grid_files import control_points_file  # pydantic on first read (see above)

    model = control_points_file(grid_file_maps())
    for system, _, entry in read_system_entries(path, model, ControlPointError):
        hexes = [entry["hex"]] if isinstance(entry["hex"], str) else entry["hex"]
        result.setdefault(system, []).append(
            ControlPoint(
                system=system,
                hex_ids=tuple(hexes),
                place=str(entry["place"]),
                rule=str(entry["rule"]),
                use=str(entry["use"]),
                reason=str(entry.get("reason", "") or ""),
            )
        )
    return {system: tuple(points) for system, points in result.items()}


# Control points a game's package gives for a map of its own (by map key), beside the shared data file.
_REGISTERED: dict[str, tuple[ControlPoint, ...]] = {}


def register_control_points(system: str, points: tuple[ControlPoint, ...]) -> None:
    """Register the control points of a map a game brings (``normandy_lab.rules.register_game`` does).

    Raises
    ------
    ControlPointError
        For a map the shared data file already places, or a point of another map.
    """
    if system in _load_control_points():
        raise ControlPointError(
            f"the map {system!r} is placed by maps/grids/control_points.yaml; give a new map a key of its own"
        )
    stray = [p.label for p in points if p.system != system]
    if stray:
        raise ControlPointError(f"control points {', '.join(stray)} name another map than {system!r}")
    _REGISTERED[system] = tuple(points)


def grid_file_maps() -> tuple[str, ...]:
    """Return the maps the shared grid files (``maps/grids/*.yaml``) may place, in the registry's order.

    Every registered map (:func:`~normandy_lab.grids.numbering.map_keys`) but those whose game brings its
    own control points (:func:`register_control_points`): the files' models
    (:mod:`normandy_lab.schemas.grid_files`) refuse any other key, and their JSON Schemas list these.
    """
    return tuple(key for key in map_keys() if key not in _REGISTERED)


def control_points(system: str) -> tuple[ControlPoint, ...]:
    """Return the control points of ``system``: those a game registered, or those of the data file."""
    return _REGISTERED.get(system) or _load_control_points().get(system, ())


@dataclass(frozen=True)
class Georeference:
    """A similarity transform from the lattice plane to Lambert-93.

    Attributes
    ----------
    a, b
        ``a = s cos θ``, ``b = s sin θ`` for scale ``s`` and rotation ``θ``.
    tx, ty
        Lambert-93 position of the lattice-plane origin, metres.
    """

    a: float
    b: float
    tx: float
    ty: float

    @property
    def scale(self) -> float:
        """Metres per lattice-plane unit."""
        return math.hypot(self.a, self.b)

    @property
    def hex_size_m(self) -> float:
        """Fitted hex size across the flats, metres."""
        return self.scale * PLANE_HEX_WIDTH

    @property
    def rotation_deg(self) -> float:
        """Counter-clockwise rotation of the grid from Lambert-93 grid north, degrees."""
        return math.degrees(math.atan2(self.b, self.a))

    def plane_to_metric(self, x: npt.ArrayLike, y: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """Map lattice-plane coordinates (``y`` north) to Lambert-93."""
        x = np.asarray(x, float)
        y = np.asarray(y, float)
        return self.a * x - self.b * y + self.tx, self.b * x + self.a * y + self.ty

    def metric_to_plane(self, X: npt.ArrayLike, Y: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """Map Lambert-93 coordinates to the lattice plane (``y`` north)."""
        dx = np.asarray(X, float) - self.tx
        dy = np.asarray(Y, float) - self.ty
        s2 = self.a * self.a + self.b * self.b
        return (self.a * dx + self.b * dy) / s2, (-self.b * dx + self.a * dy) / s2

    def as_dict(self) -> dict[str, Any]:
        """Return the parameters and their readable forms."""
        return {
            "a": self.a,
            "b": self.b,
            "tx": self.tx,
            "ty": self.ty,
            "hex_size_m": self.hex_size_m,
            "rotation_deg": self.rotation_deg,
        }


def fit_similarity(
    plane_xy: npt.ArrayLike,
    metric_xy: npt.ArrayLike,
    scale: float | None = None,
    sigma: npt.ArrayLike | None = None,
) -> Georeference:
    """Least-squares similarity transform from plane to metric coordinates.

    Parameters
    ----------
    plane_xy
        ``(n, 2)`` lattice-plane coordinates (``y`` north).
    metric_xy
        ``(n, 2)`` Lambert-93 coordinates of the same points.
    scale
        When given, the scale is held at this value (metres per plane unit)
        and only rotation and translation are fitted; this is how a grid
        with a single control point is placed.
    sigma
        Standard error of each point, metres; points are weighted by
        ``1 / sigma**2`` (weighted least squares).  Unweighted when None.

    Returns
    -------
    Georeference
        The fitted transform.

    Raises
    ------
    ValueError
        With fewer than two points (one when ``scale`` is fixed).
    """
    p = np.asarray(plane_xy, float).reshape(-1, 2)
    m = np.asarray(metric_xy, float).reshape(-1, 2)
    n = len(p)
    w = np.ones(n) if sigma is None else 1.0 / np.asarray(sigma, float) ** 2
    if scale is not None:
        if n < 1:
            raise ValueError("a fixed-scale fit needs at least one control point")
        pc = np.average(p, axis=0, weights=w)
        mc = np.average(m, axis=0, weights=w)
        if n == 1:
            theta = 0.0
        else:
            dp, dm = p - pc, m - mc
            theta = math.atan2(
                float(np.sum(w * (dp[:, 0] * dm[:, 1] - dp[:, 1] * dm[:, 0]))),
                float(np.sum(w * (dp[:, 0] * dm[:, 0] + dp[:, 1] * dm[:, 1]))),
            )
        a, b = scale * math.cos(theta), scale * math.sin(theta)
        tx = mc[0] - (a * pc[0] - b * pc[1])
        ty = mc[1] - (b * pc[0] + a * pc[1])
        return Georeference(a, b, float(tx), float(ty))
    if n < 2:
        raise ValueError(f"a similarity fit needs at least two control points, got {n}")
    design = np.zeros((2 * n, 4))
    design[0::2] = np.column_stack([p[:, 0], -p[:, 1], np.ones(n), np.zeros(n)])
    design[1::2] = np.column_stack([p[:, 1], p[:, 0], np.zeros(n), np.ones(n)])
    target = m.reshape(-1)
    root_w = np.repeat(np.sqrt(w), 2)
    solution, *_ = np.linalg.lstsq(design * root_w[:, None], target * root_w, rcond=None)
    a, b, tx, ty = (float(v) for v in solution)
    return Georeference(a, b, tx, ty)
