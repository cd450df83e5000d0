"""Measure the package's import cycles: the largest strongly connected component of its import graph.

Run ``.venv/bin/python scripts/import_cycles.py`` from the repository root (``--list`` prints the
modules of the largest component, ``--json`` the numbers as JSON).  The graph is grimp's (the library
import-linter runs on): one node per module of ``normandy_lab``, one edge per import of another of its
modules, wherever it is written (module level, inside a function, under ``if TYPE_CHECKING:``), as the
code review counts them (``../shared/design/code-review-2.md``, section 1.2).  A package's ``__init__`` is
its own node: importing ``normandy_lab.schemas.fields`` runs ``normandy_lab/schemas/__init__.py`` first,
but the edge is to the module named, which is how grimp and the review count.

The components are Tarjan's (networkx's ``strongly_connected_components``).  Three numbers are reported,
the largest component:

* with every import;
* without the registry's lazy loaders (``normandy_lab.rules`` -> a module of a game package): the edges
  that close the one cycle a plug-in design has on purpose (docs/architecture.md, "The registry and the
  one cycle");
* without every edge the layers contract of ``.importlinter`` declares (its ``ignore_imports``: the
  loaders, and the core's look-ups in the registry): what is left is a cycle nobody declared.
"""

from __future__ import annotations

import argparse
import configparser
import json
from pathlib import Path

import grimp
import networkx as nx

PACKAGE = "normandy_lab"
ROOT = Path(__file__).resolve().parents[1]


def import_graph() -> nx.DiGraph:
    """Return the package's import graph (every import, wherever written) as a networkx graph."""
    graph = grimp.build_graph(PACKAGE, cache_dir=None)
    G = nx.DiGraph()
    G.add_nodes_from(graph.modules)
    for module in graph.modules:
        G.add_edges_from((module, other) for other in graph.find_modules_directly_imported_by(module))
    return G


def declared_edges(path: Path = ROOT / ".importlinter") -> list[tuple[str, str]]:
    """Return the ``a -> b`` edges the layers contract of ``.importlinter`` ignores (declares)."""
    parser = configparser.ConfigParser(inline_comment_prefixes=None, comment_prefixes=(";", "#"))
    parser.read(path, encoding="utf-8")
    lines = parser["importlinter:contract:layers"].get("ignore_imports", "").splitlines()
    return [tuple(part.strip() for part in line.split("->")) for line in lines if "->" in line]  # type: ignore[misc]


def games(G: nx.DiGraph) -> set[str]:
    """Return the game packages: the subpackages of ``normandy_lab.rules`` with a module of their own."""
    prefix = f"{PACKAGE}.rules."
    return {m for m in G if m.startswith(prefix) and any(o.startswith(m + ".") for o in G)}


def largest(G: nx.DiGraph) -> list[str]:
    """Return the modules of the largest strongly connected component, sorted."""
    return sorted(max(nx.strongly_connected_components(G), key=len))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="print the modules of the largest component")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    options = parser.parse_args()
    G = import_graph()
    everything = largest(G)
    packages = games(G)
    registry = f"{PACKAGE}.rules"
    loaders = [(registry, m) for m in G[registry] if any(m == p or m.startswith(p + ".") for p in packages)]
    plugin = G.copy()
    plugin.remove_edges_from(loaders)
    undeclared = plugin.copy()
    undeclared.remove_edges_from(declared_edges())
    numbers = {
        "modules": G.number_of_nodes(),
        "imports": G.number_of_edges(),
        "largest_cycle": len(everything),
        "largest_cycle_without_registry_loaders": len(largest(plugin)),
        "largest_cycle_without_declared_edges": len(largest(undeclared)),
    }
    if options.json:
        print(json.dumps(numbers, indent=1))
    else:
        print(
            f"{numbers['modules']} modules, {numbers['imports']} imports; the largest cycle holds "
            f"{numbers['largest_cycle']} modules, {numbers['largest_cycle_without_registry_loaders']} "
            f"without the registry's lazy loaders, {numbers['largest_cycle_without_declared_edges']} without "
            "every edge .importlinter declares"
        )
    if options.list:
        for name, graph in (("every import", G), ("without the loaders", plugin), ("undeclared", undeclared)):
            print(f"-- {name}:", " ".join(largest(graph)))


if __name__ == "__main__":
    main()
