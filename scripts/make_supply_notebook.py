"""Write notebooks/02_supply_explorer.ipynb (outputs empty) from the cells below.

The notebook and this script must agree cell by cell (``tests/test_notebook_scripts.py`` checks it): edit the
cells here and run ``python scripts/make_supply_notebook.py``, or, after editing the notebook in JupyterLab,
copy its changed cells here. Each cell keeps a fixed id, so that a run rewrites the file byte for byte and a
diff shows only what was edited.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from notebook_cells import code, md  # beside this script (run as python scripts/...)

PATH = Path(__file__).resolve().parents[1] / "notebooks" / "02_supply_explorer.ipynb"
KERNELSPEC = {"display_name": "Python 3", "language": "python", "name": "python3"}


def build() -> nbformat.NotebookNode:
    """Return the notebook, outputs empty."""
    cells = [
        md(
            "fa4a3f5e",
            "# Supply on the morning of 13 June 1944\n"
            "\n"
            "A week after the landings the Allied lodgement runs from the Cotentin to the Orne. The 7th\n"
            "Armoured Division is swinging round the German flank towards Villers-Bocage, the Americans\n"
            "have taken Carentan, and Panzer Lehr, the 12th SS and the 21st Panzer hold the line in front\n"
            "of Caen.\n"
            "This notebook walks through that morning on the map of *The Battle for Normandy* with the\n"
            "**explorer**: which units are out of supply and why, how the beachheads feed the Allied "
            "armies,\n"
            "what a storm does to supply, and what cutting the Vire bridges would do.\n"
            "\n"
            "**How to use it.** Run the cells from the top. The explorer is a live map with a panel "
            "beside it\n"
            "(under it on a narrow screen). Zoomed out, each division or brigade is one symbol: its "
            "ring is the\n"
            "worst supply state among its units and the bar under it the share of its units in "
            "supply; where\n"
            'neighbours of one side would overlap, one symbol stands for them ("6th Abn Div +9": nine '
            "more);\n"
            "click a symbol to list its units and zoom onto them. Zoomed in, the battalion counters "
            "appear; click one to read its supply report in the\n"
            "panel (a stack's other units are listed under it). *Go to* jumps to a sector of the "
            "front, and the\n"
            "*map key* button opens or folds the key under the map (a click on an entry hides that layer).\n"
            "*Step* moves to the next phase, *next movement phase* and *next day* jump ahead, *Back* "
            "and the\n"
            "*Phase* slider go back. The *Click to* buttons turn a click into a what-if: interdict a hex,\n"
            "destroy or repair a bridge (click its mark, drawn when zoomed in), move, add or remove a "
            "unit.\n"
            "After every edit a banner says what changed and the units whose supply changed are "
            "ringed in green;\n"
            "the study's edits are listed in the panel, each with a button that removes it.\n"
            "\n"
            "**What to trust.** The rules are the game's (rule numbers are given with every reason). "
            "The map's\n"
            "roads and bridges are digitised from 1944 sources but the minor roads are incomplete, so some\n"
            "units are cut off by a missing bridge rather than by the enemy: check the hexsides the report\n"
            "names before teaching a finding as history (see `docs/engine.md` and `maps/README.md`).",
        ),
        code(
            "06cb40cf",
            "import normandy_lab as nl\n"
            "from normandy_lab.engine.edits import destroy_bridge, set_weather\n"
            "from normandy_lab.engine.whatif import out_of_supply_counts, supply_changes, supply_table\n"
            "\n"
            'explorer = nl.explore("bfn_1944-06-13_am")\n'
            "explorer",
        ),
        md(
            "c23b12c7",
            "## Who is out of supply, and why\n"
            "\n"
            "A unit is in General Supply (rule 7.2) when it can trace a line of at most 6 hexes or 6 "
            "movement\n"
            "points to its division HQ or a source, and the HQ in turn reaches a corps HQ or a "
            "source. A line\n"
            "may not enter a hex held by the enemy, nor an empty hex in an enemy zone of control "
            "(7.3), and it\n"
            "crosses an unbridged river or stream only as the unit's own first step (7.3.2). The "
            "engine says\n"
            "what binds each unit out of supply: too far, cut off, its HQ out, no attachment place, or one\n"
            "block that alone causes it (it checks: removing that block would restore supply). The "
            "scenario\n"
            "lists the units it expects out, and why: cut off in 1944, or left out by the rules' ranges.",
        ),
        code(
            "ea586eee",
            "table = supply_table(explorer.report)\n"
            "print(nl.supply_summary(explorer.report))\n"
            "out = table[~table.general]\n"
            'out.groupby(["cause", "side"]).size().unstack(fill_value=0)',
        ),
        code("9ff46997", 'out[["name", "formation", "hex", "rule", "reason"]].head(25)'),
        md(
            "d27da1a8",
            "Pick one and look at it on the map: selecting a unit draws its line of supply (or its "
            "range, for\n"
            "an HQ), outlines the hex where its line is blocked, and fills the panel beside the map "
            "with its\n"
            "report in words: what it tried to reach, how long the best line was against the limit, "
            "what blocks\n"
            "it, the scenario's note on the unit, and its strengths once the supply effects are "
            "applied (7.5:\n"
            "attack halved out of supply). Rule numbers in the panel explain themselves when the "
            "pointer rests\n"
            "on them. In the live map a click on the unit does the same.",
        ),
        code(
            "6db8a80b",
            "from IPython.display import HTML\n"
            "\n"
            "example = out.index[0]\n"
            "explorer.select_unit(example)\n"
            "HTML(explorer.inspector.value)",
        ),
        md(
            "e9563a60",
            "## The beachheads\n"
            "\n"
            "The Allied armies are supplied over the beaches (7.4): any beachhead gives General "
            "Supply, but\n"
            "Combat Supply comes only from the beaches of the unit's own nation, Utah and Omaha for the\n"
            "Americans, Gold, Juno and Sword for the British and Canadians. Until 11 June the "
            "beachheads also\n"
            "stand in for the corps HQs that were still coming ashore; on the 13th the corps HQs are "
            "on the map\n"
            "and trace to the beaches at any length.",
        ),
        code(
            "e244072a",
            "state = explorer.states[0]\n{b.name: (b.hex, b.nationality) for b in state.beachheads}",
        ),
        code(
            "1d6c3312",
            "# How many hexes can draw supply from each beachhead (the 6-hex / 6-MP range of rule 7.3.1)\n"
            "{b.name: len(explorer.report.supply_range(b.hex)) for b in state.beachheads}",
        ),
        md(
            "f4d642c9",
            "## What a storm does\n"
            "\n"
            "In Heavy Rain or Storm every supply range is halved (7.3.3): 3 hexes or 3 MP instead of "
            "6, and 10\n"
            "MP instead of 20 for the division HQs. Only the corps HQs still trace at any length. The "
            "next cell\n"
            "compares the same morning in a storm.",
        ),
        code(
            "e3929ca3",
            'storm = set_weather(state, "Storm")\n'
            'print("overcast:", out_of_supply_counts(state), " storm:", out_of_supply_counts(storm))\n'
            'supply_changes(state, storm).groupby("side").size()',
        ),
        md(
            "0bf63dd3",
            "The same comparison on the map: the explorer shows the morning as it is beside the same "
            "morning in a\n"
            "storm, panned and zoomed together, with the units whose supply changes ringed in green "
            "and listed\n"
            "under the maps. (On the live map the *Weather* menu under the map does the same as an "
            "edit, and\n"
            "*Undo* takes it back.)",
        ),
        code("3fbb0e05", 'explorer.compare({"op": "weather", "weather": "Storm"})'),
        md(
            "4b8c5481",
            "## Cutting the Vire bridges\n"
            "\n"
            "The Vire divides the American sector from the British and runs south past Saint-Lô. Its "
            "bridges\n"
            "were prime targets for the Allied air forces. Destroying a bridge leaves the river "
            "unbridged at\n"
            "that hexside, so no line of supply may cross it except as a unit's own first step "
            "(7.3.2). Which\n"
            "units would lose their supply if every road bridge over the Vire on the map were down?",
        ),
        code(
            "607afa96",
            "from normandy_lab.views.tables import readable\n"
            "\n"
            'vire = nl.terrain_map("bfn", progress=False).bridges("Vire")\n'
            "no_bridges = state\n"
            "for a, b in zip(vire.a, vire.b, strict=True):\n"
            "    no_bridges = destroy_bridge(no_bridges, a, b)\n"
            "before, after = out_of_supply_counts(state), out_of_supply_counts(no_bridges)\n"
            'print(len(vire), "bridges down, out of supply before:", before, "after:", after)\n'
            'changed = supply_changes(state, no_bridges)[["name", "side", "place", "general_after", '
            '"why_after"]]\n'
            "readable(changed)  # left-aligned, whole reasons, each hex with its place",
        ),
        md(
            "94cdbc34",
            "Try it on the live map: choose *destroy bridge*, zoom in until the bridges are drawn, "
            "and click one:\n"
            "the bridge gets a red cross, the banner says how many units lost supply and how many "
            "lines got\n"
            "longer. Interdicting a hex (*interdict hex*) blocks every line through it, the analyst's "
            "version of\n"
            "a bombed crossroads. Here the first Vire bridge goes down from code, and the banner's "
            "words are\n"
            "printed:",
        ),
        code(
            "6a4a6616",
            'explorer.apply({"op": "destroy_bridge", "hexside": [vire.a.iloc[0], vire.b.iloc[0]]})\n'
            "print(explorer.message)",
        ),
        md(
            "75270038",
            "## Taking it to the classroom\n"
            "\n"
            "The explorer needs a running Python kernel. For a class, save the situation as a page "
            "that opens in\n"
            "any browser, with no network and no Python, and the what-if itself (scenario plus edits) "
            "as a study\n"
            "file that reopens in the explorer.\n"
            "The cell below also steps the explorer on one phase: the live map above now shows the Allied\n"
            "Movement phase with the first Vire bridge down, and its panel lists that edit.\n"
            "\n"
            "Two more exports, left out of this walk-through so that it runs quickly (about a second "
            "each):\n"
            "the sequence of states so far as one page with a slider and a play button, and the "
            "layers as a\n"
            "GeoPackage for QGIS:\n"
            "\n"
            "```python\n"
            "from normandy_lab.views.sequence import save_sequence_html\n"
            "\n"
            'save_sequence_html(explorer.states, exports / "13_june_sequence.html")\n'
            'explorer.export_geopackage(exports / "13_june_layers.gpkg")\n'
            "```",
        ),
        code(
            "5a1883df",
            "from pathlib import Path\n"
            "\n"
            'exports = Path("exports")\n'
            "explorer.step()\n"
            'print(explorer.export_html(exports / "13_june_view.html"))\n'
            'print(explorer.save(exports / "13_june_vire_bridge.json"))',
        ),
    ]
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = KERNELSPEC
    return notebook


def main() -> None:
    """Write the notebook and print its path."""
    nbformat.write(build(), PATH)
    print(PATH)


if __name__ == "__main__":
    main()
