"""The import contract (issue 32, section 2): the layers, the core's independence of the games, and no
private name imported across rooms.

``.importlinter`` holds the contracts import-linter checks (the `test` extra installs it); the second
half is an ``ast`` check import-linter cannot make: no module imports a ``_``-prefixed name from another
room.  A room is a top-level subpackage or module of ``normandy_lab`` (``engine``, ``grids``, ``views``
...), and each game package (``rules/bfn``, ``rules/cobra`` ...) is a room of its own.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from normandy_lab._moved import MOVED

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "normandy_lab"
GAMES = ("bfn", "cobra", "kg", "gts")
# The package root's own: its helper for the one-release aliases of moved modules, and those aliases.
ROOT_MODULES = {"_moved", *(old.split(".")[1] for old in MOVED)}


def _lint_imports() -> Path:
    """Return the venv's lint-imports console script (beside the interpreter running the tests)."""
    script = Path(sys.executable).parent / ("lint-imports.exe" if sys.platform == "win32" else "lint-imports")
    if not script.exists():
        pytest.fail(f"{script} is missing: install the test extra (pip install -e '.[test]')")
    return script


def test_the_import_contracts_hold():
    """lint-imports keeps every contract of .importlinter (the output names each broken import chain)."""
    done = subprocess.run(
        [str(_lint_imports()), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout and "kept" in done.stdout, done.stdout


def _room(module: str) -> str:
    """Return the room of a dotted module name of the package (``normandy_lab.rules.bfn.supply`` -> ``rules.bfn``)."""
    parts = module.split(".")
    if len(parts) < 2 or parts[1] in ROOT_MODULES:
        return "normandy_lab"
    if parts[1] == "rules" and len(parts) > 2 and parts[2] in GAMES:
        return f"rules.{parts[2]}"
    return parts[1]


def _module_of(path: Path, package: Path) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def private_imports_across_rooms(package: Path) -> list[str]:
    """Return ``file:line`` of every import of a ``_`` name (or module) from another room of ``package``.

    Imports in functions and under ``TYPE_CHECKING`` count; relative imports are resolved.  Dunder names
    (``__version__``) are public.
    """
    name = package.name
    wrong = []
    for path in sorted(package.rglob("*.py")):
        here = _module_of(path, package)
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[tuple[str, list[str]]] = []
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                if node.level:  # relative: from the module's package, one level up per dot beyond the first
                    base = here.split(".") if is_package else here.split(".")[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    module = ".".join([*base, module] if module else base)
                targets.append((module, [a.name for a in node.names]))
            elif isinstance(node, ast.Import):
                targets.extend((a.name, []) for a in node.names)
            for module, names in targets:
                if module != name and not module.startswith(name + "."):
                    continue
                private = [n for n in names if n.startswith("_") and not n.startswith("__")]
                private += [p for p in module.split(".") if p.startswith("_") and not p.startswith("__")]
                if private and _room(module) != _room(here):
                    wrong.append(f"{path.relative_to(package.parent)}:{node.lineno}: {private} from {module}")
    return wrong


def test_no_module_imports_a_private_name_from_another_room():
    """The plug-in API (rules/api.py) and the rooms' public names are what crosses a room's wall."""
    wrong = private_imports_across_rooms(PACKAGE)
    assert not wrong, "\n".join(wrong)


def test_the_private_name_check_finds_a_planted_import(tmp_path):
    """The check above can fail: a game importing the core's private name, by path and relatively, is found."""
    pkg = tmp_path / "normandy_lab"
    (pkg / "engine").mkdir(parents=True)
    (pkg / "rules" / "bfn").mkdir(parents=True)
    (pkg / "rules" / "kg").mkdir(parents=True)
    for folder in (pkg, pkg / "engine", pkg / "rules", pkg / "rules" / "bfn", pkg / "rules" / "kg"):
        (folder / "__init__.py").write_text("")
    (pkg / "engine" / "lines.py").write_text("def _as_mp(x):\n    return x\n")
    (pkg / "rules" / "bfn" / "supply.py").write_text(
        "from normandy_lab.engine.lines import _as_mp\n"
        "from normandy_lab.rules.bfn import _own  # the same room: allowed\n"
        "def f():\n    from ...engine.lines import _as_mp\n"
    )
    (pkg / "rules" / "kg" / "supply.py").write_text("from normandy_lab.rules.bfn.supply import _helper\n")
    found = private_imports_across_rooms(pkg)
    assert found == [
        "normandy_lab/rules/bfn/supply.py:1: ['_as_mp'] from normandy_lab.engine.lines",
        "normandy_lab/rules/bfn/supply.py:4: ['_as_mp'] from normandy_lab.engine.lines",
        "normandy_lab/rules/kg/supply.py:1: ['_helper'] from normandy_lab.rules.bfn.supply",
    ]


# The core's rooms (and the package's base modules): an import of the package inside a function there is
# an exception that must say why, in a comment on its line or just above it (issue 32, section 2).
CORE = (
    "geo",
    "grids",
    "schemas",
    "history",
    "network",
    "gamemap",
    "engine",
    "errors",
    "paths",
    "savefile",
    "yamllines",
    "words",
    "__init__",
)


def unexplained_function_imports(package: Path, rooms: tuple[str, ...] = CORE) -> list[str]:
    """Return ``file:line`` of every import of ``package`` inside a function of ``rooms`` with no comment.

    A comment counts when it is on the import's line or on one of the three lines above it (a group of
    imports under one comment).
    """
    name = package.name
    wrong = []
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package).with_suffix("").parts
        if parts[0] not in rooms:
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for function in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom):
                    modules = [node.module or ""] if not node.level else [name]
                elif isinstance(node, ast.Import):
                    modules = [a.name for a in node.names]
                else:
                    continue
                if not any(m == name or m.startswith(name + ".") for m in modules):
                    continue
                near = lines[max(0, node.lineno - 4) : node.lineno]
                if not any("#" in line for line in near):
                    wrong.append(f"{path.relative_to(package.parent)}:{node.lineno}")
    return sorted(set(wrong))


def test_an_import_inside_a_core_function_says_why():
    """In the core, the package's own modules are imported at the top; one inside a function says why."""
    wrong = unexplained_function_imports(PACKAGE)
    assert not wrong, (
        "move these imports to the module's top, or say in a comment why they must stay in the function "
        "(a cycle the import contract allows, or the import cost of pydantic, bokeh ...):\n"
        + "\n".join(wrong)
    )


def test_the_function_import_check_finds_an_unexplained_one(tmp_path):
    """The check above can fail: an in-function import with no comment is found, one with a reason is not."""
    pkg = tmp_path / "normandy_lab"
    (pkg / "engine").mkdir(parents=True)
    (pkg / "rules").mkdir()
    (pkg / "engine" / "state.py").write_text(
        "import json\n\n\n"
        "def rules():\n    from normandy_lab.rules import get\n    return get\n\n\n"
        "def explained():\n    # the registry imports the games (the plug-in cycle)\n"
        "    from normandy_lab.rules import get\n    return get\n\n\n"
        "def stdlib():\n    import csv\n    return csv\n"
    )
    (pkg / "rules" / "base.py").write_text("def f():\n    from normandy_lab.engine import state\n")
    assert unexplained_function_imports(pkg) == ["normandy_lab/engine/state.py:5"]
