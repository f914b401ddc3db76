"""The `flinkx` command line: one module per command under `commands/`.

Exit codes: 0 clean, 1 findings, 2 usage or environment problems.
Streams, colour and -q/-v: see `commands/console.py`.
"""
from __future__ import annotations

import os
import sys

import click

from flinkx_build import __version__
from flinkx_build.commands.console import NORMAL
from flinkx_build.commands.console import QUIET
from flinkx_build.commands.console import VERBOSE
from flinkx_build.commands.console import echo_error
from flinkx_build.commands.console import echo_findings
from flinkx_build.commands.console import echo_result
from flinkx_build.commands.console import echo_summary
from flinkx_build.commands.console import set_verbosity
from flinkx_build.commands.stop_output import MACHINE_FORMATS
from flinkx_build.commands.stop_output import requested_format
from flinkx_build.commands.stop_output import stop_document
from flinkx_build.credentials import mask_text
from flinkx_build.errors import UsageError
from flinkx_build.errors import WorkspaceErrors
from flinkx_build.errors import did_you_mean
from flinkx_build.process_tricks import collector_for
from flinkx_build.process_tricks import collector_off_until_known
from flinkx_build.process_tricks import leave


class _Group(click.Group):
    """Turns flinkx's own exceptions into one-line messages and exit codes, and loads
    each command's module only when that command runs (`COMMANDS`).

    Importing every command would import sqlfluff, networkx and the whole
    pipeline before the arguments are read, on every run: most of a
    `flinkx build` that has nothing to do (click's "lazy group").
    """

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return _load_command(cmd_name)

    def resolve_command(self, ctx: click.Context, args: list[str]):
        name = args[0] if args else ""
        if args and not name.startswith("-") and _load_command(name) is None and not ctx.resilient_parsing:
            hint = did_you_mean(name, COMMANDS)
            ctx.fail(f"No such command {name!r}." + (f" ({hint})" if hint else ""))
        global _invoked, _format
        resolved = super().resolve_command(ctx, args)
        _invoked = resolved[0]
        _format = requested_format(args[1:], resolved[1])
        collector_for(_invoked, args)
        if _invoked in WARM_UP and not ctx.resilient_parsing and not {"-h", "--help"} & set(args) and _names_files(args[1:]):
            from flinkx_build.frontend import worker
            from flinkx_build.lint.rule_worker import warm_up_rules  # (a module without sqlfluff)

            worker.start_early(warm_up_rules)
        return resolved

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except WorkspaceErrors as exc:
            if not _stop_document(exc.diagnostics, None):
                echo_findings(exc.diagnostics)
            errors = sum(d.is_error for d in exc.diagnostics)
            echo_summary(f"flinkx: {errors} error(s), {len(exc.diagnostics) - errors} warning(s)", ok=False)
            sys.exit(1)
        except UsageError as exc:
            _stop_document([], f"flinkx: error: {exc}")
            echo_error(f"flinkx: error: {exc}")
            sys.exit(2)
        except click.ClickException as exc:  # a bad option or argument: click says it on stderr, exit 2
            _stop_document([], f"flinkx: error: {exc.format_message()}")
            raise
        except (click.exceptions.Exit, click.exceptions.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            echo_error("flinkx: interrupted")
            sys.exit(2)
        except Exception as exc:  # never show a user a traceback
            if os.environ.get("FLINKX_DEBUG"):
                raise
            # the exception's text may quote user input: never a credential's value
            message = mask_text(f"flinkx: internal error: {type(exc).__name__}: {exc} (set FLINKX_DEBUG=1 for the traceback)")
            _stop_document([], message)
            echo_error(message)
            sys.exit(2)
        finally:
            worker = sys.modules.get("flinkx_build.frontend.worker")  # imported only by a run that forks one
            if worker is not None:
                worker.close_early()


def _stop_document(diags: list, error: str | None) -> bool:
    """With a machine format, the document that stands for the command's own (`commands/stop_output.py`)."""
    if _format not in MACHINE_FORMATS:
        return False
    echo_result(stop_document(_format, diags, error))
    return True


def _verbosity_callback(level: int):
    def callback(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
        if value:
            set_verbosity(ctx, level)

    return callback


def verbosity_options() -> list[click.Option]:
    """-q/--quiet and -v/--verbose, accepted before or after the command name (ruff and sqlfluff accept both)."""
    return [
        click.Option(["-q", "--quiet"], is_flag=True, expose_value=False, callback=_verbosity_callback(QUIET),
                     help="Print findings and errors only: no summary line."),
        click.Option(["-v", "--verbose"], is_flag=True, expose_value=False, callback=_verbosity_callback(VERBOSE),
                     help="Also print progress and timings (on stderr)."),
    ]


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="flinkx")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Build, lint, graph and validate Dataphin-style Flink SQL workspaces.

    Findings go to stdout, summaries to stderr; colour only on a terminal
    and never with NO_COLOR set. Exit codes: 0 clean, 1 findings, 2 usage
    or environment problems.
    """
    if not isinstance(ctx.obj, dict):
        ctx.obj = {"verbosity": NORMAL}


main.params.extend(verbosity_options())


# Each command is the `command` of the module of the same name under flinkx_build/commands/
# (tests/cli/test_lazy_commands.py checks this list against the modules).
COMMANDS = ("build", "deploy", "docs", "explain", "fix", "graph", "impact", "lineage", "lint", "lsp", "test", "upgrade-check", "validate")


def _load_command(name: str) -> click.Command | None:
    """The command, or None when it is unknown or its optional extra is not installed."""
    import importlib

    if name not in COMMANDS:
        return None
    # sqlfluff imports pytest when it is installed (to rewrite its test helpers' asserts), a
    # cost to every command that parses. A flinkx process runs no tests, so hide it from that import;
    # under pytest (in-process CLI tests) it is already imported and stays as it is.
    sys.modules.setdefault("pytest", None)  # type: ignore[arg-type]
    try:
        module = importlib.import_module(f"flinkx_build.commands.{name.replace('-', '_')}")
    except ModuleNotFoundError as exc:
        if (exc.name or "").startswith("flinkx_build"):
            raise  # our own bug: never hide it behind "no such command"
        return None  # an optional extra that is not installed
    command = getattr(module, "command", None)
    if not isinstance(command, click.Command):
        return None
    known = {opt for p in command.params for opt in getattr(p, "opts", [])}
    if not known & {"-q", "-v", "--quiet", "--verbose"}:
        command.params.extend(verbosity_options())
    return command


# Commands that hold nothing outside the process when they return (no JVM gateway, no cluster
# session, no server): after them the process may leave without tearing its heap down.
FAST_EXIT = frozenset({"build", "explain", "fix", "graph", "impact", "lineage", "lint"})
# Commands whose parser process is forked the moment the command is known, while its modules are
# imported and the workspace loads (`frontend/worker.py`): lint of named files waits for sqlfluff
# (import, rules, then the pass), so every moment counts; a replayed lint kills it unused. A build
# forks its own only after its run memo misses (forking earlier measured no faster), and sends it
# the tasks edited since the last build once the projects are read (`workspace_build/early_parse.py`).
# A lint of a whole workspace (no file named) has no use for it: its rule passes go to one
# worker per core, and the process would only take CPU from the load.
WARM_UP = frozenset({"lint"})
_invoked: str | None = None
_format = ""  # the invoked command's --format


def _names_files(args: list[str]) -> bool:
    return any(not arg.startswith("-") and os.path.isfile(arg) for arg in args)


def run() -> None:
    """The console script and `python -m flinkx_build`: `main`, then, after the commands in
    FAST_EXIT, `os._exit` once the output is flushed.

    A build of 1,000 tasks ends holding about a million objects; freeing them one by one on the
    way out was a visible share of the build. mypy leaves the same way. In-process callers (tests, the
    language server) call `main`, which exits normally.
    """
    collector_off_until_known()  # the process-wide settings and their measured wins: `process_tricks.py`
    try:
        main()
        code: object = 0
    except SystemExit as exc:
        code = exc.code
    if _invoked not in FAST_EXIT:
        sys.exit(code)
    leave(code)
