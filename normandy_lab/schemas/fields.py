"""The field types and categories every file kind shares: sides, ids, dates, counts and text patterns.

A leaf of the schemas: it imports pydantic and the package's shared words (:mod:`normandy_lab.words`) only,
so that a room's schema module (the grids', the record's, the scenario's) can build on it without
importing another room.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from normandy_lab.words import EXPECTED_WHY, UNIT_ID_PATTERN

# The categories every game shares; a game's own (unit types, sizes, turns, weathers) are in its rule
# system's scenario schema (``ScenarioFormat.scenario_schema``; BfN's in normandy_lab.rules.bfn.schema).
Side = Literal["allied", "german"]
Nationality = Literal["US", "UK", "CA", "FR", "PL", "DE"]
Status = Literal["active", "eliminated", "off_map"]
HqKind = Literal["division", "corps", "kg"]
if TYPE_CHECKING:  # a type checker cannot read a Literal built from a tuple: to it, a reason is text
    Why = str
else:
    Why = Literal[tuple(EXPECTED_WHY)]

# The patterns text fields must match, and what each means in words (for the advice of an error).
# Some text, and no control character but tab and line breaks: an ESC or a NUL written as a YAML escape
# ("\e", "\0") would reach tables, GeoPackages and terminals as it is.
_NO_CONTROL = r"[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]"
NOT_BLANK = rf"^{_NO_CONTROL}*[^\s\x00-\x1f\x7f-\x9f]{_NO_CONTROL}*$"
NO_CONTROL = rf"^{_NO_CONTROL}*$"
HEX_ID = r"^[A-Za-z0-9.]+$"
UNIT_ID = f"^{UNIT_ID_PATTERN.pattern}$"
DATE = r"^\d{4}-\d{2}-\d{2}$"
WHAT_IF_INTERDICTION = r"^(block|\+[1-9][0-9]?)$"  # +1 to +99 MP: +0 would interdict nothing
MAP_LETTER = r"^[A-Z]$"
SHA256 = r"^[0-9a-f]{64}$"
SLUG = r"^[A-Za-z0-9_-]+$"
PATTERN_WORDS: dict[str, str] = {
    NOT_BLANK: "it may not be blank, nor hold a control character (ESC, NUL, ...; tab and new lines may)",
    NO_CONTROL: "it may not hold a control character (ESC, NUL, ...; tab and new lines may)",
    HEX_ID: "a hex id is letters, digits and dots, as the map prints it (C2913, 30.027)",
    UNIT_ID: "an id is letters, digits and . _ : + -, starting with a letter or digit, at most 64 of them",
    DATE: "write the date as YYYY-MM-DD, e.g. 1944-06-13",
    WHAT_IF_INTERDICTION: "write block, or + and a number of MP from 1 to 99 (+2)",
    MAP_LETTER: "a map is one capital letter (A, B, C ...)",
    SHA256: "it is written by save_study; save the study again rather than edit it",
    SLUG: "an id is letters, digits, _ and -",
}

Text = Annotated[str, Field(min_length=1, pattern=NOT_BLANK)]
HexId = Annotated[str, Field(min_length=3, max_length=12, pattern=HEX_ID)]
UnitId = Annotated[str, Field(pattern=UNIT_ID)]
Date = dt.date | Annotated[str, Field(pattern=DATE)]
Count = Annotated[StrictInt, Field(ge=0)]
Points = dict[Annotated[str, Field(pattern=MAP_LETTER)], Count]
# YAML and JSON have lists, not tuples: a pair is a list of two.
HexPair = Annotated[list[HexId], Field(min_length=2, max_length=2)]
LonLat = Annotated[list[float], Field(min_length=2, max_length=2)]


class StrictModel(BaseModel):
    """The base of every file section's schema: no field the schema does not name, no type coercion.

    A game's scenario and unit sections (``rules/<game>/schema.py``) subclass it, or the core's
    :class:`~normandy_lab.schemas.scenario.ScenarioSchema` and
    :class:`~normandy_lab.schemas.scenario.UnitSchema` that do.
    """

    model_config = ConfigDict(extra="forbid", strict=True)


__all__ = [
    "DATE",
    "HEX_ID",
    "MAP_LETTER",
    "NOT_BLANK",
    "NO_CONTROL",
    "PATTERN_WORDS",
    "SHA256",
    "SLUG",
    "UNIT_ID",
    "WHAT_IF_INTERDICTION",
    "Count",
    "Date",
    "HexId",
    "HexPair",
    "HqKind",
    "LonLat",
    "Nationality",
    "Points",
    "Side",
    "Status",
    "StrictModel",
    "Text",
    "UnitId",
    "Why",
]
