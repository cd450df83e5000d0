"""Outside its own package, no module names a game (issue 32, section 1).

The four games' keys may appear as string values only in the registry (``normandy_lab/rules/__init__.py``)
and in docstrings; every other mention is on the allow-list below, each with why, and the list may only
shrink: a count above its allowance, or a new file, fails.  The search reads the code (``ast``): a key
in a comment or a docstring is prose, and a word that merely contains a key is not one.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "normandy_lab"
KEYS = {"bfn", "cobra", "kg", "gts"}

#: File (under normandy_lab/) -> the most string values equal to a key it may hold, and why.
ALLOWED: dict[str, tuple[int, str]] = {
    "rules/__init__.py": (99, "the registry: the four built-in games' registrations"),
    "schemas/fields.py": (1, "'kg' is BfN's Kampfgruppe HQ kind (20.3), not a game key"),
    "views/explorer/inspector.py": (1, "'kg' is BfN's Kampfgruppe HQ kind (20.3), not a game key"),
}

#: Rooms whose modules are about named games by nature, and why.
CONTENT_ROOMS = {"lessons": "a lesson is a page about named games and their scenarios (issue 33)"}


def _key_values(path: Path) -> list[tuple[int, str]]:
    """Return (line, key) of every string value equal to a game key in a module, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in KEYS and id(node) not in docstrings
    ]


def _mentions() -> dict[str, list[tuple[int, str]]]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        parts = rel.split("/")
        if parts[0] == "rules" and len(parts) > 2 and parts[1] in KEYS:  # a game's own package
            continue
        if parts[0] in CONTENT_ROOMS:
            continue
        if hits := _key_values(path):
            found[rel] = hits
    return found


def test_outside_the_game_packages_the_keys_appear_only_where_allowed():
    over = {rel: hits for rel, hits in _mentions().items() if len(hits) > ALLOWED.get(rel, (0, ""))[0]}
    assert not over, (
        "a game key outside rules/<game>/ (look the game up in the registry instead, or add the file to "
        f"ALLOWED with why): {over}"
    )


def test_the_search_finds_a_key_but_not_a_docstring_or_a_longer_word(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        '"""About bfn."""\n\n\ndef f(x="kg"):\n    """For "gts"."""\n    return "bfn_wide", "cobra"\n'
    )
    assert sorted(_key_values(module)) == [(4, "kg"), (6, "cobra")]
