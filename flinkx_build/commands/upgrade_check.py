"""`flinkx upgrade-check --to VERSION`: what moving the workspace to another Flink version breaks."""
from __future__ import annotations

import os
from pathlib import Path

import click

from flinkx_build.commands.common import open_session
from flinkx_build.commands.console import echo_result
from flinkx_build.commands.console import echo_summary
from flinkx_build.commands.planner_switch import NO_PLANNER_ENV
from flinkx_build.errors import UsageError
from flinkx_build.flink_data import ADD_VERSION_DOC
from flinkx_build.flink_data import UnknownFlinkVersion
from flinkx_build.flink_data import facts_for
from flinkx_build.flink_data import unknown_version_message
from flinkx_build.load.root import find_workspace


def target_version(version: str) -> str:
    """The catalog's version for `--to`, or a usage error naming the supported ones."""
    try:
        return facts_for(version).version
    except UnknownFlinkVersion:
        raise UsageError(f"--to: {unknown_version_message(version)}; adding one: {ADD_VERSION_DOC}") from None


@click.command("upgrade-check")
@click.argument("workspace", required=False, default=Path("."), type=click.Path(path_type=Path))
@click.option("--to", "to_version", required=True, help="The Flink version to move to, e.g. 2.3.")
@click.option("--format", "fmt", type=click.Choice(("text", "markdown", "json")), default="text",
              help="text: one finding a line; markdown: a report for a pull request; json.")
@click.option("--no-planner", is_flag=True, help="Do not ask the target's planner (its jars are fetched on first use otherwise).")
def command(workspace: Path, to_version: str, fmt: str, no_planner: bool) -> None:
    """Report, task by task, what moving WORKSPACE from its flink_version to --to breaks: removed
    options, ON CONFLICT, newly reserved words, types and functions, and state that will not
    restore, and what the target's own planner rejects (FX301). Exit 1 when a task breaks.
    `flinkx fix --to VERSION` makes the safe fixes."""
    from flinkx_build.upgrade.render import render  # the pipeline: only for a run that works
    from flinkx_build.upgrade.report import upgrade_report

    version = target_version(to_version)
    root = find_workspace(workspace)
    open_session(root)  # flinkx.yaml errors stop here, as for every command
    report = upgrade_report(root, version, use_planner=not no_planner and not os.environ.get(NO_PLANNER_ENV))
    echo_result(render(report, fmt), nl=False)
    if report.planner_note:
        click.echo(f"flinkx: {report.planner_note}", err=True)
    broken = [t for t in report.tasks if t.breaks]
    echo_summary(f"flinkx: {len(broken)} task(s) break on Flink {report.target}", ok=not broken)
    if broken or any(d.is_error for d in report.other):
        raise SystemExit(1)
