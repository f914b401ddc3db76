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
from flinkx_build.errors import UsageError
from flinkx_build.lint.write import FileFix
from flinkx_build.lint.write import write_fixes


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
@click.option("--to", "to_version", help="Make the safe fixes of a move to this Flink version (see flinkx upgrade-check).")
@code_options
def command(paths: tuple[Path, ...], fmt: str, show_diff: bool, select: tuple[str, ...], ignore: tuple[str, ...],
            to_version: str | None) -> None:
    """Fix [WORKSPACE] [FILES...] in place; every byte a fix does not touch stays as it was.

    Lists each fix (file:line:col and code), then reports what is left. With --to VERSION, the
    fixes of a move to that Flink version instead: newly reserved words quoted, removed options
    renamed to their replacement (flinkx_build/upgrade/fixes.py says which are made and why).
    """
    if to_version is not None:
        _fix_for_version(paths, to_version, show_diff)
        return
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


def _fix_for_version(paths: tuple[Path, ...], to_version: str, show_diff: bool) -> None:
    from flinkx_build.commands.upgrade_check import target_version
    from flinkx_build.load.root import find_workspace
    from flinkx_build.upgrade.fixes import upgrade_fixes

    version = target_version(to_version)
    if len(paths) > 1 or (paths and not paths[0].is_dir()):
        raise UsageError("fix --to takes the workspace folder only: a version move is the whole workspace's")
    root = find_workspace(paths[0] if paths else Path("."))
    changes = upgrade_fixes(root, version)
    count = sum(len(c.fixed) for c in changes)
    if show_diff:
        text = unified_diff(changes)
        if text:
            echo_result(text, nl=False)
        echo_summary(f"flinkx: would fix {count} finding(s) for Flink {version}" if changes else "flinkx: nothing to fix", ok=not changes)
        if changes:
            raise SystemExit(1)
        return
    written, refused = write_fixes(changes, root)
    echo_fixed(written, err=False)
    for diag in refused:
        echo_result(diag.format())
    echo_summary(f"flinkx: fixed {sum(len(c.fixed) for c in written)} finding(s) for Flink {version}; "
                 f"`flinkx upgrade-check --to {version}` lists what is left", ok=not refused)
