"""The named sectors a game's map offers (issue 32: every game offered BfN's, the Falaise pocket on the Utah map)."""

from __future__ import annotations

from normandy_lab.views.sectors import SECTORS, sectors_on


def test_the_utah_map_offers_only_the_sector_it_shows():
    assert sectors_on("gts") == ("Utah and Sainte-Mère-Église",)


def test_a_map_offers_the_sectors_it_covers_in_the_order_they_are_named():
    assert sectors_on("bfn") == tuple(SECTORS)  # the campaign map covers every sector
    north = sectors_on("kg", ("N",))  # OVERLORD's North map alone ends before Falaise
    assert "Falaise and the pocket" not in north and "Caen and the Orne" in north
    assert list(north) == [name for name in SECTORS if name in north]
