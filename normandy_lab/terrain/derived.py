"""Tables derived from the map data for drawing, kept on disk beside the terrain maps.

The explorer's first opening in a kernel used to derive, from the geography files and the historical
record, tables that never change between openings: the basemap's outlines in Web Mercator, the lodgement
record's fronts, the sectors' names.  That was most of an opening's time in a warm kernel (issue 33,
section 4).  :func:`derived` keeps each such table in a pickle under ``cache_dir()/derived``, named by a
hash of what it was derived from:

* every file under ``maps/`` (path, size and modification time: a data file changed, or replaced by one of
  another size, makes a new key);
* the source of the modules the tables are derived by (:data:`CODE`), as this process read it when it
  imported this module: a change to that code makes a new key, so a cached table is never one the code
  would no longer build (the terrain maps' rule);
* the caller's own words for the table (its name and arguments).

A table read or built is also kept in memory under the same key, so a kernel derives or reads it once.
A damaged file is built again, never trusted; a table is written atomically; copies of the same
table (same name and words) beyond the last :data:`KEEP` are removed when a new one is written.
``NORMANDY_LAB_CACHE`` moves the cache as it moves the terrain maps'.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

from normandy_lab.paths import REPO_ROOT, maps_dir

T = TypeVar("T")

_MEMORY: dict[Path, Any] = {}
#: How many copies of a table (for as many versions of the code or data) are kept on disk.
KEEP = 4


#: The code the tables are derived by, under ``normandy_lab/``: whole packages and single modules.  What a
#: table takes from a game (its map, its sectors, its terrain colours) enters its words by value instead
#: (:func:`map_key`), so that the games' rules, the engine and the explorer can change without making every
#: table again (tests/test_derived_tables.py checks that the builders live here).  The file schemas only
#: refuse a file (what they accept is read as it is), so they are not part of it.
CODE = (
    "geo", "grids", "terrain", "history",
    "__init__.py", "_moved.py", "errors.py", "grid.py", "paths.py", "words.py", "yamllines.py",
    "terrain_vocab.py", "rules/sectors.py",
    "views/basemap.py", "views/hexcells.py", "views/mapview.py", "views/sectors.py",
)  # fmt: skip


def _code_files(parts: tuple[str, ...] = CODE) -> list[Path]:
    root = REPO_ROOT / "normandy_lab"
    found: set[Path] = set()
    for part in parts:
        path = root / part
        found.update(path.rglob("*.py") if path.is_dir() else [path] if path.exists() else [])
    return sorted(found)


def code_digest(parts: tuple[str, ...] = CODE) -> bytes:
    """Return the hash of the tables' code (:data:`CODE`, or other ``parts`` of the package) on disk now."""
    digest = hashlib.sha256()
    for path in _code_files(parts):
        digest.update(str(path.relative_to(REPO_ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.digest()


# Read once, as this module is imported (with the drawing code, views.basemap): a process keeps the key of
# the code it runs, and never saves a table built by old code under the key of code edited since.
_CODE_DIGEST = code_digest()


def _data_stamp() -> bytes:
    """Return the path, size and modification time of every file under ``maps/``."""
    return files_stamp(maps_dir())


def files_stamp(root: Path) -> bytes:
    """Return the hash of the path, size and modification time of every file under ``root``."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        stat = path.stat()
        digest.update(f"{path.relative_to(root)}|{stat.st_size}|{stat.st_mtime_ns}\n".encode())
    return digest.digest()


def derived_dir() -> Path:
    """Return the directory the derived tables are kept in (under the terrain cache)."""
    from normandy_lab.terrain import cache_dir

    return cache_dir() / "derived"


def map_key(system: str) -> str:
    """Return the key of ``system``'s terrain map, for the words of a table derived from that map.

    It holds the map's data by value: a game registered from outside the package brings its map's scheme,
    vocabulary and control points, which the package's source does not cover.
    """
    from normandy_lab.terrain import cache_path

    return cache_path(system).stem


def derived(name: str, build: Callable[[], T], *words: str, stamp: bytes = b"") -> T:
    """Return ``build()``, from the disk cache when neither the map data nor the package's code changed.

    Parameters
    ----------
    name
        The table's name (a file name's start: letters, digits, ``_``).
    build
        Builds the table; called only when no current copy is on disk.  What it raises is raised, and
        nothing is written.
    words
        What else the table depends on (a system's key, a file's path), as text.
    stamp
        What else keys the table's current copy, beyond ``maps/`` and :data:`CODE` (e.g. the hash of other
        data files and code): a new stamp replaces the copy, as a new version of the code does.
    """
    which = hashlib.sha256("\0".join((name, *words)).encode()).hexdigest()[:8]
    digest = hashlib.sha256(which.encode())
    digest.update(_data_stamp())
    digest.update(_CODE_DIGEST)
    digest.update(stamp)
    folder = derived_dir()
    path = folder / f"{name}-{which}-{digest.hexdigest()[:20]}.pickle"
    if path in _MEMORY:
        return cast(T, _MEMORY[path])
    if path.exists():
        try:
            with open(path, "rb") as handle:
                _MEMORY[path] = pickle.load(handle)
            return cast(T, _MEMORY[path])
        except Exception:  # a damaged cache file is built again, never trusted
            path.unlink(missing_ok=True)
    table = build()
    _MEMORY[path] = table
    try:
        folder.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".tmp{os.getpid()}")
        with open(temporary, "wb") as handle:
            pickle.dump(table, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, path)  # atomic: a reader never sees half a table
        # Older copies go, but not the last few: processes started before an edit of the code (a kernel, a
        # test run) keep their own key and would otherwise remove each other's copies in turn.
        copies = sorted(folder.glob(f"{name}-{which}-*.pickle"), key=lambda p: p.stat().st_mtime)
        for old in copies[:-KEEP]:
            old.unlink(missing_ok=True)
    except OSError:  # a read-only or full cache: the table is still right, only not kept
        pass
    return table
