"""One worker process per core, forked: what a cold load, build and lint run their work in.

The workers inherit the parent's heap (the loaded workspace) through fork, so a
job is an index into what the parent set aside before the pool started, and
workers write nothing but cache entries (atomically).
"""
from __future__ import annotations

import multiprocessing as mp
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

CORES = min(os.cpu_count() or 1, 8)


def can_fork() -> bool:
    return "fork" in mp.get_all_start_methods()


@contextmanager
def forked_pool(workers: int = CORES) -> Iterator[ProcessPoolExecutor]:
    from concurrent.futures import ProcessPoolExecutor  # (slow to import: only for a run that forks)

    with ProcessPoolExecutor(workers, mp_context=mp.get_context("fork")) as pool:
        yield pool
