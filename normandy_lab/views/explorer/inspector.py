"""The explorer's inspector: the side panel's words about a clicked unit, formation or hex.

An :class:`Inspector` is fed a state and the engine's supply report of it, and
writes its words into its own output widget.  It computes no rule of supply: every
verdict, line and reason it gives is read from the report.  So it can be built
and tested from a report, without the map or the explorer around it (issue 32,
section 3).
"""

from __future__ import annotations

import html
from typing import Any

import numpy as np

from normandy_lab.engine.state import GameState
from normandy_lab.grids import grid
from normandy_lab.views import layers, wording

#: What the panel says before anything is clicked.
PROMPT = "Click a unit or a hex on the map."


class Inspector:
    """The words about a unit or a formation of one state, from the engine's report of it.

    Parameters
    ----------
    state
        The state shown.
    report
        The engine's supply report of ``state`` (``Session.report``, or ``state.rules.supply_report``).

    Attributes
    ----------
    output
        The panel's widget (HTML); :meth:`show_unit` and :meth:`show_formation` write into it.
    """

    def __init__(self, state: GameState, report: Any) -> None:
        import ipywidgets as w

        self.output = w.HTML(PROMPT)
        self.feed(state, report)

    def feed(self, state: GameState, report: Any) -> Inspector:
        """Take another state and its report (after a step or an edit); return the inspector itself."""
        if getattr(self, "report", None) is not report:
            self._ranges: dict[str, set[str]] | None = None  # the HQ ranges of the report before
        self.state, self.report = state, report
        return self

    def clear(self) -> None:
        """Show the prompt again (a new scenario was opened)."""
        self.output.value = PROMPT

    def show_unit(self, unit_id: str) -> None:
        """Write :meth:`unit_html` of ``unit_id`` into the panel."""
        self.output.value = self.unit_html(unit_id)

    def show_formation(self, key: str) -> None:
        """Write :meth:`formation_html` of ``key`` into the panel."""
        self.output.value = self.formation_html(key)

    def show_hex(self, hex_id: str, selected: str | None = None) -> None:
        """Write :meth:`hex_html` of ``hex_id`` into the panel, after ``selected``'s report if it is there.

        ``hex_id`` is a hex of the state's map, as its grid writes it (the explorer checks a typed one).
        """
        text = self.hex_html(hex_id)
        if selected and any(u.id == selected and u.hex == hex_id for u in self.state.units):
            # The click was on the selected unit: its report first, then its hex.
            text = self.unit_html(selected) + "<hr>" + text
        self.output.value = text

    def hq_ranges(self) -> dict[str, set[str]]:
        """Return the supply range of every HQ in General Supply, from the report (once per report)."""
        if self._ranges is None:
            state, report = self.state, self.report
            self._ranges = {
                u.id: report.supply_range(u.id)
                for u in state.units
                if u.hq and u.status == "active" and report[u.id].general
            }
        return self._ranges

    def hex_html(self, hex_id: str) -> str:
        """Return everything about a hex, in words: terrain, place, control, zones, HQ ranges, hexsides.

        ``hex_id`` is a hex of the state's map, as its grid writes it.  Control and zones of control are
        the engine's (:mod:`normandy_lab.engine.zoc`), the HQ ranges the report's; the terrain and the
        hexsides are the map's.
        """
        from normandy_lab.engine.zoc import hex_control, zoc_mask
        from normandy_lab.terrain import terrain_map

        state = self.state
        system = state.system
        g = grid(system)
        tmap = terrain_map(system, progress=False)
        row = tmap.hex(hex_id)
        units = [u for u in state.units if u.hex == hex_id and u.status == "active"]
        i = g.index(hex_id)
        zocs = [side for side in ("allied", "german") if zoc_mask(state, side)[i]]
        control = hex_control(state, at=np.array([i]))[0] or "nobody"
        ranges = [hq for hq, reach in self.hq_ranges().items() if hex_id in reach]
        settlement = f" with a {str(row['settlement']).lower()}" if row["settlement"] else ""
        unit_words = ", ".join(f"{html.escape(u.name)} ({html.escape(u.id)})" for u in units) or "none"
        features = _hexside_words(state, tmap.hexsides, hex_id)
        lines = [
            f"<b>Hex {html.escape(wording.place_of(system, hex_id))}</b>, sheet {g.sheet_of(hex_id)}",
            f"Terrain: {html.escape(str(row['terrain']))}{html.escape(settlement)}.",
            f"Held by {control} ({wording.rule_ref(system, 'control')}); "
            f"in the zone of control of {' and '.join(zocs) or 'neither side'} "
            f"({wording.rule_ref(system, 'zoc')}).",
            f"Units here: {unit_words}.",
            f"Within the supply range of: {html.escape(', '.join(ranges) or 'no HQ')} "
            f"({wording.rule_ref(system, 'unit_supply_range')}).",
            f"Hexsides: {html.escape('; '.join(features) or 'nothing special')}.",
        ]
        if hex_id in state.interdicted_hexes:
            lines.append("<b>Interdicted</b> (what-if): no line of supply passes through it.")
        return "<br>".join(lines)

    def unit_html(self, unit_id: str) -> str:
        """Return a unit's verdict in sentences, its combat chain, line, strengths and the rest of its stack.

        Raises
        ------
        UnknownNameError
            For an id that is no unit of the state (the state's own refusal, with the nearest ids).
        """
        from normandy_lab.engine.movement import allowance

        state, report = self.state, self.report
        unit = state.unit(unit_id)
        r = report[unit_id]
        shown_attack, defense = state.rules.unit_strength(state, unit, r.general)
        halved = " (halved, out of supply)" if not r.general else ""
        lines = [wording.unit_report(state, report, unit_id)]
        if "combat_supply_chain" in state.rules.rule_refs:  # a game whose combat supply runs up HQs (BfN)
            lines.append(
                f"Combat Supply chain ({wording.rule_ref(state.system, 'combat_supply_chain')}): "
                f"{self.combat_chain(unit)}"
            )
        lines += [
            f"Line: {html.escape(' → '.join(r.path)) if r.path else 'none'}",
            f"Strength: attack {shown_attack}{halved}, defense {defense}; "
            f"movement allowance now {allowance(state, unit, r.general, r.isolated):g}",
        ]
        stack = [u for u in state.units if u.hex == unit.hex and u.status == "active" and u.id != unit_id]
        if stack:
            lines.append(
                "<b>Also in this hex:</b><br>"
                + "<br>".join(
                    f"&nbsp;&nbsp;{html.escape(u.name)} ({html.escape(u.id)}): "
                    f"{'in supply' if report[u.id].general else 'OUT OF SUPPLY'}"
                    for u in stack
                )
            )
        return "<br>".join(lines)

    def formation_html(self, key: str) -> str:
        """Return a formation's units, each with its place and whether it is in supply, and how many are not.

        ``key`` is a formation's key (``views.layers.formation_key``), or several joined as one symbol.
        """
        state, report = self.state, self.report
        ids = layers.formation_units(state, key)
        rows = []
        for uid in ids:
            u = state.unit(uid)
            state_words = "in supply" if report[uid].general else "<b style='color:#c0392b'>OUT OF SUPPLY</b>"
            rows.append(
                f"&nbsp;&nbsp;{html.escape(u.name)} ({html.escape(uid)}), "
                f"{html.escape(wording.place_of(state.system, u.hex))}: {state_words}"
            )
        out = sum(not report[u].general for u in ids)
        return (
            f"<b>{html.escape(key)}</b>: {len(ids)} units, {out} out of "
            f"{html.escape(state.rules.supply_states[0].label)}. "
            "Zoomed in on them; click a counter for its report.<br>" + "<br>".join(rows)
        )

    def combat_chain(self, unit: Any) -> str:
        """Describe the links of a unit's Combat Supply: its division HQ, and what that HQ traces to."""
        yes_no = {True: "yes", False: "no"}
        hq = None
        if not (unit.hq in ("corps", None) and not unit.formation):
            hq = next(
                (u for u in self.state.units if u.hq in ("division", "kg") and u.formation == unit.formation),
                None,
            )
        if hq is None or hq.id == unit.id:  # it traces on its own: no division HQ between
            r = self.report[unit.id]
            return (
                f"{html.escape(unit.id)} → {html.escape(r.traced_to or 'nothing')} "
                f"(Combat Supply {yes_no[r.combat]})"
            )
        h = self.report[hq.id]
        return (
            f"{html.escape(unit.id)} → {html.escape(hq.id)} (HQ in Combat Supply: {yes_no[h.combat]}) → "
            f"{html.escape(h.traced_to or 'nothing')}"
        )


def _hexside_words(state: GameState, hexsides: Any, hex_id: str) -> list[str]:
    """Say what each side of a hex has (a river, a road, a bridge and whether it is destroyed)."""
    sides = hexsides[(hexsides["a"] == hex_id) | (hexsides["b"] == hex_id)]
    features = []
    for a, b, water, name, road, bridge in zip(
        sides["a"], sides["b"], sides["water_feature"], sides["water_name"], sides["road"],
        sides["road_bridge"], strict=True,
    ):  # fmt: skip
        other = b if a == hex_id else a
        bits = [
            f"{water} {name}".strip() if name else "",
            f"{road} road" if road != "none" else "",
            "bridge" + (" (destroyed)" if f"{min(a, b)}|{max(a, b)}" in state.destroyed_bridges else "")
            if bridge
            else "",
        ]
        bits = [x for x in bits if x]
        if bits:
            features.append(f"towards {other}: {', '.join(bits)}")
    return features
