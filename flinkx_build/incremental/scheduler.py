"""The one scheduler: one worker process per core, forked, for the work a cold load, build, lint or docs run does.

The workers inherit the parent's heap (the loaded workspace) through fork, so a
job is an index into what the parent set aside before the pool started, and
workers write nothing but cache entries (atomically).
"""
from __future__ import annotations

import multiprocessing as mp
import os
from collections import deque
from collections.abc import Callable
from collections.abc import Generator
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING
from typing import Any
from typing import TypeVar

if TYPE_CHECKING:
    from concurrent.futures import Future
    from concurrent.futures import ProcessPoolExecutor

T = TypeVar("T")

CORES = min(os.cpu_count() or 1, 8)


def can_fork() -> bool:
    return "fork" in mp.get_all_start_methods()


@contextmanager
def forked_pool(workers: int = CORES) -> Iterator[ProcessPoolExecutor]:
    from concurrent.futures import ProcessPoolExecutor  # (slow to import: only for a run that forks)

    with ProcessPoolExecutor(workers, mp_context=mp.get_context("fork")) as pool:
        yield pool


def _run_chunk(fn: Callable[[int], T], start: int, stop: int) -> list[T]:
    return [fn(index) for index in range(start, stop)]


def in_file_order(pool: ProcessPoolExecutor, fn: Callable[[int], T], count: int, chunksize: int,
                  window: int = 2 * CORES) -> Iterator[T]:
    """fn(0) ... fn(count - 1) on the pool's workers, yielded in that order, with only a few chunks queued at a
    time: a caller that stops early (a budget crossed) leaves only the chunks already running to finish.
    Executor.map queues every chunk at once, and its workers went on parsing after the parent had exited,
    holding the parent's stdout open (a test's `subprocess.run` waited 30 minutes for them). `window` chunks
    queued (two a worker) keep every worker busy."""
    starts = iter(range(0, count, chunksize))
    queued: deque[Future[list[T]]] = deque()
    try:
        for start in starts:
            queued.append(pool.submit(_run_chunk, fn, start, min(start + chunksize, count)))
            if len(queued) >= window:
                yield from queued.popleft().result()
        while queued:
            yield from queued.popleft().result()
    finally:
        for future in queued:
            future.cancel()


_WORK: Callable[[int], Any] | None = None  # what the workers run: set in the parent just before the pool forks


def _run(index: int) -> Any:
    assert _WORK is not None
    return _WORK(index)


def on_every_core(work: Callable[[int], T], count: int, chunksize: int = 4) -> Generator[T, None, None]:
    """`work(0)`, ..., `work(count - 1)` in forked workers, one per core, the results in order.

    `work` is never sent: the workers inherit it through fork with everything it reads (a closure over
    the loaded workspace is fine), so only an index goes out and a result comes back."""
    global _WORK
    _WORK = work
    try:
        with forked_pool() as pool:
            # a caller that stops early (a budget passed) closes this generator: the chunks not started are dropped
            yield from in_file_order(pool, _run, count, chunksize)
    finally:
        _WORK = None
