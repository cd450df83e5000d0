"""Fighter-bomber interdiction of the German reinforcement hexes (17.1).

The Allies get 9 fighter-bombers a clear day, 5 an overcast one, none in a storm; from the 0700 turn of
7 June they may put up to 4 of them (2 when overcast) on interdiction.  When German reinforcements are to
enter at a reinforcement hex, a d10 at or under the number on interdiction keeps every unit of that hex
off the map this turn; they try again next turn.  Planes never fly at night: at night every reinforcement
enters.  Air defence does not touch the planes on interdiction (17.1).

The game's d10 reads 0 to 9 (3.4.2: "Rolls higher than 9 are treated as a roll of 9"; "Rolls of 0 are
always treated as 0"; 3.3, Airborne Drift: "If you roll a 0, the Unit stays"), so a roll "equal to or less
than" n succeeds on n + 1 faces of ten: 4 planes keep the Germans out half the time, AD 2 aborts 30 %.
"""

from __future__ import annotations

from normandy_lab.engine.state import GameState
from normandy_lab.gamemap import game_map
from normandy_lab.rules.gts.data import AIR_ALLOCATION_FROM, WEATHER_EFFECTS
from normandy_lab.rules.section import checked

D10 = (0, 10)  # the faces 0 to 9, as numpy's integers(low, high) draws them


def at_or_under(value: int) -> float:
    """Return the chance a d10 reading 0 to 9 rolls ``value`` or less (17.1: "equal to or less than")."""
    return min(max(value + 1, 0), 10) / 10.0


def _planes(state: GameState) -> int:
    return min(state.markers["fighter_bombers_on_interdiction"], interdiction_limit(state))


def _rolls(state: GameState) -> bool:
    """Say whether the Allies roll for interdiction this turn: never at night; with no plane, by reading.

    17.1: "If he rolls equal to or less than the number of Fighter Bombers he has on Interdiction": with
    none, a 0 would still be "equal"; the reading ``interdiction_with_no_planes`` says whether he rolls
    (``roll``) or not (``no_roll``, the default: an empty Interdiction box interdicts nothing).
    """
    if state.turn == "Night":
        return False
    return _planes(state) > 0 or state.options.get("interdiction_with_no_planes", "no_roll") == "roll"


def interdiction_limit(state: GameState) -> int:
    """Return how many fighter-bombers may go on interdiction today (17.1): 0 before 7 June."""
    if state.date < AIR_ALLOCATION_FROM:
        return 0
    effects = WEATHER_EFFECTS[state.weather]
    return min(effects["interdiction_max"], effects["fighter_bombers"])


def kept_out_probability(state: GameState) -> float:
    """Return the chance that the Germans entering at one reinforcement hex are kept out this turn."""
    if not _rolls(state):
        return 0.0  # 17.1: planes never fly at night; no plane, no roll (by default)
    return at_or_under(_planes(state))  # a d10 (0-9) at or under the planes on interdiction


def interdiction_table(state: GameState) -> dict[str, str]:
    """Return, for each German reinforcement hex this turn, the chance nobody enters there, in words."""
    p = kept_out_probability(state)
    why = (
        "Night: planes never fly (17.1)"
        if state.turn == "Night"
        else "a d10 (0-9) at or under the planes (17.1)"
        if _rolls(state)
        else "no plane on interdiction, no roll (17.1; reading interdiction_with_no_planes)"
    )
    return {
        hex_id: f"{p:.0%} that nobody enters ({why})"
        for hex_id in state.markers["german_reinforcement_hexes"]
    }


def roll_interdiction(state: GameState) -> tuple[GameState, dict[str, bool]]:
    """Roll the d10 of 17.1 for each German reinforcement hex, from the state's seeded generator.

    Returns the state after the draws and, for each hex, whether its reinforcements are kept out.
    """
    hexes = list(state.markers["german_reinforcement_hexes"])
    if not _rolls(state) or not hexes:
        return state, dict.fromkeys(hexes, False)
    planes = _planes(state)
    dice = state.rng().integers(*D10, size=len(hexes)).tolist()  # 0 to 9
    kept = {h: d <= planes for h, d in zip(hexes, dice, strict=True)}
    return state.after_draws(len(hexes)), kept


def interdiction_problem(state: GameState, value: object) -> str | None:
    """Say why ``value`` fighter-bombers cannot be on interdiction on ``state`` (17.1), or None."""
    limit = interdiction_limit(state)
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= limit:
        return (
            f"0 to {limit} fighter-bombers may go on interdiction on a {state.weather.lower()} day (17.1)"
            + ("; the first allocation is at 0700 on 7 June" if state.date < AIR_ALLOCATION_FROM else "")
        )
    return None


def set_interdiction(state: GameState, value: object) -> GameState:
    """Return ``state`` with ``value`` fighter-bombers on interdiction, or refuse more than 17.1 allows."""
    return state.evolve(
        fighter_bombers_on_interdiction=checked(state, "fighter_bombers_on_interdiction", value)
    )


# 17.1 Air Defense: terrain gives a value in its hex and the hexes next to it (one roll, the best terrain);
# units with an AA value reach 8 hexes (1 under a Barrage marker or when an enemy unit is next to them).
# The derived map has no Fortified hexes (the overlay's strongpoints are on the map only): Town and City
# carry their values.
TERRAIN_AIR_DEFENCE = {"Fortified": 5, "City": 4, "Town": 2}
AA_RANGE = 8


def air_defence(state: GameState, target_hex: str) -> dict[str, object]:
    """Return what may make a fighter-bomber striking ``target_hex`` abort (17.1).

    ``terrain``: the best terrain value in the hex or next to it, and the chance its one d10 roll (at or
    under the value) aborts the strike; ``aa_units``: the German units with an AA role in range (8 hexes,
    1 with an enemy unit next to them).  Their AA values are printed on the counters, not in the text, so
    their chances are not given.  Planes on interdiction are never fired on.
    """
    gmap = game_map(state.system)
    g = gmap.grid
    terrain = gmap.terrain.hexes["terrain"]
    around = [target_hex, *(g.canonical(n) for n in g.neighbors(target_hex))]
    # The best value; on a tie the target's own hex, then the lowest id.
    best = max((TERRAIN_AIR_DEFENCE.get(terrain[h], 0), h == target_hex, h) for h in around)
    best = (best[0], best[2])
    allied_at = {u.hex for u in state.units_of("allied")}
    aa = []
    for u in state.units_of("german"):
        if u.type != "flak":
            continue
        # 17.1: "subject to the FZ restrictions from an adjacent enemy Unit and Barrage markers (ie. range
        # is reduced to 1 hex)": either one alone cuts the reach.
        pressed = bool(u.attr("barrage")) or any(g.canonical(n) in allied_at for n in g.neighbors(u.hex))
        if g.distance(u.hex, target_hex) <= (1 if pressed else AA_RANGE):
            aa.append(u.id)
    return {
        "terrain": (
            f"{terrain[best[1]]} at {best[1]}: AD {best[0]}, aborts on a d10 (0-9) of {best[0]} or less "
            f"({at_or_under(best[0]):.0%}) (17.1)"
            if best[0]
            else "no terrain air defence (17.1)"
        ),
        "aa_units": sorted(aa),
        "aa_values": "on the counters, not in the text" if aa else "",
    }
