"""A map's terrain vocabulary, and how geographic facts map onto it; the table of them by map key.

The vocabularies themselves (the words, their colours, the hexes the rule texts name) are data in each
game's package (``normandy_lab/rules/<game>/map.py``): this module names no game.  :data:`VOCABULARIES`
is filled as :data:`normandy_lab.grids.numbering.SCHEMES` is: the registry registers a map's vocabulary
with its scheme, and a shipped map's the first time it is asked for.

The geography gives facts per hex (land fraction, built-up class, shares of
bocage, open country, woods and marsh, heights, beaches) and per hexside
(water class, road class, railway, all-sea).  Each rule system names its
terrain in its own words; this module turns the facts into those words.

The printed Terrain Effects Charts are not in the rulebooks; the types below
are the ones the rule texts name (rule numbers in each vocabulary's
docstring).  Where a choice had to be made, it is said here, and the
thresholds are the :class:`~normandy_lab.terrain.TerrainConfig`'s.

Common precedence (BfN 12.6.5: "use the most predominant terrain"; Cobra
5.6: the single highest cost): sea, then marsh/flooded, woods, then the
country type (bocage, open, or the mixed farmland between).  Built-up
areas are a separate ``settlement`` label, because in every system towns and
villages add to the underlying terrain rather than replace it (BfN 12.6.5;
Cobra 5.6b; GTS keeps one dot per hex, for which ``gts`` lets a town or
city replace the country).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from normandy_lab.errors import UnknownNameError
from normandy_lab.grids.numbering import MapTable, map_keys

WATER_CLASSES = ("none", "canal", "stream", "river", "major_river")
"""Water on a hexside, in increasing order of importance (array code = index)."""
ROAD_CLASSES = ("none", "secondary", "primary", "highway")
"""Road linking two hexes, in increasing order (array code = index)."""
BUILTUP_CLASSES = ("none", "village", "town", "city")
"""Built-up class of a hex (array code = index)."""

SETTLEMENTS = ("", "Village", "Town", "City")


@dataclass(frozen=True)
class TextHex:
    """A hex whose terrain a game's rule text states, where the derivation reads it otherwise.

    The printed maps are not in the rulebooks, but where the text itself names a hex's terrain (a list
    of city hexes, a worked example) the text is the authority: the derived map follows it, and the
    hex's ``from_text`` column says which rule put it there.

    Attributes
    ----------
    hex
        The hex's canonical id on the grid.
    rule
        The rule (or worked example) that states it, in the game's numbering.
    says
        What the text says of the hex, in a few words of our own (shown in ``from_text``).
    why
        Why the derivation differs (for the documentation and the reader of the code).
    land
        Whether the text makes the hex land: a hex the derivation finds mostly under water then takes the
        country type its land part would have (never Beach, unlike ``forced_land_hexes``).
    terrain, settlement, beach
        The terrain type, settlement and beach the text gives ('' keeps the derived value).
    """

    hex: str
    rule: str
    says: str
    why: str
    land: bool = False
    terrain: str = ""
    settlement: str = ""
    beach: str = ""


@dataclass(frozen=True)
class TextRoad:
    """A road a game's rule text says runs through hexes, where the derived course does not.

    Attributes
    ----------
    hexes
        The hexes the road runs through, in order (each next to the one before): each hexside between
        two of them carries the road.
    road
        The road's class (:data:`ROAD_CLASSES`); a hexside keeps a better class it already has.
    name
        The road's name, added to the hexsides' ``road_name``.
    rule, says, why
        As for :class:`TextHex`.
    """

    hexes: tuple[str, ...]
    road: str
    name: str
    rule: str
    says: str
    why: str


def _country(facts: dict[str, Any], config: Any, bocage: str, open_: str, mixed: str) -> np.ndarray:
    """Bocage where it is at least half the hex and more than the open share; open likewise; else mixed."""
    b, o = facts["bocage_fraction"], facts["open_fraction"]
    out = np.full(len(b), mixed, dtype=object)
    out[(b >= 0.5) & (b >= o)] = bocage
    out[(o >= 0.5) & (o > b)] = open_
    return out


@dataclass(frozen=True)
class TerrainVocabulary:
    """A rule system's names for hex terrain and hexside features.

    Attributes
    ----------
    system
        Rule-system key.
    terrains
        The hex terrain types (array code = index).
    water_names
        Name of each water class on a hexside (``canal``, ``stream``,
        ``river``, ``major_river``) in the system's words.
    rules
        Rule references of each type, for hover text and documentation.
    forced_city_names, forced_city_hexes
        Towns whose built-up hexes the rules call City hexes whatever their
        size (BfN 7.4's supply cities), and hexes the rules list as city
        hexes (Cobra 16.1, 17.3.6c): the derivation cannot see a map's art,
        so the rules' own lists win.
    villages
        Whether the system marks villages: then every hex where a populated
        place stands is at least a Village.
    towns_are_cities
        Whether the system prints every 1944 town of the built-up layer as a
        City hex and every village of it as a Town hex (The Killing Ground: its
        printed city and town hexes are not in the text, so they are
        RECONSTRUCTED by ``rules/kg/map.py``'s ``KG_CITY_CRITERION``).
    forced_land_hexes
        Coastal hexes the rules put land units on (The Killing Ground's 22.6.8 set-up: units landed on
        the beaches, and Mulberry B): land whatever share of them the derivation finds under water; one
        mostly under water, or with a beach, is Beach (the strand the units stand on), another keeps its
        country type.
    colours
        The map colour of the game's own words, as ``(word, "#rrggbb")`` pairs: a word given here is
        drawn in its colour, any other in the shared palette's
        (:data:`normandy_lab.views.basemap.TERRAIN_COLOURS`), and a word in neither in grey.  A game
        with words of its own gives their colours here, with no edit of the views.
    """

    system: str
    terrains: tuple[str, ...]
    water_names: dict[str, str]
    rules: dict[str, str]
    sea: str
    marsh: str
    flooded: str
    woods: str
    bocage: str
    open: str
    mixed: str
    beach: str
    settlement_replaces_country: bool = False
    forced_city_names: tuple[str, ...] = ()
    forced_city_hexes: tuple[str, ...] = ()
    villages: bool = False
    towns_are_cities: bool = False
    forced_land_hexes: tuple[str, ...] = ()
    # Hexes whose terrain a rule's worked example names, against what the derivation reads: (hex, terrain).
    forced_terrain: tuple[tuple[str, str], ...] = ()
    # What the rule text states of a hex or a road's course, against the derivation, with its provenance.
    text_hexes: tuple[TextHex, ...] = ()
    text_roads: tuple[TextRoad, ...] = ()
    # The map colours of the game's own words (see ``colours`` above): (word, "#rrggbb") pairs.
    colours: tuple[tuple[str, str], ...] = ()

    def classify_hexes(self, facts: dict[str, Any], config: Any) -> dict[str, np.ndarray]:
        """Return each hex's ``terrain``, ``settlement``, ``from_text`` (``beach`` if the text sets it)."""
        terrain = _country(facts, config, self.bocage, self.open, self.mixed)
        terrain[facts["forest_fraction"] >= config.cover_fraction] = self.woods
        wet = facts["marsh_fraction"] >= config.marsh_fraction
        inundated = wet & (facts["inundation_fraction"] >= facts["marsh_fraction"] / 2)
        terrain[wet] = self.marsh
        terrain[inundated] = self.flooded
        beach = np.array([bool(b) for b in facts["beach"]])
        terrain[beach & (facts["land_fraction"] >= config.sea_land_fraction)] = self.beach
        settlement = np.array(SETTLEMENTS, dtype=object)[facts["builtup"]]
        if self.villages:
            settlement[(settlement == "") & facts["village_point"]] = "Village"
        if self.towns_are_cities:  # and the layer's villages its towns (KG_CITY_CRITERION)
            village = settlement == "Village"
            settlement[settlement == "Town"] = "City"
            settlement[village] = "Town"
        if self.forced_city_names:
            named = np.isin(facts["builtup_name"], list(self.forced_city_names)) & (settlement != "")
            settlement[named] = "City"
        if self.forced_city_hexes:
            settlement[np.isin(facts["hex_id"], list(self.forced_city_hexes))] = "City"
        if self.settlement_replaces_country:
            has = settlement != ""
            terrain[has] = settlement[has]
        country = terrain.copy()  # what each hex is if land, before the sea is drawn
        terrain[facts["land_fraction"] < config.sea_land_fraction] = self.sea
        if self.forced_land_hexes:
            forced = np.isin(facts["hex_id"], list(self.forced_land_hexes))
            # Mostly under water at the grid's scale, it is the strand the units stand on: Beach.
            strand = forced & (beach | (facts["land_fraction"] < config.sea_land_fraction))
            terrain[strand] = self.beach
            terrain[forced & ~strand] = country[forced & ~strand]
        for hex_id, named in self.forced_terrain:
            terrain[np.asarray(facts["hex_id"]) == hex_id] = named
        labels = {"terrain": terrain, "settlement": settlement}
        self._apply_text_hexes(facts, labels, country)
        return labels

    def _apply_text_hexes(self, facts: dict[str, Any], labels: dict[str, np.ndarray], country) -> None:
        """Make the hexes the text names what it says they are, and mark them ``from_text``.

        ``from_text`` is '' on every hex the text does not name, so a system without text hexes keeps
        every other column exactly as derived.
        """
        ids = np.asarray(facts["hex_id"])
        from_text = np.full(len(ids), "", dtype=object)
        labels["from_text"] = from_text
        if not self.text_hexes:
            return
        beach = np.array(facts["beach"], dtype=object)
        for entry in self.text_hexes:
            where = np.nonzero(ids == entry.hex)[0]
            if len(where) != 1:
                raise UnknownNameError(f"{self.system}: {entry.rule} names {entry.hex}: not on the grid")
            i = int(where[0])
            if entry.land and labels["terrain"][i] == self.sea:
                labels["terrain"][i] = country[i]  # its land part's country, under any settlement
            if entry.terrain:
                labels["terrain"][i] = entry.terrain
            if entry.settlement:
                labels["settlement"][i] = entry.settlement
            if entry.beach:
                beach[i] = entry.beach
            from_text[i] = f"{entry.rule}: {entry.says}"
        labels["beach"] = beach

    def classify_hexsides(
        self, sides: dict[str, Any], facts: dict[str, Any], config: Any
    ) -> dict[str, np.ndarray]:
        """Return the water feature of every hexside in the system's words."""
        names = np.array([self.water_names.get(c, "") for c in WATER_CLASSES], dtype=object)
        return {"water_feature": names[sides["water"]]}

    def codes(self, labels: np.ndarray) -> np.ndarray:
        """Return the array codes (index in :attr:`terrains`) of terrain labels."""
        lookup = {name: code for code, name in enumerate(self.terrains)}
        return np.array([lookup[label] for label in labels], dtype=np.int8)


VOCABULARIES: MapTable[TerrainVocabulary] = MapTable()
"""The terrain vocabularies by map key: those registered, and any map a game can bring, loaded when asked."""


def __getattr__(name: str) -> Any:
    # BFN, COBRA, KG, GTS: the shipped maps' vocabularies were named here before they moved (issue 32).
    if name.isupper() and name.lower() in map_keys():
        return VOCABULARIES[name.lower()]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def register_vocabulary(vocabulary: TerrainVocabulary) -> None:
    """Register the terrain vocabulary of a map under its key (``vocabulary.system``).

    Registering the same vocabulary again is harmless; a different one under a key already held is
    refused (:class:`~normandy_lab.errors.RefusedError`): a map key names one map, with one vocabulary.
    """
    from normandy_lab.errors import RefusedError

    held = dict.get(VOCABULARIES, vocabulary.system)  # (not a look-up: that would load the map)
    if held is not None and held != vocabulary:
        raise RefusedError(
            f"a different terrain vocabulary is registered under the map key {vocabulary.system!r}; "
            "give the new map a key of its own, or share that map by its key"
        )
    VOCABULARIES[vocabulary.system] = vocabulary


def vocabulary(system: str) -> TerrainVocabulary:
    """Return the terrain vocabulary of the map ``system``.

    Raises
    ------
    UnknownNameError
        Naming the registered maps, when ``system`` has no vocabulary.
    """
    try:
        return VOCABULARIES[system]
    except KeyError:
        raise UnknownNameError(
            f"no terrain vocabulary for the map {system!r}; the registered maps are "
            f"{', '.join(map_keys())} (a game on a map of its own registers its vocabulary: "
            "normandy_lab.rules.register_game)"
        ) from None
