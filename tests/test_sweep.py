"""What-if sweeps on Dask's real scheduler (issue 19): a LocalCluster of two worker processes, stopped cleanly."""

from __future__ import annotations

import pandas as pd
import pytest

import normandy_lab as nl
from normandy_lab.sweeps import COLUMNS, Variant, grid


@pytest.fixture(scope="module")
def client(dask_client):
    """The session's cluster of two worker processes (conftest), stopped cleanly at the end."""
    return dask_client


VARIANTS = grid(
    weather=["Clear", "Storm"], cuts=[[], ["B2816|B2915"]], options=[{}, {"hq_bridging": "for_its_units"}]
)


def test_a_sweep_on_two_worker_processes_gives_the_table_the_engine_gives_in_this_process(client):
    assert len(client.scheduler_info()["workers"]) == 2
    table = nl.sweep("bfn_1944-06-13_am", VARIANTS, client=client, progress=False, chunk_size=2)
    assert list(table.columns) == list(COLUMNS) and table.attrs["complete"]
    assert list(dict.fromkeys(table["variant"])) == [v.name for v in VARIANTS]  # in the variants' order
    state = nl.load_scenario("bfn_1944-06-13_am")
    assert len(table) == len(VARIANTS) * len(state.units)
    for variant in (VARIANTS[0], VARIANTS[-1]):  # each variant's verdicts are the engine's own
        from normandy_lab.sweeps.worker import situation

        report = nl.supply(situation({"": state}, variant))
        rows = table[table["variant"] == variant.name].set_index("unit")
        assert {u for u, ok in rows["in_supply"].items() if not ok} == {
            r.unit_id for r in report.out_of_supply()
        }
        out = next(iter(report.out_of_supply()), None)
        if out is not None:
            assert rows.loc[out.unit_id, "code"] == out.code and rows.loc[out.unit_id, "rule"] == out.rule
    inline = nl.sweep("bfn_1944-06-13_am", VARIANTS, client=False, progress=False)
    assert inline.equals(table)


def test_every_rule_system_in_one_sweep_and_a_bad_variant_is_a_row_not_a_crash(client):
    variants = [
        *grid(bases=["cobra_1944-07-16_gt15", "kg_1944-06-07_t02", "gts_1944-06-08_0700"]),
        Variant.of(
            {"base": "cobra_1944-07-16_gt15", "edits": [{"op": "move", "unit": "NOBODY", "to": "A2020"}]}
        ),
    ]
    table = nl.sweep({}, variants, client=client, progress=False, reasons=False)
    assert set(table["system"]) - {""} == {"cobra", "kg", "gts"}
    failed = table[table["code"] == "error"]
    assert len(failed) == 1 and "NOBODY" in failed["rule"].iloc[0]


def test_a_stopped_sweep_keeps_its_partial_table_and_the_cluster_goes_on(client):
    seen = []

    def stop_after_first(rows):
        seen.append(rows)
        raise KeyboardInterrupt

    table = nl.sweep(
        "bfn_1944-06-13_am", VARIANTS, client=client, progress=False, chunk_size=1, on_rows=stop_after_first
    )
    assert not table.attrs["complete"] and 1 <= table.attrs["variants_done"] < len(VARIANTS)
    came = table[table["code"] != "not_run"]
    assert len(came) == sum(len(rows["unit"]) for rows in seen)
    # The others are listed, one row each, as not run because the sweep was interrupted (issue 34 section 3).
    lost = table[table["code"] == "not_run"]
    assert len(lost) == len(VARIANTS) - table.attrs["variants_done"]
    assert set(lost["rule"]) == {"not run: the sweep was interrupted"}
    again = nl.sweep("bfn_1944-06-13_am", VARIANTS[:2], client=client, progress=False)
    assert again.attrs["complete"]


def test_variants_are_checked():
    with pytest.raises(ValueError, match="not colour"):
        Variant.of({"colour": "red"})
    with pytest.raises(ValueError, match="share a name"):
        nl.sweep("bfn_1944-06-13_am", [{"weather": "Clear"}, {"weather": "Clear"}], client=False)
    assert Variant.of({"weather": "Storm", "cuts": ["B2816"]}).name == "Storm / cut B2816"


def test_the_optimiser_on_the_cluster_finds_what_it_finds_in_this_process(client):
    from normandy_lab.interdiction import best_targets, targets
    from normandy_lab.interdiction.search import coverage_bound

    state = nl.load_scenario("bfn_1944-06-13_am")
    found = targets(state, "bridges", river="Vire")
    _, counts = coverage_bound(nl.supply(state), "german", found, 1)
    shortlist = [t for _, t in sorted(zip(counts, found, strict=True), key=lambda c: -c[0])][:9]
    for method in ("exact", "greedy"):
        here = best_targets(state, "german", 2, candidates=shortlist, method=method)
        there = best_targets(state, "german", 2, candidates=shortlist, method=method, client=client)
        assert (there.picks, there.value, there.bound) == (here.picks, here.value, here.bound)
        assert there.table.equals(here.table)
    mp_here = best_targets(state, "german", 1, candidates=shortlist, objective="line_mp")
    mp_there = best_targets(state, "german", 1, candidates=shortlist, objective="line_mp", client=client)
    assert mp_there.value == pytest.approx(mp_here.value) and mp_there.picks == mp_here.picks
    with pytest.raises(ValueError, match="custom objective"):
        best_targets(state, "german", 1, candidates=shortlist, objective=lambda r, s: 0.0, client=client)


def test_two_local_clusters_at_once_print_no_port_warning(dask_client):
    """A second cluster (a notebook's, beside the suite's or another kernel's) takes a free port, quietly."""
    import warnings

    from normandy_lab.sweeps import local_cluster

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        client = local_cluster(1)
        try:
            assert client.cluster.scheduler.http_server is not None
        finally:
            client.close()
            client.cluster.close()
    assert not [w for w in caught if "already in use" in str(w.message)], [str(w.message) for w in caught]


def _own_cluster(workers: int, **nanny: object):
    """A LocalCluster of worker processes for a test that breaks it (not the suite's shared one)."""
    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0", **nanny
    )
    return Client(cluster)


def _close(client) -> None:
    cluster = client.cluster
    client.close()
    cluster.close()


def test_a_sweep_whose_workers_all_die_returns_the_variants_already_back_and_lists_the_others():
    """Issue 34 section 3: every worker killed mid-sweep loses only the variants not yet back."""
    import os
    import signal

    from normandy_lab.interdiction import targets
    from normandy_lab.sweeps import IncompleteSweepWarning, not_run

    state = nl.load_scenario("bfn_1944-06-13_am")
    bridges = [t.key for t in targets(state, "bridges")][:14]
    variants = grid(weather=["Clear", "Overcast", "Storm"], cuts=[[], *([b] for b in bridges)])
    client = _own_cluster(2)
    killed: list[int] = []

    def kill_every_worker(rows):
        # The condition: the first batch is back.  Then every worker goes, for good (as a preempted
        # machine does): its nanny is told not to restart it, and its process is killed.
        if not killed:
            for nanny in list(client.cluster.workers.values()):
                nanny.close_gracefully(reason="test: the machine is gone")
                killed.append(nanny.pid)
                os.kill(nanny.pid, signal.SIGKILL)

    try:
        with pytest.warns(IncompleteSweepWarning, match="did not come back from the cluster"):
            table = nl.sweep(
                state, variants, client=client, progress=False, chunk_size=1, on_rows=kill_every_worker,
                lost_after=1,
            )  # fmt: skip
    finally:
        _close(client)
    assert len(killed) == 2
    missing = not_run(table)
    done = [v for v in variants if v.name not in missing]
    assert 1 <= len(done) < len(variants) and missing  # a partial table, not an exception
    assert not table.attrs["complete"] and table.attrs["variants_done"] == len(done)
    # Every variant is in the table, in order: its rows, or one row saying it was not run and why.
    assert list(dict.fromkeys(table["variant"])) == [v.name for v in variants]
    lost = table[table["code"] == "not_run"]
    assert list(lost["variant"]) == missing and lost["rule"].str.startswith("not run").all()
    # The rows that came back are the engine's own.
    from normandy_lab.sweeps.worker import situation

    first = done[0]
    report = nl.supply(situation({"": state}, first))
    rows = table[table["variant"] == first.name]
    assert len(rows) == len(state.units)
    assert {u for u, ok in zip(rows["unit"], rows["in_supply"], strict=True) if not ok} == {
        r.unit_id for r in report.out_of_supply()
    }
    # The list survives what pandas does to a table (attrs do not always).
    assert not_run(pd.concat([table.iloc[:0], table])) == missing


def test_a_sweep_goes_on_when_a_worker_dies_and_its_nanny_restarts_it():
    """Issue 34 section 3: a killed worker costs nothing; its batch runs again and the table is complete."""
    import os
    import signal

    from normandy_lab.sweeps import not_run

    state = nl.load_scenario("bfn_1944-06-13_am")
    client = _own_cluster(2)
    killed: list[int] = []

    def kill_one_worker(rows):
        if not killed:  # the condition: the first batch is back; the nanny restarts the worker it loses
            nanny = next(iter(client.cluster.workers.values()))
            killed.append(nanny.pid)
            os.kill(nanny.pid, signal.SIGKILL)

    try:
        table = nl.sweep(
            state,
            VARIANTS,
            client=client,
            progress=False,
            chunk_size=1,
            on_rows=kill_one_worker,
            reasons=False,
        )
    finally:
        _close(client)
    assert killed and table.attrs["complete"] and not not_run(table)
    inline = nl.sweep(state, VARIANTS, client=False, progress=False, reasons=False)
    assert table.equals(inline)


def test_a_worker_with_an_empty_map_cache_gets_the_client_s_map_tables(tmp_path):
    """Issue 34 section 3: a fresh worker machine does not build the map tables: the sweep ships them."""
    from normandy_lab.sweeps.tables import ship_maps
    from normandy_lab.terrain import cache_path

    client = _own_cluster(1, env={"NORMANDY_LAB_CACHE": str(tmp_path)})
    try:
        mine = cache_path("bfn")
        assert mine.exists()
        assert not list(tmp_path.rglob("*.pickle"))  # the worker's cache is empty
        ship_maps(client, {"bfn"})
        theirs = tmp_path / "terrain" / mine.name
        assert theirs.read_bytes() == mine.read_bytes()  # there before the worker did any work
        worker_path = next(iter(client.run(lambda: str(cache_path("bfn"))).values()))
        assert worker_path == str(theirs)  # the name the worker looks for
        table = nl.sweep("bfn_1944-06-13_am", VARIANTS[:2], client=client, progress=False, reasons=False)
        assert table.attrs["complete"]
    finally:
        _close(client)


def test_a_campaign_is_every_date_of_every_game_in_the_weathers_each_has_with_cuts_by_game():
    """Issue 34 section 3: the campaign sweep's variants, and what it refuses (no cluster needed)."""
    from normandy_lab.engine.scenario import historical_scenarios
    from normandy_lab.errors import RefusedError
    from normandy_lab.sweeps.campaign import campaign_variants

    games = ["bfn", "cobra", "gts", "kg"]
    dates = {g: historical_scenarios(g) for g in games}
    variants = campaign_variants(weather=["Clear", "Storm"], cuts={"bfn": [[], ["B4015|B4114"]]})
    expected = sum(len(d) for d in dates.values()) * 2 + len(dates["bfn"]) * 2
    assert len(variants) == expected
    assert {v.base for v in variants} == {s for d in dates.values() for s in d}
    assert {v.cuts for v in variants if not v.base.startswith("bfn")} == {()}
    # A weather only some games have is played by those (KG has Rain, the others do not).
    rainy = campaign_variants(weather=["Rain"])
    assert {v.base for v in rainy} == set(dates["kg"])
    with pytest.raises(RefusedError, match=r"'bnf' is not a game.*'bfn'"):
        campaign_variants(games=["bnf"])
    with pytest.raises(RefusedError, match="cuts: 'bfn' is not among the games swept"):
        campaign_variants(games=["kg"], cuts={"bfn": [["B4015|B4114"]]})
    with pytest.raises(RefusedError, match="'Sunny' is not a weather of any game"):
        campaign_variants(weather=["Sunny"])


def test_a_sweep_on_its_own_local_cluster_writes_nothing_to_stderr():
    """Notebook 06's sweeps print no red text: no dashboard-port warning, no nanny shutdown warnings."""
    import subprocess
    import sys

    # Dask's default dashboard port is held first, as another kernel's cluster on a class server holds it:
    # with the default address Dask would then warn "Port 8787 is already in use" on stderr.
    code = (
        "import socket\n"
        "import normandy_lab as nl\n"
        "from normandy_lab.sweeps import grid\n"
        "if __name__ == '__main__':\n"
        "    holder = socket.socket()\n"
        "    try:\n"
        "        holder.bind(('', 8787))\n"
        "        holder.listen()\n"
        "    except OSError:\n"
        "        pass  # held already by someone else: the same case\n"
        "    t = nl.sweep('bfn_1944-06-13_am', grid(weather=['Clear', 'Storm']), progress=False)\n"
        "    print(t.attrs['complete'])\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("True")
    assert done.stderr == "", done.stderr
