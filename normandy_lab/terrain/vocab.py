"""Each map's terrain vocabulary, and how geographic facts map onto it; a registry of them by map key.

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
        RECONSTRUCTED by :data:`KG_CITY_CRITERION`).
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


BFN = TerrainVocabulary(
    system="bfn",
    terrains=("Sea", "Clear", "Farmland", "Bocage", "Forest", "Flooded/Marsh", "Beach"),
    water_names={
        # The canals (the Caen canal beside the Orne, the Vire-Taute canal) bar like the major rivers;
        # the smaller named rivers (class "river": Aure, Drôme, Seulles, Odon, Elle, Taute, ...) are
        # Streams, as the docstring below and docs/terrain.md say.
        "canal": "Major River",
        "stream": "Stream",
        "river": "Stream",
        "major_river": "Major River",
    },
    rules={
        "Clear": "mandatory-attack terrain, 12.3",
        "Farmland": "light bocage: infantry 2 MP (10.x example), -1 combat (12.6.5)",
        "Bocage": "-3 combat, no advance unless all steps eliminated (12.6.5)",
        "Forest": "-2 firing into it (13.3)",
        "Flooded/Marsh": "all MPs; mechanized only by road (10.6); +2 DRM attacking into it",
        "Beach": "landing hexes (18.1)",
        "Sea": "all-sea: no ZOC across (5.3)",
        "City": "no ZOC into city hexes (5.3); German supply cities (7.4)",
        "Stream": "+2 MP, vehicles prohibited, supply only to an adjacent unit (7.3.2, 10.6)",
        "Major River": "infantry all MPs, mech only by bridge (10.6); the major rivers and the canals",
    },
    sea="Sea",
    marsh="Flooded/Marsh",
    flooded="Flooded/Marsh",
    woods="Forest",
    bocage="Bocage",
    open="Clear",
    mixed="Farmland",
    beach="Beach",
    forced_city_names=("Bayeux", "Cherbourg", "Caen", "Argentan", "Flers", "Vire"),
    villages=True,
)
"""The Battle for Normandy: 10.6 and the reconstructed TEC (digest 5.1).  Mixed
country (neither bocage nor open dominant) is Farmland, the rulebook's
"light bocage".  Only the major rivers (class ``major_river``: Seine, Orne,
Dives, Vire, Douve, Sée, Sélune, and the sea inlets) and the canals are Major
River hexsides: the bridging example treats the Caen canal as a river beside
the Orne, and the Vire-Taute canal, the layer's other canal, keeps the same
class.  The smaller named rivers (class ``river``) are Streams like the
brooks, or every valley would be a Major River line.  The six
German supply cities of 7.4 are City hexes whatever their size; a City
replaces the country in combat, a Town or Village adds to it (12.6.5)."""

COBRA = TerrainVocabulary(
    system="cobra",
    terrains=("All Sea", "Clear", "Bocage", "Light Woods", "Marsh", "Beach"),
    water_names={"canal": "", "stream": "", "river": "Minor River", "major_river": "Major River"},
    rules={
        "Clear": "1 MP (5.1a)",
        "Bocage": "Bocage Area, hedge pattern (8.3.2a); supply counts 2 hexes off road (10.3d)",
        "Light Woods": "light forest (5.6 example)",
        "Marsh": "mechanized only along a road (5.2f); CS halved (8.3.2b)",
        "Beach": "Allied supply and entry (17.3.6f, 17.3.9)",
        "City": "Caen, Cherbourg (7.0b); Bayeux, St-Lô (16.2)",
        "Major River": "blocks ZOC (7.0a); supply 6 hexes off road (10.3g)",
        "Minor River": "cost added to the hex (5.6)",
        "All Sea": "blocks movement, supply, combat, command and ZOC (5.6d)",
    },
    sea="All Sea",
    marsh="Marsh",
    flooded="Marsh",
    woods="Light Woods",
    bocage="Bocage",
    open="Clear",
    mixed="Clear",
    beach="Beach",
    forced_city_names=("Caen", "Cherbourg", "Bayeux", "Saint-Lô"),
    forced_city_hexes=("B1207", "B1307", "B1308", "B1407", "B3620", "A2601", "A2701"),
    text_hexes=(
        TextHex(
            "B1307",
            rule="16.1",
            says="a hex of Cherbourg (map B 1207, 1307, 1308, 1407): a land City hex",
            why="69% of it lies under the GSHHG sea (Cherbourg's harbour and roadstead), so the "
            "derivation draws All Sea",
            land=True,
            settlement="City",
        ),
        TextHex(
            "B4119",
            rule="17.3 (Step 4 example)",
            says="a Juno beach hex, where the British land both units",
            why="the 1944 sector lines put Gold's King Green and King Red (Ver-sur-Mer) in it on this "
            "grid, and Juno's sectors in B4319 and B4419",
            beach="Juno",
        ),
    ),
    text_roads=(
        TextRoad(
            ("A1909", "A1809", "A1808"),
            road="primary",
            name="N174",
            rule="10.3 (example)",
            says="a major road runs from A1809 to Isigny",
            why="the 1944 N174 (Torigni-Saint-Lô) passes from Torigni's A1909 straight to A1808, within "
            "0.2-0.8 km of A1809 but not through it; the text's major road is taken through A1809 "
            "between the two hexes of the derived course beside it",
        ),
    ),
)
"""Cobra: 5.x, 7.0, 8.3.2, 10.3 (digest 5.2).  At 3.2 km a hex, only
dominant bocage makes a Bocage hex; mixed country is Clear.  Streams are
below the map's scale (no hexside), and the Caen canal runs beside the Orne
within a hex, so it adds no hexside of its own.  The rules' city hexes
(Cherbourg 16.1, Bayeux 17.3.6c) and cities (Caen, St-Lô, 16.2) are City.
Where the text states a hex's terrain or a road's course (16.1's B1307,
17.3's Juno hex B4119, 10.3's major road from A1809), the map follows the
text, and the hex or hexside's ``from_text`` names the rule."""

KG_CITY_CRITERION = (
    "a KG City hex is a hex the 1944 built-up layer (maps/geography/builtup.yaml) gives to a city or a town "
    "(about 3,000 people or more in 1936, the layer's class): the hex holding the outline's centre, and any "
    "hex the outline covers by a quarter or more (TerrainConfig.builtup_fraction); the layer's villages are "
    "town hexes, not cities"
)
"""How The Killing Ground's city hexes are RECONSTRUCTED (26.11.2's German city supply, 26.4.3's rail, no ZOC
into a city hex): the printed map's city hexes are not in the text beyond Cherbourg's N1410 (26.11.2) and
"Caen city hexes" (26.23.2).  At 2.5 km a hex a 1944 market town of a few thousand people is the largest
place for miles and the map's obvious city symbol; a village is not.  ``normandy_lab.rules.kg.cities`` lists
them with their provenance."""

KG = TerrainVocabulary(
    system="kg",
    terrains=("All Sea", "Clear", "Hedgerow", "Bocage", "Woods", "Marsh", "Beach"),
    water_names={"canal": "", "stream": "", "river": "River", "major_river": "Major River"},
    rules={
        "Clear": "KG base terrain (the KG terrain chart is not in the seeds)",
        "Hedgerow": "26.8.1-26.8.2: exempts its occupant from attacking adjacent units",
        "Bocage": "26.8.1: a German final step loss may become a retreat",
        "Beach": "treated as clear (26.4.5)",
        "Major River": "bridge repair over a major river (26.19.5)",
        "All Sea": "naval fire protection ranges (26.8.2)",
        "City": "German city supply (26.11.2); Cherbourg's N1410",
    },
    sea="All Sea",
    marsh="Marsh",
    flooded="Marsh",
    woods="Woods",
    bocage="Bocage",
    open="Clear",
    mixed="Hedgerow",
    beach="Beach",
    forced_city_hexes=("N1410",),
    towns_are_cities=True,  # RECONSTRUCTED: KG_CITY_CRITERION
    # 22.6.8 sets landed units on these coastal hexes (Omaha N2931, N2932, N3032; Utah N2522; the east
    # coast of the Cotentin N2120), 22.7 German units on N2019 and a US recon unit on N2220, and 26.4.2
    # needs an Allied unit in Mulberry B's hex N3139: their centres lie within 0.7 hex of the GSHHG
    # shoreline, but less than half of each is land at 2.5 km.
    forced_land_hexes=("N2019", "N2120", "N2220", "N2522", "N2931", "N2932", "N3032", "N3139"),
)
"""The Killing Ground with OVERLORD: 26.4.5, 26.8.1-26.8.2, 26.19.5.  The
base KG terrain chart is not in the seeds; woods and marsh follow the other
systems (marked as a reconstruction).  Mixed hedged farmland is Hedgerow,
dominant bocage Bocage.  The Caen canal adds no hexside beside the Orne at
2.5 km a hex."""

GTS = TerrainVocabulary(
    system="gts",
    terrains=(
        "Impassable",
        "Clear",
        "Hedgerow",
        "Woods",
        "Marsh",
        "Flooded",
        "Beach",
        "Village",
        "Town",
        "City",
    ),
    water_names={"canal": "River", "stream": "Stream", "river": "River", "major_river": "River"},
    rules={
        "Clear": "2.1.1",
        "Woods": "2.1.2: blocking, -2",
        "Village": "2.1.3",
        "Town": "2.1.4",
        "City": "2.1.5",
        "Marsh": "2.1.7: the 1944 inundations; vehicles only in column on a road",
        "Beach": "2.1.8: only on the Beach Overlay",
        "Hedgerow": "2.1.9: the bocage; allows German Bocage markers (16.3)",
        "Flooded": "2.1.11: wet, ditched farmland; passable",
        "Impassable": "2.1.14: the sea",
        "Stream": "2.2.3: +2 MP leg, vehicles by road only",
        "River": "2.2.4: crossed only at bridges or ferries",
    },
    sea="Impassable",
    marsh="Flooded",
    flooded="Marsh",
    woods="Woods",
    bocage="Hedgerow",
    open="Clear",
    mixed="Hedgerow",
    beach="Beach",
    settlement_replaces_country=True,
    villages=True,
    # 4.5.2: the eight Sub-Beach hexes of the Utah overlay (planned: Tare Green 22.023, 23.022, Uncle Red
    # 21.023, 21.024; actual: Tare Green 18.026, 19.025, Uncle Red 17.026, 17.027) are Beach on the overlay
    # (2.1.8); at 500 m most of each lies under the GSHHG sea.
    forced_land_hexes=("22.023", "23.022", "21.023", "21.024", "18.026", "19.025", "17.026", "17.027"),
    # 2.1's example: a unit moving from 28.048 into 28.049 "is in the Clear hex terrain" (the hex's dot),
    # where the wetland data alone would make it Marsh; the Douve's grey portion is on its 28.050 side.
    forced_terrain=(("28.049", "Clear"),),
)
"""The Greatest Day: Utah Beach, exclusive rules 2.1-2.2 (digest 3.1-3.2).
One centre dot decides a hex's terrain, so a village, town or city replaces
the country; mixed country in the Cotentin is hedgerow.  The 1944
inundations, which vehicles crossed only on the causeways and which drowned
paratroopers, are Marsh (2.1.7: vehicles only on roads, drop +3); other wet
ground is Flooded (2.1.11: ditched farmland, passable)."""

VOCABULARIES: dict[str, TerrainVocabulary] = {v.system: v for v in (BFN, COBRA, KG, GTS)}
"""The registered vocabularies by map key: the four shipped maps', then any a game registers."""


def register_vocabulary(vocabulary: TerrainVocabulary) -> None:
    """Register the terrain vocabulary of a map under its key (``vocabulary.system``).

    Registering the same vocabulary again is harmless; a different one under a key already held is
    refused (:class:`~normandy_lab.errors.RefusedError`): a map key names one map, with one vocabulary.
    """
    from normandy_lab.errors import RefusedError

    held = VOCABULARIES.get(vocabulary.system)
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
            f"{', '.join(VOCABULARIES)} (a game on a map of its own registers its vocabulary: "
            "normandy_lab.rules.register_game)"
        ) from None
