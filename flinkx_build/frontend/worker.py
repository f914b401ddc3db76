"""A parser process forked before the workspace is loaded.

Importing sqlfluff and building its dialect takes as long as a warm load of a
large workspace. A build that changed one task, or a lint
of one file, needs both: so this process is forked first (by the CLI as soon
as it reads a `lint` command, `start_early`; by `build` once its run memo
missed), while the parent's heap is still small and the fork cheap; it warms
sqlfluff up while the parent imports the pipeline and loads, and the parse or
rule pass of the tasks the caches lack is then sent to it. Jobs and results travel over the
executor's pipes between two processes of the same run (pickle there is
never read from disk).

When a command turns out to need many parses (a cold build), the process is
closed and the work goes to one worker per core instead.
"""
from __future__ import annotations

import multiprocessing as mp
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING
from typing import Any

if TYPE_CHECKING:
    from flinkx_build.frontend.statements import ParsedStatement


def parse_text(job: tuple[str, dict[str, str]]) -> list[ParsedStatement]:
    """A task's statements, parsed (here, so a parser process needs none of the pipeline's modules)."""
    # sqlfluff is imported only when something is parsed: a run served by the caches never needs it
    from flinkx_build.frontend.parse import parse_task_text

    text, context = job
    return [pc.statement for pc in parse_task_text(text, context)]


def warm_parser() -> None:
    """Import sqlfluff and build the dialect: the warm-up of a process that will parse."""
    from flinkx_build.frontend.parse import warm_up

    warm_up()


# What a process does before its first job, handed in by the stage that will use it (a module-level
# function: the executor sends it by name). The front-end knows only its own, `warm_parser`; lint
# passes its rule pass's (`lint/rule_worker.py`), so no import here points up to lint.
WarmUp = Callable[[], None]


def _leave_with_parent(parent: int) -> None:
    """In the process: end when the parent has ended (it may leave by `os._exit`, sending nothing)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


class ParserProcess:
    def __init__(self, pool: ProcessPoolExecutor, pid: Future) -> None:
        self._pool: ProcessPoolExecutor | None = pool
        self._pid = pid
        self._ahead: list[tuple[Callable[[Any], Any], Any, Future]] = []  # (fn, job, its future), not yet taken

    @classmethod
    def start(cls, warm: WarmUp) -> "ParserProcess | None":
        """A process running `warm` first, or None where it cannot be forked safely.

        Only a single-threaded process forks it: a lock another thread holds at the fork (an
        import, a stream) stays locked in the child for good. The command line has one thread;
        a host with more (the language server, a test run with a JVM gateway) parses in-process."""
        if "fork" not in mp.get_all_start_methods() or threading.active_count() > 1:
            return None
        pool = ProcessPoolExecutor(1, mp_context=mp.get_context("fork"), initializer=_leave_with_parent,
                                   initargs=(os.getpid(),))
        pid = pool.submit(os.getpid)  # the executor forks its process on the first job: now
        pool.submit(warm)
        return cls(pool, pid)

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        """The job's future; RuntimeError when the process is closed or has died (then it is closed)."""
        if self._pool is None:
            raise RuntimeError("the parser process is closed")
        try:
            return self._pool.submit(fn, *args)
        except BrokenProcessPool:  # killed (memory, a signal): the caller does the work itself
            self.close()
            raise RuntimeError("the parser process has died") from None

    def submit_ahead(self, fn: Callable[[Any], Any], job: Any) -> None:
        """Start `fn(job)` before the caller knows it will need it; `take_or_submit` collects it."""
        self._ahead.append((fn, job, self.submit(fn, job)))

    def take_or_submit(self, fn: Callable[[Any], Any], job: Any) -> Future:
        """The future of an equal job started ahead (taken: once), else `submit(fn, job)`."""
        for index, (ahead_fn, ahead_job, future) in enumerate(self._ahead):
            if ahead_fn is fn and ahead_job == job:
                del self._ahead[index]
                return future
        return self.submit(fn, job)

    @property
    def waiting_ahead(self) -> int:
        """Jobs started ahead that nobody has taken (yet)."""
        return len(self._ahead)

    @property
    def open(self) -> bool:
        return self._pool is not None

    def close(self) -> None:
        """Stop the process now, even mid-job: it writes nothing, and a warm-up nobody needs
        must not hold up the end of the run."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        try:
            os.kill(self._pid.result(timeout=5), signal.SIGKILL)  # our unreaped child: the pid is still its
        except Exception:  # it never started, or is gone already
            pass
        pool.shutdown(wait=True, cancel_futures=True)


# A process the command line forks as soon as it knows the command (`cli.WARM_UP`), before the
# command's own modules are imported: the command takes it (`take`) or the CLI closes it.
_early: dict[WarmUp, ParserProcess] = {}


def start_early(warm: WarmUp) -> None:
    if warm not in _early:
        process = ParserProcess.start(warm)
        if process is not None:
            _early[warm] = process


def take(warm: WarmUp) -> ParserProcess | None:
    """The process started early for `warm`, else a new one (None where none can be forked)."""
    early = _early.pop(warm, None)
    return early if early is not None and early.open else ParserProcess.start(warm)


def close_early() -> None:
    """Close the early processes no command took."""
    while _early:
        _early.popitem()[1].close()
