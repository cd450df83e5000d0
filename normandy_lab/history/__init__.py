"""The historical record of the Normandy campaign, 6 June to 25 August 1944.

- :func:`lodgement`, :func:`front_line`, :func:`held_by`, :func:`lodgement_dates`:
  the Allied-held ground and the front lines by date.
- :func:`timeline`: the campaign's events.
- :func:`facts`, :func:`check_facts`: dated (place, side) facts that test the record.
"""

from normandy_lab.history.facts import check_facts, facts, facts_available
from normandy_lab.history.lodgement import (
    CAMPAIGN_AREA,
    HistoryError,
    LodgementRecord,
    distance_to_front_km,
    front_line,
    held_by,
    lodgement,
    lodgement_dates,
    record,
    records,
)
from normandy_lab.history.timeline import timeline

__all__ = [
    "CAMPAIGN_AREA",
    "HistoryError",
    "LodgementRecord",
    "check_facts",
    "distance_to_front_km",
    "facts",
    "facts_available",
    "front_line",
    "held_by",
    "lodgement",
    "lodgement_dates",
    "record",
    "records",
    "timeline",
]
