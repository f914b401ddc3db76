"""Test cases in parallel: one Flink runner per worker, each case run by whichever worker is free.

A runner on flinkx's driver is a JVM of its own with its own MiniCluster (`driver_run.py`), so two
workers share nothing: no JVM-wide registry (collected rows, timelines, metrics) sees another
worker's job, and a case runs and reports exactly as it would alone. The runs come back in the
order of the cases, so a report does not depend on which worker was faster. One worker per core
(`os.cpu_count()`), never more than there are cases.
"""
from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from collections.abc import Sequence
from typing import Any


def worker_count(cases: int, parallel: bool) -> int:
    """How many runners a run of `cases` cases uses: one per core when its runner can be had twice."""
    return max(1, min(cases, os.cpu_count() or 1)) if parallel else 1


def run_cases(jobs: Sequence[tuple[Any, Any]], open_runner: Callable[[], Any], workers: int,
              progress: Callable[[str], None], deadline: float | None = None) -> list[Any]:
    """Each (case, script) of `jobs` run by one of `workers` runners, each opened for its worker's first case
    and closed at the end; the runs in the order of `jobs`. Past `deadline` (time.monotonic()) no case starts:
    its run and every later one's is None (cases start in order, so those are the last). An error a runner
    raises (Flink unavailable, the JVM died) stops the other workers after their current case and is raised
    here."""
    runs: list[Any] = [None] * len(jobs)
    pending = iter(range(len(jobs)))
    lock = threading.Lock()
    errors: list[BaseException] = []

    def take() -> int | None:
        with lock:
            if errors or (deadline is not None and time.monotonic() > deadline):
                return None
            return next(pending, None)

    def work() -> None:
        index = take()
        if index is None:
            return
        try:
            with open_runner() as runner:
                while index is not None:
                    case, script = jobs[index]
                    progress(f"running {case.task}: {case.name}")
                    runs[index] = runner.run(case, script)
                    index = take()
        except BaseException as exc:  # raised again in the caller's thread
            with lock:
                errors.append(exc)

    threads = [threading.Thread(target=work, name=f"flinkx-test-{n}", daemon=True) for n in range(1, workers)]
    for thread in threads:
        thread.start()
    work()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return runs
