"""`flinkx fix`: apply the FX rules' safe fixes in place, then report what is left."""
from __future__ import annotations

from pathlib import Path

import click

from flinkx_build.commands.common import open_session
from flinkx_build.commands.lint import paths_argument
from flinkx_build.commands.lint import report
from flinkx_build.commands.lint import split_paths
from flinkx_build.lint.formats import FORMATS
from flinkx_build.lint.run import lint_workspace


@click.command("fix")
@paths_argument
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="human", help="Output format of what remains.")
def command(paths: tuple[Path, ...], fmt: str) -> None:
    """Fix [WORKSPACE] [FILES...] in place; every byte a fix does not touch stays as it was."""
    workspace, files = split_paths(paths)
    session = open_session(workspace)
    _, fixed = lint_workspace(session, files, fix=True)
    for task, text in fixed:
        task.path.write_text(text, encoding="utf-8")
        click.echo(f"fixed {task.display_path}", err=True)
    if fixed:
        session = open_session(workspace)  # re-read what was written
    diags, _ = lint_workspace(session, files)
    report(diags, fmt)
