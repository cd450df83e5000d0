"""Place a BfN scenario's HQ counters as supply hubs, as a player would, and write them into the parts.

BfN's division HQ counter is where its division's supply is handed out
(7.2, 7.3.1): a player keeps it within 6 hexes or 6 MP of the battalions and
within 20 MP of a corps HQ.  The researched parts put each HQ at the
historical command post; this script finds, for every HQ whose counter
there leaves units out, the hex that supplies the most of them
(:func:`normandy_lab.rules.bfn.setup_check.propose_hq_hex`; corps HQs with
:func:`~normandy_lab.rules.bfn.setup_check.propose_corps_hq_hex`), and, with
``--apply``, writes it into ``scenarios/parts/bfn_<date>_{allied,german}.yaml``.
The command post stays in the unit's ``note``; the ``source`` is kept.
Rebuild the scenario afterwards (``scripts/build_scenario_bfn.py``)::

    python scripts/place_hqs_bfn.py 1944-06-13            # show the moves
    python scripts/place_hqs_bfn.py 1944-06-13 --apply    # write them into the parts
"""

from __future__ import annotations

import argparse
import re
from dataclasses import replace
from pathlib import Path

import yaml

import normandy_lab as nl
from normandy_lab.rules.bfn.setup_check import propose_corps_hq_hex, propose_hq_hex

ROOT = Path(__file__).resolve().parents[1]
PARTS = ROOT / "scenarios" / "parts"
MARK = "HQ counter placed"


def _moved(state, unit_id: str, hex_id: str):
    return state.evolve(units=tuple(u if u.id != unit_id else replace(u, hex=hex_id) for u in state.units))


def _out(state, side: str | None = None) -> int:
    return len(nl.supply(state).out_of_supply(side))


def plan(date: str, weather: str | None = None) -> tuple[object, dict[str, tuple[str, str, str]]]:
    """Return the state with the HQs moved, and unit id -> (old hex, new hex, why) for each move.

    Each round asks every division and KG HQ for its best hex (:func:`propose_hq_hex`: the fewest units
    of its side out of General Supply, losing no unit's Combat Supply and breaking no recorded pocket)
    and takes the moves that leave fewer out, the biggest gain first (then the shortest move, then the
    HQ's id), each asked again after the moves before it; a move is kept only if fewer units in all are
    out after it (the owner's aim).  Corps HQs follow.  ``weather`` places for another weather than the
    scenario's (a what-if: the scenario file is placed for its own).
    """
    state = nl.load_scenario(f"bfn_{date}_am")
    if weather:
        state = state.evolve(weather=weather)
    moves: dict[str, tuple[str, str, str]] = {}
    out_now = _out(state)

    def fewer_out(candidate, side: str) -> int | None:
        """A corps move is kept only if fewer units of its side, and fewer in all, are out after it."""
        if _out(candidate, side) >= _out(state, side):
            return None
        count = _out(candidate)
        return count if count < out_now else None

    def wanted(proposal) -> bool:
        return proposal.hex != proposal.current and proposal.hq_mp <= 20 and proposal.out < proposal.out_now

    for _ in range(6):  # corps and division moves depend on each other; a few rounds settle them
        changed = False
        proposals = []
        for hq in [u for u in state.units if u.hq in ("division", "kg")]:
            proposal = propose_hq_hex(state, hq.id)
            if not wanted(proposal):
                continue
            now_ok = nl.supply(state)[hq.id].general
            if not now_ok and 2 * proposal.covered < proposal.covered_now:
                continue  # the HQ would leave most of its units to reach a corps HQ: move the corps HQ
            proposals.append(proposal)
        # The biggest gain first, then the shortest move; each asked again after the moves before it.
        proposals.sort(key=lambda p: (p.out - p.out_now, p.moved_hexes, p.unit_id))
        for k, proposal in enumerate(proposals):
            if k and changed:
                proposal = propose_hq_hex(state, proposal.unit_id)
                if not wanted(proposal):
                    continue  # an earlier move of this round already did it
            hq = state.unit(proposal.unit_id)
            trial = _moved(state, hq.id, proposal.hex)
            if (count := _out(trial)) >= out_now:
                continue  # it would put more of the enemy into supply than it gains
            old = moves.get(hq.id, (hq.hex, "", ""))[0]
            now_ok = nl.supply(state)[hq.id].general
            why = (
                f"brings {', '.join(proposal.brought_in)} into General Supply; "
                f"reaches {proposal.covered} of its {proposal.members} units (from where it stood "
                f"{proposal.covered_now}{'' if now_ok else ', but out of supply there'}), "
                f"{proposal.hq_mp:g} MP from a source or corps HQ"
            )
            moves[hq.id] = (old, proposal.hex, why)
            state, changed, out_now = trial, True, count
        for corps in [u for u in state.units if u.hq == "corps"]:
            hex_id, won, kept = propose_corps_hq_hex(state, corps.id)
            if not won or hex_id == corps.hex:
                continue
            old = moves.get(corps.id, (corps.hex, "", ""))[0]
            kept_words = ", ".join(kept) or "every HQ it supplied"
            why = f"brings {', '.join(won)} within 20 MP (7.2), keeping {kept_words}"
            trial = _moved(state, corps.id, hex_id)
            if (count := fewer_out(trial, corps.side)) is None:
                continue
            moves[corps.id] = (old, hex_id, why)
            state, changed, out_now = trial, True, count
        if not changed:
            break
    return state, {k: v for k, v in moves.items() if v[0] != v[1]}


def _blocks(text: str) -> list[tuple[int, int, str]]:
    """Return (start, end, unit id) of each unit entry of a part's ``units:`` list."""
    first = text.index("\nunits:")  # other lists (the keyed sources) have ids too
    starts = [
        (m.start(), m.group(1)) for m in re.finditer(r"^- id: (\S+)\n", text, re.M) if m.start() > first
    ]
    out = []
    for k, (start, uid) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else len(text)
        body = text.index("\n", start) + 1
        tail = re.search(r"^\S", text[body:end], re.M)  # a top-level key or comment ends the entry
        if tail:
            end = body + tail.start()
        out.append((start, end, uid))
    return out


def apply(date: str, moves: dict[str, tuple[str, str, str]]) -> None:
    """Write the moves into the unit parts, keeping the command post in each HQ's note."""
    g = nl.grid("bfn")
    for side in ("allied", "german"):
        path = PARTS / f"bfn_{date}_{side}.yaml"
        text = path.read_text(encoding="utf-8")
        for start, end, uid in reversed(_blocks(text)):
            if uid not in moves:
                continue
            old, new, why = moves[uid]
            entry = yaml.safe_load(text[start:end])[0]
            kind = "corps" if entry.get("hq") == "corps" else "division"
            post = entry.get("near")
            lon, lat = g.center(new)
            entry["near"] = [round(float(lon), 5), round(float(lat), 5)]
            entry["hex"] = new
            earlier = str(entry.get("note") or "")
            if MARK in earlier:  # placed before: keep the first command post, restate the placement
                earlier = earlier.split(MARK)[0].rstrip(" ;")
                post_words = re.search(r"see source\): (.*?) \(hex", str(entry.get("note")))
                post = post_words.group(1) if post_words else post
                old_hex = re.search(r"see source\): .*? \(hex (\w+)\)", str(entry.get("note")))
                old = old_hex.group(1) if old_hex else old
            note = (
                f"{MARK} as the {kind}'s supply hub (BfN 7.2, 7.3.1, 7.8) by scripts/place_hqs_bfn.py: "
                f"{why}; researched position (command post or estimate, see source): {post} (hex {old})"
            )
            entry["note"] = f"{earlier}; {note}" if earlier else note
            dumped = yaml.safe_dump(
                [entry], allow_unicode=True, sort_keys=False, width=120, default_flow_style=None
            )
            text = text[:start] + dumped + text[end:]
        path.write_text(text, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("date", help="scenario date, YYYY-MM-DD")
    parser.add_argument("--apply", action="store_true", help="write the moves into the parts")
    parser.add_argument("--weather", help="place for this weather instead of the scenario's (dry run only)")
    args = parser.parse_args()
    if args.weather and args.apply:
        parser.error("--weather is a what-if: the scenario file is placed for its own weather")
    before = nl.load_scenario(f"bfn_{args.date}_am")
    if args.weather:
        before = before.evolve(weather=args.weather)
    state, moves = plan(args.date, args.weather)
    for uid, (old, new, why) in sorted(moves.items()):
        print(f"{uid:16} {old} -> {new}  ({nl.grid('bfn').distance(old, new)} hexes): {why}")
    for side in ("allied", "german", None):
        counts = [_out(s, side) for s in (before, state)]
        print(f"out of General Supply ({side or 'all'}, {before.weather}): {counts[0]} -> {counts[1]}")
    if args.apply:
        apply(args.date, moves)
        print("written; now run: python scripts/build_scenario_bfn.py", args.date)


if __name__ == "__main__":
    main()
