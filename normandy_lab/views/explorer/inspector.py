"""The explorer's inspector: the side panel that says what a clicked unit's verdict, line and reason are.

An :class:`Inspector` is fed a state and the engine's supply report of it, and
writes its words into its own output widget.  It computes no rule: every
verdict, line and reason it gives is read from the report.  So it can be built
and tested from a report, without the map or the explorer around it (issue 32,
section 3).
"""

from __future__ import annotations

import html
from typing import Any

from normandy_lab.engine.state import GameState
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

        self.state, self.report = state, report
        self.output = w.HTML(PROMPT)

    def feed(self, state: GameState, report: Any) -> Inspector:
        """Take another state and its report (after a step or an edit); return the inspector itself."""
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
