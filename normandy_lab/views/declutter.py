"""Formation symbols that never overlap at the explorer's default zoom (issue 33, section 3).

Zoomed out, the explorer draws one symbol per division or brigade with its echelon above and its name and
supply bar below (:func:`normandy_lab.views.layers.formation_data`).  At the default view of 13 June the
44 BfN symbols piled up along the coast and in front of Caen ("XXX Corps tps" over "4th Sp Svc ...", ux-2).
Here the symbols are laid out for the screen before they are drawn:

1. two symbols of the same side whose boxes (square and labels, in screen pixels) overlap are drawn as one,
   at their units' centre, named after the larger with "+1", "+2" for the others (the hover and a click list
   every formation and unit it stands for);
2. a symbol overlapping one of the other side is moved apart from it along the line between them, never
   more than :data:`MAX_SHIFT_PX` from its units' centre (the hover and the click still give the units'
   own hexes).

Moving symbols apart brings others of one side together, which are then grouped: the two steps alternate
until nothing overlaps, which on a dense front (25 July: 86 symbols) takes about 70 passes.

The screen is the smallest map frame the explorer promises at its default view (70 % of a 1366x768
window's width, 60 % of its height: :data:`NOMINAL_FRAME_PX`); a larger screen shows the same symbols
further apart.  The boxes use the drawn sizes of :func:`normandy_lab.views.situation._formation_symbols`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

#: The smallest map frame (pixels) of the explorer's default view: 70 % x 60 % of a 1366x768 laptop.
NOMINAL_FRAME_PX = (956, 461)
#: A symbol is two boxes (pixels, y up, from its centre): the 30 px square with its echelon mark 21 px above
#: it, and the name (23 px below) with the six-cell supply bar (35 px below) under it, each mark about 12 px
#: tall (situation._formation_symbols).
SQUARE_HALF_PX = 15
TOP_PX = 21 + 6
NAME_TOP_PX = -23 + 6
BOTTOM_PX = -35 - 6
#: Width of one character of the 8 pt bold name (DejaVu Sans Bold at 96 dpi, a little generous), and the
#: bar's width (six cells of 7 pt).
CHAR_PX = 7.0
BAR_PX = 48
#: Space kept between two boxes.
GAP_PX = 2
#: How far a symbol may be moved from its units' centre to clear one of the other side.
MAX_SHIFT_PX = 40

#: What a grouped symbol's key joins: the formations it stands for (layers.formation_units splits it).
GROUP_JOIN = " + "


def metres_per_pixel(extent_m: tuple[float, float, float, float], frame_px: tuple[int, int]) -> float:
    """Return the map scale of a view (Web Mercator metres west, south, east, north) in a frame of pixels.

    The explorer's figures keep equal scales on both axes (``match_aspect``): the view is widened in one
    direction to fit the frame, and the scale is the larger of the two ratios.
    """
    west, south, east, north = extent_m
    return max((east - west) / frame_px[0], (north - south) / frame_px[1])


def boxes(data: dict[str, list], scale: float) -> np.ndarray:
    """Return each symbol's two screen boxes, shape ``(n, 2, 4)``: ``(left, bottom, right, top)`` in pixels.

    The first box is the square with its echelon mark, the second its name and supply bar.
    """
    x = np.asarray(data["x"], float) / scale
    y = np.asarray(data["y"], float) / scale
    half = np.array([max(BAR_PX / 2, len(s) * CHAR_PX / 2) for s in data["short"]])
    square = np.column_stack([x - SQUARE_HALF_PX, y - SQUARE_HALF_PX, x + SQUARE_HALF_PX, y + TOP_PX])
    name = np.column_stack([x - half, y + BOTTOM_PX, x + half, y + NAME_TOP_PX])
    return np.stack([square, name], axis=1)


def overlaps(b: np.ndarray) -> list[tuple[int, int]]:
    """Return the pairs ``i < j`` of symbols (:func:`boxes`) where a box of one meets a box of the other."""
    n = len(b)
    if n < 2:
        return []
    hit = np.zeros((n, n), bool)
    for p in range(2):  # each box of one symbol against each box of the other (numpy, all pairs at once)
        for q in range(2):
            a, c = b[:, p, None, :], b[None, :, q, :]
            hit |= (
                (a[..., 0] < c[..., 2] + GAP_PX)
                & (c[..., 0] < a[..., 2] + GAP_PX)
                & (a[..., 1] < c[..., 3] + GAP_PX)
                & (c[..., 1] < a[..., 3] + GAP_PX)
            )
    i, j = np.nonzero(np.triu(hit, 1))
    return [(int(x), int(y)) for x, y in zip(i, j, strict=True)]


def _merge(data: dict[str, list], i: int, j: int, worst: Any) -> None:
    """Make symbol ``i`` stand for ``i`` and ``j`` too, and drop ``j`` (same side)."""
    ni, nj = data["units"][i], data["units"][j]
    big, small = (i, j) if ni >= nj else (j, i)
    members = data["members"][big] + data["members"][small]
    # At its units' centre (where the two were before any was moved apart from the other side).
    hx = (data["hx"][i] * ni + data["hx"][j] * nj) / (ni + nj)
    hy = (data["hy"][i] * ni + data["hy"][j] * nj) / (ni + nj)
    units, out = ni + nj, data["out"][i] + data["out"][j]
    cells = round(6 * (units - out) / units)
    merged = {
        "key": GROUP_JOIN.join(members),
        "name": ", ".join(members),
        "short": f"{data['lead_short'][big]} +{len(members) - 1}",
        "lead_short": data["lead_short"][big],
        "units": units,
        "out": out,
        "bar": "▰" * cells + "▱" * (6 - cells),
        "line": worst(data["line"][i], data["line"][j]),
        "echelon": "XX" if "XX" in (data["echelon"][i], data["echelon"][j]) else "X",
        "glyph": data["glyph"][big],
        "members": members,
        "rows": data["rows"][big] + data["rows"][small],
        "lead": data["lead"][big],
        "hx": hx,
        "hy": hy,
        "x": round(hx, 1),
        "y": round(hy, 1),
    }
    for column, value in merged.items():
        data[column][i] = value
    for column in data:
        del data[column][j]


def _push_apart(data: dict[str, list], b: np.ndarray, i: int, j: int, scale: float) -> None:
    """Move two symbols of opposite sides apart, each by half the overlap, within :data:`MAX_SHIFT_PX`."""
    # Their outer boxes (square, marks and name together).
    bi = [b[i, :, 0].min(), b[i, :, 1].min(), b[i, :, 2].max(), b[i, :, 3].max()]
    bj = [b[j, :, 0].min(), b[j, :, 1].min(), b[j, :, 2].max(), b[j, :, 3].max()]
    dx = (bj[0] + bj[2] - bi[0] - bi[2]) / 2
    dy = (bj[1] + bj[3] - bi[1] - bi[3]) / 2
    # The overlap to clear along each axis; the cheaper axis is used (as a hand nudges a counter).
    need_x = (bi[2] - bi[0] + bj[2] - bj[0]) / 2 + GAP_PX + 1 - abs(dx)
    need_y = (bi[3] - bi[1] + bj[3] - bj[1]) / 2 + GAP_PX + 1 - abs(dy)
    if need_x <= need_y:
        step = np.array([math.copysign(need_x / 2, dx or 1.0), 0.0])
    else:
        step = np.array([0.0, math.copysign(need_y / 2, dy or 1.0)])
    for k, sign in ((i, -1.0), (j, 1.0)):
        hx, hy = data["hx"][k], data["hy"][k]
        nx = data["x"][k] / scale + sign * step[0]
        ny = data["y"][k] / scale + sign * step[1]
        # Never further than MAX_SHIFT_PX from where its units are.
        off = np.array([nx - hx / scale, ny - hy / scale])
        length = float(np.hypot(*off))
        if length > MAX_SHIFT_PX:
            off *= MAX_SHIFT_PX / length
        data["x"][k] = round(float((hx / scale + off[0]) * scale), 1)
        data["y"][k] = round(float((hy / scale + off[1]) * scale), 1)


def declutter(
    data: dict[str, list], scale: float, worst: Any, rounds: int | None = None
) -> dict[str, list]:
    """Return formation symbols laid out so that none overlaps another at ``scale`` metres a pixel.

    Parameters
    ----------
    data
        Columns of :func:`~normandy_lab.views.layers.formation_data` (not changed).
    scale
        Web Mercator metres per screen pixel of the view they are laid out for (:func:`metres_per_pixel`).
    worst
        ``worst(ring_a, ring_b)``: the ring colour of a grouped symbol (the worse supply state).
    rounds
        At most this many passes of merging and moving apart; by default four a symbol and 40 more (each
        pass groups two symbols or moves the overlapping ones apart; 25 July's 86 symbols need about 70:
        the 60 passes this used to allow left 32 overlaps there).

    Returns
    -------
    dict
        The same columns, fewer rows where symbols were grouped.  Overlaps of symbols of opposite sides
        that :data:`MAX_SHIFT_PX` cannot clear are left (:func:`overlaps` finds them).
    """
    key = (scale, rounds, tuple(zip(*(data[c] for c in _GEOMETRY), strict=True)))
    plan = _PLANS.pop(key, None)
    if plan is None:
        laid = _layout(data, scale, worst, rounds)
        plan = list(zip(laid["rows"], laid["lead"], laid["x"], laid["y"], strict=True))
    _PLANS[key] = plan  # the most recent last
    while len(_PLANS) > _PLANS_KEPT:
        del _PLANS[next(iter(_PLANS))]
    return _apply(data, plan, worst)


#: What a layout depends on: where the symbols are, their names' lengths, sides and unit counts; not the
#: supply (ring, bar, counts out), so a weather change or a cut bridge reuses the layout of those positions.
_GEOMETRY = ("side", "key", "x", "y", "short", "units")
#: Recent layouts, geometry -> plan: each symbol's input rows (in grouping order), lead row and position.
_PLANS: dict[tuple, list[tuple[list[int], int, float, float]]] = {}
_PLANS_KEPT = 16


def _layout(data: dict[str, list], scale: float, worst: Any, rounds: int | None) -> dict[str, list]:
    """Lay the symbols out (merge and move apart until nothing overlaps); see :func:`declutter`.

    Returns the columns with the helpers ``rows`` (the input rows each symbol stands for) and ``lead`` (the
    row it is named after).
    """
    out = {column: list(values) for column, values in data.items()}
    out["members"] = [[key] for key in out["key"]]
    out["lead_short"] = list(out["short"])
    out["rows"] = [[row] for row in range(len(out["key"]))]
    out["lead"] = list(range(len(out["key"])))
    out["hx"], out["hy"] = [float(x) for x in out["x"]], [float(y) for y in out["y"]]
    for _ in range(rounds if rounds is not None else 4 * len(out["key"]) + 40):
        b = boxes(out, scale)
        pairs = overlaps(b)
        if not pairs:
            break
        same = [(i, j) for i, j in pairs if out["side"][i] == out["side"][j]]
        if same:
            # The closest pair first: the groups stay as local as they can.
            i, j = min(same, key=lambda p: math.dist(b[p[0], 0, :2], b[p[1], 0, :2]))
            _merge(out, i, j, worst)
            continue
        for i, j in pairs:
            _push_apart(out, b, i, j, scale)
            b = boxes(out, scale)
    del out["members"], out["lead_short"], out["hx"], out["hy"]
    return out


def _apply(
    data: dict[str, list], plan: list[tuple[list[int], int, float, float]], worst: Any
) -> dict[str, list]:
    """Return the symbols of ``data`` grouped and placed as ``plan`` says, with ``data``'s supply."""
    out: dict[str, list] = {column: [] for column in data}
    for rows, lead, x, y in plan:
        row = {column: values[lead] for column, values in data.items()}
        if len(rows) > 1:
            keys = [data["key"][r] for r in rows]
            units = sum(data["units"][r] for r in rows)
            gone = sum(data["out"][r] for r in rows)
            cells = round(6 * (units - gone) / units)
            line = data["line"][rows[0]]
            for r in rows[1:]:
                line = worst(line, data["line"][r])
            row.update(
                key=GROUP_JOIN.join(keys),
                name=", ".join(keys),
                short=f"{data['short'][lead]} +{len(rows) - 1}",
                units=units,
                out=gone,
                bar="▰" * cells + "▱" * (6 - cells),
                line=line,
                echelon="XX" if any(data["echelon"][r] == "XX" for r in rows) else "X",
            )
        row["x"], row["y"] = x, y
        for column in out:
            out[column].append(row[column])
    return out
