"""Write notebooks/02_supply_explorer.ipynb (outputs empty).  Re-run after editing the cells here."""

from __future__ import annotations

from pathlib import Path

import nbformat

md = nbformat.v4.new_markdown_cell
code = nbformat.v4.new_code_cell

cells = [
    md(
        "# Supply on the morning of 13 June 1944\n\n"
        "A week after the landings the Allied lodgement runs from the Cotentin to the Orne. The 7th\n"
        "Armoured Division is swinging round the German flank towards Villers-Bocage, the Americans\n"
        "have taken Carentan, and Panzer Lehr, the 12th SS and the 21st Panzer hold the line in front\n"
        "of Caen.\n"
        "This notebook walks through that morning on the map of *The Battle for Normandy* with the\n"
        "**explorer**: which units are out of supply and why, how the beachheads feed the Allied armies,\n"
        "what a storm does to supply, and what cutting the Vire bridges would do.\n\n"
        "**How to use it.** Run the cells from the top. The explorer is a live map: hover over a unit or a\n"
        "hex, click a unit to read its supply report in the panel under the map, click the legend to hide a\n"
        "layer. *Step* moves to the next phase of the turn, *Back* and the slider go back through the\n"
        "states so far. The modes above the map turn a click into a what-if: interdict a hex, destroy or\n"
        "repair a bridge (click the hexes on each side), move or remove a unit. *Undo* takes an edit\n"
        "back.\n\n"
        "**What to trust.** The rules are the game's (rule numbers are given with every reason). The map's\n"
        "roads and bridges are digitised from 1944 sources but the minor roads are incomplete, so some\n"
        "units are cut off by a missing bridge rather than by the enemy: check the hexsides the report\n"
        "names before teaching a finding as history (see `docs/engine.md` and `maps/README.md`)."
    ),
    code(
        "import normandy_lab as nl\n"
        "from normandy_lab.engine.edits import destroy_bridge, set_weather\n"
        "from normandy_lab.engine.whatif import out_of_supply_counts, supply_changes, supply_table\n\n"
        'explorer = nl.explore("bfn_1944-06-13_am")\n'
        "explorer"
    ),
    md(
        "## Who is out of supply, and why\n\n"
        "A unit is in General Supply (rule 7.2) when it can trace a line of at most 6 hexes or 6 movement\n"
        "points to its division HQ or a source, and the HQ in turn reaches a corps HQ or a source. A line\n"
        "may not enter a hex held by the enemy, nor an empty hex in an enemy zone of control (7.3), and it\n"
        "crosses an unbridged river or stream only as the unit's own first step (7.3.2). The engine says\n"
        "what binds each unit out of supply: too far, cut off, its HQ out, no attachment place, or one\n"
        "block that alone causes it (it checks: removing that block would restore supply). The scenario\n"
        "lists the units it expects out, and why: cut off in 1944, or left out by the rules' ranges."
    ),
    code(
        "table = supply_table(explorer.report)\n"
        "print(nl.supply_summary(explorer.report))\n"
        "out = table[~table.general]\n"
        'out.groupby(["cause", "side"]).size().unstack(fill_value=0)'
    ),
    code('out[["name", "formation", "hex", "rule", "reason"]].head(25)'),
    md(
        "Pick one and look at it on the map: selecting a unit draws its line of supply (or its range, for\n"
        "an HQ) and fills the panel under the map with its report, the hex and units that block it, and its\n"
        "strengths once the supply effects are applied (7.5: attack halved out of supply). In the live\n"
        "map a click on the unit does the same."
    ),
    code(
        "from IPython.display import HTML\n\n"
        "example = out.index[0]\n"
        "explorer.select_unit(example)\n"
        "HTML(explorer.inspector.value)"
    ),
    md(
        "## The beachheads\n\n"
        "The Allied armies are supplied over the beaches (7.4): any beachhead gives General Supply, but\n"
        "Combat Supply comes only from the beaches of the unit's own nation, Utah and Omaha for the\n"
        "Americans, Gold, Juno and Sword for the British and Canadians. Until 11 June the beachheads also\n"
        "stand in for the corps HQs that were still coming ashore; on the 13th the corps HQs are on the map\n"
        "and trace to the beaches at any length."
    ),
    code("state = explorer.states[0]\n{b.name: (b.hex, b.nationality) for b in state.beachheads}"),
    code(
        "# How many hexes can draw supply from each beachhead (the 6-hex / 6-MP range of rule 7.3.1)\n"
        "{b.name: len(explorer.report.supply_range(b.hex)) for b in state.beachheads}"
    ),
    md(
        "## What a storm does\n\n"
        "In Heavy Rain or Storm every supply range is halved (7.3.3): 3 hexes or 3 MP instead of 6, and 10\n"
        "MP instead of 20 for the division HQs. Only the corps HQs still trace at any length. The next cell\n"
        "compares the same morning in a storm."
    ),
    code(
        'storm = set_weather(state, "Storm")\n'
        'print("overcast:", out_of_supply_counts(state), " storm:", out_of_supply_counts(storm))\n'
        'supply_changes(state, storm).groupby("side").size()'
    ),
    md(
        "On the live map, choose *Storm* in the weather menu under the map and watch the orange rings\n"
        "(out of supply) spread; *Undo* brings the weather back. The cell below does the same from code."
    ),
    code('explorer.weather.value = "Storm"\nprint(explorer.label.value)\nexplorer.undo()'),
    md(
        "## Cutting the Vire bridges\n\n"
        "The Vire divides the American sector from the British and runs south past Saint-Lô. Its bridges\n"
        "were prime targets for the Allied air forces. Destroying a bridge leaves the river unbridged at\n"
        "that hexside, so no line of supply may cross it except as a unit's own first step (7.3.2). Which\n"
        "units would lose their supply if every road bridge over the Vire on the map were down?"
    ),
    code(
        'vire = nl.terrain_map("bfn", progress=False).bridges("Vire")\n'
        "no_bridges = state\n"
        "for a, b in zip(vire.a, vire.b, strict=True):\n"
        "    no_bridges = destroy_bridge(no_bridges, a, b)\n"
        "before, after = out_of_supply_counts(state), out_of_supply_counts(no_bridges)\n"
        'print(len(vire), "bridges down, out of supply before:", before, "after:", after)\n'
        'supply_changes(state, no_bridges)[["name", "side", "general_after", "reason_after"]]'
    ),
    md(
        "Try it on the live map: choose *destroy bridge*, click the hexes on each side of a bridge, and\n"
        "read the label and the rings. Interdicting a hex (*interdict hex*) blocks every line through it,\n"
        "the analyst's version of a bombed crossroads. Here the first Vire bridge goes down from code:"
    ),
    code(
        'explorer.apply({"op": "destroy_bridge", "hexside": [vire.a.iloc[0], vire.b.iloc[0]]})\n'
        "print(explorer.label.value)"
    ),
    md(
        "## Taking it to the classroom\n\n"
        "The explorer needs a running Python kernel. For a class, save the situation as pages that open in\n"
        "any browser, with no network and no Python: the current map, and the sequence of states so far\n"
        "with a slider and a play button. The layers also go to a GeoPackage for QGIS, and the what-if\n"
        "itself (scenario plus edits) to a study file that reopens in the explorer."
    ),
    code(
        "from pathlib import Path\n\n"
        "from normandy_lab.views.sequence import save_sequence_html\n\n"
        'exports = Path("exports")\n'
        "explorer.step()\n"
        'print(explorer.export_html(exports / "13_june_view.html"))\n'
        'print(save_sequence_html(explorer.states, exports / "13_june_sequence.html"))\n'
        'print(explorer.export_geopackage(exports / "13_june_layers.gpkg"))\n'
        'print(explorer.save(exports / "13_june_vire_bridge.json"))'
    ),
]

notebook = nbformat.v4.new_notebook(cells=cells)
notebook.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
path = Path(__file__).resolve().parents[1] / "notebooks" / "02_supply_explorer.ipynb"
nbformat.write(notebook, path)
print(path)
