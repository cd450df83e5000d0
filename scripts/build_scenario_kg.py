"""Build The Killing Ground's 22.6.8 scenario (7 June 1944, Turn 2) from its set-up part.

Run::

    .venv/bin/python scripts/build_scenario_kg.py

Reads ``scenarios/parts/kg_1944-06-07_t02_setup.yaml`` (the set-up as transcribed from the rulebook, with its
readings) and writes ``scenarios/kg_1944-06-07_t02.yaml`` in the scenario format: every unit 22.6.8 places,
on the map or in its box (a box unit stands, off the map, at the box's first entry hex), its steps (the
RECONSTRUCTED full steps of its size less the "-1" steps it lost), and its set-up marks kept with it.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from normandy_lab.rules.kg.data import BOXES, FULL_STEPS

ROOT = Path(__file__).resolve().parents[1]
PART = ROOT / "scenarios" / "parts" / "kg_1944-06-07_t02_setup.yaml"
OUT = ROOT / "scenarios" / "kg_1944-06-07_t02.yaml"
MARKS = (
    "printed", "steps_lost", "disorganized", "regroup", "out_of_supply", "delayed", "marks",
    "type_suffix", "alt_hex",
)  # fmt: skip

HEADER = """\
# The Killing Ground with OVERLORD, scenario 22.6.8: the June 7 start (Turn 2), built by
# scripts/build_scenario_kg.py from scenarios/parts/kg_1944-06-07_t02_setup.yaml (its header gives the source,
# the reading of every mark and every doubtful entry).  Do not edit by hand: edit the part and rebuild.
#
# Positions are the rulebook's printed hexes.  Steps are RECONSTRUCTED (the counters are not in the text: a
# battalion 2, a regiment or brigade 3, an HQ 1, less 22.0's "-1" steps).  The German June 6 set-up card is
# not in the text, so the German units 22.6.8 leaves where they were (the Weapons Nests among them, whose
# hexes are on their counters) are not here: see the part's unchanged_from_june_6.
"""


def unit_entry(unit: dict) -> dict:
    """Return a scenario unit from a transcribed one."""
    entry = {key: unit[key] for key in ("id", "name", "side", "nationality", "type", "size") if key in unit}
    if unit.get("formation"):
        entry["formation"] = unit["formation"]
    if unit["type"] == "hq":
        entry["hq"] = "corps"
    if unit.get("box"):
        entry["box"] = unit["box"]
        entry["status"] = "off_map"
        entry["hex"] = BOXES[unit["box"]].entries[0]
    else:
        entry["hex"] = unit["hex"]
    entry["steps"] = max(1, FULL_STEPS[unit["size"]] - int(unit.get("steps_lost") or 0))
    for key in MARKS:
        if unit.get(key) not in (None, False, ""):
            entry[key] = unit[key]
    entry["source"] = "OVERLORD 22.6.8"
    if unit.get("note"):
        entry["note"] = unit["note"]
    return entry


def main() -> None:
    part = yaml.safe_load(PART.read_text(encoding="utf-8"))
    scenario = {
        "format": "normandy_lab.scenario/1",
        "system": "kg",
        "name": "OVERLORD 22.6.8: the June 7 start (Turn 2)",
        "date": "1944-06-07",
        "turn": "Turn 2",
        "maps": ["N"],
        "seed": 1944,
        "description": (
            "The morning after D-Day on OVERLORD's North map: the beachheads, the airborne areas and the "
            "German "
            "reaction as 22.6.8 sets them up, to play the Build-up from Turn 2; Allied supply is traced from "
            "Turn 3 (8 June)."
        ),
        "sources": [part["source"]],
        "stage": "build-up",
        "army_sp": {"US": 4, "UK": 4, "DE": 8},
        "mulberry": {"A": 0, "B": 0},
        "destroyed_bridges": part["destroyed_bridges"],
        "weapons_nests": part["weapons_nests"],
        "units": [unit_entry(u) for u in part["units"]],
    }
    text = HEADER + yaml.safe_dump(scenario, sort_keys=False, allow_unicode=True, width=110)
    OUT.write_text(text, encoding="utf-8")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
