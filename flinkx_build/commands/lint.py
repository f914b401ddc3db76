"""`flinkx lint`: sqlfluff's FX rules plus the workspace checks."""
from __future__ import annotations

from pathlib import Path

import click

from flinkx_build.commands.common import open_session
from flinkx_build.errors import UsageError
from flinkx_build.lint.formats import FORMATS
from flinkx_build.lint.formats import render
from flinkx_build.lint.run import lint_workspace
from flinkx_build.load.workspace import display_path
from flinkx_build.load.workspace import find_workspace

paths_argument = click.argument("paths", nargs=-1, type=click.Path(path_type=Path))


def split_paths(paths: tuple[Path, ...]) -> tuple[Path, list[Path]]:
    """[WORKSPACE] [FILES...]: a leading folder is the workspace, else the files' own."""
    items = list(paths)
    if items and items[0].is_dir():
        return items[0], items[1:]
    for item in items:
        if not item.exists():
            raise UsageError(f"{item}: no such file")
    if items:
        roots = {find_workspace(p.parent) for p in items}
        if len(roots) > 1:
            names = ", ".join(sorted(display_path(r) for r in roots))
            raise UsageError(f"the files belong to {len(roots)} workspaces ({names}); lint one workspace at a time")
        return roots.pop(), items
    return Path("."), []


def report(diags, fmt: str) -> None:
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
    """Lint [WORKSPACE] [FILES...]: every file, or only FILES with the whole workspace as context."""
    workspace, files = split_paths(paths)
    session = open_session(workspace)
    diags, _ = lint_workspace(session, files)
    report(diags, fmt)
