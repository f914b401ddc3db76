"""The base side of `flinkx impact`, taken in a forked child while the parent takes the head.

The two sides are independent until they are compared, and each is a
load, a thousand summary keys and a thousand cached summaries: on two
cores they overlap. The child checks the revision out, loads it and
computes every task's summary key, and keeps its session and checkout
until the parent is done. A task whose key the head has too has the same
summary, so its facts and graph elements are the head's: the parent names
the others, and only those are summarised in the child (at 1,000 tasks
with one table changed: the handful that read it, instead of reading a
thousand summaries twice). Tables, functions and per-task definitions stay
in the child (pickling every meta table cost more than loading
them): the few a change reaches are asked for one at a time
(`_Fetched`).

Objects cross the pipe as pickles: both ends are this program, forked, and
nothing of it is ever written to disk (the caches stay JSON).
"""
from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any
from typing import NoReturn

from flinkx_build.emit.manifest import task_node
from flinkx_build.errors import UsageError
from flinkx_build.incremental.scheduler import CORES
from flinkx_build.incremental.scheduler import can_fork
from flinkx_build.impact.gitrev import Revision
from flinkx_build.impact.gitrev import checkout
from flinkx_build.impact.snapshot import Snapshot
from flinkx_build.impact.snapshot import add_tasks
from flinkx_build.impact.snapshot import assemble_graph
from flinkx_build.impact.snapshot import bare_definitions
from flinkx_build.impact.snapshot import reuse
from flinkx_build.impact.snapshot import shared_tasks
from flinkx_build.impact.snapshot import static_snapshot
from flinkx_build.process_tricks import collector_off

_DONE = None  # the parent's last message: the child removes its checkout and exits


def can_take_forked() -> bool:
    """A second core, fork, and one thread (a lock another thread holds at the fork stays locked
    in the child: `frontend/worker.py`); otherwise the base is taken in this process, after the head."""
    return CORES > 1 and can_fork() and threading.active_count() == 1


class ForkedSnapshot:
    """The base snapshot, being taken by a child process from the moment this is made.

    Use it as a context manager: leaving the block lets the child remove its
    checkout and exit (at once, with SIGTERM, when the block raised).
    """

    def __init__(self, repo: Path, revision: Revision, prefix: str, shared_cache: Path | None, shown_root: Path) -> None:
        context = mp.get_context("fork")
        self._conn, child_end = context.Pipe()
        # not a daemon: a daemon may not start processes, and a base the caches lack is loaded and
        # summarised on every core. It ends with this process anyway: its pipe's EOF, or `__exit__`.
        self._child = context.Process(target=_serve, args=(child_end, repo, revision, prefix, shared_cache, shown_root),
                                      name="flinkx-impact-base")
        self._child.start()
        child_end.close()  # the child's end lives in the child only: its exit is then an EOF here

    def snapshot(self, head: Snapshot) -> Snapshot:
        """The base snapshot (waits for the child), reusing `head`'s facts of every task whose summary
        key is the same; tables, functions and definitions are fetched when read."""
        snap, table_nodes, function_nodes = self._reply()
        snap.tables = _Fetched(table_nodes, partial(self._ask, "table"))
        snap.functions = _Fetched(function_nodes, partial(self._ask, "function"))
        snap.table_defs = bare_definitions(snap)
        same = shared_tasks(snap, head)
        self._send([node for node in snap.summary_keys if node not in same])
        made, parts = self._reply()
        for node, facts in made.items():
            facts.load_defs = partial(self._ask, "defs", node)
        reuse(snap, head, same, made, parts)
        assemble_graph(snap, list(snap.summary_keys))
        return snap

    def _ask(self, kind: str, node: str) -> Any:
        self._send((kind, node))
        return self._reply()

    def _send(self, message: Any) -> None:
        try:
            self._conn.send(message)
        except OSError:  # the child has gone: say so as a failed reply would
            self._stopped()

    def _reply(self) -> Any:
        try:
            status, value = self._conn.recv()
        except EOFError:
            self._stopped()
        if status == "usage":
            raise UsageError(value)
        if status == "error":
            raise RuntimeError(f"while taking the base revision: {value}")
        return value

    def _stopped(self) -> NoReturn:
        self._child.join(5)
        raise RuntimeError(f"the process taking the base revision stopped (exit code {self._child.exitcode})") from None

    def __enter__(self) -> ForkedSnapshot:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            try:
                self._conn.send(_DONE)
            except OSError:  # the child has gone already
                pass
        self._conn.close()
        if exc_type is not None:
            self._child.terminate()  # the child's SIGTERM handler still removes the checkout
        self._child.join(30)
        if self._child.is_alive():
            self._child.kill()
            self._child.join()


class _Fetched(Mapping):
    """Node ids known at once; each value fetched from the child the first time it is read."""

    def __init__(self, nodes: Iterable[str], fetch: Callable[[str], Any]) -> None:
        self._nodes = dict.fromkeys(nodes)
        self._fetch = fetch
        self._values: dict[str, Any] = {}

    def __getitem__(self, node: str) -> Any:
        if node not in self._values:
            if node not in self._nodes:
                raise KeyError(node)
            self._values[node] = self._fetch(node)
        return self._values[node]

    def __contains__(self, node: object) -> bool:
        return node in self._nodes

    def __iter__(self) -> Iterator[str]:
        return iter(self._nodes)

    def __len__(self) -> int:
        return len(self._nodes)


def _serve(conn, repo: Path, revision: Revision, prefix: str, shared_cache: Path | None, shown_root: Path) -> None:
    """The child: take the snapshot, send its portable part, answer requests until the parent is done."""
    from flinkx_build.pipeline import Session

    # The CLI's fork hook turns the cycle collector back on in every child (`process_tricks.py`), for the
    # workers that parse; this one loads a whole workspace as its parent does, and its full passes
    # are a large share of this child's time, which is impact's critical path.
    collector_off()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # unwinds, so the checkout is removed
    try:
        with checkout(repo, revision, prefix) as folder:
            snap, session = Snapshot(), None
            if folder is not None:
                session = Session.open(folder, use_cache=False, shared_cache=shared_cache)
                snap = static_snapshot(session, shown_root)
            conn.send(("ok", _portable(snap)))
            wanted = conn.recv()
            if wanted is _DONE:
                return
            if session is not None:
                wanted = set(wanted)
                add_tasks(snap, session, shown_root, [t for t in session.tasks() if task_node(t.key) in wanted])
            made = {node: replace(facts, load_defs=dict) for node, facts in snap.tasks.items()}
            conn.send(("ok", (made, snap.task_parts)))
            for request in iter(conn.recv, _DONE):
                conn.send(("ok", _answer(snap, *request)))
    except (EOFError, BrokenPipeError):  # the parent has gone: nothing to tell it
        pass
    except UsageError as exc:
        _send_quietly(conn, ("usage", str(exc)))
    except Exception as exc:  # the parent reports it as an internal error
        if os.environ.get("FLINKX_DEBUG"):
            traceback.print_exc()
        _send_quietly(conn, ("error", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def _portable(snap: Snapshot) -> tuple[Snapshot, list[str], list[str]]:
    """The static snapshot without its tables, functions and definitions (those stay in the child), and their node ids."""
    light = replace(snap, tables={}, functions={}, table_defs={}, tasks={}, task_parts={})
    return light, list(snap.tables), list(snap.functions)


def _answer(snap: Snapshot, kind: str, node: str) -> Any:
    if kind == "table":
        return snap.tables[node]
    if kind == "function":
        return snap.functions[node]
    return snap.tasks[node].defs


def _send_quietly(conn, message: tuple[str, str]) -> None:
    try:
        conn.send(message)
    except OSError:
        pass
