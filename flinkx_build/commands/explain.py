"""`flinkx explain PROJECT/TASK`: each table's effective definition and where every value came from."""
from __future__ import annotations

import json
from pathlib import Path

import click

from flinkx_build.commands.common import mode_option
from flinkx_build.commands.common import open_session
from flinkx_build.errors import UsageError
from flinkx_build.errors import WorkspaceErrors
from flinkx_build.errors import did_you_mean
from flinkx_build.resolve.explain import explain_data
from flinkx_build.resolve.explain import render_text


@click.command("explain")
@click.argument("args", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@mode_option
def command(args: tuple[str, ...], fmt: str, mode: str | None) -> None:
    """Show the effective definition of every table PROJECT/TASK uses: [WORKSPACE] PROJECT/TASK."""
    if len(args) > 2:
        raise UsageError("usage: flinkx explain [WORKSPACE] PROJECT/TASK")
    workspace, target = (Path(args[0]), args[1]) if len(args) == 2 else (Path("."), args[0])
    session = open_session(workspace, mode)
    project, _, name = target.partition("/")
    name = name.removesuffix(".sql")
    proj = session.workspace.projects.get(project)
    if proj is None or name not in proj.tasks:
        pool = [t.key for t in session.tasks()]
        hint = did_you_mean(target, pool)
        raise UsageError(f"unknown task '{target}'" + (f" ({hint})" if hint else ""))
    rt = session.resolved(proj.tasks[name])
    if not rt.ok:
        raise WorkspaceErrors(rt.diagnostics)
    data = explain_data(rt)
    click.echo(json.dumps(data, indent=2) if fmt == "json" else render_text(data))
