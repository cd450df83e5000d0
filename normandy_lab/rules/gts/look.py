"""How The Greatest Day: Utah Beach is shown beyond its rules: counters, controls, map key, sectors.

Its map is the Utah beachhead, from the beach to Carentan: of the front's named sectors it offers the one
it shows.  Nothing here changes a verdict: each control offers a marker edit the rules check
(``GtsRules.set_marker``).
"""

from __future__ import annotations

from normandy_lab.rules.game import ControlSpec, Look
from normandy_lab.rules.gts.data import US_DIVISIONS
from normandy_lab.rules.sectors import chosen

#: The explorer's controls: the day's three Supplied divisions (17.3) and the planes on interdiction (17.1).
CONTROLS = (
    ControlSpec(
        "supplied_divisions", "Supplied divisions", "17.3", "choices", "marker", "supplied_divisions",
        button="Designate", choices=tuple(US_DIVISIONS),
        help="From 0700 on 8 June the Americans designate three divisions Supplied for the day (17.3); "
        "choose three (ctrl-click) or none. The scenario's default is a reading of history, not a fact.",
    ),
    ControlSpec(
        "fighter_bombers_on_interdiction", "Fighter-bombers on interdiction", "17.1", "number", "marker",
        "fighter_bombers_on_interdiction", button="Set",
        help="Up to 4 of the day's fighter-bombers (2 when overcast) may go on interdiction; at each German "
        "reinforcement hex a d10 (0-9) at or under their number keeps the Germans out this turn (17.1).",
    ),
)  # fmt: skip

LOOK = Look(
    sectors=chosen("Utah and Sainte-Mère-Église"),
    marker="diamond",
    controls=CONTROLS,
    # The 82nd's link-up paths (17.6) are drawn as tested routes, so the map key lists them.
    map_features=frozenset({"routes"}),
    glyphs={"infantry": "INF", "parachute": "PARA", "glider": "GLI", "armor": "ARM", "tank_destroyer": "TD",
            "recon": "RCN", "artillery": "ART", "engineer": "ENG", "anti_tank": "AT", "flak": "AA",
            "hq": "HQ", "machine_gun": "MG", "static": "STAT"},
    size_marks={"company": "I", "battalion": "II", "regiment": "III", "division_hq": "XX", "corps_hq": "XXX"},
)  # fmt: skip
