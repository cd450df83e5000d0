"""The Build-up's logistics as the turns run: SP, Mulberries, depots, V Panzer Army (OVERLORD 26.x).

What the text gives is played as written, with the state's seeded dice:

* 26.10: the Germans receive 8 SP in each Army Support phase, 12 once V Panzer Army is active (26.20.1).
  Allied Supply Interdiction may take some of them (15.4, a base rule not in the text): not applied, and
  said so.
* 26.19.2: in each Allied Engineering phase, one die per nationality for its Mulberry (A: US, B: British)
  until it is complete; a modified 5 or less advances it a level.  Mulberry B may not roll until N3139 is
  Allied controlled.  An SP spent in the Army Support phase (``mulberry_boost``) gives that roll -2.  No
  construction in a storm.
* 26.19.3: likewise one die per nationality for its depot; 5 or less advances the depot marker, and a
  failure flips it to its -2 side for the next rolls until it advances.  The Commonwealth depot may not
  complete while an AGRA is still in the Allied Holding Box.
* 26.16.2: until V Panzer Army is active, a German tank or mechanized unit placed in an off-map box as a
  reinforcement rolls for its supply: tanks are out of supply on 1-4, other mechanized units on 1-2.
* 26.20.1: from Turn 20, in the Game-turn Indication phase, the V Panzer Army marker stands in the Turn 4
  space; two dice at or under its space activate the army, else the marker moves a space on.  On
  activation one die places the V Panzer Army's SP marker.

* 26.10.2: in the Army Support phase each landing display's Landing Box 1 with no combat unit in it lands
  one Allied SP without a die, at most 6 boxes a turn; Mulberry B's box only once an Allied unit stands in
  N3139 (26.4.2).
* 26.10.7: the Germans may add SP to Cherbourg's own by rail once a turn (``cherbourg_rail``): one die plus
  the Interdiction value of an air unit on Rail Interdiction; 4 or less brings 2 SP, 5-6 one, more none.

The two -2 modifiers the text prints are played (the Mulberry's SP, 26.19.2; the depot's failed roll,
26.19.3), and the 1 SP a nationality may spend after seeing its depot roll (26.19.3; by how much is not
printed: the reading ``depot_sp_improvement``, 2 by default).  What the cards hold is a GAP: the tracks'
other printed modifiers (the Mulberry level's benefit to the depot rolls), the depot SP row (26.10.2, 1),
the Support Points Landing Table of Landing Box 2.  Those modifiers are taken as 0; a Box 2 lands nothing;
the depot row pays what the analyst sets (``depot_sp``, 0 unless set); the depot track's
length is RECONSTRUCTED (:data:`DEPOT_SPACES`), each said where it is used.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

from normandy_lab.engine.layered import LayeredGraph, Move
from normandy_lab.engine.lines import Situation
from normandy_lab.engine.sequence import current_phase
from normandy_lab.engine.state import GameState
from normandy_lab.engine.zoc import hex_control
from normandy_lab.errors import RefusedError
from normandy_lab.gamemap import game_map
from normandy_lab.grids import grid
from normandy_lab.rules.kg.data import turn_of
from normandy_lab.rules.kg.supply import ARMY, determine

GERMAN_SP = {False: 8, True: 12}  # 26.10; 26.20.1 once V Panzer Army is active
BUILDS_ON = 5  # 26.19.2, 26.19.3: a modified roll of 5 or less advances the marker
BOOST = (
    -2
)  # 26.19.2: the Mulberry marker's -2 side (1 SP); 26.19.3: the depot marker's -2 side after a failure
MULBERRY_COMPLETE = 5  # 26.19.2: at level 5 both landing boxes open (26.10.5: radius 3); the last level
#: RECONSTRUCTED: the Depot Track's spaces before "Depot Complete" (the card is a GAP).  Ten spaces at the
#: odds of 26.19.3 (5 in 6, and a certain roll after each failure) take some twelve turns from Turn 2: both
#: depots complete by Turn 14, as 22.7 (19 June) has them placed on the map.
DEPOT_SPACES = 10
ARMIES = (("US", "A"), ("UK", "B"))  # a nationality and its Mulberry (26.19.2)
MULBERRY_B_HEX = "N3139"  # 26.19.2: no roll for Mulberry B before this hex is Allied controlled
V_PANZER_FROM_TURN = 20  # 26.20.1
V_PANZER_FIRST_SPACE = 4
ARRIVAL_OUT_OF_SUPPLY = {"tank": 4, "mech": 2}  # 26.16.2: out of supply on a roll up to this
#: 26.10.2: the landing displays through whose boxes SP land, with the army they land for.  22.6.2 gives
#: follow-on Landing Boxes to these six; Sword has none (26.4.1: a unit lands there through Juno's box).
SP_DISPLAYS = (
    ("Utah", "US"), ("Omaha", "US"), ("Mulberry A", "US"),
    ("Gold", "UK"), ("Juno", "UK"), ("Mulberry B", "UK"),
)  # fmt: skip
SP_BOXES_A_TURN = 6  # 26.10.2: at most 6 Landing Boxes land SP in a turn
#: 26.10.7: Cherbourg's rail SP by the modified die: up to 4 both arrive, 5-6 one, above 6 none.
RAIL_SP = ((4, 2), (6, 1))


def pay_army_support(state: GameState) -> GameState:
    """Pay the German SP of the Army Support phase: 8, or 12 once V Panzer Army is active (26.10, 26.20.1)."""
    active = bool(state.markers["v_panzer"]["active"])
    paid = GERMAN_SP[active]
    points = dict(state.markers["army_sp"])
    points["DE"] = points.get("DE", 0) + paid
    return state.evolve(
        army_sp=points,
        log=state.log.then(
            f"Turn {turn_of(state.date)}: Germans +{paid} SP ({'V Panzer Army active, ' if active else ''}"
            "26.10); Allied Supply Interdiction (15.4) not applied: a base rule not in the text"
        ),
    )


def support_corps_hqs(state: GameState) -> GameState:
    """Pay for the HQs in the Corps and Artillery Support segment (26.10.1, 26.10.5, 26.10.6, 26.10.7).

    Allied: the SP the determination pays (26.10.1's order: the Unsupported markers lifted first at 1 SP
    each, then the radius costs) leave the army's reserve; the HQs left unpaid, or isolated, go under an
    Unsupported marker.  On Turns 1 and 2 every Allied unit is in supply (26.11.1): no Allied HQ is asked
    about.  German: one HQ supported free and each other for 1 SP of the German SP (26.10.6); the Cherbourg
    HQ for 1 of Cherbourg's own SP when N1410 traces to no off-map box (26.10.7).  After the Build-up, the
    standard rules (not in the text) would apply: nothing is paid.
    """
    if state.markers["stage"] != "build-up":
        return state.evolve(hq_support_paid={}, hq_unsupported=())
    report = determine(state.evolve(hq_support_paid={}))
    paid = report.determination.paid
    allied_exempt = turn_of(state.date) <= state.rules.supply["exempt_until_turn"]
    unsupported = tuple(
        sorted(
            u.id
            for u in state.units_of("allied")
            if u.hq is not None and u.status == "active" and not report[u.id].general and not allied_exempt
        )
    )
    points = dict(state.markers["army_sp"])
    for army in ("US", "UK", "DE"):
        points[army] = points.get(army, 0) - paid[army]
    cherbourg = state.markers["cherbourg_sp"]
    if cherbourg is not None:
        cherbourg -= paid["cherbourg"]
    began = [] if allied_exempt else sorted(state.markers["hq_unsupported"])
    return state.evolve(
        army_sp=points,
        cherbourg_sp=cherbourg,
        hq_support_paid={"on": state.date.isoformat(), **paid, "began_unsupported": began},
        hq_unsupported=unsupported,
        log=state.log.then(
            f"Turn {turn_of(state.date)}: HQ support paid, US {paid['US']} SP, UK {paid['UK']} SP "
            "(26.10.1, 26.10.5)"
            + (f"; Unsupported: {', '.join(unsupported)}" if unsupported else "")
            + f"; German {paid['DE']} SP (26.10.6: one HQ free, each other 1 SP)"
            + (f"; Cherbourg {paid['cherbourg']} of its own SP (26.10.7)" if paid["cherbourg"] else "")
        ),
    )


def land_allied_sp(state: GameState) -> GameState:
    """Land the Allied SP of the Army Support phase (26.10.2): Landing Box 1 SP, and the depot row.

    Each display's Landing Box 1 with no combat unit in it (every unit but an HQ) lands one SP for its
    army without a die, up to 6 boxes a turn, in the order of :data:`SP_DISPLAYS`; Mulberry B's only once an
    Allied unit stands in N3139 (26.4.2).  Landing Box 2 needs the Support Points Landing Table (a GAP):
    no SP is landed there.  The depot row pays ``depot_sp`` (a GAP: 0 unless the analyst sets it).  Only
    in the Build-up: afterwards the standard Killing Ground supply rules apply, which are not in the text.
    """
    if state.markers["stage"] != "build-up":
        return state.evolve(
            log=state.log.then(
                f"Turn {turn_of(state.date)}: Allied SP not landed: the Build-up is over and the standard "
                "Killing Ground supply rules (not in the text) apply (26.3.2)"
            )
        )
    if state.weather == "Storm":
        return state.evolve(
            log=state.log.then(
                f"Turn {turn_of(state.date)}: Allied SP: none landed and none received from the Depot Track "
                "in a storm (26.14.1)"
            )
        )
    boxes = free_landing_boxes(state)
    army_of = {f"{display} LB1": army for display, army in SP_DISPLAYS}
    landed = {"US": 0, "UK": 0}
    for box in boxes:
        landed[army_of[box]] += 1
    depot = state.markers["depot_sp"]
    points = dict(state.markers["army_sp"])
    for army in landed:
        points[army] = points.get(army, 0) + landed[army] + depot.get(army, 0)
    paid = ", ".join(f"{army} +{landed[army]} landed +{depot.get(army, 0)} depot" for army in landed)
    return state.evolve(
        army_sp=points,
        log=state.log.then(
            f"Turn {turn_of(state.date)}: Allied SP {paid}: 1 SP at each free Landing Box 1 "
            f"({', '.join(boxes) or 'none free'}; 26.10.2); Landing Box 2 needs the Support Points Landing "
            "Table (not in the text): none landed there; the depot row (not in the text) pays what is set"
        ),
    )


def free_landing_boxes(state: GameState) -> list[str]:
    """Name the Landing Box 1s that would land an SP now, in the order they are used (26.10.2)."""
    held = {u.box for u in state.units if u.side == "allied" and u.status == "off_map" and u.hq is None}
    at_mulberry_b = any(u.hex == MULBERRY_B_HEX for u in state.units_of("allied") if u.status == "active")
    boxes = [
        f"{display} LB1"
        for display, _ in SP_DISPLAYS
        if f"{display} LB1" not in held and (display != "Mulberry B" or at_mulberry_b)
    ]
    return boxes[:SP_BOXES_A_TURN]


def allied_income_words(state: GameState) -> str:
    """Say what the Allies receive in this Army Support phase and what the text does not give (26.10.2)."""
    if state.markers["stage"] != "build-up":
        return "the standard Killing Ground supply rules apply after the Build-up: not in the text (26.3.2)"
    if state.weather == "Storm":
        return "none: in a storm no SP may be landed or received from the Allied Depot Track (26.14.1)"
    boxes = free_landing_boxes(state)
    depot = state.markers["depot_sp"]
    return (
        f"1 SP at each Landing Box 1 with no combat unit, at most {SP_BOXES_A_TURN}: "
        f"{', '.join(boxes) or 'none free'} (26.10.2); Landing Box 2 rolls on the Support Points Landing "
        "Table, not in the text: none landed there; the Depot Track's SP row is not in the text: "
        f"US {depot.get('US', 0)}, UK {depot.get('UK', 0)} as set (depot_sp)"
    )


def cherbourg_rail(state: GameState, value: Any) -> GameState:
    """Bring SP to Cherbourg by rail in the Army Support phase, once a turn (26.10.7), with a seeded die.

    ``value``: ``True``; or, while an air unit is on Rail Interdiction (``air_rail``, 26.15.2), that unit's
    Interdiction value (printed on its counter, not in the text), which is added to the die.  A modified 4
    or less adds 2 SP to Cherbourg's, 5 or 6 adds 1, more adds none.
    """
    if current_phase(state).name != "Army Support":
        raise RefusedError("Cherbourg's SP come by rail in the Army Support phase (26.10.7)")
    if state.markers["cherbourg_sp"] is None:
        raise RefusedError("Cherbourg's SP are not known in this scenario: set cherbourg_sp first (26.10.7)")
    if state.markers["cherbourg_rail_on"] == state.date.isoformat():
        raise RefusedError("only one rail point a turn may bring SP to Cherbourg (26.10.7)")
    if state.markers["rail_capacity"] is not None and state.markers["rail_capacity"] < 1:
        raise RefusedError(
            "the German Rail Capacity is 0: no rail point is left to bring SP to Cherbourg (26.4.3, 26.10.7)"
        )
    if state.markers["air_rail"]:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RefusedError(
                "an Allied air unit is on Rail Interdiction (26.15.2): give its Interdiction value, a whole "
                f"number printed on its counter, as the value (not {value!r}); it is added to the die "
                "(26.10.7)"
            )
        modifier = value
    elif value is True:
        modifier = 0
    else:
        raise RefusedError(f"cherbourg_rail is true (no air unit on Rail Interdiction), not {value!r}")
    die = int(state.rng().integers(1, 7))
    total = die + modifier
    arrive = next((sp for most, sp in RAIL_SP if total <= most), 0)
    plus = f" +{modifier} Rail Interdiction" if modifier else ""
    return state.after_draws(1).evolve(
        cherbourg_sp=state.markers["cherbourg_sp"] + arrive,
        cherbourg_rail_on=state.date.isoformat(),
        log=state.log.then(
            f"Cherbourg by rail: rolled {die}{plus} = {total}: {arrive} of 2 SP arrive, Cherbourg holds "
            f"{state.markers['cherbourg_sp'] + arrive}; the Rail Capacity marker is on its -1 side until the "
            "German rail movement ends (26.10.7)"
        ),
    )


def _allied_holds(state: GameState, hex_id: str) -> bool:
    """Tell whether the Allies control a hex (held, or in their ZOC alone)."""
    import numpy as np


    situation = Situation.of(state)
    at = np.array([grid(state.system).index(hex_id)], dtype=np.int64)
    return bool(hex_control(state, situation.zoc, situation.occupied, at=at)[0] == "allied")


def _agra_held_back(state: GameState) -> bool:
    """Tell whether an AGRA still stands in the Allied Holding Box (26.19.3), as far as the scenario says."""
    return any(
        u.status == "off_map" and u.box == "Allied Holding Box" and "AGRA" in u.name.upper()
        for u in state.units
    )


def engineering_rolls(state: GameState) -> GameState:
    """Roll the Allied Engineering phase's Mulberry and depot construction (26.19.2, 26.19.3).

    Each die comes from the state's seeded generator, in a fixed order (US Mulberry, US depot, British
    Mulberry, British depot); a marker already complete rolls no die.  The boosts bought this turn are spent.
    """
    gt = turn_of(state.date)
    if state.weather == "Storm":
        return state.evolve(
            mulberry_boost={},
            depot_improve={},
            log=state.log.then(f"Turn {gt}: no Mulberry or depot construction in a storm (26.19.2, 26.19.3)"),
        )
    rng = state.rng()
    draws = 0
    mulberry = dict(state.markers["mulberry"])
    depots = dict(state.markers["depots"])
    flipped = dict(state.markers["depot_flipped"])
    boost = state.markers["mulberry_boost"]
    improve = state.markers["depot_improve"]
    points = dict(state.markers["army_sp"])
    words = []
    for army, which in ARMIES:
        if mulberry.get(which, 0) < MULBERRY_COMPLETE:
            if which == "B" and not _allied_holds(state, MULBERRY_B_HEX):
                words.append(f"Mulberry B: no roll, {MULBERRY_B_HEX} not Allied controlled (26.19.2)")
            else:
                die = int(rng.integers(1, 7))
                draws += 1
                modified = die + (BOOST if boost.get(which) else 0)
                if modified <= BUILDS_ON:
                    mulberry[which] = mulberry.get(which, 0) + 1
                words.append(
                    f"Mulberry {which}: rolled {die}{' -2' if boost.get(which) else ''}, "
                    + (f"level {mulberry[which]}" if modified <= BUILDS_ON else "no progress")
                    + " (26.19.2)"
                )
        if depots.get(army, 0) < DEPOT_SPACES:
            die = int(rng.integers(1, 7))
            draws += 1
            modified = die + (BOOST if flipped.get(army) else 0)
            # 26.19.3: the Allies "may expend one Support Point ... to improve the results, after seeing
            # the roll", at most 1 a nationality: spent (as the standing order depot_improve asks) only
            # where it turns a failure into an advance.  Its size is not printed: a reading.
            better = int(
                state.options.get("depot_sp_improvement", state.rules.options["depot_sp_improvement"])
            )
            if (
                modified > BUILDS_ON
                and modified - better <= BUILDS_ON
                and improve.get(army)
                and points.get(army, 0) >= 1
            ):
                points[army] -= 1
                modified -= better
                words.append(
                    f"{army} depot: rolled {die}, 1 SP spent after the roll for -{better} (26.19.3; reading "
                    f"depot_sp_improvement={better})"
                )
            last = depots.get(army, 0) + 1 == DEPOT_SPACES
            if modified <= BUILDS_ON and last and army == "UK" and _agra_held_back(state):
                words.append(f"UK depot: rolled {die}, but an AGRA is still in the Holding Box (26.19.3)")
            elif modified <= BUILDS_ON:
                depots[army] = depots.get(army, 0) + 1
                flipped[army] = False
                done = " (complete)" if depots[army] == DEPOT_SPACES else ""
                words.append(f"{army} depot: rolled {die}, space {depots[army]}{done} (26.19.3)")
            else:
                flipped[army] = True
                words.append(f"{army} depot: rolled {die}, no progress; -2 on the next roll (26.19.3)")
    return state.after_draws(draws).evolve(
        mulberry=mulberry,
        depots=depots,
        depot_flipped=flipped,
        army_sp=points,
        mulberry_boost={},
        depot_improve={},
        log=state.log.then(f"Turn {gt}: " + "; ".join(words)),
    )


def build_up_over(state: GameState) -> bool:
    """Tell whether both depots are complete: the Build-up ends with this turn (26.3.2, 26.21.2)."""
    return all(state.markers["depots"].get(army, 0) >= DEPOT_SPACES for army, _ in ARMIES)


def boost_mulberry(state: GameState, which: Any) -> GameState:
    """Spend 1 SP of the Mulberry's nationality for -2 on this turn's construction roll (26.19.2).

    Refused outside the Army Support phase, for a complete Mulberry, twice in a turn, or without the SP.
    """
    army = dict((m, a) for a, m in ARMIES).get(which)
    if army is None:
        raise RefusedError(f"mulberry_boost names Mulberry A or B, not {which!r}")
    if current_phase(state).name != "Army Support":
        raise RefusedError("a Mulberry's SP is spent in the Army Support phase (26.19.2)")
    if state.markers["mulberry"].get(which, 0) >= MULBERRY_COMPLETE:
        raise RefusedError(f"Mulberry {which} is complete (26.19.2)")
    if state.markers["mulberry_boost"].get(which):
        raise RefusedError(f"Mulberry {which}'s SP is spent already this turn (26.19.2)")
    points = dict(state.markers["army_sp"])
    if points.get(army, 0) < 1:
        raise RefusedError(f"the {army} army has no SP to spend (26.19.2)")
    points[army] -= 1
    return state.evolve(
        army_sp=points,
        mulberry_boost={**state.markers["mulberry_boost"], which: True},
        log=state.log.then(f"1 {army} SP spent: Mulberry {which} rolls at -2 this turn (26.19.2)"),
    )


def improve_depot(state: GameState, army: Any) -> GameState:
    """Order 1 SP of a nationality spent on this turn's depot roll if it fails and the SP would save it.

    26.19.3: the SP is expended "after seeing the roll" (the Allied Engineering phase rolls as it begins, so
    the order stands before it); at most 1 SP a nationality.  Refused in or after that phase, for a
    complete depot, or twice.
    """
    if army not in ("US", "UK"):
        raise RefusedError(f"depot_improve names the US or UK depot, not {army!r}")
    names = [p.name for p in state.rules.sequence[state.turn]]
    if state.phase_index >= names.index("Allied Engineering"):
        raise RefusedError(
            "the depot rolls of this turn are made: order the SP before the Allied Engineering phase"
        )
    if state.markers["depots"].get(army, 0) >= DEPOT_SPACES:
        raise RefusedError(f"the {army} depot is complete (26.19.3)")
    if state.markers["depot_improve"].get(army):
        raise RefusedError(
            f"at most 1 SP per nationality on its depot roll (26.19.3): the {army} SP is ordered"
        )
    return state.evolve(
        depot_improve={**state.markers["depot_improve"], army: True},
        log=state.log.then(
            f"the {army} army will spend 1 SP on its depot roll if it fails and the SP saves it (26.19.3)"
        ),
    )


def v_panzer_roll(state: GameState) -> GameState:
    """Roll for V Panzer Army's activation in the Game-turn Indication phase, from Turn 20 (26.20.1)."""
    marker = dict(state.markers["v_panzer"])
    gt = turn_of(state.date)
    if marker["active"] or gt < V_PANZER_FROM_TURN:
        return state
    space = marker["space"] or V_PANZER_FIRST_SPACE
    rng = state.rng()
    dice = int(rng.integers(1, 7)) + int(rng.integers(1, 7))
    if dice <= space:
        support = int(rng.integers(1, 7))
        return state.after_draws(3).evolve(
            v_panzer={"active": True, "space": space, "support": support},
            log=state.log.then(
                f"Turn {gt}: V Panzer Army rolled {dice} against {space}: active; its SP marker at "
                f"{support}; German mechanized reinforcements no longer roll for supply, 12 SP a turn "
                "(26.20.1)"
            ),
        )
    return state.after_draws(2).evolve(
        v_panzer={**marker, "space": space + 1},
        log=state.log.then(
            f"Turn {gt}: V Panzer Army rolled {dice} against {space}: not yet; the marker moves to "
            f"{space + 1} (26.20.1)"
        ),
    )


def arrival_roll(state: GameState, unit: Any) -> tuple[GameState, Any]:
    """Roll a German tank or mechanized reinforcement's supply as it is placed in an off-map box (26.16.2).

    Until V Panzer Army is active: a tank is out of supply on 1-4, another mechanized unit on 1-2; the
    unit keeps the verdict in its ``out_of_supply`` field until it traces a line.  Any other unit, or one
    placed on the map, is returned unchanged.
    """
    if unit.side != "german" or unit.status != "off_map" or not (unit.box or "").startswith("OMM"):
        return state, unit
    if not unit.mechanized or state.markers["v_panzer"]["active"]:
        return state, unit
    kind = "tank" if unit.type == "armor" else "mech"
    die = int(state.rng().integers(1, 7))
    out = die <= ARRIVAL_OUT_OF_SUPPLY[kind]
    attrs = (*((k, v) for k, v in unit.attrs if k != "out_of_supply"), ("out_of_supply", out))
    state = state.after_draws(1).evolve(
        log=state.log.then(
            f"{unit.id} arrives in {unit.box}: rolled {die}, {'out of' if out else 'in'} supply "
            f"({kind}: out on 1-{ARRIVAL_OUT_OF_SUPPLY[kind]}, 26.16.2)"
        )
    )
    return state, replace(unit, attrs=attrs)


def engineering_words(state: GameState) -> dict[str, Any]:
    """Say what the Allied Engineering phase's construction rolls need and where the markers stand."""
    mulberry, depots = state.markers["mulberry"], state.markers["depots"]
    boost, flipped = state.markers["mulberry_boost"], state.markers["depot_flipped"]
    return {
        "mulberries": {
            m: _progress(mulberry.get(m, 0), MULBERRY_COMPLETE, bool(boost.get(m)), "level", "26.19.2")
            for _, m in ARMIES
        },
        "depots": {
            a: _progress(depots.get(a, 0), DEPOT_SPACES, bool(flipped.get(a)), "space", "26.19.3", True)
            for a, _ in ARMIES
        },
        "storm": "no construction in a storm" if state.weather == "Storm" else "",
        "not_in_the_text": "the tracks' own printed modifiers beyond the two -2s of 26.19.2 and 26.19.3 "
        "(taken as 0) and the depot SP row (paid as set: depot_sp)",
        "depot_sp": "1 SP a nationality may be spent after seeing a failed depot roll (26.19.3; order it "
        "with depot_improve; its size is the reading depot_sp_improvement)",
    }


def _progress(at: int, last: int, minus_two: bool, unit: str, rule: str, reconstructed: bool = False) -> str:
    """Say where a construction marker stands and what its next roll needs (26.19.2, 26.19.3)."""
    if at >= last:
        return "complete"
    of = f" of {last} (RECONSTRUCTED length)" if reconstructed else ""
    needs = "any roll (-2)" if minus_two else f"a roll of 1-{BUILDS_ON}"
    return f"{unit} {at}{of}, advances on {needs} ({rule})"


# -- naval fire protection (26.8.2) -----------------------------------------------------------------------
NFP_ALL_WITHIN = 4  # every Allied-occupied hex this close to an all-sea hex, for 2 points a nationality
NFP_ONE_WITHIN = 8  # one hex this close, for 1 point
NFP_WEATHER_OFF = ("Rain", "Storm")


@lru_cache(maxsize=4)
def sea_distance(system: str) -> Any:
    """Return each hex's distance in hexes to the nearest all-sea hex (26.8.2's ranges), FAR where none."""
    import numpy as np


    gmap = game_map(system)
    e = gmap.edges
    graph = LayeredGraph(len(gmap.grid), 1, e.src, e.dst, [Move(0, 0, np.ones(len(e.src), dtype=bool), 1)])
    sea = np.nonzero(gmap.terrain.hexes["terrain"].to_numpy() == "All Sea")[0]
    dist, _ = graph.search(sea, np.zeros(graph.n, dtype=bool))
    dist.setflags(write=False)
    return dist


def naval_fire_protection(state: GameState) -> dict[str, Any]:
    """Say which Allied-occupied hexes naval fire protection may cover this turn, per nationality (26.8.2).

    All of a nationality's occupied hexes within 4 hexes of an all-sea hex for 2 Naval Bombardment points,
    or one hex within 8 for 1 point; not in rain or storm.  The points a turn are on the Naval Bombardment
    Tracks (not in the text).
    """
    if state.weather in NFP_WEATHER_OFF:
        return {"naval_fire_protection": f"not allowed in {state.weather.lower()} (26.8.2)"}
    g = grid(state.system)
    dist = sea_distance(state.system)
    near: dict[str, set[str]] = {"US": set(), "UK": set()}
    far: dict[str, set[str]] = {"US": set(), "UK": set()}
    for u in state.units_of("allied"):
        d = int(dist[g.index(u.hex)])
        army = ARMY.get(u.nationality, "UK")
        if d <= NFP_ALL_WITHIN:
            near[army].add(u.hex)
        elif d <= NFP_ONE_WITHIN:
            far[army].add(u.hex)
    return {
        "naval_fire_protection": {
            army: f"{len(near[army])} occupied hexes within {NFP_ALL_WITHIN} of the sea, all protected for "
            f"2 points; or one of {len(near[army]) + len(far[army])} within {NFP_ONE_WITHIN} for 1 point "
            "(26.8.2)"
            for army in near
        },
        "protected_hexes": {army: sorted(near[army]) for army in near},
        "bombardment_points": "the Naval Bombardment Tracks are not in the text",
    }
