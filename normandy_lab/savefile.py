"""Saving a user's file so that a fault never loses the one saved before.

The text goes to a temporary file beside the target, is flushed to disk, takes
the permissions any file the user saves would get (``tempfile.mkstemp`` makes
it private), and is then renamed over the target in one step.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from normandy_lab.errors import ExportRefusedError


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
    descriptor, temporary = tempfile.mkstemp(dir=target.parent, prefix=temporary_prefix(target))
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
    remove_stale_temporaries(target)
    return path


def refuse_to_replace(
    path: str | Path,
    is_ours: Callable[[Path], bool],
    what_is_there: Callable[[Path], str],
    *,
    overwrite: bool = False,
    writing: str = "the file",
) -> Path:
    """Refuse to write over a file that the writer did not make itself; return the path to write.

    A new path is always fine; a folder or a device never is.  An existing regular file is replaced when
    ``is_ours`` recognises it (by the mark the project puts in its own files, never by guessing at the
    user's) or when the user says ``overwrite``.  Anything else raises
    :class:`~normandy_lab.errors.ExportRefusedError` naming the path, what is there (``what_is_there``) and
    that nothing was changed.  A link is judged by its target, which the writer follows.
    """
    path = Path(path)
    target = path.resolve() if path.is_symlink() else path
    if not target.exists():
        return path
    if not target.is_file():
        raise ExportRefusedError(
            f"{path}: is not a regular file (a folder or a device), so {writing} cannot be written there;"
            " nothing was changed: choose a file name"
        )
    if overwrite or is_ours(target):
        return path
    raise ExportRefusedError(
        f"{path}: {what_is_there(target)} is already there; nothing was changed. Choose another name, move"
        " the file away, or pass overwrite=True to replace it"
    )


def temporary_prefix(target: Path) -> str:
    """Return the prefix of the temporary files (and folders) written beside ``target``.

    It names the project, so that a leftover is recognisably ours: the clean-up below removes only names of
    exactly this form, never a user's own hidden file (an editor's swap file ``.notes.html.swp``, say).
    """
    name = target.name
    if len(name.encode("utf-8")) > 150:  # room for the prefix and tempfile's 8 characters in 255 bytes
        digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:12]
        name = f"{name.encode('utf-8')[:100].decode('utf-8', 'ignore')}~{digest}"
    return f".{name}.normandy_lab-partial."


_RANDOM_PART = re.compile(r"[a-z0-9_]{8}")  # what tempfile.mkstemp and mkdtemp append to the prefix
# What a GeoPackage export writes in its temporary folder (SQLite's journal files beside the database).
_EXPORT_FOLDER_FILES = {"export.gpkg", "export.gpkg-journal", "export.gpkg-wal", "export.gpkg-shm"}


def remove_stale_temporaries(target: Path, older_than_s: float = 60.0) -> None:
    """Remove the temporary files a killed writer of ``target`` left behind (older than a minute).

    Only entries whose name is the writer's prefix followed by the 8 characters ``tempfile`` adds are
    touched, compared as text (a ``*`` or ``?`` in the target's name is not a pattern); a folder only
    when it holds nothing but a GeoPackage export's files.
    """
    import time

    prefix, now = temporary_prefix(target), time.time()
    try:
        names = os.listdir(target.parent)
    except OSError:
        return
    for name in names:
        if not (name.startswith(prefix) and _RANDOM_PART.fullmatch(name[len(prefix) :])):
            continue
        leftover = target.parent / name
        try:
            if now - leftover.lstat().st_mtime <= older_than_s:
                continue  # perhaps another writer's, still at work
            if leftover.is_symlink() or leftover.is_file():
                leftover.unlink()
            elif leftover.is_dir() and set(os.listdir(leftover)) <= _EXPORT_FOLDER_FILES:
                shutil.rmtree(leftover)
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
