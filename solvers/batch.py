"""Batch runs on the local cores or on a Dask distributed cluster, one interface for both.

Win rates, tournaments and other many-independent-jobs runs call :func:`run_batch` with a
top-level (picklable) function and a list of items; it yields ``(index, result)`` pairs as jobs
finish. ``backend="process"`` uses a local process pool (``workers=1`` runs in this process);
``backend="dask"`` submits the same jobs to ``dask.distributed.Client(scheduler)`` or, with no
scheduler address, to a fresh ``LocalCluster`` of ``workers`` single-threaded processes.

>>> sorted(run_batch(abs, [-1, -2, 3], workers=1))
[(0, 1), (1, 2), (2, 3)]
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import multiprocessing.connection
import os
import select
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

from lumicore.checks import check_int
from lumicore.data import process_exists, shorten
from lumicore.errors import LumicoreError, SearchLimitError, WorkerDiedError
from solvers.ctrl_c import check

__all__ = ["BACKENDS", "MAX_TASKS", "MAX_WORKERS", "run_batch", "cores", "default_workers",
           "check_workers", "worker_count", "children_ignore_ctrl_c", "ignore_ctrl_c",
           "deliver_ctrl_c", "ctrl_c_held", "end_processes", "naming_job",
           "parent_ended"]

BACKENDS = ("process", "dask")
"""The ``backend=`` choices of :func:`run_batch`: ``"process"`` a local process pool, ``"dask"`` a
Dask distributed cluster (or a fresh local one)."""


def cores() -> int:
    """The cores this process may run on: its CPU affinity where the system has one (a job
    pinned to 2 of 64 cores counts 2), else the machine's."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def default_workers() -> int:
    """The cores this process may run on (:func:`cores`): the default number of workers."""
    return cores()


MAX_WORKERS = 1024
"""The most workers (processes, Dask workers or CP-SAT threads) a run takes."""


def check_workers(workers: int | None, backend: str) -> int:
    """Validate ``workers`` and ``backend``; return the number of workers to use."""
    if backend not in BACKENDS:
        choices = ", ".join(BACKENDS)
        raise LumicoreError(f"unknown backend {str(backend)[:80]!r} (choose from {choices})")
    return worker_count(workers, default_workers)


def worker_count(workers: int | None, default: Callable[[], int]) -> int:
    """``workers`` checked (an int from 1 to :data:`MAX_WORKERS`), or ``default()`` for None.

    >>> worker_count(None, lambda: 3), worker_count(2, lambda: 3)
    (3, 2)
    """
    if workers is None:
        return default()
    return check_int(workers, "workers", 1, MAX_WORKERS, error=SearchLimitError)


CONNECT_TIMEOUT = "10s"
"""How long to try reaching a Dask scheduler given by address."""
MAX_TASKS = 1000
"""With more items than this, items are grouped so that a run makes about this many tasks."""


def _chunks(n: int, chunksize: int | None) -> list[range]:
    if chunksize is None:
        chunksize = max(1, math.ceil(n / MAX_TASKS))
    else:
        chunksize = check_int(chunksize, "chunksize", 1, what="a positive integer")
    return [range(start, min(n, start + chunksize)) for start in range(0, n, chunksize)]


_running: Any = None
"""In a pool worker: the run's shared array of (process id, item running + 1) pairs, one per
worker, so that the run can name the item of a worker that died (:func:`_claim_slot`)."""
_slot = -1
"""In a pool worker: the index of its pair in :data:`_running`."""


def _run_chunk(fn: Callable[[Any], Any], start: int, items: Sequence[Any]) -> list[tuple[int, Any]]:
    """Run one task: ``fn`` on consecutive items, numbered from ``start``; in a pool worker, each
    item is noted in :data:`_running` while it runs."""
    if _running is None:
        return [(start + j, fn(item)) for j, item in enumerate(items)]
    shared = _running.get_obj()  # one writer per pair, read once this worker is dead: no lock
    out = []
    try:
        for j, item in enumerate(items):
            shared[_slot + 1] = start + j + 1
            out.append((start + j, fn(item)))
    finally:
        shared[_slot + 1] = 0
    return out


def _claim_slot(running: Any) -> None:
    """Take this worker's pair in the run's shared array ``running`` (the first free one)."""
    global _running, _slot
    with running.get_lock():
        free = [i for i in range(0, len(running), 2) if running[i] == 0]
        if free:
            running[free[0]] = os.getpid()
            _running, _slot = running, free[0]


PARENT_POLL = 0.5
"""Seconds between a pool worker's checks that the process that started the run is alive, where
the system cannot tell it at once (no ``os.pidfd_open``, not Linux, and that process is not the
worker's multiprocessing parent)."""


def parent_ended(parent: int) -> Callable[[float | None], bool]:
    """A test of whether the process ``parent`` has ended: called with a timeout in seconds
    (None: for ever, 0: no wait), it waits at most that long and says whether it has.

    On Linux a pidfd tells the end at once (a zombie not yet reaped included, and a process id
    used again cannot be mistaken for it). Elsewhere, where ``parent`` is this process's
    multiprocessing parent, its sentinel does (Windows keeps a dead parent's id as
    ``os.getppid()``, so that cannot tell it); else ``os.getppid()`` changing (a child whose
    parent it is) or the process id gone is polled every :data:`PARENT_POLL` seconds."""
    parent = check_int(parent, "parent", 1, 2**31 - 1, "a process id")
    try:
        handle = os.pidfd_open(parent)
    except (AttributeError, OSError):  # not Linux, or the parent is gone already
        handle = None
    if handle is not None:
        return lambda timeout: bool(select.select([handle], [], [], timeout)[0])
    started_by = multiprocessing.parent_process()
    sentinel = None if started_by is None or started_by.pid != parent else started_by.sentinel
    if sentinel is not None:
        return lambda timeout: bool(multiprocessing.connection.wait([sentinel], timeout))
    forked = os.getppid() == parent  # fork and spawn: the parent's id is ours to watch

    def polled(timeout: float | None) -> bool:
        end = None if timeout is None else time.monotonic() + timeout
        while os.getppid() == parent if forked else process_exists(parent):
            if end is not None and time.monotonic() >= end:
                return False
            time.sleep(PARENT_POLL if end is None else
                       min(PARENT_POLL, max(end - time.monotonic(), 0.0)))
        return True
    return polled


def _watch_parent(parent: int) -> None:
    """End this worker as soon as ``parent``, the process that runs the batch, is gone: a parent
    killed outright (SIGKILL, the out-of-memory killer) cannot shut its pool down, and its
    workers would otherwise run their job to the end and then wait for work forever.

    ``parent`` is given, not this process's parent: under the "forkserver" start method
    (Python 3.14's default on Linux) a worker is the fork server's child, and the fork server
    lives as long as its workers do (they hold its pipe open), so a worker that watched its own
    parent outlived a killed run. :func:`parent_ended` tells its end."""
    parent_ended(parent)(None)
    os._exit(1)


def _start_worker(parent: int, running: Any) -> None:
    """Pool workers leave Ctrl-C to ``parent``, the process running the batch, which stops
    handing out jobs (:func:`ignore_ctrl_c`), end with it (:func:`_watch_parent`) and note the
    item they run in ``running`` (:func:`_claim_slot`)."""
    ignore_ctrl_c()
    _claim_slot(running)
    threading.Thread(target=_watch_parent, args=(parent,), name="watch-parent",
                     daemon=True).start()


@contextmanager
def naming_job(what: str) -> Iterator[None]:
    """Within a job's function: an exception names the job, ``what`` (``"game 17 (seed
    123)"``), so that the caller of :func:`run_batch` learns which item failed and can run it
    again alone. A :class:`LumicoreError` (shown as one line) has it before its message; another
    exception (a fault in a game's code, shown with its traceback) keeps its message and gets
    it as a note below the traceback (Python 3.11 on). The exception keeps its type."""
    try:
        yield
    except LumicoreError as exc:
        if exc.args and isinstance(exc.args[0], str):
            exc.args = (f"{what}: {exc.args[0]}", *exc.args[1:])
        raise
    except Exception as exc:
        if hasattr(exc, "add_note"):
            exc.add_note(f"(in {what})")
        raise


def run_batch(fn: Callable[[Any], Any], items: Sequence[Any], *, workers: int | None = None,
              backend: str = "process", scheduler: str | None = None,
              chunksize: int | None = None,
              name: Callable[[int, Any], str] | None = None
              ) -> Generator[tuple[int, Any], None, None]:
    """Run ``fn(item)`` for every item; yield ``(index, result)`` as each finishes.

    Items travel to the workers in tasks of ``chunksize`` consecutive items (default: one item
    a task, or enough to keep a run to about :data:`MAX_TASKS` tasks), so thousands of tiny jobs
    do not pay a task's overhead each; results still come one item at a time. An exception in
    ``fn`` is raised here. Closing the iterator early (or Ctrl-C while it waits) cancels the jobs
    not yet started and ends the local workers still running a job (Dask cancels its tasks);
    the results yielded before stay valid. Local workers whose parent is killed
    outright end within :data:`PARENT_POLL` seconds instead of running on.

    A worker that dies (killed outright) is :class:`WorkerDiedError`; a local worker notes each
    item it starts, and the error names the item the dead one ran as ``name(index, item)``
    (default ``"item INDEX"``). Dask's error does not tell that item (it fails every task the
    dead worker held, queued or done as well as running), and names none.
    """
    workers = check_workers(workers, backend)
    if scheduler is not None and backend != "dask":
        raise LumicoreError("a scheduler address needs backend='dask'")
    items = list(items)
    chunks = _chunks(len(items), chunksize)

    if backend == "dask":
        yield from _run_dask(fn, items, chunks, workers, scheduler)
    elif workers == 1 or len(chunks) <= 1:
        for i, item in enumerate(items):
            yield i, fn(item)
    else:
        processes = min(workers, len(chunks))
        running = multiprocessing.Array("q", 2 * processes)  # (pid, item + 1) per worker
        pool = ProcessPoolExecutor(max_workers=processes, initializer=_start_worker,
                                   initargs=(os.getpid(), running))
        futures: list[Any] = []
        try:
            # submit starts the workers (Python 3.10 to 3.13: all at the first call under "fork",
            # one a call otherwise; only max_tasks_per_child, unused, starts more later): they
            # start with SIGINT blocked, so that a Ctrl-C before _start_worker ignores it
            # prints no KeyboardInterrupt traceback from a worker
            if multiprocessing.get_start_method() != "fork" and hasattr(signal, "pthread_sigmask"):
                # a fresh interpreter's start needs multiprocessing's resource tracker, which
                # unblocks SIGINT in the thread that first starts it: the pool's locks have
                # started it already, and this makes sure (a dead one is started again here)
                from multiprocessing import resource_tracker

                resource_tracker.ensure_running()
            pressed: list[int] = []
            with children_ignore_ctrl_c(pressed):
                futures += [pool.submit(_run_chunk, fn, c.start, items[c.start:c.stop])
                            for c in chunks]
            if pressed:  # Ctrl-C while the workers started: its handler runs now
                deliver_ctrl_c()
            for future in as_completed(futures):
                try:
                    chunk = future.result()
                except BrokenProcessPool as exc:
                    how, pid = _how_it_ended(pool)
                    item = _item_of(running, pid)
                    job = None if item is None else (
                        name(item, items[item]) if name is not None else f"item {item}")
                    raise WorkerDiedError(_worker_died(how, job)) from exc
                yield from chunk
        finally:
            _shut_down(pool, futures)


def _item_of(running: Any, pid: int | None) -> int | None:
    """The item the worker ``pid`` noted in ``running`` as running when it died, if any."""
    pairs = running.get_obj()
    for i in range(0, len(pairs), 2):
        if pid is not None and pairs[i] == pid and pairs[i + 1] > 0:
            return pairs[i + 1] - 1
    return None


def _worker_died(how: str | None, job: str | None = None) -> str:
    """The message of :class:`WorkerDiedError`, ``how`` the worker ended and ``job`` what it ran
    where that is known.

    >>> _worker_died("killed by SIGKILL").split("(")[1]
    'killed by SIGKILL, most likely by the system for lack of memory): run with fewer workers'
    >>> _worker_died("killed by SIGSEGV", "game 3")
    'a worker process died in game 3 (killed by SIGSEGV)'
    """
    died = "a worker process died" if job is None else f"a worker process died in {job}"
    if how is None:
        how = "most likely killed by the system for lack of memory, or by a signal"
    elif how == "killed by SIGKILL":  # what the out-of-memory killer sends
        how += ", most likely by the system for lack of memory"
    elif how == "exit status 1" and multiprocessing.get_start_method() != "fork":
        return f"{died} ({how}){UNGUARDED}"
    else:  # a crash or an exit: fewer workers would not help
        return f"{died} ({how})"
    return f"{died} ({how}): run with fewer workers"


UNGUARDED = ('; if a traceback above says "bootstrapping phase", the script that started the '
             'run needs its main code under if __name__ == "__main__": (each worker process '
             "imports it, as on macOS and Windows)")
"""What :func:`_worker_died` adds for a worker that exited with status 1 where workers start
as fresh interpreters ("spawn", "forkserver"): most often an unguarded script."""


def _how_it_ended(pool: ProcessPoolExecutor, wait: float = 5.0) -> tuple[str | None, int | None]:
    """How the first worker of a broken ``pool`` that ended by itself ended, ``"killed by
    SIGKILL"``, ``"exit status 1"``, and its process id; Nones when that is not known."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    # the pool's own thread reaps the dead worker, and ends the others (SIGTERM), as it breaks:
    # an exit status is known once it is done
    manager = getattr(pool, "_executor_manager_thread", None)
    if manager is not None:
        manager.join(wait)
    for process in processes:
        code = process.exitcode
        if code is None or code == -signal.SIGTERM:
            continue
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}", process.pid
            except ValueError:
                return f"killed by signal {-code}", process.pid
        return f"exit status {code}", process.pid
    return None, None


def _shut_down(pool: ProcessPoolExecutor, futures: list) -> None:
    """Cancel the jobs not started; a run stopped early (Ctrl-C, an exception, the iterator
    closed) also ends the workers still busy, whose results nobody will read, instead of
    waiting for their jobs (a game or a search can take minutes)."""
    # the executor has no public way to end busy workers before Python 3.14 (and forgets them
    # once shut down)
    processes = list((getattr(pool, "_processes", None) or {}).values())
    busy = not all(f.done() for f in futures)
    # a run that ended waits for its idle pool: a pool left to end by itself could still be
    # ending at the interpreter's exit, whose clean-up then writes to its closed pipe ("OSError:
    # [Errno 9] Bad file descriptor" on stderr, seen after a lucia play of a pool per turn)
    if not busy:  # (the idle workers end by themselves: Ctrl-C may still stop the wait)
        pool.shutdown(wait=True, cancel_futures=True)
        return
    with ctrl_c_held():  # a second Ctrl-C here left workers running past this process's end
        pool.shutdown(wait=False, cancel_futures=True)
        end_processes(processes)


END_WAIT = 5.0
"""Seconds :func:`end_processes` gives a terminated process to end before it is killed."""


def end_processes(processes: Sequence[Any]) -> None:
    """End ``processes`` (``multiprocessing`` processes) now: SIGTERM, then SIGKILL for one that
    has not ended within :data:`END_WAIT` seconds (a job that catches SIGTERM)."""
    for process in processes:
        process.terminate()
    end = time.monotonic() + END_WAIT
    for process in processes:
        process.join(max(end - time.monotonic(), 0.0))
        if process.is_alive():
            process.kill()
            process.join()


@contextmanager
def ctrl_c_held() -> Iterator[None]:
    """Hold Ctrl-C back while the body runs (a short clean-up that must finish, such as ending
    worker processes: a worker left running as this process exits prints a traceback when the
    locks it starts with are gone), then deliver it, unless a ``KeyboardInterrupt`` is on its
    way already (the body runs as the first Ctrl-C stops the run: a second adds nothing).
    In the main thread only, as :func:`children_ignore_ctrl_c`."""
    pressed: list[int] = []
    with children_ignore_ctrl_c(pressed):
        yield
    if pressed and not isinstance(sys.exc_info()[1], KeyboardInterrupt):
        deliver_ctrl_c()


@contextmanager
def children_ignore_ctrl_c(pressed: list[int] | None = None) -> Iterator[None]:
    """Start worker processes with Ctrl-C ignored (they inherit it), so that Ctrl-C in a terminal
    reaches only this process, which stops the run and shuts the workers down itself (the local pool
    of :func:`run_batch`, the Lemuria branch and bound beside CP-SAT, :mod:`solvers.lemuria.beside`,
    whose processes then call :func:`ignore_ctrl_c`, and the workers of a Dask ``LocalCluster``).
    Without ``pressed``, SIGINT is ignored meanwhile and a Ctrl-C while they start is lost. With
    ``pressed``, a Ctrl-C while they start is appended to it, for the caller to act on
    (:func:`deliver_ctrl_c`), instead of lost: SIGINT is blocked in this thread (where the system
    has ``pthread_sigmask``), so that the children started from it, or from threads it starts
    meanwhile, inherit it blocked (a fresh interpreter, Dask's and multiprocessing's "spawn", keeps
    a blocked signal, though not a handler), and the handler in place meanwhile, which a forked
    child inherits as it is and replaces itself, records a press that reaches another thread; a
    press held back by the block is recorded as it ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handler = signal.SIG_IGN if pressed is None else (lambda signum, _frame: pressed.append(signum))
    block = pressed is not None and hasattr(signal, "pthread_sigmask")
    previous = signal.signal(signal.SIGINT, handler)
    try:
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if block else None
        try:
            yield
        finally:
            if mask is not None:  # a press held back is delivered here, to the recording handler
                signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    finally:
        signal.signal(signal.SIGINT, previous)


def ignore_ctrl_c() -> None:
    """In a process started under :func:`children_ignore_ctrl_c` (a pool worker, the Lemuria
    branch and bound): ignore SIGINT from now on, for the parent stops the process itself.

    The process may have started with SIGINT blocked (a fork, or a fresh interpreter, which
    keeps the mask, started from a thread that blocked it), so that a Ctrl-C before this call
    waited instead of raising a ``KeyboardInterrupt`` with a traceback; ignored first, then
    unblocked, such a press is dropped, and the process runs on with SIGINT plainly ignored
    rather than blocked for good (whatever it starts in turn inherits that)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def deliver_ctrl_c() -> None:
    """Run what a Ctrl-C runs now (the SIGINT handler in place: a callable, or
    ``KeyboardInterrupt`` unless SIGINT is ignored), for a press :func:`children_ignore_ctrl_c`
    held back."""
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signal.SIGINT, None)
    elif handler != signal.SIG_IGN:
        raise KeyboardInterrupt


def _distributed() -> Any:
    """The ``distributed`` package, or a :class:`LumicoreError` saying how to install it (with
    dask, the optional extra ``cluster``)."""
    try:
        import dask.distributed  # noqa: F401 - dask and distributed, as the extra installs them
        import distributed
    except ImportError as exc:
        raise LumicoreError(
            'the dask backend needs dask.distributed: pip install -e ".[cluster]"') from exc
    return distributed


def _first_line(exc: BaseException, limit: int = 160) -> str:
    """An exception's message as one line of at most about ``limit`` characters (its type's
    name when it has none)."""
    lines = str(exc).strip().splitlines()
    text = lines[0] if lines else type(exc).__name__
    return text if len(text) <= limit else text[:limit] + "..."


def _check_scheduler(distributed: Any, scheduler: str, seconds: float) -> None:
    """Open a connection to ``scheduler`` and exchange Dask's handshake, all within ``seconds``;
    a :class:`LumicoreError` names the address and the reason when that fails, whatever the
    address: one that does not parse, an unknown or unconfigured protocol (``tls://`` without
    certificates, ``ucx://`` without its package), nothing listening, or a service that is not a
    Dask scheduler (an HTTP server such as the scheduler's dashboard waits for more of its own
    protocol, and ``Client`` waited for its answer forever; a service that speaks first sends
    bytes that read as a message of exabytes)."""
    import asyncio

    async def handshake() -> None:
        args = distributed.Security().get_connection_args("client")
        comm = await distributed.comm.connect(scheduler, timeout=seconds, **args)
        await comm.close()

    failed: list[BaseException] = []

    def run() -> None:
        try:
            # connect() retries for ``seconds`` and says so (nothing listening, a refusal); a
            # second more tells a silent service after the connection from that
            asyncio.run(asyncio.wait_for(handshake(), seconds + 1))
        except BaseException as exc:  # noqa: BLE001 - raised again in the caller's thread
            failed.append(exc)

    # in a thread of its own: the caller's may run an event loop already (a notebook's)
    thread = threading.Thread(target=run, name="dask-handshake", daemon=True)
    thread.start()
    thread.join()  # Ctrl-C stops the wait; the thread ends within its time
    try:
        if failed:
            raise failed[0]
    except asyncio.TimeoutError as exc:  # before OSError: from Python 3.11 it is one
        raise LumicoreError(
            f"cannot reach the Dask scheduler {shorten(scheduler)}: no answer as a Dask scheduler "
            f"within {seconds:g} s (the address of its dashboard, or of another service?)"
        ) from exc
    except MemoryError as exc:
        raise LumicoreError(
            f"cannot reach the Dask scheduler {shorten(scheduler)}: the service there does not "
            "answer as a Dask scheduler") from exc
    except Exception as exc:  # noqa: BLE001 - any failure to connect is the address's
        raise LumicoreError(
            f"cannot reach the Dask scheduler {shorten(scheduler)}: {_first_line(exc)}") from exc


@contextmanager
def _dask_client(distributed: Any, workers: int, scheduler: str | None) -> Iterator[Any]:
    """A ``Client`` of the cluster at ``scheduler`` (checked first: :func:`_check_scheduler`)
    or of a ``LocalCluster`` of ``workers`` processes started for the run (with no dashboard;
    Ctrl-C while it starts stops the run once it has started)."""
    if scheduler is not None:
        from dask.utils import parse_timedelta

        seconds = parse_timedelta(CONNECT_TIMEOUT)
        _check_scheduler(distributed, scheduler, seconds)
        try:
            client = distributed.Client(scheduler, timeout=seconds)
        except Exception as exc:  # noqa: BLE001 - as in _check_scheduler
            raise LumicoreError(f"cannot reach the Dask scheduler {shorten(scheduler)}: "
                                f"{_first_line(exc)}") from exc
        with client:
            yield client
        return
    # the workers are fresh interpreters ("spawn"), which keep a blocked SIGINT but not a
    # handler: without pthread_sigmask, SIGINT is ignored while they start, as before
    blocking = hasattr(signal, "pthread_sigmask")
    if blocking:
        # multiprocessing's resource tracker, when a thread first starts it, unblocks SIGINT in
        # that thread (the cluster's event loop, which starts the workers): started before the
        # block, it leaves the block to the workers
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
    pressed: list[int] = []
    with children_ignore_ctrl_c(pressed if blocking else None):
        # the scheduler's HTTP server (routes such as /health) takes a free port of this
        # machine: without an address it takes the dashboard's 8787, and warns in 3 lines when
        # that port is taken
        cluster = distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
            silence_logs=logging.CRITICAL)
    with cluster:
        if pressed:  # Ctrl-C while the cluster started: its handler runs now
            deliver_ctrl_c()
        with distributed.Client(cluster) as client:
            yield client


def _run_dask(fn: Callable[[Any], Any], items: list[Any], chunks: list[range], workers: int,
              scheduler: str | None) -> Iterator[tuple[int, Any]]:
    distributed = _distributed()
    check()  # a Ctrl-C that a module's initialisation turned into an ImportError a library took
    with _dask_client(distributed, workers, scheduler) as client:
        futures = client.map(_run_chunk, [fn] * len(chunks), [c.start for c in chunks],
                             [items[c.start:c.stop] for c in chunks], pure=False)
        try:
            for future in distributed.as_completed(futures):
                try:
                    chunk = future.result()
                except distributed.KilledWorker as exc:
                    # the task's workers died while it was theirs: queued there, or done with
                    # its result held there, as well as running; the job that killed them is
                    # not known, and is not named
                    raise WorkerDiedError(_worker_died(None)) from exc
                yield from chunk
        finally:
            client.cancel(futures)
