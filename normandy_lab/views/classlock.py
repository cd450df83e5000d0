"""Whether this kernel serves a class page, and what a class page takes off the explorer.

Kept apart from :mod:`normandy_lab.views.classroom` (the server, its pages and links, which opens
explorers) so that the explorer's controls can ask it without importing the server: the views then form
no import cycle of their own (``scripts/import_cycles.py``, issue 32 section 2).
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["CLASS_ENV", "FILE_WIDGETS", "lock_for_class", "serving_class"]

#: Set in the server's environment (so in every kernel it starts): a class page, whose template already
#: loaded BokehJS and whose explorers save nothing on the server.
CLASS_ENV = "NORMANDY_LAB_CLASS"
#: The widgets of the explorer that would write or read files on the server: not on a class page.
FILE_WIDGETS = ("save_path", "save_button", "export_button", "picker", "open_button")


def serving_class() -> bool:
    """Return whether this process runs under the class server (its kernels inherit :data:`CLASS_ENV`)."""
    return os.environ.get(CLASS_ENV) == "1"


def lock_for_class(explorer: Any) -> None:
    """Take the file controls off a class page's explorer: nothing a student does is written on the server.

    The Study box, Save study, Export page and the Open box (which reads any path typed in) leave the page,
    and their widgets are closed in the kernel, so no message from a page can press them either.  The
    explorer keeps every edit, step and undo of its own session.
    """
    gone = [getattr(explorer, name) for name in FILE_WIDGETS if hasattr(explorer, name)]
    for row in explorer.app.children:
        children = getattr(row, "children", None)
        if children and any(child in gone for child in children):
            kept = tuple(child for child in children if child not in gone)
            row.children = kept
            if not kept:
                row.layout.display = "none"
    for widget in gone:
        widget.close()
