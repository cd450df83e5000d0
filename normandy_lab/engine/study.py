"""Studies: a scenario plus an analyst's edits and the phase reached, saved and reloaded exactly.

A study file (``normandy_lab.study/1``, JSON) stores the scenario it starts
from, the ordered list of edits (moves, interdictions, bridges, weather,
air, units added or removed, phase steps) and a fingerprint of the state
they lead to.  Loading replays the edits on the scenario and checks the
fingerprint, so a reloaded study is the same state, or a clear error says
that the scenario changed since.  Files are written atomically: a crash
never leaves a partial study, and an existing study is replaced only once
the new one is complete.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from normandy_lab.engine.edits import apply_edit
from normandy_lab.engine.scenario import load_scenario, scenario_path
from normandy_lab.engine.state import GameState
from normandy_lab.savefile import write_text_atomically

FORMAT = "normandy_lab.study/1"


class StudyError(ValueError):
    """A study that cannot be loaded; the message says why and what to do."""


def fingerprint(state: GameState) -> str:
    """Return a stable hash of everything in a state."""
    data = {f.name: getattr(state, f.name) for f in fields(state)}
    data["units"] = [asdict(u) for u in state.units]
    data["beachheads"] = [asdict(b) for b in state.beachheads]
    for key in ("air_points", "aa_points", "control", "options"):
        data[key] = dict(sorted(getattr(state, key).items()))
    data["destroyed_bridges"] = sorted(state.destroyed_bridges)
    data["interdicted_hexes"] = sorted(state.interdicted_hexes)
    data["german_supply_cities"] = sorted(state.german_supply_cities)
    data["date"] = state.date.isoformat()
    data["expected_out"] = [asdict(e) for e in state.expected_out]
    text = json.dumps(data, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


class Study:
    """A scenario with a list of edits; ``study.state`` is where they lead."""

    def __init__(self, scenario: str, edits: list[dict[str, Any]] | None = None, title: str = "") -> None:
        self.scenario = str(scenario)
        self.title = title
        self.edits: list[dict[str, Any]] = []
        self.states: list[GameState] = [load_scenario(self.scenario)]
        for edit in edits or []:
            self.apply(edit)

    @property
    def state(self) -> GameState:
        """The state the edits lead to."""
        return self.states[-1]

    def apply(self, edit: dict[str, Any]) -> GameState:
        """Apply an edit (refused edits raise and change nothing)."""
        new = apply_edit(self.state, edit)
        self.edits.append(dict(edit))
        self.states.append(new)
        return new

    def undo(self) -> GameState:
        """Take back the last edit."""
        if not self.edits:
            raise StudyError("nothing to undo")
        self.edits.pop()
        self.states.pop()
        return self.state


def save_study(study: Study, path: str | Path) -> Path:
    """Save a study atomically (write a temporary file, then rename it over the target)."""
    payload = {
        "format": FORMAT,
        "title": study.title,
        "scenario": study.scenario,
        "edits": study.edits,
        "state_label": study.state.label,
        "fingerprint": fingerprint(study.state),
    }
    return write_text_atomically(path, json.dumps(payload, indent=2, ensure_ascii=False))


def load_study(path: str | Path) -> Study:
    """Load a study and replay its edits; check that it reproduces the saved state.

    Raises
    ------
    StudyError
        For an unreadable file, another format, a missing scenario, an edit
        that no longer applies, or a state that differs from the one saved.
    """
    path = Path(path)
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise StudyError(f"{path}: not a readable study file ({exc})") from None
    if payload.get("format") != FORMAT:
        raise StudyError(f"{path}: format {payload.get('format')!r} is not {FORMAT!r}")
    try:
        scenario_path(payload["scenario"])
    except FileNotFoundError as exc:
        raise StudyError(f"{path}: {exc}") from None
    study = Study(payload["scenario"], title=payload.get("title", ""))
    for n, edit in enumerate(payload.get("edits", [])):
        try:
            study.apply(edit)
        except Exception as exc:
            raise StudyError(f"{path}: edit {n + 1} ({edit.get('op')}) no longer applies: {exc}") from None
    if fingerprint(study.state) != payload.get("fingerprint"):
        raise StudyError(
            f"{path}: replaying the edits gives a different state than the one saved "
            "(the scenario or the rules changed since); the edits are kept in the file"
        )
    return study
