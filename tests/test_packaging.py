"""Set-up files: pyproject.toml is the source of truth, environment.yml follows it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].strip().lower().replace("_", "-")


def test_environment_yml_lists_every_pyproject_dependency_with_the_same_bounds():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    for extra in ("lab", "test", "dev"):
        wanted += project["optional-dependencies"][extra]
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda = [d for d in env["dependencies"] if isinstance(d, str)]
    conda_by_name = {_name(d): d.replace(" ", "") for d in conda}
    for requirement in wanted:
        name = _name(requirement)
        assert name in conda_by_name, f"environment.yml lacks {name} (pyproject: {requirement})"
        bound = requirement[len(name) :].replace(" ", "")
        assert conda_by_name[name].endswith(bound), (
            f"{name}: pyproject says {bound!r}, environment.yml {conda_by_name[name]!r}"
        )
    pip_section = next(d for d in env["dependencies"] if isinstance(d, dict))["pip"]
    assert "-e ." in pip_section
    python = next(d for d in conda if d.startswith("python"))
    assert python == "python=3.11"


def test_ci_runs_exactly_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "bash run.sh test" in readme
    assert "bash run.sh lab" in readme
    assert "exec bash run.sh test" in ci


def test_run_sh_installs_chromium_and_runs_notebooks():
    script = (ROOT / "run.sh").read_text()
    assert "apt-get install" in script and "chromium" in script
    assert "--nbmake" in script
    assert "/lab/tree/notebooks/01_tour.ipynb" in script


def test_import_normandy_lab_loads_neither_the_engine_nor_numba():
    """Issue 15: ``import normandy_lab`` is cheap; the engine and numba load on first use (PEP 562 names)."""
    import subprocess
    import sys

    code = (
        "import sys, normandy_lab as nl; "
        "print(sorted(m for m in ('numba', 'normandy_lab.engine', 'geopandas', 'bokeh') if m in sys.modules)); "
        "nl.load_scenario; print('normandy_lab.engine' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[0] == "[]" and out[1] == "True"


def test_every_public_name_of_the_package_resolves():
    import normandy_lab as nl

    for name in nl.__all__:
        assert getattr(nl, name) is not None, name
    assert callable(nl.grid) and nl.grid("bfn").system == "bfn"  # the function, not the module of that name
    assert set(dir(nl)) >= set(nl.__all__)


def test_the_old_module_paths_are_the_modules_they_moved_to():
    """Issue 15: the rooms geo/, grids/, terrain/; the old paths import as the same module for one release."""
    import importlib

    import normandy_lab as nl
    from normandy_lab._moved import MOVED

    for old, new in MOVED.items():
        assert importlib.import_module(old) is importlib.import_module(new), old
    assert callable(nl.grid)  # importing the old path of the grids did not rebind the function
