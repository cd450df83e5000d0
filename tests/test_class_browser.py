"""The class server as students meet it: Voilà on a loopback port, Debian's Chromium driven by Playwright.

One server for the module (``python -m normandy_lab.views.classroom``, one preheated kernel a page) serves a
copy of ``class/explorer_bfn.ipynb``, its ``lessons/`` and one lesson page (``lesson_3_storm.ipynb``). The tests check that the page shows
no code and draws the map (a Bokeh Figure view whose canvas is painted), that nothing is fetched from any
host but the server, that two pages are two kernels whose edits do not cross, that a handed-out study link
opens that study, that a tab closed in the middle of an action frees its kernel, and that a lesson page
shows no code and holds no answer until the student reveals it. Every wait is on a
condition; the server and the kernels it started are stopped at the end, and checked gone.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from browser_support import SETTLE_MS, descendants, settle, wait_until

from normandy_lab.views.export import CHROMIUM_ARGS, chromium_path

pytest.importorskip("voila")

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = chromium_path()
SHOTS = REPO / "test-artifacts" / "class"
PAGE = "voila/render/explorer_bfn.ipynb"
LESSON = "lessons/vire_bridges_down.study.json"
LESSON_PAGE = "voila/render/lesson_3_storm.ipynb"
TEACHER_KEY = "teacher-key-for-the-test"
LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
# A cold kernel on a loaded 2-core machine: imports, terrain, the explorer.
OPEN_MS = 180_000

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (bash run.sh test installs it)"),
]

# The explorer's map: a Bokeh Figure view exists, and its canvas holds a picture (many colours), not a blank.
JS_MAP_COLOURS = """() => {
    if (window.Bokeh === undefined) return 0;
    const view = Object.values(Bokeh.index).find(v => v.model.type === "Figure");
    if (!view || !view.canvas_view) return 0;
    const canvas = view.canvas_view.primary.canvas;
    if (!canvas.width || !canvas.height) return 0;
    const pixels = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
    const colours = new Set();
    for (let i = 0; i < pixels.length; i += 4 * 89) colours.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
    return colours.size;
}"""
JS_KERNEL_ID = "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
JS_LABEL = "() => (document.querySelector('.nl-label') || {}).innerText || ''"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ClassServer(str):
    """The server's address, with the folder it serves, its process and its log."""

    def __new__(cls, url: str, root: Path, process: subprocess.Popen, log: Path) -> ClassServer:
        made = super().__new__(cls, url)
        made.root, made.process, made.log = root, process, log
        return made

    def kernel_processes(self) -> dict[str, int]:
        """The kernels running under the server: kernel id -> pid (from each kernel's connection file)."""
        found = {}
        for process in descendants(self.process.pid):
            with contextlib.suppress(Exception):
                for argument in process.cmdline():
                    if "kernel-" in argument and argument.endswith(".json"):
                        found[Path(argument).stem.removeprefix("kernel-")] = process.pid
        return found


@pytest.fixture(scope="module")
def class_server(tmp_path_factory):
    """The class server on a free loopback port, one preheated kernel for the explorer page."""
    root = tmp_path_factory.mktemp("class")
    shutil.copy(REPO / "class" / "explorer_bfn.ipynb", root)
    shutil.copy(REPO / "class" / LESSON_PAGE.rsplit("/", 1)[1], root)  # the lesson notebook the link names
    shutil.copytree(REPO / "class" / "lessons", root / "lessons")
    port = _free_port()
    log = root.parent / "class-server.log"
    command = [
        sys.executable, "-m", "normandy_lab.views.classroom", "--host", "127.0.0.1", "--port", str(port),
        "--pool", "1", "--refill-after", "1", "--root", str(root), "--template-dir", str(root.parent / "template"),
        "--teacher-key", TEACHER_KEY,
    ]  # fmt: skip
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    server = ClassServer(url, root, process, log)

    def answers():
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=5) as reply:
            return reply.status == 200
        assert process.poll() is None, log.read_text()
        return False

    try:
        wait_until(answers, "the class server to answer", OPEN_MS / 1000)
        wait_until(lambda: server.kernel_processes(), "the preheated kernel to start", OPEN_MS / 1000)
        yield server
    finally:
        started = descendants(process.pid)
        process.terminate()
        try:
            process.wait(timeout=SETTLE_MS / 1000)
        finally:
            import psutil

            _, alive = psutil.wait_procs(started, timeout=SETTLE_MS / 1000)
            for leftover in alive:
                leftover.kill()
            assert not alive, f"kernels left running after the class server stopped: {alive}"


@contextlib.contextmanager
def _browser():
    """Debian's Chromium; yields a function opening a new student (own context: own cookies) and what left."""
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    outside: list[str] = []

    def note(url: str) -> None:
        host = urlsplit(url).hostname or ""
        if url.startswith(("data:", "blob:", "about:")) or host in LOOPBACK:
            return
        outside.append(url)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

        def student():
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            page.on("request", lambda request: note(request.url))
            page.on("websocket", lambda socket: note(socket.url))
            return page

        try:
            yield student, outside
        finally:
            browser.close()


def _open(page, url: str) -> None:
    """Open a class page and wait until its map is drawn and painted."""
    page.goto(url, timeout=OPEN_MS)
    page.wait_for_selector(".nl-explorer", timeout=OPEN_MS)
    page.wait_for_function(f"({JS_MAP_COLOURS})() > 20", timeout=OPEN_MS)
    settle(page)


def test_the_explorer_page_shows_no_code_draws_the_map_and_fetches_nothing_from_outside(class_server):
    with _browser() as (student, outside):
        page = student()
        _open(page, class_server + PAGE)
        page.screenshot(path=str(SHOTS / "explorer_page.png"))
        # The map: a Figure view whose canvas holds a picture of many colours (land, sea, hexes, units).
        assert page.evaluate(JS_MAP_COLOURS) > 20
        assert "out of supply" in page.evaluate(JS_LABEL)
        # No code: no editor, no prompt, no source text; the notebook's code is not in the page at all.
        text = page.inner_text("body")
        assert "ClassPage" not in text and "import" not in text
        assert page.locator(".jp-InputPrompt:visible, .jp-CodeMirrorEditor, .CodeMirror").count() == 0
        assert "ClassPage" not in page.content()
        # No Save, Export or Open box on a class page.
        assert page.get_by_role("button", name="Save study").count() == 0
        assert page.get_by_role("button", name="Export page").count() == 0
        # The index page, too, fetches nothing from outside and links the page.
        index = student()
        index.goto(class_server, timeout=OPEN_MS)
        assert index.locator('a[href="/voila/render/explorer_bfn.ipynb"]').count() == 1
    assert outside == [], f"requests left the machine: {outside}"


def test_the_page_came_from_a_preheated_kernel(class_server):
    """Kernels are started and the page run ahead of the student: the log names the kernel the page got."""
    with _browser() as (student, outside):
        page = student()
        _open(page, class_server + PAGE)
        kernel = page.evaluate(JS_KERNEL_ID)
        wait_until(lambda: f"Using pre-heated kernel: {kernel}" in class_server.log.read_text(), "the log line")
    assert outside == []


def test_the_class_kernels_are_forks_of_the_fork_server(class_server):
    """Each kernel is its own process, forked from the one process that loaded the games (docs/class.md)."""
    import psutil

    kernels = class_server.kernel_processes()
    assert kernels
    for pid in kernels.values():
        parent = psutil.Process(pid).parent()
        assert "normandy_lab.views.forkserver" in parent.cmdline(), parent.cmdline()
        assert parent.parent().pid == class_server.process.pid
    assert len(set(kernels.values())) == len(kernels)
    assert "the normal way" not in class_server.log.read_text()


def test_two_students_have_their_own_kernels_and_edits_do_not_cross(class_server):
    with _browser() as (student, outside):
        first, second = student(), student()
        _open(first, class_server + PAGE)
        _open(second, class_server + PAGE)
        assert first.evaluate(JS_KERNEL_ID) != second.evaluate(JS_KERNEL_ID)
        assert "weather Overcast" in first.evaluate(JS_LABEL) and "weather Overcast" in second.evaluate(JS_LABEL)
        first.locator(".nl-weather select").select_option("Storm")
        first.wait_for_function(f"({JS_LABEL})().includes('weather Storm')", timeout=SETTLE_MS)
        settle(first)
        first.screenshot(path=str(SHOTS / "student_one_storm.png"))
        # The second student's page and kernel are as they were: a step there answers with its own weather.
        second.locator(".nl-step button, button.nl-step").first.click()
        second.wait_for_function(f"!({JS_LABEL})().includes('Artillery Ready')", timeout=SETTLE_MS)
        assert "weather Overcast" in second.evaluate(JS_LABEL)
        assert "weather Storm" in first.evaluate(JS_LABEL)
    assert outside == []


def test_a_handed_out_link_opens_the_study_read_only(class_server):
    lesson = class_server.root / LESSON
    before = lesson.read_bytes()
    with _browser() as (student, outside):
        page = student()
        _open(page, f"{class_server}{PAGE}?study={LESSON}")
        banner = page.inner_text(".nl-banner")
        assert "vire_bridges_down.study.json" in banner and "handed out by your teacher" in banner
        assert "Edits of this study (26)" in page.inner_text(".nl-edits")
        page.screenshot(path=str(SHOTS / "handed_out_study.png"))
        # The student changes it: the change stays in the page, the file on the server is as it was.
        page.locator(".nl-weather select").select_option("Storm")
        page.wait_for_function("document.querySelector('.nl-edits').innerText.includes('(27)')", timeout=SETTLE_MS)
        # A link out of the served folder opens nothing and says so.
        other = student()
        _open(other, f"{class_server}{PAGE}?study=../../../etc/passwd.json")
        assert "outside the class folder" in other.inner_text(".nl-banner")
    assert lesson.read_bytes() == before
    assert outside == []


def test_a_tab_closed_in_the_middle_of_an_action_frees_its_kernel(class_server):
    with _browser() as (student, outside):
        page = student()
        _open(page, class_server + PAGE)
        kernel = page.evaluate(JS_KERNEL_ID)
        pid = class_server.kernel_processes()[kernel]
        page.locator(".nl-weather select").select_option("Storm")  # the kernel starts working on it
        page.close(run_before_unload=True)
        wait_until(lambda: kernel not in class_server.kernel_processes(), "the closed tab's kernel to stop")
        import psutil

        def gone() -> bool:  # the server forgets the kernel as it asks it to stop: the process may linger
            try:
                return not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
            except psutil.NoSuchProcess:
                return True

        wait_until(gone, "the closed tab's kernel process to exit")
        # The server goes on serving: a new student's page opens.
        again = student()
        _open(again, class_server + PAGE)
    assert outside == []


def _text(fragment_html: str) -> str:
    """The words of an answer's HTML as a page shows them (tags dropped, entities read)."""
    import html
    import re

    return html.unescape(re.sub(r"<[^>]+>", "", fragment_html))


def test_a_lesson_page_shows_no_code_and_an_answer_only_once_revealed(class_server):
    """Issue 33, section 2: the storm lesson on the class server, as the teacher and a student meet it."""
    from normandy_lab.lessons import lesson

    # What the page's kernel works out, worked out here too: the words each answer would put in the page.
    answers = [_text(e.answer())[:60] for e in lesson("storm").exercises]
    with _browser() as (student, outside):
        page = student()  # the teacher's page: the link with the key the server printed
        page.goto(f"{class_server}{LESSON_PAGE}?teacher={TEACHER_KEY}", timeout=OPEN_MS)
        page.wait_for_selector(".nl-lesson-question", timeout=OPEN_MS)
        page.wait_for_selector(".nl-reveal-button", timeout=OPEN_MS)
        text = page.inner_text("body")
        assert "What did the storm do" in text and "The game's answer" in text and "What happened" in text
        assert "What this rests on" in text  # the readings and the engine's caveats, where the student reads
        # No code: no editor, no prompt, and the notebook's source is not in the page at all.
        assert page.locator(".jp-InputPrompt:visible, .jp-CodeMirrorEditor, .CodeMirror").count() == 0
        assert 'lesson("storm")' not in page.content() and "show_exercises" not in page.content()
        # No answer is in the page, shown or hidden, until its button is pressed.
        content = _text(page.content())
        assert answers and all(answer not in content for answer in answers)
        page.screenshot(path=str(SHOTS / "lesson_storm.png"), full_page=True)
        page.locator(".nl-reveal-button").first.click()
        page.wait_for_function(
            "text => [...document.querySelectorAll('.nl-answer')].some(a => a.innerText.includes(text))",
            arg=answers[0][:40],
            timeout=SETTLE_MS,
        )
        content = _text(page.content())
        assert answers[0][:40] in content
        assert all(answer not in content for answer in answers[1:])  # the others stay out of the page
        page.screenshot(path=str(SHOTS / "lesson_storm_revealed.png"), full_page=True)
        # A student's page (no key, or a wrong one): the exercises, no answer button, no answer.
        pupil = student()
        pupil.goto(f"{class_server}{LESSON_PAGE}?teacher=guess", timeout=OPEN_MS)
        pupil.wait_for_selector(".nl-exercise", timeout=OPEN_MS)
        assert "Your teacher reveals the answers" in pupil.inner_text("body")
        assert pupil.locator(".nl-reveal-button").count() == 0
        assert all(answer not in _text(pupil.content()) for answer in answers)
    assert outside == []
