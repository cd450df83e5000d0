"""Files users trust (issue 14, first part): studies that reopen anywhere, hostile files refused, saves that
cannot destroy.

Each test is one of the defects of the reliability review (D1-D6): it fails on the code before the fix.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import normandy_lab as nl
from normandy_lab.engine import ScenarioError
from normandy_lab.engine.edits import add_unit
from normandy_lab.engine.scenario import historical_scenarios
from normandy_lab.engine.state import EditLog, Unit
from normandy_lab.engine.study import StudyError
from normandy_lab.history.lodgement import HistoryError, records
from normandy_lab.savefile import write_bytes_atomically

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = tuple(historical_scenarios())
SMALL = ROOT / "tests" / "data" / "bfn_pegasus_1944-06-07.yaml"


def _python(code: str, seed: int, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONHASHSEED": str(seed)}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


# -------------------------------------------------------------------------------- D1: studies reopen


def test_a_study_saved_in_one_process_reopens_in_another_with_another_hash_seed(tmp_path):
    """D1: every historical scenario, with an edit, saved under one hash seed and loaded under another."""
    names = json.dumps(SCENARIOS)
    save = textwrap.dedent(f"""
        import normandy_lab as nl
        for name in {names}:
            study = nl.Study(name)
            study.apply({{"op": "weather", "weather": "Storm"}})
            nl.save_study(study, name + ".study.json")
    """)
    load = textwrap.dedent(f"""
        import normandy_lab as nl
        for name in {names}:
            nl.load_study(name + ".study.json")
        print("all reopened")
    """)
    saved = _python(save, 1, tmp_path)
    assert saved.returncode == 0, saved.stderr
    loaded = _python(load, 2, tmp_path)
    assert loaded.returncode == 0, loaded.stderr
    assert "all reopened" in loaded.stdout


def test_the_fingerprint_sorts_every_set():
    """D1: the 7 June scenario's pathfinder hexes (a set) no longer go through str()."""
    from normandy_lab.engine.study import canonical

    state = nl.load_scenario("bfn_1944-06-07_am")
    assert state.pathfinders
    data = canonical(state)
    assert data["pathfinders"] == sorted(state.pathfinders)


# -------------------------------------------------------------------------------- D3: edits kept as saved


def test_a_reused_edit_list_cannot_rewrite_an_edit_already_applied(tmp_path):
    """D3: the study keeps its own copy of each edit."""
    study = nl.Study(str(SMALL))
    edit = {"op": "air", "allied": {"C": 10}, "german_aa": {"C": 0}}
    study.apply(edit)
    edit["allied"]["C"] = 40  # the notebook reuses its dict for the next edit
    study.apply(edit)
    assert study.edits[0]["allied"]["C"] == 10
    nl.save_study(study, tmp_path / "s.json")
    assert nl.load_study(tmp_path / "s.json").state.air_points == study.state.air_points


def test_an_edit_that_could_not_be_saved_is_refused_at_once():
    study = nl.Study(str(SMALL))
    with pytest.raises(StudyError, match="cannot be saved"):
        study.apply({"op": "weather", "weather": {1, 2}})  # a set is not JSON
    assert not study.edits


# -------------------------------------------------------------------------------- D4: no markup from data


def test_a_unit_id_carrying_markup_is_refused_at_load_and_by_add_unit():
    text = SMALL.read_text().replace("id: GB-3D-1,", "id: '<img src=x onerror=alert(1)>',")
    with pytest.raises(
        ScenarioError, match=r"units\[\d+\]\.id: .*not in the form required; an id is letters, digits"
    ):
        nl.engine.load_scenario_text(text, "hostile.yaml")
    state = nl.load_scenario(SMALL)
    bad = Unit(
        id="<b>x</b>", name="x", side="allied", nationality="UK", type="infantry", mechanized=False,
        size="battalion", formation=None, corps=None, hq=None, hex="C2913", steps=3,
    )  # fmt: skip
    with pytest.raises(ValueError, match="not a valid unit id"):
        add_unit(state, bad)


# -------------------------------------------------------------------------------- D5: hostile files


def _scenario_with(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_yaml_alias_bomb_is_refused_quickly(tmp_path):
    bomb = "a: &a ['x','x','x','x','x','x','x','x','x']\n" + "".join(
        f"{chr(98 + k)}: &{chr(98 + k)} [*{chr(97 + k)},*{chr(97 + k)},*{chr(97 + k)},*{chr(97 + k)}]\n"
        for k in range(8)
    )
    path = _scenario_with(tmp_path, bomb + "name: *i\n")
    start = time.perf_counter()
    with pytest.raises(ScenarioError, match="anchors and aliases"):
        nl.load_scenario(path)
    assert time.perf_counter() - start < 5


def test_record_files_may_use_aliases_but_not_nested_ones(tmp_path):
    bomb = "a: &a [x, x, x]\nb: &b [*a, *a, *a]\n"
    path = tmp_path / "record.yaml"
    path.write_text(bomb, encoding="utf-8")
    with pytest.raises(HistoryError, match="alias inside an anchored value"):
        records([path])


def test_repeated_keys_are_an_error_naming_both_lines(tmp_path):
    text = SMALL.read_text() + "units: []\n"
    with pytest.raises(ScenarioError, match=r"the key 'units' is given twice \(first at line \d+\)"):
        nl.engine.load_scenario_text(text, "twice.yaml")


@pytest.mark.parametrize(
    ("encoding", "said"), [("latin-1", "not UTF-8"), ("utf-16", "UTF-16")]
)  # fmt: skip
def test_a_file_not_in_utf8_is_refused_naming_the_encoding(tmp_path, encoding, said):
    text = SMALL.read_text().replace("Hérouvillette", "Hérouvillette é")
    path = tmp_path / "s.yaml"
    path.write_bytes(text.encode(encoding))
    with pytest.raises(ScenarioError, match=said):
        nl.load_scenario(path)


def test_only_regular_files_of_a_bounded_size_are_read(tmp_path):
    with pytest.raises(ScenarioError, match="not a regular file"):
        nl.load_scenario("/dev/zero")
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    start = time.perf_counter()
    with pytest.raises(ScenarioError, match="not a regular file"):
        nl.load_scenario(fifo)
    assert time.perf_counter() - start < 5
    big = tmp_path / "big.yaml"
    with big.open("wb") as handle:
        handle.truncate(25 * 1024 * 1024)  # sparse: no disk used
    with pytest.raises(ScenarioError, match="larger than"):
        nl.load_scenario(big)


def test_a_study_naming_a_device_as_its_scenario_is_refused(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"format": "normandy_lab.study/1", "scenario": "/dev/zero", "edits": []}))
    with pytest.raises(StudyError):
        nl.load_study(path)


def test_a_long_history_keeps_one_log_not_one_per_state():
    """D5: each state adds one entry to the log of the state before; nothing is copied."""
    log = EditLog()
    logs = [log]
    for k in range(2000):
        logs.append(logs[-1].then(f"edit {k}"))
    assert len(logs[-1]) == 2000 and logs[-1][-1] == "edit 1999" and logs[-1][0] == "edit 0"
    assert logs[-1]._parent is logs[-2]  # shared, not copied
    assert logs[5] == tuple(f"edit {k}" for k in range(5))


# -------------------------------------------------------------------------------- D2, D6: writes


def test_an_export_never_replaces_a_study_or_a_scenario(tmp_path):
    """D2 (every export and every kind of file: ``test_export_safety.py``)."""
    study = nl.Study(str(SMALL))
    saved = nl.save_study(study, tmp_path / "analysis.html")
    from normandy_lab.views.export import save_html

    with pytest.raises(FileExistsError, match="nothing was changed"):
        save_html(None, saved)
    assert json.loads(saved.read_text())["format"] == "normandy_lab.study/1"


def test_the_atomic_writer_keeps_the_mode_follows_links_and_cleans_up(tmp_path):
    target = tmp_path / "page.html"
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.html"
    link.symlink_to(target)
    write_bytes_atomically(link, b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    with pytest.raises(TypeError):
        write_bytes_atomically(target, "not bytes")  # type: ignore[arg-type]
    assert target.read_bytes() == b"new"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".page.html.")]


# -------------------------------------------------------------------------------- D7-D10: malformed input


def _hostile_values():
    from hypothesis import strategies as st

    scalars = st.one_of(
        st.none(), st.booleans(), st.integers(-(10**6), 10**6), st.floats(allow_nan=True), st.text(max_size=12),
        st.dates(), st.datetimes(),
    )  # fmt: skip
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
        max_leaves=6,
    )


def test_a_scenario_with_any_field_replaced_by_junk_loads_or_says_where(tmp_path):
    """D7, D9: whatever a field holds, the loader answers with the scenario or a ScenarioError naming it."""
    import yaml
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from normandy_lab.engine import load_scenario_text

    base = yaml.safe_load(SMALL.read_text())
    top_keys = sorted(k for k in base if k != "units")
    unit_keys = sorted({k for u in base["units"] for k in u} | {"status", "near", "formation", "ma"})

    @settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(
        st.sampled_from(["top", "unit"]),
        st.integers(0, 100),
        st.integers(0, 100),
        _hostile_values(),
        st.booleans(),
    )
    def check(where, pick_key, pick_unit, junk, delete):
        data = yaml.safe_load(SMALL.read_text())
        target = data if where == "top" else data["units"][pick_unit % len(data["units"])]
        keys = top_keys if where == "top" else unit_keys
        key = keys[pick_key % len(keys)]
        if delete:
            target.pop(key, None)  # a required field missing, or an optional one left out
        else:
            target[key] = junk
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
        start = time.perf_counter()
        try:
            load_scenario_text(text, "junk.yaml")
        except ScenarioError as exc:
            assert str(exc).startswith("junk.yaml:"), exc
        assert time.perf_counter() - start < 10

    check()


def test_any_malformed_edit_is_refused_with_the_projects_error():
    """D10: an edit of any shape is applied or refused with a ValueError saying which field."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from normandy_lab.engine.edits import apply_edit
    from normandy_lab.schemas import EDIT_OPS

    state = nl.load_scenario(SMALL)

    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        st.sampled_from(EDIT_OPS),
        st.dictionaries(
            st.sampled_from(["unit", "to", "hex", "hexside", "weather", "allied", "german_aa", "x"]),
            _hostile_values(),
            max_size=3,
        ),
    )
    def check(op, fields):
        # EditError, IllegalMoveError, a refused hex: the project's errors are all ValueErrors.
        with contextlib.suppress(ValueError):
            apply_edit(state, {"op": op, **fields})

    check()


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        ({"op": "move", "unit": "GB-3-8"}, r"^edit: move\.to: missing required field"),
        (
            {"op": "wether", "weather": "Storm"},
            r"^edit: op: 'wether' is not allowed; did you mean 'weather'\?",
        ),
        ({"hex": "C3013"}, r"^edit: op: missing required field"),
        ({"op": "air", "allied": {"C": 1.5}}, r"^edit: air\.allied\.C: 1\.5: "),
        ({"op": "interdict", "hex": "C3013", "turn": 2}, r"^edit: interdict\.turn: unknown field"),
        ({"op": "destroy_bridge", "hexside": ("C3014",)}, r"^edit: destroy_bridge\.hexside: \['C3014'\]"),
    ],
)
def test_a_malformed_edit_from_code_names_its_op_and_field(edit, says):
    """An edit given from code is checked against the schema a study's edits are checked with."""
    from normandy_lab.engine.edits import EditError, apply_edit

    with pytest.raises(EditError, match=says):
        apply_edit(nl.load_scenario(SMALL), edit)


def test_a_study_error_names_the_field_without_the_line_json_does_not_have():
    """A study is JSON, read without lines: its errors name the file and the field, not a line 0."""
    from normandy_lab.schemas import StudySchema, validate

    payload = {"format": "normandy_lab.study/1", "scenario": "x", "fingerprint": "0" * 64, "edits": [{}]}
    with pytest.raises(StudyError) as raised:
        validate(StudySchema, payload, "s.json", StudyError)
    assert str(raised.value) == "s.json: edits[0].op: missing required field; add it"


@pytest.mark.parametrize(
    "payload",
    [
        [],
        {"format": "normandy_lab.study/1"},
        {"format": "normandy_lab.study/1", "scenario": 3, "edits": []},
        {"format": "normandy_lab.study/1", "scenario": "", "edits": []},
        {"format": "normandy_lab.study/1", "scenario": "bfn_1944-06-13_am", "edits": "x"},
        {"format": "normandy_lab.study/1", "scenario": "bfn_1944-06-13_am", "edits": ["interdict"]},
        {
            "format": "normandy_lab.study/1",
            "scenario": "bfn_1944-06-13_am",
            "edits": [{"op": "interdict", "hex": 3}],
        },
    ],
)
def test_a_malformed_study_is_refused_with_a_study_error(tmp_path, payload):
    """D8: whatever the JSON holds, load_study answers with a StudyError naming the file."""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(payload))
    with pytest.raises(StudyError, match=r"bad\.json"):
        nl.load_study(path)


# -------------------------------------------------------------------------------- D13: portable studies


def test_a_study_and_its_own_scenario_reopen_from_another_folder(tmp_path, monkeypatch):
    """D13: a study of a scenario file of the user's reopens when both move, or when read from elsewhere."""
    import shutil

    work = tmp_path / "work"
    work.mkdir()
    scenario = work / "mine.yaml"
    shutil.copy(SMALL, scenario)
    study = nl.Study(str(scenario))
    study.apply({"op": "weather", "weather": "Storm"})
    saved = nl.save_study(study, work / "mine.study.json")
    payload = json.loads(saved.read_text())
    assert payload["scenario_file"] == "mine.yaml" and len(payload["scenario_sha256"]) == 64
    moved = tmp_path / "moved"
    shutil.move(work, moved)
    monkeypatch.chdir(tmp_path)  # neither the old path nor the working folder helps
    assert nl.load_study(moved / "mine.study.json").state.weather == "Storm"
    # A changed scenario is named as the reason the study no longer reproduces.
    (moved / "mine.yaml").write_text(SMALL.read_text().replace("steps: 3}", "steps: 2}", 1))
    with pytest.raises(StudyError, match=r"scenario file .* changed since the study was saved"):
        nl.load_study(moved / "mine.study.json")


def test_a_process_killed_while_writing_leaves_the_previous_file_whole(tmp_path):
    """D6: SIGKILL at random moments of a loop of atomic writes (studies, pages and pictures use the same
    writer): the file always holds one complete version."""
    import random
    import signal

    target = tmp_path / "page.json"
    code = textwrap.dedent(f"""
        import json, os
        from normandy_lab.savefile import write_bytes_atomically
        pad = "x" * 3_000_000
        n = 0
        while True:
            data = {{"pid": os.getpid(), "n": n, "pad": pad}}
            write_bytes_atomically({str(target)!r}, json.dumps(data).encode())
            n += 1
    """)

    def holder() -> int | None:
        """The pid of the writer whose version the file holds (None before any write)."""
        try:
            return json.loads(target.read_text())["pid"]
        except FileNotFoundError:
            return None

    chance = random.Random(7)
    for _ in range(8):
        process = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT)
        # Wait until this child has written once (so it is past its import, inside the loop of writes), not
        # for a guessed time: a loaded machine may take many seconds to import the package.
        deadline = time.monotonic() + 180
        while holder() != process.pid:
            assert process.poll() is None, f"the writer exited with {process.returncode}"
            assert time.monotonic() < deadline, "the writer wrote nothing in 180 s"
            time.sleep(0.02)  # a polling interval, not a guess at how long anything takes
        # Then kill it at a random moment of its loop (a write takes tens of milliseconds).
        time.sleep(chance.random() * 0.5)
        process.send_signal(signal.SIGKILL)
        process.wait()
        data = json.loads(target.read_text())
        assert len(data["pad"]) == 3_000_000 and data["pid"] == process.pid


def test_temporary_files_of_a_killed_writer_are_cleared_by_the_next_write(tmp_path):
    target = tmp_path / "s.json"
    stale = tmp_path / ".s.json.normandy_lab-partial.abc12_yz"
    stale.write_text("half a study")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    write_bytes_atomically(target, b"{}")
    assert not stale.exists() and target.read_bytes() == b"{}"


def test_the_clean_up_never_touches_a_users_hidden_files(tmp_path):
    """Review 2 fuzz, L1: the clean-up globbed '.<name>.*', deleting an editor's swap file, and took a '*'
    or '?' in the target's name as a pattern, deleting unrelated dotfiles."""
    old = time.time() - 3600
    kept = [".notes.html.swp", ".notes.html.orig", ".notes.html.abcdefgh", ".env.local", ".xa.txt", ".x?.swp"]
    for name in kept:
        (tmp_path / name).write_text("mine")
        os.utime(tmp_path / name, (old, old))
    for target in ("notes.html", "*", "x?"):
        write_bytes_atomically(tmp_path / target, b"page")
    assert all((tmp_path / name).read_text() == "mine" for name in kept)


# -------------------------------------------------------------------------------- typed schemas


def test_the_json_schemas_in_schemas_are_the_models():
    """schemas/*.schema.json are exported from normandy_lab.schemas; re-run `python -m normandy_lab.schemas`."""
    from normandy_lab.schemas import SCHEMA_DIR, SCHEMAS, json_schema

    for name in SCHEMAS:
        written = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text())
        assert written == json.loads(json.dumps(json_schema(name))), f"schemas/{name}.schema.json is stale"


def test_every_scenario_and_a_saved_study_validate_against_their_json_schema(tmp_path):
    """The exported JSON Schema accepts the project's files (what an editor would check while typing)."""
    import yaml

    jsonschema = pytest.importorskip("jsonschema")
    from normandy_lab.schemas import json_schema

    each_game = [(name, "scenario") for name in SCENARIOS]
    each_game += [(name, "scenario_cobra") for name in historical_scenarios("cobra")]
    each_game += [(name, "scenario_kg") for name in historical_scenarios("kg")]
    each_game += [(name, "scenario_gts") for name in historical_scenarios("gts")]
    for name, kind in each_game:
        data = yaml.safe_load((ROOT / "scenarios" / f"{name}.yaml").read_text())
        data["date"] = str(data["date"])  # YAML's date, JSON's text
        for key in ("options",):
            for option, value in (data.get(key) or {}).items():
                if hasattr(value, "isoformat"):
                    data[key][option] = value.isoformat()
        jsonschema.validate(data, json_schema(kind))
    study = nl.Study(str(SMALL))
    study.apply({"op": "interdict", "hex": "C2913"})
    saved = nl.save_study(study, tmp_path / "s.json")
    jsonschema.validate(json.loads(saved.read_text()), json_schema("study"))


def test_the_schema_refuses_at_the_line_what_no_other_check_names(tmp_path):
    """A study whose edit has a wrong weather is refused by the study schema, at that edit."""
    study = nl.Study(str(SMALL))
    study.apply({"op": "weather", "weather": "Storm"})
    saved = nl.save_study(study, tmp_path / "s.json")
    payload = json.loads(saved.read_text())
    payload["edits"][0]["weather"] = "Sunny"
    saved.write_text(json.dumps(payload))
    with pytest.raises(StudyError, match=r"edits\[0\].*'Sunny' is not allowed; .*use one of"):
        nl.load_study(saved)


# ------------------------------------------------------------- D11: the historical record and grid data

_HISTORY_SAMPLES = {
    "lodgement": {
        "sources": {"OB": "Omaha Beachhead, 6-13 June 1944 (American Forces in Action), 1945"},
        "records": [
            {
                "date": "1944-06-08",
                "sources": ["OB"],
                "accuracy_km": 1.5,
                "allied": [
                    {
                        "name": "Omaha",
                        "outline": [[-0.95, 49.40], {"near": "Trévières", "km": [0.5, -1.0]}, [-0.80, 49.30]],
                    }
                ],
            }
        ],
    },
    "facts": {
        "sources": {"OB": "Omaha Beachhead (American Forces in Action), 1945"},
        "facts": [
            {"place": "Trévières", "date": "1944-06-07", "side": "allied", "event": "taken", "source": "OB"}
        ],
    },
    "timeline": {
        "sources": {"OB": "Omaha Beachhead (American Forces in Action), 1945"},
        "events": [
            {
                "id": "omaha",
                "name": "Omaha Beach",
                "start": "1944-06-06",
                "place": "Trévières",
                "category": "landing",
                "description": "The V Corps lands between Vierville and Colleville.",
                "sources": ["OB"],
            }
        ],
    },
}


def _paths_into(value, prefix=()):
    """Every path (keys and indexes) into nested dicts and lists, the root excluded."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        yield (*prefix, key)
        yield from _paths_into(inner, (*prefix, key))


def _changed(data, pick: int, value, delete: bool):
    """Return a copy of ``data`` with one place (chosen by ``pick``) given ``value``, or deleted."""
    import copy

    data = copy.deepcopy(data)
    paths = list(_paths_into(data))
    where = paths[pick % len(paths)]
    parent = data
    for part in where[:-1]:
        parent = parent[part]
    if delete and isinstance(parent, dict):
        del parent[where[-1]]
    else:
        parent[where[-1]] = value
    return data


def test_a_record_file_with_any_field_replaced_by_junk_loads_or_says_where(tmp_path):
    """D11: lodgement, facts and timeline files answer with their data or a HistoryError at file:line: field."""

    import yaml
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from normandy_lab.history.facts import facts
    from normandy_lab.history.timeline import timeline

    loaders = {"lodgement": lambda p: records([p]), "facts": lambda p: facts([p]), "timeline": timeline}
    for kind, sample in _HISTORY_SAMPLES.items():  # the samples themselves load
        path = tmp_path / f"{kind}_ok.yaml"
        path.write_text(yaml.safe_dump(sample, allow_unicode=True), encoding="utf-8")
        loaders[kind](path)
    counter = iter(range(10**6))
    junk = st.one_of(
        _hostile_values(), st.sampled_from(["1944-02-30", "1944-13-01", "0000-00-00", "06/06/1944"])
    )

    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.sampled_from(sorted(_HISTORY_SAMPLES)), st.integers(0, 200), junk, st.booleans())
    def check(kind, pick, value, delete):
        data = _changed(_HISTORY_SAMPLES[kind], pick, value, delete)
        path = tmp_path / f"{kind}_{next(counter)}.yaml"  # a new name: the loaders cache by file
        path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
        start = time.perf_counter()
        try:
            loaders[kind](path)
        except HistoryError as exc:
            assert str(exc).startswith(f"{path}:"), exc
            assert str(exc).split(":", 2)[1].isdigit(), f"no line in {exc}"
        assert time.perf_counter() - start < 10

    check()


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        (
            "  - {hex: B1305, place: Pointe du Hoc battery, rule: r, use: fit, weight: 2}",
            r"bfn\[0\]\.weight: unknown",
        ),
        ("  - {hex: [], place: Caen, rule: r, use: fit}", r"bfn\[0\]\.hex"),
        ("  - {hex: B1305, place: 12, rule: r, use: fit}", r"bfn\[0\]\.place: 12 was read as a number"),
        (
            "  - {hex: B1305, place: Caen, rule: r, use: dropped}",
            r"bfn\[0\]\.reason: a 'dropped' entry needs",
        ),
    ],
)
def test_a_control_point_file_is_checked_by_its_schema(tmp_path, entry, says):
    """Control points: the fields, their types and the uses are the schema's; the error has file:line: field."""
    from normandy_lab.grids.georef import ControlPointError, read_system_entries
    from normandy_lab.schemas import ControlPointsFile

    path = tmp_path / "control_points.yaml"
    path.write_text(f"bfn:\n{entry}\n", encoding="utf-8")
    with pytest.raises(ControlPointError, match=f"control_points\\.yaml:2: {says}"):
        list(read_system_entries(path, ControlPointsFile, ControlPointError))
    path.write_text("bfn: []\nmartian:\n  - {hex: A1001, place: X, rule: r, use: fit}\n", encoding="utf-8")
    with pytest.raises(ControlPointError, match=r"control_points\.yaml:2: martian: 'martian' is not allowed"):
        list(read_system_entries(path, ControlPointsFile, ControlPointError))


def test_the_record_files_validate_against_their_json_schema():
    """The exported JSON Schemas accept the project's record and grid files (an editor would check them)."""
    import yaml

    jsonschema = pytest.importorskip("jsonschema")
    from normandy_lab.schemas import json_schema

    files = {"lodgement": "history/lodgement_*.yaml", "facts": "history/facts_*.yaml"}
    files |= {"timeline": "history/timeline.yaml", "control_points": "grids/control_points.yaml"}
    files |= {"coast_hexes": "grids/coast_hexes.yaml"}
    for kind, pattern in files.items():
        paths = sorted((ROOT / "maps").glob(pattern))
        assert paths, pattern
        for path in paths:
            jsonschema.validate(yaml.safe_load(path.read_text(encoding="utf-8")), json_schema(kind))


def test_a_study_with_any_field_replaced_or_deleted_reopens_or_says_where(tmp_path):
    """D8, D10: a study file changed anywhere opens, or is refused with a StudyError naming the file."""

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    study = nl.Study(str(SMALL))
    study.apply({"op": "interdict", "hex": "C2913"})
    study.apply({"op": "weather", "weather": "Storm"})
    saved = json.loads(nl.save_study(study, tmp_path / "base.json").read_text())
    counter = iter(range(10**6))

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.integers(0, 200), _hostile_values(), st.booleans())
    def check(pick, junk, delete):
        data = _changed(saved, pick, junk, delete)
        path = tmp_path / f"study_{next(counter)}.json"
        path.write_text(json.dumps(data, default=str), encoding="utf-8")
        start = time.perf_counter()
        try:
            nl.load_study(path)
        except StudyError as exc:
            assert str(exc).startswith(str(path)), exc
        assert time.perf_counter() - start < 10

    check()
