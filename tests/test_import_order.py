"""Every rules module imports on its own, first, in a fresh interpreter (issue 32, section 2).

A circular import fails or not depending on which module of the cycle is imported first.  Say
``rules/kg/system.py`` imported ``rules/kg/rail.py`` at its top and ``rail.py`` did
``from normandy_lab.rules.kg.system import KGRules`` at its top: ``import normandy_lab.rules.kg`` (the
registry's order) loads ``system`` first, which starts ``rail``, which asks the half-built ``system`` for a
name not yet defined and raises ``ImportError: cannot import name 'KGRules' from partially initialized
module``.  ``import normandy_lab.rules.kg.rail`` first goes the other way round and may pass.  An
in-process test sees only the order in which the suite happened to import things (``sys.modules`` is warm),
so each module here is imported first in a fresh subprocess: moving an in-function import of a game
package to its top (section 2, fewer in-function imports) cannot make any entry point fail unseen.

A fresh interpreter per module costs a second or more of third-party imports (numpy, pandas, networkx
...), so on a platform with ``os.fork`` one subprocess imports those (the list is taken from a probe that
imports every game) and forks a child per module: each child starts with no ``normandy_lab`` module loaded,
which is what the import order depends on.  Elsewhere each module gets its own interpreter.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "normandy_lab" / "rules"
GAMES = ("bfn", "cobra", "kg", "gts")

#: Prints the top-level third-party modules that importing every game loads (sys.modules at the end).
PROBE = f"""
import json, sys
for game in {GAMES!r}:
    __import__("normandy_lab.rules." + game + ".system")
own = set(sys.builtin_module_names) | set(sys.stdlib_module_names) | {{"normandy_lab"}}
print(json.dumps(sorted({{m.split(".")[0] for m in sys.modules}} - own)))
"""

#: Imports the third-party modules (argv[1], JSON), then forks one child per module (argv[2], JSON) that
#: imports it first; prints one JSON line per module: [name, ok, error text].
ZYGOTE = """
import json, os, sys, traceback
for name in json.loads(sys.argv[1]):
    try:
        __import__(name)
    except Exception:
        pass
assert not [m for m in sys.modules if m.startswith("normandy_lab")], "a third-party module loaded the package"
for module in json.loads(sys.argv[2]):
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            __import__(module)
            message, code = "", 0
        except BaseException:
            message, code = traceback.format_exc()[-1500:], 1
        os.write(write, message.encode())
        os._exit(code)
    os.close(write)
    with os.fdopen(read) as pipe:
        message = pipe.read()
    _, status = os.waitpid(pid, 0)
    print(json.dumps([module, os.waitstatus_to_exitcode(status) == 0, message]), flush=True)
"""


def rules_modules() -> list[str]:
    """Return the dotted name of the package and of every module and package under ``normandy_lab/rules/``."""
    names = ["normandy_lab"]
    for path in sorted(RULES.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names.append(".".join(parts))
    return names


def _run(code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def import_each_first(modules: list[str]) -> list[tuple[str, bool, str]]:
    """Import each of ``modules`` first, with no module of the package loaded; return (name, ok, error)."""
    if not hasattr(os, "fork"):
        results = []
        for module in modules:
            done = _run(f"import {module}")
            results.append((module, done.returncode == 0, done.stderr[-1500:]))
        return results
    probe = _run(PROBE)
    assert probe.returncode == 0, probe.stderr[-1500:]
    third_party = probe.stdout.strip().splitlines()[-1]
    done = _run(ZYGOTE, third_party, json.dumps(modules))
    assert done.returncode == 0, done.stderr[-1500:]
    return [tuple(json.loads(line)) for line in done.stdout.splitlines()]


def test_the_module_list_covers_every_game():
    """The list is not silently empty or short: it holds each game's system module and the registry."""
    names = set(rules_modules())
    assert "normandy_lab.rules" in names
    for game in GAMES:
        assert f"normandy_lab.rules.{game}.system" in names


def test_each_rules_module_imports_first_in_a_fresh_interpreter():
    """Each module of normandy_lab/rules/ (and the package) imports with nothing of the package before it."""
    modules = rules_modules()
    results = import_each_first(modules)
    assert [name for name, _, _ in results] == modules, "the forking subprocess stopped early"
    failed = [f"{name}:\n{error}" for name, ok, error in results if not ok]
    assert not failed, "\n\n".join(failed)


def test_a_circular_top_level_import_is_caught(tmp_path):
    """The check fails on a cycle whose failure depends on the import order (a scratch package in tmp)."""
    package = tmp_path / "cyclepkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "system.py").write_text("from cyclepkg import rail\nclass Rules:\n    pass\n")
    (package / "rail.py").write_text("from cyclepkg.system import Rules\n")
    # The same forking subprocess, with the scratch package's folder first on sys.path: the registry's
    # order (system first) fails, the other order passes, so only importing each module first sees it.
    zygote = f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n" + ZYGOTE
    done = _run(zygote, "[]", json.dumps(["cyclepkg.rail", "cyclepkg.system"]))
    results = {name: (ok, error) for name, ok, error in map(json.loads, done.stdout.splitlines())}
    assert results["cyclepkg.rail"][0], results["cyclepkg.rail"][1]
    assert not results["cyclepkg.system"][0]
    assert "partially initialized module" in results["cyclepkg.system"][1]


def unexplained_game_function_imports(rules: Path = RULES) -> list[str]:
    """Return ``file:line`` of each import of the package inside a function of a game package, with no comment.

    A game package is imported only by the registry's loaders, after the core, so its imports of the
    package belong at its top; one that must stay in a function (a cycle inside the game) says why in a
    comment on its line or one of the three lines above.
    """
    wrong = []
    for game in GAMES:
        for path in sorted((rules / game).rglob("*.py")):
            lines = path.read_text(encoding="utf-8").splitlines()
            for function in ast.walk(ast.parse("\n".join(lines))):
                if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                for node in ast.walk(function):
                    if isinstance(node, ast.ImportFrom):
                        own = node.level > 0 or (node.module or "").startswith("normandy_lab")
                    elif isinstance(node, ast.Import):
                        own = any(a.name.startswith("normandy_lab") for a in node.names)
                    else:
                        continue
                    if own and not any("#" in line for line in lines[max(0, node.lineno - 4) : node.lineno]):
                        wrong.append(f"{path.relative_to(rules)}:{node.lineno}")
    return wrong


def test_an_import_inside_a_game_function_says_why():
    """In rules/<game>/, the package's modules are imported at the top; one left in a function says why."""
    wrong = unexplained_game_function_imports()
    assert not wrong, "move these to the module's top or say why they stay:\n" + "\n".join(wrong)


def test_the_game_function_import_check_finds_an_unexplained_one(tmp_path):
    """The check above can fail: an uncommented in-function import is found, a commented one is not."""
    for game in GAMES:
        (tmp_path / game).mkdir()
    (tmp_path / "kg" / "rail.py").write_text(
        "def f():\n    from normandy_lab.rules.kg import supply\n    return supply\n\n\n"
        "def g():\n    # supply imports this module at its top (a cycle)\n"
        "    from normandy_lab.rules.kg import supply\n    return supply\n"
    )
    assert unexplained_game_function_imports(tmp_path) == ["kg/rail.py:2"]
