"""What the commands print, and where (the CLI's one output convention).

- stdout carries the result: findings (one `path:line:col: CODE message`
  line each) of lint, fix, build and validate, a diff of `fix --diff`, or the
  document of graph, explain and impact.
- stderr carries the rest: the summary line ("flinkx: clean"), progress and
  timings (`-v`), usage and environment errors, and the findings that
  accompany a document (so `flinkx graph --format json > g.json` stays JSON).
- `-q` drops summaries and progress; findings and errors always print.
- Colour comes from rich: on a terminal only, never when piped or when
  `NO_COLOR` is set (rich also honours `FORCE_COLOR`). The text is identical
  with and without colour.
"""
from __future__ import annotations

import sys
from typing import Iterable

import click
from rich.console import Console
from rich.text import Text

from flinkx_build.errors import Diagnostic

QUIET, NORMAL, VERBOSE = -1, 0, 1


def verbosity() -> int:
    """-1 with -q, 1 with -v, else 0 (read from the root click context)."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return NORMAL
    obj = ctx.find_root().obj
    return obj.get("verbosity", NORMAL) if isinstance(obj, dict) else NORMAL


def set_verbosity(ctx: click.Context, level: int) -> None:
    root = ctx.find_root()
    if not isinstance(root.obj, dict):
        root.obj = {}
    root.obj["verbosity"] = level


def console_for(err: bool) -> Console:
    # a new Console per call: click's test runner and pre-commit swap sys.stdout
    return Console(file=sys.stderr if err else sys.stdout, highlight=False, markup=False, emoji=False, soft_wrap=True)


def finding_text(diag: Diagnostic) -> Text:
    """`diag.format()` with colour spans: the characters are exactly the plain line."""
    text = Text()
    text.append(f"{diag.path}:{diag.line}:{diag.col}:", style="bold")
    text.append(" ")
    text.append(diag.code, style={"error": "bold red", "info": "bold blue"}.get(diag.severity, "bold yellow"))
    text.append(f" {diag.message}")
    if diag.hint:
        text.append(f" ({diag.hint})", style="cyan")
    return text


def echo_findings(diags: Iterable[Diagnostic], err: bool = False) -> None:
    """One line per finding, sorted and without repeats; stdout unless `err`."""
    console = console_for(err)
    for diag in sorted(set(diags)):
        console.print(finding_text(diag))


def echo_summary(message: str, ok: bool | None = None) -> None:
    """The closing `flinkx: ...` line on stderr (green when ok, red when not); hidden by -q."""
    if verbosity() <= QUIET:
        return
    style = {True: "green", False: "red", None: ""}[ok]
    console_for(err=True).print(Text(message, style=style))


def echo_progress(message: str) -> None:
    """Extra detail on stderr, only with -v."""
    if verbosity() >= VERBOSE:
        console_for(err=True).print(Text(message, style="dim"))


def echo_error(message: str) -> None:
    """A usage or environment error on stderr (never hidden)."""
    console_for(err=True).print(Text(message, style="bold red"))


def echo_result(text: str, nl: bool = True) -> None:
    """A document or machine-readable output on stdout, byte for byte (no colour, no wrapping)."""
    click.echo(text, nl=nl)
