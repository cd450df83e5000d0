"""Exports never replace a file they did not write (issue 28, part 1; reliability review 2, N1 and N2).

Every export (page, picture, GeoPackage; from code, from the explorer, from the campaign and sequence views)
is tried over every kind of file a user keeps: a study saved pretty and compact, a scenario with and without
its ``format:`` line (and one whose quoted format line lies past 4 KB), a notebook, a table, an empty file and
files of the same kinds written by other programs.  Each must be refused with the project's error, which names
the path and says nothing was changed, and the file must be byte-identical afterwards.  An export replaces its
own earlier output, and a foreign file only with ``overwrite=True``.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest

import normandy_lab as nl
from normandy_lab.errors import ExportRefusedError, NormandyLabError
from normandy_lab.views.export import html_to_png, layers_to_geopackage, save_html, save_png
from normandy_lab.views.export_marks import HTML_MARK, check_export_target, is_marked_export, mark_png

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "tests" / "data" / "bfn_pegasus_1944-06-07.yaml"


# ----------------------------------------------------------------------------- the files users keep


def _png_from_elsewhere() -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (4, 3), (200, 30, 30)).save(buffer, format="PNG")
    return buffer.getvalue()


def _geopackage_from_elsewhere(folder: Path) -> bytes:
    import geopandas as gpd
    import shapely

    path = folder / "theirs.gpkg"
    gpd.GeoDataFrame({"name": ["Caen"]}, geometry=[shapely.Point(-0.37, 49.18)], crs="EPSG:4326").to_file(
        path, layer="places", driver="GPKG", engine="pyogrio"
    )
    data = path.read_bytes()
    path.unlink()
    return data


def _user_files(folder: Path) -> dict[str, bytes]:
    """Return the content of each kind of file a user keeps, by a name that says what it is."""
    study = nl.save_study(nl.Study(str(SMALL)), folder / "made.study.json").read_bytes()
    (folder / "made.study.json").unlink()
    scenario = SMALL.read_text(encoding="utf-8")
    without_format = "\n".join(line for line in scenario.splitlines() if not line.startswith("format:"))
    quoted_late = "# notes\n" * 600 + scenario.replace(
        "format: normandy_lab.scenario/1", 'format: "normandy_lab.scenario/1"'
    )
    notebook = {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return {
        "study, pretty": study,
        "study, compact": json.dumps(json.loads(study), separators=(",", ":")).encode(),
        "scenario with its format line": scenario.encode(),
        "scenario without a format line": without_format.encode(),
        "scenario, quoted format past 4 KB": quoted_late.encode(),
        "notebook": json.dumps(notebook).encode(),
        "table": b"place,lon,lat\nCaen,-0.37,49.18\n",
        "empty file": b"",
        "page from elsewhere": b"<!DOCTYPE html>\n<html><body>my notes</body></html>\n",
        "page that mentions the mark later": f"<!DOCTYPE html>\n<p>{HTML_MARK}</p>\n".encode(),
        "picture from elsewhere": _png_from_elsewhere(),
        "GeoPackage from elsewhere": _geopackage_from_elsewhere(folder),
    }


@pytest.fixture(scope="module")
def user_files(tmp_path_factory) -> dict[str, bytes]:
    return _user_files(tmp_path_factory.mktemp("user_files"))


@pytest.fixture(scope="module")
def explorer():
    return nl.explore(str(SMALL))


@pytest.fixture(scope="module")
def exports(explorer, tmp_path_factory) -> dict[str, Callable[..., Path]]:
    """Every export the project has, each taking (path, **options)."""
    from bokeh.plotting import figure

    from normandy_lab.views.campaign import save_campaign_html
    from normandy_lab.views.sequence import save_sequence_html

    page = save_html(figure(width=50, height=50), tmp_path_factory.mktemp("page") / "source.html")

    def export_box(path: Path, **options) -> Path:
        # The explorer's Export button writes <study>.page.html beside the study named in its box.
        assert path.name.endswith(".page.html") and not options
        explorer.save_path.value = str(path.with_name(path.name.removesuffix(".page.html") + ".study.json"))
        explorer._export_from_box()
        if explorer.message.startswith("Could not export"):
            raise ExportRefusedError(explorer.message)
        return path

    return {
        "save_html": lambda path, **o: save_html(figure(width=50, height=50), path, **o),
        "save_png": lambda path, **o: save_png(figure(width=50, height=50), path, **o),
        "html_to_png": lambda path, **o: html_to_png(page, path, **o),
        "layers_to_geopackage": lambda path, **o: layers_to_geopackage(
            explorer.state, explorer.report, path, **o
        ),
        "Explorer.export_html": lambda path, **o: explorer.export_html(path, **o),
        "Explorer.export_png": lambda path, **o: explorer.export_png(path, **o),
        "Explorer.export_geopackage": lambda path, **o: explorer.export_geopackage(path, **o),
        "the explorer's Export button": export_box,
        "save_campaign_html": lambda path, **o: save_campaign_html(path, **o),
        "save_sequence_html": lambda path, **o: save_sequence_html(explorer.states[:1], path, **o),
    }


EXPORT_NAMES = (
    "save_html",
    "save_png",
    "html_to_png",
    "layers_to_geopackage",
    "Explorer.export_html",
    "Explorer.export_png",
    "Explorer.export_geopackage",
    "the explorer's Export button",
    "save_campaign_html",
    "save_sequence_html",
)
USER_FILE_NAMES = (
    "study, pretty",
    "study, compact",
    "scenario with its format line",
    "scenario without a format line",
    "scenario, quoted format past 4 KB",
    "notebook",
    "table",
    "empty file",
    "page from elsewhere",
    "page that mentions the mark later",
    "picture from elsewhere",
    "GeoPackage from elsewhere",
)


@pytest.mark.parametrize("export", EXPORT_NAMES)
def test_no_export_replaces_any_file_a_user_keeps(export, exports, user_files, tmp_path):
    """N1, N2: each export over each kind of user file is refused, naming the path; the file is unchanged."""
    for kind in USER_FILE_NAMES:
        content = user_files[kind]
        target = tmp_path / (
            "analysis.page.html" if export == "the explorer's Export button" else "analysis.out"
        )
        target.write_bytes(content)
        with pytest.raises(ExportRefusedError) as refused:
            exports[export](target)
        said = str(refused.value)
        assert str(target) in said and "nothing was changed" in said, (export, kind, said)
        assert target.read_bytes() == content, f"{export} changed a {kind}"
        assert sorted(p.name for p in tmp_path.iterdir()) == [target.name], (
            f"{export} left files beside a {kind}"
        )
        target.unlink()


def test_the_refusal_is_the_projects_error_and_still_a_file_exists_error(tmp_path):
    """The explorer and callers can tell it from a bug (NormandyLabError) or catch it as before (OSError)."""
    target = tmp_path / "notes.html"
    target.write_text("mine")
    with pytest.raises(ExportRefusedError) as refused:
        check_export_target(target, "html")
    assert isinstance(refused.value, NormandyLabError) and isinstance(refused.value, FileExistsError)
    assert "overwrite=True" in str(refused.value)


def test_the_explorer_export_button_says_why_it_did_not_export(explorer, tmp_path):
    mine = tmp_path / "plan.page.html"
    mine.write_text("<html>my own page</html>")
    explorer.save_path.value = str(tmp_path / "plan.study.json")
    explorer._export_from_box()
    assert explorer.message.startswith("Could not export") and "nothing was changed" in explorer.message
    assert mine.read_text() == "<html>my own page</html>"


def test_a_link_to_a_study_is_followed_and_the_study_kept(tmp_path, user_files):
    study = tmp_path / "a.study.json"
    study.write_bytes(user_files["study, compact"])
    link = tmp_path / "view.html"
    link.symlink_to(study)
    with pytest.raises(ExportRefusedError):
        save_html(None, link)
    assert study.read_bytes() == user_files["study, compact"] and link.is_symlink()


def test_a_folder_is_refused_even_with_overwrite(tmp_path):
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "keep.txt").write_text("x")
    with pytest.raises(ExportRefusedError, match="not a regular file"):
        save_html(None, folder, overwrite=True)
    assert (folder / "keep.txt").read_text() == "x"


# ----------------------------------------------------------------------------- what an export may replace


def test_an_html_export_replaces_its_own_earlier_page(tmp_path):
    from bokeh.plotting import figure

    page = save_html(figure(title="first"), tmp_path / "view.html")
    assert is_marked_export(page, "html") and page.read_text().startswith("<!DOCTYPE html>\n" + HTML_MARK)
    save_html(figure(title="second"), page)
    assert "second" in page.read_text() and is_marked_export(page, "html")
    # An exported page is not taken for a picture or a GeoPackage of ours.
    assert not is_marked_export(page, "png") and not is_marked_export(page, "geopackage")


def test_overwrite_replaces_a_file_the_user_named(tmp_path):
    from bokeh.plotting import figure

    notes = tmp_path / "notes.html"
    notes.write_text("old notes")
    save_html(figure(), notes, overwrite=True)
    assert is_marked_export(notes, "html")


def test_a_geopackage_export_replaces_its_own_and_keeps_every_layer(explorer, tmp_path):
    import pyogrio

    package = layers_to_geopackage(explorer.state, explorer.report, tmp_path / "layers.gpkg")
    assert is_marked_export(package, "geopackage")
    again = explorer.export_geopackage(package)
    assert {name for name, _ in pyogrio.list_layers(again)} >= {"units", "supply_paths", "zoc"}
    assert is_marked_export(again, "geopackage")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["layers.gpkg"]  # no temporary folder left


def test_a_marked_picture_is_still_a_valid_png_and_is_recognised(tmp_path):
    from PIL import Image

    plain = _png_from_elsewhere()
    marked = mark_png(plain)
    path = tmp_path / "map.png"
    path.write_bytes(marked)
    with Image.open(path) as image:
        image.load()  # every chunk's CRC is checked on load
        assert image.size == (4, 3) and image.text.get("Software", "").startswith("normandy_lab export")
    assert is_marked_export(path, "png")
    path.write_bytes(plain)
    assert not is_marked_export(path, "png")
