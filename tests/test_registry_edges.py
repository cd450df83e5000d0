"""The plug-in cycle is written where the tools see it (issue 32, section 2).

The one cycle a plug-in design has is core -> registry -> game -> core: the core looks a game up in the
registry (``rules.get``, ``grids.numbering`` asking for the maps the games bring), the registry's loaders
import the game, and the game imports the core.  Every edge of it is a plain ``import`` statement, so
import-linter and grimp see it and ``.importlinter`` declares it (docs/architecture.md, "The registry and
the one cycle").  What import-linter cannot see is an import *by name* (``importlib.import_module``,
``__import__``): these tests hold that the package makes such an import only where a by-name import is the
point (each listed with why); ``.importlinter`` holds that only the registry imports a game package.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "normandy_lab"

#: Modules (under normandy_lab/) that import a module of the package by name, and why that is the design.
BY_NAME = {
    "__init__.py": "the public API loads each name's module when first used (PEP 562)",
    "_moved.py": "the one-release aliases of moved modules map an old dotted path onto the new one",
    "geo/gazetteer.py": "the one-release names of hex_place/with_places, moved up to terrain/places.py",
    "lessons/__init__.py": "a lesson is opened by its name (notebooks/lessons/ pass it as a string)",
    "views/forkserver.py": "the class server's fork server imports the libraries of WARM_IMPORTS ahead (no "
    "module of the package: the test below)",
}


def test_the_fork_server_imports_no_module_of_the_package_by_name():
    from normandy_lab.views.forkserver import WARM_IMPORTS

    assert WARM_IMPORTS and not [name for name in WARM_IMPORTS if name.split(".")[0] == "normandy_lab"]


def by_name_imports(package: Path) -> dict[str, list[int]]:
    """Return ``{module: [lines]}`` of every call of ``importlib.import_module``/``__import__`` in ``package``."""
    found: dict[str, list[int]] = {}
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            called = node.func
            name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
            if name in ("import_module", "__import__"):
                found.setdefault(path.relative_to(package).as_posix(), []).append(node.lineno)
    return found


def test_no_module_imports_the_package_by_name_but_where_that_is_the_design():
    """An import by name hides an edge from import-linter; the registry's edges are plain imports."""
    found = by_name_imports(PACKAGE)
    hidden = {module: lines for module, lines in found.items() if module not in BY_NAME}
    assert not hidden, (
        f"import by name outside {sorted(BY_NAME)}: {hidden}; write a plain import (in the function, with "
        "a comment why) and declare the edge in .importlinter if it goes up the layers"
    )


def test_the_search_finds_a_by_name_import(tmp_path):
    """The check above can fail: both spellings are found, in a function too."""
    (tmp_path / "grids").mkdir()
    (tmp_path / "grids" / "numbering.py").write_text(
        "import importlib\n\n\ndef f():\n    importlib.import_module('normandy_lab.rules')\n"
        "    return __import__('normandy_lab.rules')\n"
    )
    assert by_name_imports(tmp_path) == {"grids/numbering.py": [5, 6]}


def test_the_core_reaches_the_registry_by_a_plain_import():
    """grids.numbering's way up to the registry is an import statement (the edge .importlinter declares)."""
    tree = ast.parse((PACKAGE / "grids" / "numbering.py").read_text(encoding="utf-8"))
    imported = {
        alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    } | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert "normandy_lab.rules" in imported
    declared = [line.strip() for line in (PACKAGE.parent / ".importlinter").read_text(encoding="utf-8").splitlines()]
    assert "normandy_lab.grids.numbering -> normandy_lab.rules" in declared
