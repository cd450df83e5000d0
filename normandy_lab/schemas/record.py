"""The historical record's files (``docs/history.md``): lodgement outlines, dated facts, the timeline.

Written by the project's compilers, and by users who digitise their own lines or facts.  Places are
resolved against the gazetteer after validation (:mod:`normandy_lab.history`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from normandy_lab.schemas.fields import NOT_BLANK, SLUG, Date, LonLat, Side, StrictModel, Text
from normandy_lab.schemas.validation import register_doc_page

SourceKey = Annotated[str, Field(min_length=1, pattern=NOT_BLANK)]
Sources = dict[SourceKey, Text]
Km = Annotated[float, Field(ge=-100, le=100)]


class OffsetSchema(StrictModel):
    """A waypoint a stated distance from a place: ``{near: PLACE, km: [east, north]}``."""

    near: Text | LonLat
    km: Annotated[list[Km], Field(min_length=2, max_length=2)] = [0.0, 0.0]  # noqa: RUF012 - pydantic copies it


# A gazetteer name, a [lon, lat] pair, or an offset from a place.
Waypoint = Text | LonLat | OffsetSchema


class AreaSchema(StrictModel):
    """An Allied area or a German pocket: a ring of waypoints."""

    name: Text
    outline: Annotated[list[Waypoint], Field(min_length=3)]
    note: str | None = None
    source: str | None = None


class LodgementRecordSchema(StrictModel):
    """The Allied-held ground at the end of one date."""

    date: Date
    time: Text | None = None
    sources: Annotated[list[SourceKey], Field(min_length=1)]
    accuracy_km: Annotated[float, Field(gt=0, le=50)]
    uncertain: str | None = None
    allied: Annotated[list[AreaSchema], Field(min_length=1)]
    german_pockets: list[AreaSchema] | None = None
    notes: str | None = None


class LodgementFileSchema(StrictModel):
    """A lodgement file (``maps/history/lodgement_*.yaml``)."""

    model_config = ConfigDict(extra="forbid", strict=True, title="normandy_lab lodgement record")

    sources: Sources | None = None
    records: Annotated[list[LodgementRecordSchema], Field(min_length=1)]


class FactSchema(StrictModel):
    """Who held a place at the end of a date, from a narrative."""

    place: Text
    lonlat: LonLat | None = None
    date: Date
    side: Side
    event: str | None = None
    source: SourceKey


class FactsFileSchema(StrictModel):
    """A file of dated facts (``maps/history/facts_*.yaml``)."""

    model_config = ConfigDict(extra="forbid", strict=True, title="normandy_lab dated facts")

    sources: Sources | None = None
    facts: Annotated[list[FactSchema], Field(min_length=1)]


EventCategory = Literal[
    "landing", "airborne", "battle", "operation", "storm", "capture", "logistics", "command"
]


class EventSchema(StrictModel):
    """An event of the campaign's timeline."""

    id: Annotated[str, Field(pattern=SLUG)]
    name: Text
    start: Date
    end: Date | None = None
    place: Text
    lonlat: LonLat | None = None
    place_note: str | None = None
    formations: list[Text] | None = None
    category: Literal[
        "landing", "airborne", "battle", "operation", "storm", "capture", "logistics", "command"
    ]
    description: Text
    sources: Annotated[list[SourceKey], Field(min_length=1)]


class TimelineSchema(StrictModel):
    """The campaign's timeline (``maps/history/timeline.yaml``)."""

    model_config = ConfigDict(extra="forbid", strict=True, title="normandy_lab timeline")

    sources: Sources
    events: Annotated[list[EventSchema], Field(min_length=1)]


register_doc_page(LodgementFileSchema, "docs/history.md")
register_doc_page(FactsFileSchema, "docs/history.md")
register_doc_page(TimelineSchema, "docs/history.md")

__all__ = [
    "AreaSchema",
    "EventCategory",
    "EventSchema",
    "FactSchema",
    "FactsFileSchema",
    "Km",
    "LodgementFileSchema",
    "LodgementRecordSchema",
    "OffsetSchema",
    "SourceKey",
    "Sources",
    "TimelineSchema",
    "Waypoint",
]
