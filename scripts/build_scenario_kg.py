"""Build The Killing Ground's scenarios 22.6.8 (7 June 1944, Turn 2) and 22.7 (19 June, Turn 14).

Run::

    .venv/bin/python scripts/build_scenario_kg.py

Reads ``scenarios/parts/kg_1944-06-07_t02_setup.yaml`` and ``kg_1944-06-19_t14_setup.yaml`` (the set-ups as
transcribed from the rulebook, with their readings) and writes ``scenarios/kg_1944-06-07_t02.yaml`` and
``scenarios/kg_1944-06-19_t14.yaml`` in the scenario format: every unit placed on the map or in its box (a
box unit stands, off the map, at the box's first entry hex), its steps (the RECONSTRUCTED full steps of its
size less the "-1" steps it lost), and its set-up marks kept with it.

22.7 places some units by a rule instead of a hex ("within 3 hexes of any US HQ", "stacked with any 30 Corps
unit", "east of the Orne"): the set-up leaves the hex to the player, so this script chooses one by a fixed
procedure, said in each unit's ``placement`` (see :func:`place_by_rule`).  Units 22.7 puts on the
reinforcement track, and 8NW(A) (placed on the West map only), are not in play on Turn 14 and are left out.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from normandy_lab.rules.kg.data import BOXES, FULL_STEPS
from normandy_lab.terrain.vocab import VOCABULARIES

ROOT = Path(__file__).resolve().parents[1]
PART = ROOT / "scenarios" / "parts" / "kg_1944-06-07_t02_setup.yaml"
OUT = ROOT / "scenarios" / "kg_1944-06-07_t02.yaml"
SEA = VOCABULARIES["kg"].sea
EXPECTED = ROOT / "scenarios" / "parts" / "kg_1944-06-07_t02_expected.yaml"
PART_22_7 = ROOT / "scenarios" / "parts" / "kg_1944-06-19_t14_setup.yaml"
EXPECTED_22_7 = ROOT / "scenarios" / "parts" / "kg_1944-06-19_t14_expected.yaml"
OUT_22_7 = ROOT / "scenarios" / "kg_1944-06-19_t14.yaml"
MARKS = (
    "printed", "steps_lost", "disorganized", "regroup", "out_of_supply", "delayed", "marks",
    "type_suffix", "alt_hex", "effectiveness_lost", "cadre", "improved_position", "starts_reduced",
)  # fmt: skip

# 22.0: a unit is written Regiment/Division/Corps.  The German corps whose HQs the scenarios place or
# name (84, 86, I SS, II Parachute, XLVII, XXV, LXXIV): a printed designation ending in one of them is a
# unit "with a Corps designation" (26.11.2).  "2SS" is the 2nd SS Panzer Division (KG/2SS, 4/2SS), "3Flk"
# the III Flak Corps, which has no HQ counter: neither is read as a corps designation.
GERMAN_CORPS = ("84", "86", "1SS", "2P", "47", "25", "74")
# 26.2.3: a German breakdown battalion is a battalion of a regiment, printed with its Roman numeral
# ("I/914/352"); 22.7 removes "All breakdown battalions ... not listed", and lists these.
BREAKDOWN = re.compile(r"^(I|II|III|IV)/")


def designations(unit: dict) -> dict:
    """Return what a German unit's printed designation says: its corps (22.0, 26.11.2), breakdown (26.2.3)."""
    if unit.get("side") != "german" or not unit.get("printed"):
        return {}
    printed = str(unit["printed"]).split("{")[0].strip()
    head = re.split(r"-\d|-E\d| with |\(OOS\)|\(cadre\)", printed)[0]
    plain = re.sub(r"(\([A-Za-z]+\))+$", "", head).strip()
    parts = plain.split("/")
    out: dict = {}
    if len(parts) >= 2 and parts[-1] in GERMAN_CORPS and unit.get("type") != "hq":
        out["corps"] = parts[-1]
    tank = "(T)" in printed  # a tank battalion is a standard counter (22.7 keeps 1/100/21Pz(T), 26.17.3)
    if BREAKDOWN.match(plain) and unit.get("size") == "battalion" and not tank:
        out["breakdown"] = True
    return out


HEADER = """\
# The Killing Ground with OVERLORD, scenario 22.6.8: the June 7 start (Turn 2), built by
# scripts/build_scenario_kg.py from scenarios/parts/kg_1944-06-07_t02_setup.yaml (its header gives the source,
# the reading of every mark and every doubtful entry).  Do not edit by hand: edit the part and rebuild.
#
# Positions are the rulebook's printed hexes.  Steps are RECONSTRUCTED (the counters are not in the text: a
# battalion 2, a regiment or brigade 3, an HQ 1, less 22.0's "-1" steps).  The German June 6 set-up card is
# not in the text, so the German units 22.6.8 leaves where they were (the Weapons Nests among them, whose
# hexes are on their counters) are not here: see the part's unchanged_from_june_6.
"""


def expected_entries(part: dict) -> list[dict]:
    """Return a scenario's ``expected_out_of_supply`` entries from an expected part's groups.

    One entry a unit and turn: each group names the turns it holds on, the part gives each turn's date.
    """
    entries = []
    for turn, date in part["turns"].items():
        for group in part["groups"]:
            if turn not in group["turns"]:
                continue
            for unit in group["units"]:
                entry = {"unit": unit, "why": group["why"], "reason": group["reason"]}
                if group.get("source"):
                    entry["source"] = group["source"]
                entry |= {"date": str(date), "turn": turn}
                entries.append(entry)
    return entries


def unit_entry(unit: dict, source: str = "OVERLORD 22.6.8") -> dict:
    """Return a scenario unit from a transcribed one."""
    entry = {key: unit[key] for key in ("id", "name", "side", "nationality", "type", "size") if key in unit}
    if unit.get("formation"):
        entry["formation"] = unit["formation"]
    if unit["type"] == "hq":
        entry["hq"] = "corps"
    entry |= designations(unit)
    if unit.get("box"):
        entry["box"] = unit["box"]
        entry["status"] = "off_map"
        entry["hex"] = BOXES[unit["box"]].entries[0]
    else:
        entry["hex"] = unit["hex"]
    entry["steps"] = max(1, FULL_STEPS[unit["size"]] - int(unit.get("steps_lost") or 0))
    for key in MARKS:
        if unit.get(key) not in (None, False, ""):
            entry[key] = unit[key]
    entry["source"] = source
    notes = [unit[key] for key in ("note", "doubt") if unit.get(key)]
    if unit.get("corps"):  # the set-up's heading, not the counter's corps designation (26.11.2)
        notes.insert(0, f"set up under the {unit['corps']} heading")
    if notes:
        entry["note"] = "; ".join(notes)
    return entry


def main() -> None:
    part = yaml.safe_load(PART.read_text(encoding="utf-8"))
    scenario = {
        "format": "normandy_lab.scenario/1",
        "system": "kg",
        "name": "OVERLORD 22.6.8: the June 7 start (Turn 2)",
        "date": "1944-06-07",
        "turn": "Turn 2",
        "maps": ["N"],
        "seed": 1944,
        "description": (
            "The morning after D-Day on OVERLORD's North map: the beachheads, the airborne areas and the "
            "German "
            "reaction as 22.6.8 sets them up, to play the Build-up from Turn 2; Allied supply is traced from "
            "Turn 3 (8 June)."
        ),
        "sources": [part["source"]],
        "stage": "build-up",
        "army_sp": {"US": 4, "UK": 4, "DE": 8},
        "mulberry": {"A": 0, "B": 0},
        "destroyed_bridges": part["destroyed_bridges"],
        "weapons_nests": part["weapons_nests"],
        "units": [unit_entry(u) for u in part["units"]],
    }
    write_with_expected(scenario, EXPECTED, HEADER, OUT)


def write_with_expected(scenario: dict, expected_part: Path, header: str, out: Path) -> None:
    """Add a scenario's expected-out list from its part, flag the units history had cut off, write it."""
    expected = expected_entries(yaml.safe_load(expected_part.read_text(encoding="utf-8")))
    pocketed = {e["unit"] for e in expected if e["why"] == "history"}
    for entry in scenario["units"]:
        if entry["id"] in pocketed:  # really cut off: what history.compare and the summaries read
            entry["cut_off"] = True
    scenario["expected_out_of_supply"] = expected
    text = header + yaml.safe_dump(scenario, sort_keys=False, allow_unicode=True, width=110)
    out.write_text(text, encoding="utf-8")
    print("wrote", out)


HEADER_22_7 = """\
# The Killing Ground with OVERLORD, scenario 22.7 "Cherbourg and Caen: Securing the Beachhead" (19 June
# 1944, Turn 14), built by scripts/build_scenario_kg.py from scenarios/parts/kg_1944-06-19_t14_setup.yaml
# (its header gives the source, the untangling of the damaged text, the reading of every mark and every
# doubt).  Do not edit by hand: edit the part and rebuild.
#
# 22.7 is played with the standard Killing Ground rules (22.7.1), which are not in the text: the engine
# traces them as far as the text gives them (the reading standard_rules, said in the description); the
# units expected out of supply are in scenarios/parts/kg_1944-06-19_t14_expected.yaml.
# Positions are the printed hexes; a unit 22.7 places by a rule stands on a hex this script chose by a fixed
# procedure (its `placement` says which rule and how).  Units on the reinforcement track and 8NW(A) (three-map
# game only) are not in play on Turn 14 and are left out.  Steps are RECONSTRUCTED as for 22.6.8; artillery
# keeps its full steps with `starts_reduced` (22.7.2(d): whether "reduced" is a step is not said).
"""

# The German holding and off-map boxes 22.7 uses (26.20.2, 26.21.4; the OMM display): their entry hexes are
# on the map card (GAP), so they stand, RECONSTRUCTED, at the same edge roads as OMM 13 (rules.kg.data).


def _placement_anchors(rule: str, placed: list[dict], g, terrain, hexsides) -> tuple[set[int], int, str]:
    """Return the hexes a placement rule measures from, its radius and how the hex was chosen, in words."""
    import numpy as np

    def hexes_of(pick) -> set[int]:
        return {g.index(u["hex"]) for u in placed if u.get("status", "active") == "active" and pick(u)}

    if rule.startswith("any hex within 3 hexes of N3139"):
        return {g.index("N3139")}, 3, "a hex within 3 of N3139"
    if rule.startswith("within 3 hexes of any US HQ"):
        return (
            hexes_of(lambda u: u["nationality"] == "US" and u["type"] == "hq"),
            3,
            "a hex within 3 of a US HQ",
        )
    if rule.startswith("stacked with any US unit"):
        return hexes_of(lambda u: u["nationality"] == "US"), 0, "the hex of a US unit"
    if rule.startswith("stacked with any 30 Corps unit"):
        return hexes_of(lambda u: "30 British Corps" in u.get("note", "")), 0, "the hex of a 30 Corps unit"
    if rule.startswith("stacked with any 1 Corps unit"):
        return hexes_of(lambda u: "1 British Corps" in u.get("note", "")), 0, "the hex of a 1 Corps unit"
    if rule.startswith("within 1 hex of any German Corps HQ"):
        return (
            hexes_of(lambda u: u["side"] == "german" and u["type"] == "hq"),
            1,
            "a hex within 1 of a German HQ",
        )
    if rule.startswith("any hex east of the Orne"):
        # The 22.5 start line is not in the text: the Orne bridgehead is read as the hexes within 3 of
        # Ranville (N3848) that a path reaches from it without crossing the Orne (INFERRED).
        start = g.index("N3848")
        orne = hexsides["water_name"].to_numpy() == "Orne"
        a = np.array([g.index(h) for h in hexsides["a"]])
        b = np.array([g.index(h) for h in hexsides["b"]])
        closed = {(int(x), int(y)) for x, y in zip(a[orne], b[orne], strict=True)}
        closed |= {(y, x) for x, y in closed}
        seen, frontier = {start}, [start]
        for _ in range(3):
            nxt = []
            for h in frontier:
                for n in g.neighbors(str(g.id_array[h])):
                    j = g.index(n)
                    if j not in seen and (h, j) not in closed and terrain[j] != SEA:
                        seen.add(j)
                        nxt.append(j)
            frontier = nxt
        return (
            seen,
            0,
            "a hex of the Orne bridgehead (within 3 of Ranville, N3848, on the east bank: INFERRED)",
        )
    raise ValueError(f"no placement procedure for {rule!r}")


def place_by_rule(units: list[dict], placed: list[dict], state) -> None:
    """Give each unit placed by a rule a hex: the rule's candidate hex a player would take.

    Candidates: land hexes within the rule's radius of its anchors, held by no enemy unit and in no enemy
    zone of control (a unit stacked with a friend takes the friend's hex).  A player keeps a unit he may place
    anywhere within reach of his own army's HQs, so a candidate within the standard rules' 6 hexes (11.4.1)
    of a friendly HQ of the unit's army comes first; then the hex holding the fewest friendly units, then the
    hex nearest an anchor, then the lowest id.  Units are placed in the part's order, each counted where it
    stands.
    """
    from normandy_lab.engine.zoc import zoc_mask
    from normandy_lab.grids import grid
    from normandy_lab.terrain import terrain_map

    g = grid("kg")
    tmap = terrain_map("kg", progress=False)
    terrain = tmap.hexes["terrain"].to_numpy()
    zoc = {side: zoc_mask(state, side) for side in ("allied", "german")}
    count: dict[int, int] = {}
    held: dict[str, set[int]] = {"allied": set(), "german": set()}
    for u in placed:
        held[u["side"]].add(g.index(u["hex"]))
        count[g.index(u["hex"])] = count.get(g.index(u["hex"]), 0) + 1
    reach = state.rules.supply["standard_unit_range"]
    for unit in units:
        army = _army(unit)
        hqs = [
            u["hex"] for u in placed
            if u.get("status", "active") == "active" and u["type"] == "hq" and _army(u) == army
        ]  # fmt: skip
        anchors, radius, how = _placement_anchors(unit["placement"], placed, g, terrain, tmap.hexsides)
        enemy = "german" if unit["side"] == "allied" else "allied"
        candidates = []
        for a in anchors:
            ring = {a} if radius == 0 else {g.index(h) for h in _within(g, str(g.id_array[a]), radius)}
            for h in ring:
                if terrain[h] == SEA or h in held[enemy] or (radius > 0 and zoc[enemy][h]):
                    continue
                near = min(g.distance(str(g.id_array[h]), str(g.id_array[x])) for x in anchors)
                beyond = all(g.distance(str(g.id_array[h]), q) > reach for q in hqs)
                candidates.append((beyond, count.get(h, 0), near, str(g.id_array[h]), h))
        if not candidates:
            raise ValueError(f"{unit['id']}: no hex satisfies {unit['placement']!r}")
        _, _, _, hex_id, h = min(candidates)
        unit["hex"] = hex_id
        unit["note"] = "; ".join(
            x for x in (f"placed by rule: {unit['placement']}; hex chosen by the build script as {how}, "
                        f"within {reach} hexes of an HQ of its army where one is, holding the fewest "
                        "friendly units", unit.get("note", "")) if x
        )  # fmt: skip
        count[h] = count.get(h, 0) + 1
        held[unit["side"]].add(h)


def _army(unit: dict) -> str:
    """Return the army a unit draws on: the US, the Commonwealth (British, Canadian, Polish) or German."""
    if unit["side"] == "german":
        return "german"
    return "US" if unit["nationality"] in ("US", "FR") else "Commonwealth"


def _within(g, hex_id: str, radius: int) -> list[str]:
    """Return the hexes within ``radius`` of a hex (itself included)."""
    out, frontier = {hex_id}, {hex_id}
    for _ in range(radius):
        frontier = {g.canonical(n) for h in frontier for n in g.neighbors(h)} - out
        out |= frontier
    return sorted(out)


def arrival_box(unit: dict) -> str:
    """Return the box a reinforcement is placed in as it arrives (26.16.1, 26.16.2).

    U.S. units go to the U.S. Floating Reserve box, British and Canadian to the Commonwealth one (the map's
    "British Floating Reserve"); a British AGRA to the Allied Holding Box (26.16.1, "British AGRA Artillery
    Arrival"); a German unit to an OMM box or the Rail Reinforcements box, the German player's choice
    (26.16.2): OMM 15, the box 22.7 already gives the arriving German units (the choice is a reading).
    """
    if unit["side"] == "german":
        return "OMM 15"
    if "AGRA" in unit.get("printed", ""):
        return "Allied Holding Box"
    return "US Floating Reserve" if unit["nationality"] == "US" else "British Floating Reserve"


def reinforcement_track(units: list[dict], source: str) -> list[dict]:
    """Return 22.7.2's Reinforcement Track Adjustments as the scenario's ``reinforcement_track``, by turn."""
    by_turn: dict[str, list[dict]] = {}
    for unit in units:
        if not unit.get("track"):
            continue
        turn = re.search(r"Turn (\d+) space", unit["placement"])
        if turn is None:
            raise ValueError(f"{unit['id']}: no turn in {unit['placement']!r}")
        box = arrival_box(unit)
        entry = unit_entry({**unit, "box": box}, source)
        entry["note"] = "; ".join(
            x for x in (f"on the reinforcement track: {unit['placement']}; arrives in {box} (26.16)",
                        entry.get("note")) if x
        )  # fmt: skip
        by_turn.setdefault(f"Turn {turn.group(1)}", []).append(entry)
    return [{"turn": t, "units": by_turn[t]} for t in sorted(by_turn, key=lambda t: int(t.split()[-1]))]


def build_22_7() -> None:
    """Write scenario 22.7 (19 June, Turn 14) from its part."""
    from normandy_lab.engine.scenario import load_scenario_text

    part = yaml.safe_load(PART_22_7.read_text(encoding="utf-8"))
    source = "OVERLORD 22.7.2"
    in_play = [
        u
        for u in part["units"]
        if not u.get("track") and (u.get("hex") or u.get("box") or u.get("placement"))
    ]
    in_play = [
        u for u in in_play if u.get("hex") or u.get("box") or not u["placement"].startswith("three-map")
    ]
    on_hex = [unit_entry(u, source) for u in in_play if u.get("hex") or u.get("box")]
    by_rule = [dict(u) for u in in_play if not (u.get("hex") or u.get("box"))]
    markers = part["markers"]
    scenario = {
        "format": "normandy_lab.scenario/1",
        "system": "kg",
        "name": "OVERLORD 22.7: Cherbourg and Caen, Securing the Beachhead (Turn 14)",
        "date": "1944-06-19",
        "turn": "Turn 14",
        "weather": markers["weather"]["current_weather"],
        "maps": ["N"],
        "seed": 1944,
        "description": (
            "19 June 1944 on OVERLORD's North map, the morning of the great storm: the Americans closing on "
            "Cherbourg, the British and Canadians before Caen, as 22.7 sets them up. 22.7 is played with the "
            "standard Killing Ground rules (22.7.1), which are not in the text: the engine traces supply by "
            "them as far as the text gives them (the reading standard_rules: 6 hexes to a supported HQ, "
            "11.4.1; Allied corps HQs to 22.7.2's depots; German city hexes only Cherbourg's, 22.7.6a); the "
            "Build-up's rules (26.9-26.11) by the reading standard_rules: build_up. 22.7 gives no Mulberry "
            "level: both are at 0."
        ),
        "sources": [part["source"]],
        "stage": "killing_ground",
        "army_sp": {
            "US": markers["allied"]["army_reserve_support_points"]["1st U.S. Army"],
            "UK": markers["allied"]["army_reserve_support_points"]["2nd British Army"],
            "DE": markers["german"]["vii_army_support_points"],
        },
        "mulberry": {"A": 0, "B": 0},
        "fortress_cherbourg": bool(markers["fortress_cherbourg_declared"]["value"]),  # 22.7.6, 26.20.6
        "rail_capacity": markers["german"]["rail_capacity"],  # 22.7.3, 26.4.3
        "destroyed_bridges": part["destroyed_bridges"],
        "weapons_nests": [{k: str(v) for k, v in wn.items()} for wn in part["weapons_nests"]],
        "units": on_hex,
    }
    scenario["reinforcement_track"] = reinforcement_track(part["units"], source)
    # The units placed by a rule are placed against the state of the others (their zones of control).
    first = load_scenario_text(yaml.safe_dump(scenario, sort_keys=False, allow_unicode=True))
    place_by_rule(by_rule, on_hex, first)
    scenario["units"] = on_hex + [unit_entry(u, source) for u in by_rule]
    write_with_expected(scenario, EXPECTED_22_7, HEADER_22_7, OUT_22_7)


if __name__ == "__main__":
    main()
    build_22_7()
