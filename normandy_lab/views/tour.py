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

A warm tour then reads a few hundred kB and loads no map, no engine and no scenario for these tables.
"""

from __future__ import annotations

import hashlib
import platform
from collections.abc import Callable
from typing import Any, TypeVar

from normandy_lab.terrain.derived import _code_digest, derived, files_stamp

T = TypeVar("T")

# Every module of the package (a path under normandy_lab/ that is the package itself), read once as this
# module is imported: a process keys its tables by the code it runs (terrain.derived's rule).
_PACKAGE_DIGEST = _code_digest(("",))


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

    return pd.DataFrame(kept("tour_history", _history_rows))


def _side_by_side_parts(day: str) -> tuple[Any, dict[str, str], Any]:
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
    from normandy_lab.sidebyside import SideBySide, date_arg

    day = date_arg("side_by_side", date).isoformat()
    found_date, scenarios, table = kept("tour_side_by_side", lambda: _side_by_side_parts(day), day)
    return SideBySide(found_date, dict(scenarios), table.copy())
