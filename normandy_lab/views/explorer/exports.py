"""Saving the study and exporting the page, a picture and a GeoPackage."""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Any

from normandy_lab.engine.study import save_study
from normandy_lab.errors import NormandyLabError, PathRefusedError, RefusedError
from normandy_lab.views import layers, wording
from normandy_lab.views.explorer._common import shown

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


class Exporter:
    """Saving a session's study and exporting what a figure shows: a page, a picture, a GeoPackage.

    It reads the session (its study, state, report and edits) and the figure at each call, draws nothing
    and writes no banner: each action returns the path written, and the ``*_from_box`` actions return the
    banner's words instead of raising.  So it can be used and tested on a bare session and figure, without
    the explorer's widgets (issue 32, section 3).

    Parameters
    ----------
    session
        The session saved and exported (:class:`~normandy_lab.session.Session`).  The explorer sets
        :attr:`session` and :attr:`figure` again when it opens another source or map.
    figure
        The map exported (:class:`~normandy_lab.views.explorer.figure.MapFigure`, or anything with ``fig``).
    """

    def __init__(self, session: Any, figure: Any) -> None:
        self.session, self.figure = session, figure

    # -- from the Study box: words for the banner, never an exception -----------------------------------

    def study_from_box(self, typed: Any, verb: str) -> tuple[Path | None, str]:
        """Return the study path typed in the Study box, or None and the banner's words: what to type."""
        problem = path_problem(typed, box=True)
        if not problem:
            return Path(typed), ""
        where = f" {typed.strip()!r}" if typed.strip() else ""
        folder = Path(typed) / "study.json" if problem.startswith("is a folder") else Path("study.json")
        page = " (the page goes beside it, as study.page.html)" if verb == "export" else ""
        return None, (
            f"Could not {verb}: the Study box{where} {problem}. Type a study file name, e.g. "
            f"{str(folder)!r}{page}; nothing was written."
        )

    def save_from_box(self, typed: Any) -> str:
        """Save the study at the path typed in the Study box; return the banner's words (done, or why not)."""
        study, said = self.study_from_box(typed, "save")
        if study is None:
            return said
        try:
            return saved_words(self.save(study))
        except (OSError, NormandyLabError) as exc:
            return f"Could not save: {exc}"

    def export_from_box(self, typed: Any) -> str:
        """Export the page beside the study typed in the Study box; return the banner's words."""
        # The page goes beside the study with its own suffix, never over the study itself.
        study, said = self.study_from_box(typed, "export")
        if study is None:
            return said
        target = study.with_name(f"{study.stem.removesuffix('.study')}.page.html")
        try:
            written = self.export_html(target)
        except (OSError, NormandyLabError) as exc:  # ExportRefusedError: a file of the user's is there
            return f"Could not export: {exc}"
        return f"Exported the page to {_shown_path(Path(written))}"

    # -- saving and exports --------------------------------------------------------------------------------

    def save(self, path: str | Path) -> Path:
        """Save the study (scenario + edits) atomically; see :meth:`Explorer.save`."""
        path = checked_path("save", path, "study.json")
        if self.session.study is None:
            raise RefusedError(
                "this explorer was opened on a bare state: open it on a scenario or a study to save"
            )
        return save_study(self.session.study, path)

    def title_block_html(self) -> str:
        """Return the exported page's title block: date, phase, weather, supply counts, ring key, edits."""
        session = self.session
        state = session.state
        edits = [
            wording.edit_words(state.system, e)
            for e in session.edits[: session.position]
            if e.get("op") != "next_phase"
        ]
        listed = "".join(f"<li>{html.escape(e)}</li>" for e in edits) or "<li>none</li>"
        return (
            f"<h3 style='margin:4px 0'>{html.escape(state.label)}</h3>"
            f"<div>{html.escape(layers.supply_summary(state, session.report))}</div>"
            f"<div>{wording.phase_line(state)}</div><div>{layers.ring_key_html(state)}</div>"
            f"<div><b>Edits:</b><ul style='margin:2px 0'>{listed}</ul></div>"
        )

    def export_html(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Save the map as a standalone HTML page with a title block; see :meth:`Explorer.export_html`."""
        from normandy_lab.views.export import save_html

        path = checked_path("export_html", path, "view.html")
        return save_html(
            self.figure.fig, path, title=self.session.state.label, header_html=self.title_block_html(),
            overwrite=overwrite,
        )  # fmt: skip

    def export_png(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Save the map as PNG, rendered by headless Chromium (replacing only an earlier picture)."""
        from normandy_lab.views.export import save_png

        path = checked_path("export_png", path, "view.png")
        return save_png(self.figure.fig, path, overwrite=overwrite)

    def export_geopackage(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Write the state's layers to a GeoPackage; see :meth:`Explorer.export_geopackage`."""
        from normandy_lab.views.export import layers_to_geopackage

        path = checked_path("export_geopackage", path, "layers.gpkg")
        session = self.session
        return layers_to_geopackage(session.state, session.report, path, overwrite=overwrite)


def saved_words(path: Path) -> str:
    """Return the banner's words for a study saved at ``path``."""
    return f"Saved the study to {_shown_path(Path(path))}"


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
