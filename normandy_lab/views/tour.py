"""The tour's tables that rest on every scenario's supply, worked out once and kept on disk (issue 33, §1).

The tour (``notebooks/01_tour.ipynb``, a page of the class server) shows three things made from the
scenarios of the four games: the formation squares of the campaign map (every scenario's supply determined,
:func:`normandy_lab.views.campaign.scenario_positions`), the scenarios against history (each scenario's
implied front, :func:`scenarios_against_history`) and the four games on 19 June (two games' supply,
:func:`kept_side_by_side`).  Working them out loads every scenario, the four games' maps and their engines:
≈ 190 MB a class kernel held for tables of a few hundred rows.  They are kept with the terrain's derived
tables (:func:`normandy_lab.terrain.derived.derived`: atomic writes, a damaged file built again, copies in
memory once read), under a key that also holds :func:`tour_stamp`:

* every file under ``scenarios/`` (path, size and modification time), beside ``maps/`` (the derived
  tables' own key);
* the source of every module of the package, as this process read it when it imported this module: a
  supply determination runs the rules, the engine, the maps, the grids and the history, so any of them may
  change a verdict, and a kept table is never one the code would no longer give;
* the versions of the package, Python, numpy and pandas (the copies are pickles of their objects).

They are the package's own games' verdicts on its own scenarios, as a new process works them out: a rule
system registered in a notebook under a game's key does not reach them (a game registered under a new key
does reach :func:`kept_side_by_side`, which then works its table out in the asking process, unkept).

A warm tour then reads a few hundred kB and loads no map, no engine and no scenario for these tables.  A
table not kept yet (a new version of the code or of a scenario) is worked out in a separate Python process
(:func:`table`), which writes it and ends: the kernel that asked only reads it, so even the first tour after
an update stays small (built in the kernel, the maps and engines stayed in it: 344 MB).  Kernels asking for
the same table at once (a class's pool filled at the server's start) take turns on a lock, and those after
the first read what it wrote.
"""

from __future__ import annotations

import contextlib
import hashlib
import platform
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from normandy_lab.terrain import derived as _derived
from normandy_lab.terrain.derived import code_digest, derived, files_stamp

T = TypeVar("T")

# Every module of the package (a path under normandy_lab/ that is the package itself), read once as this
# module is imported: a process keys its tables by the code it runs (terrain.derived's rule).
_PACKAGE_DIGEST = code_digest(("",))


def tour_stamp() -> bytes:
    """Return what keys the tour's tables beyond ``maps/``: the scenarios, the package's code and versions."""
    import numpy
    import pandas

    from normandy_lab import __version__
    from normandy_lab.engine.scenario import SCENARIO_DIR

    digest = hashlib.sha256(files_stamp(SCENARIO_DIR))
    digest.update(_PACKAGE_DIGEST)
    versions = (__version__, platform.python_version(), numpy.__version__, pandas.__version__)
    digest.update("|".join(versions).encode())
    return digest.digest()


def kept(name: str, build: Callable[[], T], *words: str) -> T:
    """Return ``build()``, from the disk cache while the scenarios, the maps and the package are unchanged.

    Parameters
    ----------
    name
        The table's name (a file name's start: letters, digits, ``_``).
    build
        Works the table out; called only when no current copy is on disk.
    words
        What else the table depends on (a date), as text.
    """
    return derived(name, build, *words, stamp=tour_stamp())


def _campaign_positions(*words: str) -> Any:
    # views.campaign imports this module (its squares are kept here): imported when first worked out.
    from normandy_lab.views import campaign

    return campaign._scenario_positions(*words)


def _campaign_sea(*words: str) -> Any:
    from normandy_lab.views import campaign  # as above

    return campaign._sea_table(*words)


def _history_table(*words: str) -> Any:
    return _history_rows(*words)


def _side_by_side_table(*words: str) -> Any:
    return _side_by_side_parts(*words)


#: The tour's tables, by name: the function that works one out from its words (looked up by the same name
#: in the process that works it out, which imports this module alone).
TABLES: dict[str, Callable[..., Any]] = {
    "campaign_positions": _campaign_positions,
    "campaign_sea": _campaign_sea,
    "tour_history": _history_table,
    "tour_side_by_side": _side_by_side_table,
}
#: How long a process working a table out may take before the kernel works it out itself (seconds).
APART_TIMEOUT_S = 900


class _NotKeptError(Exception):
    """No current copy of the table is on disk."""


def _not_kept() -> Any:
    raise _NotKeptError


def _builder(name: str, words: tuple[str, ...]) -> Callable[[], Any]:
    build = TABLES[name]
    return lambda: build(*words)


def table(name: str, *words: str) -> Any:
    """Return one of the tour's :data:`TABLES`, kept on disk; a missing one is worked out in another process.

    That process (``python -m normandy_lab.views.tour NAME WORDS...``) loads the scenarios, maps and engines
    the table needs and writes it; this one reads it.  Should it fail (no Python to start, a cache that cannot
    be written, another version of the code on disk by then), the table is worked out here, as before.
    """
    try:
        return kept(name, _not_kept, *words)
    except _NotKeptError:
        pass
    with _turn(name):
        try:  # another kernel may have written it while this one waited for its turn
            return kept(name, _not_kept, *words)
        except _NotKeptError:
            pass
        folder = _derived.derived_dir()
        command = [sys.executable, "-m", "normandy_lab.views.tour", str(folder), name, *words]
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            subprocess.run(command, check=True, capture_output=True, timeout=APART_TIMEOUT_S)
        return kept(name, _builder(name, words), *words)


@contextlib.contextmanager
def _turn(name: str) -> Iterator[None]:
    """Hold table ``name``'s lock: one process works a table out at a time (no lock where none can be had)."""
    try:
        import fcntl

        folder = _derived.derived_dir()
        folder.mkdir(parents=True, exist_ok=True)
        handle = open(folder / f"{name}.lock", "a+b")  # noqa: SIM115 (held across the yield)
    except (ImportError, OSError):  # no fcntl (not a POSIX system), or a cache that cannot be written
        yield
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        handle.close()  # releases the lock


def _history_rows() -> list[dict[str, Any]]:
    from normandy_lab.engine.scenario import load_scenario
    from normandy_lab.history.compare import compare_with_history
    from normandy_lab.views.launcher import scenario_list

    return [
        {"scenario": label, **compare_with_history(load_scenario(name)).row()}
        for label, name in scenario_list()
    ]


def scenarios_against_history() -> Any:
    """Return the tour's table of every scenario against history, one row a scenario.

    Each row is the scenario's label (:func:`normandy_lab.views.launcher.scenario_list`) and
    ``compare_with_history(load_scenario(name)).row()``: the implied front's distances to the historical
    line and the units on the wrong side.

    Returns
    -------
    pandas.DataFrame
    """
    import pandas as pd

    return pd.DataFrame(table("tour_history"))


def _side_by_side_parts(day: str) -> tuple[Any, dict[str, str], Any]:  # (date, scenarios, table)
    from normandy_lab.sidebyside import side_by_side

    found = side_by_side(day)
    return found.date, found.scenarios, found.table


def kept_side_by_side(date: Any) -> Any:
    """Return :func:`normandy_lab.side_by_side` of ``date`` (each game's scenario of that date), kept on disk.

    Its verdicts table is what is kept; :meth:`~normandy_lab.sidebyside.SideBySide.disagreements` and
    :meth:`~normandy_lab.sidebyside.SideBySide.figure` work from it as on a fresh one.

    Raises
    ------
    RefusedError
        As :func:`normandy_lab.side_by_side` does, for a date that is not one, or one that fewer than two
        games cover.
    """
    from normandy_lab.rules import only_package_games
    from normandy_lab.sidebyside import SideBySide, date_arg, side_by_side

    day = date_arg("side_by_side", date).isoformat()
    if not only_package_games():
        # A game registered (or replaced) in this process takes part in its side by side: neither the key nor
        # the process that works tables out knows it, so its verdicts are worked out here and not kept.
        return side_by_side(day)
    found_date, scenarios, verdicts = table("tour_side_by_side", day)
    return SideBySide(found_date, dict(scenarios), verdicts.copy())


def main(arguments: list[str]) -> None:
    """Work out the table named in ``arguments`` (``FOLDER NAME WORDS...``) and write it to ``FOLDER``."""
    folder, name, *words = arguments
    _derived.derived_dir = lambda: Path(folder)  # the asking process's cache, wherever it is
    kept(name, _builder(name, tuple(words)), *words)


if __name__ == "__main__":
    main(sys.argv[1:])
