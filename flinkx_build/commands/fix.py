"""`flinkx fix`: apply the FX rules' safe fixes in place, then report what is left."""
from __future__ import annotations

from pathlib import Path

import click

from flinkx_build.commands.lint import lint_groups
from flinkx_build.commands.lint import paths_argument
from flinkx_build.commands.lint import report
from flinkx_build.lint.formats import FORMATS


@click.command("fix")
@paths_argument
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="human", help="Output format of what remains.")
def command(paths: tuple[Path, ...], fmt: str) -> None:
    """Fix [WORKSPACE] [FILES...] in place; every byte a fix does not touch stays as it was."""
    report(lint_groups(paths, fix=True), fmt)
