"""The named sectors a game's map offers (issue 32: every game offered BfN's, the Falaise pocket on the Utah map)."""

from __future__ import annotations

import pytest

from normandy_lab import rules
from normandy_lab.rules.sectors import NORMANDY_SECTORS
from normandy_lab.views.sectors import SECTORS, sectors_of, sectors_on


def test_the_utah_map_offers_only_the_sector_it_shows():
    assert sectors_on("gts") == ("Utah and Sainte-Mère-Église",)


def test_a_map_offers_the_sectors_it_covers_in_the_order_they_are_named():
    assert sectors_on("bfn") == tuple(NORMANDY_SECTORS)  # the campaign map covers every sector
    north = sectors_on("kg", ("N",))  # OVERLORD's North map alone ends before Falaise
    assert "Falaise and the pocket" not in north and "Caen and the Orne" in north
    assert list(north) == [name for name in sectors_of("kg") if name in north]


def test_each_game_offers_its_own_sectors_and_a_game_without_any_offers_none(monkeypatch):
    """A game's sectors are its look's (rules/<game>/look.py), not one list every game shares (issue 32)."""
    assert list(sectors_of("gts")) == ["Utah and Sainte-Mère-Église"]  # GTS's look names one
    assert (
        SECTORS["Falaise and the pocket"] == NORMANDY_SECTORS["Falaise and the pocket"]
    )  # any game's, by name
    monkeypatch.setitem(rules._LOOKS, "gts", rules.Look())  # GTS with a look that names none
    assert sectors_of("gts") == {} and sectors_on.__wrapped__("gts") == ()


def test_a_look_names_only_sectors_there_are():
    from normandy_lab.rules.sectors import chosen

    with pytest.raises(KeyError, match="no sector Atlantis; the sectors are Cotentin"):
        chosen("Atlantis")
