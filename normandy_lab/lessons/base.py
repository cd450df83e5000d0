"""What a lesson is made of, and how a page shows it.

A lesson has a question, the game's answer, history beside it, what the verdicts rest on, and exercises whose
answers wait behind a :class:`~normandy_lab.lessons.reveal.Reveal`.

Every part is HTML worked out in the kernel; the notebooks only display them, so a lesson reads the same in
JupyterLab and on the class server (where no code is shown).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pandas as pd

from normandy_lab.errors import UnknownNameError
from normandy_lab.lessons.reveal import Reveal

#: The look of a lesson's blocks: plain, readable on a projector, tables left-aligned.
STYLE = """<style>
.nl-lesson { font-size: 15px; line-height: 1.45; max-width: 68em; }
.nl-lesson table { border-collapse: collapse; margin: 0.4em 0 0.8em; }
.nl-lesson th, .nl-lesson td { text-align: left; vertical-align: top; padding: 3px 10px 3px 0;
  border-bottom: 1px solid #ddd; }
.nl-lesson th { border-bottom: 2px solid #999; }
.nl-lesson .nl-rests-on { background: #fff6e0; border-left: 4px solid #d9a21b; padding: 4px 10px; }
.nl-lesson .nl-sources { color: #555; font-size: 13px; }
.nl-answer { font-size: 15px; line-height: 1.45; max-width: 68em; background: #eef6ee; padding: 0 10px; }
.nl-answer:empty { display: none; }
</style>"""


@dataclass
class Exercise:
    """One exercise: what to work out (HTML), and its answer (HTML, or a function returning it)."""

    prompt: str
    answer: str | Callable[[], str]


@dataclass
class Lesson:
    """A lesson: a real question of the campaign, the game's answer, history beside it, and exercises.

    Attributes
    ----------
    title
        The lesson's title.
    question
        The question, as the class is asked it (HTML).
    game
        The game's answer, worked out by the engine (HTML).
    history
        What happened, with the sources the project's history data cites (HTML).
    rests_on
        What the game's verdicts rest on: rule readings, reconstructed data, the engine's own caveats
        (plain sentences, shown beside the verdicts).
    exercises
        The exercises, each with an answer a teacher reveals.
    facts
        The numbers the lesson found, by name (for tests and for anyone who wants them in code).
    """

    title: str
    question: str
    game: str
    history: str
    rests_on: list[str]
    exercises: list[Exercise]
    facts: dict[str, Any] = field(default_factory=dict)

    def show_question(self) -> Any:
        """Return the question, as a block of the page."""
        # The title is the notebook's own heading (its first cell), so it is not repeated here.
        return _block(self.question, "nl-lesson-question")

    def show_answers(self) -> Any:
        """Return the game's answer and, beside it, history (one under the other on a narrow screen)."""
        import ipywidgets as widgets

        rests = "".join(f"<li>{html.escape(line)}</li>" for line in self.rests_on)
        game = _block(
            "<h3>The game's answer</h3>" + self.game
            + (f'<div class="nl-rests-on"><b>What this rests on</b><ul>{rests}</ul></div>' if rests else ""),
            "nl-lesson-game",
        )  # fmt: skip
        history = _block("<h3>What happened</h3>" + self.history, "nl-lesson-history")
        for part in (game, history):
            part.layout = widgets.Layout(flex="1 1 30em", min_width="20em", margin="0 1.5em 0 0")
        box = widgets.HBox([game, history], layout=widgets.Layout(flex_flow="row wrap"))
        box.add_class("nl-lesson-answers")
        return box

    def show_exercises(self) -> Any:
        """Return the exercises, each with its answer button (no answer is in the page until pressed).

        On the class server the buttons are on the teacher's page only, unless the server lets students
        reveal answers (:func:`normandy_lab.views.classroom.answers_open`).
        """
        import ipywidgets as widgets

        from normandy_lab.views.classroom import answers_open

        # On the class server, a student's page has no answer button: the teacher's link has them.
        open_ = answers_open()
        note = "" if open_ else "<p><i>Your teacher reveals the answers.</i></p>"
        rows: list[Any] = [_block(f"<h3>Exercises</h3>{note}", "nl-lesson-exercises-title")]
        self.reveals = []
        for number, exercise in enumerate(self.exercises, 1):
            rows.append(_block(f"<p><b>{number}.</b> {exercise.prompt}</p>", "nl-exercise"))
            if open_:
                reveal = Reveal(exercise.answer)
                self.reveals.append(reveal)
                rows.append(reveal.box)
        box = widgets.VBox(rows)
        box.add_class("nl-lesson-exercises")
        return box


def _block(body: str, kind: str) -> Any:
    """Return an HTML widget of the lesson's style, with a class the browser tests find."""
    import ipywidgets as widgets

    block = widgets.HTML(value=f'{STYLE}<div class="nl-lesson">{body}</div>')
    block.add_class(kind)
    return block


def table(frame: pd.DataFrame) -> str:
    """Return a table as left-aligned HTML, every cell escaped."""
    return frame.to_html(index=False, escape=True, border=0, na_rep="")


def sources_html(citations: Sequence[str]) -> str:
    """Return the sources as a small list."""
    items = "".join(f"<li>{html.escape(c)}</li>" for c in dict.fromkeys(citations))
    return f'<div class="nl-sources">Sources:<ul>{items}</ul></div>'


@cache
def _timeline() -> pd.DataFrame:
    """Return the campaign's timeline (``maps/history/timeline.yaml``), read once a process."""
    from normandy_lab.history.timeline import timeline

    return pd.DataFrame(timeline().drop(columns="geometry"))


def event(event_id: str) -> dict[str, Any]:
    """Return one event of the campaign's timeline, with its full citations."""
    events = _timeline()
    found = events[events["id"] == event_id]
    if found.empty:
        raise UnknownNameError(f"no event {event_id!r} in maps/history/timeline.yaml (see timeline()['id'])")
    return dict(found.iloc[0].to_dict())


def event_html(event_id: str) -> tuple[str, list[str]]:
    """Return an event told in a paragraph (its dates, name and description) and its citations."""
    found = event(event_id)
    start, end = found["start"], found["end"]
    when = _day(start) if start == end else f"{_day(start)} to {_day(end)}"
    name, description = html.escape(str(found["name"])), html.escape(str(found["description"]))
    text = f"<p><b>{name}</b> ({when}): {description}</p>"
    return text, list(found["sources"])


def _day(value: Any) -> str:
    """Write a date as ``18 June 1944``."""
    day = pd.Timestamp(value)
    return f"{day.day} {day:%B %Y}"
