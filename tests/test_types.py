"""The type check (issue 32, section 2): mypy, strict, over the files ``[tool.mypy]`` lists in pyproject.toml.

The list of strictly checked modules is kept in one place, ``files`` under ``[tool.mypy]``; this test runs
``python -m mypy`` with no arguments so that it checks exactly that list, and fails with mypy's report.
mypy keeps its cache in ``.mypy_cache`` (ignored by git), so a run after a small change takes seconds.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _mypy(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run ``python -m mypy`` with the interpreter running the tests (the venv's), in ``cwd``."""
    try:
        import mypy  # noqa: F401 - only to say how to install it when it is missing
    except ImportError:
        pytest.fail("mypy is missing: install the dev extra (pip install -e '.[dev]')")
    return subprocess.run(
        [sys.executable, "-m", "mypy", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_the_strict_modules_type_check():
    """mypy --strict reports nothing for the configured files (its output says where and what if it does)."""
    done = _mypy()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout, done.stdout


def test_the_strict_list_names_files_that_exist():
    """Each entry of the one list exists, so that a moved module is not silently dropped from the check."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True
    missing = [name for name in config["files"] if not (ROOT / name).exists()]
    assert not missing, f"[tool.mypy] files names what is not there: {missing}; update pyproject.toml"


def test_the_check_fails_on_an_untyped_function(tmp_path):
    """The configuration is strict: a function without annotations in a listed file is an error."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    (tmp_path / "loose.py").write_text("def double(x):\n    return 2 * x\n", encoding="utf-8")
    lines = [
        "[mypy]",
        "files = loose.py",
        f"strict = {config['strict']}",
        f"python_version = {config['python_version']}",
        f"cache_dir = {tmp_path / config['cache_dir']}",
    ]
    (tmp_path / "mypy.ini").write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = _mypy("--config-file", "mypy.ini", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "loose.py:1: error: Function is missing a type annotation" in done.stdout, done.stdout
