"""What a rule system provides to the engine: the contract every game fills.

A :class:`RuleSet` is data (the sequence of play, weather effects, supply
numbers, unit defaults, markers) and the verdicts a game gives its own way,
as methods with defaults that a game's class overrides (The Battle for
Normandy's: :class:`~normandy_lab.rules.bfn.BfnRules`).  :class:`RuleSystem`
names the same contract as a typed Protocol.  The engine core reads only this
interface.  What a game looks like (glyphs, colours, ring words, the
explorer's controls) is not here but in its :class:`~normandy_lab.rules.game.Look`,
and what its scenario files say in its
:class:`~normandy_lab.rules.section.ScenarioFormat`: both beside the rules on the
game's handle (:mod:`normandy_lab.rules.game`).

Why a base class with defaults rather than the separate time, weather and
zone-of-control objects first sketched: each of those is one or two methods
here, a game overrides only what differs from the defaults, and a variant made
with :func:`dataclasses.replace` keeps its class, so it plays everywhere a key
does (``docs/rule-systems.md``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from normandy_lab.engine.phase import Phase

if TYPE_CHECKING:
    from normandy_lab.engine.report import SupplyReport
    from normandy_lab.engine.state import GameState

@dataclass(frozen=True)
class SupplyState:
    """A supply state a rule system declares: a verdict every unit's report gives (BfN: General Supply)."""

    key: str  # the report's attribute: UnitSupply.general, .combat, .isolated
    label: str
    rule: str


# eq=False: a rule system is itself, compared and hashed by identity, so that it keys the caches of what
# is derived from it (edge costs, ranges) and a variant made with dataclasses.replace gets caches of its own.
# kw_only: every field is given by name, so a field with a default may stand anywhere and a game's class adds
# fields of its own (BfN's tables, rules/bfn/system.py) without the others passing empty ones.
@dataclass(frozen=True, eq=False, kw_only=True)
class RuleSet:
    """A game's rules as data, and the verdicts it gives its own way.

    ``system`` is the key of the map the states of these rules are on; ``variant`` names a variant made
    in code (``dataclasses.replace(rules, supply={...}, variant="wider ranges")``), "" for the game's own.
    Only what the engine asks of every game is here: the tables one game alone reads are fields of its own
    class (BfN's weather table, interdiction track, unit types, sizes and stacking: ``BfnRules``).
    """

    system: str
    title: str
    sequence: dict[str, tuple[Phase, ...]]
    weather_effects: dict[str, dict[str, Any]]
    historical_weather: dict[str, str]
    unit_defaults: dict[str, dict[str, Any]]
    supply: dict[str, Any]
    #: The turns of a day, in order, for the default :meth:`turn_order` (a game that overrides it needs none).
    turns: tuple[str, ...] = ()
    #: Movement costs by terrain and by road, for the games whose movement reads them (BfN; Cobra's roads).
    terrain_cost: dict[str, dict[str, float]] = field(default_factory=dict)
    road_cost: dict[str, float] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    campaign: tuple[str, str] = ("1944-06-06", "1944-08-20")
    calendar: tuple[CalendarEntry, ...] = ()
    #: One line in plain words per rule number the engine cites (shown beside the number).
    rule_notes: dict[str, str] = field(default_factory=dict)
    #: The rule numbers behind the ideas the views explain, by idea ("control", "zoc",
    #: "unit_supply_range", "combat_supply_chain", "air_allocation", "air_interdiction", "enemy_hex": the
    #: rule that bars an enemy-occupied hex to movement), so that
    #: views cite each game's own rules without naming any.
    rule_refs: dict[str, str] = field(default_factory=dict)
    #: What a state of this game keeps beside its units, with the defaults (``GameState.markers``).
    markers: dict[str, Any] = field(default_factory=dict)
    #: The supply states every unit's report gives, the first the one that counts as "in supply".
    supply_states: tuple[SupplyState, ...] = (SupplyState("general", "in supply", ""),)
    #: The off-map boxes of the game, by name (none by default): where units may stand off the map.
    boxes: dict[str, OffMapBox] = field(default_factory=dict)
    #: Hexsides (``"A|B"``, the two hexes in order) whose bridges the rulebook itself names (a set-up's
    #: destroyed bridges) where the map derived from geography has none: a scenario may list them as
    #: destroyed (the loader refuses any other hexside without a bridge).
    bridges_named_by_the_rules: frozenset[str] = frozenset()
    #: Why no bridge, standing or destroyed, changes this game's supply, with the rules behind it; "" where a
    #: bridge can (the default: a cut is then judged by the game's own determination, as any other).  A game
    #: whose lines cross any water declares it, and the interdiction study refuses bridge cuts in its words
    #: rather than reporting a search that found "+0" (``docs/studies.md``).
    no_bridge_effect: str = ""
    #: Markers that are lists whose order no rule reads (BfN's beachheads, KG's Weapons Nests): a state's
    #: fingerprint sorts them, so a scenario with them written in another order is the same state.
    unordered_markers: frozenset[str] = frozenset()
    variant: str = ""
    #: The fields of a state this game's supply determination never reads (BfN: the phase, the dice and the
    #: log of edits): two states shown by a session that differ in these alone get one determination, its
    #: reasons worked out once (:func:`normandy_lab.engine.supply.supply`).  None by default: a game whose
    #: supply may read every field (a phase that changes a ZOC or a source) is determined for every state.
    supply_ignores: ClassVar[frozenset[str]] = frozenset()

    # -- the verdicts a game gives its own way (a game's class overrides them) ----------------

    def turn_order(self, date: Any) -> tuple[str, ...]:
        """Return the turns of a date, in order (by default every turn of :attr:`turns`)."""
        return self.turns

    def turn_problem(self, date: Any, turn: str) -> tuple[str, str] | None:
        """Say why ``turn`` cannot be played on ``date`` (what is wrong, how to fix it), or None."""
        if turn not in self.turn_order(date):
            return f"there is no {turn!r} turn on {date}", f"use one of {', '.join(self.turn_order(date))}"
        return None

    def next_date(self, date: Any) -> Any:
        """Return the date the turn after the last one of ``date`` begins on (the next day by default)."""
        import datetime as dt

        return date + dt.timedelta(days=1)

    def new_day(self, state: GameState, date: Any) -> GameState:
        """Return the state at the start of ``date``: its first turn, and its historical weather if known."""
        weather = self.historical_weather.get(date.isoformat(), state.weather)
        return state.evolve(date=date, turn=self.turn_order(date)[0], phase_index=0, weather=weather)

    def enter_phase(self, state: GameState) -> GameState:
        """Return ``state`` as its phase begins, with what the phase does to it (nothing by default)."""
        return state

    def unit_arrives(self, state: GameState, unit: Any) -> tuple[GameState, Any]:
        """Return the state and the unit as a unit is added to play (what arriving does; nothing by default).

        The Killing Ground rolls a German mechanized reinforcement's supply as it is placed (26.16.2).
        """
        return state, unit

    def phase_results(self, state: GameState, phase: Phase) -> dict[str, Any]:
        """Compute what ``phase`` does on ``state``, for display (nothing by default)."""
        return {}

    def exerts_zoc(self, unit: Any) -> bool:
        """Tell whether ``unit`` exerts a zone of control (every unit by default)."""
        return True

    def zoc_exempt(self, state: GameState) -> frozenset[str]:
        """Return the ids of units that exert no zone of control on this state, whatever they are (none)."""
        return frozenset()

    def negates_ezoc(self, unit: Any) -> bool:
        """Tell whether ``unit`` negates an enemy zone of control in its hex for supply lines (all do)."""
        return True

    def zoc_crosses(self, edges: Any) -> Any:
        """Return, per directed edge of the map (``network.edge_arrays``), whether a ZOC extends along it.

        By default every land hexside carries it: not an all-sea hexside.
        """
        return ~edges.all_sea

    def movement_allowance(self, state: GameState, unit: Any, in_supply: bool, isolated: bool) -> float:
        """Return a unit's movement allowance now (its printed or default MA, by default)."""
        return float(unit.ma if unit.ma is not None else self.unit_defaults.get(unit.type, {}).get("ma", 0))

    def movement_costs(self, state: GameState, unit: Any, in_supply: bool, ma: float) -> MoveCosts:
        """Return what each step between adjacent hexes costs ``unit`` now (NaN: it may not take it).

        By default one MP a hex whatever the terrain; a game gives its Terrain Effects Chart.  ``ma`` is
        the unit's allowance now (a cost of "all of it" is that).
        """
        from normandy_lab.grids import grid
        from normandy_lab.network import edge_arrays

        e = edge_arrays(self.system)
        none = np.zeros(len(e.src), dtype=bool)
        label = np.full(len(grid(self.system)), "", dtype=object)
        return MoveCosts(np.ones(len(e.src)), label, e.road > 0, none, np.full(len(e.src), "", dtype=object))

    def leaving_ezoc_cost(self, state: GameState, unit: Any, holding: bool) -> float | None:
        """Return the extra MP a unit pays to leave an enemy zone of control, or None if it may not (free)."""
        return 0.0

    def disengaging(self, state: GameState, unit: Any) -> Disengaging:
        """Return how a move that leaves an enemy zone of control goes on (:class:`Disengaging`)."""
        return Disengaging()

    def supply_ring(self, row: Any) -> str:
        """Return the ring a unit's supply report gets on its counter: full, partial, out or cut.

        A rules verdict, not the look's: which of the game's supply states a unit's report amounts to (BfN's
        full ring needs Combat Supply too, 7.6.1).  What each ring is called is the look's ``ring_words``.
        """
        if row.general:
            return "full"
        return "cut" if row.isolated else "out"

    def air_regions(self, state: GameState) -> list[AirRegion]:
        """Return the areas air power acts on today, with what it does there (none by default)."""
        return []

    def air_ma_penalty(self, state: GameState, unit: Any) -> float:
        """Return the movement points air interdiction takes from ``unit`` now (none by default)."""
        return 0.0

    def unit_strength(self, state: GameState, unit: Any, in_supply: bool) -> tuple[int, int]:
        """Return a unit's (attack, defense) as shown, after what supply does to it (printed by default)."""
        return int(unit.attack or 0), int(unit.defense or 0)

    def set_marker(self, state: GameState, name: str, value: Any) -> GameState:
        """Return ``state`` with one of the game's markers set, as its rules allow (an analyst's edit).

        By default no marker may be set by an edit; a game names those it lets the analyst change and
        refuses a value its rules do not allow (``RefusedError``, saying why).  This stays with the rules,
        not the look: what an edit may change and what it does (Cobra's boundary moving a column a turn,
        KG's Fortress declared once) are rules; the look's controls only offer the edit.
        """
        from normandy_lab.errors import RefusedError

        raise RefusedError(no_marker_edit(self.title or self.system, name))

    def move_stops(self, state: GameState, unit: Any) -> Any:
        """Return the hexes where ``unit``'s move must end besides enemy zones of control (None: none)."""
        return None

    def forbidden_steps(self, state: GameState, unit: Any) -> set[tuple[int, int]] | None:
        """Return the steps (from, to hex index) ``unit`` may not take now, beyond its costs (None: none)."""
        return None

    def end_problem(self, state: GameState, unit: Any, hex_index: int) -> str | None:
        """Say why ``unit`` may pass through but not end its move in a hex (None: it may)."""
        return None

    def open_enemy_hexes(self, state: GameState, unit: Any) -> Any:
        """Return the enemy-occupied hexes ``unit`` may enter all the same (a mask by hex; None: none)."""
        return None

    def after_move(self, state: GameState, unit_id: str, path: list[str]) -> GameState:
        """Return ``state`` after what a move along ``path`` does beyond placing the unit (nothing)."""
        return state

    def unit_problem(self, entry: Any) -> tuple[str, str, str] | None:
        """Say what is wrong with one unit's entry that its schema cannot: (field, problem, fix), or None.

        A rules check, not the file format's (BfN 3.4, Cobra 8.5: the steps a unit of its size may have): it
        holds for a unit an ``add_unit`` edit adds as much as for one a scenario file lists.
        """
        return None

    def units_problem(self, data: Any, units: list[Any]) -> tuple[int, str, str, str] | None:
        """Say what is wrong with a scenario's units together: (entry index, field, problem, fix), or None.

        ``data`` is the line-aware mapping of the file, ``units`` its units in file order.  A rules check
        like :meth:`unit_problem` (BfN 6.0 stacking, 7.2 a division's HQ), made on an added unit too.
        """
        return None

    def determine_supply(self, state: GameState) -> SupplyReport:
        """Determine the supply of every unit of ``state`` with the reasons (one schema for all games)."""
        raise NotImplementedError(f"the {self.title or self.system} rules determine no supply yet")


@dataclass(frozen=True)
class OffMapBox:
    """A place off the map a game's units may stand in and its lines may reach.

    The Killing Ground's off-map movement areas (26.10.7) and holding boxes are such places: a name, the
    map hexes it is entered by, its rule.  In a search it is a virtual node of the core's
    :class:`~normandy_lab.engine.layered.LayeredGraph`, joined to its entry hexes
    (:func:`normandy_lab.engine.layered.box_links`).
    """

    name: str
    entries: tuple[str, ...]
    rule: str = ""
    side: str | None = None  # the side whose box it is (None: either)


@dataclass(frozen=True)
class MoveCosts:
    """What every directed edge of a map costs one unit to move along, and how to say it.

    ``cost`` is in MP per edge (:func:`normandy_lab.network.edge_arrays` order; NaN: prohibited);
    ``label`` names each hex's terrain (by hex), ``on_road`` / ``on_rail`` mark edges taken along a
    road or railway, ``feature`` names the water an edge crosses ("" where none): the notes of a path.
    """

    cost: Any
    label: Any
    on_road: Any
    on_rail: Any
    feature: Any


@dataclass(frozen=True)
class Disengaging:
    """How a move that starts in an enemy zone of control goes on, beyond what leaving it costs.

    Every game forbids the step from one enemy zone of control straight into another.  Beyond that:

    ``one_hex_minimum``
        Whether the one-hex move that ignores the allowance still applies to a unit leaving an
        EZOC (BfN 10.3: yes; Cobra 5.0: "unless in an EZOC").
    ``reenter``
        Whether the unit may enter (and stop in) another EZOC later in the same move (Cobra 5.5a: no).
    ``always_into``
        Hexes (a boolean mask by hex) the unit may always step into from its first hex, whatever its
        allowance, ending its move there (Cobra 5.5's German bocage exception); None: none.
    """

    one_hex_minimum: bool = True
    reenter: bool = True
    always_into: Any = None


@dataclass(frozen=True)
class AirRegion:
    """An area air power acts on, as a rule system gives it: a whole map sheet, or a list of hexes.

    ``allied`` and ``against`` are the points flown and opposed there; ``penalty`` what it costs the enemy
    (BfN: MP off German movement, 11.2); ``effect`` the same in words, with the rule.
    """

    label: str
    rule: str
    effect: str
    penalty: float = 0.0
    sheet: str | None = None
    hexes: tuple[str, ...] = ()
    allied: int = 0
    against: int = 0


@dataclass(frozen=True)
class CalendarEntry:
    """A date-triggered rule: what holds from ``start`` to ``end`` (inclusive) and where the rule says so.

    ``effect`` names what the engine does with it (``""`` when it is shown only).
    """

    start: str
    end: str
    event: str
    rules: str
    effect: str = ""


def no_marker_edit(title: str, name: Any, settable: tuple[str, ...] = (), more: str = "") -> str:
    """Say that a ``marker`` edit cannot set ``name`` under the game ``title``, and what to do instead.

    ``settable`` are the names an edit may set, listed nearest to ``name`` first (``more`` adds to the
    list); a game with none says so, and names the edits that do change its situation.
    """
    import difflib

    if not settable:
        return (
            f"{title} lets no edit set {name!r}: its rules keep no marker an edit may set; change the "
            "situation with the other edits (move, weather, air, destroy_bridge, repair_bridge, interdict, "
            "clear_interdiction, add_unit, remove_unit, next_phase)"
        )
    ranked = difflib.get_close_matches(str(name), settable, n=len(settable), cutoff=0)
    close = difflib.get_close_matches(str(name), settable, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    listed = ", ".join(ranked)
    return f"{title} lets no edit set {name!r}; {hint}it lets an edit set, nearest first: {listed}{more}"


@runtime_checkable
class RuleSystem(Protocol):
    """The contract of a rule system, for type checkers: what the engine and the views ask of a game."""

    system: str
    title: str
    sequence: dict[str, tuple[Phase, ...]]
    weather_effects: dict[str, dict[str, Any]]
    markers: dict[str, Any]
    supply_states: tuple[SupplyState, ...]

    def turn_order(self, date: Any) -> tuple[str, ...]:
        """See :meth:`RuleSet.turn_order`."""

    def turn_problem(self, date: Any, turn: str) -> tuple[str, str] | None:
        """See :meth:`RuleSet.turn_problem`."""

    def next_date(self, date: Any) -> Any:
        """See :meth:`RuleSet.next_date`."""

    def new_day(self, state: GameState, date: Any) -> GameState:
        """See :meth:`RuleSet.new_day`."""

    def enter_phase(self, state: GameState) -> GameState:
        """See :meth:`RuleSet.enter_phase`."""

    def unit_arrives(self, state: GameState, unit: Any) -> tuple[GameState, Any]:
        """See :meth:`RuleSet.unit_arrives`."""

    def phase_results(self, state: GameState, phase: Phase) -> dict[str, Any]:
        """See :meth:`RuleSet.phase_results`."""

    def exerts_zoc(self, unit: Any) -> bool:
        """See :meth:`RuleSet.exerts_zoc`."""

    def zoc_exempt(self, state: GameState) -> frozenset[str]:
        """See :meth:`RuleSet.zoc_exempt`."""

    def negates_ezoc(self, unit: Any) -> bool:
        """See :meth:`RuleSet.negates_ezoc`."""

    def zoc_crosses(self, edges: Any) -> Any:
        """See :meth:`RuleSet.zoc_crosses`."""

    def movement_allowance(self, state: GameState, unit: Any, in_supply: bool, isolated: bool) -> float:
        """See :meth:`RuleSet.movement_allowance`."""

    def movement_costs(self, state: GameState, unit: Any, in_supply: bool, ma: float) -> MoveCosts:
        """See :meth:`RuleSet.movement_costs`."""

    def leaving_ezoc_cost(self, state: GameState, unit: Any, holding: bool) -> float | None:
        """See :meth:`RuleSet.leaving_ezoc_cost`."""

    def disengaging(self, state: GameState, unit: Any) -> Disengaging:
        """See :meth:`RuleSet.disengaging`."""

    def supply_ring(self, row: Any) -> str:
        """See :meth:`RuleSet.supply_ring`."""

    def air_regions(self, state: GameState) -> list[AirRegion]:
        """See :meth:`RuleSet.air_regions`."""

    def air_ma_penalty(self, state: GameState, unit: Any) -> float:
        """See :meth:`RuleSet.air_ma_penalty`."""

    def unit_strength(self, state: GameState, unit: Any, in_supply: bool) -> tuple[int, int]:
        """See :meth:`RuleSet.unit_strength`."""

    def set_marker(self, state: GameState, name: str, value: Any) -> GameState:
        """See :meth:`RuleSet.set_marker`."""

    def move_stops(self, state: GameState, unit: Any) -> Any:
        """See :meth:`RuleSet.move_stops`."""

    def forbidden_steps(self, state: GameState, unit: Any) -> set[tuple[int, int]] | None:
        """See :meth:`RuleSet.forbidden_steps`."""

    def end_problem(self, state: GameState, unit: Any, hex_index: int) -> str | None:
        """See :meth:`RuleSet.end_problem`."""

    def open_enemy_hexes(self, state: GameState, unit: Any) -> Any:
        """See :meth:`RuleSet.open_enemy_hexes`."""

    def after_move(self, state: GameState, unit_id: str, path: list[str]) -> GameState:
        """See :meth:`RuleSet.after_move`."""

    def unit_problem(self, entry: Any) -> tuple[str, str, str] | None:
        """See :meth:`RuleSet.unit_problem`."""

    def units_problem(self, data: Any, units: list[Any]) -> tuple[int, str, str, str] | None:
        """See :meth:`RuleSet.units_problem`."""

    def determine_supply(self, state: GameState) -> SupplyReport:
        """See :meth:`RuleSet.determine_supply`."""
