"""What-if sweeps at scale: many variants of a situation on a Dask cluster, as one tidy table (issue 19).

The flow: :mod:`.variants` (what changes, as data) -> :mod:`.worker` (a variant's state, its supply, its rows;
no Dask) -> :func:`sweep` (the cluster: the base situations scattered to every worker once, the variants
submitted in chunks, the rows streamed back as they finish, a progress bar, and a table kept when the sweep
is stopped).

Examples
--------
>>> import normandy_lab as nl
>>> from normandy_lab.sweeps import grid
>>> table = nl.sweep("bfn_1944-06-13_am", grid(weather=["Clear", "Overcast", "Storm"]))  # doctest: +SKIP
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd

from normandy_lab.engine.state import GameState
from normandy_lab.errors import RefusedError
from normandy_lab.sweeps.variants import Variant, grid
from normandy_lab.sweeps.worker import COLUMNS, error_rows, run_chunk

__all__ = ["COLUMNS", "Variant", "grid", "local_cluster", "sweep"]


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
    from distributed import Client, LocalCluster

    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
        raise RefusedError(
            f"local_cluster: workers: {workers!r} is not allowed; give a whole number of worker processes, "
            "at least 1, or None for the machine's cores"
        )
    n = workers or os.cpu_count() or 1
    # The scheduler's HTTP server on a free port of the loopback: the default, 8787, is taken by any other
    # cluster on the machine (another kernel's, a test's), and Dask then warns on stderr in the notebook.
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0")
    return Client(cluster)


def sweep(
    base: Any,
    variants: Iterable[Variant | Mapping[str, Any]],
    client: Any = None,
    reasons: bool = True,
    chunk_size: int | None = None,
    progress: bool = True,
    on_rows: Any = None,
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

    Returns
    -------
    pandas.DataFrame
        In the variants' order; ``attrs["complete"]`` is False when the sweep was stopped (interrupted)
        before every variant came back, ``attrs["variants_done"]`` says how many did, and
        ``attrs["seconds"]`` how long the sweep took, from the call to the table.  A variant that
        fails (a base that cannot be loaded, options the game does not have, a bad cut or edit) is one row
        with code ``error`` and the exception in ``rule``; the rest of the sweep goes on.

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
    _check_options(chunk_size, on_rows)
    if client is not False:
        from normandy_lab.interdiction.best import client_arg

        client = client_arg(
            client, "sweep", "None to start a local cluster for the sweep, or False to run here"
        )
    bases, failed = _bases(base, wanted)
    order = {v.name: i for i, v in enumerate(wanted)}
    rows: dict[str, list[Any]] = {c: [] for c in COLUMNS}
    done = 0
    bar = tqdm(total=len(wanted), desc="sweep", unit="variant", disable=not progress)
    own = client is None
    futures: list[Any] = []
    stopped: Exception | None = None

    def take(got: dict[str, list[Any]], n: int) -> None:
        nonlocal done
        _extend(rows, got)
        done += n
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
                from distributed import as_completed

                client = local_cluster(min(2, os.cpu_count() or 1)) if own else client
                workers = max(1, len(client.scheduler_info()["workers"]))
                size = chunk_size or max(1, min(25, math.ceil(len(todo) / (4 * workers))))
                chunks = [todo[i : i + size] for i in range(0, len(todo), size)]
                # The bases go to every worker once; each task gets a reference, not a copy.
                # A key of its own (hash=False): a sweep that repeats another's bases must not share the key
                # the other is releasing.
                [shipped] = client.scatter([bases], broadcast=True, hash=False)
                futures = [client.submit(run_chunk, shipped, chunk, reasons, pure=False) for chunk in chunks]
                sizes = {f.key: len(c) for f, c in zip(futures, chunks, strict=True)}
                for future in as_completed(futures):
                    take(future.result(), sizes[future.key])
        except KeyboardInterrupt:  # stopped: keep what came back, drop the rest
            if futures:
                client.cancel(futures)
        except Exception as exc:  # the callback (or the cluster) failed: stop, but keep what came back
            if futures:
                client.cancel(futures)
            stopped = exc
    finally:
        bar.close()
        if own and client not in (None, False):
            cluster = client.cluster
            client.close()
            cluster.close()
    table = pd.DataFrame(rows, columns=list(COLUMNS))
    if len(table):
        table = table.sort_values(
            ["variant", "side", "unit"],
            key=lambda c: c.map(order) if c.name == "variant" else c,
            kind="stable",
        ).reset_index(drop=True)
    table.attrs["complete"] = done == len(wanted)
    table.attrs["variants_done"] = done
    # What the sweep took, from the call to the table (a local cluster's start and stop included).
    table.attrs["seconds"] = round(time.perf_counter() - started, 2)
    if stopped is not None:
        # The caller's own exception, so that it is caught as they expect, carrying the rows computed.
        stopped.partial_table = table  # type: ignore[attr-defined]
        stopped.add_note(
            f"nl.sweep stopped after {done} of {len(wanted)} variants; the rows computed so far are in "
            "this exception's .partial_table"
        )
        raise stopped
    return table


def _check_options(chunk_size: Any, on_rows: Any) -> None:
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
