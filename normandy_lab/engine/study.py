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

import datetime as dt
import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

from normandy_lab.engine.edits import apply_edit
from normandy_lab.engine.scenario import SCENARIO_DIR, load_scenario, scenario_path
from normandy_lab.engine.state import GameState
from normandy_lab.errors import FileRefusedError
from normandy_lab.savefile import write_text_atomically
from normandy_lab.yamllines import read_user_text

FORMAT = "normandy_lab.study/1"


class StudyError(FileRefusedError):
    """A study that cannot be loaded; the message says why and what to do."""


def canonical(value: Any) -> Any:
    """Return a value as plain JSON data in one order whatever the process.

    Sets become sorted lists, mappings ordered dicts, dataclasses their
    fields, dates ISO text, sequences lists: nothing is left to ``str()``,
    whose order for a set follows the process's hash seed.
    """
    if is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for f in fields(value):
            how, held = f.metadata.get("canonical"), getattr(value, f.name)
            if (how == "omit_if_none" and held is None) or (how == "omit_if_empty" and not held):
                continue  # a field added later, at its default: the fingerprints saved before it stay true
            if how == "omit":  # derived from what the fingerprint holds already
                continue
            if how == "flatten":  # a state's markers stand beside its fields, where they were before
                flat = canonical(held)
                rules = getattr(value, "rules", None)
                for name in getattr(rules, "late_markers", ()):  # at its default: as before it existed
                    if name in flat and flat[name] == canonical(rules.markers[name]):
                        del flat[name]
                out.update(flat)
            else:
                out[f.name] = canonical(held)
        return out
    if callable(value):  # a rule system's function: its module and name stand for it
        return f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', repr(value))}"
    if isinstance(value, Mapping):
        return {str(k): canonical(v) for k, v in sorted(value.items(), key=lambda item: str(item[0]))}
    if isinstance(value, set | frozenset):
        return sorted((canonical(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, Sequence):
        return [canonical(v) for v in value]
    raise TypeError(f"fingerprint: cannot make {type(value).__name__} canonical")


def fingerprint(state: GameState) -> str:
    """Return a stable hash of everything in a state, the same in every process (sets sorted)."""
    text = json.dumps(canonical(state), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


class Study:
    """A scenario with a list of edits; ``study.state`` is where they lead."""

    def __init__(self, scenario: str, edits: list[dict[str, Any]] | None = None, title: str = "") -> None:
        self.scenario = str(scenario)
        self.title = title
        #: Why the edits led to another state than the one saved, for a study opened with ``replay=True``
        #: (:func:`load_study`); "" otherwise.
        self.changed_since_saved = ""
        self.edits: list[dict[str, Any]] = []
        self.states: list[GameState] = [load_scenario(self.scenario)]
        for edit in edits or []:
            self.apply(edit)

    @property
    def state(self) -> GameState:
        """The state the edits lead to."""
        return self.states[-1]

    def apply(self, edit: dict[str, Any]) -> GameState:
        """Apply an edit (refused edits raise and change nothing).

        The edit is kept as its own copy, through the JSON it will be saved as:
        a list or dict the caller reuses cannot rewrite it afterwards, and an
        edit that could not be saved is refused now rather than at saving.
        """
        try:
            kept = json.loads(json.dumps(edit, allow_nan=False))
        except (TypeError, ValueError) as exc:
            raise StudyError(f"edit {edit!r} cannot be saved in a study: {exc}") from None
        if not isinstance(kept, dict):
            raise StudyError(f"an edit is a mapping with an 'op', not {type(edit).__name__}")
        new = apply_edit(self.state, kept)
        self.edits.append(kept)
        self.states.append(new)
        return new

    def undo(self) -> GameState:
        """Take back the last edit."""
        if not self.edits:
            raise StudyError("nothing to undo")
        self.edits.pop()
        self.states.pop()
        return self.state


def _scenario_record(scenario: str, study_path: Path) -> dict[str, str]:
    """Return where a study's scenario is: by name, or by path relative to the study, with its content hash.

    The study then reopens from another folder, and a changed scenario is named as such.
    """
    resolved = scenario_path(scenario).resolve()
    record = {"scenario_sha256": hashlib.sha256(resolved.read_bytes()).hexdigest()}
    if resolved.parent != SCENARIO_DIR.resolve():  # not one of the project's scenarios: a file of its own
        record["scenario_file"] = os.path.relpath(resolved, study_path.resolve().parent)
    return record


def save_study(study: Study, path: str | Path) -> Path:
    """Save a study atomically (write a temporary file, then rename it over the target).

    Besides the scenario as given, the file records the scenario's path
    relative to the study (when it is not one of the project's scenarios)
    and its content hash, so that the study reopens from another folder and
    a changed scenario is named as such.
    """
    path = Path(path)
    payload = {
        "format": FORMAT,
        "title": study.title,
        "scenario": study.scenario,
        **_scenario_record(study.scenario, path),
        "edits": study.edits,
        "state_label": study.state.label,
        "fingerprint": fingerprint(study.state),
    }
    return write_text_atomically(path, json.dumps(payload, indent=2, ensure_ascii=False))


def load_study(path: str | Path, replay: bool = False) -> Study:
    """Load a study and replay its edits; check that it reproduces the saved state.

    ``replay=True`` opens a study whose edits still apply but lead to another state than the one saved
    (the rules or the scenario changed since): the study is returned with ``changed_since_saved`` saying
    why, and the file is left as it is until the analyst saves again.

    Raises
    ------
    StudyError
        For an unreadable file, another format, a missing scenario, an edit
        that no longer applies, or a state that differs from the one saved.
    """
    path = Path(path)
    text = read_user_text(path, StudyError, "study file")
    try:
        payload = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StudyError(f"{path}:{exc.lineno}: not a study file: {exc.msg}") from None
    except RecursionError:
        raise StudyError(f"{path}: nested too deeply to be a study file") from None
    if not isinstance(payload, dict):
        raise StudyError(f"{path}: not a study file (a JSON object with 'format': {FORMAT!r} is expected)")
    if payload.get("format") != FORMAT:
        raise StudyError(f"{path}: format {payload.get('format')!r} is not {FORMAT!r}")
    from normandy_lab.schemas import StudySchema, validate

    validate(StudySchema, payload, str(path), StudyError)
    scenario = payload["scenario"]  # the schema made sure it is there and is text
    relative = payload.get("scenario_file")  # text or None, as the schema made sure
    if relative:
        beside = (path.resolve().parent / relative).resolve()
        if beside.is_file():  # the study and its scenario moved together, or the study is read elsewhere
            scenario = str(beside)
    try:
        found = scenario_path(scenario)
    except FileNotFoundError as exc:
        raise StudyError(f"{path}: {exc}") from None
    recorded = payload.get("scenario_sha256")
    changed = False
    if recorded and found.is_file():
        changed = hashlib.sha256(found.read_bytes()).hexdigest() != recorded
    edits = payload.get("edits", [])
    try:
        study = Study(scenario, title=payload.get("title", ""))
    except (ValueError, OSError) as exc:  # ScenarioError is a ValueError
        raise StudyError(f"{path}: its scenario cannot be loaded: {exc}") from None
    from normandy_lab.schemas import check_game_fields

    for n, edit in enumerate(edits):  # the fields that are the game's own, before any edit is replayed
        check_game_fields(study.state.rules, edit, f"{path}: edits[{n}]", StudyError)
    for n, edit in enumerate(edits):
        try:
            study.apply(edit)
        except (MemoryError, RecursionError) as exc:
            # Not an edit that stopped applying: the study is too large to replay here.
            ran_out = "memory" if isinstance(exc, MemoryError) else "stack"
            raise StudyError(
                f"{path}: replaying edit {n + 1} ran out of {ran_out}; the study is too large to open"
            ) from None
        except Exception as exc:
            raise StudyError(f"{path}: edit {n + 1} ({edit.get('op')}) no longer applies: {exc}") from None
    if fingerprint(study.state) != payload.get("fingerprint"):
        why = (
            f"the scenario file {found} changed since the study was saved (its content differs)"
            if changed
            else "the rules or the engine changed since, or the file was edited by hand"
        )
        if replay:
            study.changed_since_saved = why
            return study
        raise StudyError(
            f"{path}: replaying the edits gives a different state than the one saved: {why}; "
            "the edits are kept in the file; load_study(path, replay=True) opens it under today's rules"
        )
    return study
