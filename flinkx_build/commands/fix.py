"""`flinkx fix`: apply the FX rules' safe fixes in place, then report what is left."""
from __future__ import annotations

import difflib
from pathlib import Path

import click

from flinkx_build.commands.console import echo_result
from flinkx_build.commands.console import echo_spans
from flinkx_build.commands.console import echo_summary
from flinkx_build.commands.console import finding_spans
from flinkx_build.commands.lint import code_filter
from flinkx_build.commands.lint import code_options
from flinkx_build.commands.lint import lint_groups
from flinkx_build.commands.lint import paths_argument
from flinkx_build.commands.lint import report
from flinkx_build.lint.formats import FORMATS
from flinkx_build.lint.write import FileFix


def unified_diff(changes: list[FileFix]) -> str:
    """`git diff`-style a/ and b/ headers, so `git apply` and `patch -p1` accept it."""
    out: list[str] = []
    for change in sorted(changes, key=lambda c: c.display_path):
        out.extend(difflib.unified_diff(
            change.before.splitlines(keepends=True), change.after.splitlines(keepends=True),
            fromfile=f"a/{change.display_path}", tofile=f"b/{change.display_path}",
        ))
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in out)


def echo_fixed(changes: list[FileFix], err: bool) -> None:
    """One `fixed path:line:col: CODE message` line per repaired finding (positions before the fix)."""
    echo_spans(([("fixed ", "green"), *finding_spans(diag)]
                for change in sorted(changes, key=lambda c: c.display_path) for diag in sorted(set(change.fixed))), err)


@click.command("fix")
@paths_argument
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="human", help="Output format of what remains.")
@click.option("--diff", "show_diff", is_flag=True, help="Print the fixes as a unified diff and change nothing; exit 1 if there is something to fix.")
@code_options
def command(paths: tuple[Path, ...], fmt: str, show_diff: bool, select: tuple[str, ...], ignore: tuple[str, ...]) -> None:
    """Fix [WORKSPACE] [FILES...] in place; every byte a fix does not touch stays as it was.

    Lists each fix (file:line:col and code), then reports what is left.
    """
    codes = code_filter(select, ignore)
    if show_diff:
        _, changes = lint_groups(paths, fix=True, codes=codes, write=False)
        text = unified_diff(changes)
        if text:
            echo_result(text, nl=False)
        count = sum(len(c.fixed) for c in changes)
        if changes:
            echo_summary(f"flinkx: would fix {count} finding(s) in {len(changes)} file(s)", ok=False)
            raise SystemExit(1)
        echo_summary("flinkx: nothing to fix", ok=True)
        return
    diags, changes = lint_groups(paths, fix=True, codes=codes)
    echo_fixed(changes, err=fmt != "human")  # keep machine-readable stdout parseable
    report(diags, fmt, fixed=sum(len(c.fixed) for c in changes))
