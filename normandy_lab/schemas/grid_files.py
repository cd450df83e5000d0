"""The grids' data files (``docs/grids.md``): hexes the rulebooks tie to places or to the shore.

``maps/grids/control_points.yaml`` (:func:`control_points_file`, read by :mod:`normandy_lab.grids.georef`)
and ``maps/grids/coast_hexes.yaml`` (:func:`coast_hexes_file`, read by :mod:`normandy_lab.grids.coastfit`).
Each file is a mapping of map key to entries.  The keys it may hold are the maps it places, which only the
grids know (:func:`normandy_lab.grids.georef.grid_file_maps`: every registered map but those whose game
brings its own control points), so the model is built for the keys it is given and this module names no
map; the grids and the JSON Schema export (:mod:`normandy_lab.schemas.kinds`) ask for it with the keys.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from normandy_lab.schemas.fields import HexId, StrictModel, Text
from normandy_lab.schemas.validation import register_doc_page
from normandy_lab.words import COAST_SIDES

ControlUse = Literal["fit", "check", "dropped"]


class _GridEntry(StrictModel):
    rule: Text
    use: ControlUse
    reason: str | None = None


class ControlPointSchema(_GridEntry):
    """A hex (or group of hexes) that a rule ties to a named place."""

    hex: HexId | Annotated[list[HexId], Field(min_length=1)]
    place: Text


class CoastHexSchema(_GridEntry):
    """A hex that a rule puts on the shore."""

    hex: HexId
    side: Literal[COAST_SIDES]  # type: ignore[valid-type]


def _file(maps: tuple[str, ...], entry: type[_GridEntry]) -> TypeAdapter[Any]:
    """Return the model of a grids data file: a mapping of the maps ``maps`` to lists of ``entry``."""
    if not maps:
        raise ValueError("a grids data file's model needs at least one map key")
    key = Literal[maps]  # type: ignore[valid-type]  # the keys given: a map the file does not place is refused
    model: TypeAdapter[Any] = TypeAdapter(dict[key, list[entry] | None])  # type: ignore[valid-type]
    register_doc_page(model, "docs/grids.md")
    return model


@lru_cache(maxsize=8)
def control_points_file(maps: tuple[str, ...]) -> TypeAdapter[Any]:
    """Return the model of ``maps/grids/control_points.yaml`` for a file that may place the maps ``maps``."""
    return _file(maps, ControlPointSchema)


@lru_cache(maxsize=8)
def coast_hexes_file(maps: tuple[str, ...]) -> TypeAdapter[Any]:
    """Return the model of ``maps/grids/coast_hexes.yaml`` for a file that may hold the maps ``maps``."""
    return _file(maps, CoastHexSchema)

__all__ = ["CoastHexSchema", "ControlPointSchema", "ControlUse", "coast_hexes_file", "control_points_file"]
