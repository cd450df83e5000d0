"""The supply report: one schema for every rule system, read by the views, what-if tables and exports.

A rule system determines supply its own way (``RuleSet.determine_supply(state)``)
and answers with a :class:`SupplyReport`: per unit a :class:`UnitSupply` (verdicts, the line traced, its
length and limit, and for a unit out of supply the reason as a code of :mod:`normandy_lab.engine.reasons`,
a rule number and words, with the blocks in the way), and the determination behind it, which answers for
the ranges (:class:`SupplyDetermination`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
        The rule readings (options) this verdict used where the rulebook is open.

    The explanation of a unit out of supply (``code`` and everything after it
    above, and its lengths) is worked out for the whole side the first time
    any of it is read: a determination that only wants verdicts (a sweep, a
    count) does not pay for the trials behind the reasons.
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
    path: list[str] = field(default_factory=list)
    length_mp: float = INF
    length_hexes: float = INF
    limit: str = ""
    code: str = ""
    rule: str = ""
    reason: str = ""
    blocks: list[Block] = field(default_factory=list)
    shortfall: float = 0.0
    weather_bound: bool = False
    blocking_hex: str = ""
    blocking_units: list[str] = field(default_factory=list)
    candidates: list[dict[str, Any]] = field(default_factory=list)
    readings: dict[str, Any] = field(default_factory=dict)
    # Set while the side's explanations are still to be worked out (see the class docstring).
    _pending: Any = field(default=None, repr=False, compare=False)
    # Makes ``traced_to`` when it is first read.
    _words: Any = field(default=None, repr=False, compare=False)
    # Finds ``path`` when it is first read (a unit attached to another division's HQ).
    _find_path: Any = field(default=None, repr=False, compare=False)

    def __init__(self, unit_id: str, side: str, hex: str) -> None:
        # Filled straight into the instance from a template (a determination makes hundreds of these),
        # with fresh lists and mappings of its own.
        self.__dict__ = {
            **_TEMPLATE, "unit_id": unit_id, "side": side, "hex": hex, "_path_value": [], "_blocks_value": [],
            "_blocking_units_value": [], "_candidates_value": [], "_readings_value": {},
        }  # fmt: skip

    def fill(self, **fields: Any) -> None:
        """Set several fields at once, straight into their storage (a determination fills hundreds).

        The same as setting each attribute; it only skips a property call per field.
        """
        store = self.__dict__
        for name, value in fields.items():
            store[_STORAGE.get(name, name)] = value


# The values a new report starts from (its mutable ones are made fresh for each, in UnitSupply.__init__).
_TEMPLATE = dict(
    general=False, combat=False, isolated=False, _traced_to_value="", traced_kind="", traced_id="",
    _length_mp_value=INF, _length_hexes_value=INF, limit="", _code_value="", _rule_value="", _reason_value="",
    _shortfall_value=0.0, _weather_bound_value=False, _blocking_hex_value="", _pending=None, _words=None,
    _find_path=None,
)  # fmt: skip

# What the explanation of a unit out of supply fills in (read lazily, see UnitSupply).
_EXPLAINED = (
    "code", "rule", "reason", "blocks", "shortfall", "weather_bound", "blocking_hex", "blocking_units",
    "candidates", "readings", "length_mp", "length_hexes",
)  # fmt: skip


def _stored(name: str, before_reading) -> property:
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
    if r._pending is not None:
        r._pending()


def _words_first(r: UnitSupply) -> None:
    if r._words is not None:
        words, r._words = r._words, None
        r.traced_to = words()


def _path_first(r: UnitSupply) -> None:
    if r._find_path is not None:
        find, r._find_path = r._find_path, None
        r.path = find()


for _name in _EXPLAINED:
    setattr(UnitSupply, _name, _stored(_name, _explain_first))
# Where each field behind a property is kept (UnitSupply.fill).
_STORAGE = {name: f"_{name}_value" for name in (*_EXPLAINED, "traced_to", "path")}
UnitSupply.traced_to = _stored("traced_to", _words_first)  # type: ignore[method-assign,assignment]
UnitSupply.path = _stored("path", _path_first)  # type: ignore[method-assign,assignment]


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

    def out_of_supply(self, side: str | None = None) -> list[UnitSupply]:
        """Return the reports of the units out of general supply."""
        return [r for r in self.units.values() if not r.general and (side is None or r.side == side)]

    def to_geodataframe(self):  # -> geopandas.GeoDataFrame
        """Return one row per unit: its point, name, formation and supply columns; see :meth:`paths`."""
        import geopandas as gpd

        g = grid(self.state.system)
        records = {u.id: u for u in self.state.units}
        rows = []
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

    def paths(self):  # -> geopandas.GeoDataFrame
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
        return self.determination.supply_range(hq_or_source)

    def hq_ranges_at(self) -> dict[str, np.ndarray]:
        """Return, per side, the names of the in-supply HQs whose range covers each hex ("; "-joined)."""
        return self.determination.hq_ranges_at()

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

    def supply_ranges(self):  # -> geopandas.GeoDataFrame
        """Return the supply range of every in-supply HQ and every source as polygons (EPSG:4326)."""
        import geopandas as gpd
        import shapely

        g = grid(self.state.system)
        polygons = g.to_geodataframe()
        rows, shapes = [], []
        for unit in self.state.units:
            if unit.hq and self.units[unit.id].general:
                hexes = self.supply_range(unit.id)
                rows.append(
                    {"owner": unit.id, "kind": f"{unit.hq} HQ", "side": unit.side, "hexes": len(hexes)}
                )
                shapes.append(shapely.union_all(polygons.loc[sorted(hexes)].geometry.values))
        for side, hexes in self.sources.items():
            for hex_id in hexes:
                reach = self.supply_range(hex_id)
                rows.append({"owner": hex_id, "kind": "source", "side": side, "hexes": len(reach)})
                shapes.append(shapely.union_all(polygons.loc[sorted(reach)].geometry.values))
        return gpd.GeoDataFrame(rows, geometry=shapes, crs="EPSG:4326")
