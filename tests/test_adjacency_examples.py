"""Adjacency reproduces every worked example of the rulebooks that fixes it.

Each test cites the rule whose example it encodes.
"""

from __future__ import annotations

import itertools

import pytest

from normandy_lab import grid

# ---------------------------------------------------------------- BfN


def test_bfn_17_2_drop_direction_east():
    """BfN 17.2 example: from A4118, direction 2 (east) two hexes is A4116, six is A4112."""
    g = grid("bfn")
    assert g.step("A4118", "E", 2) == "A4116"
    assert g.step("A4118", "E", 6) == "A4112"
    # The example's "3 hexes ... A4113" contradicts its other two results
    # (digest 1.3.4): three hexes east is A4115, and A4113 is five away.
    assert g.step("A4118", "E", 3) == "A4115"
    assert g.distance("A4118", "A4113") == 5


def test_bfn_17_1_pathfinder_moves_west_and_north_east():
    """BfN 17.1 example: A4219 is west of A4218; the pathfinder moves from A4219 to A4118 (direction 1)."""
    g = grid("bfn")
    assert g.step("A4218", "W") == "A4219"
    assert g.step("A4219", "NE") == "A4118"


def test_bfn_18_1_gold_king_red_landing_queue():
    """BfN 18.1: King Red beach hex 1829, then assault hexes 1728, 1628, 1527, each adjacent, going north."""
    g = grid("bfn")
    queue = ["C1829", "C1728", "C1628", "C1527"]
    for nearer, farther in itertools.pairwise(queue):
        assert farther in g.neighbors(nearer)
        assert g.scheme.parse(farther)[1] == g.scheme.parse(nearer)[1] - 1  # one row north
    assert g.distance("C1829", "C1527") == 3


def test_bfn_20_6_pointe_du_hoc_beach_is_next_to_the_battery():
    """BfN 20.6: beach hex B1205 is joined to B1305; the guns-moved hex B1406 is next to B1305."""
    g = grid("bfn")
    assert "B1205" in g.neighbors("B1305")
    assert "B1406" in g.neighbors("B1305")


def test_bfn_direction_chart_order():
    """BfN direction chart (17.1/17.2): 1 NE, 2 E, 3 SE, 4 SW, 5 W, 6 NW run clockwise round a hex."""
    g = grid("bfn")
    around = [g.step("C3014", d) for d in ("NE", "E", "SE", "SW", "W", "NW")]
    assert len(set(around)) == 6
    for a, b in itertools.pairwise([*around, around[0]]):
        assert g.distance(a, b) == 1


def test_bfn_11_3_3_bridge_hexside_is_a_pair_of_adjacent_hexes():
    """BfN 11.3.3: the bridge on the B3015/B3114 hexside."""
    assert grid("bfn").distance("B3015", "B3114") == 1


# -------------------------------------------------------------- Cobra


def test_cobra_17_3_6c_bayeux_hexes_are_mutually_adjacent():
    """Cobra 17.3.6c: Bayeux is B3620, A2601 and A2701, three mutually adjacent hexes across the A/B join."""
    g = grid("cobra")
    for a, b in itertools.combinations(["B3620", "A2601", "A2701"], 2):
        assert g.distance(a, b) == 1


def test_cobra_16_1_cherbourg_hexes_form_a_diamond():
    """Cobra 16.1: Cherbourg is B1207, B1307, B1308 and B1407: four hexes, all adjacent but the two ends."""
    g = grid("cobra")
    group = ["B1207", "B1307", "B1308", "B1407"]
    distances = {frozenset(p): g.distance(*p) for p in itertools.combinations(group, 2)}
    assert distances.pop(frozenset(["B1207", "B1407"])) == 2
    assert set(distances.values()) == {1}


def test_cobra_5_9_aab_markers_lie_in_one_column():
    """Cobra 5.9: the AAB is the line of hexes formed by A2519 and B3519, a north-south column."""
    g = grid("cobra")
    a, b = g.axial("A2519"), g.axial("B3519")
    assert a.q == b.q
    assert g.step("B3519", "S") is not None


def test_cobra_17_3_2_scatter_south_keeps_the_column():
    """Cobra 17.3.2: scatter roll 4 is one hex south."""
    assert grid("cobra").step("A2116", "S") == "A2117"


def test_cobra_map_b_row_20_abuts_map_a_row_1():
    """Cobra 17.3.6c: B3620 is directly north of A2601."""
    assert grid("cobra").step("B3620", "S") == "A2601"


# ----------------------------------------------------------------- KG


@pytest.mark.parametrize(
    ("a", "b", "rule"),
    [
        ("N3436", "N3337", "22.6.8"),
        ("N3436", "N3435", "22.6.8"),
        ("N3436", "N3437", "22.6.8"),
        ("N3725", "N3726", "22.7"),
        ("N3847", "N3948", "22.7"),
    ],
)
def test_kg_destroyed_bridge_hexsides_join_adjacent_hexes(a, b, rule):
    """KG scenarios 22.6.8 and 22.7 destroy bridges on hexsides given as hex pairs."""
    assert grid("kg").distance(a, b) == 1, rule


@pytest.mark.parametrize(
    ("north", "west"), [("N4533", "W4730"), ("N4535", "W4732"), ("N4635", "W4632"), ("N4537", "W4734")]
)
def test_kg_22_7_double_references_are_the_same_hex(north, west):
    """KG 22.7 lists set-up hexes on both the North map and the West map."""
    g = grid("kg")
    assert g.axial(north) == g.axial(west)
    assert g.canonical(west) == north  # the North map lies on top (26.2.1)


def test_kg_26_18_1_boundary_rows_run_south():
    """KG 26.18.1: N3033 defines a line; N3133, N3233 are on it (south); N3134, N3234 east of it."""
    g = grid("kg")
    for a, b in [("N3033", "N3133"), ("N3133", "N3233")]:
        assert g.distance(a, b) == 1
    assert g.distance("N3133", "N3134") == 1
    assert g.center("N3134")[0] > g.center("N3133")[0]


# ---------------------------------------------------------------- GTS


def test_gts_4_4_7_ten_hexes_from_the_battery_to_the_assault_force():
    """GTS 4.4.7: it is 10 hexes from the St-Martin battery (30.027) to the Assault Force marker (20.025)."""
    assert grid("gts").distance("30.027", "20.025") == 10


@pytest.mark.parametrize(
    "pair",
    [("22.023", "23.022"), ("21.023", "21.024"), ("18.026", "19.025"), ("17.026", "17.027")],
)
def test_gts_4_5_2_sub_beach_landing_hexes_are_adjacent(pair):
    """GTS 4.5.2: each Sub-Beach's two landing hexes touch."""
    assert grid("gts").distance(*pair) == 1


def test_gts_4_4_3_assault_sectors_abut():
    """GTS 4.4.3: the UtS sector ends at 28.018 and the UtN sector starts at 29.017."""
    assert grid("gts").distance("28.018", "29.017") == 1


# GTS 3.2: the fifteen airborne zones, as the rule lists their hexes (LZ O adds six hexes to DZ O).
DROP_ZONES = {
    "DZ A": "32.028 33.027 33.028 34.027 34.028 34.029 35.027 35.028 36.028",
    "DZ B": "38.038 39.037 39.038 40.037 40.038 40.039 41.037 41.038 42.038",
    "DZ C": "27.036 28.036 28.037 29.035 29.036 29.037 30.036 30.037 31.036",
    "DZ D": "24.045 25.044 25.045 26.044 26.045 26.046 27.044 27.045 28.045",
    "Alt DZ D": "31.041 32.041 32.042 33.040 33.041 33.042 34.041 34.042",
    "LZ E": "29.037 30.037 30.038 31.037 31.038 31.039 32.037 32.038 32.039",
    "DZ O": "43.030 44.030 44.031 45.029 45.030 46.030 46.031 47.030",
    "LZ O": "43.030 44.030 44.031 45.029 45.030 46.030 46.031 47.030"
    " 42.030 43.029 44.029 45.028 46.029 47.029",
    "DZ N": "52.037 52.038 53.036 53.037 54.036 54.037 55.036 55.037",
    "DZ T": "49.031 50.031 50.032 51.030 51.031 51.032 52.031 52.032 53.031",
    "DZ 1": "77.041 77.042 78.041 78.042 78.043 79.041 79.042",
    "DZ 2": "85.044 85.045 86.044 86.045 86.046 87.044 87.045 88.045",
    "DZ 3": "84.039 84.040 84.041 85.038 85.039 85.040 86.040",
    "LZ 4": "87.042 88.042 88.043 89.041 89.042",
    "LZ 5": "81.040 81.041 82.041 82.042",
}


def _shared_hexsides(g, hexes):
    return sum(1 for a, b in itertools.combinations(hexes, 2) if g.distance(a, b) == 1)


def _connected(g, hexes):
    seen, todo = {hexes[0]}, [hexes[0]]
    while todo:
        here = todo.pop()
        for other in hexes:
            if other not in seen and g.distance(here, other) == 1:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(hexes)


@pytest.mark.parametrize("zone", sorted(DROP_ZONES))
def test_gts_3_2_every_airborne_zone_is_one_connected_patch(zone):
    """GTS 3.2: each zone is a patch of touching hexes."""
    assert _connected(grid("gts"), DROP_ZONES[zone].split())


@pytest.mark.parametrize("zone", ["DZ A", "DZ B", "DZ C", "DZ D", "DZ T"])
def test_gts_3_2_nine_hex_drop_zones_are_a_flower_and_two_tips(zone):
    """GTS 3.2: these nine-hex zones are a seven-hex flower plus two tips.

    That is 16 shared hexsides and one centre with all six neighbours inside.
    """
    g = grid("gts")
    hexes = DROP_ZONES[zone].split()
    assert _shared_hexsides(g, hexes) == 16
    inside = {h: sum(1 for o in hexes if o != h and g.distance(h, o) == 1) for h in hexes}
    assert max(inside.values()) == 6


def test_gts_3_2_zones_are_most_compact_with_odd_columns_shoved_south():
    """The zone lists of GTS 3.2 fix the column parity: the other parity breaks them apart."""
    from dataclasses import replace

    from normandy_lab.grids import HexGrid
    from normandy_lab.grids.hexgrid import EVEN

    ours = grid("gts")
    other = HexGrid(replace(ours.scheme, offset=EVEN))
    for zone, hexes in DROP_ZONES.items():
        ids = hexes.split()
        assert _shared_hexsides(ours, ids) >= _shared_hexsides(other, ids), zone
    assert sum(_shared_hexsides(ours, z.split()) for z in DROP_ZONES.values()) > sum(
        _shared_hexsides(other, z.split()) for z in DROP_ZONES.values()
    )


def test_gts_3_3_1_drift_direction_one_is_north_up_the_column():
    """GTS 3.3.1: drift direction 1 is north, up the hex column; 4 is south."""
    g = grid("gts")
    assert g.step("30.027", "N") == "30.026"
    assert g.step("30.027", "S") == "30.028"
