"""Saving the study and exporting the page, a picture and a GeoPackage."""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Any

from normandy_lab.engine.study import save_study
from normandy_lab.errors import NormandyLabError, PathRefusedError, RefusedError
from normandy_lab.views import layers, wording
from normandy_lab.views.explorer._common import _edit_ops, shown

#: The longest file name (one part of a path, in bytes) and the longest path most file systems take.
NAME_MAX, PATH_MAX = 255, 4095


def path_problem(path: Any, *, box: bool = False) -> str:
    """Say why no file can be written at ``path``, or return "" when it may be tried.

    Refused: anything but text or a path, no file name, a NUL, a folder (a path ending with a
    separator; with ``box``, the Study box's text, a folder that exists too), and a name or path
    longer than the file system takes.  A folder that exists, passed from code, is left to the
    writer's own refusal (:class:`~normandy_lab.errors.ExportRefusedError`, as before).
    """
    if isinstance(path, bool) or not isinstance(path, str | os.PathLike):
        return "is not a file's path (text or a pathlib.Path)"
    text = os.fspath(path)
    if not isinstance(text, str):
        return "is not a file's path (text or a pathlib.Path)"
    if not text.strip():
        return "has no file name"
    if "\x00" in text:
        return "holds a NUL character, which no file name can"
    parts = Path(text).parts
    if any(len(part.encode("utf-8", "surrogateescape")) > NAME_MAX for part in parts):
        return f"has a name longer than {NAME_MAX} bytes, more than a file system takes"
    if len(text.encode("utf-8", "surrogateescape")) > PATH_MAX:
        return f"is longer than {PATH_MAX:,} bytes, more than a file system takes"
    if text.endswith(("/", os.sep)) or (box and _is_folder(text)):
        return "is a folder, not a file"
    return ""


def _is_folder(text: str) -> bool:
    """Tell whether a folder is at a path (a path that cannot be looked at is not one)."""
    try:
        return Path(text).is_dir()
    except OSError:
        return False


def checked_path(function: str, path: Any, example: str) -> Path:
    """Return ``path`` as a :class:`~pathlib.Path` if a file may be written there.

    Raises
    ------
    PathRefusedError
        Naming the function, the path and why (see :func:`path_problem`); nothing is written.
    """
    problem = path_problem(path)
    if problem:
        raise PathRefusedError(
            f"{function}: path: {shown(path)} {problem}; give a file's name, e.g. {example!r}, "
            "or a path ending with one; nothing was written"
        )
    return Path(path)


class _Exports:
    """A part of the explorer (:class:`~normandy_lab.views.explorer.Explorer`), in its own module."""

    # -- saving and exports ----------------------------------------------------

    def _study_from_box(self, verb: str) -> Path | None:
        """Return the study path typed in the Study box, or None (and the banner says what to type)."""
        typed = self.save_path.value
        problem = path_problem(typed, box=True)
        if not problem:
            return Path(typed)
        where = f" {typed.strip()!r}" if typed.strip() else ""
        folder = Path(typed) / "study.json" if problem.startswith("is a folder") else Path("study.json")
        page = " (the page goes beside it, as study.page.html)" if verb == "export" else ""
        self.message = (
            f"Could not {verb}: the Study box{where} {problem}. Type a study file name, e.g. "
            f"{str(folder)!r}{page}; nothing was written."
        )
        self._refresh_text()
        return None

    def _save_from_box(self) -> None:
        study = self._study_from_box("save")
        if study is None:
            return
        try:
            self.save(study)
        except (OSError, NormandyLabError) as exc:
            self.message = f"Could not save: {exc}"
            self._refresh_text()

    def _export_from_box(self) -> None:
        # The page goes beside the study with its own suffix, never over the study itself.
        study = self._study_from_box("export")
        if study is None:
            return
        target = study.with_name(f"{study.stem.removesuffix('.study')}.page.html")
        try:
            written = self.export_html(target)
        except (OSError, NormandyLabError) as exc:  # ExportRefusedError: a file of the user's is there
            self.message = f"Could not export: {exc}"
        else:
            self.message = f"Exported the page to {_shown_path(Path(written))}"
        self._refresh_text()

    def save(self, path: str | Path) -> Path:
        """Save the study (scenario + edits) atomically.

        Raises
        ------
        PathRefusedError
            For a path no file can be written at (no name, a folder, a name too long); nothing is written.
        ExportRefusedError
            For a file there that is not a study (:func:`normandy_lab.engine.study.save_study`).
        """
        path = checked_path("save", path, "study.json")
        if self.study is None:
            raise RefusedError(
                "this explorer was opened on a bare state: open it on a scenario or a study to save"
            )
        saved = save_study(self.study, path)
        self.message = f"Saved the study to {_shown_path(Path(saved))}"
        self._refresh_text()
        return saved

    def title_block_html(self) -> str:
        """Return the exported page's title block: date, phase, weather, supply counts, ring key, edits."""
        edits = [
            wording.edit_words(self.system, e)
            for e in _edit_ops(self)[: self.position]
            if e.get("op") != "next_phase"
        ]
        listed = "".join(f"<li>{html.escape(e)}</li>" for e in edits) or "<li>none</li>"
        return (
            f"<h3 style='margin:4px 0'>{html.escape(self.state.label)}</h3>"
            f"<div>{html.escape(layers.supply_summary(self.state, self.report))}</div>"
            f"<div>{wording.phase_line(self.state)}</div><div>{layers.ring_key_html(self.state.rules)}</div>"
            f"<div><b>Edits:</b><ul style='margin:2px 0'>{listed}</ul></div>"
        )

    def export_html(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Save the current map as a standalone HTML page with a title block (INLINE BokehJS, no kernel).

        The title block gives the date, phase, weather, supply counts, the ring
        key and the study's edits.  A file at ``path`` is replaced only if it is
        a page exported before, or ``overwrite=True``
        (:func:`normandy_lab.views.save_html`).

        Raises
        ------
        PathRefusedError
            For a path no file can be written at (no name, a folder, a name too long), before any work.
        ExportRefusedError
            For a file there that the export did not write.
        """
        from normandy_lab.views.export import save_html

        path = checked_path("export_html", path, "view.html")
        return save_html(
            self.fig, path, title=self.state.label, header_html=self.title_block_html(), overwrite=overwrite
        )

    def export_png(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Save the current map as PNG, rendered by headless Chromium (replacing only an earlier picture)."""
        from normandy_lab.views.export import save_png

        path = checked_path("export_png", path, "view.png")
        return save_png(self.fig, path, overwrite=overwrite)

    def export_geopackage(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Write the current state's layers to a GeoPackage (units, lines of supply, ZOCs, interdiction).

        A file at ``path`` is replaced only if it is a GeoPackage exported
        before, or ``overwrite=True``.
        """
        from normandy_lab.views.export import layers_to_geopackage

        path = checked_path("export_geopackage", path, "layers.gpkg")
        return layers_to_geopackage(self.state, self.report, path, overwrite=overwrite)


def _shown_path(path: Path) -> str:
    """Name a saved file for the banner: its name, and its folder relative to the working folder if inside it.

    Never the server's absolute path: it says nothing to a student and runs off the panel.
    """
    resolved = path.resolve()
    try:
        relative = resolved.relative_to(Path.cwd().resolve())
    except ValueError:
        return f"{resolved.name} (in the folder {resolved.parent.name or '/'})"
    return str(relative)
