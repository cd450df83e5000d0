"""Build The Greatest Day's scenario of 8 June 1944, 0700, from its set-up part.

Run::

    .venv/bin/python scripts/build_scenario_gts.py

Reads ``scenarios/parts/gts_1944-06-08_0700.yaml`` (the positions of 8 June at 0700 as the sources give
them, each unit's `near` a place or [lon, lat], with its sources and how it was derived) and writes
``scenarios/gts_1944-06-08_0700.yaml`` in the scenario format: each unit on the GTS hex its point falls in
(``normandy_lab.grids.grid("gts").locate``), its division as its formation (VII Corps and LXXXIV. Armeekorps
troops as corps troops), its steps RECONSTRUCTED (the counters are not in the text: a company 1, a
battalion 3, a regiment 3, an HQ 1), and its sources and notes kept.  A point that falls in a hex the derived
map makes impassable moves to the nearest passable hex, said in the unit's note.
"""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
PART = ROOT / "scenarios" / "parts" / "gts_1944-06-08_0700.yaml"
OUT = ROOT / "scenarios" / "gts_1944-06-08_0700.yaml"
STEPS = {"company": 1, "battalion": 3, "regiment": 3, "division_hq": 1, "corps_hq": 1}  # RECONSTRUCTED
CORPS = ("VII Corps", "LXXXIV. Armeekorps")

HEADER = """\
# The Greatest Day: Utah Beach, 8 June 1944, 0700: the Utah sector at battalion level, built by
# scripts/build_scenario_gts.py from scenarios/parts/gts_1944-06-08_0700.yaml (its header gives the sources,
# the method and the accuracy; each unit's note says how its position was found).  Do not edit by hand.
#
# The scenario booklets are not in the text: this is the project's own situation of that morning, not the
# game's set-up.  Positions are good to about 1-2 km (a few 500 m hexes); `estimated` units more loosely.
# Steps are RECONSTRUCTED.  8 June 0700 is the first turn of the American supply limit (17.3): the default
# designation (`supplied_divisions`) is the 4th Infantry, 82nd and 101st Airborne Divisions, A READING OF
# HISTORY (the three divisions that fought on 8 June on supply from Utah Beach; the 90th had only the 359th
# ashore, attached to the 4th), not a fact: VII Corps made no such designation.  The part's comment above
# `supplied_divisions` gives the sources and how sure; the analyst may change it.  The 82nd's three groups
# west of the Merderet are `cut_off` (history); 17.3 still supplies them with their division.  Weather:
# Overcast, as The Battle for Normandy's historical weather (8.1o) gives 8 June ("Cloudy"); the GTS weather
# table's rolls are not in the text.
"""


def _hex_of(g, terrain, near) -> tuple[str | None, str]:
    """Return the hex a point or place falls in (None: off the game's map), and a note if it was moved.

    A point on a hex the derived map makes impassable moves to the nearest passable hex.
    """
    from normandy_lab.geo.gazetteer import lookup

    lon, lat = lookup(near) if isinstance(near, str) else (float(near[0]), float(near[1]))
    hex_id = g.locate(lon, lat)
    if hex_id is None or terrain[hex_id] != "Impassable":
        return hex_id, ""
    ring = [hex_id]
    seen = {hex_id}
    while True:
        ring = [g.canonical(n) for h in ring for n in g.neighbors(h) if g.canonical(n) not in seen]
        seen |= set(ring)
        passable = sorted(h for h in ring if terrain[h] != "Impassable")
        if passable:
            return passable[
                0
            ], f"its point falls in the impassable hex {hex_id}; placed on the nearest land hex"


def unit_entry(unit: dict, g, terrain) -> dict | None:
    """Return a scenario unit from a unit of the part (None: its point is off the game's map)."""
    hex_id, moved = _hex_of(g, terrain, unit["near"])
    if hex_id is None:
        return None
    entry = {key: unit[key] for key in ("id", "name", "side", "nationality", "type", "size")}
    if unit["division"] in CORPS:
        entry["corps"] = unit["division"]
    else:
        entry["formation"] = unit["division"]
    if unit["type"] == "hq":
        entry["hq"] = "corps" if unit["size"] == "corps_hq" else "division"
    if unit.get("cut_off"):  # cut off behind the enemy's line that morning, as the history says
        entry["cut_off"] = True
    entry["hex"] = hex_id
    entry["steps"] = STEPS[unit["size"]]
    entry["near"] = unit["near"]
    entry["source"] = unit["source"]
    notes = [("estimated: " if unit.get("estimated") else "") + unit.get("note", ""), moved]
    entry["note"] = "; ".join(n for n in notes if n)
    return entry


def main() -> None:
    from normandy_lab.grids import grid
    from normandy_lab.terrain import terrain_map

    part = yaml.safe_load(PART.read_text(encoding="utf-8"))
    g = grid("gts")
    terrain = terrain_map("gts", progress=False).hexes["terrain"]
    scenario = {
        "format": "normandy_lab.scenario/1",
        "system": "gts",
        "name": "The Utah sector, 8 June 1944, 0700",
        "date": "1944-06-08",
        "turn": "0700",
        "weather": "Overcast",
        "seed": 1944,
        "description": (
            "D+2 at dawn in the Utah sector: the 4th Infantry Division and the two airborne divisions "
            "joined, the 12th Infantry attacking at Emondeville, the 505th north up the N13, the 506th's "
            "group on St-Come-du-Mont; the Germans on von Schlieben's line from Le Ham to Quineville. The "
            "first turn of the American supply limit (17.3). The default designation (4th Infantry, 82nd "
            "and 101st Airborne) is the project's reading of history, not a fact: the three divisions that "
            "fought that day on supply drawn over Utah Beach, the 90th having only its 359th Infantry "
            "ashore, attached to the 4th. Change it to try another. The 82nd's groups west of the Merderet "
            "(Shanley, Timmes, Millett) are marked cut off, as they were until 9 June; 17.3 supplies a "
            "division whole."
        ),
        "sources": [f"[{s['key']}] {s.get('title', '')}" for s in part["sources"]],
        "supplied_divisions": part["supplied_divisions"],  # 17.3: the default, a reading of history
        "units": [],
    }
    for unit in part["units"]:
        entry = unit_entry(unit, g, terrain)
        if entry is None:  # inside the sources' box, outside the game's hexes: said, not placed
            scenario.setdefault("off_map", []).append(
                {"id": unit["id"], "name": unit["name"], "why": "its position lies outside the game's map"}
            )
        else:
            scenario["units"].append(entry)
    scenario["expected_out_of_supply"] = part["expected_out_of_supply"]
    text = HEADER + yaml.safe_dump(scenario, sort_keys=False, allow_unicode=True, width=110)
    OUT.write_text(text, encoding="utf-8")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
