"""Write notebooks/01_tour.ipynb (outputs empty).  Re-run after editing the cells here."""

from __future__ import annotations

from pathlib import Path

import nbformat

cells = [
    nbformat.v4.new_markdown_cell(
        "# normandy_lab: a tour\n\n"
        "Four published wargames cover the 1944 Normandy campaign, each with its own hex map:\n"
        "*The Battle for Normandy* (`bfn`, 1.16 km hexes, seven sheets A–G),\n"
        "*Cobra* (`cobra`, 2-mile hexes),\n"
        "*The Killing Ground* with its *OVERLORD* expansion (`kg`, 2.5 km hexes)\n"
        "and *The Greatest Day: Utah Beach*\n"
        "(`gts`, 500 m hexes). None of their printed maps is in the rulebooks,\n"
        "so normandy_lab places each grid on the\n"
        "real Earth by fitting it to the hexes the rules tie to named places.\n\n"
        "Pick a grid below; hover over a hex to read its id as the game map prints it."
    ),
    nbformat.v4.new_code_cell(
        "import pandas as pd\n\n"
        "import normandy_lab as nl\n"
        "from normandy_lab.views import grid_picker, show_inline\n\n"
        "show_inline()  # BokehJS from the installed package: nothing is fetched from the internet"
    ),
    nbformat.v4.new_code_cell('app = grid_picker("bfn")\napp'),
    nbformat.v4.new_markdown_cell(
        "## How well do the grids sit on the map?\n\n"
        "Each grid's origin, hex size and rotation are fitted by least squares to its control points.\n"
        "The residual is the distance from a place to the centre of the hex\n"
        "the rules put it in, in km and in hexes."
    ),
    nbformat.v4.new_code_cell(
        "pd.concat([nl.grid(system).residual_summary() for system in nl.SYSTEMS], ignore_index=True).round(2)"
    ),
    nbformat.v4.new_code_cell(
        'columns = ["hex_id", "place", "use", "residual_km", "residual_hex", "located_hex"]\n'
        'nl.grid("bfn").residuals()[columns].round(2)'
    ),
    nbformat.v4.new_markdown_cell(
        "## The terrain of 1944, hex by hex\n\n"
        "Each grid's terrain is derived from the geography of 1944: the coast, rivers and canals, the\n"
        "inundations, woods, bocage and open country, towns, and the roads and railways of the time.\n"
        "Hover over a hex for its printed id, its terrain in the game's own words, and what lies on its\n"
        "hexsides; click the legend to hide a layer. Below, the Caen sector on The Battle for Normandy's\n"
        "1.16 km hexes, and the Utah sector on The Greatest Day's 500 m hexes."
    ),
    nbformat.v4.new_code_cell(
        "from jupyter_bokeh.widgets import BokehModel\n\n"
        "from normandy_lab.views import basemap\n\n"
        'BokehModel(basemap("bfn", extent=(-0.75, 49.0, -0.1, 49.36), width=900, height=650))'
    ),
    nbformat.v4.new_code_cell(
        'BokehModel(basemap("gts", extent=(-1.45, 49.3, -1.1, 49.47), width=900, height=650))'
    ),
    nbformat.v4.new_code_cell(
        'caen_sector = nl.terrain_map("bfn")\n'
        'caen_sector.hexside("C3014", "C3013")[["water_name", "road", "road_bridge"]]'
    ),
    nbformat.v4.new_markdown_cell(
        "## Scripting the grids\n\nPlaces come from the gazetteer; grids answer in their own printed ids."
    ),
    nbformat.v4.new_code_cell(
        'bridge = nl.lookup("Pegasus Bridge")\n'
        "{system: nl.grid(system).locate(*bridge) for system in nl.SYSTEMS}"
    ),
    nbformat.v4.new_code_cell(
        'bfn = nl.grid("bfn")\nbfn.neighbors("C3014"), bfn.distance("C3014", "C2805"), bfn.center("C3014")'
    ),
    nbformat.v4.new_code_cell(
        'pd.DataFrame([nl.grid(system).describe() for system in nl.SYSTEMS]).set_index("system")'
    ),
]
notebook = nbformat.v4.new_notebook(cells=cells)
notebook.metadata["kernelspec"] = {
    "name": "python3",
    "display_name": "Python 3 (ipykernel)",
    "language": "python",
}
notebook.metadata["language_info"] = {"name": "python"}
path = Path(__file__).resolve().parents[1] / "notebooks" / "01_tour.ipynb"
nbformat.write(notebook, path)
print(f"wrote {path}")
