"""`flinkx lint`: sqlfluff's FX rules plus the workspace checks."""
from __future__ import annotations

from pathlib import Path

import click

from flinkx_build.commands.common import open_session
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import UsageError
from flinkx_build.lint.formats import FORMATS
from flinkx_build.lint.formats import render
from flinkx_build.lint.run import lint_workspace
from flinkx_build.load.workspace import find_workspace

paths_argument = click.argument("paths", nargs=-1, type=click.Path(path_type=Path))


def group_paths(paths: tuple[Path, ...]) -> list[tuple[Path, list[Path]]]:
    """[WORKSPACE] [FILES...] -> (workspace, files) pairs.

    A leading folder is the workspace (all of it when no files follow). Files
    are grouped by the workspace they live in (the nearest flinkx.yaml above
    them), so one pre-commit call may carry files of several workspaces, and
    each is linted with its own workspace as context.
    """
    items = list(paths)
    if items and items[0].is_dir():
        if len(items) == 1:
            return [(items[0], [])]
        items = items[1:]
    if not items:
        return [(Path("."), [])]
    groups: dict[Path, list[Path]] = {}
    for item in items:
        if not item.exists():
            raise UsageError(f"{item}: no such file")
        groups.setdefault(find_workspace(item.parent), []).append(item)
    return sorted(groups.items())


def lint_groups(paths: tuple[Path, ...], fix: bool = False) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    for workspace, files in group_paths(paths):
        session = open_session(workspace)
        found, fixed = lint_workspace(session, files, fix=fix)
        if fixed:
            for task, text in fixed:
                task.path.write_text(text, encoding="utf-8")
                click.echo(f"fixed {task.display_path}", err=True)
            found, _ = lint_workspace(open_session(workspace), files)  # what is left
        diags.extend(found)
    return diags


def report(diags: list[Diagnostic], fmt: str) -> None:
    text = render(diags, fmt)
    if text:
        click.echo(text)
    errors = sum(d.is_error for d in diags)
    warnings = len(diags) - errors
    if fmt == "human":
        summary = "clean" if not diags else f"{errors} error(s), {warnings} warning(s)"
        click.echo(f"flinkx: {summary}", err=True)
    if errors:
        raise SystemExit(1)


@click.command("lint")
@paths_argument
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="human", help="Output format.")
def command(paths: tuple[Path, ...], fmt: str) -> None:
    """Lint [WORKSPACE] [FILES...]: every file, or only FILES with their whole workspace as context."""
    report(lint_groups(paths), fmt)
