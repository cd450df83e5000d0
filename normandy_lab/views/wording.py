"""The explorer's words: hexes named by their places, reports in sentences, changes summed up.

Everything here turns the engine's results into text a teacher can read
aloud; nothing here decides a rule.  Hex ids always come with a place
("C4146, 1 km NW of Juaye-Mondaye"); rule numbers come with a one-line
explanation from the rule system (shown when the pointer rests on them).
Every value that comes from a data file is escaped before it is put into
HTML.
"""

from __future__ import annotations

import html
import math
import re
from typing import Any

from normandy_lab.engine.reasons import CODE_WORDS, EXEMPT, NOT_DESIGNATED
from normandy_lab.engine.state import GameState
from normandy_lab.engine.supply import SupplyReport

# One line per kind of phase (the rule system's phases say which kind they are).
PHASE_KINDS = {
    "weather": "the weather for the day is set; it changes movement, air and supply ranges",
    "air": "air points are allocated; interdiction costs the enemy movement points on each map",
    "movement": "the phasing side moves; supply for movement is judged at the start of this phase",
    "mech_movement": "only mechanized units of the phasing side move again",
    "combat": "the phasing side attacks; combat supply is judged when each attack is made",
    "engineering": "engineers build or repair bridges",
    "reinforcement": "reinforcements and replacements arrive",
    "naval": "ships move to their bombardment areas",
    "bookkeeping": "markers are set or cleared; nothing moves",
    "armed_recon": "Allied aircraft may attack units that moved in the open",
    "end_of_turn": "the turn ends; markers of the turn are removed",
    "end_of_day": "the day ends; supply points and victory are counted",
}


def place_of(system: str, hex_id: str) -> str:
    """Return a hex id with where it is (:func:`normandy_lab.terrain.places.hex_place`)."""
    from normandy_lab.terrain.places import hex_place

    return hex_place(system, hex_id)


def rule_notes(system: str) -> dict[str, str]:
    """Return the rule system's one-line explanation of each rule number it cites."""
    from normandy_lab.rules import ruleset

    return dict(getattr(ruleset(system), "rule_notes", {}) or {})


def rule_ref(system: str, idea: str) -> str:
    """Return the rule system's rule number(s) for an idea (``"control"``, ``"zoc"``...), marked up."""
    from normandy_lab.rules import ruleset

    number = dict(getattr(ruleset(system), "rule_refs", {}) or {}).get(idea, "")
    return link_rules(number, system) if number else "its rules"


def link_rules(text: str, system: str) -> str:
    """Escape ``text`` and mark each rule number the rule system explains (its note shows on hover)."""
    notes = rule_notes(system)
    escaped = html.escape(text)

    def mark(match: re.Match[str]) -> str:
        number = match.group(0)
        note = notes.get(number) or notes.get(number.rstrip("o"))
        if not note:
            return number
        return (
            f"<abbr title='{html.escape(note, quote=True)}' style='text-decoration: underline dotted; "
            f"cursor: help'>{number}</abbr>"
        )

    return re.sub(r"\b\d{1,2}\.\d{1,2}(?:\.\d{1,2})?o?\b", mark, escaped)


def _target_words(
    system: str, state: GameState, report: SupplyReport, traced_to: str, path: list[str]
) -> str:
    """Say what a line reached, by name and place."""
    end = place_of(system, path[-1]) if path else ""
    if traced_to.startswith("source"):  # "source <hex>" or "source or corps HQ"
        other = next(
            (u for u in state.units if u.hex == (path[-1] if path else None) and u.hq == "corps"), None
        )
        if other is not None:
            return f"the corps HQ {html.escape(other.name)} at {html.escape(end)}"
        return f"a supply source at {html.escape(end)}" if end else "a supply source"
    holder = next((u for u in state.units if path and u.hex == path[-1] and u.hq), None)
    if holder is not None:
        return f"{html.escape(traced_to)}: {html.escape(holder.name)} at {html.escape(end)}"
    return html.escape(traced_to) + (f" at {html.escape(end)}" if end else "")


_SIXTHS = {0: "", 1: "⅙", 2: "⅓", 3: "½", 4: "⅔", 5: "⅚"}


def mp_words(mp: float) -> str:
    """Write movement points as a rulebook does: whole points and sixths (35⅔, ½), never 35.6667.

    The games' costs are whole points, halves (a primary road) and thirds (a highway), so every sum is a
    whole number of sixths; anything finer is written to two decimals.
    """
    sixths = round(mp * 6)
    if abs(sixths - mp * 6) > 1e-6:
        return f"{mp:.2f}"
    whole, part = divmod(sixths, 6)
    if whole == 0 and part:
        return _SIXTHS[part]
    return f"{whole}{_SIXTHS[part]}"


def _length_words(hexes: float, mp: float) -> str:
    parts = []
    if math.isfinite(hexes):
        parts.append(f"{hexes:g} {'hex' if hexes == 1 else 'hexes'}")
    if math.isfinite(mp):
        parts.append(f"{mp_words(mp)} {'movement point' if mp == 1 else 'movement points'}")
    return " or ".join(parts) if parts else "no line at all"


def reading_words(rules: Any, readings: dict[str, Any]) -> str:
    """Say the rule readings a verdict used in words, as the game's look words them (``Look.reading_words``).

    BfN's ``combat_supply_chain = own_army`` is "Combat Supply passes only through HQs of the unit's own
    army (7.4, 7.6.1)"; a reading the look has no words for is named with its rule and value:
    "combat supply chain (7.6.1): own army".
    """
    from normandy_lab.rules import RuleSet, look

    refs = getattr(rules, "rule_refs", {}) or {}
    words = look(rules).reading_words if isinstance(rules, RuleSet) else {}
    said = []
    for key, value in sorted(readings.items()):
        if phrase := words.get(key, {}).get(str(value)):
            said.append(phrase)
            continue
        rule = f" ({refs[key]})" if key in refs else ""
        said.append(f"{key.replace('_', ' ')}{rule}: {str(value).replace('_', ' ')}")
    return "; ".join(said)


def reason_words(system: str, reason: str) -> str:
    """Return an engine reason for people: each hex id with its place, lengths without "inf".

    ``"vacant hex C3434 in an EZOC"`` becomes ``"vacant hex C3434, 1 km N of Cristot in an EZOC"``;
    ``"out of range by 0.5 (inf hexes, 6.5 MP)"`` becomes ``"0.5 too far (no line counted in hexes,
    6.5 MP)"``.  The result is plain text (escape it for HTML).
    """
    from normandy_lab.terrain.places import with_places

    text = with_places(system, reason)
    text = text.replace("inf hexes", "no line counted in hexes").replace("inf MP", "no line counted in MP")
    return re.sub(r"out of range by ([\d.]+)", r"\1 too far", text)


def unit_report(state: GameState, report: SupplyReport, unit_id: str) -> str:
    """Return the side panel's account of a unit: its verdict in sentences, then its record.

    Says what the unit traces to (by name and place), how long the line is
    against which limit, and, out of supply, why; then the scenario's
    ``source`` and ``note`` for the unit.
    """
    system = state.system
    unit = state.unit(unit_id)
    r = report[unit_id]
    name = html.escape(unit.name)
    where = html.escape(place_of(system, unit.hex))
    lines = [
        f"<b>{name}</b> <small>({html.escape(unit.id)})</small>",
        f"{html.escape(unit.nationality or '')} {html.escape(unit.type)} {html.escape(unit.size)}, "
        f"{unit.steps} steps, at {where}",
        f"Formation: {html.escape(unit.formation or 'corps or army troops')}"
        + (f"; corps: {html.escape(unit.corps)}" if unit.corps else ""),
    ]
    # The states the rule system declares (BfN: General, Combat, isolated; Cobra: supply, isolated).
    states = {s.key: s for s in state.rules.supply_states}
    supplied = state.rules.supply_states[0].label
    if r.general and r.code == EXEMPT and not r.path:  # in supply by a rule, with no line to describe
        lines.append(
            f"<span style='color:#1e7b1e'><b>In {html.escape(supplied)}.</b></span> "
            f"{link_rules(reason_words(system, r.traced_to or r.reason), system)}."
        )
    elif r.general:
        target = _target_words(system, state, report, r.traced_to, r.path)
        lines.append(
            f"<span style='color:#1e7b1e'><b>In {html.escape(supplied)}.</b></span> "
            f"Its line reaches {target}, {_length_words(r.length_hexes, r.length_mp)} long; "
            f"the limit is {link_rules(r.limit, system)}."
        )
        if ":" in r.traced_to:  # the rule system counted the line out in words (Cobra 10.3's legs)
            lines.append(f"Counted: {link_rules(reason_words(system, r.traced_to), system)}")
        if "combat" in states:
            combat = states["combat"]
            # Why a unit lacks the second kind: BfN's chain of HQs (7.6.1), or that kind's rule (Cobra 5.9f).
            if "combat_supply_chain" in state.rules.rule_refs:
                chain = rule_ref(system, "combat_supply_chain")
                why = f"its chain of HQs to a source of its own nation is broken; {chain}"
            else:
                why = link_rules(combat.rule, system)
            lines.append(
                f"It is also in {html.escape(combat.label)}."
                if r.combat
                else f"It is <b>not</b> in {html.escape(combat.label)} ({why})."
            )
    else:
        isolated = states.get("isolated")
        lines.append(
            f"<span style='color:#c0392b'><b>Out of {html.escape(supplied)}.</b></span> "
            + (
                f"It is <b>isolated</b>: no line of any length reaches what it may trace to "
                f"({link_rules(isolated.rule if isolated else '', system)}). "
                if r.isolated
                else ""
            )
            + (
                ""  # a game that traces no line (The Greatest Day's designation) has no limit to give
                if r.code == NOT_DESIGNATED
                else f"It may trace at most {link_rules(r.limit, system)}."
            )
        )
        lines.append(
            f"<b>What binds:</b> {html.escape(CODE_WORDS.get(r.code, r.code or 'unknown'))} "
            f"({link_rules(r.rule, system)})."
        )
        for entry in r.candidates:
            lengths = _length_words(entry.get("hexes", math.inf), entry.get("mp", math.inf))
            if lengths == "no line at all":
                said = "no legal line reaches it at all"
            else:
                said = f"the shortest legal line is {lengths}, too long"
            lines.append(f"&nbsp;&nbsp;• To {html.escape(entry['target'])}: {said}.")
        lines.append(f"In the engine's words: {link_rules(reason_words(system, r.reason), system)}")
        for block in r.blocks:
            where = html.escape(reason_words(system, block.words()))
            if block.binding:
                lines.append(f"<b>The cause:</b> {where}; without it alone the unit would be in supply.")
            else:
                lines.append(f"In the way, not the cause alone: {where}.")
        if r.readings:
            said = html.escape(reading_words(state.rules, r.readings))
            lines.append(f"<small>Where the rulebook is open, the readings played: {said}.</small>")
    source = getattr(unit, "source", "") or ""
    note = getattr(unit, "note", "") or ""
    if source or note:
        lines.append(
            "<small><i>From the scenario:</i> "
            + (html.escape(note) + " " if note else "")
            + (f"(source: {html.escape(source)})" if source else "")
            + "</small>"
        )
    return "<br>".join(lines)


def change_summary(
    before: GameState,
    before_report: SupplyReport,
    after: GameState,
    after_report: SupplyReport,
    what: str,
) -> tuple[str, list[str]]:
    """Say what an edit or step changed, and return the units whose verdict changed.

    Counts the units that lost or regained General Supply, that became
    isolated, and whose line got longer or shorter (in movement points), by side.
    """
    lost, regained, longer, shorter, changed = [], [], [], [], []
    for uid, new in after_report.units.items():
        old = before_report.units.get(uid)
        if old is None:
            continue
        if old.general and not new.general:
            lost.append(new)
            changed.append(uid)
        elif new.general and not old.general:
            regained.append(new)
            changed.append(uid)
        elif old.general and new.general and math.isfinite(old.length_mp) and math.isfinite(new.length_mp):
            if new.length_mp > old.length_mp:
                longer.append(new)
            elif new.length_mp < old.length_mp:
                shorter.append(new)

    def by_side(items: list[Any], noun: str = "") -> str:
        allied = sum(1 for x in items if x.side == "allied")
        german = len(items) - allied
        parts = [f"{allied} Allied" if allied else "", f"{german} German" if german else ""]
        counted = " and ".join(p for p in parts if p)
        if not noun:
            return counted or "none"
        return f"{counted or 'no'} {noun if len(items) == 1 else noun + 's'}"  # "1 Allied unit", "no units"

    supplied = before_report.state.rules.supply_states[0].label
    sentence = (
        f"{what}: {by_side(lost, 'unit')} lost {supplied}, {by_side(regained)} regained it; "
        f"{by_side(longer, 'line')} longer, {by_side(shorter)} shorter."
    )
    return sentence, changed


def edit_words(system: str, edit: dict[str, Any], state: GameState | None = None) -> str:
    """Describe an edit in words ("Bridge C3819–C3718 (Caen) over the Orne destroyed")."""
    op = edit.get("op", "")
    if op in ("destroy_bridge", "repair_bridge"):
        a, b = edit.get("hexside", ["?", "?"])
        water = _water_between(system, a, b)
        verb = "destroyed" if op == "destroy_bridge" else "repaired"
        return f"Bridge {place_of(system, a)} – {b}" + (f" over the {water}" if water else "") + f" {verb}"
    if op in ("interdict", "clear_interdiction"):
        verb = "interdicted" if op == "interdict" else "no longer interdicted"
        return f"Hex {place_of(system, edit.get('hex', '?'))} {verb}"
    if op == "move":
        return f"{edit.get('unit')} moved to {place_of(system, edit.get('to', '?'))}"
    if op == "weather":
        return f"Weather set to {edit.get('weather')}"
    if op == "air":
        return "Air and anti-aircraft points changed"
    if op == "add_unit":
        unit = edit.get("unit", {})
        return f"{unit.get('name', 'a unit')} added at {place_of(system, unit.get('hex', '?'))}"
    if op == "remove_unit":
        return f"{edit.get('unit')} removed"
    if op == "next_phase":
        return f"Step to {state.label}" if state is not None else "Step to the next phase"
    return str(op)


def _water_between(system: str, a: str, b: str) -> str:
    from normandy_lab.terrain import terrain_map

    try:
        return str(terrain_map(system, progress=False).hexside(a, b).get("water_name", "") or "")
    except KeyError:  # an unknown hexside: the words go without the river's name
        return ""


def phase_line(state: GameState) -> str:
    """Return one line on the phase shown: its name, what happens in it, and its rules."""
    phase = state.rules.sequence[state.turn][state.phase_index]
    what = PHASE_KINDS.get(phase.kind, "")
    rules = f" ({link_rules(phase.rules, state.system)})" if phase.rules else ""
    return f"<b>{html.escape(phase.name)}</b>: {html.escape(what)}{rules}"
