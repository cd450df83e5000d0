"""Cobra played as its rules are printed (issue 31, section 1): each test names the rule it holds the engine to.

The rulebook (Cobra, Decision Games 2019, rules version 5) is the authority; quotes are short, the rest is
said in our own words.
"""

from __future__ import annotations

import pytest

import normandy_lab as nl
from normandy_lab.engine.movement import check_move
from normandy_lab.engine.state import Unit


def _unit(uid, side, hex_id, **kw) -> Unit:
    base = dict(
        id=uid, name=uid, side=side, nationality="US" if side == "allied" else "DE", type="infantry",
        mechanized=False, size="regiment", formation=None, corps=None, hq=None, hex=hex_id, steps=2,
    )  # fmt: skip
    base.update(kw)
    return Unit(**base)


@pytest.fixture(scope="module")
def gt15():
    return nl.load_scenario("cobra_1944-07-16_gt15")


def _at(state, phase, *units):
    """A state with only the given units, at the start of ``phase`` of the state's game turn."""
    return nl.step_to(state.evolve(units=tuple(units)), phase)


# -- 2.3.4 with 5.9: French units are US, Polish units British ------------------------------------------


@pytest.mark.parametrize(
    ("nationality", "legal", "refused", "rule"),
    [
        ("FR", "A2510", "A2610", "5.9b"),  # "US: Refers to American and French units"
        ("PL", "A2310", "A2210", "5.9c"),  # "British: Refers to British, Canadian, and Polish units"
    ],
)
def test_2_3_4_french_units_keep_the_us_side_of_the_boundary_and_polish_units_the_british(
    gt15, nationality, legal, refused, rule
):
    # The boundary runs down column A24 (17.2).  A lone armoured unit, far from any German, at A2410.
    unit = _unit("X", "allied", "A2410", nationality=nationality, type="armor", mechanized=True, ma=8)
    state = _at(gt15, "Allied Initial Movement", unit, _unit("DE-X", "german", "A4530"))
    assert check_move(state, "X", legal).legal  # one hex across: allowed
    move = check_move(state, "X", refused)
    assert not move.legal and rule in move.reason and "2.3.4" in move.reason


def test_2_3_4_the_armies_of_every_rule_are_one_table():
    from normandy_lab.rules.cobra import combat, stacking
    from normandy_lab.rules.cobra.data import ARMIES, army_of

    assert ARMIES == {"US": "US", "FR": "US", "UK": "UK", "CA": "UK", "PL": "UK"}
    assert {n: combat.ARMIES[n] for n in ARMIES} == ARMIES  # 8.1d-e: who attacks with whom
    assert set(stacking.BRITISH) == {"UK", "CA", "PL"} and set(stacking.US) == {"US", "FR"}  # 6.0c, 6.1
    assert army_of(_unit("D", "german", "A0101")) is None
