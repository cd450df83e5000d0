"""The class server's kernels forked from one warmed process (normandy_lab.views.forkserver, docs/class.md).

One zygote for the module (the class pages' imports, no scenario warmed: the tests are about the kernels'
lives, not the engine); kernels are started through the provisioner by jupyter_client's own kernel manager
with the kernelspec the class server writes, as Voilà starts them.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest

from normandy_lab.views import classroom, forkserver

pytestmark = pytest.mark.skipif(not forkserver.available(), reason="the fork server needs Linux")

WAIT_S = 120  # generous bound on any wait on a condition (a loaded machine), never a measured time


def wait_until(condition, what: str, timeout: float = WAIT_S) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def ended(pid: int) -> bool:
    """Whether the process ``pid`` has ended (gone, or a zombie its parent has not reaped yet)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


@pytest.fixture(scope="module")
def zygote(tmp_path_factory):
    """A zygote started as the class server starts it (the kernels' environment set first)."""
    folder = tmp_path_factory.mktemp("zygote")
    saved = dict(os.environ)
    os.environ.update(classroom.kernel_environment(folder))
    try:
        process, path = forkserver.start([])  # in a private folder of its own, as the class server starts it
    finally:
        os.environ.clear()
        os.environ.update(saved)
    assert process is not None and path is not None, "the fork server did not start"
    assert path.parent.name.startswith(forkserver.PRIVATE_PREFIX) and path.parent.stat().st_mode & 0o777 == 0o700
    yield process, path
    forkserver.stop(process)
    assert not path.parent.exists()  # its socket and folder went with it


@pytest.fixture
def kernelspec(zygote, tmp_path, monkeypatch):
    """The class server's python3 kernelspec, first on JUPYTER_PATH as the server puts it."""
    _, path = zygote
    forkserver.write_kernelspec(tmp_path)
    monkeypatch.setenv(forkserver.SOCKET_ENV, str(path))  # as the server names its fork server's socket
    monkeypatch.setenv("JUPYTER_PATH", os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("JUPYTER_PATH")])))
    return tmp_path


async def started(kernel_name: str = "python3"):
    from jupyter_client.manager import AsyncKernelManager

    manager = AsyncKernelManager(kernel_name=kernel_name, transport="ipc")
    await manager.start_kernel()
    client = manager.client()
    client.start_channels()
    await client.wait_for_ready(timeout=WAIT_S)
    return manager, client


async def run(client, code: str) -> str:
    """Run ``code`` in the kernel and return what it printed."""
    printed: list[str] = []

    def output(message):
        if message["msg_type"] == "stream":
            printed.append(message["content"]["text"])

    reply = await client.execute_interactive(code, output_hook=output, timeout=WAIT_S)
    assert reply["content"]["status"] == "ok", reply["content"]
    return "".join(printed).strip()


async def stopped(manager, client, now: bool = False) -> int:
    pid = manager.provisioner.pid
    client.stop_channels()
    await manager.shutdown_kernel(now=now)
    return pid


def test_the_class_servers_kernelspec_names_the_provisioner_and_overrides_ipykernels(kernelspec):
    from jupyter_client.kernelspec import KernelSpecManager

    spec = KernelSpecManager().get_kernel_spec("python3")
    assert Path(spec.resource_dir).parent.parent == kernelspec  # ours, not ipykernel's own
    provisioner = spec.metadata["kernel_provisioner"]
    assert provisioner["provisioner_name"] == forkserver.PROVISIONER_NAME
    assert spec.argv[1:3] == ["-m", "ipykernel_launcher"] and spec.interrupt_mode == "signal"
    assert forkserver.registered()  # the entry point jupyter_client loads it by
    # Without a fork server the spec goes, and ipykernel's own is found again.
    assert forkserver.write_kernelspec(kernelspec, use=False) is None
    assert "kernel_provisioner" not in KernelSpecManager().get_kernel_spec("python3").metadata


def test_a_forked_kernel_runs_code_in_its_own_process_with_the_servers_environment(zygote, kernelspec, monkeypatch):
    process, _ = zygote
    # Set after the zygote started: only the launch's environment can bring it to the kernel.
    monkeypatch.setenv("NORMANDY_LAB_TEST_MARK", "given at launch")
    for name, value in classroom.kernel_environment(Path.cwd()).items():  # as the server sets its own
        monkeypatch.setenv(name, value)

    async def check():
        manager, client = await started()
        pid = manager.provisioner.pid
        try:
            assert manager.provisioner.forked
            assert parent_of(pid) == process.pid  # a fork of the zygote, not a new process of the server
            said = await run(client, "import os; print(os.getpid(), os.environ['NORMANDY_LAB_TEST_MARK'], 6 * 7)")
            assert said == f"{pid} given at launch 42"
            assert await run(client, f"import os; print(os.environ.get({forkserver.SOCKET_ENV!r}))") == "None"
            # The allocator's setting reached the zygote (read at its start) and so every kernel.
            environ = Path(f"/proc/{process.pid}/environ").read_bytes().split(b"\0")
            assert b"MALLOC_MMAP_THRESHOLD_=262144" in environ
            assert await run(client, "import os; print(os.environ.get('MALLOC_MMAP_THRESHOLD_'))") == "262144"
            # Seen as a kernel (its command line names its connection file), in its own session.
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            assert any(part.endswith(b".json") for part in cmdline) and b"ipykernel_launcher" in cmdline
            assert os.getsid(pid) == pid
            assert await manager.is_alive()
        finally:
            await stopped(manager, client)
        wait_until(lambda: ended(pid), "the kernel to end")
        assert not await manager.is_alive()

    asyncio.run(check())


def test_a_forked_kernel_answers_the_widgets_comms_though_ipywidgets_was_imported_before_it(kernelspec):
    # ipywidgets registers its comm targets when it is imported in a running kernel: the zygote imported it
    # before any kernel ran, and a page's widgets must still answer a front end that asks for their states.
    async def check():
        manager, client = await started()
        try:
            targets = await run(client, "import comm; print(sorted(comm.get_comm_manager().targets))")
            assert "'jupyter.widget'" in targets and "'jupyter.widget.control'" in targets
        finally:
            pid = await stopped(manager, client)
        wait_until(lambda: ended(pid), "the kernel to end")

    asyncio.run(check())


def test_two_forked_kernels_are_separate_processes_with_their_own_state(kernelspec):
    async def check():
        (first, one), (second, two) = await started(), await started()
        try:
            assert first.provisioner.pid != second.provisioner.pid
            await run(one, "edits = ['storm']")
            await run(two, "edits = []")
            await run(one, "edits.append('step')")
            assert await run(one, "print(edits)") == "['storm', 'step']"
            assert await run(two, "print(edits)") == "[]"
            # The zygote's loaded modules are each kernel's own copy: a change in one stays there.
            await run(one, "import normandy_lab.views.classroom as c; c.MAX_STUDY_BYTES = 1")
            assert await run(two, "import normandy_lab.views.classroom as c; print(c.MAX_STUDY_BYTES)") == "2000000"
        finally:
            pids = [await stopped(first, one), await stopped(second, two)]
        for pid in pids:
            wait_until(lambda pid=pid: ended(pid), "both kernels to end")

    asyncio.run(check())


def test_an_interrupt_stops_a_running_cell_and_a_kill_ends_the_kernel(kernelspec):
    async def check():
        manager, client = await started()
        pid = manager.provisioner.pid
        client.execute("import time; time.sleep(600)")
        # Interrupt until the cell's reply comes (the first may arrive before the cell started).
        reply = None
        while reply is None:
            await manager.interrupt_kernel()
            try:
                reply = await client.get_shell_msg(timeout=1)
            except Exception:  # no reply yet: the cell had not started
                reply = None
        assert reply["content"]["status"] == "error" and reply["content"]["ename"] == "KeyboardInterrupt"
        assert await run(client, "print('still here')") == "still here"
        await stopped(manager, client, now=True)  # SIGKILL to its process group
        wait_until(lambda: ended(pid), "the killed kernel to end")
        assert not await manager.is_alive()

    asyncio.run(check())


def test_without_a_fork_server_a_kernel_starts_the_normal_way(tmp_path, monkeypatch):
    # A kernelspec naming a socket no zygote listens on: the zygote died, or was never started.
    forkserver.write_kernelspec(tmp_path)
    monkeypatch.setenv(forkserver.SOCKET_ENV, str(tmp_path / "gone" / "forkserver.sock"))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))

    async def check():
        manager, client = await started()
        pid = manager.provisioner.pid
        try:
            assert not manager.provisioner.forked
            assert parent_of(pid) == os.getpid()  # the server's own child, as without the fork server
            assert await run(client, "print(1 + 1)") == "2"
        finally:
            await stopped(manager, client)
        wait_until(lambda: ended(pid), "the kernel to end")

    asyncio.run(check())


def test_a_fork_server_that_refuses_leaves_the_kernel_to_start_the_normal_way(tmp_path, monkeypatch):
    import socket

    # Something listens on the socket but answers nothing a zygote would: the launch must not hang or fail.
    path = tmp_path / "forkserver.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(1)
    forkserver.write_kernelspec(tmp_path)
    monkeypatch.setenv(forkserver.SOCKET_ENV, str(path))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))

    async def check():
        from jupyter_client.manager import AsyncKernelManager

        manager = AsyncKernelManager(kernel_name="python3", transport="ipc")
        task = asyncio.ensure_future(manager.start_kernel())
        # The zygote's side: take the request and close without an answer.
        conn = None
        listener.setblocking(False)
        while conn is None:
            await asyncio.sleep(0.05)
            try:
                conn, _ = listener.accept()
            except BlockingIOError:
                conn = None
        conn.close()
        await task
        client = manager.client()
        client.start_channels()
        await client.wait_for_ready(timeout=WAIT_S)
        try:
            assert not manager.provisioner.forked
            assert await run(client, "print('normal')") == "normal"
        finally:
            pid = await stopped(manager, client)
        wait_until(lambda: ended(pid), "the kernel to end")

    try:
        asyncio.run(check())
    finally:
        listener.close()


def test_the_zygote_refuses_a_command_it_cannot_become(zygote):
    _, path = zygote
    streams = [os.open(os.devnull, os.O_RDWR), 1, 2]
    try:
        with pytest.raises(RuntimeError, match="not an ipykernel command"):
            forkserver.request_kernel(path, ["/bin/sh", "-c", "true"], dict(os.environ), None, streams)
    finally:
        os.close(streams[0])
    assert forkserver.ping(path)  # and goes on serving


def test_the_class_server_starts_its_kernels_through_the_fork_server_unless_told_not_to():
    assert classroom.parse_arguments([]).fork_server is True
    assert classroom.parse_arguments(["--no-fork-server"]).fork_server is False


def test_without_the_fork_server_the_class_server_names_no_socket_for_its_kernels(tmp_path, monkeypatch):
    monkeypatch.setenv(forkserver.SOCKET_ENV, str(tmp_path / "an earlier one.sock"))
    assert classroom.start_fork_server(False, tmp_path) is None
    assert forkserver.SOCKET_ENV not in os.environ  # so the provisioner starts kernels the normal way
    assert (tmp_path / "kernels" / "python3" / "kernel.json").exists()  # the spec, shared, names no socket


def test_a_kernel_started_with_no_socket_named_starts_the_normal_way(tmp_path, monkeypatch):
    forkserver.write_kernelspec(tmp_path)
    monkeypatch.delenv(forkserver.SOCKET_ENV, raising=False)
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))

    async def check():
        manager, client = await started()
        try:
            assert not manager.provisioner.forked and parent_of(manager.provisioner.pid) == os.getpid()
        finally:
            pid = await stopped(manager, client)
        wait_until(lambda: ended(pid), "the kernel to end")

    asyncio.run(check())


def test_the_zygote_ends_with_the_process_that_started_it(tmp_path):
    import subprocess

    # A parent that starts a zygote and is then killed: the zygote must not outlive it (the class server
    # killed without a chance to stop it).
    script = (
        "import sys, time; from normandy_lab.views import forkserver as f; "
        f"p, s = f.start([], {str(tmp_path / 'z')!r}); print(p.pid, flush=True); time.sleep(600)"
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        zygote_pid = int(parent.stdout.readline())
        assert not ended(zygote_pid)
    finally:
        parent.kill()
        parent.wait()
    wait_until(lambda: ended(zygote_pid), "the zygote to end with its parent")
    wait_until(lambda: not (tmp_path / "z" / "forkserver.sock").exists(), "the zygote to remove its socket")


def test_the_zygote_forks_only_while_it_runs_one_thread_and_no_zeromq_context():
    import subprocess

    script = (
        "import threading, zmq; from normandy_lab.views import forkserver as f; print(repr(f._unsafe_to_fork())); "
        "e = threading.Event(); t = threading.Thread(target=e.wait); t.start(); print(repr(f._unsafe_to_fork())); "
        "e.set(); t.join(); c = zmq.Context.instance(); print(repr(f._unsafe_to_fork())); c.term()"
    )
    environment = {**os.environ, **forkserver.SINGLE_THREAD_ENV}
    said = subprocess.run(
        [sys.executable, "-c", script], env=environment, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert said[0] == "''"
    assert "threads run" in said[1]
    assert "ZeroMQ" in said[2]


def test_an_idle_forked_kernel_is_culled_and_its_process_ends(kernelspec, tmp_path):
    # The class server's culling (--cull-idle) is jupyter_server's mapping kernel manager, as in Voilà: a
    # forked kernel idle past the timeout, no page connected, is shut down and its process ends.
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    async def check():
        manager = AsyncMappingKernelManager(
            root_dir=str(tmp_path), cull_idle_timeout=1, cull_interval=1, cull_connected=False
        )
        kernel_id = await manager.start_kernel(kernel_name="python3")
        kernel = manager.get_kernel(kernel_id)
        pid = kernel.provisioner.pid
        assert kernel.provisioner.forked and not ended(pid)
        deadline = time.monotonic() + WAIT_S
        while kernel_id in manager.list_kernel_ids():  # the culler runs on this loop, every second
            assert time.monotonic() < deadline, "the idle kernel was not culled"
            await asyncio.sleep(0.1)
        wait_until(lambda: ended(pid), "the culled kernel's process to end")
        await manager.shutdown_all()

    asyncio.run(check())
