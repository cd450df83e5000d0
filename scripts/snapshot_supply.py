"""Write the supply snapshot that holds the engine to its verdicts while BfN moves behind the contract.

Issue 15 moves The Battle for Normandy's supply rules out of the engine core: every verdict, path, reason and
range on the seven historical scenarios, in fair weather and in storm, must be the same after the move as
before.  This script records them from the engine as it stands (``tests/data/supply_snapshot.json.gz``);
``tests/test_supply_snapshot.py`` compares the engine with it.  Re-run it only when a change of verdicts is
intended and reviewed (the diff of the test's report says which units changed and how)::

    python scripts/snapshot_supply.py

Provenance: the file is computed by normandy_lab from the scenarios in ``scenarios/``; it holds no facts of
its own.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SNAPSHOT = ROOT / "tests" / "data" / "supply_snapshot.json.gz"
# What a unit's report holds that a rule-system move must keep (the lazily explained fields included).
FIELDS = (
    "general", "combat", "isolated", "traced_kind", "traced_id", "traced_to", "path", "length_mp",
    "length_hexes", "limit", "code", "rule", "reason", "shortfall", "weather_bound", "blocking_hex",
    "blocking_units", "candidates", "readings",
)  # fmt: skip


def _plain(value):
    """JSON-able and exact: floats as repr (inf included), tuples as lists, dataclasses as dicts."""
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items())}
    if hasattr(value, "__dataclass_fields__"):
        return {k: _plain(getattr(value, k)) for k in value.__dataclass_fields__}
    return value


def weathers(state) -> tuple[str, str]:
    """The two weathers each scenario is recorded in: its fair one (Overcast if its own halves) and Storm."""
    from normandy_lab.rules import ruleset

    halved = ruleset(state.system).weather_effects[state.weather]["supply_halved"]
    return ("Overcast" if halved else state.weather, "Storm")


def record(state) -> dict:
    """Every unit's verdict, line, reason and blocks, and which HQ ranges cover each hex, for one state."""
    import normandy_lab as nl

    report = nl.supply(state)
    units = {}
    for unit_id in sorted(report.units):
        row = report[unit_id]
        entry = {name: _plain(getattr(row, name)) for name in FIELDS}
        entry["blocks"] = _plain(list(row.blocks))
        units[unit_id] = entry
    ranges = {
        side: {str(h): str(n) for h, n in zip(nl.grid(state.system).id_array, names, strict=True) if n}
        for side, names in sorted(report.hq_ranges_at().items())
    }
    return {"units": units, "ranges": ranges}


def snapshot() -> dict:
    """Record every historical scenario in its two weathers."""
    import normandy_lab as nl
    from normandy_lab.engine.scenario import historical_scenarios

    out = {}
    for name in historical_scenarios():
        state = nl.load_scenario(name)
        for weather in weathers(state):
            out[f"{name}|{weather}"] = record(state.evolve(weather=weather))
    return out


def fingerprints() -> dict[str, str]:
    """The fingerprint of every historical scenario as loaded, and after a few edits of each kind.

    A saved study is refused when its replay's fingerprint differs: a change of how a state is held (a field
    moved into the rule system's markers) must leave these the same, or every saved study is lost.  These are
    the file-order fingerprints studies were saved with before issue 28 (``fingerprint(state,
    file_order=True)``), which ``load_study`` still accepts beside today's order-free one.
    """
    import normandy_lab as nl
    from normandy_lab.engine.edits import apply_edit
    from normandy_lab.engine.scenario import historical_scenarios
    from normandy_lab.engine.study import fingerprint

    out = {}
    for name in historical_scenarios():
        state = nl.load_scenario(name)
        out[name] = fingerprint(state, file_order=True)
        hexes = sorted(u.hex for u in state.units)
        for edit in (
            {"op": "interdict", "hex": hexes[len(hexes) // 2]},
            {"op": "weather", "weather": "Storm"},
            {"op": "air", "allied": {"C": 3}, "german_aa": {"C": 1}},
            {"op": "next_phase"},
            {"op": "next_phase"},
        ):
            state = apply_edit(state, edit)
        out[f"{name}|edited"] = fingerprint(state, file_order=True)
    return out


def main() -> None:
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.strip()
    payload = {
        "made_by": "scripts/snapshot_supply.py",
        "commit": commit,
        "states": snapshot(),
        "fingerprints": fingerprints(),
    }
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    # mtime=0: the same verdicts give the same bytes, so git sees a change only when one changed.
    with gzip.GzipFile(SNAPSHOT, "wb", mtime=0) as handle:
        handle.write(text.encode("utf-8"))
    print(f"wrote {SNAPSHOT} ({SNAPSHOT.stat().st_size // 1024} KB, {len(payload['states'])} states)")


if __name__ == "__main__":
    main()
