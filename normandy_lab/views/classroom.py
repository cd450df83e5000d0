"""The class server: the tour and an explorer per game as Voilà pages, with no code shown and nothing fetched.

``bash run.sh class`` (or ``python -m normandy_lab.views.classroom``) serves the ``class/`` folder of the
repository with Voilà (docs/class.md):

* each page load gets its own kernel (Voilà's default), so one student's edits never reach another's;
* a teacher hands out a state as a link, ``explorer_bfn.ipynb?study=lessons/day1.study.json``: the study
  file is read (as JSON, never executed) from inside the served folder only, and whatever the student then
  changes stays in that page's kernel: class pages have no Save, Export or Open box (:func:`lock_for_class`);
* the pages load BokehJS (and its widget bundle) from the installed bokeh package through a Voilà template
  of this module (:func:`write_template`), served by the class server itself; the template also drops the
  Font Awesome stylesheet Voilà's own templates ask a CDN for (Voilà's bundled CSS carries Font Awesome),
  and the server sends a Content-Security-Policy that lets a page reach its own server only.

The thin notebooks of ``class/`` call :class:`ClassPage`; the logic is here.
"""

from __future__ import annotations

import argparse
import functools
import html
import json
import os
import sys
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote

from normandy_lab.errors import FileRefusedError
from normandy_lab.paths import REPO_ROOT

# What a class page is and takes off its explorer, under the names this module has always given them.
from normandy_lab.views.classlock import CLASS_ENV, lock_for_class, serving_class

#: The folder the class server serves (its pages, and the studies a teacher hands out under ``lessons/``).
CLASS_DIR = REPO_ROOT / "class"
#: The Voilà template of the class pages (written by :func:`write_template` at each start).
TEMPLATE_NAME = "normandy_class"
#: The served folder, for the kernels (a study link is resolved inside it).
ROOT_ENV = "NORMANDY_LAB_CLASS_ROOT"
#: The teacher's key (set by the server for its kernels unless ``--answers students``): a lesson page shows
#: its answer buttons only when its link carries ``teacher=<key>`` (:func:`answers_open`).
TEACHER_ENV = "NORMANDY_LAB_TEACHER_KEY"


def game_pages() -> dict[str, str]:
    """Return the scenario each game's explorer page opens on (``class/explorer_<key>.ipynb``), by game key.

    Every registered game that names one (``Game.opening``), by key: the page list names
    no game, so a game registered with an opening scenario and given a page in ``class/`` is listed.
    """
    # In the function: the registry (and the grids it loads) only when the page list is asked for, not when
    # the class server's command line is read.
    from normandy_lab.rules import games

    return {game.key: game.opening for game in games() if game.opening}


def game_titles() -> dict[str, str]:
    """Return each game's name, as the index page gives it (the registry's ``Game.title``), by key."""
    from normandy_lab.rules import games  # in the function, as in game_pages

    return {game.key: game.title for game in games()}


def __getattr__(name: str) -> Any:
    # GAME_PAGES and GAMES, the page list's older names: tables read from the registry when asked for.
    if name == "GAME_PAGES":
        return game_pages()
    if name == "GAMES":
        return game_titles()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

#: The lesson pages (``class/lesson_<notebook>``, links to ``notebooks/lessons/``) and what the index says of
#: each (``docs/class.md``, :mod:`normandy_lab.lessons`).
LESSON_PAGES = {
    "lesson_1_cotentin.ipynb": (
        "Lesson 1: the Cotentin cut off",
        "when the German garrison of the peninsula was cut off, and what kept it in supply (BfN, KG)",
    ),
    "lesson_2_panzer_lehr.ipynb": (
        "Lesson 2: a bridge to starve Panzer Lehr",
        "which bridge would have starved the division on 13 June, and what the air forces hit (BfN)",
    ),
    "lesson_3_storm.ipynb": (
        "Lesson 3: the storm of 19-22 June",
        "what the storm did to both sides' supply under each game that covers it (BfN, KG)",
    ),
}
#: The largest study file a link may open (the biggest saved study of the project is a few kB).
MAX_STUDY_BYTES = 2_000_000
#: The C allocator's settings the class server gives its kernels (glibc reads them; another C library
#: ignores them).  A block of 256 kB or more (a numpy array of a supply determination) gets pages of its own,
#: which go back to the system when it is freed.  With glibc's default the threshold grows to 32 MB as large
#: blocks are freed, so later arrays were carved from the heap and their pages stayed with the kernel: a
#: lesson-2 kernel kept 80 MB of freed memory (docs/class.md, "Memory per student").
KERNEL_MALLOC_ENV = {"MALLOC_MMAP_THRESHOLD_": "262144"}


class ClassLinkError(FileRefusedError):
    """A ``?study=`` link that names no study inside the served folder; the message says why."""


def class_root() -> Path:
    """Return the folder the class server serves (:data:`ROOT_ENV`, else :data:`CLASS_DIR`)."""
    return Path(os.environ.get(ROOT_ENV) or CLASS_DIR)


# -- a handed-out study --------------------------------------------------------------------------------------


def study_from_query(query: str | None, root: str | Path | None = None) -> Path | None:
    """Return the study file a page's query string names (``study=lessons/day1.study.json``), or None.

    The path is relative to the served folder ``root`` and must stay inside it (no absolute path, no
    ``..`` out of it, no symbolic link leading out), name an existing ``.json`` file of at most
    :data:`MAX_STUDY_BYTES`, and be given once.  Nothing is read here but the file's size.

    Raises
    ------
    ClassLinkError
        For any other ``study`` value, saying what is wrong.
    """
    values = parse_qs(query or "", keep_blank_values=True).get("study")
    if not values:
        return None
    if len(values) > 1:
        raise ClassLinkError("the link names more than one study; give study= once")
    given = values[0].strip()
    shown = given[:80]
    if not given or "\x00" in given or len(given) > 255:
        raise ClassLinkError(f"study={shown!r} is not a study file's name")
    if not given.endswith(".json"):
        raise ClassLinkError(f"study={shown!r}: a study link names a saved study (.json)")
    base = Path(root or class_root()).resolve()
    relative = Path(given)
    if relative.is_absolute() or given.startswith(("/", "\\", "~")):
        raise ClassLinkError(f"study={shown!r}: give the study's path inside the class folder, not from /")
    try:
        target = (base / relative).resolve()
    except (OSError, ValueError, RuntimeError):
        raise ClassLinkError(f"study={shown!r} is not a path a file can have") from None
    if not target.is_relative_to(base):
        raise ClassLinkError(f"study={shown!r} is outside the class folder")
    if not target.is_file():
        raise ClassLinkError(f"study={shown!r}: there is no such study in the class folder")
    if target.stat().st_size > MAX_STUDY_BYTES:
        raise ClassLinkError(f"study={shown!r} is too large to be a study ({target.stat().st_size:,} bytes)")
    return target


def request_query() -> str:
    """Return the page's query string: Voilà's, which a preheated kernel waits for until a student arrives."""
    try:
        from voila.utils import get_query_string
    except ImportError:  # JupyterLab without Voilà: there is no page request
        return os.environ.get("QUERY_STRING", "")
    return get_query_string() or ""


def answers_open(query: str | None = None) -> bool:
    """Return whether this page may reveal a lesson's answers.

    Always in JupyterLab (outside the class server), and on a server started with ``--answers students``.
    Otherwise only on the teacher's page: a link carrying ``teacher=<the key the server printed>``.  A
    preheated kernel waits here for its student's link, as :meth:`ClassPage.show` does.
    """
    import hmac

    if not serving_class():
        return True
    key = os.environ.get(TEACHER_ENV, "")
    if not key:
        return True
    query = request_query() if query is None else query
    given = parse_qs(query or "").get("teacher", [""])[0]
    return hmac.compare_digest(given.encode(), key.encode())


def release_memory() -> None:
    """Give the memory this process has freed back to the system, once a page is built.

    Collects Python's garbage, then asks glibc (``malloc_trim``) to return the free pages inside its heap:
    a page's build frees many small blocks between live ones, which the heap keeps otherwise.  A class
    kernel calls it after its page is made (:class:`ClassPage`, :func:`normandy_lab.lessons.lesson`), so
    each student's kernel holds what its page uses only.  Elsewhere than on glibc it only collects.

    On the class server it also freezes what is alive then (``gc.freeze``): the libraries, the map and the
    page, which live as long as the kernel, are no longer walked by each full collection of the student's
    actions (≈ 80 ms of a BfN action's 0.55 s of CPU went to the collector, 20 ms once frozen: measured in
    one process, 32 actions).  Not in JupyterLab, where what is frozen is never collected if it later
    becomes garbage.
    """
    import gc

    gc.collect()
    if serving_class():
        gc.freeze()
    trim_heap()


def trim_heap() -> None:
    """Give the free pages inside the C heap back to the system (glibc's ``malloc_trim``; else nothing).

    A class page calls it after each of its student's actions (:class:`ClassPage`): an action frees most of
    what it allocates, between blocks that stay, and a BfN explorer's heap otherwise kept ≈ 50 MB of such
    free memory after a few actions (its first storm above all).  It costs a few ms of CPU an action.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        _libc().malloc_trim(0)
    except (OSError, AttributeError):  # a C library without malloc_trim (musl): nothing to give back
        return


@functools.cache
def _libc() -> Any:
    import ctypes
    import ctypes.util

    return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")


class ClassPage:
    """One student's explorer page on the class server: a game's scenario, or a study handed out by link.

    Made in the notebook's first cell, which a preheated kernel runs before any student arrives; the second
    cell, :meth:`show`, reads the page's own link and opens the study it names.

    Parameters
    ----------
    scenario
        The scenario the page opens on (a name of ``scenarios/``).
    root
        The served folder study links are resolved in (default :func:`class_root`).
    """

    def __init__(self, scenario: str, root: str | Path | None = None) -> None:
        from normandy_lab.views.explorer import explore

        self.root = Path(root) if root is not None else class_root()
        self.explorer = explore(scenario)
        lock_for_class(self.explorer)
        self.study: Path | None = None
        release_memory()  # what building the page freed, before the kernel waits for its student
        # After each action (the counter is the last thing an update sends), what it freed goes back.
        self.explorer.refresh_count.observe(lambda _change: trim_heap(), names="value")

    def show(self, query: str | None = None) -> Any:
        """Open the study the page's link names (``?study=...``), if any, and return the explorer to display.

        A link that names no study of the served folder, or a study that cannot be read, leaves the page on
        its scenario and says why in the banner.
        """
        from normandy_lab.engine.study import load_study
        from normandy_lab.errors import NormandyLabError

        query = request_query() if query is None else query
        try:
            self.study = study_from_query(query, self.root)
            if self.study is not None:
                # Loaded here, as a Study object: the explorer keeps no path it could write back to.
                self.explorer.open(load_study(self.study))
                self.explorer.message = (
                    f"Opened the study {self.study.name} handed out by your teacher. Your changes stay in "
                    "this page; reload the page to start again from the study."
                )
        except (NormandyLabError, OSError) as exc:
            self.explorer.message = f"Could not open the link's study: {exc}"
        self.explorer._refresh_text()  # the banner says what the link opened
        if self.study is not None:
            release_memory()  # what replaying the study freed
        return self.explorer


# -- the Voilà template and the index page -------------------------------------------------------------------

_INDEX_J2 = """{%- extends 'lab/index.html.j2' -%}
{#- normandy_lab's class pages: Voilà's lab template with BokehJS from the installed bokeh package, served by
    the class server, and no stylesheet or script from a CDN (written by normandy_lab.views.classroom). -#}
{%- block html_head_js -%}
{{ super() }}
__BOKEH_SCRIPTS__
<script>
  // Leaving the page, Voila shuts its kernel down with a POST that must carry the _xsrf cookie, which the
  // page itself does not set: a page opened straight from a link gets it from the index page (no kernel).
  if (!/(^|; )_xsrf=/.test(document.cookie)) {
    fetch("{{ resources.base_url }}", {credentials: "same-origin"});
  }
</script>
{%- endblock html_head_js -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block notebook_css -%}
{{ resources.include_js("static/voila-style.js") }}
{{ spinner.css() }}
<style>.jp-mod-noOutputs.jp-mod-noInput { display: none; } a.anchor-link { display: none; }</style>
{{ resources.include_css("static/index.css") }}
{{ resources.include_css("static/theme-light.css") }}
{%- endblock notebook_css -%}
"""

# Voilà's page.html (tree, error and 404 pages) links Font Awesome from a CDN outside any block: this one
# has the same blocks and no link.
_PAGE_HTML = """<!DOCTYPE HTML>
<html>
<head>
  <meta charset="utf-8">
  <title>{% block title %}normandy_lab{% endblock %}</title>
  <meta name="viewport" content="width=device-width, initial-scale=1.0">
  {% block stylesheets %}{% endblock %}
  {% block meta %}{% endblock %}
</head>
<body data-base-url="{{ base_url }}voila/" data-voila="voila">
  <div>{% block body %}{% endblock %}</div>
  {% block scripts %}{% endblock %}
</body>
</html>
"""

_TREE_HTML = """{%- extends "page.html" -%}
{% block title %}normandy_lab: the class pages{% endblock %}
{% block stylesheets %}
<style>
  body { font-family: sans-serif; max-width: 56em; margin: 2em auto; padding: 0 1em; color: #222; }
  h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
  li { margin: 0.45em 0; } a { color: #1a56a0; } small { color: #555; }
</style>
{% endblock %}
{% block body %}
__INDEX_BODY__
{% endblock %}
"""


def _bokeh_bundles() -> list[Path]:
    """Return the BokehJS files the class pages load: the core and widget bundles of the installed bokeh."""
    from bokeh.util.paths import bokehjs_path

    folder = Path(bokehjs_path()) / "js"
    return [folder / "bokeh.min.js", folder / "bokeh-widgets.min.js"]


def _study_entry(path: Path, root: Path) -> tuple[str, str, str] | None:
    """``(title, page, link)`` of a study under ``lessons/``, or None when it is not a readable study."""
    try:
        payload = json.loads(path.read_text(encoding="utf-8"))
        scenario = str(payload["scenario"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    system = Path(scenario).name.split("_", 1)[0]
    if system not in game_pages():
        return None
    title = payload.get("title") if isinstance(payload.get("title"), str) else ""
    relative = path.relative_to(root).as_posix()
    page = f"explorer_{system}.ipynb"
    return title or path.name, page, f"{page}?study={quote(relative)}"


def index_body(root: str | Path | None = None) -> str:
    """Return the index page's HTML: the tour, an explorer per game, the lessons, a link per study."""
    from normandy_lab.views.launcher import scenario_list

    root = Path(root) if root is not None else class_root()
    labels = dict((name, label) for label, name in scenario_list())
    render = "{{ base_url }}voila/render/"
    lines = [
        "<h1>normandy_lab: the Normandy campaign, 1944</h1>",
        "<p>Open a page; each page is your own: what you change there, nobody else sees, and nothing is "
        "saved on the server. Reload a page to start again.</p>",
        "<h2>The tour</h2><ul>",
    ]
    if (root / "01_tour.ipynb").exists():
        lines.append(
            f'<li><a href="{render}01_tour.ipynb">The campaign, 6 June to 25 August 1944</a> '
            "<small>the front day by day, the scenarios, the four games' maps</small></li>"
        )
    lines.append("</ul><h2>The explorer, one page per game</h2><ul>")
    titles = game_titles()
    for system, scenario in game_pages().items():
        page = root / f"explorer_{system}.ipynb"
        if page.exists():
            label = html.escape(labels.get(scenario, scenario).rsplit(" (", 1)[0])
            lines.append(f'<li><a href="{render}{page.name}">{html.escape(titles[system])}</a>: {label}</li>')
    lines.append("</ul>")
    lessons = [(page, said) for page, said in LESSON_PAGES.items() if (root / page).exists()]
    if lessons:
        lines.append("<h2>Lessons</h2><ul>")
        for page, (title, what) in lessons:
            link = f'<a href="{render}{page}">{html.escape(title)}</a>'
            lines.append(f"<li>{link} <small>{html.escape(what)}</small></li>")
        lines.append("</ul>")
    studies = [_study_entry(p, root) for p in sorted((root / "lessons").glob("*.json"))]
    studies = [s for s in studies if s is not None]
    if studies:
        lines.append("<h2>Situations handed out by the teacher</h2><ul>")
        for title, _, link in studies:
            lines.append(f'<li><a href="{render}{html.escape(link)}">{html.escape(title)}</a></li>')
        lines.append("</ul>")
    return "\n".join(lines)


def write_template(target: str | Path, root: str | Path | None = None) -> Path:
    """Write the class pages' Voilà template under ``target`` (a Jupyter data folder) and return its folder.

    ``target/voila/templates/normandy_class/`` gets the page template, the index page (built from the
    served folder ``root``) and, in ``static/``, copies of the installed bokeh's BokehJS bundles: written at
    each start, so they always match the bokeh the kernels run.
    """
    import shutil

    folder = Path(target) / "voila" / "templates" / TEMPLATE_NAME
    static = folder / "static"
    static.mkdir(parents=True, exist_ok=True)
    scripts = []
    for bundle in _bokeh_bundles():
        shutil.copyfile(bundle, static / bundle.name)
        scripts.append(f'{{{{ resources.include_js("static/{bundle.name}") }}}}')
    (folder / "conf.json").write_text(json.dumps({"base_template": "lab"}), encoding="utf-8")
    (folder / "index.html.j2").write_text(_INDEX_J2.replace("__BOKEH_SCRIPTS__", "\n".join(scripts)), "utf-8")
    (folder / "page.html").write_text(_PAGE_HTML, encoding="utf-8")
    (folder / "tree.html").write_text(_TREE_HTML.replace("__INDEX_BODY__", index_body(root)), "utf-8")
    return folder


# -- the server ----------------------------------------------------------------------------------------------

#: What a class page may load: only its own server (scripts, styles, fonts, images, the kernel's websocket).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval' blob:; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; "
    "connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'"
)


def voila_arguments(options: argparse.Namespace, root: Path) -> list[str]:
    """Return the Voilà command line for these options (everything but the kernel pools, given as config)."""
    settings = {"headers": {"Content-Security-Policy": CONTENT_SECURITY_POLICY}}
    arguments = [
        str(root),
        "--no-browser",
        f"--Voila.ip={options.host}",
        f"--Voila.port={options.port}",
        f"--Voila.tornado_settings={json.dumps(settings)}",
        f"--VoilaConfiguration.template={TEMPLATE_NAME}",
        "--VoilaConfiguration.classic_tree=True",
        "--VoilaConfiguration.show_tracebacks=False",
        # Idle kernels whose page is gone (a tab closed without saying so, a laptop shut) are culled; a
        # closed tab says so and Voilà shuts its kernel at once, busy or not.
        f"--MappingKernelManager.cull_idle_timeout={options.cull_idle}",
        f"--MappingKernelManager.cull_interval={max(10, min(60, options.cull_idle // 4 or 10))}",
        "--MappingKernelManager.cull_connected=False",
        "--MappingKernelManager.cull_busy=False",
        # Kernels talk to the server over Unix sockets, not TCP ports: a pool of kernels started together
        # raced for ports ("Address already in use") and a kernel died before any student had it.
        "--KernelManager.transport=ipc",
    ]
    if options.pool > 0 or any(size > 0 for _, size in options.page_pool):
        arguments.append("--VoilaConfiguration.preheat_kernel=True")
    if options.token:
        arguments.append(f"--Voila.token={options.token}")
    return arguments


def kernel_pools(pool: int, root: Path, pages: dict[str, int] | None = None) -> dict[str, dict[str, int]]:
    """Return the preheated kernels per page: ``pool`` for the tour, each explorer and each lesson.

    ``pages`` gives some pages their own number, e.g. ``{"explorer_bfn.ipynb": 30}`` for the page a whole
    class opens first.
    """
    names = [
        "01_tour.ipynb",
        *(f"explorer_{system}.ipynb" for system in game_pages()),
        *LESSON_PAGES,
        *(pages or {}),
    ]
    pools: dict[str, dict[str, int]] = {"default": {"pool_size": 0}}
    for page in names:
        if (root / page).exists():
            pools[page] = {"pool_size": (pages or {}).get(page, pool)}
    return pools


def _page_pool(text: str) -> tuple[str, int]:
    """Read ``--page-pool explorer_bfn.ipynb=30``."""
    page, _, size = text.rpartition("=")
    if not page.endswith(".ipynb") or not size.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: give a page and a number, e.g. explorer_bfn.ipynb=30")
    return page, int(size)


def kernel_environment(root: Path, environ: dict[str, str] | None = None) -> dict[str, str]:
    """Return what the server sets in its environment for its kernels to inherit.

    A class page's marks (:data:`CLASS_ENV`, the served folder :data:`ROOT_ENV`) and the allocator's
    settings of :data:`KERNEL_MALLOC_ENV`, unless ``environ`` (default ``os.environ``) already sets one.
    """
    given = os.environ if environ is None else environ
    malloc = {name: value for name, value in KERNEL_MALLOC_ENV.items() if name not in given}
    return {CLASS_ENV: "1", ROOT_ENV: str(root), **malloc}


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """Read the class server's options."""
    parser = argparse.ArgumentParser(
        prog="python -m normandy_lab.views.classroom",
        description="Serve the tour and the explorers as Voilà pages for a class (docs/class.md).",
    )
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: every address)")
    parser.add_argument("--port", type=int, default=8866, help="port (default 8866)")
    parser.add_argument(
        "--pool", type=int, default=1,
        help="kernels kept started and run ahead for each page, so a student's page opens at once (0: none)",
    )  # fmt: skip
    parser.add_argument(
        "--page-pool", type=_page_pool, action="append", default=[], metavar="PAGE=N",
        help="kernels started ahead for one page (repeatable), e.g. explorer_bfn.ipynb=30 for a lesson",
    )  # fmt: skip
    parser.add_argument(
        "--cull-idle", type=int, default=900,
        help="seconds after which an idle kernel with no page connected is shut down (default 900)",
    )  # fmt: skip
    parser.add_argument(
        "--refill-after", type=float, default=3600,
        help="seconds before a taken preheated kernel is replaced (default 3600: not during the lesson)",
    )  # fmt: skip
    parser.add_argument(
        "--answers", choices=("teacher", "students"), default="teacher",
        help="who may reveal a lesson's answers: the teacher's link only (default), or every student",
    )  # fmt: skip
    parser.add_argument(
        "--teacher-key", default="",
        help="the key of the teacher's lesson links (?teacher=KEY; default: a random one, printed at start)",
    )  # fmt: skip
    parser.add_argument("--token", default="", help="a token students add to the address (default: none)")
    parser.add_argument(
        "--no-fork-server", dest="fork_server", action="store_false",
        help="start every kernel as a new process, not as a fork of one warmed process (default: forked, "
        "on Linux; docs/class.md, Kernels)",
    )  # fmt: skip
    parser.add_argument("--root", default=str(CLASS_DIR), help="the folder served (default: class/)")
    parser.add_argument("--template-dir", default="", help="where the Voilà template goes (default: a cache)")
    return parser.parse_args(argv)


def start_fork_server(wanted: bool, data: Path) -> Any:
    """Start the kernels' fork server and write the kernelspec that uses it; return its process, or None.

    The fork server (:mod:`normandy_lab.views.forkserver`) imports what the pages need and warms the engine
    on each explorer page's scenario, once; every kernel is then a fork of it, sharing those pages.  Started
    in this process's environment, so call it once the kernels' environment is set; its socket is then
    named in this process's environment (``forkserver.SOCKET_ENV``) for the provisioner.  Without it
    (``wanted`` False, not Linux, or it failed to start) kernels start the normal way; when the provisioner
    is not installed the ``python3`` kernelspec of ``data`` is removed (a spec naming a provisioner
    jupyter_client cannot find would make the kernel unavailable).
    """
    import atexit

    from normandy_lab.views import forkserver

    os.environ.pop(forkserver.SOCKET_ENV, None)
    if not (forkserver.available() and forkserver.registered()):
        forkserver.write_kernelspec(data, use=False)
        return None
    forkserver.write_kernelspec(data)
    if not wanted:
        return None
    print("normandy_lab class server: loading the games for the kernels' fork server...", flush=True)
    process, socket_path = forkserver.start(game_pages().values())
    if process is None:
        print("normandy_lab class server: no fork server; kernels start the normal way", flush=True)
        return None
    os.environ[forkserver.SOCKET_ENV] = str(socket_path)
    atexit.register(forkserver.stop, process)
    return process


def main(argv: list[str] | None = None) -> None:
    """Write the template and run the class server (Voilà) in this process, until interrupted."""
    from traitlets.config import Config

    options = parse_arguments(argv)
    root = Path(options.root).resolve()
    data = Path(options.template_dir or Path.home() / ".cache" / "normandy_lab" / "class-server").resolve()
    write_template(data, root)
    os.environ["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(data), os.environ.get("JUPYTER_PATH")]))
    os.environ.update(kernel_environment(root))  # inherited by every kernel
    if options.answers == "teacher":
        import secrets

        key = options.teacher_key or secrets.token_urlsafe(9)
        os.environ[TEACHER_ENV] = key
    else:
        key = ""
        os.environ.pop(TEACHER_ENV, None)
    start_fork_server(options.fork_server, data)
    config = Config()
    config.VoilaKernelManager.kernel_pools_config = kernel_pools(options.pool, root, dict(options.page_pool))
    config.VoilaConfiguration.default_pool_size = 0
    # A pool refilled soon after it was taken starts a kernel for every student who arrived, on the CPU the
    # lesson needs: 20 refills at once slowed the actions of 20 benchmark students to seconds (docs/class.md).
    config.VoilaKernelManager.fill_delay = options.refill_after
    from voila.app import Voila

    print(f"normandy_lab class server: http://{options.host}:{options.port}/ serving {root}", flush=True)
    if key:
        first = next(iter(LESSON_PAGES))
        print(
            "the lessons' answers can be revealed on the teacher's pages only: add ?teacher=" + key
            + " to a lesson's address, e.g. "
            f"http://{options.host}:{options.port}/voila/render/{first}?teacher={key}",
            flush=True,
        )  # fmt: skip
    Voila.launch_instance(argv=voila_arguments(options, root), config=config)


if __name__ == "__main__":  # pragma: no cover - the command line
    main(sys.argv[1:])
