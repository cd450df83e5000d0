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
    return write_bytes_atomically(path, text.encode("utf-8"))


def write_bytes_atomically(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` through a temporary file beside it and a rename; return the path.

    The file replaced keeps its permissions (a new file gets the umask's);
    a symlink is followed to its target; the temporary file is removed if
    anything fails, so a fault leaves the previous file whole.
    """
    path = Path(path)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = (target.stat().st_mode & 0o7777) if target.exists() else normal_file_mode()
    descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
        _sync_folder(target.parent)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _remove_stale_temporaries(target)
    return path


def _remove_stale_temporaries(target: Path, older_than_s: float = 60.0) -> None:
    """Remove the temporary files a killed writer of ``target`` left behind (older than a minute)."""
    import time

    now = time.time()
    for leftover in target.parent.glob(f".{target.name}.*"):
        try:
            if now - leftover.stat().st_mtime > older_than_s:
                leftover.unlink()
        except OSError:
            pass  # another writer's, or already gone


def _sync_folder(folder: Path) -> None:
    """Flush a folder's entry for a renamed file to disk (where the system allows it)."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
