"""Cells with fixed ids for the scripts that write the notebooks (``make_tour_notebook.py``,
``make_supply_notebook.py``): a fixed id makes a run rewrite a notebook byte for byte, so a diff shows only
what was edited."""

from __future__ import annotations

import nbformat


def md(cell_id: str, source: str) -> nbformat.NotebookNode:
    """Return a markdown cell with a fixed id."""
    cell = nbformat.v4.new_markdown_cell(source)
    cell.id = cell_id
    return cell


def code(cell_id: str, source: str) -> nbformat.NotebookNode:
    """Return a code cell with a fixed id, no outputs and no execution count."""
    cell = nbformat.v4.new_code_cell(source)
    cell.id = cell_id
    return cell
