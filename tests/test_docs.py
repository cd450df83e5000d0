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


def test_the_readme_what_if_recipe_runs_and_says_what_it_finds():
    """The README's five-line what-if runs as printed, and its comments state the result."""
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### A what-if in five lines", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    namespace: dict = {}
    exec("import normandy_lab as nl\n" + code, namespace)
    counts = namespace["out_of_supply_counts"]
    before, after = counts(namespace["state"]), counts(namespace["cut"])
    said = re.search(r"# (\d+) Allied, (\d+) German out of supply in both", code)
    assert said, "the recipe's comment must state the counts"
    assert before == after == {"allied": int(said.group(1)), "german": int(said.group(2))}
    assert len(namespace["orne"]) >= 3 and (namespace["orne"]["water_name"] == "Orne").all()
    changes = namespace["supply_changes"](namespace["state"], namespace["cut"])
    said = re.search(r"# whose General or Combat Supply changed: (.*)$", code, re.M)
    assert said, "the recipe's comment must name the units whose supply changed"
    named = [n.strip() for n in said.group(1).split(",")]
    assert len(changes) == len(named)
    assert all(name.split(" (")[0] in said.group(1) for name in changes["name"]), list(changes["name"])
    assert (changes["general_before"] == changes["general_after"]).all(), "only Combat Supply changes"


def test_the_scenario_table_gives_the_distances_the_code_computes():
    """docs/scenarios.md states each scenario's distance from the historical front as measured now."""
    import re

    import normandy_lab as nl
    from normandy_lab.history.compare import compare_with_history

    text = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(bfn_[\w-]+)\.yaml` \|.*\| ([\d.]+) / ([\d.]+) \|$", text, re.M)
    assert len(rows) >= 7
    for name, mean, largest in rows:
        result = compare_with_history(nl.load_scenario(name))
        assert (f"{result.mean_km:.2f}", f"{result.max_km:.1f}") == (mean, largest), name
