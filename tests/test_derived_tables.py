"""The disk cache of tables derived from the map data (normandy_lab.terrain.derived; issue 33, section 4)."""

from __future__ import annotations

import pytest

from normandy_lab.terrain import derived as d


def test_a_table_is_built_once_then_read_from_disk_by_a_new_process(derived_cache):
    calls = []

    def build():
        calls.append(1)
        return {"x": [1.5, 2.5]}

    assert d.derived("table", build, "bfn") == {"x": [1.5, 2.5]}
    assert d.derived("table", build, "bfn") == {"x": [1.5, 2.5]}
    assert len(calls) == 1
    d._MEMORY.clear()  # as a new process sees it: only the file
    assert d.derived("table", build, "bfn") == {"x": [1.5, 2.5]}
    assert len(calls) == 1
    assert len(list(derived_cache.glob("table-*.pickle"))) == 1


def test_other_words_are_another_table(derived_cache):
    assert d.derived("table", lambda: "bfn's", "bfn") == "bfn's"
    assert d.derived("table", lambda: "kg's", "kg") == "kg's"
    assert len(list(derived_cache.glob("table-*.pickle"))) == 2


def test_changed_map_data_or_code_makes_a_new_key_and_old_copies_go(derived_cache, monkeypatch):
    assert d.derived("table", lambda: "old", "bfn") == "old"
    monkeypatch.setattr(d, "_data_stamp", lambda: b"a data file changed")
    assert d.derived("table", lambda: "new", "bfn") == "new"
    monkeypatch.setattr(d, "_CODE_DIGEST", b"the code changed")
    assert d.derived("table", lambda: "newer", "bfn") == "newer"
    assert len(list(derived_cache.glob("table-*.pickle"))) == 3  # a process of each version keeps its own
    for k in range(d.KEEP + 2):
        monkeypatch.setattr(d, "_CODE_DIGEST", f"version {k}".encode())
        d.derived("table", lambda k=k: k, "bfn")
    assert len(list(derived_cache.glob("table-*.pickle"))) == d.KEEP


def test_the_data_stamp_follows_a_file_under_maps(tmp_path, monkeypatch):
    maps = tmp_path / "maps"
    (maps / "history").mkdir(parents=True)
    record = maps / "history" / "lodgement_june.yaml"
    record.write_text("records: []\n")
    monkeypatch.setenv("NORMANDY_LAB_MAPS", str(maps))
    before = d._data_stamp()
    record.write_text("records: [] # longer\n")
    assert d._data_stamp() != before


def test_a_damaged_file_is_built_again_and_a_failed_build_writes_nothing(derived_cache):
    d.derived("table", lambda: [1, 2, 3], "bfn")
    (path,) = derived_cache.glob("table-*.pickle")
    path.write_bytes(b"not a pickle")
    d._MEMORY.clear()
    assert d.derived("table", lambda: [4], "bfn") == [4]

    def fails():
        raise ValueError("no table")

    with pytest.raises(ValueError, match="no table"):
        d.derived("other", fails, "bfn")
    assert not list(derived_cache.glob("other-*"))


def test_the_explorer_map_draws_the_same_from_a_warm_cache(derived_cache):
    """The basemap built from freshly derived tables and from their copies on disk has the same data."""
    from bokeh.models import ColumnDataSource

    from normandy_lab.views.basemap import basemap

    built = basemap("bfn")
    d._MEMORY.clear()
    read = basemap("bfn")
    assert {s.name for s in built.select({"type": ColumnDataSource})} == {
        s.name for s in read.select({"type": ColumnDataSource})
    }
    for name in ("hexes", "places_rank1", "coast_points"):
        a, b = built.select_one({"name": name}).data, read.select_one({"name": name}).data
        assert a.keys() == b.keys()
        for key in a:
            assert list(a[key]) == list(b[key]), (name, key)


def test_the_key_covers_the_code_each_table_is_built_by():
    """A table's builder and the helpers it calls live in modules whose source keys the cache."""
    import importlib
    import inspect
    from pathlib import Path

    covered = {Path(p).resolve() for p in d._code_files()}
    builders = [
        ("normandy_lab.views.basemap", ("_geography_tables", "_hex_tables", "_polygons", "_lines")),
        ("normandy_lab.views.hexcells", ("_cell_geometry", "_sheet_outlines", "terrain_columns", "packed_ids")),
        ("normandy_lab.views.mapview", ("land_source_data", "to_mercator")),
        ("normandy_lab.views.sectors", ("_sectors_on",)),
        ("normandy_lab.history.lodgement", ("_build_file", "_build_record")),
        ("normandy_lab.geo.geography", ("layer",)),
        ("normandy_lab.terrain", ("terrain_map",)),
    ]
    for module, names in builders:
        for name in names:
            function = getattr(importlib.import_module(module), name)
            source = Path(inspect.getsourcefile(inspect.unwrap(function))).resolve()
            assert source in covered, (module, name, source)


def test_sheet_outlines_from_the_cache_are_each_sheet_s_hexes_unioned(derived_cache):
    """The air-interdiction layer's sheet outlines (11.1: air points are given per map sheet) come from disk
    as built: each sheet's outline encloses that sheet's hexes and no other sheet's."""
    import shapely

    from normandy_lab.grids import grid
    from normandy_lab.views.hexcells import _sheet_outlines, sheet_outlines
    from normandy_lab.views.mapview import to_mercator

    built = _sheet_outlines("cobra")
    assert sheet_outlines("cobra") == built  # written, then read back
    frame = grid("cobra").to_geodataframe()
    centres = shapely.get_coordinates(shapely.centroid(frame.geometry.values))
    x, y = to_mercator(centres[:, 0], centres[:, 1])
    assert len(built) == frame["sheet"].nunique() > 1
    for sheet, (xs, ys) in built.items():
        outline = shapely.Polygon(list(zip(xs, ys, strict=True)))
        inside = shapely.contains_xy(outline, x, y)
        assert inside[(frame["sheet"] == sheet).to_numpy()].mean() > 0.99, sheet
        assert not inside[(frame["sheet"] != sheet).to_numpy()].any(), sheet
