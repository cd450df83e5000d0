"""The project's errors: one tree, so that a program and the explorer tell an explained refusal from a bug.

``NormandyLabError`` is every error raised on purpose, with a message that says what is wrong and how to
fix it.  Under it:

* ``FileRefusedError`` -- a file that cannot be read as its kind (a scenario, a study, the historical
  record, the map data): the message names the file, the line and the field;
* ``RefusedError`` -- a request the rules or the data refuse (an illegal move, an edit that cannot
  apply, a hex off the map, the end of the campaign): the message gives the reason and the rule;
* ``UnknownNameError`` -- a name that is not there (a unit, a place), with the closest names;
* ``ExportRefusedError`` -- an export that would replace a file it did not write (a ``RefusedError`` and
  a ``FileExistsError``): nothing was changed;
* ``PathRefusedError`` -- a path no file can be written at (no file name, a folder, a name too long for
  the file system; a ``RefusedError`` and an ``OSError``): nothing was written.

Each keeps the built-in class it always had (``ValueError``, or ``KeyError`` for a name), so code that
caught those still does.  Anything else that escapes is a defect of the program, not of the input.
"""

from __future__ import annotations


class NormandyLabError(Exception):
    """An error raised on purpose, whose message says what is wrong and how to fix it."""


class RefusedError(NormandyLabError, ValueError):
    """A request the rules or the data refuse; the message gives the reason."""


class FileRefusedError(NormandyLabError, ValueError):
    """A file that cannot be read as its kind; the message names the file, the line and the field."""


class UnknownNameError(NormandyLabError, KeyError):
    """A name that is not there (a unit, a place); the message suggests the closest ones."""

    def __str__(self) -> str:
        # KeyError quotes its argument; the message is a sentence.
        return str(self.args[0]) if self.args else "unknown name"


class ExportRefusedError(RefusedError, FileExistsError):
    """An export that would replace a file it did not write (a study, a scenario, ...): nothing changed."""


class PathRefusedError(RefusedError, OSError):
    """A path no file can be written at (no name, a folder, a name too long): nothing was written."""
