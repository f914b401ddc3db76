"""`flinkx test`: run the workspace's task tests (fixture rows in, expected rows out) on Flink."""
from __future__ import annotations

import time
from pathlib import Path

import click

from flinkx_build.commands.common import echo_diagnostics
from flinkx_build.commands.common import open_session
from flinkx_build.commands.common import workspace_argument
from flinkx_build.commands.console import echo_progress
from flinkx_build.commands.console import echo_result
from flinkx_build.commands.console import echo_spans
from flinkx_build.commands.console import echo_summary
from flinkx_build.credentials import mask_variable_values
from flinkx_build.errors import UsageError
from flinkx_build.errors import WorkspaceErrors

TESTED_ENGINES = ("flink", "vvr")


def _flink_problem(flink_version: str) -> str | None:
    """What keeps the workspace's Flink from running tests here, in the words `flinkx validate` uses."""
    from flinkx_build.planner import JAVA_MISSING
    from flinkx_build.planner.session import planner_problem
    from flinkx_build.planner.session import target_or_problem

    target = target_or_problem(flink_version, "test")
    if isinstance(target, str):
        return target
    problem = planner_problem(target.version, fetch=True)
    return f"flinkx test needs Java 17: {problem}" if problem == JAVA_MISSING else problem


@click.command("test")
@workspace_argument
@click.option("--select", "selectors", multiple=True, metavar="PROJECT/TASK",
              help="Only the tests of this task (or project, or test name); repeatable.")
@click.option("--format", "fmt", type=click.Choice(["human", "json", "junit"]), default="human",
              help="Output format (default: human).")
@click.option("--junit-xml", "junit_xml", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write a JUnit XML report to this file.")
@click.option("--timeout", type=float, default=120.0, show_default=True,
              help="Seconds one test's Flink job may run.")
@click.option("--max-time", "max_time", type=click.FloatRange(min=0, min_open=True), default=1800.0, show_default=True,
              help="Seconds the whole run may take: past it no test starts (FX315 for the rest).")
def command(workspace: Path, selectors: tuple[str, ...], fmt: str, junit_xml: Path | None,
            timeout: float, max_time: float) -> None:
    """Run the tests under projects/*/tests/ on the workspace's Flink (its own jars, through flinkx's driver)."""
    from flinkx_build.planner import FlinkUnavailable
    from flinkx_build.testing import report
    from flinkx_build.testing.suite import load_suite
    from flinkx_build.testing.suite import run_suite

    started = time.perf_counter()
    session = open_session(workspace)
    ws = session.workspace
    problem = _flink_problem(ws.config.flink_version)
    if problem:
        raise UsageError(problem)
    if ws.config.engine not in TESTED_ENGINES:
        raise UsageError(f"flinkx test runs Apache Flink SQL; engine '{ws.config.engine}' cannot be tested (use engine flink or vvr)")
    suite = load_suite(session, selectors)
    errors = [d for d in suite.diagnostics if d.is_error]
    if errors:
        raise WorkspaceErrors(errors)
    echo_diagnostics(suite.diagnostics)
    if not suite.cases:
        echo_summary("flinkx: no tests (add them under projects/<project>/tests/*.yaml)", ok=None)
        return
    try:
        results = run_suite(suite, timeout, echo_progress, max_time)
    except FlinkUnavailable as exc:
        raise UsageError(f"flinkx test could not run Flink: {exc}") from None
    elapsed = time.perf_counter() - started
    if fmt == "human":
        _echo_human(report.human(results, elapsed))
    else:
        echo_result(report.FORMATS[fmt](results, elapsed))
    if junit_xml is not None:
        junit_xml.parent.mkdir(parents=True, exist_ok=True)
        junit_xml.write_text(mask_variable_values(report.junit(results, elapsed)), encoding="utf-8")
    failed = any(r.status != "pass" for r in results)
    echo_summary(report.summary(results, elapsed), ok=not failed)
    if failed:
        raise SystemExit(1)


def _echo_human(text: str) -> None:
    """The result lines on stdout; PASS green and FAIL red on a terminal (same characters)."""
    echo_spans([(line, "green" if line.startswith("PASS") else "red" if line.startswith("FAIL") else "")]
               for line in text.splitlines())
