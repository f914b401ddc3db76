"""What the commands print, and where (the CLI's one output convention).

- stdout carries the result: findings (one `path:line:col: CODE message`
  line each) of lint, fix, build and validate, a diff of `fix --diff`, or the
  document of graph, explain and impact.
- stderr carries the rest: the summary line ("flinkx: clean"), progress and
  timings (`-v`), usage and environment errors, and the findings that
  accompany a document (so `flinkx graph --format json > g.json` stays JSON).
- `-q` drops summaries and progress; findings and errors always print.
- Colour comes from rich: on a terminal only, never when piped or when
  `NO_COLOR` is set (rich also honours `FORCE_COLOR` and `TTY_COMPATIBLE`).
  The text is identical with and without colour. Where rich would not
  colour, the line is written as it is and rich is never imported (a visible
  share of every short run: a warm build, a one-file lint).
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import TextIO

import click

from flinkx_build.credentials import mask_variable_values
from flinkx_build.errors import Diagnostic

if TYPE_CHECKING:
    from rich.console import Console

Span = tuple[str, str]  # text, rich style ("" for none)

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
    from rich.console import Console

    # a new Console per call: click's test runner and pre-commit swap sys.stdout
    return Console(file=sys.stderr if err else sys.stdout, highlight=False, markup=False, emoji=False, soft_wrap=True)


def coloured(stream: TextIO) -> bool:
    """Whether rich would treat `stream` as a terminal (its own rule: TTY_COMPATIBLE, FORCE_COLOR, isatty)."""
    compatible = os.environ.get("TTY_COMPATIBLE", "")
    if compatible in ("0", "1"):
        return compatible == "1"
    force = os.environ.get("FORCE_COLOR")
    if force is not None:
        return force != ""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a replaced or closed stream
        return False


def echo_spans(lines: Iterable[Sequence[Span]], err: bool = False) -> None:
    """Lines of styled spans: through rich where it colours, else the plain characters as they are."""
    stream = sys.stderr if err else sys.stdout
    lines = [[(mask_variable_values(text), style) for text, style in spans] for spans in lines]
    if not coloured(stream):
        stream.write("".join("".join(text for text, _ in spans) + "\n" for spans in lines))
        stream.flush()
        return
    from rich.text import Text

    console = console_for(err)
    for spans in lines:
        line = Text()
        for text, style in spans:
            line.append(text, style=style or None)
        console.print(line)


def finding_spans(diag: Diagnostic) -> list[Span]:
    """`diag.format()` with colour spans: the characters are exactly the plain line."""
    spans = [(f"{diag.path}:{diag.line}:{diag.col}:", "bold"), (" ", ""),
             (diag.code, {"error": "bold red", "info": "bold blue"}.get(diag.severity, "bold yellow")),
             (f" {diag.message}", "")]
    if diag.hint:
        spans.append((f" ({diag.hint})", "cyan"))
    return spans


def echo_findings(diags: Iterable[Diagnostic], err: bool = False) -> None:
    """One line per finding, sorted and without repeats; stdout unless `err`."""
    echo_spans((finding_spans(diag) for diag in sorted(set(diags))), err)


def echo_summary(message: str, ok: bool | None = None) -> None:
    """The closing `flinkx: ...` line on stderr (green when ok, red when not); hidden by -q."""
    if verbosity() <= QUIET:
        return
    style = {True: "green", False: "red", None: ""}[ok]
    echo_spans([[(message, style)]], err=True)


def verbose() -> bool:
    """-v was given: `echo_progress` prints."""
    return verbosity() >= VERBOSE


def echo_progress(message: str) -> None:
    """Extra detail on stderr, only with -v."""
    if verbose():
        echo_spans([[(message, "dim")]], err=True)


def echo_error(message: str) -> None:
    """A usage or environment error on stderr (never hidden)."""
    echo_spans([[(message, "bold red")]], err=True)


def echo_result(text: str, nl: bool = True) -> None:
    """A document or machine-readable output on stdout, byte for byte (no colour, no wrapping), but for the values
    of credential-named variables (an identifier written as `${db_password}`), which are masked in every output."""
    click.echo(mask_variable_values(text), nl=nl)
