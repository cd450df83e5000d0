"""The documentation's generated tables match the code."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_grid_tables_in_docs_are_current():
    spec = importlib.util.spec_from_file_location(
        "write_grid_tables", ROOT / "scripts" / "write_grid_tables.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = (ROOT / "docs" / "grids.md").read_text(encoding="utf-8")
    assert module.tables() in text, "docs/grids.md is stale: run python scripts/write_grid_tables.py"


def test_every_maps_file_is_described_in_maps_readme():
    readme = (ROOT / "maps" / "README.md").read_text(encoding="utf-8")
    for path in sorted((ROOT / "maps").rglob("*")):
        if path.is_file() and path.name != "README.md":
            relative = path.relative_to(ROOT / "maps").as_posix()
            assert f"`{relative}`" in readme, f"maps/README.md does not describe {relative}"
