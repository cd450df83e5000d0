"""Tables for people: text left-aligned and wrapped whole, as a reader of a notebook expects."""

from __future__ import annotations

from typing import Any

__all__ = ["readable"]


def readable(table: Any) -> Any:
    """Return a table (a pandas DataFrame) styled for reading.

    Every cell and heading left-aligned, long text wrapped whole instead of cut (pandas right-aligns text
    and keeps it on one line).

    Parameters
    ----------
    table
        A pandas DataFrame, e.g. ``supply_changes(...)`` or ``side_by_side(...).disagreements()``.
    """
    return table.style.set_properties(**{"text-align": "left", "white-space": "normal"}).set_table_styles(
        [{"selector": "th", "props": [("text-align", "left")]}]
    )
