"""A sweep on a Dask cluster: the bases kept on the workers, the variants in batches, and a cluster that dies.

* **Bases.** Each base situation goes to the cluster once, as a small task holding its pickled bytes
  (:func:`base_futures`), keyed by the hash of those bytes.  A worker unpacks it once and keeps the object,
  so every batch on that worker uses the same state (and the engine's caches stay warm), and a later sweep
  of the same base finds it still there.  Unlike scattered data, a task can be run again: if the workers
  holding a base die and others take their place (a nanny restarting them, a new machine), the base is
  rebuilt from its bytes and the sweep goes on.
* **Batches.** A task is a batch of variants (each only its small delta: weather, cuts, readings, edits),
  so the per-task cost of the scheduler is spread over many determinations.
* **Failure.** A batch the cluster cannot finish (its worker killed too often, the connection to the
  scheduler lost) or a cluster with no worker left for ``lost_after`` seconds costs only the variants not
  yet back: :func:`run` returns why each of them was not run, and the sweep keeps every row that came back.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from normandy_lab.engine.state import GameState
from normandy_lab.sweeps.variants import Variant
from normandy_lab.sweeps.worker import INTERRUPTED, run_chunk

#: How many base situations a client keeps on its cluster between sweeps (the oldest is released first).
HELD_BASES = 16

_HELD: weakref.WeakKeyDictionary[Any, OrderedDict[str, Any]] = weakref.WeakKeyDictionary()


def unpacked(blob: bytes) -> GameState:
    """Return the state a base task holds (run on a worker, once per worker that needs it)."""
    import pickle

    return pickle.loads(blob)


def base_futures(client: Any, bases: Mapping[str, GameState]) -> dict[str, Any]:
    """Return a future of each base on the cluster, sending only those it does not hold yet.

    The key is the hash of the state's bytes: the same situation in a later sweep is the same task, still in
    the workers' memory.
    """
    import cloudpickle  # Dask's own serialiser: a state holds read-only mappings plain pickle refuses

    held = _HELD.setdefault(client, OrderedDict())
    out = {}
    for name, state in bases.items():
        blob = cloudpickle.dumps(state, protocol=5)
        token = hashlib.sha256(blob).hexdigest()[:24]
        future = held.pop(token, None)
        if future is None or future.status in ("error", "cancelled"):
            future = client.submit(unpacked, blob, key=f"normandy-lab-base-{token}", pure=False)
        held[token] = future  # most recent last
        out[name] = future
    while len(held) > HELD_BASES:
        held.popitem(last=False)
    return out


def _workers(client: Any) -> int:
    """Return how many workers the scheduler has (a round trip to it)."""
    try:
        return len(client.scheduler_info().get("workers", {}))
    except Exception:  # no scheduler to ask: as good as no worker
        return 0


class _NoWorkerError(Exception):
    """A finished batch whose rows no worker can give any more: the cluster has had no worker too long."""


def _fetch(future: Any, client: Any, lost_after: float) -> Any:
    """Return a batch's rows, or raise :class:`_NoWorkerError` when the cluster has no worker to give them.

    A batch reported done may have its rows on a worker that has since died; the scheduler then waits
    to compute it again, which never happens on a cluster with no worker left, so ``future.result()``
    alone would wait for ever.  Wait a second at a time and ask the scheduler in between.
    """
    alone_since: float | None = None
    while True:
        try:
            return future.result(timeout=1.0)
        except TimeoutError:  # distributed's own timeout is the built-in one (Python 3.11)
            pass
        now = time.monotonic()
        if _workers(client):
            alone_since = None
        elif alone_since is None:
            alone_since = now
        elif now - alone_since >= lost_after:
            raise _NoWorkerError(f"not run: the cluster had no worker for {lost_after:g} s")


def run(
    client: Any,
    bases: Mapping[str, GameState],
    todo: Sequence[Variant],
    reasons: bool,
    size: int,
    take: Callable[[dict[str, list[Any]], int], None],
    lost_after: float,
) -> dict[str, str]:
    """Run the variants on the cluster in batches of ``size``, giving each batch's rows to ``take``.

    Returns
    -------
    dict
        Why each variant that did not come back was not run, by variant name (empty when all came back).
        A ``KeyboardInterrupt`` (from ``take`` or the user) cancels the batches not yet back and is raised,
        with those reasons as its ``not_run``.
    """
    from distributed import as_completed

    shipped = base_futures(client, {b: bases[b] for b in dict.fromkeys(v.base for v in todo)})
    batches: dict[str, list[Variant]] = {}
    futures = []
    for i in range(0, len(todo), size):
        batch = list(todo[i : i + size])
        needed = {b: shipped[b] for b in dict.fromkeys(v.base for v in batch)}
        future = client.submit(run_chunk, needed, batch, reasons, pure=False)
        batches[future.key] = batch
        futures.append(future)
    pending = {f.key: f for f in futures}
    lost: dict[str, str] = {}

    def give_up(reason: str) -> None:
        for key in pending:
            lost.update(dict.fromkeys((v.name for v in batches[key]), reason))
        with contextlib.suppress(Exception):  # a scheduler that is gone has nothing left to cancel
            client.cancel(list(pending.values()))
        pending.clear()

    finished = as_completed(futures)
    alone_since: float | None = None
    asked = 0.0
    try:
        while pending:
            if finished.has_ready():
                for future in finished.next_batch(block=False):
                    pending.pop(future.key, None)
                    batch = batches[future.key]
                    try:
                        got = _fetch(future, client, lost_after)
                    except _NoWorkerError as gone:  # and none for the batches still out either
                        lost.update(dict.fromkeys((v.name for v in batch), str(gone)))
                        give_up(str(gone))
                        break
                    except Exception as exc:  # the cluster's failure: a variant's own is its error row
                        lost.update(dict.fromkeys((v.name for v in batch), f"{type(exc).__name__}: {exc}"))
                        continue
                    take(got, len(batch))
                continue
            # Nothing back yet: a cluster with no worker for lost_after seconds will never answer.  Asking
            # the scheduler is a round trip (its work shares the machine), so once a second at most.
            now = time.monotonic()
            if now - asked >= 1.0:
                asked = now
                if _workers(client):
                    alone_since = None
                elif alone_since is None:
                    alone_since = now
                elif now - alone_since >= lost_after:
                    give_up(f"not run: the cluster had no worker for {lost_after:g} s")
                    break
            time.sleep(0.05)  # as_completed's own wait polls as often
    except KeyboardInterrupt as stop:
        give_up(INTERRUPTED)
        stop.not_run = lost  # type: ignore[attr-defined]
        raise
    except BaseException as exc:
        give_up(f"not run: the sweep stopped ({type(exc).__name__}: {exc})")
        exc.not_run = lost  # type: ignore[attr-defined]
        raise
    return lost
