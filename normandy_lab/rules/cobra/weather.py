"""Cobra's weather (5.3): a die roll a game turn, on one of three columns, with runs that push it about.

Weather in Cobra is Allied air power against German movement (5.3b): a German unit moves its whole MA in
storms, two thirds of it under overcast and a third of it in clear weather.  The rolling (5.3a):

* GT 1 is clear and GT 2 overcast in a scenario that starts on GT 1; if no storm came before, GT 6 is a
  storm (5.3);
* from the first rolled turn, column A; column B after two storm turns in a row; from GT 20, column C;
* after three storm turns in a row, overcast without a roll;
* after three clear turns in a row, a -1 modifier, one more each turn the weather stays clear; after three
  non-clear turns in a row, +1 likewise, until clear weather comes.

The columns themselves are printed on map A and not in the text: :data:`COLUMNS` is RECONSTRUCTED.  The
5.3a example fixes two entries of column C (a modified 4 is clear; its lowest entry, 1, is storm, and a
modified roll below it reads as that); the other thresholds are INFERRED (A and B wetter than C, as June
and early July were), and can be replaced with :func:`dataclasses.replace` on the rules' ``weather_table``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from normandy_lab.errors import RefusedError

STORM, OVERCAST, CLEAR = "Storm", "Overcast", "Clear"

#: RECONSTRUCTED columns: (lowest modified roll, weather), in increasing order of roll.
COLUMNS: dict[str, tuple[tuple[int, str], ...]] = {
    "A": ((1, STORM), (3, OVERCAST), (5, CLEAR)),  # INFERRED: 1-2 storm, 3-4 overcast, 5-6 clear
    "B": ((1, STORM), (2, OVERCAST), (5, CLEAR)),  # INFERRED: after two storms, fewer storms
    "C": ((1, STORM), (2, OVERCAST), (4, CLEAR)),  # 5.3a example: 4 is clear, 1 (the lowest) storm
}
FIXED = {1: CLEAR, 2: OVERCAST}  # 5.3: a scenario starting on GT 1
FIRST_C = 20  # 5.3a2


@dataclass(frozen=True)
class WeatherRoll:
    """How one game turn's weather came about: the column, the die, the modifier, and the rule."""

    weather: str
    column: str = ""
    die: int = 0
    drm: int = 0
    rule: str = "5.3a"

    def words(self) -> str:
        """Say it as a player would: ``"column C: 5 - 1 = 4: Clear (5.3a)"``."""
        if not self.column:
            return f"{self.weather} ({self.rule})"
        sign = "+" if self.drm >= 0 else "-"
        modified = f"{self.die} {sign} {abs(self.drm)} = {self.die + self.drm}" if self.drm else f"{self.die}"
        return f"column {self.column}: {modified}: {self.weather} ({self.rule})"


def _run(history: Sequence[str], test) -> int:
    """Return how many of the last turns in a row pass ``test``."""
    count = 0
    for weather in reversed(history):
        if not test(weather):
            break
        count += 1
    return count


def modifier(history: Sequence[str]) -> int:
    """Return the die modifier after ``history`` (the weather of the turns before, oldest first) (5.3a3-4).

    Three clear turns in a row give -1, and each further clear turn one more; three non-clear turns
    +1, and each further one more.
    """
    clear = _run(history, lambda w: w == CLEAR)
    if clear >= 3:
        return -(clear - 2)
    cloudy = _run(history, lambda w: w != CLEAR)
    if cloudy >= 3:
        return cloudy - 2
    return 0


def column(gt: int, history: Sequence[str]) -> str:
    """Return the column of game turn ``gt``: C from GT 20, B after two storms in a row, else A (5.3a1-2)."""
    if gt >= FIRST_C:
        return "C"
    return "B" if _run(history, lambda w: w == STORM) >= 2 else "A"


def read(column_name: str, modified: int, columns: dict = COLUMNS) -> str:
    """Return the weather a modified roll reads on a column (below the lowest entry: the lowest)."""
    weather = columns[column_name][0][1]
    for lowest, name in columns[column_name]:
        if modified >= lowest:
            weather = name
    return weather


def determine(gt: int, history: Sequence[str], die: int | None, started_on_gt1: bool = False) -> WeatherRoll:
    """Return game turn ``gt``'s weather after ``history`` with the die ``die`` (5.3, 5.3a).

    ``die`` may be None where no roll is needed (a fixed turn); a roll is asked for otherwise.
    """
    if started_on_gt1 and gt in FIXED:
        return WeatherRoll(FIXED[gt], rule="5.3")
    if gt == 6 and STORM not in history:
        return WeatherRoll(STORM, rule="5.3: no storm before GT 6")
    if _run(history, lambda w: w == STORM) >= 3:
        return WeatherRoll(OVERCAST, rule="5.3a: after three storm turns")
    if die is None:
        raise RefusedError(f"GT {gt}: the weather is rolled; give the die")
    name = column(gt, history)
    drm = modifier(history)
    return WeatherRoll(read(name, die + drm), name, die, drm)
