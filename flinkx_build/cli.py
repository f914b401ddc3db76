"""The `flinkx` command line: one module per command under `commands/`.

Exit codes: 0 clean, 1 findings, 2 usage or environment problems.
"""
from __future__ import annotations

import os
import sys

import click

from flinkx_build import __version__
from flinkx_build.errors import UsageError
from flinkx_build.errors import WorkspaceErrors


class _Group(click.Group):
    """Turns flinkx's own exceptions into one-line messages and exit codes."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except WorkspaceErrors as exc:
            for diag in exc.diagnostics:
                click.echo(diag.format(), err=True)
            sys.exit(1)
        except UsageError as exc:
            click.echo(f"flinkx: error: {exc}", err=True)
            sys.exit(2)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("flinkx: interrupted", err=True)
            sys.exit(2)
        except Exception as exc:  # never show a user a traceback
            if os.environ.get("FLINKX_DEBUG"):
                raise
            click.echo(f"flinkx: internal error: {type(exc).__name__}: {exc} (set FLINKX_DEBUG=1 for the traceback)", err=True)
            sys.exit(2)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="flinkx")
def main() -> None:
    """Build, lint, graph and validate Dataphin-style Flink SQL workspaces."""


def _register() -> None:
    """Every module in `commands/` that defines `command` is a subcommand: adding a
    command is adding a module (and an optional extra's missing import skips it)."""
    import importlib
    import pkgutil

    from flinkx_build import commands

    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        try:
            module = importlib.import_module(f"flinkx_build.commands.{info.name}")
        except ImportError:
            continue
        command = getattr(module, "command", None)
        if isinstance(command, click.Command):
            main.add_command(command)


_register()
