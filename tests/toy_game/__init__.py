"""A toy game on a map of its own, added to normandy_lab from this folder alone (issue 32, section 1).

``map.py`` brings the board (numbering scheme, terrain words and colours, control points), ``rules.py``
the rules, written only against ``normandy_lab.rules.api``; ``LOOK`` below how it is shown (the views'
part: counter labels, sectors, marker); ``scenarios/`` its scenario files (``system: toy``).  Importing this package registers the game: the one line below.  The contract tests
(``tests/test_contract.py``) find its example states and its small unit here.
"""

from __future__ import annotations

from pathlib import Path

from normandy_lab.rules import Game, Look, register_game

from .map import MAP
from .rules import RULES

SCENARIOS = Path(__file__).parent / "scenarios"
SCENARIO = SCENARIOS / "toy_1944-06-13_day.yaml"

#: How the toy is shown: the explorer's one named view (the middle of the board, a framing choice), its
#: marker side by side, and its counters' labels; the rest (colours, ring words) the defaults.
LOOK = Look(
    sectors={"Bayeux to Tilly": (-0.74, 49.16, -0.50, 49.29)},
    marker="star",
    glyphs={"infantry": "INF", "hq": "HQ"},
    size_marks={"battalion": "II", "division_hq": "XX"},
)

GAME = Game("toy", "Toy", "toy", RULES, LOOK, map_data=MAP, scenarios=SCENARIOS)

register_game(GAME)


# -- for the contract tests: example states, and a small combat unit of the game (size, steps) ------------


def _example(name: str):  # -> GameState
    import normandy_lab as nl

    state = nl.load_scenario(SCENARIO)
    return state.evolve(weather="Storm") if name == "Storm" else state


EXAMPLES = {name: (lambda name=name: _example(name)) for name in ("13 June", "Storm")}
SMALL_UNIT = ("battalion", 3)
