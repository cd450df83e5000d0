"""Where the project's data lives.

The data (``maps/``, ``scenarios/``) sits beside the package in the
repository, which is installed in editable mode by the README's commands.  A
different location can be given with the ``NORMANDY_LAB_MAPS`` environment
variable (for example for an installation that copied ``maps/`` elsewhere).
"""

from __future__ import annotations

import os
from pathlib import Path

from normandy_lab.errors import FileRefusedError

REPO_ROOT = Path(__file__).resolve().parents[1]


class MapDataMissingError(FileRefusedError, FileNotFoundError):
    """The project's own data is not where it should be (an installation problem, not a user's file).

    Also a ``FileNotFoundError``, which is what callers caught before it was in the project's tree.
    """


def maps_dir() -> Path:
    """Return the ``maps/`` directory.

    Raises
    ------
    MapDataMissingError
        (a ``FileNotFoundError``) When it cannot be found, saying how to point at it.
    """
    configured = os.environ.get("NORMANDY_LAB_MAPS")
    path = Path(configured) if configured else REPO_ROOT / "maps"
    if not path.is_dir():
        raise MapDataMissingError(
            f"normandy_lab's map data was not found at {path}. Install the package in "
            "editable mode from its repository (pip install -e .) or set NORMANDY_LAB_MAPS "
            "to the folder that holds gazetteer/ and grids/."
        )
    return path


def map_file(*parts: str) -> Path:
    """Return the path of a file under ``maps/``, checking that it exists."""
    path = maps_dir().joinpath(*parts)
    if not path.exists():
        raise MapDataMissingError(f"normandy_lab: missing data file {path}")
    return path
