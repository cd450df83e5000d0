"""The historical record (issue 6): lodgement and front lines by date, dated facts, the timeline."""

from __future__ import annotations

import datetime as dt
import itertools
import textwrap

import pytest
import shapely

from normandy_lab import history
from normandy_lab.history import HistoryError

REQUIRED_DATES = [
    "1944-06-06", "1944-06-07", "1944-06-09", "1944-06-12", "1944-06-13", "1944-06-16", "1944-06-18",
    "1944-06-22", "1944-06-26", "1944-07-01", "1944-07-04", "1944-07-09", "1944-07-12", "1944-07-18",
    "1944-07-20", "1944-07-24", "1944-07-28", "1944-07-31", "1944-08-03", "1944-08-07", "1944-08-10",
    "1944-08-13", "1944-08-16", "1944-08-19", "1944-08-21", "1944-08-25",
]  # fmt: skip


def _write(tmp_path, text, name="lodgement_test.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return [path]


SMALL = """\
sources: {T: a test citation of some length}
records:
- date: '1944-06-06'
  sources: [T]
  accuracy_km: 1
  allied:
  - name: Omaha strip
    outline: [[-1.0, 49.45], [-0.80, 49.45], [-0.80, 49.33], [-1.0, 49.33]]
- date: '1944-06-10'
  sources: [T]
  accuracy_km: 1
  allied:
  - name: wider
    outline: [[-1.0, 49.45], [-0.70, 49.45], [-0.70, 49.25], [-1.0, 49.25]]
  german_pockets:
  - name: a strongpoint
    outline: [{near: [-0.85, 49.30], km: [-0.5, -0.5]}, {near: [-0.85, 49.30], km: [0.5, -0.5]},
              {near: [-0.85, 49.30], km: [0.5, 0.5]}, {near: [-0.85, 49.30], km: [-0.5, 0.5]}]
"""


# ------------------------------------------------------------------ the API


def test_between_records_the_earlier_one_holds(tmp_path):
    files = _write(tmp_path, SMALL)
    assert history.lodgement_dates(files) == [dt.date(1944, 6, 6), dt.date(1944, 6, 10)]
    assert history.lodgement("1944-06-08", files).equals(history.lodgement("1944-06-06", files))
    assert history.lodgement(dt.date(1944, 6, 10), files).area > history.lodgement("1944-06-09", files).area


def test_asking_outside_the_record_is_a_clear_error(tmp_path):
    files = _write(tmp_path, SMALL)
    with pytest.raises(HistoryError, match="before the landings"):
        history.lodgement("1944-06-05", files)
    with pytest.raises(HistoryError, match=r"after the last record \(1944-06-10\)"):
        history.front_line("1944-06-11", files)
    with pytest.raises(HistoryError, match="is not a date"):
        history.lodgement("D+3", files)


def test_lodgement_is_clipped_to_the_real_coast_and_the_front_excludes_it(tmp_path):
    files = _write(tmp_path, SMALL)
    ground = history.lodgement("1944-06-06", files)
    assert ground.area < shapely.box(-1.0, 49.33, -0.8, 49.45).area  # the sea part is cut off
    front = history.front_line("1944-06-06", files)
    # The front is the inland edges: the south side and the two flanks up to the coast, none of the coast.
    inland = shapely.LineString([(-1.0, 49.45), (-1.0, 49.33), (-0.8, 49.33), (-0.8, 49.45)])
    assert front.difference(inland.buffer(1e-6)).length < 1e-6
    assert 0.2 + 0.02 < front.length < 0.2 + 2 * 0.12


def test_german_pockets_are_holes_and_their_edges_are_front(tmp_path):
    files = _write(tmp_path, SMALL)
    assert history.held_by((-0.85, 49.30), "1944-06-10", files=files) == "german"
    assert history.held_by((-0.86, 49.33), "1944-06-10", files=files) == "allied"
    assert history.distance_to_front_km((-0.85, 49.30), "1944-06-10", files=files) == pytest.approx(
        0.5, abs=0.1
    )


def test_held_by_is_contested_near_the_line_and_takes_names(tmp_path):
    files = _write(tmp_path, SMALL)
    assert history.held_by((-0.9, 49.3315), "1944-06-06", files=files) == "contested"
    assert history.held_by((-0.9, 49.3315), "1944-06-06", tolerance_km=0.05, files=files) == "allied"
    assert history.held_by("Bayeux", "1944-06-06", files=files) == "german"
    with pytest.raises(KeyError, match="Bayeu"):
        history.held_by("Bayeuxx", "1944-06-06", files=files)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("accuracy_km: 1\n  allied:", "accuracy_km: -2\n  allied:"), r"records\[0\]\.accuracy_km: -2: Input should be greater than 0"),
        (("sources: [T]", "sources: [X]"), r"unknown source key 'X'"),
        (("[-0.80, 49.33], [-1.0, 49.33]]", "[-1.0, 49.33], [-0.80, 49.33]]"), r"not a valid polygon"),
        (("[-0.80, 49.45]", "[49.45, -0.80]"), r"check for swapped longitude and latitude"),
        (("[-1.0, 49.45], [-0.80", "Omaha Beachh, [-0.80"), r"outline\[0\]"),
        (("  accuracy_km: 1\n  allied:\n  - name: Omaha", "  accuracy_km: 1\n  allies:\n  - name: Omaha"),
         r"records\[0\]\.allies: unknown field; .*\(did you mean 'allied', which is missing\?\)"),
        (("date: '1944-06-10'", "date: '1944-06-06'"), r"1944-06-06 is already recorded at"),
        (("records:", "records: ["), r"YAML syntax error"),
    ],
)  # fmt: skip
def test_bad_records_name_the_file_line_and_field(tmp_path, change, message):
    old, new = change
    assert old in SMALL
    files = _write(tmp_path, SMALL.replace(old, new, 1), name=f"lodgement_{abs(hash(message))}.yaml")
    with pytest.raises(HistoryError, match=message) as info:
        history.records(files)
    assert str(files[0]) in str(info.value)
    assert ":" in str(info.value).split(str(files[0]))[1][:6]  # file:line


# ------------------------------------------------------------------ the data


def test_at_least_25_dates_including_every_date_the_issue_names():
    dates = {d.isoformat() for d in history.lodgement_dates()}
    assert len(dates) >= 25
    assert not set(REQUIRED_DATES) - dates


def test_every_record_has_sources_and_an_accuracy_statement():
    for record in history.records():
        assert record.sources and all(len(s) > 20 for s in record.sources), record.date
        assert 0 < record.accuracy_km <= 15 and record.uncertain, record.date


def test_6_june_has_the_separate_beachheads_and_airborne_areas():
    ground = history.lodgement("1944-06-06")
    parts = [p for p in getattr(ground, "geoms", [ground]) if p.area > 1e-6]
    assert len(parts) >= 5  # Utah+airborne, Omaha, Gold/Juno, Sword, the 6th Airborne (and cut-off pockets)
    for place in ("Sainte-Mère-Église", "Ranville", "Courseulles-sur-Mer"):
        assert history.held_by(place, "1944-06-06", tolerance_km=0.0) == "allied", place
    for place in ("Caen", "Bayeux", "Carentan", "Isigny-sur-Mer"):
        assert history.held_by(place, "1944-06-06", tolerance_km=0.0) == "german", place


def test_german_pockets_inside_allied_ground():
    # The Douvres radar station held out inside the Canadian beachhead until 17 June.
    assert history.held_by("Douvres radar station", "1944-06-12", tolerance_km=0.0) == "german"
    assert history.held_by("Douvres radar station", "1944-06-18", tolerance_km=0.0) == "allied"
    # The Falaise pocket: German ground between the Allied armies on 19 August.
    pocket = history.lodgement("1944-08-19")
    assert history.held_by("Trun", "1944-08-16") == "german"
    assert pocket.area > history.lodgement("1944-08-13").area


def test_the_lodgement_grows_over_the_campaign():
    areas = [r.geometry.area for r in history.records()]
    assert areas[-1] > 20 * areas[0]
    # Ground was lost at times (Villers-Bocage, Mortain), but never more than a few percent.
    assert all(b > 0.95 * a for a, b in itertools.pairwise(areas))


def test_front_lines_run_inland():
    for record in history.records():
        front = record.front
        assert not front.is_empty, record.date
        assert front.length > 0.05, record.date


def test_at_least_80_dated_facts_and_every_one_agrees_with_the_record():
    table = history.check_facts()
    assert len(table) >= 80
    assert {"allied", "german"} <= set(table["side"])
    assert table["date"].nunique() >= 20
    wrong = table[~table["ok"]]
    assert wrong.empty, wrong[["place", "date", "side", "held_by", "distance_km", "file", "line"]].to_string()


# ------------------------------------------------------------------ the timeline

REQUIRED_EVENTS = [
    "utah", "omaha", "gold", "juno", "sword", "pegasus", "carentan", "villers-bocage", "epsom", "storm",
    "cherbourg", "windsor", "charnwood", "jupiter", "goodwood", "atlantic", "st-lô", "spring", "cobra",
    "bluecoat", "avranches", "pontaubault", "lüttich", "totalize", "tractable", "chambois", "seine",
]  # fmt: skip


def test_timeline_has_the_campaign_s_events():
    table = history.timeline()
    assert len(table) >= 40
    text = " ".join((table["name"] + " " + table["description"] + " " + table["id"]).str.lower())
    missing = [e for e in REQUIRED_EVENTS if e not in text.replace("saint-lô", "st-lô")]
    assert not missing
    assert table["start"].min() == dt.date(1944, 6, 6) and table["end"].max() <= dt.date(1944, 8, 25)
    assert table["description"].str.len().between(30, 600).all()
    assert table["sources"].map(len).min() >= 1
    assert list(table["start"]) == sorted(table["start"])


def test_timeline_errors_name_the_line(tmp_path):
    path = tmp_path / "timeline.yaml"
    path.write_text(
        "sources: {A: a citation}\nevents:\n- id: x\n  name: X\n  start: '1944-06-06'\n  place: Caen\n"
        "  category: battel\n  description: d\n  sources: [A]\n",
        encoding="utf-8",
    )
    with pytest.raises(
        HistoryError,
        match=r"timeline\.yaml:7: events\[0\]\.category: 'battel' is not allowed; did you mean 'battle'\?",
    ):
        history.timeline(path)


def test_an_edited_record_is_read_again(tmp_path):
    """A digitiser edits a file and asks again in the same session: the answer follows the file."""
    import os

    files = _write(tmp_path, SMALL)
    assert history.held_by((-0.75, 49.30), "1944-06-10", files=files) == "allied"
    files[0].write_text(
        textwrap.dedent(SMALL).replace("[-0.70, 49.45], [-0.70, 49.25]", "[-0.78, 49.45], [-0.78, 49.25]")
    )
    stat = files[0].stat()
    os.utime(files[0], (stat.st_atime, stat.st_mtime + 10))
    assert history.held_by((-0.75, 49.30), "1944-06-10", files=files) == "german"
