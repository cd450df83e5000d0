"""The map's notebook widget, sending the changes of one redraw to the page as one message.

jupyter_bokeh's :class:`~jupyter_bokeh.widgets.BokehModel` sends each change of the bokeh document as a
patch of its own, the moment it is made.  A redraw of the explorer changes several data sources and
filters (a weather change: six layers), so the page received several patches for one click, applied each
on arrival, and could paint the 14,130-hex map once per patch where one paint says it all (issue 33,
section 4: the edits measured 2-4x the floor of one patch).  :class:`MapWidget` holds the changes made
inside :meth:`MapWidget.one_patch` and sends them together as one ``PATCH-DOC`` message, the form in which
a bokeh server sends a whole callback's changes, so BokehJS applies them in one go and paints once.

Outside :meth:`~MapWidget.one_patch` a change goes at once, as before.

What must reach the page *after* the map's patch (the explorer's update counter, which tells the page and
the browser benchmark that an update is all sent) is handed to :func:`after_the_patch`: while a patch is
held it waits for the patch to be sent.  Sent before the held patch, the counter told the page the update
was done while the map's new picture was still on its way (a move's paint came 20-150 ms after it).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from bokeh.protocol import Protocol
from jupyter_bokeh.widgets import BokehModel

__all__ = ["MapWidget", "after_the_patch"]

#: The widgets holding a patch now, outermost first (a side-by-side view holds two at once).
_HOLDING: list[MapWidget] = []


def after_the_patch(callback: Callable[[], Any]) -> None:
    """Call ``callback`` once the changes held by every :meth:`MapWidget.one_patch` block are sent.

    At once when no block is running; otherwise when the outermost block ends, after its patch (also when
    it ends by an exception), in the order the callbacks were handed over.
    """
    if _HOLDING:
        _HOLDING[0]._after.append(callback)
    else:
        callback()


class MapWidget(BokehModel):  # type: ignore[misc]  # jupyter_bokeh ships no type information
    """A bokeh figure's widget whose changes inside :meth:`one_patch` reach the page as one patch."""

    #: The document changes held while a :meth:`one_patch` block runs (None: none is running).
    _held: list[Any] | None = None
    #: What :func:`after_the_patch` was handed while this widget's outermost block runs.
    _after: list[Callable[[], Any]]

    @contextmanager
    def one_patch(self) -> Iterator[None]:
        """Hold the document's changes made in the block and send them as one message when it ends.

        Blocks may nest: the changes go when the outermost ends, also when it ends by an exception (what
        was changed before it is on the figure and must reach the page).
        """
        if self._held is not None:
            yield
            return
        self._held, self._after = [], []
        _HOLDING.append(self)
        try:
            yield
        finally:
            _HOLDING.remove(self)
            events, self._held = self._held, None
            waiting, self._after = self._after, []
            try:
                if events:
                    self._send_patch(events)
            finally:
                for callback in waiting:
                    after_the_patch(callback)  # another widget's block may still be holding

    def _document_patched(self, event: Any) -> None:
        if event.setter is self:  # a change the page itself made: it has it already
            return
        if self._held is not None:
            self._held.append(event)
        else:
            self._send_patch([event])

    def _send_patch(self, events: list[Any]) -> None:
        # The message in the parts jupyter_bokeh's front end reassembles: header, metadata and content,
        # then for each binary buffer its reference and its bytes.
        message = Protocol().create("PATCH-DOC", events)
        for part in (message.header_json, message.metadata_json, message.content_json):
            self.send({"msg": "patch", "payload": part})
        for buffer in message.buffers:
            self.send({"msg": "patch", "payload": json.dumps(buffer.ref)})
            self.send({"msg": "patch"}, [buffer.to_bytes()])
