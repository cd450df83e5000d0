"""Lessons for a class: three real questions of the campaign, the games' answers and history beside them.

Each lesson (:mod:`.cotentin`, :mod:`.panzer_lehr`, :mod:`.storm`) works out its answers with the rules
engines when it is built, and shows them through :class:`~normandy_lab.lessons.base.Lesson`; the exercises'
answers wait behind a :class:`~normandy_lab.lessons.reveal.Reveal` and are not in the page until revealed.
The notebooks in ``notebooks/lessons/`` display them in JupyterLab; the class server serves the same notebooks
with no code shown (``docs/class.md``).

Examples
--------
>>> from normandy_lab.lessons import LESSONS
>>> sorted(LESSONS)
['cotentin', 'panzer_lehr', 'storm']
"""

from __future__ import annotations

from normandy_lab.errors import UnknownNameError
from normandy_lab.lessons.base import Exercise, Lesson
from normandy_lab.lessons.reveal import Reveal

#: Each lesson's module (under ``normandy_lab.lessons``) and its notebook in ``notebooks/lessons/``.
LESSONS = {
    "cotentin": "1_cotentin.ipynb",
    "panzer_lehr": "2_panzer_lehr.ipynb",
    "storm": "3_storm.ipynb",
}


def lesson(name: str) -> Lesson:
    """Build one lesson by its name in :data:`LESSONS` (its verdicts are worked out now)."""
    import importlib

    if name not in LESSONS:
        raise UnknownNameError(f"no lesson {name!r}; the lessons are {', '.join(LESSONS)}")
    from normandy_lab.views.classroom import release_memory

    built = importlib.import_module(f"normandy_lab.lessons.{name}").lesson()
    release_memory()  # a class kernel keeps the lesson, not what working it out freed
    return built


__all__ = ["LESSONS", "Exercise", "Lesson", "Reveal", "lesson"]
