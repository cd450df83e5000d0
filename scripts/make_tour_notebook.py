"""Write notebooks/01_tour.ipynb (outputs empty) from the cells below.

The notebook and this script must agree cell by cell (``tests/test_notebook_scripts.py`` checks it): edit the
cells here and run ``python scripts/make_tour_notebook.py``, or, after editing the notebook in JupyterLab,
copy its changed cells here. Each cell keeps a fixed id, so that a run rewrites the file byte for byte and a
diff shows only what was edited.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from notebook_cells import code, md  # beside this script (run as python scripts/...)

PATH = Path(__file__).resolve().parents[1] / "notebooks" / "01_tour.ipynb"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def build() -> nbformat.NotebookNode:
    """Return the notebook, outputs empty."""
    cells = [
        md(
            "1e9f1e17",
            "# normandy_lab: the Normandy campaign, 6 June to 25 August 1944\n"
            "\n"
            "On 6 June 1944 five Allied divisions came ashore on the Calvados and Cotentin coasts and "
            "three airborne\n"
            "divisions dropped inland. Eleven weeks later the German armies in Normandy had been "
            "broken in the\n"
            "Falaise pocket and the Allies stood on the Seine. This notebook follows the campaign day "
            "by day on the\n"
            "real map: the ground the Allies held, where the front ran, and what happened where.\n"
            "\n"
            "Everything here is data with its sources: the front lines were digitised from the "
            "official histories'\n"
            "situation maps (`maps/history/`, each date with its sources and how far the line may be "
            "off), the\n"
            "events come from a timeline in the project's own words, and the coastline is GSHHG.",
        ),
        code(
            "9c0f3af0",
            "import pandas as pd\n"
            "from jupyter_bokeh.widgets import BokehModel\n"
            "\n"
            "import normandy_lab as nl\n"
            "from normandy_lab import history\n"
            "from normandy_lab.views import show_inline\n"
            "from normandy_lab.views.campaign import campaign_map, save_campaign_html\n"
            "\n"
            "show_inline(widgets=True)  # BokehJS from the installed package: nothing is fetched from "
            "the internet",
        ),
        md(
            "f9bf641b",
            "## The campaign on a date slider\n"
            "\n"
            "Drag the slider, or press **Play** (choose how many days a second; Play stops on the "
            "last day). Blue\n"
            "is the ground the Allies held at the end of the day (the latest record on or before it), "
            "red the\n"
            "front line, and the dots are the timeline's events, coloured by kind (see the key): "
            "bright while\n"
            "they happen, faded afterwards, or hidden with *hide past events*. Hover over a dot for "
            "what happened\n"
            "there; the list under the map tells the day's events. On the seven dates for which a "
            "scenario exists,\n"
            "a square marks each division or brigade where the scenario sets it up. *Normandy to "
            "Paris* zooms out\n"
            "to the Seine crossings and Paris.\n",
        ),
        code("1cc06f34", "BokehModel(campaign_map())"),
        md(
            "a6d3b8ea",
            "### June: a lodgement, then a port\n"
            "\n"
            "The beachheads joined up by 10 June, Carentan fell on the 12th and linked Utah with "
            "Omaha. The British\n"
            "tried to unlock Caen from the west at Villers-Bocage on the 13th and were thrown back. "
            "The Americans cut\n"
            "the Cotentin at Barneville on the 18th and turned north; the great storm of 19–22 June "
            "wrecked the\n"
            "American Mulberry and showed how much hung on a port. Cherbourg fell on the 26th, its "
            "harbour wrecked.\n"
            "Montgomery's Epsom offensive drove a salient over the Odon and drew in the SS panzer divisions.",
        ),
        code(
            "63dde2f4",
            "events = history.timeline()\n"
            'columns = ["start", "end", "name", "place", "description"]\n'
            'june = events[events["start"] < pd.Timestamp("1944-07-01").date()]\n'
            "# Whole descriptions, not cut to 50 characters: they are the point of the table.\n"
            'wrapped = {"white-space": "normal", "min-width": "420px"}\n'
            'june[columns].style.set_properties(subset=["description"], **wrapped)',
        ),
        md(
            "a26ec8cc",
            "### July: the hedgerows and Caen\n"
            "\n"
            "In the bocage the Americans paid for every field on the way to St-Lô, which fell on the "
            "18th–19th.\n"
            "The British and Canadians took northern Caen on 8–9 July (Charnwood) and attacked east "
            "of the Orne in\n"
            "Goodwood on the 18th, keeping the German armour on their front. On the 25th, after a "
            "carpet bombing,\n"
            "Cobra broke through west of St-Lô; by the 31st the Americans were at Avranches.",
        ),
        md(
            "71cb6e96",
            "### August: breakout, Mortain, Falaise and the Seine\n"
            "\n"
            "Patton's Third Army poured through Avranches into Brittany and east towards Le Mans. "
            "Hitler ordered\n"
            "the counter-attack at Mortain (Lüttich, 7 August), which drove his armour deeper into "
            "the trap. The\n"
            "Canadians and Poles attacked south towards Falaise (Totalize, Tractable) while the "
            "Americans came up to\n"
            "Argentan; the gap closed at Chambois on 19–21 August. By the 25th the Allies were across "
            "the Seine and\n"
            "in Paris.",
        ),
        code(
            "2a0b6277", 'later = events[events["start"] >= pd.Timestamp("1944-07-01").date()]\nlater[columns]'
        ),
        md(
            "6bf5a38c",
            "## Who held a place on a date\n"
            "\n"
            "The record answers questions: `history.held_by(place, date)` says `allied`, `german`, or "
            "`contested`\n"
            "when the place is within half a kilometre of the line; `history.front_line(date)` and\n"
            "`history.lodgement(date)` are shapely geometries in longitude and latitude.",
        ),
        code(
            "07f75ac5",
            'places = ["Carentan", "Caen", "Saint-Lô", "Villers-Bocage", "Falaise", "Mortain"]\n'
            'dates = ["1944-06-13", "1944-07-01", "1944-07-20", "1944-08-07", "1944-08-21"]\n'
            "pd.DataFrame({date: [history.held_by(p, date) for p in places] for date in dates}, "
            "index=places)",
        ),
        md(
            "e9e2348f",
            "## The historical scenarios, and the engine against history\n"
            "\n"
            "The rules engine runs *The Battle for Normandy* on situations at historical dates, every "
            "unit at its\n"
            "recorded position with its source. The table compares the front the units imply (each "
            "hex goes to the\n"
            "side of the nearest unit) with the historical line of that morning (for a turn of "
            "several days, the\n"
            "records made within it): the mean and largest distances in km, and the units standing on "
            "the other\n"
            "side's ground. A set-up of one side only implies no front, so it has no distance.",
        ),
        code(
            "edad6986",
            "from normandy_lab.views.tables import readable\n"
            "from normandy_lab.views.tour import scenarios_against_history\n"
            "\n"
            "# One row a scenario: compare_with_history(nl.load_scenario(name)).row(), worked out "
            "once for all the\n"
            "# scenarios and kept on disk until a scenario, a map or the package changes.\n"
            "readable(scenarios_against_history())  # labels in full, not cut at 50 characters",
        ),
        md(
            "70a34786",
            "## Four designers, one day\n"
            "\n"
            "The four games model supply differently, so one day can read differently. "
            "`nl.side_by_side` puts each\n"
            "game's verdicts by formation side by side and says what each disagreement is: a **rule "
            "difference** (the\n"
            "same formation in the same place, judged by two designers' rules, both named), a "
            "**set-up difference**\n"
            "(the games place it apart) or a **map/reconstruction artefact** (a verdict resting on a "
            "derived map). The\n"
            "rule differences come first. On 19 June, in the great storm, *The Battle for Normandy* "
            "halves its supply\n"
            "ranges (7.3.3) and *The Killing Ground* does not.",
        ),
        code(
            "a0c72165",
            "from normandy_lab.views.tour import kept_side_by_side\n"
            "\n"
            'june19 = kept_side_by_side("1944-06-19")  # nl.side_by_side("1944-06-19"), kept on disk '
            "like the table above\n"
            'readable(june19.disagreements()[["key", "kind", "why"]])',
        ),
        md(
            "5d7c29cf",
            "Choose a scenario and open it in the explorer: step through the phases, see who is out "
            "of supply and\n"
            'why, and change the situation. In a script, `nl.explore("bfn_1944-06-13_am")` does the same.',
        ),
        code("86da1ceb", "from normandy_lab.views.launcher import scenario_launcher\n\nscenario_launcher()"),
        md(
            "5d4d832d",
            "## Take it away: a standalone page\n"
            "\n"
            "The slider runs in the browser, so the campaign map also saves as one HTML file that "
            "opens anywhere,\n"
            "with no Python behind it.",
        ),
        code("f6e0e942", 'save_campaign_html("normandy_campaign.html")'),
        md(
            "7f2183ed",
            "# The maps underneath\n"
            "\n"
            "Four published wargames cover the 1944 Normandy campaign, each with its own hex map:\n"
            "*The Battle for Normandy* (`bfn`, 1.16 km hexes, seven sheets A–G),\n"
            "*Cobra* (`cobra`, 2-mile hexes),\n"
            "*The Killing Ground* with its *OVERLORD* expansion (`kg`, 2.5 km hexes)\n"
            "and *The Greatest Day: Utah Beach*\n"
            "(`gts`, 500 m hexes). None of their printed maps is in the rulebooks,\n"
            "so normandy_lab places each grid on the\n"
            "real Earth by fitting it to the hexes the rules tie to named places.\n"
            "\n"
            "Pick a grid below; hover over a hex to read its id as the game map prints it.",
        ),
        code("277fa60f", "from normandy_lab.views import grid_picker"),
        code("d0306c5a", 'app = grid_picker("bfn")\napp'),
        md(
            "928d3361",
            "## How well do the grids sit on the map?\n"
            "\n"
            "Each grid's origin, hex size and rotation are fitted by least squares to its control points.\n"
            "The residual is the distance from a place to the centre of the hex\n"
            "the rules put it in, in km and in hexes.",
        ),
        code(
            "1602647f",
            "pd.concat([nl.grid(system).residual_summary() for system in nl.SYSTEMS], "
            "ignore_index=True).round(2)",
        ),
        code(
            "4420d746",
            'columns = ["hex_id", "place", "use", "residual_km", "residual_hex", "located_hex"]\n'
            'nl.grid("bfn").residuals()[columns].round(2)',
        ),
        md(
            "6fe38506",
            "## The terrain of 1944, hex by hex\n"
            "\n"
            "Each grid's terrain is derived from the geography of 1944: the coast, rivers and canals, the\n"
            "inundations, woods, bocage and open country, towns, and the roads and railways of the time.\n"
            "Hover over a hex for its printed id, its terrain in the game's own words, and what lies "
            "on its\n"
            "hexsides; click the legend to hide a layer. Below, the Caen sector on The Battle for "
            "Normandy's\n"
            "1.16 km hexes, and the Utah sector on The Greatest Day's 500 m hexes.",
        ),
        code(
            "01c94433",
            "from jupyter_bokeh.widgets import BokehModel\n"
            "\n"
            "from normandy_lab.views import basemap\n"
            "\n"
            'BokehModel(basemap("bfn", extent=(-0.75, 49.0, -0.1, 49.36), width=900, height=650))',
        ),
        code(
            "90d368a9", 'BokehModel(basemap("gts", extent=(-1.45, 49.3, -1.1, 49.47), width=900, height=650))'
        ),
        code(
            "b9933760",
            'caen_sector = nl.terrain_map("bfn")\n'
            'caen_sector.hexside("C3014", "C3013")[["water_name", "road", "road_bridge"]]',
        ),
        md(
            "44a2c226",
            "## Scripting the grids\n"
            "\n"
            "Places come from the gazetteer; grids answer in their own printed ids.",
        ),
        code(
            "40889217",
            'bridge = nl.lookup("Pegasus Bridge")\n'
            "{system: nl.grid(system).locate(*bridge) for system in nl.SYSTEMS}",
        ),
        code(
            "2a8545b3",
            'bfn = nl.grid("bfn")\n'
            'bfn.neighbors("C3014"), bfn.distance("C3014", "C2805"), bfn.center("C3014")',
        ),
        code(
            "006c66ed",
            'pd.DataFrame([nl.grid(system).describe() for system in nl.SYSTEMS]).set_index("system")',
        ),
        code(
            "c1a55e0d",
            "# On the class server, the memory building this page freed goes back to the system "
            "(elsewhere this only\n"
            "# collects garbage).\n"
            "from normandy_lab.views.classroom import release_memory\n"
            "\n"
            "release_memory()",
        ),
    ]
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = KERNELSPEC
    notebook.metadata["language_info"] = {"name": "python"}
    return notebook


def main() -> None:
    """Write the notebook and print its path."""
    nbformat.write(build(), PATH)
    print(PATH)


if __name__ == "__main__":
    main()
