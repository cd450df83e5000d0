"""The supply report: one schema for every rule system, read by the views, what-if tables and exports.

A rule system determines supply its own way (``RuleSet.determine_supply(state)``)
and answers with a :class:`SupplyReport`: per unit a :class:`UnitSupply` (verdicts, the line traced, its
length and limit, and for a unit out of supply the reason as a code of :mod:`normandy_lab.engine.reasons`,
a rule number and words, with the blocks in the way), and the determination behind it, which answers for
the ranges (:class:`SupplyDetermination`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from typing import Any, Protocol

import numpy as np

from normandy_lab.engine.lines import INF
from normandy_lab.engine.reasons import Block
from normandy_lab.engine.state import GameState
from normandy_lab.grids import grid


class SupplyDetermination(Protocol):
    """What a rule system's supply determination answers after the verdicts: its ranges."""

    def supply_range(self, hq_or_source: str) -> set[str]:
        """Return the hexes from which a unit could trace to an HQ (unit id) or a source hex."""
        ...

    def hq_ranges_at(self) -> dict[str, np.ndarray]:
        """Return, per side, the names of the in-supply HQs whose range covers each hex ("; "-joined)."""
        ...


@dataclass(frozen=True)
class Zone:
    """An area a rule system draws on the map, by its outline: where an HQ is supported for free, say.

    ``side`` is the side it concerns, ``label`` what it means in words (with its numbers), ``rule`` the
    rule behind it, ``hexes`` the hex ids inside it; ``short`` the few words written on the map beside its
    outline (nested zones sit close together), the label when empty.
    """

    side: str
    label: str
    rule: str
    hexes: tuple[str, ...]
    short: str = ""


@dataclass(frozen=True)
class Route:
    """A path a rule tests, drawn on the map: a link-up, a way to remount (The Greatest Day 17.6, 15.0).

    ``path`` is its hex ids (the whole way when it holds; when it does not, the shortest way with the
    enemy ignored), ``ok`` whether it holds, ``first_break`` the first hex that closes it ("" if none).
    """

    label: str
    rule: str
    path: tuple[str, ...]
    ok: bool
    first_break: str = ""


@dataclass(frozen=True)
class Explanation:
    """Why a unit is out of supply, as data: what binds, by which rule, where, and by how much.

    A rule system's explanation makes this record first and its words (``UnitSupply.reason``) from it; the
    report keeps it (``UnitSupply.explanation``, ``SupplyReport.explain(unit_id)``), so a view or a test
    can ask what binds without reading a sentence.

    Attributes
    ----------
    code, rule
        The reason's code (:mod:`normandy_lab.engine.reasons`) and the rule numbers behind it.
    binds
        What holds the unit out: ``"block"`` (one block on its way; ``hex`` names it), ``"range"`` (its
        best legal line is longer than the limit), ``"ring"`` (no legal line of any length), ``"hq"``
        (its HQ is out of supply; ``hq`` names it), ``"places"`` (the HQs in range have no place left).
    target
        What its best way runs to, in words ("a source", "its division HQ GB-3ID-HQ").
    hex
        The hex that binds (a block's), else the first block in the way ("" when none).
    units
        The enemy units behind that hex, or the units holding the places that bind.
    length_hexes, length_mp, limit
        The best legal line's lengths (``inf``: none, or not counted) and the limit it was held to.
    shortfall, shortfall_unit
        For ``"range"``: how much longer the range would have to be, in ``"hexes"`` or ``"MP"``.
    hq
        The HQ whose verdict (``"hq"``) or places bind (unit id), when one does.
    weather_bound
        Out only because bad weather halves the ranges (in range at the full limits).
    """

    code: str
    rule: str
    binds: str
    target: str = ""
    hex: str = ""
    units: tuple[str, ...] = ()
    length_hexes: float = INF
    length_mp: float = INF
    limit: str = ""
    shortfall: float = 0.0
    shortfall_unit: str = ""
    hq: str = ""
    weather_bound: bool = False


@dataclass(init=False)
class UnitSupply:
    """The supply report of one unit.

    Attributes
    ----------
    general, combat, isolated
        In General Supply (7.2), in Combat Supply (7.6.1), isolated (7.5o).
    traced_kind, traced_id
        What the line reached, as data: ``traced_kind`` as the rule system
        names it (``"source"``, ``"division HQ"``, ``"corps HQ"``,
        ``"attached"``, or the exemption that supplies the unit without a
        line); ``traced_id`` the HQ's unit id or the source's hex.
    via
        The chain the unit's supply runs through, as data: what its line
        reached, then what that HQ's own line reached, and so on to the
        source (HQs by unit id, sources by hex id):
        ``("CA-3CID-HQ", "UK-I-HQ", "C1925")``; ``()`` when it traced none.
    traced_to
        The same in words, with the HQ's or source's id, name and place:
        ``"division HQ GB-3ID-HQ (3rd Infantry Division HQ) at C2820 (Anisy)"``.
    path
        The hexes of the line, from the unit to what it reached.
    length_mp, length_hexes
        The line's length in supply MPs and in hexes (for a unit out of
        supply: of its shortest legal line to the nearest thing it may use).
    limit
        The limit it was held to ("6 hexes or 6 MP", "20 MP", "any length").
    code
        Why the unit is out of supply, as a code of
        :mod:`normandy_lab.engine.reasons` (``"out_of_range"``, ``"cut_off"``,
        ``"blocked"``, ``"hq_out_of_supply"``, ``"attachment_full"``); ``""``
        in supply.
    rule
        The rule numbers behind the code ("7.3.1", "7.2", ...).
    reason
        The same in words, with hex ids and rule numbers ("" in supply).
    explanation
        The same as data (:class:`Explanation`), when the rule system makes one (``None`` in supply).
    blocks
        What stands on the unit's shortest way to what it may use
        (:class:`~normandy_lab.engine.reasons.Block`), each marked ``binding``
        when removing it alone restores supply.
    shortfall
        For ``out_of_range``: how much too long its best line is (in the
        metric of that line: hexes or MPs).
    weather_bound
        Out of supply only because bad weather halves the ranges (7.3.3): in
        range at the full limits.
    blocking_hex, blocking_units
        The main block (the binding one, else the first in the way) and the
        enemy units behind it (occupying it or exerting the EZOC).
    candidates
        For each HQ or source it may use: what it is, its lengths, and why it failed.
    readings
        The rule readings (options) this verdict rests on where the rulebook is open.

    Made lazily, for speed (a determination makes hundreds of reports, and most are never shown): the
    explanation of a unit out of supply (``code`` and everything after it above, and its lengths) is
    worked out for the whole side the first time any of it is read (:meth:`explain_later`), the words of
    ``traced_to`` when first read (:meth:`words_later`), and a line not kept by a search when first read
    (:meth:`path_later`).  A determination that only wants verdicts (a sweep, a count) does not pay for
    them.  Every field can also be given to the constructor or :meth:`fill`, so ``dataclasses.replace``
    and ``asdict`` work (they read through the lazy fields).
    """

    unit_id: str
    side: str
    hex: str
    general: bool = False
    combat: bool = False
    isolated: bool = False
    traced_to: str = ""
    traced_kind: str = ""
    traced_id: str = ""
    via: tuple[str, ...] = ()
    path: list[str] = field(default_factory=list)
    length_mp: float = INF
    length_hexes: float = INF
    limit: str = ""
    code: str = ""
    rule: str = ""
    reason: str = ""
    explanation: Explanation | None = None
    blocks: list[Block] = field(default_factory=list)
    shortfall: float = 0.0
    weather_bound: bool = False
    blocking_hex: str = ""
    blocking_units: list[str] = field(default_factory=list)
    candidates: list[dict[str, Any]] = field(default_factory=list)
    readings: dict[str, Any] = field(default_factory=dict)
    # Set while the side's explanations are still to be worked out (explain_later).
    _pending: Callable[[], None] | None = field(default=None, repr=False, compare=False)
    # Makes ``traced_to`` when it is first read (words_later).
    _words: Callable[[], str] | None = field(default=None, repr=False, compare=False)
    # Finds ``path`` when it is first read (path_later).
    _find_path: Callable[[], list[str]] | None = field(default=None, repr=False, compare=False)

    def __init__(self, unit_id: str, side: str, hex: str, **fields: Any) -> None:
        # Filled straight into the instance from a template (a determination makes hundreds of these),
        # with fresh lists and mappings of its own.
        values = {
            **_TEMPLATE, "unit_id": unit_id, "side": side, "hex": hex, "_path_value": [], "_blocks_value": [],
            "_blocking_units_value": [], "_candidates_value": [], "_readings_value": {},
        }  # fmt: skip
        if fields:
            if not _KNOWN.issuperset(fields):
                self.fill(**fields)  # to refuse the unknown ones, in fill's words
            storage = _STORAGE
            values.update({storage.get(name, name): value for name, value in fields.items()})
        self.__dict__ = values

    @classmethod
    def verdict(
        cls, unit_id: str, side: str, hex: str, *, general: bool, combat: bool, isolated: bool, limit: str,
        length_hexes: float, length_mp: float, path: list[str], readings: dict[str, Any],
        traced_kind: str = "", traced_id: str = "", via: tuple[str, ...] = (), traced_to: str = "",
        words: Callable[[], str] | None = None, find_path: Callable[[], list[str]] | None = None,
    ) -> UnitSupply:
        """Return a unit's report with its verdicts and line, as a determination found them.

        The same as the constructor with these fields (``words`` and ``find_path`` as in
        :meth:`words_later` and :meth:`path_later`), in one step: a determination makes hundreds.
        """  # fmt: skip
        r = cls.__new__(cls)
        r.__dict__ = {
            **_TEMPLATE, "unit_id": unit_id, "side": side, "hex": hex, "general": general, "combat": combat,
            "isolated": isolated, "limit": limit, "_length_hexes_value": length_hexes,
            "_length_mp_value": length_mp, "_path_value": path, "_readings_value": readings,
            "traced_kind": traced_kind, "traced_id": traced_id, "via": via, "_traced_to_value": traced_to,
            "_words": words, "_find_path": find_path, "_blocks_value": [], "_blocking_units_value": [],
            "_candidates_value": [],
        }  # fmt: skip
        return r

    def fill(self, **fields: Any) -> None:
        """Set several fields at once, straight into their storage (a determination fills hundreds).

        The same as setting each attribute; it only skips a property call per field.
        """
        if not _KNOWN.issuperset(fields):
            unknown = ", ".join(repr(name) for name in fields if name not in _KNOWN)
            raise TypeError(f"UnitSupply has no field {unknown}; its fields: {', '.join(_PUBLIC)}")
        store, storage = self.__dict__, _STORAGE
        for name, value in fields.items():
            store[storage.get(name, name)] = value

    def explain_later(self, work: Callable[[], None] | None) -> None:
        """Have ``work()`` fill the explanation fields the first time any of them is read (None: no more).

        ``work`` explains the whole side at once; it must clear this hook first (``explain_later(None)``)
        on every report it explains, so that reading a report during the explanation does not recurse.
        """
        self.__dict__["_pending"] = work

    def words_later(self, words: Callable[[], str] | None) -> None:
        """Have ``words()`` make ``traced_to`` the first time it is read (None: keep the words set)."""
        self.__dict__["_words"] = words

    def path_later(self, find: Callable[[], list[str]] | None) -> None:
        """Have ``find()`` search ``path`` the first time it is read (a line a search did not keep)."""
        self.__dict__["_find_path"] = find

    def exempt(self, kind: str, code: str, rule: str, reason: str) -> None:
        """Put the unit in General and Combat Supply by an exemption: no line, nothing left to explain.

        ``kind`` names the exemption (``traced_kind``; ``traced_to`` says it with its rule), ``code`` is
        :data:`~normandy_lab.engine.reasons.EXEMPT` or the like, ``reason`` the words.
        """
        self.explain_later(None)
        self.words_later(None)
        self.fill(
            general=True, combat=True, code=code, rule=rule, reason=reason, traced_kind=kind, traced_id="",
            traced_to=f"{kind} ({rule})", blocking_hex="", blocking_units=[], via=(),
        )  # fmt: skip


# The values a new report starts from (its mutable ones are made fresh for each, in UnitSupply.__init__).
_TEMPLATE: dict[str, Any] = dict(
    general=False, combat=False, isolated=False, _traced_to_value="", traced_kind="", traced_id="", via=(),
    _length_mp_value=INF, _length_hexes_value=INF, limit="", _code_value="", _rule_value="", _reason_value="",
    _explanation_value=None, _shortfall_value=0.0, _weather_bound_value=False, _blocking_hex_value="",
    _pending=None, _words=None, _find_path=None,
)  # fmt: skip

# What the explanation of a unit out of supply fills in (read lazily, see UnitSupply).
_EXPLAINED = (
    "code", "rule", "reason", "explanation", "blocks", "shortfall", "weather_bound", "blocking_hex",
    "blocking_units", "candidates", "readings", "length_mp", "length_hexes",
)  # fmt: skip


class VerdictMaker:
    """Makes the reports of one side of a determination, each in one step (a determination makes hundreds).

    The same reports as :meth:`UnitSupply.verdict` with the same values, each with a copy of the side's
    ``readings`` and fresh lists of its own; the fields all of a side's reports share are laid out once.
    """

    __slots__ = ("_out", "_readings", "_supplied")

    def __init__(self, side: str, readings: dict[str, Any]) -> None:
        base = {**_TEMPLATE, "side": side}
        self._supplied = {**base, "general": True}
        self._out = {**base, "general": False}
        self._readings = readings

    def supplied(
        self, unit_id: str, hex: str, combat: bool, isolated: bool, limit: str, length_hexes: float,
        length_mp: float, path: list[str], traced_kind: str, traced_id: str, via: tuple[str, ...],
        traced_to: str, words: Callable[[], str] | None, find_path: Callable[[], list[str]] | None,
    ) -> UnitSupply:
        """Return the report of a unit in General Supply (``UnitSupply.verdict(..., general=True)``)."""
        r = _new_report(UnitSupply)
        values = self._supplied.copy()
        values.update(
            unit_id=unit_id, hex=hex, combat=combat, isolated=isolated, limit=limit,
            _length_hexes_value=length_hexes, _length_mp_value=length_mp, _path_value=path,
            _readings_value=self._readings.copy(), traced_kind=traced_kind, traced_id=traced_id, via=via,
            _traced_to_value=traced_to, _words=words, _find_path=find_path, _blocks_value=[],
            _blocking_units_value=[], _candidates_value=[],
        )  # fmt: skip
        r.__dict__ = values
        return r

    def out(
        self, unit_id: str, hex: str, combat: bool, isolated: bool, limit: str, length_hexes: float,
        length_mp: float, path: list[str],
    ) -> UnitSupply:
        """Return the report of a unit out of General Supply (``verdict(..., general=False)``)."""
        r = _new_report(UnitSupply)
        values = self._out.copy()
        values.update(
            unit_id=unit_id, hex=hex, combat=combat, isolated=isolated, limit=limit,
            _length_hexes_value=length_hexes, _length_mp_value=length_mp, _path_value=path,
            _readings_value=self._readings.copy(), _blocks_value=[], _blocking_units_value=[],
            _candidates_value=[],
        )  # fmt: skip
        r.__dict__ = values
        return r


# Makes an empty report (UnitSupply is a plain class: its __new__ is object's).
_new_report = object.__new__


def _stored(name: str, before_reading: Callable[[UnitSupply], None]) -> property:
    """Return a property keeping ``name`` in the instance, running ``before_reading(self)`` on each read.

    Set on the class after the dataclass is made, so the generated ``__init__``
    (whose defaults are its own) stores through it.
    """
    slot = f"_{name}_value"

    def read(self: UnitSupply) -> Any:
        before_reading(self)
        return self.__dict__[slot]

    def write(self: UnitSupply, value: Any) -> None:
        self.__dict__[slot] = value

    return property(read, write)


def _explain_first(r: UnitSupply) -> None:
    pending = r.__dict__["_pending"]
    if pending is not None:
        pending()


def _words_first(r: UnitSupply) -> None:
    words = r.__dict__["_words"]
    if words is not None:
        r.__dict__["_words"] = None
        r.__dict__["_traced_to_value"] = words()


def _path_first(r: UnitSupply) -> None:
    find = r.__dict__["_find_path"]
    if find is not None:
        r.__dict__["_find_path"] = None
        r.__dict__["_path_value"] = find()


for _name in _EXPLAINED:
    setattr(UnitSupply, _name, _stored(_name, _explain_first))
# Where each field behind a property is kept (UnitSupply.fill).
_STORAGE = {name: f"_{name}_value" for name in (*_EXPLAINED, "traced_to", "path")}
setattr(UnitSupply, "traced_to", _stored("traced_to", _words_first))  # noqa: B010 - a property, after the dataclass
setattr(UnitSupply, "path", _stored("path", _path_first))  # noqa: B010
# The names fill() accepts: the fields, and the lazy hooks (set by the rule systems that use them).
_PUBLIC = tuple(f.name for f in dataclass_fields(UnitSupply) if not f.name.startswith("_"))
_KNOWN = frozenset(f.name for f in dataclass_fields(UnitSupply))


@dataclass
class SupplyReport:
    """The supply of every unit of a state, with the sources and HQ ranges."""

    state: GameState
    units: dict[str, UnitSupply]
    sources: dict[str, list[str]]
    halved: bool
    #: The rule system's determination behind the report, which answers for its ranges
    #: (:class:`SupplyDetermination`); a report made by hand has none.
    determination: Any = field(default=None, repr=False, compare=False)

    def __getitem__(self, unit_id: str) -> UnitSupply:
        return self.units[unit_id]

    def states(self, unit_id: str) -> dict[str, bool]:
        """Return a unit's supply states, as its rule system declares them (``RuleSet.supply_states``)."""
        row = self.units[unit_id]
        return {s.key: bool(getattr(row, s.key)) for s in self.state.rules.supply_states}

    def explain(self, unit_id: str) -> Explanation | None:
        """Return why a unit is out of supply as data (:class:`Explanation`), None in supply.

        None too when its rule system gives only words (``UnitSupply.reason``).
        """
        return self.units[unit_id].explanation

    def reasons_ready(self) -> bool:
        """Tell whether every unit's reason is worked out already: reading them all works nothing out.

        A rule system may work a reason out when it is first read (BfN: ``UnitSupply.explain_later``).
        """
        return all(r.__dict__.get("_pending") is None for r in self.units.values())

    def out_of_supply(self, side: str | None = None) -> list[UnitSupply]:
        """Return the reports of the units out of general supply."""
        return [r for r in self.units.values() if not r.general and (side is None or r.side == side)]

    def to_geodataframe(self) -> Any:  # a geopandas.GeoDataFrame (geopandas ships no types)
        """Return one row per unit: its point, name, formation and supply columns; see :meth:`paths`."""
        import geopandas as gpd

        g = grid(self.state.system)
        records = {u.id: u for u in self.state.units}
        rows: list[dict[str, Any]] = []
        for r in self.units.values():
            unit = records.get(r.unit_id)
            rows.append(
                {
                    "unit_id": r.unit_id,
                    "name": unit.name if unit else "",
                    "formation": (unit.formation or "") if unit else "",
                    "side": r.side,
                    "hex": r.hex,
                    "general": r.general,
                    "combat": r.combat,
                    "isolated": r.isolated,
                    "traced_to": r.traced_to,
                    "traced_kind": r.traced_kind,
                    "traced_id": r.traced_id,
                    "code": r.code,
                    "rule": r.rule,
                    "length_mp": r.length_mp,
                    "length_hexes": r.length_hexes,
                    "limit": r.limit,
                    "reason": r.reason,
                    "blocking_hex": r.blocking_hex,
                    "blocking_units": ",".join(r.blocking_units),
                }
            )
        lonlat = [g.center(r["hex"]) for r in rows]
        return gpd.GeoDataFrame(
            rows, geometry=gpd.points_from_xy([p[0] for p in lonlat], [p[1] for p in lonlat]), crs="EPSG:4326"
        ).set_index("unit_id")

    def paths(self) -> Any:  # a geopandas.GeoDataFrame
        """Return the traced lines of supply as line geometries (one row per unit with a line)."""
        import geopandas as gpd
        import shapely

        g = grid(self.state.system)
        rows, lines = [], []
        for r in self.units.values():
            if len(r.path) >= 2:
                rows.append(
                    {"unit_id": r.unit_id, "side": r.side, "traced_to": r.traced_to, "general": r.general}
                )
                lines.append(shapely.LineString([g.center(h) for h in r.path]))
        return gpd.GeoDataFrame(rows, geometry=lines, crs="EPSG:4326")

    def supply_range(self, hq_or_source: str) -> set[str]:
        """Return the hexes from which a unit could trace to an HQ (unit id) or a source hex.

        The rule system says what its range is (BfN: 6 hexes or 6 MP by a legal line, 7.3.1).
        """
        hexes: set[str] = self.determination.supply_range(hq_or_source)
        return hexes

    def hq_ranges_at(self) -> dict[str, np.ndarray]:
        """Return, per side, the names of the in-supply HQs whose range covers each hex ("; "-joined)."""
        names: dict[str, np.ndarray] = self.determination.hq_ranges_at()
        return names

    def routes(self) -> list[Route]:
        """Return the paths the rule system tests and draws (GTS: the 82nd's link-up), if it has any."""
        routes = getattr(self.determination, "routes", None)
        return list(routes()) if routes is not None else []

    def zones(self) -> list[Zone]:
        """Return the areas the rule system draws on the map besides ranges (KG: HQ support bands).

        A determination may give them (``zones()``); one that does not draws none.
        """
        zones = getattr(self.determination, "zones", None)
        return list(zones()) if zones is not None else []

    def supply_ranges(self) -> Any:  # a geopandas.GeoDataFrame
        """Return the supply range of every in-supply HQ and every source as polygons (EPSG:4326)."""
        import geopandas as gpd
        import shapely

        g = grid(self.state.system)
        polygons = g.to_geodataframe()
        rows: list[dict[str, Any]] = []
        shapes: list[Any] = []
        for unit in self.state.units:
            if unit.hq and self.units[unit.id].general:
                cover = self.supply_range(unit.id)
                rows.append(
                    {"owner": unit.id, "kind": f"{unit.hq} HQ", "side": unit.side, "hexes": len(cover)}
                )
                shapes.append(shapely.union_all(polygons.loc[sorted(cover)].geometry.values))
        for side, hexes in self.sources.items():
            for hex_id in hexes:
                reach = self.supply_range(hex_id)
                rows.append({"owner": hex_id, "kind": "source", "side": side, "hexes": len(reach)})
                shapes.append(shapely.union_all(polygons.loc[sorted(reach)].geometry.values))
        return gpd.GeoDataFrame(rows, geometry=shapes, crs="EPSG:4326")
