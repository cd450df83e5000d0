"""What-if sweeps at scale: many variants of a situation on a Dask cluster, as one tidy table (issues 19, 34).

The flow: :mod:`.variants` (what changes, as data) -> :mod:`.worker` (a variant's state, its supply, its rows;
no Dask) -> :mod:`.cluster` (the bases kept on the workers, the variants in batches, a cluster that dies) and
:mod:`.tables` (the map tables shipped to a worker that lacks them) -> :func:`sweep` (the rows streamed back
as they finish, a progress bar, and every variant in the table: its rows, or one row saying why it has
none).  :mod:`.campaign` sweeps every date of every game.

Examples
--------
>>> import normandy_lab as nl
>>> from normandy_lab.sweeps import grid
>>> table = nl.sweep("bfn_1944-06-13_am", grid(weather=["Clear", "Overcast", "Storm"]))  # doctest: +SKIP
"""

from __future__ import annotations

import logging
import math
import os
import warnings
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from normandy_lab.engine.state import GameState
from normandy_lab.errors import RefusedError
from normandy_lab.sweeps.variants import Variant, grid
from normandy_lab.sweeps.worker import COLUMNS, INTERRUPTED, NOT_RUN, error_rows, not_run_rows, run_chunk

__all__ = ["COLUMNS", "IncompleteSweepWarning", "Variant", "grid", "local_cluster", "not_run", "sweep"]


def _state_of(source: Any) -> GameState:
    """Return the state a base names: a state, a scenario name or path, or a study (its state)."""
    from normandy_lab.engine.scenario import load_scenario
    from normandy_lab.engine.study import Study

    if isinstance(source, GameState):
        return source
    if isinstance(source, Study):
        return source.state
    return load_scenario(source)  # refuses what is not a name or a path, with the nearest names


def _bases(base: Any, variants: list[Variant]) -> tuple[dict[str, GameState], dict[str, Exception]]:
    """Return the sweep's base situations by key, and why each base a variant names could not be loaded.

    The ``base`` argument is the sweep's own: the one given, as "", or each of a mapping; one that cannot
    be loaded stops the sweep before any work.  A scenario only a variant names is that variant's: if it
    cannot be loaded, the variant becomes an error row and the rest of the sweep goes on.
    """
    bases = (
        {str(k): _state_of(v) for k, v in base.items()}
        if isinstance(base, Mapping)
        else {"": _state_of(base)}
    )
    failed: dict[str, Exception] = {}
    for variant in variants:
        if variant.base in bases or variant.base in failed or variant.problem:
            continue
        try:
            bases[variant.base] = _state_of(variant.base)
        except Exception as exc:  # an unknown or unreadable scenario: this variant's error, not the sweep's
            failed[variant.base] = exc
    return bases, failed


def _extend(rows: dict[str, list[Any]], got: dict[str, list[Any]]) -> None:
    """Add a chunk's columns to the sweep's."""
    for column, values in got.items():
        rows[column] += values


def local_cluster(workers: int | None = None) -> Any:
    """Start a Dask ``LocalCluster`` of worker processes on this machine (one thread each) and its client.

    ``workers`` defaults to the machine's cores.  Close the client and its cluster when done
    (``client.close(); client.cluster.close()``), or use :func:`sweep` without a client, which does.
    """
    import dask
    from distributed import Client, LocalCluster

    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise RefusedError(
            f"local_cluster: workers: {workers!r} is not allowed; give a whole number of worker processes, "
            "at least 1, or None for the machine's cores"
        )
    n = workers or os.cpu_count() or 1
    # The scheduler's HTTP server on a free port of the loopback: the default, 8787, is taken by any other
    # cluster on the machine (another kernel's, a test's), and Dask then warns on stderr in the notebook.
    # Dask's warnings at shutdown (a nanny killing a worker that is slow to exit) are noise in a notebook's
    # output: errors only.  A sweep reports what its cluster lost itself (IncompleteSweepWarning).
    # A worker's statistical profiler samples the running task's stack 100 times a second, taking the GIL
    # from it each time: a sweep's work is one long Python task, so it is off (the nanny hands its config
    # to the worker process it starts).
    with dask.config.set({"distributed.worker.profile.enabled": False}):
        cluster = LocalCluster(
            n_workers=n, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0",
            silence_logs=logging.ERROR,
        )  # fmt: skip
    return Client(cluster)


def sweep(
    base: Any,
    variants: Iterable[Variant | Mapping[str, Any]],
    client: Any = None,
    reasons: bool = True,
    chunk_size: int | None = None,
    progress: bool = True,
    on_rows: Any = None,
    lost_after: float = 30.0,
) -> pd.DataFrame:
    """Evaluate every variant's supply and return one tidy table (:data:`COLUMNS`: one row a unit a variant).

    Parameters
    ----------
    base
        The situation the variants change: a state, a scenario name, a study, or a mapping of names to
        those (a variant picks one with ``base``; a variant naming another scenario loads it).
    variants
        :class:`Variant` objects or their mapping form; :func:`grid` makes products.
    client
        A ``distributed.Client`` (a ``LocalCluster``'s, a scheduler's ``Client("tcp://...")``,
        dask-jobqueue's, Kubernetes'); None starts a :func:`local_cluster` for the sweep and closes it
        after; False runs in this process without Dask (for a handful of variants).
    reasons
        Work out the reason code, rule and length of each unit out of supply (False: verdicts only).
    chunk_size
        Variants a task (default: enough for about four tasks a worker, at most 25).
    progress
        Show a progress bar (a widget in a notebook).
    on_rows
        Called with each chunk's rows as they come back, by column (to watch a long sweep, or write it
        away); if it raises ``KeyboardInterrupt`` the sweep stops there, as an interrupted notebook cell
        does, and returns the partial table.  If it raises any other exception the sweep stops too and
        that exception propagates, with the rows computed so far attached as its ``partial_table``.
    lost_after
        Seconds the cluster may have no worker at all before the sweep gives up on it and returns what came
        back (workers that die and come back, or new ones, pick the sweep up again within that time).

    Returns
    -------
    pandas.DataFrame
        Every variant, in the variants' order: its rows, or one row saying why it has none.  A variant that
        fails (a base that cannot be loaded, options the game does not have, a bad cut or edit) is one row
        with code ``error`` and the exception in ``rule``; the rest of the sweep goes on.  A variant the
        sweep did not run (the cluster lost its workers or its batch, the sweep was interrupted) is one row
        with code ``not_run`` and why in ``rule``: the table is always returned, partial when it must be
        (:func:`not_run` lists those variants, and an :class:`IncompleteSweepWarning` says so when the
        cluster lost them).  ``attrs["complete"]`` and ``attrs["variants_done"]`` repeat it for a quick
        look, and ``attrs["seconds"]`` says how long the sweep took, from the call to the table.

    Raises
    ------
    RefusedError
        Before any work, for a sweep that is not a list of variants, is empty, has a variant that is not a
        mapping or has a field a variant does not, or names two variants alike, or for a ``client`` that
        is not a ``distributed.Client``, None or False; the ``base`` argument's own errors
        (``ScenarioError`` for a scenario that is not there).
    """
    import time

    from tqdm.auto import tqdm

    started = time.perf_counter()
    wanted = _wanted(variants)
    _check_options(chunk_size, on_rows, lost_after)
    if client is not False:
        from normandy_lab.interdiction.best import client_arg

        client = client_arg(
            client, "sweep", "None to start a local cluster for the sweep, or False to run here"
        )
    bases, failed = _bases(base, wanted)
    rows: dict[str, list[Any]] = {c: [] for c in COLUMNS}
    came_back: set[str] = set()
    lost: dict[str, str] = {}
    bar = tqdm(total=len(wanted), desc="sweep", unit="variant", disable=not progress)
    own = client is None
    stopped: BaseException | None = None

    def take(got: dict[str, list[Any]], n: int) -> None:
        _extend(rows, got)
        came_back.update(got["variant"])
        bar.update(n)
        if on_rows is not None:
            on_rows(got)

    try:
        try:
            # A variant whose base could not be loaded is answered here; the others go to the work.
            todo = [v for v in wanted if v.base not in failed]
            for variant in wanted:
                if variant.base in failed:
                    take(error_rows(variant, failed[variant.base]), 1)
            if client is False:
                for variant in todo:
                    take(run_chunk(bases, [variant], reasons), 1)
            elif todo:
                from normandy_lab.sweeps import cluster
                from normandy_lab.sweeps.tables import ship_maps

                client = local_cluster(min(2, os.cpu_count() or 1)) if own else client
                workers = max(1, len(client.scheduler_info()["workers"]))
                size = chunk_size or max(1, min(25, math.ceil(len(todo) / (4 * workers))))
                ship_maps(client, {state.system for state in bases.values()})
                lost = cluster.run(client, bases, todo, reasons, size, take, lost_after)
        except KeyboardInterrupt as stop:  # stopped: keep what came back; the rest is listed as not run
            lost = getattr(stop, "not_run", {})
        except Exception as exc:  # the callback failed: stop, keep what came back, and raise it
            lost = getattr(exc, "not_run", {})
            stopped = exc
    finally:
        bar.close()
        if own and client not in (None, False):
            cluster_ = client.cluster
            client.close()
            cluster_.close()
    table = _table(wanted, rows, came_back, lost, stopped)
    table.attrs["seconds"] = round(time.perf_counter() - started, 2)
    if stopped is not None:
        # The caller's own exception, so that it is caught as they expect, carrying the rows computed.
        stopped.partial_table = table  # type: ignore[attr-defined]
        stopped.add_note(
            f"nl.sweep stopped after {table.attrs['variants_done']} of {len(wanted)} variants; the rows "
            "computed so far are in this exception's .partial_table"
        )
        raise stopped
    if lost and not all(why == INTERRUPTED for why in lost.values()):
        warnings.warn(
            f"nl.sweep: {len(lost)} of {len(wanted)} variants did not come back from the cluster "
            f"({next(iter(lost.values()))}); the table holds the {table.attrs['variants_done']} that did, "
            "and one row with code 'not_run' for each of the others: not_run(table) lists them, "
            "to sweep again",
            IncompleteSweepWarning,
            stacklevel=2,
        )
    return table


class IncompleteSweepWarning(UserWarning):
    """Some variants of a sweep did not come back from its cluster; the table lists them as ``not_run``."""


def _table(
    wanted: list[Variant],
    rows: dict[str, list[Any]],
    came_back: set[str],
    lost: dict[str, str],
    stopped: BaseException | None,
) -> pd.DataFrame:
    """Return the sweep's table in the variants' order, one ``not_run`` row for each variant not back."""
    for variant in wanted:
        if variant.name in came_back:
            continue
        why = lost.get(variant.name)
        if why is None:  # stopped before it was sent
            why = INTERRUPTED if stopped is None else f"not run: the sweep stopped ({type(stopped).__name__})"
        _extend(rows, not_run_rows(variant, why))
    order = {v.name: i for i, v in enumerate(wanted)}
    table = pd.DataFrame(rows, columns=list(COLUMNS))
    if len(table):
        table = table.sort_values(
            ["variant", "side", "unit"],
            key=lambda c: c.map(order) if c.name == "variant" else c,
            kind="stable",
        ).reset_index(drop=True)
    table.attrs["complete"] = not (set(order) - came_back)
    table.attrs["variants_done"] = len(came_back)
    return table


def not_run(table: pd.DataFrame) -> list[str]:
    """Return the names of the variants a sweep did not run (its ``not_run`` rows), in the table's order.

    The rows are part of the table, so they survive filtering, concatenation and saving, where
    ``DataFrame.attrs`` may not.  Sweep them again with ``nl.sweep(base, [v for v in variants if v.name in
    not_run(table)])`` and concatenate the two tables without the ``not_run`` rows.
    """
    return list(dict.fromkeys(table.loc[table["code"] == NOT_RUN, "variant"]))


def _check_options(chunk_size: Any, on_rows: Any, lost_after: Any) -> None:
    """Refuse a chunk size that is not a whole number of at least 1, and an ``on_rows`` that is not callable.

    A chunk size of 0 or less would make no task at all, and the sweep would come back empty and "not
    complete" without a word.
    """
    if chunk_size is not None and (
        isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1
    ):
        raise RefusedError(
            f"sweep: chunk_size: {chunk_size!r} is not allowed; give the variants a task as a whole number, "
            "at least 1, or None"
        )
    if on_rows is not None and not callable(on_rows):
        raise RefusedError(
            f"sweep: on_rows: {on_rows!r:.60} is not callable; give a function of the rows, or None"
        )
    if isinstance(lost_after, bool) or not isinstance(lost_after, int | float) or not lost_after > 0:
        raise RefusedError(
            f"sweep: lost_after: {lost_after!r:.60} is not allowed; give the seconds without any worker "
            "after which the sweep gives up on the cluster, a number above 0"
        )


def _wanted(variants: Any) -> list[Variant]:
    """Return the sweep's variants, refusing a sweep that is not a list of them, is empty or names twice."""
    if isinstance(variants, str | bytes | Mapping) or not isinstance(variants, Iterable):
        raise RefusedError(
            f"sweep: variants: {variants!r:.60} is not a list of variants; give a list of mappings (weather, "
            "cuts, options, edits, base, name) or grid(...)"
        )
    wanted = [Variant.of(v) for v in variants]
    if not wanted:
        raise RefusedError("sweep: variants: an empty list; a sweep needs at least one variant")
    names = [v.name for v in wanted]
    if len(set(names)) != len(names):
        doubled = sorted({n for n in names if names.count(n) > 1})
        raise RefusedError(
            f"sweep: variants: two variants share a name: {', '.join(doubled)}; name them apart"
        )
    return wanted
