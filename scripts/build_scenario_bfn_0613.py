"""Assemble scenarios/bfn_1944-06-13_am.yaml from its two researched halves.

The Allied and German orders of battle for 13 June 1944 were researched
separately (``scenarios/parts/``, each unit with its position and source);
this script merges them into one scenario file in the engine's format and
checks it loads.  Re-run after editing a part::

    python scripts/build_scenario_bfn_0613.py
"""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
PARTS = ROOT / "scenarios" / "parts"
OUT = ROOT / "scenarios" / "bfn_1944-06-13_am.yaml"
KEEP = (
    "id", "name", "side", "nationality", "type", "mechanized", "size", "formation", "corps", "hq", "hex",
    "steps", "near", "source", "note",
)  # fmt: skip

HEADER = """\
# The Battle for Normandy: 13 June 1944, AM turn.
#
# Every Allied and German division and independent brigade in Normandy on the morning of 13 June 1944,
# with their HQs and combat units (battalions; regiments or brigades where battalion positions could not
# be established: each such entry says so in its note), the corps HQs, the Allied beachheads and the
# German supply cities.  The front: Carentan just taken by the Americans (and counter-attacked from the
# south-west by 17. SS and FJR 6), Caumont reached by the US 1st Division, the British 7th Armoured at
# Villers-Bocage that morning, Tilly-sur-Seulles and the Caen front held by Panzer Lehr, 12. SS and 21. Pz.
#
# Assembled by scripts/build_scenario_bfn_0613.py from scenarios/parts/bfn_1944-06-13_allied.yaml and
# scenarios/parts/bfn_1944-06-13_german.yaml, which give each unit's position ('near': a gazetteer place
# or [lon, lat]) and its source.  Positions marked 'estimated' or 'position approximate' in their notes
# are placed inside the sector the sources give (about 1-2 hexes).  Unit strengths (steps) follow BfN 3.4
# as a guide; counter values are not in the rulebook.  The BfN scenario book is not in the seeds, so the
# Allied CSPs and the day's air allocation are not set here (0; add them with an edit or a study).
# Weather: no historical entry for 13 June in 8.1o; the engine's default (Overcast) applies.
"""


def main() -> None:
    allied = yaml.safe_load((PARTS / "bfn_1944-06-13_allied.yaml").read_text(encoding="utf-8"))
    german = yaml.safe_load((PARTS / "bfn_1944-06-13_german.yaml").read_text(encoding="utf-8"))
    units = []
    for part in (allied, german):
        for unit in part["units"]:
            units.append({key: unit[key] for key in KEEP if key in unit and unit[key] is not None})
    # Divisions whose HQ was off the maps (711. and 346. ID, east of the Dives)
    # trace like independent formations: to a source or a corps HQ.
    with_hq = {u.get("formation") for u in units if u.get("hq") in ("division", "kg")}
    headless = sorted({u["formation"] for u in units if u.get("formation") and u["formation"] not in with_hq})
    independent = list(german.get("independent_formations", []))
    independent += [f for f in headless if f not in independent]
    cities = [c["city"] for c in german.get("supply_cities", []) if c.get("german")]
    sources = [f"{key}: {text}" for key, text in (german.get("sources") or {}).items()]
    scenario = {
        "format": "normandy_lab.scenario/1",
        "system": "bfn",
        "name": "13 June 1944, AM",
        "date": "1944-06-13",
        "turn": "AM",
        "seed": 19440613,
        "csp": 0,
        "beachheads": [
            {key: b[key] for key in ("name", "nationality", "hex")} for b in allied.get("beachheads", [])
        ],
        "german_supply_cities": cities,
        "independent_formations": independent,
        "units": units,
        "sources": sources,
        "off_map": [
            str(x)
            for x in (allied.get("off_map") or [])
            + (german.get("off_map") or [])
            + (allied.get("not_placed") or [])
        ],
    }
    text = HEADER + yaml.safe_dump(scenario, allow_unicode=True, sort_keys=False, width=120)
    OUT.write_text(text, encoding="utf-8")
    from normandy_lab.engine import load_scenario

    state = load_scenario(OUT)
    print(f"wrote {OUT}: {len(state.units)} units")


if __name__ == "__main__":
    main()
