"""The games, found by key in one registry: each game's rules, map and look behind one handle.

``get("bfn")`` returns The Battle for Normandy's rules; :func:`game` its whole :class:`Game` (key, title,
map, rules, look, scenario format, the scenario its pages open on, the builder of its supply network);
:func:`games` every one, for the modules that list the games (the class pages, the side-by-side tables),
and :func:`default_game` the one a function that names no game falls back on.  A game made in code, on a
map of its own or on one it shares (a variant of BfN on BfN's map, under a key of its own), is registered
with :func:`register_game` (and removed with :func:`unregister_game`); :func:`register` still registers
a bare rule system under a key.  A scenario file names a game's key in ``system:``, and is checked against
:func:`scenario_schema`: its game's format's schema, accepting every registered game that reads that format
(``system: bfn_wide`` for the variant above).  A rule system may also be given to a state with
:meth:`GameState.with_rules <normandy_lab.engine.state.GameState.with_rules>`; everything that takes a
game's key also takes a rule system object.

The four games the package ships are registered at the end of this module, each by functions that import
the game's package only when a state of it is first made, or its map first asked for: each game's map
(numbering scheme, terrain vocabulary) is data in its package (``rules/<game>/map.py``), and this registry
is where the core's tables (``grids.numbering.SCHEMES``, ``terrain.vocab.VOCABULARIES``) find it.  This
module and its loaders are the only place that imports a game's package (``.importlinter``); the core
imports this module, by a plain import, to ask for a game (docs/architecture.md, "The registry and the one
cycle").
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal, TypeVar, get_args, get_origin

from normandy_lab.errors import RefusedError
from normandy_lab.grids.numbering import add_map_source
from normandy_lab.rules.base import CalendarEntry, OffMapBox, Phase, RuleSet, RuleSystem
from normandy_lab.rules.game import Game, Look, MapData

if TYPE_CHECKING:
    from normandy_lab.engine.report import SupplyReport
    from normandy_lab.rules.supply_net import SupplyNet
from normandy_lab.rules.section import ScenarioFormat

# key -> the rule system, or a function that builds it when first asked (a game's module loads then).
_REGISTRY: dict[str, RuleSet | Callable[[], RuleSet]] = {}
# key -> the game registered under it (its map, look, scenarios); a key registered with `register` alone
# has none here, and `game` describes it from its rules.
_GAMES: dict[str, Game] = {}
# key -> the look, once built.
_LOOKS: dict[str, Look] = {}
# key -> the scenario format, once built.
_FORMATS: dict[str, ScenarioFormat] = {}
#: A game's look or format, as :func:`_built_once` keeps it.
_Part = TypeVar("_Part")


def register_game(game: Game) -> None:
    """Register a game under its key, replacing any before it; a map it brings is registered with it.

    The map's numbering scheme, terrain vocabulary and control points go to the core's tables
    (:func:`~normandy_lab.grids.numbering.register_scheme`,
    :func:`~normandy_lab.terrain.vocab.register_vocabulary`,
    :func:`~normandy_lab.grids.georef.register_control_points`), so the grids, the terrain and the views
    find the map by its key.

    Raises
    ------
    RefusedError
        For a key that is not a short lower-case name, map data under another key than ``game.map`` or
        unusable (:meth:`MapData.problem`), or a map neither brought nor registered.
    """
    from normandy_lab.grids.numbering import SCHEMES

    if not game.key or not game.key.replace("_", "").isalnum() or game.key != game.key.lower():
        raise RefusedError(
            f"a game's key is a short lower-case name like 'toy' or 'bfn_wide'; got {game.key!r}"
        )
    if callable(game.map_data):
        pass  # registered when the map is first asked for (_load_map), not now: the game's package waits
    elif game.map_data is not None:
        problem = game.map_data.problem()
        if game.map_data.key != game.map:
            problem = f"the map data is for the map {game.map_data.key!r}, the game plays on {game.map!r}"
        if problem:
            raise RefusedError(f"game {game.key!r}: {problem}")
        _register_map(game.map_data)
    elif game.map not in _loadable_maps() and game.map not in SCHEMES:
        raise RefusedError(
            f"game {game.key!r} plays on the map {game.map!r}, which is not registered; give its MapData "
            f"(map_data=...) or play on a registered map ({', '.join(SCHEMES)})"
        )
    _GAMES[game.key] = game
    _REGISTRY[game.key] = game.rules
    _LOOKS.pop(game.key, None)
    _FORMATS.pop(game.key, None)


def _register_map(data: MapData) -> None:
    """Register a map's scheme, vocabulary and control points in the core's tables."""
    from normandy_lab.grids.georef import control_points, register_control_points
    from normandy_lab.grids.numbering import register_scheme
    from normandy_lab.terrain.vocab import register_vocabulary

    register_scheme(data.scheme)
    register_vocabulary(data.vocabulary)
    # A shipped map's control points are the grid files' (maps/grids/control_points.yaml), held already.
    if data.control_points != control_points(data.key):
        register_control_points(data.key, data.control_points)


def _loadable_maps() -> list[str]:
    """Return the keys of the maps registered games bring by a function (not registered until asked)."""
    return list(dict.fromkeys(g.map for g in _GAMES.values() if callable(g.map_data)))


def _load_map(key: str) -> None:
    """Register the map ``key``: the first game on it that brings it by a function builds it.

    Raises
    ------
    RefusedError
        For map data under another key, or unusable (:meth:`MapData.problem`).
    """
    held = next(g for g in _GAMES.values() if g.map == key and callable(g.map_data))
    assert callable(held.map_data)
    data = held.map_data()
    problem = data.problem()
    if data.key != key:
        problem = f"the map data is for the map {data.key!r}, the game plays on {key!r}"
    if problem:
        raise RefusedError(f"game {held.key!r}: {problem}")
    _register_map(data)


# The core's tables of maps ask this registry for a map they do not hold yet (a shipped game's, built by
# its function); added before any game is registered, so a look-up while this module loads finds it.
add_map_source(_loadable_maps, _load_map)


def register(rules: RuleSet | Callable[[], RuleSet], key: str | None = None) -> None:
    """Register a rule system under ``key`` (by default its own ``system``), replacing any before it.

    ``rules`` may be a function that returns the rule system, so that a game's
    module is imported only when a state of that game is first made.  A game registered under ``key``
    keeps its map and look (its rules are replaced); see :func:`register_game` for a whole game.
    """
    if key is None:
        if not isinstance(rules, RuleSet):
            raise RefusedError("give the key of a function that builds a rule system: register(f, key=...)")
        key = rules.system
    _REGISTRY[key] = rules
    if key in _GAMES:
        _GAMES[key] = replace(_GAMES[key], rules=rules)


def get(system: str | RuleSet) -> RuleSet:
    """Return the rule system of ``system``: a game's key (``"bfn"``), or a rule system object, as it is.

    A map's key no game is registered under gives the first game registered on that map.

    Raises
    ------
    NotImplementedError
        For a key no rule system is registered under; the message lists those that are.
    RefusedError
        For a game whose rules play on another map than the game says.
    """
    if isinstance(system, RuleSet):
        return system
    entry = _REGISTRY.get(system)
    if entry is None:
        on_map = [g.key for g in _GAMES.values() if g.map == system and g.key in _REGISTRY]
        if on_map:
            return get(on_map[0])
        raise NotImplementedError(
            f"the {system!r} rules are not implemented yet; the registered rule systems are "
            f"{', '.join(available()) or 'none'}"
        )
    if not isinstance(entry, RuleSet):
        builder, entry = entry, entry()
        held = _GAMES.get(system)
        # (a builder put in the registry by hand, not the game's own, is trusted as given)
        if held is not None and held.rules is builder and entry.system != held.map:
            raise RefusedError(
                f"game {system!r} plays on the map {held.map!r} but its rules' system is {entry.system!r}; "
                "make them agree (the rules' `system` is the map key)"
            )
        _REGISTRY[system] = entry
    return entry


def game(key: str) -> Game:
    """Return the game registered under ``key`` (a game's key, or a map's: the first game on it).

    A key registered with :func:`register` alone is described from its rules (title, map).

    Raises
    ------
    NotImplementedError
        For a key no game is registered under, listing those that are.
    """
    if key in _GAMES:
        return _GAMES[key]
    rules = get(key)  # raises for an unknown key; a map's key gives its first game's rules
    for held in _GAMES.values():
        if held.map == key and _REGISTRY.get(held.key) is rules:
            return held
    return Game(key=key, title=rules.title, map=rules.system, rules=rules)


def games() -> list[Game]:
    """Return every registered game, in the order of :func:`available`."""
    return [game(key) for key in available()]


def _shown_game(source: object) -> Game | None:
    """Return the registered game whose look and format ``source`` has (see :func:`look`), or None."""
    if isinstance(source, Game):
        source = source.key
    elif isinstance(source, RuleSet):
        rules = source
        source = next((k for k, entry in _REGISTRY.items() if entry is rules), rules.system)
    elif not isinstance(source, str):
        source = source.game  # type: ignore[attr-defined]  # a GameState: the key of the game it is in
    held = game(source)
    if held.key in _GAMES:
        return held
    # registered with `register` alone: shown and read as the first game registered on its map
    return next((g for g in _GAMES.values() if g.map == held.map and g.key in _REGISTRY), None)


def look(source: object) -> Look:
    """Return how a game is shown (:class:`Look`): the views' one way to it, never through its rules.

    ``source`` is a game's or a map's key, a state (the look of the game it is played in: ``state.game``),
    a rule system (its registered game's; a variant made with :func:`dataclasses.replace` is shown as the
    game on its map), a :class:`Game` or a :class:`Look` (as it is).  A key registered with
    :func:`register` alone is shown as the first game registered on its map; else an empty :class:`Look`.
    """
    if isinstance(source, Look):
        return source
    held = _shown_game(source)
    if held is None:
        return Look()
    return _built_once(_LOOKS, held.key, held.look, Look)


def scenario_format(source: object) -> ScenarioFormat:
    """Return a game's scenario file format (:class:`~normandy_lab.rules.section.ScenarioFormat`).

    ``source`` is what :func:`look` takes (a key, a state, a rule system, a :class:`Game`), or a format (as
    it is).  A game that gives none reads the core's scenario file, with no section of its own.
    """
    if isinstance(source, ScenarioFormat):
        return source
    held = _shown_game(source)
    if held is None:
        return ScenarioFormat()
    return _built_once(_FORMATS, held.key, held.format, ScenarioFormat)


def _built_once(cache: dict[str, _Part], key: str, given: Any, empty: Callable[[], _Part]) -> _Part:
    """Return a game's part (its look or its format) as given, or built by the function given, once a key.

    A game that gives none gets ``empty()``.
    """
    if key not in cache:
        built = given() if callable(given) else given
        cache[key] = built if built is not None else empty()
    return cache[key]


def scenario_schema(key: str) -> Any:
    """Return the model a scenario file naming ``key`` in ``system:`` is checked against.

    It is the game's format's scenario schema (``ScenarioFormat.scenario_schema``), whose ``system`` field
    accepts the key of every registered game that reads that format: a variant of BfN registered as
    ``bfn_wide`` with BfN's format reads ``system: bfn_wide`` as BfN's files read ``system: bfn``.  The keys
    are the registry's now, not the schema's literal; while the format serves only its own game the schema
    is returned as it is, so the JSON Schemas exported for the shipped games do not change.

    Raises
    ------
    NotImplementedError
        For a key no game is registered under.
    """
    if key not in _REGISTRY and key not in _GAMES:
        get(key)  # raises, naming the registered games
    file_format = scenario_format(key)
    return _keyed_schema(file_format.scenario_schema(), _format_keys(key, file_format))


def _format_keys(key: str, file_format: ScenarioFormat) -> tuple[str, ...]:
    """Return the registered keys whose scenario files ``file_format`` (``key``'s format) reads.

    A game's format entry is compared as registered (the same object or the same function that builds it:
    a variant made with :func:`dataclasses.replace` keeps BfN's), so no other game's format is built.
    """
    entry = _GAMES[key].format if key in _GAMES else None
    keys = []
    for other in available():
        held = _GAMES.get(other)
        if other == key or _FORMATS.get(other) is file_format:
            keys.append(other)
        elif held is not None:
            if held.format is not None and (held.format is entry or held.format is file_format):
                keys.append(other)
        elif scenario_format(other) is file_format:  # registered with `register` alone: its map's game's
            keys.append(other)
    return tuple(keys)


def _keyed_schema(schema: Any, keys: tuple[str, ...]) -> Any:
    """Return ``schema`` with its ``system`` field accepting ``keys`` (itself when it accepts just those).

    A schema whose ``system`` is not a choice of keys (the core's: any text) is returned as it is.
    """
    annotation = schema.model_fields["system"].annotation
    if get_origin(annotation) is not Literal or set(get_args(annotation)) == set(keys):
        return schema
    return _schema_for_keys(schema, tuple(sorted(keys)))


@functools.lru_cache(maxsize=32)
def _schema_for_keys(schema: Any, keys: tuple[str, ...]) -> Any:
    """Return a subclass of ``schema`` whose ``system`` is one of ``keys`` (kept: one model per key set)."""
    # In the function: pydantic loads with the first file read, not with the registry (as the loader's).
    from pydantic import create_model

    choices: Any = Literal[keys]  # a type built at run time: Any to a type checker
    return create_model(  # same name, title and description: the file kind is the same
        schema.__name__, __base__=schema, __doc__=schema.__doc__, system=(choices, ...)
    )


def unregister_game(key: str) -> None:
    """Remove the game (or bare rule system) registered under ``key``; a key not registered is ignored.

    For a game added for a while (a test's, a class's variant): its map stays registered, since other
    games may play on it.  A state of the game already made keeps its key, and its rules are refused
    (``NotImplementedError``) until the game is registered again.
    """
    _GAMES.pop(key, None)
    _REGISTRY.pop(key, None)
    _LOOKS.pop(key, None)
    _FORMATS.pop(key, None)


def default_game() -> Game:
    """Return the game a function falls back on when none is named: the first one registered.

    The package registers The Battle for Normandy first (the end of this module), so a caller that names
    no game (``historical_scenarios()``, the grid viewer) gets its scenarios and map.

    Raises
    ------
    NotImplementedError
        When no game is registered.
    """
    if _GAMES:
        return next(iter(_GAMES.values()))
    return game(next(iter(_REGISTRY), ""))


def available() -> list[str]:
    """Return the keys of the registered games (rule systems)."""
    return sorted(_REGISTRY)


def ruleset(system: str | RuleSet) -> RuleSet:
    """Return the rule system of ``system`` (the same as :func:`get`, under its older name)."""
    return get(system)


def scenario_kind(key: str) -> str:
    """Return the file kind of a game's scenarios (``Game.kind``: ``"scenario_<key>"`` unless it says).

    The JSON Schemas in ``schemas/`` are named after it (``schemas/scenario_kg.schema.json``).
    """
    held = _GAMES.get(key)
    return held.kind if held is not None else f"scenario_{key}"


# -- the games the package ships: each its package's rules and look, loaded when first asked -------------


def _bfn() -> RuleSet:
    from normandy_lab.rules.bfn import BFN_RULES

    return BFN_RULES


def _bfn_look() -> Look:
    from normandy_lab.rules.bfn import LOOK

    return LOOK


def _bfn_format() -> ScenarioFormat:
    from normandy_lab.rules.bfn import FORMAT

    return FORMAT


def _bfn_map() -> MapData:
    from normandy_lab.rules.bfn import MAP_DATA

    return MAP_DATA


def _cobra() -> RuleSet:
    from normandy_lab.rules.cobra import COBRA_RULES

    return COBRA_RULES


def _cobra_look() -> Look:
    from normandy_lab.rules.cobra import LOOK

    return LOOK


def _cobra_format() -> ScenarioFormat:
    from normandy_lab.rules.cobra import FORMAT

    return FORMAT


def _cobra_map() -> MapData:
    from normandy_lab.rules.cobra import MAP_DATA

    return MAP_DATA


def _kg() -> RuleSet:
    from normandy_lab.rules.kg import KG_RULES

    return KG_RULES


def _kg_look() -> Look:
    from normandy_lab.rules.kg import LOOK

    return LOOK


def _kg_format() -> ScenarioFormat:
    from normandy_lab.rules.kg import FORMAT

    return FORMAT


def _kg_map() -> MapData:
    from normandy_lab.rules.kg import MAP_DATA

    return MAP_DATA


def _gts() -> RuleSet:
    from normandy_lab.rules.gts import GTS_RULES

    return GTS_RULES


def _gts_look() -> Look:
    from normandy_lab.rules.gts import LOOK

    return LOOK


def _gts_format() -> ScenarioFormat:
    from normandy_lab.rules.gts import FORMAT

    return FORMAT


def _gts_map() -> MapData:
    from normandy_lab.rules.gts import MAP_DATA

    return MAP_DATA


# Each shipped game's supply network for nl.supply_graph, built in its package (rules/<game>/graph.py;
# rules/supply_net.py says why): imported when a graph is first asked for.


def _bfn_net(report: SupplyReport, side: str) -> SupplyNet:
    from normandy_lab.rules.bfn.graph import supply_net

    return supply_net(report, side)


def _cobra_net(report: SupplyReport, side: str) -> SupplyNet:
    from normandy_lab.rules.cobra.graph import supply_net

    return supply_net(report, side)


def _kg_net(report: SupplyReport, side: str) -> SupplyNet:
    from normandy_lab.rules.kg.graph import supply_net

    return supply_net(report, side)


def _gts_net(report: SupplyReport, side: str) -> SupplyNet:
    from normandy_lab.rules.gts.graph import supply_net

    return supply_net(report, side)


# Each game's class page (class/explorer_<key>.ipynb) opens on one of its scenarios (Game.opening).
# The first game's scenarios keep the plain file kind "scenario" (schemas/scenario.schema.json).
register_game(
    Game(
        "bfn", "The Battle for Normandy", "bfn", _bfn, _bfn_look, _bfn_format, map_data=_bfn_map,
        scenario_kind="scenario", opening="bfn_1944-06-13_am", supply_net=_bfn_net,
    )
)  # fmt: skip
register_game(
    Game(
        "cobra", "Cobra", "cobra", _cobra, _cobra_look, _cobra_format, map_data=_cobra_map,
        opening="cobra_1944-07-16_gt15", supply_net=_cobra_net,
    )
)  # fmt: skip
register_game(
    Game(
        "kg", "The Killing Ground with OVERLORD", "kg", _kg, _kg_look, _kg_format, map_data=_kg_map,
        opening="kg_1944-06-19_t14", supply_net=_kg_net,
    )
)  # fmt: skip
register_game(
    Game(
        "gts", "The Greatest Day: Utah Beach", "gts", _gts, _gts_look, _gts_format, map_data=_gts_map,
        opening="gts_1944-06-08_0700", supply_net=_gts_net,
    )
)  # fmt: skip


#: The games registered above, as registered: what a process that imports the package alone has.
_PACKAGE_GAMES: dict[str, Game] = dict(_GAMES)


def only_package_games() -> bool:
    """Return whether exactly the games this package registers are registered, each as it registered it.

    Then another process that imports the package alone knows the same games (the tour's tables are worked
    out in one: :mod:`normandy_lab.views.tour`); a game registered or replaced here it would not know.
    """
    return (
        _GAMES.keys() == _PACKAGE_GAMES.keys()
        and _REGISTRY.keys() == _PACKAGE_GAMES.keys()
        and all(_GAMES[key] is held and _REGISTRY[key] is held.rules for key, held in _PACKAGE_GAMES.items())
    )


def __getattr__(name: str):  # BFN_RULES, as before, without importing the game before it is asked for
    if name == "BFN_RULES":
        return get("bfn")
    raise AttributeError(name)


__all__ = [
    "CalendarEntry",
    "Game",
    "Look",
    "MapData",
    "OffMapBox",
    "Phase",
    "RuleSet",
    "RuleSystem",
    "ScenarioFormat",
    "available",
    "default_game",
    "game",
    "games",
    "get",
    "look",
    "only_package_games",
    "register",
    "register_game",
    "ruleset",
    "scenario_format",
    "scenario_kind",
    "scenario_schema",
    "unregister_game",
]
