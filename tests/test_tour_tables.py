"""The tour's tables kept on disk (normandy_lab.views.tour; issue 33, section 1: the tour's memory).

The formation squares of the campaign map, the scenarios against history and the four games on 19 June rest
on every scenario's supply; the tour reads them from disk once worked out.  What is read must be what a fresh
computation gives, and a change to what they rest on must work them out again.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd

from normandy_lab.terrain import derived as d
from normandy_lab.views import campaign, tour

REPO = Path(__file__).resolve().parents[1]


def test_the_kept_tables_are_what_a_fresh_computation_gives(monkeypatch):
    """Read from the tour's real cache (warm or built now): the squares, the history table and 19 June."""
    monkeypatch.setattr(d, "_MEMORY", {})  # from the disk, as a new kernel reads them
    kept_positions = campaign.scenario_positions()
    kept_history = tour.scenarios_against_history()
    kept_june19 = tour.kept_side_by_side("1944-06-19")
    d._MEMORY.clear()
    assert campaign.scenario_positions() == kept_positions  # the copy on disk, read back
    assert campaign._scenario_positions() == kept_positions
    days, _labels, columns = kept_positions
    assert len(days) == len(list((REPO / "scenarios").glob("*.yaml"))) and all(c["x"] for c in columns)

    from normandy_lab.engine.scenario import load_scenario
    from normandy_lab.history.compare import compare_with_history
    from normandy_lab.sidebyside import side_by_side
    from normandy_lab.views.launcher import scenario_list

    fresh = pd.DataFrame(
        [{"scenario": label, **compare_with_history(load_scenario(name)).row()} for label, name in scenario_list()]
    )
    pd.testing.assert_frame_equal(kept_history, fresh)
    june19 = side_by_side("1944-06-19")
    assert (kept_june19.date, kept_june19.scenarios) == (june19.date, june19.scenarios)
    pd.testing.assert_frame_equal(kept_june19.table, june19.table)
    pd.testing.assert_frame_equal(kept_june19.disagreements(), june19.disagreements())
    assert not kept_june19.disagreements().empty  # the tour's table has rows (BfN's storm against KG's)


def test_a_table_is_worked_out_once_then_read(derived_cache):
    calls = []

    def build():
        calls.append(1)
        return {"verdicts": [True, False]}

    assert tour.kept("table", build, "1944-06-19") == {"verdicts": [True, False]}
    d._MEMORY.clear()  # a new process: only the file
    assert tour.kept("table", build, "1944-06-19") == {"verdicts": [True, False]}
    assert len(calls) == 1
    assert len(list(derived_cache.glob("table-*.pickle"))) == 1


def test_a_touched_scenario_file_works_the_tables_out_again(derived_cache, tmp_path, monkeypatch):
    import normandy_lab.engine.scenario as scenario_module

    scenarios = tmp_path / "scenarios"
    shutil.copytree(REPO / "scenarios", scenarios)
    monkeypatch.setattr(scenario_module, "SCENARIO_DIR", scenarios)
    calls = []

    def build():
        calls.append(1)
        return len(calls)

    assert tour.kept("table", build) == 1
    assert tour.kept("table", build) == 1
    touched = scenarios / "bfn_1944-06-13_am.yaml"
    stat = touched.stat()
    os.utime(touched, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert tour.kept("table", build) == 2
    (scenarios / "bfn_1944-06-20_am.yaml").write_text("name: a new scenario\n")
    assert tour.kept("table", build) == 3
    assert tour.kept("table", build) == 3


def test_the_package_s_code_and_versions_key_the_tables(derived_cache, monkeypatch):
    calls = []

    def build():
        calls.append(1)
        return len(calls)

    assert tour.kept("table", build) == 1
    monkeypatch.setattr(tour, "_PACKAGE_DIGEST", b"a module of the engine was edited")
    assert tour.kept("table", build) == 2
    monkeypatch.setattr(pd, "__version__", "0.0.1")
    assert tour.kept("table", build) == 3
    monkeypatch.setattr(d, "_data_stamp", lambda: b"a file under maps/ changed")
    assert tour.kept("table", build) == 4


def test_the_package_digest_covers_every_module_that_determines_supply():
    covered = {p.resolve() for p in d._code_files(("",))}
    for module in ("engine/supply.py", "rules/bfn/supply.py", "rules/kg/supply.py", "network.py",
                   "sidebyside/__init__.py", "history/compare.py", "views/layers.py", "views/campaign.py"):
        assert (REPO / "normandy_lab" / module).resolve() in covered, module


def test_a_damaged_copy_is_worked_out_again(derived_cache):
    tour.kept("table", lambda: [1, 2, 3])
    (path,) = derived_cache.glob("table-*.pickle")
    path.write_bytes(b"\x80\x05 half a pickle")
    d._MEMORY.clear()
    assert tour.kept("table", lambda: [4]) == [4]
    d._MEMORY.clear()
    assert tour.kept("table", lambda: [5]) == [4]  # the copy written again is read


def _write_from_a_process(folder: str, start: object) -> list[int]:
    d.derived_dir = lambda: Path(folder)  # type: ignore[assignment]  # this child process only
    start.wait()  # type: ignore[attr-defined]
    return tour.kept("table", lambda: list(range(100_000)))


def test_kernels_writing_the_same_table_at_once_leave_one_whole_copy(derived_cache):
    """A class's kernels opening the tour together on a cold cache: each writes, none reads half a file."""
    context = multiprocessing.get_context("fork")
    with context.Manager() as manager:
        start = manager.Event()
        with context.Pool(4) as pool:
            results = [pool.apply_async(_write_from_a_process, (str(derived_cache), start)) for _ in range(4)]
            start.set()
            tables = [r.get(timeout=300) for r in results]
    assert all(t == list(range(100_000)) for t in tables)
    assert len(list(derived_cache.glob("table-*.pickle"))) == 1
    assert not [p for p in derived_cache.iterdir() if ".tmp" in p.name]
    d._MEMORY.clear()
    assert tour.kept("table", lambda: "not read") == list(range(100_000))


def test_a_side_by_side_with_a_game_registered_here_is_worked_out_here(derived_cache, monkeypatch):
    import normandy_lab.rules as rules
    import normandy_lab.sidebyside as sidebyside

    monkeypatch.setattr(rules, "only_package_games", lambda: False)  # e.g. the toy registered here
    monkeypatch.setattr(sidebyside, "side_by_side", lambda day: f"worked out here for {day}")
    assert tour.kept_side_by_side("1944-06-19") == "worked out here for 1944-06-19"
    assert not list(derived_cache.glob("*.pickle"))


def test_only_the_package_games_is_what_a_process_importing_the_package_alone_has():
    import dataclasses
    import subprocess
    import sys

    import normandy_lab.rules as rules

    fresh = subprocess.run(
        [sys.executable, "-c", "import normandy_lab.rules as r; print(r.only_package_games(), r.available())"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert fresh.stdout.split()[0] == "True"
    before = rules.only_package_games()  # False if an earlier test registered the toy games here
    bfn = rules.game("bfn")
    try:
        rules.register_game(dataclasses.replace(bfn, key="bfn_again"))
        assert not rules.only_package_games()  # a game added here
    finally:
        rules.unregister_game("bfn_again")
    assert rules.only_package_games() == before
    try:
        rules.register_game(dataclasses.replace(bfn))  # BfN replaced by an equal copy
        assert not rules.only_package_games()
    finally:
        rules.register_game(bfn)
    assert rules.only_package_games() == before


def _toy(*words: str) -> list[str]:
    return ["worked out here", *words]


def test_a_table_the_other_process_could_not_write_is_worked_out_here(derived_cache, monkeypatch):
    monkeypatch.setitem(tour.TABLES, "toy", _toy)  # unknown to the other process: it fails
    monkeypatch.setattr(sys, "executable", str(derived_cache / "no-python-here"))
    assert tour.table("toy", "1944-06-19") == ["worked out here", "1944-06-19"]
    d._MEMORY.clear()
    assert tour.table("toy", "1944-06-19") == ["worked out here", "1944-06-19"]  # and kept


def test_the_tour_loads_no_game_for_its_tables_cold_or_warm(tmp_path):
    """On a cold cache the tables are worked out by another process; the tour's own loads no game or map."""
    code = (
        "import pathlib, sys\n"
        "from normandy_lab.terrain import derived\n"
        "derived.derived_dir = lambda: pathlib.Path(sys.argv[1])\n"
        "import normandy_lab.terrain as terrain\n"
        "def refused(*args, **kwargs):\n"
        "    raise AssertionError(f'a terrain map was loaded: {args}')\n"
        "terrain.terrain_map = refused\n"
        "from normandy_lab.views.campaign import campaign_map\n"
        "from normandy_lab.views import tour\n"
        "campaign_map(); tour.scenarios_against_history()\n"
        "tour.kept_side_by_side('1944-06-19').disagreements()\n"
        "games = [m for m in sys.modules if m.split('.')[:3] in (['normandy_lab', 'rules', g] for g in\n"
        "         ('bfn', 'cobra', 'kg', 'gts'))]\n"
        "kept = {p.name.split('-')[0] for p in pathlib.Path(sys.argv[1]).glob('*.pickle')}\n"
        "print(games, sorted(kept & set(tour.TABLES)))\n"
    )
    for _ in ("cold", "warm"):
        out = subprocess.run(
            [sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, cwd=REPO
        )
        assert out.returncode == 0, out.stdout + out.stderr
        assert out.stdout.strip() == f"[] {sorted(tour.TABLES)}", out.stdout + out.stderr
