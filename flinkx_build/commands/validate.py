"""`flinkx validate`: run every compiled task through the real Flink planner."""
from __future__ import annotations

import time
from pathlib import Path

import click

from flinkx_build.checks import codes_flink_also_finds
from flinkx_build.commands.common import check_projects
from flinkx_build.commands.common import echo_diagnostics
from flinkx_build.commands.common import mode_option
from flinkx_build.commands.common import open_session
from flinkx_build.commands.common import project_option
from flinkx_build.commands.common import workspace_argument
from flinkx_build.commands.console import echo_progress
from flinkx_build.commands.console import echo_summary
from flinkx_build.commands.progress import compile_with_progress
from flinkx_build.commands.progress import task_progress
from flinkx_build.compile.flink_findings import diagnostic_for
from flinkx_build.compile.flink_findings import undeclared_function
from flinkx_build.compile.script import CompiledScript
from flinkx_build.engines import engine as engine_named
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import UsageError
from flinkx_build.errors import WorkspaceErrors
from flinkx_build.validate.contract import FlinkFinding
from flinkx_build.validate.contract import ScriptToValidate
from flinkx_build.planner import STOPPED_CODE
from flinkx_build.planner.protocol import did_not_finish
from flinkx_build.planner import JAVA_MISSING
from flinkx_build.planner import FlinkUnavailable
from flinkx_build.planner.process import Planner
from flinkx_build.planner.session import java_problem
from flinkx_build.planner.session import open_planner
from flinkx_build.planner.session import target_or_problem
from flinkx_build.targets import Target


def map_finding(script: CompiledScript, finding: FlinkFinding, path_of_compiled: str) -> Diagnostic:
    """A Flink finding at the task's token it came from, else at the YAML entry that generated the DDL."""
    return diagnostic_for(script, finding, path_of_compiled, STOPPED_CODE if did_not_finish(finding) else "FX300")


def open_flink(target: Target, command: str) -> Planner:
    """The target's planner driver, its jars fetched into the user cache on first use (pip's progress on
    stderr); a UsageError (exit 2) that says what is missing when it cannot run here."""
    try:
        return open_planner(target.version, fetch=True)
    except FlinkUnavailable as exc:
        if str(exc) == JAVA_MISSING:
            raise UsageError(f"flinkx {command} needs Java 17: {exc}") from None
        raise UsageError(f"flinkx {command} could not start Flink {target.version}: {exc}") from None


@click.command("validate")
@workspace_argument
@project_option
@mode_option
def command(workspace: Path, projects: tuple[str, ...], mode: str | None) -> None:
    """Check every task of WORKSPACE with the real Apache Flink planner of its flink_version (flinkx's planner
    driver on that version's jars, fetched once into the user cache)."""
    started = time.perf_counter()
    session = open_session(workspace, mode)
    ws = session.workspace
    if not engine_named(ws.config.engine).apache_flink:
        raise UsageError(f"flinkx validate checks Apache Flink SQL; engine '{ws.config.engine}' is not validated (use engine flink or vvr)")
    target = target_or_problem(ws.config.flink_version, "validate")
    if isinstance(target, str):
        raise UsageError(target)
    problem = java_problem(target)
    if problem is not None:  # before compiling: the fix is a JDK
        raise UsageError(f"flinkx validate needs Java 17: {problem}" if problem == JAVA_MISSING else problem)
    selected = check_projects(session, projects)
    built = compile_with_progress(session, selected)
    outputs, diags = built.outputs, built.diagnostics
    tasks = session.tasks(selected)
    # what the semantic checks find, Flink judges too: only errors that stop compiling stop here
    # (but a statement that loads code or a SET outside the allow-list is never handed to Flink)
    semantic = codes_flink_also_finds()
    if any(d.is_error and d.code not in semantic for d in diags):
        raise WorkspaceErrors(diags)
    findings: list[Diagnostic] = []
    flink = open_flink(target, "validate")
    with flink, task_progress() as progress:
        progress.phase("validating", len(tasks))
        for task in tasks:
            progress.advance(task.key)
            script = session.compiled(task)
            echo_progress(f"validating {task.key}")
            compiled_path = outputs[task.key][0] if task.key in outputs else f"{task.project}/{task.name}.sql"
            to_check = ScriptToValidate(script.key, compiled_path, tuple(script.statements), tuple(script.udfs), session.mode)
            for finding in flink.validate(to_check):
                if not undeclared_function(script, finding):  # FX142 says it (a warning)
                    findings.append(map_finding(script, finding, to_check.compiled_path))
    echo_diagnostics(findings)
    elapsed = time.perf_counter() - started
    if findings:
        echo_summary(f"flinkx: Flink rejected {len({f.path for f in findings})} file(s) ({elapsed:.1f} s)", ok=False)
        raise SystemExit(1)
    echo_summary(f"flinkx: Flink accepts all {len(tasks)} tasks ({elapsed:.1f} s)", ok=True)
