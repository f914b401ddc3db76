"""A whole `flinkx test` run: find and bind the cases, run them on one JVM, judge them."""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from typing import Callable

from flinkx_build import targets

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
from flinkx_build.testing.fixtures import RawCase
from flinkx_build.testing.fixtures import read_cases
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


def open_runner(flink_version: str, log_dir: Path, timeout: float, timelines: bool = False) -> Any:
    """Where the cases run: PyFlink for the `flink` extra's Flink (1.20), flinkx's driver on the target's
    own jars for another (2.3) and for timelines (only the driver's stand-ins play one). FlinkUnavailable
    when it cannot start here."""
    target = targets.target(flink_version)
    if target is None or (target.from_extra and not timelines):
        from flinkx_build.testing.run import TestRunner

        return TestRunner(log_dir, timeout)
    from flinkx_build.testing.driver_run import DriverTestRunner

    return DriverTestRunner(target.version, timeout)


def run_suite(suite: Suite, log_dir: Path, timeout: float,
              progress: Callable[[str], None] = lambda _: None, max_time: float | None = None) -> list[CaseResult]:
    """Every case's result; past `max_time` seconds (`--max-time`) no case starts, and the first one left is
    one FX315 error that counts the rest: a workspace with thousands of slow cases cannot hold a CI job."""
    results = []
    flink_version = next(iter(suite.sessions.values())).workspace.config.flink_version
    timelines = any(case.timeline is not None for case in suite.cases)
    deadline = None if max_time is None else time.monotonic() + max_time
    with open_runner(flink_version, log_dir, timeout, timelines) as runner:
        for index, case in enumerate(suite.cases):
            if deadline is not None and time.monotonic() > deadline:
                left = len(suite.cases) - index - 1
                results.append(CaseResult(case.name, case.task, case.mode, case.loc.path, case.loc.line, "error", 0.0,
                                          error=f"FX315 the run passed --max-time ({max_time:g} s): this case and {left} "
                                                "more did not run (raise --max-time, or --select fewer tests)",
                                          col=case.loc.col))
                break
            progress(f"running {case.task}: {case.name}")
            session = suite.sessions[case.mode]
            project, _, name = case.task.partition("/")
            script = session.compiled(session.workspace.projects[project].tasks[name])
            run = runner.run(case, script)
            verdicts = [] if run.error else point_verdicts(case, run) + [
                compare(e, run.written.get(e.table.key, [])) for e in case.expect]
            status = "error" if run.error else "pass" if all(v.ok for v in verdicts) else "fail"
            results.append(CaseResult(case.name, case.task, case.mode, case.loc.path, case.loc.line,
                                      status, run.seconds, verdicts, run.error, case.loc.col,
                                      late_notes(getattr(run, "late", {}))))
    return results
