"""Assemble a BfN scenario file from its researched parts.

Each historical scenario ``scenarios/bfn_<date>_am.yaml`` is built from three
files in ``scenarios/parts/``: ``bfn_<date>_allied.yaml`` and
``bfn_<date>_german.yaml`` (the two orders of battle, researched separately,
each unit with its position and source) and ``bfn_<date>_meta.yaml`` (name,
turn, seed, CSPs, optional weather, destroyed bridges and the header text).
This script merges them into one scenario file in the engine's format and
checks that it loads.  Re-run after editing a part::

    python scripts/build_scenario_bfn.py 1944-06-13        # one date
    python scripts/build_scenario_bfn.py --all             # every date with parts
"""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
PARTS = ROOT / "scenarios" / "parts"
KEEP = (
    "id", "name", "side", "nationality", "type", "mechanized", "size", "formation", "corps", "hq", "hex",
    "steps", "status", "cut_off", "breakdown", "near", "source", "note",
)  # fmt: skip
META_KEYS = (
    "weather", "air", "destroyed_bridges", "control", "description", "pathfinders", "mulberries",
    "expected_out_of_supply",
)  # fmt: skip


def _read(path: Path) -> dict:
    with path.open(encoding="utf-8") as handle:
        return yaml.safe_load(handle) or {}


def build(date: str) -> Path:
    """Write ``scenarios/bfn_<date>_<turn>.yaml`` from its parts and return its path."""
    meta = _read(PARTS / f"bfn_{date}_meta.yaml")
    allied = _read(PARTS / f"bfn_{date}_allied.yaml")
    german = _read(PARTS / f"bfn_{date}_german.yaml")
    units = []
    for part in (allied, german):
        for unit in part["units"]:
            units.append({key: unit[key] for key in KEEP if key in unit and unit[key] is not None})
    # Divisions whose HQ is off the maps trace like independent formations:
    # to a source or a corps HQ (the engine needs to know them).
    with_hq = {u.get("formation") for u in units if u.get("hq") in ("division", "kg")}
    headless = sorted({u["formation"] for u in units if u.get("formation") and u["formation"] not in with_hq})
    independent = [f for part in (german, allied) for f in part.get("independent_formations") or []]
    independent += [f for f in headless if f not in independent]
    cities = [c["city"] for c in german.get("supply_cities", []) if c.get("german")]
    sources = []
    for part in (allied, german):
        found = part.get("sources") or {}
        items = found.items() if isinstance(found, dict) else enumerate(found)
        sources += [f"{key}: {text}" if isinstance(key, str) else str(text) for key, text in items]
    scenario = {
        "format": "normandy_lab.scenario/1",
        "system": "bfn",
        "name": meta["name"],
        "date": date,
        "turn": meta.get("turn", "AM"),
        "seed": int(meta.get("seed", int(date.replace("-", "")))),
        "csp": int(meta.get("csp", 0)),
    }
    scenario.update({key: meta[key] for key in META_KEYS if meta.get(key) is not None})
    scenario.update(
        {
            "beachheads": [
                {key: b[key] for key in ("name", "nationality", "hex")}
                for b in allied.get("beachheads") or []
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
                + (german.get("not_placed") or [])
            ],
        }
    )
    part_names = ", ".join(f"scenarios/parts/bfn_{date}_{kind}.yaml" for kind in ("allied", "german", "meta"))
    assembled = textwrap.fill(f"Assembled by scripts/build_scenario_bfn.py from {part_names}.", width=100)
    header = meta["header"].rstrip("\n") + "\n\n" + assembled + "\n"
    header = "".join(f"# {line}".rstrip() + "\n" for line in header.splitlines())
    turn = scenario["turn"].lower().replace(" ", "_")
    out = ROOT / "scenarios" / f"bfn_{date}_{turn}.yaml"
    body = yaml.safe_dump(scenario, allow_unicode=True, sort_keys=False, width=120)
    out.write_text(header + body, encoding="utf-8")
    from normandy_lab.engine import load_scenario

    state = load_scenario(out)
    print(f"wrote {out.relative_to(ROOT)}: {len(state.units)} units")
    report_setup(state)
    return out


def report_setup(state) -> None:
    """Print what in the set-up breaks the HQ rules or the record, and whether the scenario expects it.

    Division units beyond 6 hexes and 6 MP of their HQ, HQs beyond 20 MP of a corps HQ or source (7.2,
    7.3.1), and units on ground the record of the previous evening gives to the other side
    (:func:`normandy_lab.rules.bfn.setup_check.setup_problems`).  A unit on the scenario's
    ``expected_out_of_supply`` list is marked as expected.
    """
    from normandy_lab.rules.bfn.setup_check import setup_problems

    expected = {e.unit_id: e.why for e in state.expected_out}
    problems = setup_problems(state)
    for p in problems:
        mark = f"expected ({expected[p.unit_id]})" if p.unit_id in expected else "NOT EXPECTED"
        print(f"  {p.kind:15} {p.unit_id:18} {mark:20} {p.detail[:110]}")
    if not problems:
        print("  set-up check: no problem")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dates", nargs="*", help="scenario dates, YYYY-MM-DD")
    parser.add_argument("--all", action="store_true", help="build every date that has a meta part")
    args = parser.parse_args()
    dates = list(args.dates)
    if args.all:
        dates += sorted(p.name[4:14] for p in PARTS.glob("bfn_*_meta.yaml"))
    if not dates:
        parser.error("give a date or --all")
    for date in dates:
        build(date)


if __name__ == "__main__":
    main()
