"""Write notebooks/01_tour.ipynb (outputs empty).  Re-run after editing the cells here."""

from __future__ import annotations

from pathlib import Path

import nbformat

CAMPAIGN = [
    nbformat.v4.new_markdown_cell(
        "# normandy_lab: the Normandy campaign, 6 June to 25 August 1944\n\n"
        "On 6 June 1944 five Allied divisions came ashore on the Calvados and Cotentin coasts and "
        "three airborne\n"
        "divisions dropped inland. Eleven weeks later the German armies in Normandy had been broken in the\n"
        "Falaise pocket and the Allies stood on the Seine. This notebook follows the campaign day "
        "by day on the\n"
        "real map: the ground the Allies held, where the front ran, and what happened where.\n\n"
        "Everything here is data with its sources: the front lines were digitised from the official "
        "histories'\n"
        "situation maps (`maps/history/`, each date with its sources and how far the line may be off), the\n"
        "events come from a timeline in the project's own words, and the coastline is GSHHG."
    ),
    nbformat.v4.new_code_cell(
        "import pandas as pd\n"
        "from jupyter_bokeh.widgets import BokehModel\n\n"
        "import normandy_lab as nl\n"
        "from normandy_lab import history\n"
        "from normandy_lab.views import show_inline\n"
        "from normandy_lab.views.campaign import campaign_map, save_campaign_html\n\n"
        "show_inline()  # BokehJS from the installed package: nothing is fetched from the internet"
    ),
    nbformat.v4.new_markdown_cell(
        "## The campaign on a date slider\n\n"
        "Drag the slider, or press **Play**. Blue is the ground the Allies held at the end of the "
        "day (the latest\n"
        "record on or before it), red the front line, and the dots are the timeline's events: bright while\n"
        "they happen, faded afterwards. Hover over a dot for what happened there; the list under the map\n"
        "tells the day's events."
    ),
    nbformat.v4.new_code_cell("BokehModel(campaign_map())"),
    nbformat.v4.new_markdown_cell(
        "### June: a lodgement, then a port\n\n"
        "The beachheads joined up by 10 June, Carentan fell on the 12th and linked Utah with Omaha. "
        "The British\n"
        "tried to unlock Caen from the west at Villers-Bocage on the 13th and were thrown back. The "
        "Americans cut\n"
        "the Cotentin at Barneville on the 18th and turned north; the great storm of 19–22 June wrecked the\n"
        "American Mulberry and showed how much hung on a port. Cherbourg fell on the 26th, its "
        "harbour wrecked.\n"
        "Montgomery's Epsom offensive drove a salient over the Odon and drew in the SS panzer divisions."
    ),
    nbformat.v4.new_code_cell(
        "events = history.timeline()\n"
        'columns = ["start", "end", "name", "place", "description"]\n'
        'june = events[events["start"] < pd.Timestamp("1944-07-01").date()]\n'
        "june[columns]"
    ),
    nbformat.v4.new_markdown_cell(
        "### July: the hedgerows and Caen\n\n"
        "In the bocage the Americans paid for every field on the way to St-Lô, which fell on the 18th–19th.\n"
        "The British and Canadians took northern Caen on 8–9 July (Charnwood) and attacked east of "
        "the Orne in\n"
        "Goodwood on the 18th, keeping the German armour on their front. On the 25th, after a "
        "carpet bombing,\n"
        "Cobra broke through west of St-Lô; by the 31st the Americans were at Avranches."
    ),
    nbformat.v4.new_markdown_cell(
        "### August: breakout, Mortain, Falaise and the Seine\n\n"
        "Patton's Third Army poured through Avranches into Brittany and east towards Le Mans. "
        "Hitler ordered\n"
        "the counter-attack at Mortain (Lüttich, 7 August), which drove his armour deeper into the "
        "trap. The\n"
        "Canadians and Poles attacked south towards Falaise (Totalize, Tractable) while the "
        "Americans came up to\n"
        "Argentan; the gap closed at Chambois on 19–21 August. By the 25th the Allies were across "
        "the Seine and\n"
        "in Paris."
    ),
    nbformat.v4.new_code_cell(
        'later = events[events["start"] >= pd.Timestamp("1944-07-01").date()]\nlater[columns]'
    ),
    nbformat.v4.new_markdown_cell(
        "## Who held a place on a date\n\n"
        "The record answers questions: `history.held_by(place, date)` says `allied`, `german`, or "
        "`contested`\n"
        "when the place is within half a kilometre of the line; `history.front_line(date)` and\n"
        "`history.lodgement(date)` are shapely geometries in longitude and latitude."
    ),
    nbformat.v4.new_code_cell(
        'places = ["Carentan", "Caen", "Saint-Lô", "Villers-Bocage", "Falaise", "Mortain"]\n'
        'dates = ["1944-06-13", "1944-07-01", "1944-07-20", "1944-08-07", "1944-08-21"]\n'
        "pd.DataFrame({date: [history.held_by(p, date) for p in places] for date in dates}, index=places)"
    ),
    nbformat.v4.new_markdown_cell(
        "## The historical scenarios, and the engine against history\n\n"
        "The rules engine runs *The Battle for Normandy* on situations at historical dates, every "
        "unit at its\n"
        "recorded position with its source. The table compares the front the units imply (each hex "
        "goes to the\n"
        "side of the nearest unit) with the historical line of that morning (for a turn of several days, "
        "the\nrecords made within it): the mean and largest distances in km, and the units standing on the "
        "other\nside's ground. A set-up of one side only implies no front, so it has no distance."
    ),
    nbformat.v4.new_code_cell(
        "from normandy_lab.history.compare import compare_with_history\n"
        "from normandy_lab.views.launcher import scenario_list\n"
        "from normandy_lab.views.tables import readable\n\n"
        "rows = []\n"
        "for label, name in scenario_list():\n"
        "    result = compare_with_history(nl.load_scenario(name))\n"
        '    rows.append({"scenario": label, **result.row()})\n'
        "readable(pd.DataFrame(rows))  # labels in full, not cut at 50 characters"
    ),
    nbformat.v4.new_markdown_cell(
        "Choose a scenario and open it in the explorer: step through the phases, see who is out of "
        "supply and\n"
        'why, and change the situation. In a script, `nl.explore("bfn_1944-06-13_am")` does the same.'
    ),
    nbformat.v4.new_code_cell(
        "from normandy_lab.views.launcher import scenario_launcher\n\nscenario_launcher()"
    ),
    nbformat.v4.new_markdown_cell(
        "## Take it away: a standalone page\n\n"
        "The slider runs in the browser, so the campaign map also saves as one HTML file that opens "
        "anywhere,\n"
        "with no Python behind it."
    ),
    nbformat.v4.new_code_cell('save_campaign_html("normandy_campaign.html")'),
]

MAPS = [
    nbformat.v4.new_markdown_cell(
        "# The maps underneath\n\n"
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
    nbformat.v4.new_code_cell("from normandy_lab.views import grid_picker"),
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
cells = CAMPAIGN + MAPS
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
