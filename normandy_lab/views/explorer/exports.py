"""Saving the study and exporting the page, a picture and a GeoPackage."""

from __future__ import annotations

import html
from pathlib import Path

from normandy_lab.engine.study import save_study
from normandy_lab.errors import NormandyLabError, RefusedError
from normandy_lab.views import layers, wording
from normandy_lab.views.explorer._common import _edit_ops


class _Exports:
    """A part of the explorer (:class:`~normandy_lab.views.explorer.Explorer`), in its own module."""

    # -- saving and exports ----------------------------------------------------

    def _save_from_box(self) -> None:
        try:
            self.save(self.save_path.value)
        except (OSError, NormandyLabError) as exc:
            self.message = f"Could not save: {exc}"
            self._refresh_text()

    def _export_from_box(self) -> None:
        # The page goes beside the study with its own suffix, never over the study itself.
        study = Path(self.save_path.value)
        target = study.with_name(f"{study.stem.removesuffix('.study')}.page.html")
        try:
            written = self.export_html(target)
        except (OSError, NormandyLabError) as exc:  # ExportRefusedError: a file of the user's is there
            self.message = f"Could not export: {exc}"
        else:
            self.message = f"Exported the page to {written.resolve()}"
        self._refresh_text()

    def save(self, path: str | Path) -> Path:
        """Save the study (scenario + edits) atomically."""
        if self.study is None:
            raise RefusedError(
                "this explorer was opened on a bare state: open it on a scenario or a study to save"
            )
        saved = save_study(self.study, path)
        self.message = f"Saved the study to {Path(saved).resolve()}"
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
        """
        from normandy_lab.views.export import save_html

        return save_html(
            self.fig, path, title=self.state.label, header_html=self.title_block_html(), overwrite=overwrite
        )

    def export_png(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Save the current map as PNG, rendered by headless Chromium (replacing only an earlier picture)."""
        from normandy_lab.views.export import save_png

        return save_png(self.fig, path, overwrite=overwrite)

    def export_geopackage(self, path: str | Path, *, overwrite: bool = False) -> Path:
        """Write the current state's layers to a GeoPackage (units, lines of supply, ZOCs, interdiction).

        A file at ``path`` is replaced only if it is a GeoPackage exported
        before, or ``overwrite=True``.
        """
        from normandy_lab.views.export import layers_to_geopackage

        return layers_to_geopackage(self.state, self.report, path, overwrite=overwrite)
