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

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from typing import Any

from lumicore.errors import LumicoreError

__all__ = ["BACKENDS", "run_batch", "default_workers", "check_workers"]

BACKENDS = ("process", "dask")


def default_workers() -> int:
    """The machine's cores (the default number of workers)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def check_workers(workers: int | None, backend: str) -> int:
    """Validate ``workers`` and ``backend``; return the number of workers to use."""
    if backend not in BACKENDS:
        choices = ", ".join(BACKENDS)
        raise LumicoreError(f"unknown backend {str(backend)[:80]!r} (choose from {choices})")
    if workers is None:
        return default_workers()
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= 1024:
        raise LumicoreError(f"workers must be an integer from 1 to 1024, got {workers!r}")
    return workers


def run_batch(fn: Callable[[Any], Any], items: Sequence[Any], *, workers: int | None = None,
              backend: str = "process", scheduler: str | None = None) -> Iterator[tuple[int, Any]]:
    """Run ``fn(item)`` for every item; yield ``(index, result)`` as each finishes.

    Closing the iterator early (or Ctrl-C while it waits) cancels the jobs not yet started.
    """
    workers = check_workers(workers, backend)
    if scheduler is not None and backend != "dask":
        raise LumicoreError("a scheduler address needs backend='dask'")
    if backend == "dask":
        yield from _run_dask(fn, items, workers, scheduler)
    elif workers == 1 or len(items) <= 1:
        for i, item in enumerate(items):
            yield i, fn(item)
    else:
        with ProcessPoolExecutor(max_workers=min(workers, len(items))) as pool:
            futures = {pool.submit(fn, item): i for i, item in enumerate(items)}
            try:
                for future in as_completed(futures):
                    yield futures[future], future.result()
            finally:
                for future in futures:
                    future.cancel()


@contextmanager
def _dask_client(workers: int, scheduler: str | None):
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise LumicoreError(
            'the dask backend needs dask.distributed: pip install -e ".[cluster]"') from exc
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise LumicoreError(
                f"cannot reach the Dask scheduler {scheduler[:80]!r}: {exc}") from exc
        with client:
            yield client
        return
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        yield client


def _run_dask(fn: Callable[[Any], Any], items: Sequence[Any], workers: int,
              scheduler: str | None) -> Iterator[tuple[int, Any]]:
    from dask.distributed import as_completed as dask_completed

    with _dask_client(workers, scheduler) as client:
        futures = client.map(fn, list(items), pure=False)
        index = {future.key: i for i, future in enumerate(futures)}
        try:
            for future in dask_completed(futures):
                yield index[future.key], future.result()
        finally:
            client.cancel(futures)
