"""Finding where a sheet's numbering sits on its system's lattice.

Where the rules do not say how two sheets' numbers relate (The Battle for
Normandy's sheets B and C against A, The Killing Ground's sheet E), the
integer row and column shifts are searched.  The reference sheets are
placed by their own control points; each searched sheet's points are
located on that placement, which gives an estimate of its shift, rounded to
the nearest lattice position of the right parity.  Every combination within
a small radius of the estimates is then tried with one joint weighted
least-squares fit, at the printed hex size, of every control point that is
not dropped (an integer shift needs only coarse information, which the
weaker points carry too); the smallest sum of squared residuals, each
weighted by its point's standard error, wins.  Holding the printed size
removes the trade-off between a sheet's shift and the grid's scale and
rotation that a free fit would allow.

The shifts found are committed in :mod:`normandy_lab.grids.numbering`; the test
suite runs this search again and checks that they are still the best.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np

from normandy_lab.geo import gazetteer
from normandy_lab.geo.crs import lonlat_to_metric
from normandy_lab.grids import HexGrid, fit_control_points
from normandy_lab.grids.georef import ControlPoint, control_points
from normandy_lab.grids.hexgrid import hex_round_array, pixel_to_hex_array
from normandy_lab.grids.numbering import Scheme, Sheet, scheme


def _parity_step(hex_scheme: Scheme) -> tuple[int, int]:
    """Return the (row, col) granularity that keeps the offset parity."""
    # Pointy grids shove alternate rows: a row shift must be even.  Flat
    # grids shove alternate columns: a column shift must be even.
    return (2, 1) if hex_scheme.orientation == "pointy" else (1, 2)


def _search_points(system: str) -> list[ControlPoint]:
    # Every point that is not dropped: an integer shift needs only coarse
    # information, and the weak points carry it too (weighted by their errors).
    return [p for p in control_points(system) if p.use != "dropped"]


def _chi2(hex_scheme: Scheme) -> float:
    """Weighted sum of squared residuals of a fit at the printed hex size."""
    points = _search_points(hex_scheme.system)
    geo, plane, metric, sigma = fit_control_points(hex_scheme, points, printed_size=True)
    fx, fy = geo.plane_to_metric(plane[:, 0], plane[:, 1])
    return float(np.sum(((fx - metric[:, 0]) ** 2 + (fy - metric[:, 1]) ** 2) / sigma**2))


def _with_shift(hex_scheme: Scheme, letter: str, row_shift: int, col_shift: int) -> Scheme:
    sheets: dict[str, Sheet] = dict(hex_scheme.sheets)
    sheets[letter] = replace(sheets[letter], row_shift=row_shift, col_shift=col_shift)
    return replace(hex_scheme, sheets=sheets)


def _estimate(hex_scheme: Scheme, letter: str, reference: HexGrid) -> tuple[int, int]:
    """Estimate a sheet's shifts by locating its control points on the reference placement."""
    system = hex_scheme.system
    sheet = hex_scheme.sheets[letter]
    row_step, col_step = _parity_step(hex_scheme)
    row_shifts, col_shifts = [], []
    for point in _search_points(system):
        for hex_id in point.hex_ids:
            sheet_letter, row, col = hex_scheme.parse(hex_id)
            if sheet_letter != letter:
                continue
            lon, lat = gazetteer.lookup(point.place)
            X, Y = lonlat_to_metric([lon], [lat])
            x, y = reference.georeference.metric_to_plane(X, Y)
            fq, fr = pixel_to_hex_array(reference.layout, x, -y)
            q, r = hex_round_array(fq, fr)
            gcol, grow = reference._axial_to_global(q, r)
            row_shifts.append(int(grow[0]) - sheet.row_sign * row)
            col_shifts.append(int(gcol[0]) - sheet.col_sign * col)
    if not row_shifts:
        raise ValueError(f"{system}: sheet {letter} has no 'fit' control point to place it")
    row_shift = round(float(np.median(row_shifts)) / row_step) * row_step
    col_shift = round(float(np.median(col_shifts)) / col_step) * col_step
    return row_shift, col_shift


def search_sheet_shifts(system: str, letters: list[str], radius: int = 2) -> dict[str, tuple[int, int]]:
    """Search the lattice shifts of ``letters`` that best fit the control points.

    Parameters
    ----------
    system
        Rule-system key.
    letters
        The sheets whose shifts are searched; the other sheets stay where
        :mod:`normandy_lab.grids.numbering` puts them and must carry at least
        one ``fit`` control point between them.
    radius
        How many parity steps either side of the estimate are tried.

    Returns
    -------
    dict
        ``{letter: (row_shift, col_shift)}``.
    """
    base = scheme(system)
    reference_points = [p for p in _search_points(system) if base.parse(p.hex_ids[0])[0] not in letters]
    if not reference_points:
        raise ValueError(f"{system}: no fit point lies off the searched sheets to anchor the search")
    reference = HexGrid(base)
    # Place the reference grid by the reference sheets' points alone (with a
    # single point: the printed hex size and grid north, which the joint fits
    # confirm to within 0.5 % and 1 degree).
    reference.__dict__["georeference"] = fit_control_points(base, reference_points, printed_size=True)[0]
    estimates = {letter: _estimate(base, letter, reference) for letter in letters}
    row_step, col_step = _parity_step(base)
    offsets = range(-radius, radius + 1)
    best: tuple[float, dict[str, tuple[int, int]]] | None = None
    per_sheet = [
        [(est[0] + dr * row_step, est[1] + dc * col_step) for dr in offsets for dc in offsets]
        for est in estimates.values()
    ]
    for combo in itertools.product(*per_sheet):
        candidate = base
        for letter, (row_shift, col_shift) in zip(letters, combo, strict=True):
            candidate = _with_shift(candidate, letter, row_shift, col_shift)
        chi2 = _chi2(candidate)
        if best is None or chi2 < best[0] - 1e-9:
            best = (chi2, dict(zip(letters, combo, strict=True)))
    assert best is not None
    return best[1]
