"""The grids' data files (``docs/grids.md``): hexes the rulebooks tie to places or to the shore.

``maps/grids/control_points.yaml`` (:data:`ControlPointsFile`, read by :mod:`normandy_lab.grids.georef`)
and ``maps/grids/coast_hexes.yaml`` (:data:`CoastHexesFile`, read by :mod:`normandy_lab.grids.coastfit`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, TypeAdapter

from normandy_lab.schemas.fields import HexId, StrictModel, Text
from normandy_lab.schemas.validation import register_doc_page
from normandy_lab.words import COAST_SIDES

GridSystem = Literal["bfn", "cobra", "kg", "gts"]
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


ControlPointsFile: TypeAdapter[Any] = TypeAdapter(dict[GridSystem, list[ControlPointSchema] | None])
CoastHexesFile: TypeAdapter[Any] = TypeAdapter(dict[GridSystem, list[CoastHexSchema] | None])

register_doc_page(ControlPointsFile, "docs/grids.md")
register_doc_page(CoastHexesFile, "docs/grids.md")

__all__ = [
    "CoastHexSchema",
    "CoastHexesFile",
    "ControlPointSchema",
    "ControlPointsFile",
    "ControlUse",
    "GridSystem",
]
