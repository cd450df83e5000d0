"""A game as the unit of extension: its key, title, map, rules and look, behind one handle.

A :class:`Game` is what :func:`normandy_lab.rules.register_game` registers.  Its ``key`` is what a
scenario's ``system:`` names and what a study is saved under; its ``map`` is the key of the map its states
are played on.  Several games may share a map (a variant of The Battle for Normandy registers under a key
of its own with ``map="bfn"``); a game on a map of its own brings it as :class:`MapData` (numbering scheme,
terrain vocabulary, control points), which registering the game registers in the core's tables, so the
grids, the terrain and the views find it by its key like the four maps the package ships.

A game is three parts behind the one handle, each its own object:

* its **rules** (a :class:`~normandy_lab.rules.base.RuleSet`): what the engine asks to play a state (time,
  zones of control, movement, supply, air, the edits of its markers);
* its **look** (a :class:`Look`): what the views draw and offer, and nothing the engine reads (counter
  glyphs and echelon marks, side colours, the words of the supply rings, the explorer's controls and
  sectors, which extra layers its map key lists, its marker side by side);
* its **format** (a :class:`~normandy_lab.rules.section.ScenarioFormat`): what a scenario file of the game
  may say (its schemas) and how its own section is read into the state's markers.

The rules, the look and the format may be given as functions that build them, so that a game's modules
load only when a state of that game is first made.  A variant of a game is its handle with a part replaced:
``dataclasses.replace(game("bfn"), key="bfn_wide", rules=wider)`` keeps BfN's map, look and format.  The
views reach a look through the registry, :func:`normandy_lab.rules.look` (by a state, a game's key or its
rules), never through the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from normandy_lab.grids.georef import ControlPoint
from normandy_lab.grids.numbering import Scheme
from normandy_lab.terrain.vocab import TerrainVocabulary

if TYPE_CHECKING:
    from normandy_lab.engine.state import GameState
    from normandy_lab.rules.base import RuleSet
    from normandy_lab.rules.section import ScenarioFormat

#: A view extent, (west, south, east, north) in degrees (WGS84).
Extent = tuple[float, float, float, float]


@dataclass(frozen=True)
class MapData:
    """A map a game brings with it: how its hexes are numbered, what its terrain is called, where it lies.

    Parameters
    ----------
    scheme
        The printed numbering (:class:`~normandy_lab.grids.numbering.Scheme`); its ``system`` is the map key.
    vocabulary
        The terrain words and their colours (:class:`~normandy_lab.terrain.vocab.TerrainVocabulary`), under
        the same key.
    control_points
        The hexes the game's rules tie to named places of the gazetteer (at least two marked ``"fit"``):
        they place the grid on the real geography.
    """

    scheme: Scheme
    vocabulary: TerrainVocabulary
    control_points: tuple[ControlPoint, ...]

    @property
    def key(self) -> str:
        """The map's key (the scheme's ``system``)."""
        return self.scheme.system

    def problem(self) -> str | None:
        """Say what makes this map's data unusable (parts under other keys, too few fit points), or None."""
        keys = {self.scheme.system, self.vocabulary.system, *(p.system for p in self.control_points)}
        if len(keys) > 1:
            return (
                f"the scheme, vocabulary and control points name different maps ({', '.join(sorted(keys))}); "
                "give them all the map's key"
            )
        if sum(p.use == "fit" for p in self.control_points) < 2:
            return f"the map {self.key!r} needs at least two control points marked use='fit' to be placed"
        return None


#: The counters' colours when a game's look gives none for a side: blue and red, as on most maps.
SIDE_COLOURS = {"allied": "#1f4e9e", "german": "#b22222"}

#: What each supply ring on a counter means when a game's look does not say (``RuleSet.supply_ring``).
RING_WORDS = {"full": "in supply", "out": "out of supply", "cut": "cut off"}


@dataclass(frozen=True)
class ControlSpec:
    """One input a game offers in the explorer, on one of the state's markers, and the edit it makes.

    ``kind`` says how it is shown: ``"points_per_map"`` is a whole number per map sheet (BfN's air and AA
    points, 11.1); the one-value kinds are ``"hex"``, ``"hexes"`` (hex ids apart by spaces), ``"flag"`` and
    ``"number"``, and ``"choices"`` (some of ``choices``, chosen together: GTS's three Supplied divisions,
    17.3).  Controls with the same ``edit_op`` are applied together by one button
    (``button``), as one edit ``{"op": edit_op, edit_field: value, ...}``; ``help`` is the sentence shown
    above them, its rule numbers linked to the rule notes.  The edit itself is the rules' (a marker edit is
    ``RuleSet.set_marker``, which refuses what the rules do not allow): a control only offers it.
    """

    key: str
    label: str
    rule: str
    kind: str
    edit_op: str
    edit_field: str
    button: str = "Apply"
    help: str = ""
    choices: tuple[str, ...] = ()  # the names a "choices" control offers


@dataclass(frozen=True)
class Look:
    """What the views show of a game beyond its rules: nothing here changes a verdict.

    A variant of a look is made with :func:`dataclasses.replace` and registered with its game
    (``register_game(replace(game("cobra"), key="cobra_grey", look=replace(look("cobra"), ...)))``).

    Parameters
    ----------
    sectors
        The explorer's named views ("Go to:"), name -> (west, south, east, north) in degrees; framing
        choices, not facts.  A game without any offers none.
    marker
        The marker shape its formations are drawn with side by side (a bokeh marker name: ``"circle"``,
        ``"square"`` ...); "" for the next shape no other game has.
    glyphs
        The label on each unit type's counter ("INF", "PARA"); a type without one shows its first letters.
    size_marks
        The echelon mark of each unit size ("II", "XX").
    side_colours
        The colour of each side's counters and formation symbols (:data:`SIDE_COLOURS` by default).
    ring_words
        What each supply ring on a counter means, for the map key ("full", "partial", "out", "cut"); which
        ring a unit gets is the rules' verdict (``RuleSet.supply_ring``), the words are the look's.
    controls
        The inputs the explorer offers for this game beside the core's (weather, edit modes), each a
        :class:`ControlSpec`.
    map_features
        What the game's supply report draws beyond units and lines that its map key lists: ``"zones"``
        (rule zones, KG's support radii) and ``"routes"`` (paths a rule tests, GTS's link-up).
    read_control
        ``read_control(state, key)``: what the control ``key`` shows now, for a control that is not one
        marker as it stands (KG's ``mulberry_A`` shows the ``mulberry`` marker's A); None: the marker of
        that name (:meth:`control_value`).
    reading_words
        A sentence for each value of each rule reading a verdict may rest on (the options where the
        rulebook is open), reading -> value -> words, so the panel says what the reading does instead of
        ``combat_supply_chain = own_army``; a reading without words is shown by its name and value.
    """

    sectors: Mapping[str, Extent] = field(default_factory=dict)
    marker: str = ""
    glyphs: Mapping[str, str] = field(default_factory=dict)
    size_marks: Mapping[str, str] = field(default_factory=dict)
    side_colours: Mapping[str, str] = field(default_factory=lambda: dict(SIDE_COLOURS))
    ring_words: Mapping[str, str] = field(default_factory=lambda: dict(RING_WORDS))
    controls: tuple[ControlSpec, ...] = ()
    map_features: frozenset[str] = frozenset()
    read_control: Callable[[GameState, str], Any] | None = None
    reading_words: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def control_value(self, state: GameState, key: str) -> Any:
        """Return what the explorer control ``key`` shows on ``state`` (by default the marker so named)."""
        if self.read_control is not None:
            return self.read_control(state, key)
        return state.markers.get(key)

    def side_colour(self, side: str) -> str:
        """Return the colour of ``side``'s counters (the default blue or red where the look gives none)."""
        return self.side_colours.get(side) or SIDE_COLOURS[side]

    def glyph(self, unit_type: str) -> str:
        """Return the label on a unit type's counter: the look's, else the type's first letters."""
        return self.glyphs.get(unit_type) or unit_type[:4].upper()


@dataclass(frozen=True, eq=False)
class Game:
    """One game: what a scenario's ``system:`` names, and everything the package needs to play it.

    Parameters
    ----------
    key
        The game's key, in scenario files and studies (``"bfn"``, ``"toy"``).
    title
        Its name, as the views show it.
    map
        The key of the map its states are played on: its own (then give ``map_data``) or a registered one.
    rules
        Its rule system, or a function that builds it when first asked.  ``rules.system`` must be ``map``.
    look
        Its :class:`Look`, or a function that builds it (None: no sectors, the next free marker).
    format
        Its :class:`~normandy_lab.rules.section.ScenarioFormat`, or a function that builds it (None: the
        core's scenario file, with no section of its own).
    map_data
        The map it brings (:class:`MapData`), registered with the game; or a function that returns it, for
        a map registered the first time a scheme or vocabulary of it is asked for (the shipped games: their
        maps stay in their packages until used); None for a map registered already.
    scenarios
        The folder of its scenario files (``<key>_<date>...yaml``), besides the package's ``scenarios/``:
        loadable by name, and read by :func:`normandy_lab.sidebyside.side_by_side`.
    scenario_kind
        The file kind of its scenarios, naming the JSON Schema in ``schemas/`` ("" for
        ``"scenario_<key>"``).
    opening
        The scenario its pages open on (a scenario name, as :func:`normandy_lab.load_scenario` takes it):
        the class server lists the game's explorer page (``class/explorer_<key>.ipynb``) with it
        (:func:`normandy_lab.views.classroom.game_pages`); "" for none: the game has no class page.
    supply_net
        A function ``(report, side)`` -> :class:`normandy_lab.rules.supply_net.SupplyNet`: the network its
        supply determination searched, which :func:`normandy_lab.supply_graph` turns into a networkx graph
        (built in the game's package, ``rules/<game>/graph.py``: :mod:`normandy_lab.rules.supply_net` says
        why); None: the game has none to export.
    """

    key: str
    title: str
    map: str
    rules: RuleSet | Callable[[], RuleSet]
    look: Look | Callable[[], Look] | None = None
    format: ScenarioFormat | Callable[[], ScenarioFormat] | None = None
    map_data: MapData | Callable[[], MapData] | None = None
    scenarios: Path | None = None
    scenario_kind: str = ""
    opening: str = ""
    supply_net: Callable[..., Any] | None = None

    @property
    def kind(self) -> str:
        """The file kind of the game's scenarios (``scenario_kind`` or ``"scenario_<key>"``)."""
        return self.scenario_kind or f"scenario_{self.key}"
