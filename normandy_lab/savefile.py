"""Saving a user's file so that a fault never loses the one saved before.

The text goes to a temporary file beside the target, is flushed to disk, takes
the permissions any file the user saves would get (``tempfile.mkstemp`` makes
it private), and is then renamed over the target in one step.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def normal_file_mode() -> int:
    """Return the permissions a new file gets in this process (0666 less the umask), e.g. 0644."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_text_atomically(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file and a rename; return the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, normal_file_mode())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path
