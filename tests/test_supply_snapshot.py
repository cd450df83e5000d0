"""Issue 15: moving BfN behind the rule-system contract changes no verdict, line, reason or range.

``tests/data/supply_snapshot.json.gz`` was recorded by ``scripts/snapshot_supply.py`` from the engine before
the move: every unit of the seven historical scenarios, in fair weather and in storm (7.3.3), with its General
and Combat Supply, isolation, what its line reached, the line itself, its lengths and limit, the reason's
code, rule, words and blocks, the candidates tried, and which HQ ranges cover each hex.  The engine must
give exactly the same.  A change of verdicts that is intended is recorded by re-running the script, and
the test's report of the differences is the review of that change.
"""

from __future__ import annotations

import gzip
import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("snapshot_supply", ROOT / "scripts" / "snapshot_supply.py")
snapshot_supply = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(snapshot_supply)

SNAPSHOT = json.loads(gzip.decompress(snapshot_supply.SNAPSHOT.read_bytes()))
RECORDED = SNAPSHOT["states"]


def _differences(before: dict, now: dict, limit: int = 8) -> list[str]:
    found = []
    for unit_id in sorted(set(before["units"]) | set(now["units"])):
        was, is_ = before["units"].get(unit_id), now["units"].get(unit_id)
        if was is None or is_ is None:
            found.append(f"{unit_id}: {'new' if was is None else 'gone'}")
            continue
        for key in sorted(set(was) | set(is_)):
            if was.get(key) != is_.get(key):
                found.append(f"{unit_id}.{key}: {was.get(key)!r} -> {is_.get(key)!r}"[:400])
    for side in sorted(set(before["ranges"]) | set(now["ranges"])):
        a, b = before["ranges"].get(side, {}), now["ranges"].get(side, {})
        changed = sorted(h for h in set(a) | set(b) if a.get(h) != b.get(h))
        if changed:
            found.append(f"ranges of {side}: {len(changed)} hexes differ, e.g. {changed[:5]}")
    return found[:limit]


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_supply_is_as_recorded_before_the_move(key):
    import normandy_lab as nl

    name, weather = key.split("|")
    now = snapshot_supply.record(nl.load_scenario(name).evolve(weather=weather))
    assert _differences(RECORDED[key], now) == []


def test_the_snapshot_covers_every_historical_scenario_in_two_weathers():
    import normandy_lab as nl
    from normandy_lab.engine.scenario import historical_scenarios

    expected = set()
    for name in historical_scenarios():
        for weather in snapshot_supply.weathers(nl.load_scenario(name)):
            expected.add(f"{name}|{weather}")
    assert set(RECORDED) == expected
    # The record is not empty of what it is for: units out of supply with reasons, lines, ranges.
    rows = [row for state in RECORDED.values() for row in state["units"].values()]
    assert sum(not r["general"] for r in rows) > 100 and all(r["reason"] for r in rows if not r["general"])
    assert sum(len(r["path"]) > 3 for r in rows) > 1000
    assert all(state["ranges"]["allied"] and state["ranges"]["german"] for state in RECORDED.values())


def test_the_fingerprints_of_the_historical_scenarios_are_as_recorded():
    """A study saved before the move still opens: a state's fingerprint, loaded and after edits, is unchanged."""
    assert snapshot_supply.fingerprints() == SNAPSHOT["fingerprints"]
