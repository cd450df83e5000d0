"""Marks the project puts in its own exports, so that an export replaces only a file it wrote itself.

An export (a page, a picture, a GeoPackage) may be written again to the same path, but a path can just as
well hold a study, a scenario, a notebook or anything else a user keeps.  Guessing from the content which
files are the user's failed (a study saved as compact JSON was replaced by a page), so the test is the
other way round: every export carries a mark of its kind at a fixed place, and an export replaces only a
file that carries the mark of the same kind.  Anything else at the path is refused unless the caller says
``overwrite=True``.

The marks:

* **HTML page**: the file begins with ``<!DOCTYPE html>`` and, on the next line, a comment naming this
  project's export (:data:`HTML_MARK`); browsers ignore the comment.
* **PNG picture**: a ``tEXt`` chunk with the keyword ``Software`` right after the image header, the first
  place the PNG specification allows one (:func:`mark_png`); image viewers show it as the picture's
  software.
* **GeoPackage**: the description of each layer in the GeoPackage's ``gpkg_contents`` table begins with
  :data:`GEOPACKAGE_MARK`; it is read with SQLite (read-only) only after the file's first bytes show a
  GeoPackage.  (Dataset metadata would do as well, but GDAL then writes an ``.aux.xml`` file beside the
  GeoPackage whenever anyone opens it.)
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Literal

from normandy_lab.savefile import refuse_to_replace

ExportKind = Literal["html", "png", "geopackage"]

#: The comment on the line after the doctype of every page the project exports.
HTML_MARK = "<!-- written by normandy_lab: an exported page (html/1); an export may replace this file -->"
_HTML_PREFIX = f"<!DOCTYPE html>\n{HTML_MARK}\n"

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# The signature (8 bytes) and the IHDR chunk (4 length + 4 type + 13 data + 4 CRC) come first in every PNG.
_PNG_HEADER_END = 8 + 4 + 4 + 13 + 4
_PNG_TEXT = b"Software\x00normandy_lab export (png/1)"

#: How the description of every layer of an exported GeoPackage begins (the layer's name follows).
GEOPACKAGE_MARK = "written by normandy_lab: an exported GeoPackage (geopackage/1)"
_SQLITE_MAGIC = b"SQLite format 3\x00"
_GPKG_APPLICATION_ID = b"GPKG"  # at byte 68 of a GeoPackage (OGC 12-128r18, requirement 2)

_WHAT = {"html": "page", "png": "picture", "geopackage": "GeoPackage"}


def mark_html(text: str) -> str:
    """Return an exported page's text with the project's mark on its second line."""
    body = text.removeprefix("<!DOCTYPE html>").lstrip("\n")
    return _HTML_PREFIX + body


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    )


_PNG_MARK_CHUNK = _png_chunk(b"tEXt", _PNG_TEXT)


def mark_png(image: bytes) -> bytes:
    """Return a PNG with the project's ``tEXt`` chunk inserted right after its header.

    Raises
    ------
    ValueError
        If ``image`` does not begin with a PNG signature and header (a defect: Chromium made it).
    """
    if image[:8] != _PNG_SIGNATURE or image[12:16] != b"IHDR":
        raise ValueError("not a PNG image: cannot mark it")  # a program defect, not a user's input
    return image[:_PNG_HEADER_END] + _PNG_MARK_CHUNK + image[_PNG_HEADER_END:]


def _head(path: Path, size: int) -> bytes:
    with path.open("rb") as handle:
        return handle.read(size)


def _is_marked_geopackage(path: Path) -> bool:
    head = _head(path, 72)
    if head[:16] != _SQLITE_MAGIC or head[68:72] != _GPKG_APPLICATION_ID:
        return False
    # Read with SQLite itself, read-only and immutable: GDAL would write a sidecar (.aux.xml) beside
    # the file, and a file that is not ours must be left exactly as it was.  Only a real table is
    # read (a view could run any query) and a progress handler bounds the work on a crafted file.
    import sqlite3

    uri = f"{path.resolve().as_uri().replace('file://', 'file:', 1)}?mode=ro&immutable=1"
    try:
        connection = sqlite3.connect(uri, uri=True)
    except sqlite3.Error:
        return False
    try:
        connection.set_progress_handler(lambda: 1, 1_000_000)  # a non-zero return aborts the query
        kind = connection.execute("SELECT type FROM sqlite_master WHERE name = 'gpkg_contents'").fetchone()
        if kind != ("table",):
            return False
        rows = connection.execute("SELECT description FROM gpkg_contents LIMIT 1000").fetchall()
    except sqlite3.Error:  # a damaged or foreign database: not one of ours, so it is refused
        return False
    finally:
        connection.close()
    # Every layer must carry the mark: a GeoPackage of ours to which someone added a layer is theirs now.
    return bool(rows) and all(isinstance(text, str) and text.startswith(GEOPACKAGE_MARK) for (text,) in rows)


def is_marked_export(path: str | Path, kind: ExportKind) -> bool:
    """Return whether ``path`` is a regular file that this project's ``kind`` export wrote."""
    path = Path(path)
    if not path.is_file():
        return False
    if kind == "html":
        return _head(path, len(_HTML_PREFIX.encode())) == _HTML_PREFIX.encode()
    if kind == "png":
        head = _head(path, _PNG_HEADER_END + len(_PNG_MARK_CHUNK))
        return head[:8] == _PNG_SIGNATURE and head[_PNG_HEADER_END:] == _PNG_MARK_CHUNK
    return _is_marked_geopackage(path)


def check_export_target(path: str | Path, kind: ExportKind, *, overwrite: bool = False) -> Path:
    """Refuse to replace a file this export did not write; return the path to write.

    Parameters
    ----------
    path
        Where the export is to go.  A new path is always fine.
    kind
        The export (``"html"``, ``"png"`` or ``"geopackage"``): an existing file is replaced only when
        it carries this export's mark.
    overwrite
        ``True`` replaces any regular file at ``path``, the user having said so.

    Raises
    ------
    ExportRefusedError
        When ``path`` is a folder or another non-regular file, or a file this export did not write (a
        study, a scenario, a notebook, a page of another program, ...) and ``overwrite`` is not set.
        Nothing at ``path`` is changed.
    """
    what = _WHAT[kind]
    return refuse_to_replace(
        path,
        lambda target: is_marked_export(target, kind),
        lambda _: (
            "a file that this export did not write (a study, a scenario or any other file of yours is never"
            f" replaced by an exported {what})"
        ),
        overwrite=overwrite,
        writing=f"the {what}",
    )
