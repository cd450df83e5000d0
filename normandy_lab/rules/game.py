"""A game as the unit of extension: its key, title, map, rules and look, behind one handle.

A :class:`Game` is what :func:`normandy_lab.rules.register_game` registers.  Its ``key`` is what a
scenario's ``system:`` names and what a study is saved under; its ``map`` is the key of the map its states
are played on.  Several games may share a map (a variant of The Battle for Normandy registers under a key
of its own with ``map="bfn"``); a game on a map of its own brings it as :class:`MapData` (numbering scheme,
terrain vocabulary, control points), which registering the game registers in the core's tables, so the
grids, the terrain and the views find it by its key like the four maps the package ships.

The presentation the views need beyond the rules is a :class:`Look` (today: the explorer's named sectors
and the marker a game's formations are drawn with side by side).  The rules (a
:class:`~normandy_lab.rules.base.RuleSet`) and the look may be given as functions that build them, so that
a game's modules load only when a state of that game is first made.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from normandy_lab.grids.georef import ControlPoint
from normandy_lab.grids.numbering import Scheme
from normandy_lab.terrain.vocab import TerrainVocabulary

if TYPE_CHECKING:
    from normandy_lab.rules.base import RuleSet

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


@dataclass(frozen=True)
class Look:
    """What the views show of a game beyond its rules.

    Parameters
    ----------
    sectors
        The explorer's named views ("Go to:"), name -> (west, south, east, north) in degrees; framing
        choices, not facts.  A game without any offers none.
    marker
        The marker shape its formations are drawn with side by side (a bokeh marker name: ``"circle"``,
        ``"square"`` ...); "" for the next shape no other game has.
    """

    sectors: Mapping[str, Extent] = field(default_factory=dict)
    marker: str = ""


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
    """

    key: str
    title: str
    map: str
    rules: RuleSet | Callable[[], RuleSet]
    look: Look | Callable[[], Look] | None = None
    map_data: MapData | Callable[[], MapData] | None = None
    scenarios: Path | None = None
    scenario_kind: str = ""

    @property
    def kind(self) -> str:
        """The file kind of the game's scenarios (``scenario_kind`` or ``"scenario_<key>"``)."""
        return self.scenario_kind or f"scenario_{self.key}"
