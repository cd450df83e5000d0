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
import errno
import hashlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

from normandy_lab.engine.edits import apply_edit
from normandy_lab.engine.scenario import (
    SCENARIO_DIR,
    ScenarioError,
    load_scenario_text,
    scenario_format,
    scenario_path,
)
from normandy_lab.engine.state import GameState
from normandy_lab.errors import FileRefusedError
from normandy_lab.savefile import refuse_to_replace, write_text_atomically
from normandy_lab.schemas.study import StudySchema, check_game_fields
from normandy_lab.schemas.validation import validate
from normandy_lab.yamllines import MAX_FILE_BYTES, read_user_text

FORMAT = "normandy_lab.study/1"
STUDY_FORMATS = "normandy_lab.study/"  # every version of the format: a file that is a study
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # what no title may hold (tab and newline may)

#: The most edits a study may hold.  The longest study of a campaign's worth of moves has a few thousand;
#: replaying 20,000 takes seconds, while 200,000 took minutes, with nothing to show for the wait.
MAX_STUDY_EDITS = 20_000


class StudyError(FileRefusedError):
    """A study that cannot be loaded; the message says why and what to do."""


def _sorted_json(values: Any) -> list[Any]:
    return sorted(values, key=lambda v: json.dumps(v, sort_keys=True))


def canonical(value: Any, *, file_order: bool = False) -> Any:
    """Return a value as plain JSON data in one order whatever the process.

    Sets become sorted lists, mappings ordered dicts, dataclasses their
    fields, dates ISO text, sequences lists: nothing is left to ``str()``,
    whose order for a set follows the process's hash seed.  A dataclass
    field marked ``unordered`` (a state's units, its expected list) and a
    marker its rules list in ``unordered_markers`` (BfN's beachheads) are
    sorted too, so that a scenario whose lists are written in another order
    has the same fingerprint; ``file_order=True`` keeps them as they stand,
    as fingerprints did before (studies saved then still open).
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
                flat = canonical(held, file_order=file_order)
                rules: Any = getattr(value, "rules", None)  # a state's rules; None for other values
                # Markers added later, at their default, as before they existed (the game's file format's).
                late = scenario_format(value).late_markers if rules is not None else ()
                for name in late:
                    if name in flat and flat[name] == canonical(rules.markers[name]):
                        del flat[name]
                for name in () if file_order else getattr(rules, "unordered_markers", ()):
                    if isinstance(flat.get(name), list):
                        flat[name] = _sorted_json(flat[name])
                out.update(flat)
            elif how == "unordered" and not file_order:
                out[f.name] = _sorted_json(canonical(v) for v in held)
            else:
                out[f.name] = canonical(held, file_order=file_order)
        return out
    if callable(value):  # a rule system's function: its module and name stand for it
        return f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', repr(value))}"
    if isinstance(value, Mapping):
        return {
            str(k): canonical(v, file_order=file_order)
            for k, v in sorted(value.items(), key=lambda item: str(item[0]))
        }
    if isinstance(value, set | frozenset):
        return _sorted_json(canonical(v) for v in value)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, Sequence):
        return [canonical(v, file_order=file_order) for v in value]
    raise TypeError(f"fingerprint: cannot make {type(value).__name__} canonical")


def fingerprint(state: GameState, *, file_order: bool = False) -> str:
    """Return a stable hash of everything in a state, the same in every process (sets sorted).

    The units and the expected list are taken in one order (by their content), so a scenario with its
    lists reordered has the same fingerprint; ``file_order=True`` gives the fingerprint studies were
    saved with before that (issue 28), which :func:`load_study` also accepts.
    """
    text = json.dumps(canonical(state, file_order=file_order), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


class Study:
    """A scenario with a list of edits; ``study.state`` is where they lead.

    The study keeps the scenario's text as it was when opened (and its hash), so that it saves whatever
    happens to the scenario file afterwards: a scenario renamed, moved, deleted or changed after the study
    was opened is written into the study file itself (:func:`save_study`).
    """

    def __init__(
        self,
        scenario: str,
        edits: list[dict[str, Any]] | None = None,
        title: str = "",
        *,
        scenario_text: str | None = None,
    ) -> None:
        self.scenario = str(scenario)
        if not isinstance(title, str) or _CONTROL.search(title):
            # What a study file may hold as its title, checked now: a study that saves must reopen.
            raise StudyError(f"a study's title is text with no control characters, not {title!r:.80}")
        self.title = title
        #: Why the edits led to another state than the one saved, for a study opened with ``replay=True``
        #: (:func:`load_study`); "" otherwise.
        self.changed_since_saved = ""
        self.edits: list[dict[str, Any]] = []
        if scenario_text is None:  # read from its file (a name in scenarios/ or a path)
            found = scenario_path(self.scenario)
            scenario_text = read_user_text(found, ScenarioError, "scenario file")
            #: The scenario file the study was opened from (resolved), or None for a scenario kept in the
            #: study file.
            self.scenario_file: Path | None = found.resolve()
            where = str(found)
        else:  # the text a study file carried (its scenario file had gone when it was saved)
            self.scenario_file = None
            where = f"{self.scenario} (as kept in the study)"
        #: The scenario's text and its SHA-256 as the study opened it: what the edits apply to.
        self.scenario_text = scenario_text
        from_file = _file_sha256(self.scenario_file) if self.scenario_file is not None else None
        self.scenario_sha256 = from_file or _sha256(scenario_text)
        self.states: list[GameState] = [load_scenario_text(scenario_text, where)]
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
        if len(self.edits) >= MAX_STUDY_EDITS:
            raise StudyError(
                f"a study holds at most {MAX_STUDY_EDITS:,} edits; save this one and start another from "
                "a scenario written from its state"
            )
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

    def __repr__(self) -> str:
        steps = sum(1 for e in self.edits if e.get("op") == "next_phase")
        edits = len(self.edits) - steps
        title = f"{self.title!r}, " if self.title else ""
        return (
            f"Study({title}{self.scenario!r}: {edits} edit{'' if edits == 1 else 's'} and {steps} phase "
            f"step{'' if steps == 1 else 's'}, now {self.state.label!r})"
        )


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _file_sha256(path: Path) -> str | None:
    """Return the SHA-256 of a regular file of at most the size any file read may have, else None.

    Read in chunks, after the checks :func:`read_user_text` makes: a device or a 3 GB file is never
    read in order to be hashed.
    """
    try:
        if not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
            return None
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            for chunk in iter(lambda: handle.read(1 << 20), b""):
                digest.update(chunk)
        return digest.hexdigest()
    except OSError:
        return None


def _scenario_record(study: Study, study_path: Path) -> dict[str, str]:
    """Return where a study's scenario is: by name, or by path relative to the study, with its content hash.

    The study then reopens from another folder, and a changed scenario is named as such.  When the file
    the study was opened from has gone, or no longer holds the text the edits were made on (renamed,
    moved, deleted or changed since), the scenario's text as opened is kept in the study
    (``scenario_text``), so that the work always saves and reopens.
    """
    record = {"scenario_sha256": study.scenario_sha256}
    source = study.scenario_file
    if source is not None and source.parent != SCENARIO_DIR.resolve():  # a file of the user's own
        record["scenario_file"] = os.path.relpath(source, study_path.resolve().parent)
    if source is None or _file_sha256(source) != study.scenario_sha256:
        record["scenario_text"] = study.scenario_text
    return record


def _study_format(path: Path) -> str:
    """Return the ``format`` a file holds if it is a study of any version, else ""."""
    try:
        payload = json.loads(read_user_text(path, StudyError, "study file"))
    except (StudyError, ValueError, RecursionError, OSError):
        return ""
    found = str(payload.get("format", "")) if isinstance(payload, dict) else ""
    return found if found.startswith(STUDY_FORMATS) else ""


def _what_is_there(path: Path) -> str:
    found = _study_format(path)
    return f"a study of another format ({found})" if found else "a file that is not a study"


class StudySaveError(StudyError, OSError):
    """A study that could not be written (a full disk, a folder denied); the version saved before is kept."""


def save_study(study: Study, path: str | Path, *, overwrite: bool = False) -> Path:
    """Save a study atomically (write a temporary file, then rename it over the target).

    Besides the scenario as given, the file records the scenario's path
    relative to the study (when it is not one of the project's scenarios)
    and its content hash, so that the study reopens from another folder and
    a changed scenario is named as such.  A scenario file renamed, moved,
    deleted or changed since the study was opened does not stop the save:
    the text the edits were made on is then kept in the study file.

    Parameters
    ----------
    overwrite
        Replace a file at ``path`` that is not a study (by default it is refused and kept as it was; a
        study there, this one or another, is replaced as any Save does).

    Raises
    ------
    ExportRefusedError
        When ``path`` holds a file that is not a study and ``overwrite`` is not set.
    StudySaveError
        When the file cannot be written; it names the file, and the version saved before is kept.
    """
    # A study there (this one or another, pretty or compact) is replaced as any Save does; a study of
    # another format version, or any other file, only when the user says so.
    path = refuse_to_replace(
        path,
        lambda there: _study_format(there) == FORMAT,
        _what_is_there,
        overwrite=overwrite,
        writing="a study",
    )
    payload = {
        "format": FORMAT,
        "title": study.title,
        "scenario": study.scenario,
        **_scenario_record(study, path),
        "edits": study.edits,
        "state_label": study.state.label,
        "fingerprint": fingerprint(study.state),
    }
    try:
        return write_text_atomically(path, json.dumps(payload, indent=2, ensure_ascii=False))
    except OSError as exc:
        kept = "the version saved before is kept" if path.exists() else "no file was written"
        advice = {
            errno.ENAMETOOLONG: "Choose a shorter file name",
            errno.EACCES: "Choose a folder you may write to",
            errno.EROFS: "Choose a folder you may write to",
        }.get(exc.errno or 0, "Free some space or choose a folder you may write to")
        raise StudySaveError(
            f"{path}: could not save the study: {exc.strerror or exc}; {kept}. {advice}, and save again "
            "(the study is still open)"
        ) from exc


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
    edits = payload.get("edits", [])
    if isinstance(edits, list) and len(edits) > MAX_STUDY_EDITS:  # before any check of each edit
        raise StudyError(
            f"{path}: edits: {len(edits):,} edits, more than the {MAX_STUDY_EDITS:,} a study may hold; "
            "split the study (docs/files.md)"
        )
    validate(StudySchema, payload, str(path), StudyError)
    scenario = payload["scenario"]  # the schema made sure it is there and is text
    relative = payload.get("scenario_file")  # text or None, as the schema made sure
    if relative:
        try:
            beside = (path.resolve().parent / relative).resolve()
            if beside.is_file():  # the study and its scenario moved together, or the study is read elsewhere
                scenario = str(beside)
        except (OSError, ValueError):  # a NUL or a name too long for the file system: no file there
            raise StudyError(
                f"{path}: scenario_file: {relative[:60]!r} is not a path a file can have; give the scenario "
                "file's path relative to the study"
            ) from None
    kept_text = payload.get("scenario_text")  # the scenario as opened, kept when its file had gone
    try:
        found: Path | None = scenario_path(scenario)
    except FileNotFoundError as exc:
        if kept_text is None:
            raise StudyError(f"{path}: {exc}") from None
        found = None
    except ScenarioError as exc:
        raise StudyError(f"{path}: {exc}") from None
    recorded = payload.get("scenario_sha256")
    try:
        if kept_text is not None and (found is None or _file_sha256(found) != recorded):
            # The file named is gone or holds other text: the edits were made on the text kept.
            study = Study(payload["scenario"], title=payload.get("title", ""), scenario_text=kept_text)
        else:
            study = Study(scenario, title=payload.get("title", ""))
    except (ValueError, OSError) as exc:  # ScenarioError is a ValueError
        raise StudyError(f"{path}: its scenario cannot be loaded: {exc}") from None
    # The text kept in the study is the one the edits were made on: no file of it has changed.
    changed = bool(recorded) and study.scenario_file is not None and study.scenario_sha256 != recorded
    unit_schema = scenario_format(study.state).unit_schema()  # the game's file format's model of a unit
    for n, edit in enumerate(edits):  # the fields that are the game's own, before any edit is replayed
        check_game_fields(study.state.rules, unit_schema, edit, f"{path}: edits[{n}]", StudyError)
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
    saved = payload.get("fingerprint")
    if saved not in (fingerprint(study.state), fingerprint(study.state, file_order=True)):
        why = (
            f"the scenario file {study.scenario_file} changed since the study was saved (its content differs)"
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
