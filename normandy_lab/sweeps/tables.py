"""Map tables for a worker that has none: the sweep ships its own cached terrain maps to every worker.

A terrain map is derived from the geography on first use and cached on disk (:func:`~normandy_lab.terrain.
cache_dir`); deriving one takes minutes (343 s was measured on a loaded machine), so a fresh worker machine
would spend them before its first variant.  The client of a sweep already holds the map of every game it
sweeps (it loaded the bases), so it sends the cache files along: a Dask worker plugin, registered once a
client, that writes each file a worker lacks into that worker's cache before it takes a task, and again on
any worker that joins later.  A file is only ever shipped under the name it has on the client, which carries
the hash of the code and data it was built from (:func:`~normandy_lab.terrain.cache_key`): a worker with
another version of the package computes another name, does not find the shipped file, and builds its own,
so a map is never used by code it was not built for.
"""

from __future__ import annotations

import os
import warnings
import weakref
from pathlib import Path
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

# The plugins a client has registered, by name: a sweep registers the maps of its games once a client.
_REGISTERED: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()


class TerrainTables(WorkerPlugin):
    """Write the client's cached terrain maps into a worker's cache, where that worker lacks them.

    Parameters
    ----------
    files
        The cache files by name (``bfn-<key>.pickle``) and their bytes.
    """

    def __init__(self, files: dict[str, bytes]) -> None:
        self.files = files
        self.name = plugin_name(files)

    def setup(self, worker: Any) -> None:
        """Write each file the worker's cache lacks (atomically: workers sharing a cache read whole files)."""
        from normandy_lab.terrain import cache_dir

        directory = cache_dir()
        directory.mkdir(parents=True, exist_ok=True)
        for name, blob in self.files.items():
            path = directory / name
            if path.exists():
                continue
            temporary = path.with_suffix(f".tmp{os.getpid()}")
            temporary.write_bytes(blob)
            os.replace(temporary, path)


def ship_maps(client: Any, systems: set[str]) -> None:
    """Make sure every worker of ``client`` (now and later) has the terrain maps of ``systems``.

    Builds a map on the client first if its cache lacks it (the client needs it anyway to load the bases).
    """
    from normandy_lab.terrain import cache_path, terrain_map

    paths: list[Path] = []
    for system in sorted(systems):
        terrain_map(system, progress=False)
        path = cache_path(system)
        if path.exists():  # a map built with the cache unwritable cannot be shipped; the worker builds it
            paths.append(path)
    if not paths:
        return
    name = plugin_name(p.name for p in paths)
    done = _REGISTERED.setdefault(client, set())
    if name in done:  # registered before: the scheduler gives it to every worker that joins
        return
    client.register_plugin(TerrainTables({p.name: p.read_bytes() for p in paths}), name=name)
    done.add(name)
    # A worker with other code or data names its maps otherwise and builds its own, for minutes: say so.
    theirs = client.run(expected_names, sorted(systems))
    ours = {p.name for p in paths}
    for address, names in theirs.items():
        other = sorted(set(names) - ours)
        if other:
            warnings.warn(
                f"nl.sweep: the worker at {address} runs other normandy_lab code or data than this process "
                f"(it expects the map table {other[0]}, this process has {', '.join(sorted(ours))}); it "
                "builds its own map tables, which takes minutes: install the same version on every machine",
                stacklevel=3,
            )


def expected_names(systems: list[str]) -> list[str]:
    """Return the cache files' names this process reads the maps of ``systems`` from (run on a worker)."""
    from normandy_lab.terrain import cache_path

    return [cache_path(system).name for system in systems]


def plugin_name(files: Any) -> str:
    """Return the plugin's name for these cache files: the same files, the same plugin."""
    return "normandy-lab-maps-" + "-".join(sorted(str(n).removesuffix(".pickle") for n in files))
