"""The scripts that write notebooks 01 and 02 write exactly the committed notebooks.

Both notebooks were edited by hand while their scripts stayed behind (notebook 02 five times since the
script's last change), so a script run would have thrown those edits away. These tests keep the two in step:
a cell edited in one place and not the other fails here, naming the cell.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
PAIRS = {
    "make_tour_notebook.py": "01_tour.ipynb",
    "make_supply_notebook.py": "02_supply_explorer.ipynb",
}


def script_globals(script: str) -> dict:
    """Run a script's module code without its ``__main__`` block and return its functions.

    Its folder goes first on the path while it runs, as when it is run itself (it imports notebook_cells).
    """
    folder = str(ROOT / "scripts")
    sys.path.insert(0, folder)
    try:
        return runpy.run_path(str(ROOT / "scripts" / script), run_name="not_main")
    finally:
        sys.path.remove(folder)


def differences(built: nbformat.NotebookNode, committed: nbformat.NotebookNode) -> list[str]:
    """Say where two notebooks differ in their cells (kind, id, source) or kernel."""
    found = []
    if len(built.cells) != len(committed.cells):
        found.append(f"{len(built.cells)} cells built, {len(committed.cells)} committed")
    for number, (ours, theirs) in enumerate(zip(built.cells, committed.cells, strict=False)):
        for field in ("cell_type", "id", "source"):
            if ours.get(field) != theirs.get(field):
                found.append(f"cell {number} ({theirs.get('id')}): {field} differs")
    if built.metadata.get("kernelspec") != committed.metadata.get("kernelspec"):
        found.append("kernelspec differs")
    return found


@pytest.mark.parametrize("script", sorted(PAIRS))
def test_script_builds_the_committed_notebook(script):
    built = script_globals(script)["build"]()
    committed = nbformat.read(ROOT / "notebooks" / PAIRS[script], as_version=4)
    assert differences(built, committed) == [], (
        f"scripts/{script} and notebooks/{PAIRS[script]} disagree: copy the edited cells across"
    )
    assert all(cell.get("outputs", []) == [] for cell in built.cells)


@pytest.mark.parametrize("script", sorted(PAIRS))
def test_script_rewrites_the_notebook_byte_for_byte(script, tmp_path):
    """A run of the script leaves the committed file unchanged (fixed cell ids), so its diff is the edit."""
    main = script_globals(script)["main"]
    main.__globals__["PATH"] = tmp_path / PAIRS[script]
    main()
    assert (tmp_path / PAIRS[script]).read_bytes() == (ROOT / "notebooks" / PAIRS[script]).read_bytes()


def test_an_edited_cell_is_found():
    """The comparison is not vacuous: one changed word in one cell, and one cell fewer, are reported."""
    built = script_globals("make_supply_notebook.py")["build"]()
    edited = nbformat.from_dict(built)
    edited.cells[3].source = edited.cells[3].source.replace("supply", "suply", 1)
    assert differences(built, edited) == [f"cell 3 ({built.cells[3].id}): source differs"]
    edited.cells.pop()
    assert f"{len(built.cells)} cells built, {len(built.cells) - 1} committed" in differences(built, edited)
