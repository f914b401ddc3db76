"""`flinkx explain PROJECT/TASK`: each table's effective definition and where every value came from."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from flinkx_build.commands.common import echo_diagnostics
from flinkx_build.commands.common import mode_option
from flinkx_build.commands.common import open_session
from flinkx_build.commands.console import echo_result
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import UsageError
from flinkx_build.errors import WorkspaceErrors
from flinkx_build.errors import did_you_mean
from flinkx_build.resolve.explain import explain_data
from flinkx_build.resolve.explain import render_text

if TYPE_CHECKING:
    from flinkx_build.pipeline import Session


def definition_errors(session: Session, task_text: str, project: str) -> list[Diagnostic]:
    """The errors in the YAML a task may take a definition from: a meta table or function that did
    not load is "not found" in the task (or missing from what explain shows), and its own finding
    says why (issue 33).

    Those of the task's own project and of every project whose name the task's text holds (a
    cheap superset of the ones it names; `${var}` projects are rare and named in flinkx.yaml)."""
    projects = {p for p in session.workspace.projects if p == project or p in task_text}
    folders = [session.workspace.projects[p].directory.absolute() for p in projects]
    return [  # (a finding's path is shown relative to the current folder)
        d for d in session.load_diagnostics
        if d.is_error and not d.path.endswith(".sql") and any(Path(d.path).absolute().is_relative_to(f) for f in folders)
    ]


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
    rt = session.analysed(proj.tasks[name])
    upstream = definition_errors(session, proj.tasks[name].text, project)
    if not rt.ok:
        raise WorkspaceErrors(upstream + rt.diagnostics)
    data = explain_data(rt)
    if fmt == "json":  # the findings are part of the document (README, "Machine-readable output")
        from flinkx_build.lint.formats import as_dict

        echo_result(json.dumps({**data, "findings": [as_dict(d) for d in upstream]}, indent=2))
    else:
        echo_result(render_text(data))
        echo_diagnostics(upstream, err=True)  # stdout is the document, as graph's
    if upstream:  # a table the task uses did not load: what is shown lacks it
        raise SystemExit(1)
