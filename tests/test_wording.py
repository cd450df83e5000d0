"""The explorer's words (issue 12): hexes named by places, rules explained, changes summed up truly."""

from __future__ import annotations

import html
import math

import pytest

import normandy_lab as nl
from normandy_lab.engine.edits import apply_edit
from normandy_lab.engine.whatif import supply_changes
from normandy_lab.views import wording

SCENARIO = "bfn_1944-06-13_am"


def test_a_hex_with_a_place_is_named_after_it():
    hexes = nl.terrain_map("bfn", progress=False).hexes
    hex_id = next(h for h, place in zip(hexes.index, hexes["place"], strict=True) if place)
    assert wording.place_of("bfn", hex_id) == f"{hex_id} ({hexes.at[hex_id, 'place']})"


@pytest.mark.parametrize("hex_id", ["C4146", "B2020", "D2510"])
def test_any_other_hex_is_placed_by_distance_and_bearing_from_a_real_place(hex_id):
    text = wording.place_of("bfn", hex_id)
    if " of " not in text:  # within half a kilometre of a place: "(at X)"
        assert text.startswith(f"{hex_id} (at ")
        return
    distance, rest = text.split(", ", 1)[1].split(" km ", 1)
    bearing, name = rest.split(" of ", 1)
    place = nl.gazetteer.place(name)
    lon, lat = nl.grid("bfn").center(hex_id)
    dx = (lon - place.lon) * 111.32 * math.cos(math.radians(lat))
    dy = (lat - place.lat) * 110.57
    assert abs(math.hypot(dx, dy) - float(distance)) <= 0.5
    angles = {"E": 0, "NE": 45, "N": 90, "NW": 135, "W": 180, "SW": 225, "S": 270, "SE": 315}
    off = (math.degrees(math.atan2(dy, dx)) - angles[bearing] + 540) % 360 - 180
    assert abs(off) <= 22.5 + 1e-9


def test_rule_numbers_carry_the_rule_systems_note_and_data_is_escaped():
    text = wording.link_rules("6 hexes or 6 MP (7.3.1) <img src=x>", "bfn")
    assert "<abbr title='Units trace up to 6 hexes or 6 MP" in text
    assert "<img" not in text and "&lt;img src=x&gt;" in text
    assert wording.link_rules("rule 99.9", "bfn") == "rule 99.9"  # no note, no mark


def test_the_change_summary_counts_what_the_engine_says_changed():
    state = nl.load_scenario(SCENARIO)
    before = nl.supply(state)
    # Interdict the hexes round an HQ until some units lose supply (a what-if that changes verdicts).
    g = nl.grid("bfn")
    for hq in (u for u in state.units if u.hq == "division" and before[u.id].general):
        after_state = state
        for hex_id in g.neighbors(hq.hex):
            if not any(u.hex == hex_id for u in state.units):
                after_state = apply_edit(after_state, {"op": "interdict", "hex": hex_id})
        after = nl.supply(after_state)
        if any(before[u].general != after[u].general for u in after.units):
            break
    sentence, changed = wording.change_summary(state, before, after_state, after, "cut")
    expected = supply_changes(state, after_state)
    flipped = set(expected.index[expected["general_before"] != expected["general_after"]])
    assert flipped and set(changed) == flipped
    lost = [u for u in flipped if not after[u].general]
    allied, german = (sum(after[u].side == side for u in lost) for side in ("allied", "german"))
    said = " and ".join(
        p for p in (f"{allied} Allied" if allied else "", f"{german} German" if german else "") if p
    )
    noun = "unit" if len(lost) == 1 else "units"
    assert sentence.startswith(f"cut: {said} {noun} lost General Supply")


def test_edits_are_described_with_places_and_rivers():
    tmap = nl.terrain_map("bfn", progress=False)
    bridge = tmap.bridges("Orne").iloc[0]
    words = wording.edit_words("bfn", {"op": "destroy_bridge", "hexside": [bridge.a, bridge.b]})
    assert words.endswith("over the Orne destroyed") and bridge.a in words and bridge.b in words
    assert "interdicted" in wording.edit_words("bfn", {"op": "interdict", "hex": "C3013"})


def test_unit_report_names_its_target_and_the_scenario_note():
    state = nl.load_scenario(SCENARIO)
    report = nl.supply(state)
    fed = next(r for r in report.units.values() if r.general and r.traced_to.startswith("division HQ"))
    text = html.unescape(wording.unit_report(state, report, fed.unit_id))
    hq = next(u for u in state.units if u.hex == fed.path[-1] and u.hq)
    assert hq.name in text and wording.place_of("bfn", fed.path[-1]) in text
    assert "In General Supply." in text
    note = state.unit(fed.unit_id).note
    if note:
        assert note in text


def test_formation_symbols_stand_for_their_units():
    """Zoomed out, one symbol per formation: at its units' median position, its counts true."""
    import numpy as np

    from normandy_lab.views import layers

    state = nl.load_scenario(SCENARIO)
    report = nl.supply(state)
    data = layers.formation_data(state, report)
    g = nl.grid("bfn")
    k = data["key"].index("7th Armoured Division")
    members = [u for u in state.units if u.formation == "7th Armoured Division" and u.status == "active"]
    assert data["units"][k] == len(members)
    assert data["out"][k] == sum(not report[u.id].general for u in members)
    cx, cy = layers.hex_centres("bfn")
    assert abs(data["x"][k] - np.median([cx[g.index(u.hex)] for u in members])) < 1
    assert abs(data["y"][k] - np.median([cy[g.index(u.hex)] for u in members])) < 1
    assert data["glyph"][k] == "ARM" and data["short"][k] == "7th Armd Div"
    # A corps' own troops are named by the type most of them are, not by the corps' name.
    troops = data["key"].index("I. SS-Panzerkorps troops")
    kinds = [
        layers.unit_glyph(state.rules, u.type)
        for u in state.units
        if u.corps == "I. SS-Panzerkorps" and not u.formation and not u.hq and u.status == "active"
    ]
    assert kinds.count(data["glyph"][troops]) == max(kinds.count(kind) for kind in kinds)


def test_engine_reasons_are_given_with_places_and_without_inf():
    text = wording.reason_words("bfn", "vacant hex C3434 in an EZOC (5.4, 7.3); over 16 MP, limit 10 (7.2)")
    assert text.startswith(f"vacant hex {wording.place_of('bfn', 'C3434')} in an EZOC (5.4, 7.3)")
    assert "over 16 MP, limit 10 (7.2)" in text  # numbers that are not hexes are left alone
    text = wording.reason_words("bfn", "source: out of range by 0.5 (inf hexes, 6.5 MP)")
    assert text == "source: 0.5 too far (no line counted in hexes, 6.5 MP)"


def test_counts_movement_points_and_readings_are_written_for_people():
    """ux-2: "1 Allied units lost", "35.6667 movement points" and snake_case readings in the panel."""
    from types import SimpleNamespace

    assert (
        wording.mp_words(35 + 2 / 3) == "35⅔"
        and wording.mp_words(0.5) == "½"
        and wording.mp_words(11) == "11"
    )
    assert wording._length_words(8, 35 + 2 / 3) == "8 hexes or 35⅔ movement points"
    assert wording._length_words(1, 1) == "1 hex or 1 movement point"
    rules = SimpleNamespace(rule_refs={"combat_supply_chain": "7.6.1"})
    said = wording.reading_words(rules, {"combat_supply_chain": "own_army", "hq_bridging": "own_line"})
    assert said == "combat supply chain (7.6.1): own army; hq bridging: own line"
    one = [SimpleNamespace(side="allied", general=False, length_mp=float("inf"))]
    state = nl.load_scenario("bfn_1944-06-13_am")
    report = nl.supply(state)
    uid = next(u for u, r in report.units.items() if r.general and r.side == "allied")
    before = SimpleNamespace(units={uid: report[uid]}, state=state)
    after = SimpleNamespace(units={uid: SimpleNamespace(**{**vars(one[0])})})
    sentence, changed = wording.change_summary(state, before, state, after, "cut")
    assert sentence.startswith(
        "cut: 1 Allied unit lost General Supply, none regained it; no lines longer, none shorter"
    )
    assert changed == [uid]
