"""The class server's parts that need no browser: study links, the locked explorer, the template, the pages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from normandy_lab.views import classroom
from normandy_lab.views.classroom import ClassLinkError, study_from_query

REPO = Path(__file__).resolve().parents[1]
LESSON = "lessons/vire_bridges_down.study.json"


@pytest.fixture
def served(tmp_path):
    """A served folder with a study in lessons/, and a study outside it."""
    root = tmp_path / "class"
    (root / "lessons").mkdir(parents=True)
    (root / "lessons" / "day1.study.json").write_text("{}")
    (tmp_path / "secret.json").write_text("{}")
    return root


def test_a_study_link_names_a_file_inside_the_served_folder(served):
    found = study_from_query("study=lessons/day1.study.json", served)
    assert found == (served / "lessons" / "day1.study.json").resolve()
    assert study_from_query("", served) is None
    assert study_from_query("other=1", served) is None


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("study=../secret.json", "outside the class folder"),
        ("study=lessons/../../secret.json", "outside the class folder"),
        ("study=/etc/passwd.json", "not from /"),
        ("study=%2Fetc%2Fhosts.json", "not from /"),
        ("study=~/x.json", "not from /"),
        ("study=lessons/none.study.json", "no such study"),
        ("study=lessons/day1.study.py", "saved study (.json)"),
        ("study=", "not a study file's name"),
        ("study=a%00b.json", "not a study file's name"),
        ("study=lessons/day1.study.json&study=lessons/day1.study.json", "more than one"),
    ],
)
def test_a_study_link_out_of_the_folder_or_not_a_study_is_refused(served, query, said):
    with pytest.raises(ClassLinkError, match=said.replace("(", r"\(").replace(")", r"\)")):
        study_from_query(query, served)


def test_a_symbolic_link_out_of_the_served_folder_is_refused(served):
    (served / "lessons" / "escape.json").symlink_to(served.parent / "secret.json")
    with pytest.raises(ClassLinkError, match="outside"):
        study_from_query("study=lessons/escape.json", served)


def test_the_class_pages_are_thin_and_carry_no_outputs():
    pages = sorted((REPO / "class").glob("explorer_*.ipynb"))
    assert [p.stem for p in pages] == sorted(f"explorer_{s}" for s in classroom.GAME_PAGES)
    for page in pages:
        notebook = json.loads(page.read_text())
        code = [c for c in notebook["cells"] if c["cell_type"] == "code"]
        assert len(code) == 2 and all(len("".join(c["source"]).splitlines()) <= 3 for c in code)
        assert all(c["outputs"] == [] and c["execution_count"] is None for c in code)
        assert "ClassPage(" in "".join(code[0]["source"]) and "page.show()" in "".join(code[1]["source"])
    # The tour is the project's own notebook, served as it is.
    assert (REPO / "class" / "01_tour.ipynb").resolve() == (REPO / "notebooks" / "01_tour.ipynb").resolve()


def test_the_handed_out_lesson_reopens_as_saved():
    from normandy_lab.engine.study import load_study

    study = load_study(REPO / "class" / LESSON)
    assert study.title and len(study.edits) > 0


def test_the_template_loads_bokehjs_from_the_installed_package_and_nothing_from_a_cdn(tmp_path):
    import bokeh

    folder = classroom.write_template(tmp_path, REPO / "class")
    assert folder == tmp_path / "voila" / "templates" / classroom.TEMPLATE_NAME
    for bundle in classroom._bokeh_bundles():
        copied = folder / "static" / bundle.name
        assert copied.read_bytes() == bundle.read_bytes()
        assert f"Bokeh v{bokeh.__version__}" in copied.read_text()[:4000] or bokeh.__version__ in copied.read_text()
    index = (folder / "index.html.j2").read_text()
    assert 'include_js("static/bokeh.min.js")' in index and 'include_js("static/bokeh-widgets.min.js")' in index
    for name in ("index.html.j2", "page.html", "tree.html"):
        text = (folder / name).read_text()
        assert "http://" not in text and "https://" not in text, name
    assert json.loads((folder / "conf.json").read_text()) == {"base_template": "lab"}


def test_the_index_links_the_tour_every_game_and_each_lesson_by_its_title():
    body = classroom.index_body(REPO / "class")
    assert 'href="{{ base_url }}voila/render/01_tour.ipynb"' in body
    for system in classroom.GAME_PAGES:
        assert f'voila/render/explorer_{system}.ipynb"' in body
    assert f"voila/render/explorer_bfn.ipynb?study={LESSON}" in body
    assert "13 June: every Vire bridge down" in body


def test_preheated_kernels_go_to_the_pages_only(tmp_path):
    for name in ("01_tour.ipynb", "explorer_bfn.ipynb"):
        (tmp_path / name).write_text("{}")
    pools = classroom.kernel_pools(2, tmp_path)
    assert pools == {
        "default": {"pool_size": 0},
        "01_tour.ipynb": {"pool_size": 2},
        "explorer_bfn.ipynb": {"pool_size": 2},
    }
    assert classroom.kernel_pools(0, tmp_path, {"explorer_bfn.ipynb": 30})["explorer_bfn.ipynb"] == {"pool_size": 30}
    options = classroom.parse_arguments(["--pool", "0", "--page-pool", "explorer_bfn.ipynb=30"])
    assert options.page_pool == [("explorer_bfn.ipynb", 30)]
    assert "--VoilaConfiguration.preheat_kernel=True" in classroom.voila_arguments(options, tmp_path)
    with pytest.raises(SystemExit):
        classroom.parse_arguments(["--page-pool", "explorer_bfn=x"])


def test_the_server_listens_where_asked_with_culling_and_a_policy_of_its_own_origin_only():
    options = classroom.parse_arguments(["--host", "0.0.0.0", "--port", "9001", "--pool", "2", "--cull-idle", "300"])
    arguments = classroom.voila_arguments(options, REPO / "class")
    assert "--Voila.ip=0.0.0.0" in arguments and "--Voila.port=9001" in arguments
    assert "--VoilaConfiguration.preheat_kernel=True" in arguments
    assert "--MappingKernelManager.cull_idle_timeout=300" in arguments
    assert "--KernelManager.transport=ipc" in arguments  # no TCP port race between kernels started together
    settings = json.loads(next(a for a in arguments if a.startswith("--Voila.tornado_settings=")).split("=", 1)[1])
    assert "default-src 'self'" in settings["headers"]["Content-Security-Policy"]
    no_pool = classroom.voila_arguments(classroom.parse_arguments(["--pool", "0"]), REPO / "class")
    assert not any("preheat" in a for a in no_pool)


def test_a_class_kernel_sends_no_bokehjs_of_its_own(monkeypatch):
    """Under the class server the page's template loaded BokehJS: show_inline publishes nothing."""
    from normandy_lab.views import mapview

    published = []
    monkeypatch.setattr("IPython.get_ipython", lambda: object())  # as in a kernel
    monkeypatch.setattr("IPython.display.display", lambda *a, **k: published.append(a))
    monkeypatch.setattr(mapview, "_LOADED_BUNDLES", set())
    monkeypatch.setenv(classroom.CLASS_ENV, "1")
    mapview.show_inline(widgets=True)
    assert published == [] and set() == mapview._LOADED_BUNDLES
    monkeypatch.delenv(classroom.CLASS_ENV)
    monkeypatch.setattr("bokeh.io.output_notebook", lambda **k: None)
    with pytest.raises(IndexError):  # without the class server it goes on to publish the loader
        mapview.show_inline(widgets=True)


def test_a_class_page_opens_the_linked_study_and_can_write_nothing(monkeypatch, request):
    import gc

    monkeypatch.setenv(classroom.CLASS_ENV, "1")
    request.addfinalizer(gc.unfreeze)  # the class page froze this process's objects (release_memory)
    trims = []
    monkeypatch.setattr(classroom, "trim_heap", lambda: trims.append(1))
    page = classroom.ClassPage("bfn_1944-06-13_am", root=REPO / "class")
    explorer = page.explorer
    for name in ("save_path", "save_button", "export_button", "picker", "open_button"):
        widget = getattr(explorer, name)
        assert widget.comm is None, f"{name} still reachable from a page"
        assert all(widget not in getattr(row, "children", ()) for row in explorer.app.children)
    assert page.show(f"study={LESSON}") is explorer
    assert len(explorer.session.edits) == 26 and "handed out by your teacher" in explorer.message
    assert page.study == (REPO / "class" / LESSON).resolve()
    # The student's edit stays in the session; the lesson file is as it was.
    before = (REPO / "class" / LESSON).read_bytes()
    trimmed = len(trims)
    explorer.apply({"op": "weather", "weather": "Storm"})
    assert (REPO / "class" / LESSON).read_bytes() == before
    assert len(trims) > trimmed  # what the action freed went back to the system
    # A bad link leaves the page on its scenario and says why.
    other = classroom.ClassPage("bfn_1944-06-13_am", root=REPO / "class")
    other.show("study=../pyproject.toml.json")
    assert other.explorer.session.edits == [] and "outside the class folder" in other.explorer.message


def test_outside_the_class_server_the_explorer_keeps_its_file_controls(monkeypatch):
    monkeypatch.delenv(classroom.CLASS_ENV, raising=False)
    from normandy_lab.views.explorer import Explorer

    explorer = Explorer("gts_1944-06-08_0700")
    assert explorer.save_button.comm is not None


def test_the_index_lists_the_three_lessons_each_a_served_lesson_notebook():
    """Issue 33, section 2: the lessons are class pages, listed on the index by title, preheated like the rest."""
    from normandy_lab.lessons import LESSONS

    body = classroom.index_body(REPO / "class")
    assert "<h2>Lessons</h2>" in body
    assert list(classroom.LESSON_PAGES) == [f"lesson_{notebook}" for notebook in LESSONS.values()]
    for page, (title, _) in classroom.LESSON_PAGES.items():
        assert f'href="{{{{ base_url }}}}voila/render/{page}">{title}</a>' in body
        # Each page is the project's own lesson notebook, served as it is (a link, like the tour).
        assert (REPO / "class" / page).resolve().parent == (REPO / "notebooks" / "lessons").resolve()
    pools = classroom.kernel_pools(1, REPO / "class")
    assert all(pools[page] == {"pool_size": 1} for page in classroom.LESSON_PAGES)


def test_on_the_class_server_only_the_teachers_link_reveals_answers(monkeypatch):
    """A student's lesson page has no answer button (nor any answer); the teacher's link, with the key, has."""
    from normandy_lab.lessons import Exercise, Lesson

    def exercises_of(query: str) -> tuple[list, str]:
        monkeypatch.setenv("QUERY_STRING", query)  # what Voilà gives a kernel that was not preheated
        made = Lesson("t", "<p>q</p>", "<p>g</p>", "<p>h</p>", [], [Exercise("Which day?", "<p>18 June</p>")])
        box = made.show_exercises()
        return made.reveals, " ".join(str(getattr(w, "value", "")) for w in box.children)

    monkeypatch.delenv(classroom.CLASS_ENV, raising=False)
    assert classroom.answers_open("") is True  # JupyterLab: every reader may reveal
    monkeypatch.setenv(classroom.CLASS_ENV, "1")
    monkeypatch.setenv(classroom.TEACHER_ENV, "k3y")
    assert classroom.answers_open("teacher=k3y") is True
    assert classroom.answers_open("teacher=k3") is False and classroom.answers_open("") is False
    reveals, shown = exercises_of("")
    assert reveals == [] and "Your teacher reveals the answers" in shown and "18 June" not in shown
    reveals, shown = exercises_of("teacher=k3y")
    assert len(reveals) == 1 and "Your teacher" not in shown and "18 June" not in shown
    monkeypatch.delenv(classroom.TEACHER_ENV)  # a server started with --answers students
    assert classroom.answers_open("") is True
    assert classroom.parse_arguments([]).answers == "teacher"
    assert classroom.parse_arguments(["--answers", "students"]).answers == "students"


def test_class_kernels_get_an_allocator_that_gives_large_blocks_back():
    """A supply determination's arrays get pages of their own, freed with them (docs/class.md, memory)."""
    found = classroom.kernel_environment(REPO / "class", environ={})
    assert found[classroom.CLASS_ENV] == "1" and found[classroom.ROOT_ENV] == str(REPO / "class")
    assert found["MALLOC_MMAP_THRESHOLD_"] == "262144"
    # A value set by hand for the server is the kernels' too.
    kept = classroom.kernel_environment(REPO / "class", environ={"MALLOC_MMAP_THRESHOLD_": "65536"})
    assert "MALLOC_MMAP_THRESHOLD_" not in kept


def _private_dirty_mb() -> float:
    with open("/proc/self/smaps_rollup") as handle:
        return next(int(line.split()[1]) for line in handle if line.startswith("Private_Dirty")) / 1024


@pytest.mark.skipif(not Path("/proc/self/smaps_rollup").exists(), reason="reads Linux's /proc")
def test_release_memory_gives_a_page_builds_freed_heap_back():
    """Blocks freed between live ones stay with the process until the heap is trimmed (glibc's malloc_trim)."""
    import platform

    if platform.libc_ver()[0] != "glibc":
        pytest.skip("malloc_trim is glibc's")
    blocks = [bytearray(2000) for _ in range(100_000)]  # 200 MB of heap blocks, under the mmap threshold
    kept = blocks[::50]  # a few stay alive, spread over the heap, so its top cannot simply shrink
    before = _private_dirty_mb()
    del blocks
    classroom.release_memory()
    assert before - _private_dirty_mb() > 100
    assert len(kept) == 2000


def test_a_class_kernel_freezes_what_its_page_keeps_and_a_lab_kernel_does_not(monkeypatch):
    """Frozen, the page's objects are not walked by each full collection of a student's actions."""
    import gc

    monkeypatch.delenv(classroom.CLASS_ENV, raising=False)
    gc.unfreeze()
    classroom.release_memory()
    assert gc.get_freeze_count() == 0  # JupyterLab: a frozen object would never be collected
    monkeypatch.setenv(classroom.CLASS_ENV, "1")
    try:
        classroom.release_memory()
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
