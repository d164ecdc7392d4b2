"""solvers.batch on its two backends: a local process pool and a real Dask LocalCluster (started
once for this module), giving the same results; arena tournaments agree across backends."""

from __future__ import annotations

import contextlib
import http.server
import math
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import types
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from dice_nim import ENTRY, NAME
from process_helpers import ctrl_c_state, press_as_children_start, running, windows_parent

from lumicore.errors import LumicoreError, WorkerDiedError
from lumicore.game import GAMES
from solvers import batch
from solvers.arena import tournament
from solvers.batch import MAX_TASKS, _chunks, check_workers, run_batch

distributed = pytest.importorskip("dask.distributed")


@pytest.fixture(scope="module")
def scheduler():
    import logging

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=logging.ERROR) as cluster:
        yield cluster.scheduler_address


def collect(pairs):
    """Results by index, checking that every index comes exactly once."""
    out = {}
    for index, result in pairs:
        assert index not in out
        out[index] = result
    return [out[i] for i in range(len(out))]


ITEMS = list(range(-30, 30, 3))
EXPECTED = [math.factorial(abs(x)) % 1_000_003 for x in ITEMS]


def factorial_mod(x: int) -> int:
    return math.factorial(abs(x)) % 1_000_003


def pid(_: object) -> int:
    return os.getpid()


def test_workers_1_runs_in_this_process():
    assert collect(run_batch(pid, [None] * 5, workers=1)) == [os.getpid()] * 5


def test_process_pool_uses_other_processes_and_keeps_indices():
    pids = collect(run_batch(pid, [None] * 6, workers=2, chunksize=1))
    assert os.getpid() not in pids
    assert collect(run_batch(factorial_mod, ITEMS, workers=2)) == EXPECTED


@pytest.mark.parametrize("chunksize", [None, 1, 4, 100])
def test_dask_gives_the_process_results(scheduler, chunksize):
    dask = collect(run_batch(factorial_mod, ITEMS, backend="dask", scheduler=scheduler,
                             chunksize=chunksize))
    assert dask == EXPECTED == collect(run_batch(factorial_mod, ITEMS, workers=2,
                                                 chunksize=chunksize))


def test_many_tiny_jobs_are_grouped(scheduler):
    n = 3 * MAX_TASKS + 7
    chunks = _chunks(n, None)
    assert len(chunks) <= MAX_TASKS and [i for c in chunks for i in c] == list(range(n))
    assert len(_chunks(50, None)) == 50 and len(_chunks(50, 7)) == 8
    results = collect(run_batch(abs, range(-n, 0), backend="dask", scheduler=scheduler))
    assert results == list(range(n, 0, -1))


def test_an_exception_in_a_job_surfaces(scheduler):
    with pytest.raises(ValueError, match="math domain"):
        collect(run_batch(math.sqrt, [4, -1, 9], workers=2, chunksize=1))
    with pytest.raises(ValueError, match="math domain"):
        collect(run_batch(math.sqrt, [4, -1, 9], backend="dask", scheduler=scheduler))
    with pytest.raises(ValueError, match="math domain"):
        collect(run_batch(math.sqrt, [4, -1, 9], workers=1))


needs_sigkill = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="no SIGKILL here")


def killed_at_1(x: int) -> int:
    """``x``, but the process running item 1 kills itself outright, as the out-of-memory
    killer does."""
    if x == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    return x


@needs_sigkill
def test_a_worker_killed_outright_is_one_error():
    """A pool worker killed by SIGKILL gave a raw ``BrokenProcessPool`` traceback."""
    with pytest.raises(WorkerDiedError) as info:
        collect(run_batch(killed_at_1, [0, 1, 2, 3], workers=2, chunksize=1))
    assert isinstance(info.value, LumicoreError)
    assert str(info.value) == ("a worker process died in item 1 (killed by SIGKILL, most likely "
                               "by the system for lack of memory): run with fewer workers")
    assert type(info.value.__cause__).__name__ == "BrokenProcessPool"


@pytest.mark.parametrize("chunksize", [1, 3])
@needs_sigkill
def test_a_dead_worker_names_the_item_it_ran(chunksize):
    """The error did not say which job the dead worker ran, so it could not be run again alone
    (a job that fills the memory by itself kills a worker however few there are)."""
    items = [5, 6, 1, 7, 8, 9]
    with pytest.raises(WorkerDiedError, match=r"^a worker process died in deal 2 \(value 1\) "
                                              r"\(killed by SIGKILL"):
        collect(run_batch(killed_at_1, items, workers=2, chunksize=chunksize,
                          name=lambda i, item: f"deal {i} (value {item})"))


@needs_sigkill
def test_a_dask_worker_killed_outright_is_the_same_error():
    """On Dask the task is given to another worker, up to the scheduler's allowed failures (none
    here), and then was a raw ``KilledWorker`` traceback. No item is named: Dask fails every
    task the dead worker held (here item 0, done, whose result it held, too)."""
    import dask

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            pytest.raises(WorkerDiedError, match=r"^a worker process died \(.*\): run with "
                                                 r"fewer workers$"):
        collect(run_batch(killed_at_1, [0, 1, 2], backend="dask", workers=1, chunksize=1))


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"backend": "threads"}, "unknown backend 'threads'"),
    ({"workers": 0}, "workers must be"),
    ({"workers": True}, "workers must be"),
    ({"workers": 2.5}, "workers must be"),
    ({"scheduler": "tcp://x:1"}, "needs backend='dask'"),
    ({"chunksize": 0}, "chunksize must be"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(LumicoreError, match=message):
        collect(run_batch(abs, [1, 2], **kwargs))


def test_unreachable_scheduler_is_one_error(monkeypatch):
    monkeypatch.setattr(batch, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(LumicoreError, match="cannot reach the Dask scheduler"):
        collect(run_batch(abs, [1], backend="dask", scheduler="tcp://127.0.0.1:9"))


def test_check_workers_default():
    assert check_workers(None, "process") >= 1


def test_tournament_counts_agree_across_backends(scheduler, monkeypatch):
    monkeypatch.setitem(GAMES, NAME, ENTRY)
    args = dict(game=NAME, bots=["random", "greedy", "mcts:iterations=20"], games=18, seed=8,
                progress=False)
    local = tournament(workers=1, **args)
    pool = tournament(workers=2, **args)
    dask = tournament(backend="dask", scheduler=scheduler, **args)
    assert local.to_dict()["bots"] == pool.to_dict()["bots"] == dask.to_dict()["bots"]
    assert local.records == dask.records


@pytest.mark.slow
def test_dask_without_an_address_starts_its_own_cluster():
    assert collect(run_batch(factorial_mod, ITEMS, backend="dask", workers=2)) == EXPECTED


PARENT = """
import multiprocessing, os, sys, time
from solvers.batch import run_batch

def hold(folder):
    open(os.path.join(folder, str(os.getpid())), "w").close()
    time.sleep(120)

if __name__ == "__main__":
    multiprocessing.set_start_method(sys.argv[2])
    for _ in run_batch(hold, [sys.argv[1]] * 2, workers=2, chunksize=1):
        pass
"""


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
@pytest.mark.parametrize("windows", [False, True])
@pytest.mark.parametrize("start", ["fork", "forkserver", "spawn"])
def test_workers_end_when_their_parent_is_killed(tmp_path, start, windows):
    """Under "forkserver" (Python 3.14's default on Linux) a worker's parent is the fork server,
    which lives as long as its workers: they watched it and outlived the killed run. With
    ``windows`` there is no pidfd and a process's parent id stays that of the process that
    started it, as on Windows, where the workers watched it for a change that never came."""
    import multiprocessing
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "parent.py"
    script.write_text(PARENT)
    folder = tmp_path / "pids"
    folder.mkdir()
    root = os.path.dirname(os.path.dirname(os.path.abspath(batch.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    if windows:
        env = windows_parent(env, tmp_path / "site")
    if start not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {start} start method here")
    parent = subprocess.Popen([sys.executable, str(script), str(folder), start], env=env)
    try:
        deadline = time.monotonic() + 60
        while len(os.listdir(folder)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = [int(name) for name in os.listdir(folder)]
        assert len(workers) == 2 and all(running(w) for w in workers)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 20 * batch.PARENT_POLL + 10
    while any(running(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = [w for w in workers if running(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    assert not left, f"workers {left} outlived their killed parent"


PRESSED = """
import multiprocessing, sys
from solvers.batch import run_batch

if __name__ == "__main__":
    multiprocessing.set_start_method(sys.argv[1])
    try:
        for _ in run_batch(abs, range(-100, 100), workers=2, chunksize=1):
            pass
    except KeyboardInterrupt:
        print("interrupted")
        sys.exit(130)
    print("not interrupted")
"""


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="sends SIGINT to a process group")
@pytest.mark.parametrize("start", ["fork", "forkserver", "spawn"])
def test_ctrl_c_as_the_workers_start_prints_no_traceback(tmp_path, start):
    """A Ctrl-C (SIGINT to the process group) that reached a worker before its initializer
    ignored SIGINT raised KeyboardInterrupt there: a traceback on stderr, and a forked worker
    could even run on in the caller's code ("interrupted" printed by it too). The workers now
    start with SIGINT blocked; here every worker presses Ctrl-C the moment it starts."""
    import multiprocessing

    if start not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {start} start method here")
    script = tmp_path / "pressed.py"
    script.write_text(PRESSED)
    root = os.path.dirname(os.path.dirname(os.path.abspath(batch.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    env = press_as_children_start(env, tmp_path / "site")
    done = subprocess.run([sys.executable, str(script), start], env=env, capture_output=True,
                          text=True, timeout=120, cwd=tmp_path, start_new_session=True)
    assert (done.returncode, done.stdout, done.stderr) == (130, "interrupted\n", "")


def ctrl_c_state_job(_: object) -> tuple[bool, bool]:
    """A job: :func:`process_helpers.ctrl_c_state` in the worker that runs it."""
    return ctrl_c_state()


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="reads /proc")
def test_pool_workers_run_their_jobs_with_ctrl_c_ignored_not_blocked():
    """The workers start with SIGINT blocked: it is unblocked once ignored, not left blocked
    for good (and whatever a job starts inherits that)."""
    assert collect(run_batch(ctrl_c_state_job, [None] * 4, workers=2, chunksize=1)) == [
        (True, False)] * 4


def fast_or_pid_then_wait(item: tuple[str, str]) -> object:
    """``"fast"`` at once, or write this worker's pid into the folder and wait far longer than
    any test runs."""
    import time

    folder, kind = item
    if kind == "fast":
        return "fast"
    open(os.path.join(folder, str(os.getpid())), "w").close()
    time.sleep(300)
    return os.getpid()


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_a_run_closed_early_ends_its_busy_workers(tmp_path):
    """Closing the iterator (what Ctrl-C or a break does) ends the workers still running a job
    instead of waiting for it: the jobs here would run five minutes."""
    pairs, busy = _two_busy_workers(tmp_path, fast_or_pid_then_wait)
    closing = threading.Thread(target=pairs.close, daemon=True)
    closing.start()
    closing.join(timeout=60)  # a hang detector, not a timing: the close takes well under 1 s
    assert not closing.is_alive(), "closing the run waited for its busy workers' jobs"
    assert not any(running(w) for w in busy)


def _two_busy_workers(tmp_path: Path, fn: Callable[[tuple[str, str]], object]) -> tuple:
    """A run of ``fn`` on two workers that both run a long job, and the workers' pids."""
    items = [(str(tmp_path), kind) for kind in ("slow", "fast", "slow")]
    pairs = run_batch(fn, items, workers=2, chunksize=1)
    assert next(pairs) == (1, "fast")
    deadline = time.monotonic() + 60
    while len(os.listdir(tmp_path)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    busy = [int(name) for name in os.listdir(tmp_path)]
    assert len(busy) == 2 and all(running(w) for w in busy)
    return pairs, busy


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_a_second_ctrl_c_as_the_workers_end_waits_for_their_end(tmp_path, monkeypatch):
    """A Ctrl-C that came as the run ended its workers (a second press, or, under "spawn", a
    worker still starting that pressed it) stopped the ending half-way: the workers outlived
    the run, and one still starting printed a traceback as the locks it needed were gone. The
    press now waits until they have ended, then raises."""
    import multiprocessing.process

    real = multiprocessing.process.BaseProcess.terminate
    presses = [signal.SIGINT]

    def pressed_first(self: Any) -> None:  # once, in the main thread (the pool's thread too ends
        if presses and threading.current_thread() is threading.main_thread():  # workers)
            os.kill(os.getpid(), presses.pop())
        real(self)

    pairs, busy = _two_busy_workers(tmp_path, fast_or_pid_then_wait)
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "terminate", pressed_first)
    try:
        with pytest.raises(KeyboardInterrupt):
            pairs.close()
        assert not any(running(w) for w in busy)
    finally:
        for w in busy:
            if running(w):
                os.kill(w, signal.SIGKILL)


def pid_then_wait_deaf(item: tuple[str, str]) -> object:
    """:func:`fast_or_pid_then_wait` in a worker that ignores SIGTERM."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    return fast_or_pid_then_wait(item)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc")
def test_a_worker_that_ignores_sigterm_is_killed_as_the_run_ends(tmp_path, monkeypatch):
    """Ending a run waited for ever for a worker whose job ignored SIGTERM."""
    monkeypatch.setattr(batch, "END_WAIT", 0.2)
    pairs, busy = _two_busy_workers(tmp_path, pid_then_wait_deaf)
    closing = threading.Thread(target=pairs.close, daemon=True)
    closing.start()
    closing.join(timeout=60)  # a hang detector: the close takes well under a second
    left = [w for w in busy if running(w)]
    for w in left:
        os.kill(w, signal.SIGKILL)
    assert not closing.is_alive() and not left


def test_without_dask_the_dask_backend_is_one_error(monkeypatch):
    """``from dask.distributed import as_completed`` ran before the import that turns a missing
    dask into this error: a ModuleNotFoundError traceback."""
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # as if dask were not installed
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(LumicoreError, match=r'^the dask backend needs dask\.distributed: pip '):
        collect(run_batch(abs, [1], backend="dask"))


def _serve(answer: bytes | None) -> tuple[socket.socket, list[socket.socket]]:
    """A local TCP service that takes connections and sends ``answer`` at once (a service that
    speaks first, as an SSH server does), or reads and never answers (None: an HTTP server
    waiting for the rest of a request, as the dashboard of a scheduler does)."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def take() -> None:
        with contextlib.suppress(OSError):  # the listening socket closed: the test is over
            while True:
                conn, _ = server.accept()
                held.append(conn)
                if answer is not None:
                    conn.sendall(answer)

    threading.Thread(target=take, daemon=True).start()
    return server, held


@pytest.mark.parametrize("kind", ["tls", "ucx", "speaks first", "silent", "http"])
def test_every_failure_to_reach_a_scheduler_is_one_error_in_time(kind, monkeypatch):
    """A tls:// or ucx:// address (a TypeError), a service that speaks first (a MemoryError of
    exabytes) were tracebacks; a service that takes the connection and says nothing, such as
    the HTTP server of a scheduler's dashboard, kept the client waiting forever."""
    monkeypatch.setattr(batch, "CONNECT_TIMEOUT", "0.5s")
    servers = []
    if kind == "http":
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                                http.server.BaseHTTPRequestHandler)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        port = httpd.server_address[1]
    else:
        answer = b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n" if kind == "speaks first" else None
        server, held = _serve(answer)
        servers = [server, *held]
        port = server.getsockname()[1]
    scheme = kind if kind in ("tls", "ucx") else "tcp"
    address = f"{scheme}://127.0.0.1:{port}"
    failed: list[BaseException] = []

    def run() -> None:
        try:
            collect(run_batch(abs, [1], backend="dask", scheduler=address))
        except BaseException as exc:  # noqa: BLE001 - checked below
            failed.append(exc)

    started = time.monotonic()
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout=60)  # a hang detector, not a timing
    elapsed = time.monotonic() - started
    if kind == "http":
        httpd.shutdown()
        httpd.server_close()
    for sock in servers:
        sock.close()
    assert not thread.is_alive(), f"still connecting to {address} after 60 s"
    assert len(failed) == 1 and isinstance(failed[0], LumicoreError), failed
    message = str(failed[0])
    assert message.startswith(f"cannot reach the Dask scheduler '{address}': ")
    assert "\n" not in message and len(message) < 300
    assert elapsed < 0.5 + 1 + 5  # the time, a second more for a silent service, and slack
    if kind == "silent":
        assert "no answer as a Dask scheduler within 0.5 s" in message
    elif kind == "http":  # Python 3.10's http.server answers the handshake's bytes at once
        assert ("no answer as a Dask scheduler within 0.5 s" in message
                or message.endswith("the service there does not answer as a Dask scheduler"))


@pytest.fixture
def local_clusters(monkeypatch):
    """The ``LocalCluster`` of ``backend="dask"`` without an address, started with its workers
    in this process (``processes=False``: about a second instead of several). Gives the clusters
    started (``.started``) and a function run before each starts (``.before``)."""
    real = distributed.LocalCluster
    clusters = types.SimpleNamespace(started=[], before=lambda: None)

    def local_cluster(**kwargs):
        clusters.before()
        clusters.started.append(real(**{**kwargs, "processes": False}))
        return clusters.started[-1]

    monkeypatch.setattr(distributed, "LocalCluster", local_cluster)  # dask.distributed's
    monkeypatch.setattr(sys.modules["distributed"], "LocalCluster", local_cluster)
    return clusters


def test_ctrl_c_while_the_local_cluster_starts_stops_the_run(local_clusters, monkeypatch):
    """SIGINT was ignored while the cluster started (so that its workers inherit that): a
    Ctrl-C then was lost, and the run went on to the end."""
    monkeypatch.setitem(GAMES, NAME, ENTRY)
    local_clusters.before = lambda: signal.raise_signal(signal.SIGINT)
    result = tournament(NAME, ["random", "greedy"], games=6, backend="dask", workers=1,
                        progress=False)
    assert result.interrupted and result.played == 0
    [cluster] = local_clusters.started
    assert cluster.status.name == "closed"


def test_the_local_cluster_opens_no_dashboard(local_clusters):
    """The cluster's scheduler served its HTTP routes on the dashboard's port, 8787: with that
    port taken (another cluster, any program), a 3-line warning 'Port 8787 is already in use'."""
    holder = socket.socket()
    with contextlib.suppress(OSError):  # taken already: by another program, as in the report
        holder.bind(("", 8787))
        holder.listen(1)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert collect(run_batch(abs, [-1, -2], backend="dask", workers=1)) == [1, 2]
    finally:
        holder.close()
    assert not [w for w in caught if "8787" in str(w.message)], [str(w.message) for w in caught]
    http_server = local_clusters.started[0].scheduler.http_server
    assert (http_server.address, http_server.port != 8787) == ("127.0.0.1", True)


def sigint_reaches(_: object) -> bool:
    """Whether a SIGINT sent to this process would reach a thread with a handler: some thread
    has SIGINT neither blocked nor ignored."""
    bit = 1 << (signal.SIGINT - 1)
    for task in os.listdir("/proc/self/task"):
        with open(f"/proc/self/task/{task}/status") as status:
            fields = dict(line.split(":", 1) for line in status)
        if not (int(fields["SigBlk"], 16) | int(fields["SigIgn"], 16)) & bit:
            return True
    return False


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="reads /proc")
def test_the_workers_of_a_local_cluster_never_take_ctrl_c():
    """Its workers start blocking SIGINT (they used to start ignoring it): Ctrl-C in a terminal
    reaches the caller only, which shuts them down."""
    assert collect(run_batch(sigint_reaches, [None] * 4, backend="dask", workers=2,
                             chunksize=1)) == [False] * 4


def test_a_progress_line_starts_no_thread():
    """tqdm's monitor thread ran beside every progress line, so a batch run forked its workers
    from a process with threads (which can deadlock a child; Python 3.12 on warns, and the
    warning was a second line of `lucia winrate`'s one-line errors)."""
    from solvers.progress import progress

    for shown in (True, False):
        with progress(total=3, enabled=shown) as bar:
            bar.update(1)
            assert [t.name for t in threading.enumerate() if t.name.startswith("tqdm")] == []


def test_an_unguarded_script_under_spawn_is_told_to_guard_its_main_code(tmp_path):
    """Under "spawn" (macOS, Windows) each worker imports the script that started the run; one
    without an ``if __name__ == "__main__":`` guard starts a run again there, and the worker
    exits with status 1: the error said only that a worker died."""
    script = tmp_path / "unguarded.py"
    script.write_text("import multiprocessing\n"
                      "multiprocessing.set_start_method('spawn', force=True)\n"
                      "from solvers.batch import run_batch\n"
                      "print(sorted(run_batch(abs, [-1, -2, -3, -4], workers=2)))\n")
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("lumicore.errors.WorkerDiedError: a worker process died")
    assert 'if __name__ == "__main__":' in last
