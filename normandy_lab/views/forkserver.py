"""The class server's kernels as forks of one process that has loaded what a page needs (a fork server).

Without it every kernel of the class server (``bash run.sh class``, docs/class.md) is a fresh Python process:
it imports the libraries, numba compiles the supply engine again (machine code made per process), and the
game's map and derived tables are read again, ≈ 9 CPU-s and ≈ 150 MB a kernel before its page is built.  Here
the class server starts one process first (the *zygote*, :func:`serve`) that does all of it once, freezes
what it holds for the collector (``gc.freeze``), and then forks a child per kernel: the children share those
pages with the zygote (copy-on-write) until they write to them, and each child is still its own process with
its own state (one student's edits never reach another's).

Three parts:

* :func:`serve`, the zygote (``python -m normandy_lab.views.forkserver --socket PATH``): loads, warms, then
  answers requests on a Unix socket in a private (0700) folder.  A request carries the kernel's command line,
  environment, working folder and standard streams (passed as file descriptors); the zygote forks, and the
  child makes itself a new session, takes that environment and folder and becomes an ipykernel
  (:func:`_become_kernel`).  The zygote answers with the child's pid and a pidfd of it, and reaps its
  children.
* :class:`ForkServerProvisioner`, a jupyter_client kernel provisioner (entry point
  ``normandy-fork-server``) that launches a kernel through the zygote, and the normal way (a new process,
  :class:`~jupyter_client.provisioning.LocalProvisioner`) when the zygote is not there or refuses: a class
  never breaks for want of it.  The forked kernel is not the server's child, so it is watched and signalled
  through its pidfd (:class:`ForkedKernel`, which looks like the ``Popen`` the local provisioner expects).
* :func:`start` and :func:`write_kernelspec`, for the class server: start the zygote, wait until it listens,
  and write a ``python3`` kernelspec naming the provisioner into the server's Jupyter data folder (the first
  of ``JUPYTER_PATH``, so it overrides ipykernel's own spec of that name); the server's environment gives
  the provisioner the socket (:data:`SOCKET_ENV`).

Linux only (``fork``, ``pidfd_open``, ``SCM_RIGHTS``); elsewhere the class server does not start it.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import json
import os
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from jupyter_client.provisioning.local_provisioner import LocalProvisioner
from traitlets import Float, Unicode, default

#: The provisioner's name, as registered under ``jupyter_client.kernel_provisioners`` in pyproject.toml.
PROVISIONER_NAME = "normandy-fork-server"
#: The libraries the zygote imports before forking, by name: the kernel itself and what the class pages use,
#: so that a kernel's imports are already done and shared.  No module of this package: those are imported by
#: plain statements (:func:`_import_the_pages`), where the import contract sees them.
WARM_IMPORTS = (
    "ipykernel.kernelapp",
    "ipykernel.ipkernel",
    "ipykernel.zmqshell",
    "IPython.core.interactiveshell",
    "comm",
    "ipywidgets",
    "jupyter_bokeh.widgets",
    "bokeh.plotting",
    "pandas",
    "voila.utils",
)
#: Thread pools of the numerical libraries, set to one thread in the zygote's environment before it starts:
#: a process that forks must have no other thread (a forked child gets only the forking thread, and any
#: lock another thread held stays locked in it).  OpenBLAS starts its pool when numpy is imported.
SINGLE_THREAD_ENV = {
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "NUMBA_NUM_THREADS": "1",
}
#: The variable of the class server's environment that gives its provisioner the fork server's socket.
SOCKET_ENV = "NORMANDY_LAB_FORK_SERVER"
#: The name of the private folder :func:`start` makes for the socket begins so (the zygote removes it).
PRIVATE_PREFIX = "normandy-class-"
#: The longest a request waits for the zygote's answer before the kernel is started the normal way.
REQUEST_TIMEOUT = 30.0
_HEADER = struct.Struct("!I")
_MAX_REQUEST = 4_000_000


def available() -> bool:
    """Return whether this platform can run the fork server (Linux: fork, pidfds, descriptor passing)."""
    return sys.platform.startswith("linux") and hasattr(os, "pidfd_open") and hasattr(socket, "send_fds")


def registered() -> bool:
    """Return whether jupyter_client can find the provisioner (the package's entry point is installed).

    A kernelspec naming a provisioner jupyter_client cannot load makes the kernel unavailable: the class
    server writes its spec only when this is true.
    """
    from importlib.metadata import entry_points

    return any(ep.name == PROVISIONER_NAME for ep in entry_points(group="jupyter_client.kernel_provisioners"))


# -- the zygote ----------------------------------------------------------------------------------------------


def _import_the_pages() -> None:
    """Import the package's modules the class pages use (the explorer, the tour, the record).

    Not the lessons: they sit above the views in the import contract (nothing imports them), so a lesson's
    kernel imports its own lesson module after the fork.
    """
    from normandy_lab import history
    from normandy_lab.views import campaign, classroom, explorer

    _ = (history, campaign, classroom, explorer)  # loaded before the fork is the point


def warm(scenarios: Iterable[str], imports: Iterable[str] = WARM_IMPORTS) -> None:
    """Import what the class pages import and warm the engine on each scenario, in this process.

    Each scenario is opened as an explorer page opens it (a :class:`~normandy_lab.session.Session` and its
    supply report, which loads the game's map and derived tables and compiles the engine's searches) and
    stepped once (the Step button's first action).  Nothing with a widget or a kernel is made: a widget made
    here would talk to no kernel in the child.
    """
    import importlib

    names = tuple(imports)
    for name in names:
        importlib.import_module(name)
    if names:
        _import_the_pages()
    from normandy_lab.session import Session

    for scenario in scenarios:
        session = Session(scenario, "explore")
        _ = session.report
        session.step()
        _ = session.report


def _threads() -> int:
    """Return how many threads this process runs (from ``/proc``; 1 if it cannot tell)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 1


def _unsafe_to_fork() -> str:
    """Say what would make a fork of this process unsafe for a kernel, or return "" when nothing does.

    Another thread (the child would get only this one, and the locks the others held, locked), a ZeroMQ
    context (its I/O threads and sockets cannot cross a fork: the kernel makes its own after it), or an
    asyncio loop made here (the kernel runs its own).
    """
    if _threads() > 1:
        return f"{_threads()} threads run"
    zmq = sys.modules.get("zmq")
    if zmq is not None and getattr(zmq.Context, "_instance", None) is not None:
        return "a ZeroMQ context exists"
    import asyncio

    with contextlib.suppress(Exception):
        if asyncio.get_event_loop_policy()._local._loop is not None:  # type: ignore[attr-defined]
            return "an asyncio loop exists"
    return ""


def _set_parent_death_signal() -> None:
    """Have the kernel send this process SIGTERM when its parent (the class server) dies (Linux prctl)."""
    import ctypes
    import ctypes.util

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG


def _receive(conn: socket.socket) -> tuple[dict[str, Any], list[int]]:
    """Read one request (a length, then JSON) and the descriptors sent with it."""
    header, fds, _flags, _address = socket.recv_fds(conn, _HEADER.size, 8)
    if len(header) < _HEADER.size:
        for fd in fds:
            os.close(fd)
        raise ValueError("short request")
    (length,) = _HEADER.unpack(header)
    if length > _MAX_REQUEST:
        raise ValueError("request too large")
    return json.loads(_recv_exactly(conn, length, "request cut short")), fds


def _send(conn: socket.socket, payload: dict[str, Any], fds: list[int] | None = None) -> None:
    data = json.dumps(payload).encode()
    message = _HEADER.pack(len(data)) + data
    if fds:
        socket.send_fds(conn, [message], fds)
    else:
        conn.sendall(message)


def _connection_file(argv: list[str]) -> str:
    """Return the connection file of an ipykernel command line (``python -m ipykernel_launcher -f FILE``).

    Raises
    ------
    ValueError
        For any other command (the zygote can only become an ipykernel).
    """
    if len(argv) < 5 or argv[1:3] != ["-m", "ipykernel_launcher"] or "-f" not in argv:
        raise ValueError(f"not an ipykernel command: {argv[:4]}")
    index = argv.index("-f")
    if index + 1 >= len(argv):
        raise ValueError("no connection file")
    return argv[index + 1]


#: Room left in the zygote's command line (an argument of this many characters) for a kernel's: see _retitle.
TITLE_ROOM = 200


def _retitle(argv: list[str]) -> None:
    """Show ``argv`` as this process's command line (``/proc/<pid>/cmdline``, ``ps``), if it fits.

    A forked kernel would otherwise show the zygote's command line; with its own (``python -m
    ipykernel_launcher -f .../kernel-<id>.json``), ``ps`` and whoever looks for a kernel by its connection
    file find it as they find a kernel started the normal way.  The command line lives in the process's own
    memory, between ``arg_start`` and ``arg_end`` of ``/proc/self/stat``: it is written over in place
    (the zygote's command line carries :data:`TITLE_ROOM` characters of room for it).
    """
    import ctypes

    with contextlib.suppress(OSError, ValueError, IndexError):
        fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        start, end = int(fields[45]), int(fields[46])  # fields 48 and 49 of the line: arg_start, arg_end
        text = b"\0".join(a.encode() for a in argv) + b"\0"
        if len(text) <= end - start:
            ctypes.memmove(start, text.ljust(end - start, b"\0"), end - start)


def _kernel_hooks() -> None:
    """Do again, in a kernel, what libraries the zygote imported do at import when they find a kernel running.

    ipywidgets registers its comm targets (``jupyter.widget``, and ``jupyter.widget.control``, on which a
    front end asks for every widget's state) only when imported in a running kernel; tqdm's ``auto`` module
    picks the notebook's progress bar then.  The zygote imported them with no kernel.
    """
    widgets = sys.modules.get("ipywidgets")
    if widgets is not None:
        widgets.register_comm_target()
    for name in ("tqdm.auto", "tqdm.autonotebook"):
        sys.modules.pop(name, None)  # imported again, in the kernel, when next asked for


def _become_kernel(request: dict[str, Any], fds: list[int], start_dir: str) -> None:
    """In the forked child: take the request's session, streams, folder and environment, run the kernel."""
    code = 1
    try:
        os.setsid()  # its own session and process group: an interrupt reaches the kernel and its children
        for number, fd in enumerate(fds[:3]):
            os.dup2(fd, number)
        for fd in fds:
            if fd > 2:
                os.close(fd)
        for name in ("SIGINT", "SIGTERM", "SIGCHLD", "SIGHUP"):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)  # what a fresh Python has
        cwd = request.get("cwd") or start_dir
        os.chdir(cwd)
        environment = {str(k): str(v) for k, v in request["env"].items()}
        # The kernel's parent is this zygote: ipykernel ends the kernel when that parent goes (the zygote
        # ends with the class server), as a kernel started the normal way ends with the server.
        environment["JPY_PARENT_PID"] = str(os.getppid())
        os.environ.clear()
        os.environ.update(environment)
        # ``python -m`` put the zygote's folder first on the path; the kernel's is its own working folder.
        if sys.path and sys.path[0] in (start_dir, ""):
            sys.path[0] = os.getcwd()
        tempfile.tempdir = None  # read TMPDIR again, from the kernel's environment
        if "numpy" in sys.modules:
            sys.modules["numpy"].random.seed()  # not the zygote's random state in every kernel
        from ipykernel.kernelapp import IPKernelApp

        # The zygote's exit handlers are not the kernel's; the kernel's own run when it ends (below).
        atexit._clear()
        connection = _connection_file(request["argv"])
        sys.argv = [request["argv"][0], "-f", connection]
        _retitle(request["argv"])
        # What launch_instance does, with the libraries' kernel hooks between the kernel's making and its run.
        # ipykernel reads JPY_PARENT_PID when it is imported, here in the zygote's past: given again.
        app = IPKernelApp.instance()
        app.initialize(["-f", connection, f"--IPKernelApp.parent_handle={os.getppid()}"])  # type: ignore[no-untyped-call]
        _kernel_hooks()
        app.start()  # type: ignore[no-untyped-call]
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 0
    except BaseException:  # a child must never return into the zygote's loop
        import traceback

        with contextlib.suppress(Exception):
            traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            atexit._run_exitfuncs()
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)


def _reap(children: dict[int, int], ready: Iterable[int] = ()) -> None:
    """Collect the exit status of the children (by pidfd) that have ended, and close their pidfds."""
    for pidfd in list(ready):
        pid = children.pop(pidfd, None)
        if pid is None:
            continue
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)  # it has ended (its pidfd is readable): this does not block
        os.close(pidfd)
    while True:  # any other child (none is expected)
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        for pidfd, child in list(children.items()):
            if child == pid:
                children.pop(pidfd)
                os.close(pidfd)


def _answer(conn: socket.socket, listener: socket.socket, start_dir: str, children: dict[int, int]) -> None:
    """Serve one request on ``conn``: fork a kernel and send back its pid and pidfd, or say why not."""
    fds: list[int] = []
    try:
        peer = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        _pid, uid, _gid = struct.unpack("3i", peer)
        if uid != os.getuid():
            raise PermissionError("a request from another user")
        request, fds = _receive(conn)
        if request.get("ping"):
            _send(conn, {"ok": True, "pid": os.getpid()})
            return
        _connection_file(request["argv"])
        if len(fds) < 3:
            raise ValueError("the request did not pass stdin, stdout and stderr")
        unsafe = _unsafe_to_fork()
        if unsafe:
            raise RuntimeError(f"forking the fork server is not safe: {unsafe}")
        sys.stdout.flush()
        sys.stderr.flush()
        # SIGCHLD is left at its default (the loop reaps): a child cannot be reaped, nor its pid reused,
        # before its pidfd is open below.
        pid = os.fork()
        if pid == 0:
            listener.close()
            conn.close()
            for pidfd in children:
                os.close(pidfd)
            _become_kernel(request, fds, start_dir)  # never returns
        # Opened before the loop reaps anything: the pid cannot be another process's yet.  The zygote
        # keeps one (to reap the kernel as soon as it ends) and sends the requester another.
        children[os.pidfd_open(pid)] = pid
        pidfd = os.pidfd_open(pid)
        try:
            _send(conn, {"pid": pid}, [pidfd])
        finally:
            os.close(pidfd)
    except Exception as exc:  # any: the requester falls back to a normal kernel
        with contextlib.suppress(OSError):
            _send(conn, {"error": f"{type(exc).__name__}: {exc}"})
    finally:
        for fd in fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        conn.close()


def serve(path: str | Path, scenarios: Iterable[str] = (), imports: Iterable[str] = WARM_IMPORTS) -> None:
    """Run the zygote: warm this process, then fork a kernel for each request on the socket ``path``.

    The socket is made only once the warming is done (its existence means ready), in a folder only this
    user may enter.  Returns when the parent process (the class server) ends.
    """
    import gc

    parent = os.getppid()
    # Ended by the server (SIGTERM, also sent when the server dies), it still removes its socket (below).
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(0))
    _set_parent_death_signal()
    if os.getppid() != parent:  # the server died before the signal was set
        return
    start_dir = os.getcwd()
    warm(scenarios, imports)
    gc.collect()
    gc.freeze()  # what is loaded now lives as long as the kernels: the collector leaves its pages shared
    with contextlib.suppress(Exception):
        from normandy_lab.views.classroom import trim_heap

        trim_heap()
    path = Path(path)
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(path.parent, 0o700)
    for stale in (path, Path(str(path) + ".new")):
        with contextlib.suppress(FileNotFoundError):
            stale.unlink()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path) + ".new")
    os.chmod(str(path) + ".new", 0o600)
    listener.listen(64)
    os.replace(str(path) + ".new", path)  # ready: the socket appears, listening
    print(f"normandy_lab fork server: ready on {path} ({_threads()} thread)", file=sys.stderr, flush=True)
    children: dict[int, int] = {}  # pidfd -> pid of each running kernel
    try:
        while os.getppid() == parent:
            # poll, not select: a class of a hundred kernels has a hundred pidfds here.
            poller = select.poll()
            for fd in [listener.fileno(), *children]:
                poller.register(fd, select.POLLIN)
            ready = {fd for fd, _event in poller.poll(1000)}
            _reap(children, [fd for fd in ready if fd in children])
            if listener.fileno() in ready:
                conn, _address = listener.accept()
                conn.settimeout(REQUEST_TIMEOUT)
                _answer(conn, listener, start_dir, children)
    finally:
        listener.close()
        with contextlib.suppress(OSError):
            path.unlink()
        if path.parent.name.startswith(PRIVATE_PREFIX):  # the folder start() made for it
            with contextlib.suppress(OSError):
                path.parent.rmdir()


# -- the class server's side ---------------------------------------------------------------------------------


def start(
    scenarios: Iterable[str], folder: str | Path | None = None, timeout: float = 600.0
) -> tuple[subprocess.Popen[bytes] | None, Path | None]:
    """Start the zygote (in this process's environment) and wait until it listens; return it and its socket.

    Returns ``(None, None)`` when it cannot run here or ended before it was ready (its error is on stderr):
    the server then starts its kernels the normal way.  Call it after the kernels' environment is set
    (:func:`normandy_lab.views.classroom.kernel_environment`): the zygote and so every kernel inherits it,
    and the C allocator reads its settings when a process starts.
    """
    if not available():
        return None, None
    private = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix=PRIVATE_PREFIX))
    private.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(private, 0o700)
    path = private / "forkserver.sock"
    environment = {**os.environ, **{k: v for k, v in SINGLE_THREAD_ENV.items() if k not in os.environ}}
    command = [sys.executable, "-m", "normandy_lab.views.forkserver", "--socket", str(path)]
    command += [f"--warm={name}" for name in scenarios] + ["--room=" + "_" * TITLE_ROOM]
    # Its own session: the Ctrl-C typed at the server's terminal stops the server, which then ends it.
    process = subprocess.Popen(command, env=environment, stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return None, None
        if path.exists() and ping(path):
            return process, path
        time.sleep(0.2)
    stop(process)
    return None, None


def stop(process: subprocess.Popen[bytes] | None) -> None:
    """End the zygote (its kernels then end too: ipykernel ends a kernel whose parent is gone)."""
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def ping(path: str | Path, timeout: float = 5.0) -> bool:
    """Return whether a zygote answers on the socket ``path``."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(timeout)
            conn.connect(str(path))
            _send(conn, {"ping": True})
            (length,) = _HEADER.unpack(_recv_exactly(conn, _HEADER.size))
            return bool(json.loads(_recv_exactly(conn, length)).get("ok"))
    except (OSError, ValueError):
        return False


def _recv_exactly(
    conn: socket.socket, size: int, cut: str = "the fork server closed the connection"
) -> bytes:
    """Read ``size`` bytes; ``cut`` is the ValueError's message when the other end closes first."""
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise ValueError(cut)
        data += chunk
    return data


def request_kernel(
    path: str | Path, argv: list[str], env: dict[str, str], cwd: str | None, streams: list[int]
) -> tuple[int, int]:
    """Ask the zygote on ``path`` for a kernel; return its pid and a pidfd (blocks, REQUEST_TIMEOUT at most).

    Raises
    ------
    OSError
        When the zygote is not there or does not answer.
    RuntimeError
        When it refused (its reason in the message).
    """
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(REQUEST_TIMEOUT)
        conn.connect(str(path))
        data = json.dumps({"argv": argv, "env": env, "cwd": cwd}).encode()
        socket.send_fds(conn, [_HEADER.pack(len(data))], streams)
        conn.sendall(data)
        header, fds, _flags, _address = socket.recv_fds(conn, _HEADER.size, 1)
        try:
            if len(header) < _HEADER.size:
                header += _recv_exactly(conn, _HEADER.size - len(header))
            (length,) = _HEADER.unpack(header)
            answer = json.loads(_recv_exactly(conn, length))
        except Exception:
            for fd in fds:
                os.close(fd)
            raise
    if "pid" not in answer or not fds:
        for fd in fds:
            os.close(fd)
        raise RuntimeError(answer.get("error", "no kernel"))
    return int(answer["pid"]), fds[0]


def write_kernelspec(data: str | Path, use: bool = True) -> Path | None:
    """Write (or, with ``use`` False, remove) the ``python3`` kernelspec of the class server's data folder.

    The spec is ipykernel's own (same command line, interrupt by signal) with the provisioner named in its
    metadata, so Voilà's kernels for the class notebooks (kernelspec ``python3``) start through it.  It names
    no socket: the provisioner reads the one of its own server's fork server from that server's environment
    (:data:`SOCKET_ENV`), and without one starts kernels the normal way; two class servers that share a data
    folder share the spec and keep their own fork servers.  Returns the spec's folder, or None when removed.
    """
    import shutil

    folder = Path(data) / "kernels" / "python3"
    if not use:
        shutil.rmtree(folder, ignore_errors=True)
        return None
    from ipykernel.kernelspec import get_kernel_dict

    spec = get_kernel_dict()
    provisioner = {"provisioner_name": PROVISIONER_NAME, "config": {}}
    spec.setdefault("metadata", {})["kernel_provisioner"] = provisioner
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "kernel.json").write_text(json.dumps(spec, indent=1), encoding="utf-8")
    return folder


def _readable(fd: int, timeout: float | None) -> bool:
    """Return whether ``fd`` (a pidfd: its process has ended) is readable within ``timeout`` seconds.

    With poll, not select: the server of a large class holds more than select's 1024 descriptors.
    """
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(None if timeout is None else int(timeout * 1000)))


class ForkedKernel:
    """A kernel forked by the zygote, seen through its pidfd, with the parts of ``Popen`` a provisioner uses.

    It is not this process's child: its exit status belongs to the zygote, so :meth:`poll` and :meth:`wait`
    say only that it ended (``returncode`` 0 then, or -9 when this side killed it).
    """

    stdin = stdout = stderr = None

    def __init__(self, pid: int, pidfd: int) -> None:
        self.pid = pid
        self.pidfd: int | None = pidfd
        self.returncode: int | None = None
        self._killed = False

    def poll(self) -> int | None:
        """Return None while the kernel runs, else its (nominal) exit code."""
        if self.returncode is None and self.pidfd is not None and _readable(self.pidfd, 0):
            self._ended()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait until the kernel ends and return its (nominal) exit code."""
        if self.returncode is None and self.pidfd is not None:
            if not _readable(self.pidfd, timeout):
                raise subprocess.TimeoutExpired(f"kernel {self.pid}", timeout or 0.0)
            self._ended()
        return self.returncode if self.returncode is not None else 0

    def _ended(self) -> None:
        self.returncode = -signal.SIGKILL if self._killed else 0
        if self.pidfd is not None:
            os.close(self.pidfd)
            self.pidfd = None

    def send_signal(self, signum: int) -> None:
        """Send ``signum`` to the kernel (through its pidfd: never to another process that took its pid)."""
        if self.poll() is not None or self.pidfd is None:
            return
        if signum == signal.SIGKILL:
            self._killed = True
        signal.pidfd_send_signal(self.pidfd, signum)

    def kill(self) -> None:
        """Kill the kernel (SIGKILL)."""
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        """Ask the kernel to end (SIGTERM)."""
        self.send_signal(signal.SIGTERM)


class ForkServerProvisioner(LocalProvisioner):
    """Launch a kernel as a fork of the class server's zygote, else the normal way (a new process).

    Named in the class server's ``python3`` kernelspec (:func:`write_kernelspec`).  Everything but the launch
    is the local provisioner's: the connection file, the environment, and the signals, sent to the kernel's
    process group (its own session) as for a kernel started the normal way; the process it watches is a
    :class:`ForkedKernel` instead of a ``Popen``.
    """

    socket_path = Unicode(
        config=True, help=f"The zygote's socket (default: ${SOCKET_ENV}; empty: launch the normal way)."
    )
    request_timeout = Float(REQUEST_TIMEOUT, config=True, help="Seconds to wait for the zygote's answer.")

    #: Whether the running kernel was forked by the zygote (False: started the normal way).
    forked = False
    #: The kernel's process: a ``Popen`` started the normal way, else a :class:`ForkedKernel`.
    process: Any = None

    @default("socket_path")
    def _socket_from_environment(self) -> str:
        return os.environ.get(SOCKET_ENV, "")

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> Any:
        """Ask the zygote for the kernel; on any failure, launch it as the local provisioner does."""
        import asyncio

        if isinstance(kwargs.get("env"), dict):
            kwargs["env"].pop(SOCKET_ENV, None)  # the server's, not the kernel's
        if self.socket_path and available() and Path(self.socket_path).exists():
            try:
                streams = [_devnull(), *_stream_fds(kwargs)]
                try:
                    env = {str(k): str(v) for k, v in (kwargs.get("env") or os.environ).items()}
                    cwd = str(kwargs.get("cwd") or os.getcwd())
                    pid, pidfd = await asyncio.wait_for(
                        asyncio.to_thread(request_kernel, self.socket_path, list(cmd), env, cwd, streams),
                        self.request_timeout,
                    )
                finally:
                    os.close(streams[0])
            except (TimeoutError, OSError, RuntimeError, ValueError) as exc:
                self.log.warning("fork server: %s; starting the kernel the normal way", exc)
            else:
                self.process = ForkedKernel(pid, pidfd)
                self.pid = self.pgid = pid  # the child made its own session: its group is its pid
                self.cwd = kwargs.get("cwd", os.getcwd())
                self.forked = True
                return self.connection_info
        self.forked = False
        return await super().launch_kernel(cmd, **kwargs)

    async def send_signal(self, signum: int) -> None:
        """Signal the kernel's process group, as the local provisioner does, while the kernel runs."""
        if isinstance(self.process, ForkedKernel) and self.process.poll() is not None:
            return  # ended: its group id may be another's by now
        await super().send_signal(signum)


def _devnull() -> int:
    return os.open(os.devnull, os.O_RDWR)


def _stream_fds(kwargs: dict[str, Any]) -> list[int]:
    """Return the stdout and stderr descriptors the kernel writes to: the launch's, else this process's."""
    found = []
    for name, inherited in (("stdout", 1), ("stderr", 2)):
        given = kwargs.get(name)
        if isinstance(given, int) and given >= 0:
            found.append(given)
        elif given is not None and hasattr(given, "fileno"):
            found.append(given.fileno())
        else:
            found.append(inherited)
    return found


def _main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m normandy_lab.views.forkserver", description=__doc__)
    parser.add_argument("--socket", required=True, help="the Unix socket to listen on (its folder: 0700)")
    parser.add_argument("--warm", action="append", default=[], help="a scenario to warm the engine on")
    parser.add_argument("--no-imports", action="store_true", help="import nothing ahead (tests)")
    parser.add_argument("--room", default="", help="room in the command line for a kernel's (ignored)")
    options = parser.parse_args(argv)
    serve(options.socket, options.warm, () if options.no_imports else WARM_IMPORTS)


if __name__ == "__main__":  # pragma: no cover - the zygote's command line
    _main(sys.argv[1:])


__all__ = [
    "PROVISIONER_NAME", "SOCKET_ENV", "WARM_IMPORTS", "ForkServerProvisioner", "ForkedKernel", "available",
    "ping", "registered", "request_kernel", "serve", "start", "stop", "warm", "write_kernelspec",
]  # fmt: skip
