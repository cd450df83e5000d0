"""Exports: standalone HTML (INLINE resources, no kernel, no network) and PNG (a real browser render)."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from normandy_lab.savefile import (
    normal_file_mode,
    remove_stale_temporaries,
    temporary_prefix,
    write_bytes_atomically,
)
from normandy_lab.views.export_marks import GEOPACKAGE_MARK, check_export_target, mark_html, mark_png

# Chromium flags for a closed network: no background connections, no sandbox
# (root in containers), no GPU.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    """Return the path of the system's Chromium, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def save_html(
    obj: Any,
    path: str | Path,
    title: str = "normandy_lab",
    header_html: str = "",
    *,
    overwrite: bool = False,
) -> Path:
    """Save a bokeh figure or layout as one self-contained HTML file (BokehJS inlined).

    The page needs no kernel and no network; bokeh inlines only the BokehJS
    bundles the models use.  ``header_html`` (trusted HTML made by this
    package, e.g. a title block) goes above the figure.  The file is written
    beside the target and renamed over it, so a failure never destroys an
    earlier page.

    An existing file at ``path`` is replaced only if it is a page this export
    wrote (it carries the project's mark, :mod:`normandy_lab.views.export_marks`)
    or ``overwrite=True``; anything else is refused with
    :class:`~normandy_lab.errors.ExportRefusedError` and left as it was.
    """
    from bokeh.core.templates import FILE, get_env
    from bokeh.embed import file_html
    from bokeh.resources import INLINE

    from normandy_lab.savefile import write_text_atomically

    check_export_target(path, "html", overwrite=overwrite)
    template = FILE
    variables: dict[str, Any] = {}
    if header_html:
        template = get_env().from_string(
            "{% extends base %}{% block contents %}<div style='font-family: sans-serif; margin: 6px 10px'>"
            "{{ header_html | safe }}</div>{{ super() }}{% endblock %}"
        )
        variables = {"base": FILE, "header_html": header_html}
    # The explorer's map also carries Python callbacks (clicks for the kernel); a
    # saved page simply does without them, so bokeh's warning about them is noise.
    text = file_html(
        obj, INLINE, title, template=template, template_variables=variables, suppress_callback_warning=True
    )
    return write_text_atomically(path, mark_html(text))


def html_to_png(
    html_path: str | Path,
    png_path: str | Path,
    width: int = 1100,
    height: int = 900,
    *,
    overwrite: bool = False,
) -> Path:
    """Render an HTML page in headless Chromium and save a screenshot.

    An existing file at ``png_path`` is replaced only if it is a picture this
    export wrote, or ``overwrite=True`` (see :func:`save_html`).

    Raises
    ------
    RuntimeError
        When no Chromium is installed (``bash run.sh test`` installs Debian's).
    ExportRefusedError
        When ``png_path`` holds a file this export did not write.
    """
    from playwright.sync_api import sync_playwright

    png_path = check_export_target(png_path, "png", overwrite=overwrite)
    executable = chromium_path()
    if executable is None:
        raise RuntimeError("no Chromium found: install Debian's 'chromium' package to render PNGs")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(Path(html_path).resolve().as_uri())
            page.wait_for_function("window.Bokeh && Bokeh.documents.length > 0", timeout=60_000)
            page.wait_for_selector("canvas", state="attached", timeout=60_000)
            page.wait_for_timeout(1000)
            image = page.screenshot(full_page=True)
        finally:
            browser.close()
    # Written only once complete: a failure mid-render leaves the previous picture whole.
    return write_bytes_atomically(png_path, mark_png(image))


def save_png(
    obj: Any, path: str | Path, width: int = 1100, height: int = 900, *, overwrite: bool = False
) -> Path:
    """Render a bokeh figure or layout to PNG in a real (headless) Chromium.

    An existing file at ``path`` is replaced only if it is a picture this
    export wrote, or ``overwrite=True``; the check comes before any rendering.
    """
    check_export_target(path, "png", overwrite=overwrite)
    with tempfile.TemporaryDirectory() as folder:
        html = save_html(obj, Path(folder) / "figure.html")
        return html_to_png(html, path, width=width, height=height, overwrite=overwrite)


def layers_to_geopackage(state: Any, report: Any, path: str | Path, *, overwrite: bool = False) -> Path:
    """Write the layers of a state to one GeoPackage (EPSG:4326) that geopandas/pyogrio and QGIS open.

    Layers: ``units`` (points with their supply report), ``supply_paths``
    (the traced lines), ``supply_ranges`` (each in-supply HQ's and source's
    range), ``zoc`` (hexes in each side's ZOC, overlap marked) and
    ``interdicted_hexes`` (the analyst's what-if interdictions) and
    ``regional_interdiction`` (each map sheet with its air and AA points and
    the MP penalty of 11.2) and, where the rule system draws any, ``zones``
    (KG: the corps HQ support bands of 26.10.5, each with its words and rule).  An
    existing file at ``path`` is replaced only once the new one is complete, and
    only if it is a GeoPackage this export wrote (or ``overwrite=True``); anything
    else is refused before any work, with
    :class:`~normandy_lab.errors.ExportRefusedError`.
    """
    import geopandas as gpd
    import shapely

    from normandy_lab.engine.zoc import zoc_mask
    from normandy_lab.grids import grid
    from normandy_lab.views.layers import sheet_polygons

    path = check_export_target(path, "geopackage", overwrite=overwrite)
    path.parent.mkdir(parents=True, exist_ok=True)
    g = grid(state.system)
    hexes = g.to_geodataframe()
    ids = list(g.ids())
    allied, german = zoc_mask(state, "allied"), zoc_mask(state, "german")
    zoc_rows = [
        {"hex_id": ids[i], "allied_zoc": bool(allied[i]), "german_zoc": bool(german[i])}
        for i in range(len(ids))
        if allied[i] or german[i]
    ]
    zoc = gpd.GeoDataFrame(
        zoc_rows, geometry=[hexes.geometry.loc[r["hex_id"]] for r in zoc_rows], crs="EPSG:4326"
    )
    interdicted = sorted(state.interdicted_hexes)
    interdiction = gpd.GeoDataFrame(
        {"hex_id": interdicted}, geometry=[hexes.geometry.loc[h] for h in interdicted], crs="EPSG:4326"
    )
    units = report.to_geodataframe().reset_index()
    names = {u.id: u for u in state.units}
    units["name"] = [names[u].name for u in units["unit_id"]]
    units["type"] = [names[u].type for u in units["unit_id"]]
    units["size"] = [names[u].size for u in units["unit_id"]]
    units["steps"] = [names[u].steps for u in units["unit_id"]]
    areas = sheet_polygons(state.system)
    regions = [r for r in state.rules.air_regions(state) if r.sheet in areas]
    regional = gpd.GeoDataFrame(
        {
            "sheet": [r.sheet for r in regions],
            "air": [r.allied for r in regions],
            "aa": [r.against for r in regions],
            "penalty_mp": [r.penalty for r in regions],
        },
        geometry=[areas[r.sheet] for r in regions],
        crs="EPSG:4326",
    )
    zone_list = report.zones()
    zones = gpd.GeoDataFrame(
        {
            "side": [z.side for z in zone_list],
            "label": [z.label for z in zone_list],
            "rule": [z.rule for z in zone_list],
            "hexes": [len(z.hexes) for z in zone_list],
        },
        geometry=[shapely.union_all(hexes.geometry.loc[list(z.hexes)].values) for z in zone_list],
        crs="EPSG:4326",
    )
    frames = {
        "units": units,
        "supply_paths": report.paths(),
        "supply_ranges": report.supply_ranges(),
        "zoc": zoc,
        "interdicted_hexes": interdiction,
        "regional_interdiction": regional,
        **({"zones": zones} if zone_list else {}),
    }
    # Written in a private folder beside the target, then renamed over it: a failed export never
    # destroys an earlier file, and no file of the user's (a name like ours) is ever removed.
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    mode = (target.stat().st_mode & 0o7777) if target.exists() else normal_file_mode()
    folder = Path(tempfile.mkdtemp(dir=target.parent, prefix=temporary_prefix(target)))
    try:
        temporary = folder / "export.gpkg"
        for layer, frame in frames.items():
            frame.to_file(
                temporary,
                layer=layer,
                driver="GPKG",
                engine="pyogrio",
                layer_options={"DESCRIPTION": f"{GEOPACKAGE_MARK}: {layer}"},
            )
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    remove_stale_temporaries(target)
    return path
