"""What every part of the explorer shares: its modes and views, and how a map is first framed."""

from __future__ import annotations

import difflib
import math
import numbers
from collections.abc import Sequence
from typing import Any, NoReturn

from normandy_lab.errors import RefusedError, UnknownNameError
from normandy_lab.views.sectors import front_extent

ENEMY = {"allied": "german", "german": "allied"}
VIEWS = ("phasing side", "allied", "german", "both sides")
MODES = (
    "inspect",
    "move unit",
    "interdict hex",
    "destroy bridge",
    "repair bridge",
    "add unit",
    "remove unit",
)
FRONT_VIEW = "the scenario's front"


#: The view a map first shows (the scenario's front), under the name the explorer has always used.
_default_extent = front_extent


def _edit_ops(explorer: Any) -> list[dict[str, Any]]:
    return explorer.session.edits


def shown(value: Any) -> str:
    """Return a value as an error message quotes it: its repr, cut short when long."""
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:60]}... ({len(text):,} characters)"


def refuse_unknown(
    function: str, argument: str, value: Any, names: Sequence[str], what: str, allowed: str = ""
) -> NoReturn:
    """Refuse a name that is not among ``names``, with the nearest ones.

    Parameters
    ----------
    function, argument
        The explorer's method and its argument, as the message names them.
    value
        What was passed (text or not).
    names
        The names allowed.
    what
        What a name stands for ("a sector", "a formation of the state shown").
    allowed
        What the message says to give instead of listing every name (for long lists, such as unit ids).

    Raises
    ------
    UnknownNameError
        Always.
    """
    close = difflib.get_close_matches(value, list(names), n=3) if isinstance(value, str) else []
    hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
    allowed = allowed or f"give one of {', '.join(repr(n) for n in names)}"
    raise UnknownNameError(f"{function}: {argument}: {shown(value)} is not {what}; {hint}{allowed}")


def map_coordinate(function: str, argument: str, value: Any) -> float:
    """Return a map coordinate (Web Mercator metres) as a float, refusing anything but a finite number."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise RefusedError(
            f"{function}: {argument}: {shown(value)} is not allowed; {argument} is a map coordinate: "
            "a finite number of Web Mercator metres (what a click on the map gives)"
        )
    return float(value)
