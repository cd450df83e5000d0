"""The teacher's answer button: an answer that is in the page only once someone asks for it.

A lesson's answers are worked out by the engine in the kernel, but an answer a student has not revealed must
not be anywhere in the page, not even hidden by a style (a student can read a page's source on the class
server).  So the answer text stays in a Python attribute of :class:`Reveal`, which is no widget trait and is
never synchronised; the page holds an empty HTML widget until the button is pressed, and the kernel then
writes the answer into it.  Pressing again takes it out of the page again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from normandy_lab.errors import RefusedError

SHOW = "Show the answer"
HIDE = "Hide the answer"


class Reveal:
    """A button that puts an answer into the page when pressed, and takes it out when pressed again.

    Parameters
    ----------
    answer
        The answer as HTML, or a function returning it (called at the first press, so an answer that costs
        a supply determination costs it only when asked for).
    label
        What the button says while the answer is hidden.

    Examples
    --------
    >>> reveal = Reveal("<p>18 June</p>")
    >>> reveal.shown
    ''
    >>> reveal.press()
    >>> reveal.shown
    '<p>18 June</p>'
    """

    def __init__(self, answer: str | Callable[[], str], label: str = SHOW) -> None:
        import ipywidgets as widgets

        if not (isinstance(answer, str) or callable(answer)):
            raise RefusedError(f"Reveal: answer must be HTML text or a function returning it, not {answer!r}")
        self._answer = answer  # kept here, in the kernel: not a widget trait, so never sent to the page
        self._label = label
        self.button = widgets.Button(description=label, icon="eye", tooltip="for the teacher: the answer")
        self.button.add_class("nl-reveal-button")
        self.output = widgets.HTML(value="")
        self.output.add_class("nl-answer")
        self.box = widgets.VBox([self.button, self.output])
        self.box.add_class("nl-reveal")
        self.button.on_click(lambda _button: self.press())

    @property
    def shown(self) -> str:
        """The HTML the page holds now: the answer once revealed, else nothing."""
        return str(self.output.value)

    def answer(self) -> str:
        """Return the answer's HTML (working it out the first time, for a function)."""
        if callable(self._answer):
            self._answer = str(self._answer())
        return self._answer

    def press(self) -> None:
        """Reveal the answer, or hide it again if it is shown (what the button does)."""
        if self.output.value:
            self.output.value = ""
            self.button.description = self._label
            self.button.icon = "eye"
        else:
            self.output.value = self.answer()
            self.button.description = HIDE
            self.button.icon = "eye-slash"

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.box._repr_mimebundle_(**kwargs)
