"""lint's engine of record: each checked task planned on its target's real planner (FX301).

When Java and the target's jars are here (lint never downloads: `flinkx validate` does that once),
every task without an error finding is planned on the warm planner service
(`planner/service.py`), and the planner's errors become FX301 at the Dataphin source token
(`compile/flink_findings.py`). A finding another check already made at the same place is not repeated.
Verdicts are cached by content: the compiled script and the target's Flink release, in this code
version's cache folder, through the signed cache entries, so an unchanged task is never planned twice. Without a planner lint
says once what it could not run (`PlannerPass.note`) and the rest of lint is unchanged.

Tasks are planned on as many conversations at once as `planner.process.workers()` says (one a core), while lint
goes on checking the next tasks: `submit` hands a task over and gives back a call that waits for its findings.
A task's verdict does not depend on which conversation planned it (each is planned in a TableEnvironment of its
own), and lint sorts its findings, so a parallel lint says what a serial one says, in the same order.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from flinkx_build.compile.flink_findings import diagnostic_for
from flinkx_build.compile.flink_findings import undeclared_function
from flinkx_build.engines import engine as engine_named
from flinkx_build.errors import Diagnostic
from flinkx_build.hashing import canonical_hash
from flinkx_build.incremental.facts import PLANNER_ACCEPTED
from flinkx_build.incremental.facts import PLANNER_VERDICT
from flinkx_build.incremental.store import FactStore
from flinkx_build.noqa import suppressed
from flinkx_build.pipeline import Session
from flinkx_build.planner import LINT_CODE
from flinkx_build.planner import STOPPED_CODE
from flinkx_build.planner import FlinkUnavailable
from flinkx_build.planner.process import BUDGET_ENV
from flinkx_build.planner.process import Planner
from flinkx_build.planner.process import workers
from flinkx_build.planner.protocol import did_not_finish
from flinkx_build.planner.session import open_planner
from flinkx_build.planner.session import planner_problem
from flinkx_build.planner.session import target_or_problem
from flinkx_build.validate.contract import FlinkFinding
from flinkx_build.validate.contract import ScriptToValidate
from flinkx_build.workspace_model import Task

CODE = LINT_CODE
_STOPPED_HINT = ("simplify the statement (fewer joined tables, or no SET that enables join reordering); "
                 f"${BUDGET_ENV} raises the budget on a slow machine")
# (version 2 of the verdict: a finding keeps the function it is about, so FX142's notes are dropped after a cache read too)
# the tasks the planner accepted, by summary key and mode, are one entry read once a run; past this
# many keys (about 70 bytes each) the oldest go: a build re-adds the workspace's own tasks when it plans them
CLEAN_LIMIT = 50_000


@dataclass
class PlannerPass:
    """One lint run's use of the planner: opened on the first task the cache does not answer."""

    session: Session
    warm: bool = True
    fetch: bool = False  # lint never downloads a target's jars; upgrade-check, asked about a version, may
    note: str = ""  # what could not run and why (said once, on stderr, by the command)
    planned: int = 0  # tasks sent to the planner
    cached: int = 0  # verdicts read from the cache
    _idle: list[Planner] = field(default_factory=list)  # open conversations no task is using
    _opened: list[Planner] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _pool: ThreadPoolExecutor | None = None
    _problem: str | None = None
    _clean: dict[str, None] | None = None  # keys of the tasks the planner accepted (`_accepted_key`), oldest first
    _clean_changed: bool = False

    def findings(self, task: Task, found: list[Diagnostic]) -> list[Diagnostic]:
        """FX301 for `task`, given the findings lint already has for it."""
        return self.submit(task, found)()

    def submit(self, task: Task, found: list[Diagnostic]) -> Callable[[], list[Diagnostic]]:
        """Start planning `task` (compiled here, planned on a worker thread) and give back the call that waits
        for its FX301 findings: lint checks the next tasks meanwhile."""
        # asked first: the answer is "nothing to say" either way, and it needs no resolving (a build of 10,000
        # tasks after a table's edit resolved each to ask the second, and kept the analyses: 35 s and 1.6 GB)
        if self.accepted_before(task):
            self.cached += 1
            return list
        if not self._planned_here(task, found):
            return list
        script = self.session.compiled(task)
        to_check = ScriptToValidate(script.key, task.display_path, tuple(script.statements), tuple(script.udfs),
                                    self.session.mode)
        target = target_or_problem(self.session.workspace.config.flink_version)
        if isinstance(target, str):
            return list  # not reached: _planned_here asked planner_problem, which names this first
        verdict = self._stored_verdict(to_check, target.release)
        pending: Future[list[FlinkFinding] | None] = Future()
        if verdict is not None:
            pending.set_result(verdict)
        else:
            pending = self._workers().submit(self._verdict, to_check, target.release)
        return lambda: self._diagnostics(task, script, found, pending.result())

    def _diagnostics(self, task: Task, script: Any, found: list[Diagnostic],
                     verdict: list[FlinkFinding] | None) -> list[Diagnostic]:
        if verdict is None:
            return []
        if not verdict:
            self._remember_clean(task)
        version = self.session.workspace.config.flink_version
        # said only where no shape of Flink's message names the fix (compile/flink_messages.py)
        hint = f"Flink {version}'s planner rejects it (flink_version in flinkx.yaml): fix what its message names"
        if any(did_not_finish(f) for f in verdict):  # fails closed: one error for the task, never "clean"
            return [diagnostic_for(script, verdict[0], task.display_path, STOPPED_CODE, _STOPPED_HINT)]
        places = {(d.path, d.line, d.col) for d in found}
        out = []
        for finding in verdict:
            if undeclared_function(script, finding):
                continue  # FX142 (a warning) says what could not be planned
            diag = diagnostic_for(script, finding, task.display_path, CODE, hint)
            if (diag.path, diag.line, diag.col) in places:
                continue  # another check already speaks about this token
            if diag.path != task.display_path or not suppressed(task.text, diag):
                out.append(diag)
        return out

    def _workers(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=workers(), thread_name_prefix="flinkx-planner")
        return self._pool

    def accepted_before(self, task: Task) -> bool:
        """Whether the target's planner already accepted this task with exactly these inputs: asked
        without compiling or resolving (a build asks it of the tasks whose summary is cached). The
        task's summary key covers every input of its compiled script and declared functions."""
        key = self._accepted_key(task)
        return key is not None and key in self._clean_index()

    def _planned_here(self, task: Task, found: list[Diagnostic]) -> bool:
        ws = self.session.workspace
        if not engine_named(ws.config.engine).apache_flink:
            return False
        # a task with an error is not planned, as the build does not plan what it cannot compile: the planner
        # would only say again, at another column, what a fast check already said (one finding per root cause)
        if any(d.is_error for d in found) or self.session.reads_broken_yaml(self.session.analysed(task)):
            return False
        return self._usable()

    def _usable(self) -> bool:
        if self._problem is None:
            problem = planner_problem(self.session.workspace.config.flink_version, fetch=self.fetch)
            self._problem = problem or ""
            if problem:
                self.note = f"the planner check ({CODE}) did not run: {problem}"
        return not self._problem

    def _stored_verdict(self, script: ScriptToValidate, release: str) -> list[FlinkFinding] | None:
        stored = FactStore(self.session.cache.root).get(PLANNER_VERDICT, verdict_key(script, release))
        found = _from_json(script.key, stored) if isinstance(stored, list) else None
        if found is not None:
            with self._lock:
                self.cached += 1
        return found

    def _verdict(self, script: ScriptToValidate, release: str) -> list[FlinkFinding] | None:
        """Plan `script` on a conversation of its own (a worker thread's); None when no planner could start."""
        verdict = None
        for _attempt in range(2):
            planner = self._take()
            if planner is None:
                return verdict  # could not (re)start: said once in the note; a task already stopped keeps its FX306
            verdict = planner.validate(script)
            with self._lock:
                self.planned += 1
            if not any(did_not_finish(f) for f in verdict):
                self._give(planner)
                FactStore(self.session.cache.root).put(PLANNER_VERDICT, verdict_key(script, release),
                                                       [_to_json(f) for f in verdict])
                return verdict
            # not cached: the task was not judged. The driver is gone or stopped this task's planning; a fresh
            # one plans the next task. A driver that ended under another run's task (or another of this run's
            # conversations) gets this task once more. The idle conversations spoke to the same driver: gone too.
            self._discard(planner)
            if any(f.extra.get("budget") for f in verdict):
                break
        return verdict

    def _take(self) -> Planner | None:
        """An open conversation no other task is using, opened when there is none."""
        with self._lock:
            if self._idle:
                return self._idle.pop()
            if self._problem:
                return None
        try:
            planner = open_planner(self.session.workspace.config.flink_version, fetch=self.fetch, warm=self.warm)
        except FlinkUnavailable as exc:
            with self._lock:
                self._problem = str(exc)
                self.note = f"the planner check ({CODE}) did not run: {exc}"
            return None
        with self._lock:
            self._opened.append(planner)
        return planner

    def _discard(self, planner: Planner) -> None:
        with self._lock:
            gone, self._idle = [planner, *self._idle], []
            self._opened = [p for p in self._opened if p not in gone]
        for each in gone:
            each.close()

    def _give(self, planner: Planner) -> None:
        with self._lock:
            self._idle.append(planner)

    def _clean_entry(self) -> tuple[FactStore, str] | None:
        target = target_or_problem(self.session.workspace.config.flink_version)
        root = self.session.cache.root
        if isinstance(target, str) or root is None:
            return None
        return FactStore(root), canonical_hash([PLANNER_ACCEPTED.format, PLANNER_ACCEPTED.version, target.release])

    def _clean_index(self) -> dict[str, None]:
        if self._clean is None:
            entry = self._clean_entry()
            stored = entry[0].get(PLANNER_ACCEPTED, entry[1]) if entry is not None else None
            self._clean = dict.fromkeys(h for h in stored if isinstance(h, str)) if isinstance(stored, list) else {}
        return self._clean

    def _accepted_key(self, task: Task) -> str | None:
        summary_key = self.session.summary_key(task)
        return canonical_hash([self.session.mode, summary_key]) if summary_key else None

    def _remember_clean(self, task: Task) -> None:
        key = self._accepted_key(task)
        if key is None:
            return
        index = self._clean_index()
        index.pop(key, None)  # to the end: the newest survive the limit
        index[key] = None
        self._clean_changed = True

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        if self._clean_changed and self._clean is not None:
            entry = self._clean_entry()
            if entry is not None:
                entry[0].put(PLANNER_ACCEPTED, entry[1], list(self._clean)[-CLEAN_LIMIT:])
            self._clean_changed = False
        with self._lock:
            opened, self._opened, self._idle = self._opened, [], []
        for planner in opened:
            planner.close()


def verdict_key(script: ScriptToValidate, release: str) -> str:
    """The planner verdict's key: the compiled statements, the declared functions, the mode and the target's
    release. The cache folder is this code version's already (cache_version.py: every file of the package,
    the driver's Java sources included)."""
    return canonical_hash([PLANNER_VERDICT.format, PLANNER_VERDICT.version, release, script.mode,
                           [(s.text, s.kind) for s in script.statements], [(u.name, u.returns, u.kind) for u in script.udfs]])


def _to_json(finding: FlinkFinding) -> dict[str, Any]:
    return {"line": finding.line, "col": finding.col, "message": finding.message, "phase": finding.phase,
            "index": finding.statement_index, "udf": str(finding.extra.get("udf", ""))}


def _from_json(key: str, data: list[Any]) -> list[FlinkFinding] | None:
    try:
        return [FlinkFinding(key, int(d["line"]), int(d["col"]), str(d["message"]), str(d["phase"]), int(d["index"]),
                             {"udf": str(d["udf"])} if d.get("udf") else {})
                for d in data]
    except (KeyError, TypeError, ValueError):
        return None
