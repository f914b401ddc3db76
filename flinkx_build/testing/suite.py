"""A whole `flinkx test` run: find and bind the cases, run them on the target's drivers, judge them."""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any
from typing import Callable

from flinkx_build.errors import Diagnostic
from flinkx_build.errors import UsageError
from flinkx_build.errors import did_you_mean
from flinkx_build.pipeline import Session
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.testing.bind import TestCase
from flinkx_build.testing.bind import bind_cases
from flinkx_build.testing.compare import compare
from flinkx_build.testing.compare import late_notes
from flinkx_build.testing.compare import point_verdicts
from flinkx_build.testing.driver_run import DriverTestRunner
from flinkx_build.testing.fixtures import RawCase
from flinkx_build.testing.fixtures import read_cases
from flinkx_build.testing.pool import run_cases
from flinkx_build.testing.pool import worker_count
from flinkx_build.testing.report import CaseResult


@dataclass
class Suite:
    """The selected cases, bound, with the sessions (one per mode) that compile their tasks."""

    cases: list[TestCase]
    raw: dict[str, RawCase]
    sessions: dict[str, Session]
    diagnostics: list[Diagnostic]


def _select(cases: list[RawCase], selectors: tuple[str, ...]) -> list[RawCase]:
    """PROJECT/TASK, PROJECT, or a test's name; each must match something."""
    if not selectors:
        return cases
    chosen = []
    for selector in selectors:
        wanted = selector.strip().removesuffix(".sql")
        hits = [c for c in cases if wanted in (c.task, c.name, c.task.split("/")[0])]
        if not hits:
            options = sorted({c.task for c in cases} | {c.name for c in cases})
            hint = did_you_mean(wanted, options)
            raise UsageError(f"--select {selector}: no test for it" + (f" ({hint})" if hint else ""))
        chosen += [c for c in hits if c not in chosen]
    return chosen


def load_suite(session: Session, selectors: tuple[str, ...] = (), use_cache: bool = True) -> Suite:
    ws = session.workspace
    raw_cases, diags = read_cases(ws, use_cache)
    selected = _select(raw_cases, selectors)
    paths = {c.loc.path for c in selected}
    with_cases = {c.loc.path for c in raw_cases}
    # a file that could not be read at all is everybody's problem; otherwise only the selected
    diags = [d for d in diags if d.path in paths or d.path not in with_cases]
    sessions = {session.mode: session}
    tasks = {t.key: t for t in ws.all_tasks()}

    def resolve(raw: RawCase) -> tuple[AnalysedTask | None, str]:
        task = tasks.get(raw.task)
        if task is None:
            return None, did_you_mean(raw.task, tasks)
        mode = raw.mode or session.mode
        if mode not in sessions:
            sessions[mode] = Session.open(ws.root, mode, use_cache)
        return sessions[mode].analysed(sessions[mode].workspace.projects[task.project].tasks[task.name]), ""

    cases, bind_diags = bind_cases(selected, raw_cases, resolve, session.mode)
    diags += bind_diags
    for case in cases:  # a task that does not build cannot be tested: its own errors say why
        resolved, _ = resolve(next(c for c in selected if c.name == case.name))
        if resolved is not None:
            diags += [d for d in resolved.diagnostics if d.is_error]
    return Suite(cases, {c.name: c for c in selected}, sessions, diags)


def open_runner(flink_version: str, timeout: float) -> DriverTestRunner:
    """One worker's runner: a driver child on the target's own jars. FlinkUnavailable when it cannot start here."""
    return DriverTestRunner(flink_version, timeout)


def run_suite(suite: Suite, timeout: float, progress: Callable[[str], None] = lambda _: None,
              max_time: float | None = None, opener: Callable[[], Any] | None = None) -> list[CaseResult]:
    """Every case, in parallel on one driver per core (testing/pool.py), judged and reported in their order.
    Past `max_time` seconds (`--max-time`) no case starts, and the first one left is one FX315 error that counts
    the rest: a workspace with thousands of slow cases cannot hold a CI job. `opener`: where a worker's runner
    comes from instead of `open_runner` (the benchmark keeps warm ones)."""
    flink_version = next(iter(suite.sessions.values())).workspace.config.flink_version
    deadline = None if max_time is None else time.monotonic() + max_time
    jobs = []
    for case in suite.cases:  # compiled here, in one thread: the sessions are not shared between workers
        session = suite.sessions[case.mode]
        project, _, name = case.task.partition("/")
        jobs.append((case, session.compiled(session.workspace.projects[project].tasks[name])))
    workers = worker_count(len(jobs), True)
    runs = run_cases(jobs, opener or (lambda: open_runner(flink_version, timeout)), workers,
                     progress, deadline)
    results = []
    for index, ((case, _), run) in enumerate(zip(jobs, runs)):
        if run is None:  # not started: the deadline had passed (the cases left are the last ones)
            left = len(jobs) - index - 1
            results.append(CaseResult(case.name, case.task, case.mode, case.loc.path, case.loc.line, "error", 0.0,
                                      error=f"FX315 the run passed --max-time ({max_time:g} s): this case and {left} "
                                            "more did not run (raise --max-time, or --select fewer tests)",
                                      col=case.loc.col))
            break
        results.append(judge(case, run))
    return results


def judge(case: TestCase, run: Any) -> CaseResult:
    """A case's result from its run: the verdicts at its timeline's points and at the end."""
    verdicts = [] if run.error else point_verdicts(case, run) + [
        compare(e, run.written.get(e.table.key, [])) for e in case.expect]
    status = "error" if run.error else "pass" if all(v.ok for v in verdicts) else "fail"
    return CaseResult(case.name, case.task, case.mode, case.loc.path, case.loc.line, status, run.seconds, verdicts,
                      run.error, case.loc.col, late_notes(getattr(run, "late", {})))
