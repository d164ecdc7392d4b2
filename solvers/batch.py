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
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from typing import Any

from lumicore.errors import LumicoreError, SearchLimitError

__all__ = ["BACKENDS", "MAX_TASKS", "MAX_WORKERS", "run_batch", "cores", "default_workers",
           "check_workers", "worker_count", "children_ignore_ctrl_c", "deliver_ctrl_c"]

BACKENDS = ("process", "dask")


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
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise SearchLimitError(f"workers must be an integer from 1 to {MAX_WORKERS}, got "
                               f"{workers!r}")
    return workers


CONNECT_TIMEOUT = "10s"
"""How long to try reaching a Dask scheduler given by address."""
MAX_TASKS = 1000
"""With more items than this, items are grouped so that a run makes about this many tasks."""


def _chunks(n: int, chunksize: int | None) -> list[range]:
    if chunksize is None:
        chunksize = max(1, math.ceil(n / MAX_TASKS))
    elif isinstance(chunksize, bool) or not isinstance(chunksize, int) or chunksize < 1:
        raise LumicoreError(f"chunksize must be a positive integer, got {chunksize!r:.80}")
    return [range(start, min(n, start + chunksize)) for start in range(0, n, chunksize)]


def _run_chunk(fn: Callable[[Any], Any], start: int, items: Sequence[Any]) -> list[tuple[int, Any]]:
    """Run one task: ``fn`` on consecutive items, numbered from ``start``."""
    return [(start + j, fn(item)) for j, item in enumerate(items)]


PARENT_POLL = 0.5
"""Seconds between a pool worker's checks that the process that started it is alive."""


def _watch_parent(parent: int) -> None:
    """End this worker as soon as its parent is gone (its parent process id changes): a parent
    killed outright (SIGKILL, the out-of-memory killer) cannot shut its pool down, and its
    workers would otherwise run their job to the end and then wait for work forever."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL)
    os._exit(1)


def _start_worker() -> None:
    """Pool workers leave Ctrl-C to the parent, which stops handing out jobs, and end with
    their parent (:func:`_watch_parent`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(os.getppid(),), name="watch-parent",
                     daemon=True).start()


def run_batch(fn: Callable[[Any], Any], items: Sequence[Any], *, workers: int | None = None,
              backend: str = "process", scheduler: str | None = None,
              chunksize: int | None = None) -> Iterator[tuple[int, Any]]:
    """Run ``fn(item)`` for every item; yield ``(index, result)`` as each finishes.

    Items travel to the workers in tasks of ``chunksize`` consecutive items (default: one item
    a task, or enough to keep a run to about :data:`MAX_TASKS` tasks), so thousands of tiny jobs
    do not pay a task's overhead each; results still come one item at a time. An exception in
    ``fn`` is raised here. Closing the iterator early (or Ctrl-C while it waits) cancels the jobs
    not yet started and ends the local workers still running a job (Dask cancels its tasks);
    the results yielded before stay valid. Local workers whose parent is killed
    outright end within :data:`PARENT_POLL` seconds instead of running on.
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
        pool = ProcessPoolExecutor(max_workers=min(workers, len(chunks)),
                                   initializer=_start_worker)
        futures = [pool.submit(_run_chunk, fn, c.start, items[c.start:c.stop]) for c in chunks]
        try:
            for future in as_completed(futures):
                yield from future.result()
        finally:
            _shut_down(pool, futures)


def _shut_down(pool: ProcessPoolExecutor, futures: list) -> None:
    """Cancel the jobs not started; a run stopped early (Ctrl-C, an exception, the iterator
    closed) also ends the workers still busy, whose results nobody will read, instead of
    waiting for their jobs (a game or a search can take minutes)."""
    # the executor has no public way to end busy workers before Python 3.14 (and forgets them
    # once shut down)
    processes = list((getattr(pool, "_processes", None) or {}).values())
    busy = not all(f.done() for f in futures)
    pool.shutdown(wait=False, cancel_futures=True)
    if busy:
        for process in processes:
            process.terminate()
        for process in processes:
            process.join()


@contextmanager
def children_ignore_ctrl_c(pressed: list[int] | None = None) -> Iterator[None]:
    """Start worker processes with Ctrl-C ignored (they inherit it), so that Ctrl-C in a terminal
    reaches only this process, which stops the run and shuts the workers down itself (also the
    Lemuria branch and bound beside CP-SAT, :mod:`solvers.lemuria.beside`). With ``pressed``
    (for forked children only, which inherit a handler as it is and replace it themselves) a
    Ctrl-C while they start is appended to it, for the caller to act on, instead of lost."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handler = signal.SIG_IGN if pressed is None else (lambda signum, _frame: pressed.append(signum))
    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def deliver_ctrl_c() -> None:
    """Run what a Ctrl-C runs now (the SIGINT handler in place: a callable, or
    ``KeyboardInterrupt`` unless SIGINT is ignored), for a press :func:`children_ignore_ctrl_c`
    held back."""
    handler = signal.getsignal(signal.SIGINT)
    if callable(handler):
        handler(signal.SIGINT, None)
    elif handler != signal.SIG_IGN:
        raise KeyboardInterrupt


@contextmanager
def _dask_client(workers: int, scheduler: str | None):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise LumicoreError(
            'the dask backend needs dask.distributed: pip install -e ".[cluster]"') from exc
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as exc:
            raise LumicoreError(
                f"cannot reach the Dask scheduler {scheduler[:80]!r}: {exc}") from exc
        with client:
            yield client
        return
    with children_ignore_ctrl_c():
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.CRITICAL)
    with cluster, Client(cluster) as client:
        yield client


def _run_dask(fn: Callable[[Any], Any], items: list[Any], chunks: list[range], workers: int,
              scheduler: str | None) -> Iterator[tuple[int, Any]]:
    from dask.distributed import as_completed as dask_completed

    with _dask_client(workers, scheduler) as client:
        futures = client.map(_run_chunk, [fn] * len(chunks), [c.start for c in chunks],
                             [items[c.start:c.stop] for c in chunks], pure=False)
        try:
            for future in dask_completed(futures):
                yield from future.result()
        finally:
            client.cancel(futures)
