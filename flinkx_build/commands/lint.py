"""`flinkx lint`: sqlfluff's FX rules plus the workspace checks."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from flinkx_build.commands.common import open_session
from flinkx_build.commands.console import echo_error
from flinkx_build.commands.console import echo_findings
from flinkx_build.commands.console import echo_progress
from flinkx_build.commands.console import echo_result
from flinkx_build.commands.console import echo_summary
from flinkx_build.commands.planner_switch import no_planner_option
from flinkx_build.commands.planner_switch import planner_note
from flinkx_build.commands.planner_switch import planner_state
from flinkx_build.commands.progress import task_progress
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import UsageError
from flinkx_build.lint.formats import FORMATS
from flinkx_build.planner import LINT_CODE as PLANNER_CODE
from flinkx_build.planner import STOPPED_CODE
from flinkx_build.lint.formats import render
from flinkx_build.lint.result_cache import LintMemo
from flinkx_build.lint.select import CodeFilter
from flinkx_build.lint.select import parse_codes
from flinkx_build.lint.write import FileFix
from flinkx_build.lint.write import write_fixes
from flinkx_build.load.root import find_workspace

if TYPE_CHECKING:
    from flinkx_build.lint.changed import Change
    from flinkx_build.workspace_model import Workspace

paths_argument = click.argument("paths", nargs=-1, type=click.Path(path_type=Path))


def code_options(command):
    """--select/--ignore CODE (repeatable, comma-separated, prefixes: FX1 is FX100-FX199)."""
    command = click.option("--ignore", "ignore", multiple=True, metavar="CODE",
                           help="Do not report these codes or code prefixes (repeatable, comma-separated).")(command)
    return click.option("--select", "select", multiple=True, metavar="CODE",
                        help="Report only these codes or code prefixes, e.g. FX1 or FX01,FX130 (repeatable, comma-separated).")(command)


def code_filter(select: tuple[str, ...], ignore: tuple[str, ...]) -> CodeFilter:
    return CodeFilter(parse_codes(select, "--select"), parse_codes(ignore, "--ignore"))


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


def lint_groups(paths: tuple[Path, ...], fix: bool = False, codes: CodeFilter = CodeFilter(),
                write: bool = True, use_planner: bool = False, scoped: bool = True,
                changed_since: str | None = None) -> tuple[list[Diagnostic], list[FileFix]]:
    """Findings of every group; with `fix`, the file changes (written when `write`) and,
    when written, the findings that are left afterwards. `use_planner`: plan every task on its
    target's planner too (FX301); what could not run is said once on stderr. `scoped`: named
    task files load only what they can name (`lint/scope.py`); off, the whole workspace.
    `changed_since`: a revision; only the tasks a change since it reaches (`lint/changed.py`)."""
    diags: list[Diagnostic] = []
    changes: list[FileFix] = []
    notes: set[str] = set()
    for workspace, files in group_paths(paths):
        change, since = None, ""
        if changed_since is not None:
            if files:
                raise UsageError("--changed-since lints what a change reaches in a workspace: name the workspace, not files")
            change, since = change_since(workspace, changed_since)
        echo_progress(f"linting {workspace}" + (f" ({len(files)} file(s))" if files else ""))
        # named files: their rule passes go to the parser process the CLI forked when it read the
        # command, which imports sqlfluff while this one checks the memo and loads (`frontend/worker.py`)
        parser = None
        if files and not fix:
            from flinkx_build.frontend.worker import take
            from flinkx_build.lint.rule_worker import warm_up_rules

            parser = take(warm_up_rules)
        try:
            state = planner_state(workspace, use_planner and not fix and codes.keeps(PLANNER_CODE)) if workspace.exists() else "off"
            memo = None if fix or not workspace.exists() else LintMemo.open(workspace, files, codes.select, codes.ignore, state,
                                                                           changed_since=since)
            replayed = memo.replay() if memo is not None else None
            if replayed is not None:  # nothing this lint reads changed since the identical last one
                echo_progress("replayed the identical last lint from the cache: nothing checked or planned again")
                diags.extend(replayed)
                if planner_note(state):
                    notes.add(planner_note(state))
                continue
            from flinkx_build.lint.early import start_rule_passes
            from flinkx_build.lint.scope import lint_scope
            from flinkx_build.lint.scope import needs_whole
            from flinkx_build.pipeline import PARALLEL_THRESHOLD

            limited: list[bool] = []

            def early(ws: Workspace):  # the named files' passes start before the tables load
                if parser is not None and len(files) < PARALLEL_THRESHOLD:  # (more go to a worker per core)
                    start_rule_passes(parser, ws, files, codes)
                only = lint_scope(ws, files) if scoped and files and not fix else None
                limited.append(only is not None)
                return only  # load only what the named tasks can name (`lint/scope.py`)

            found, fixes, session = _lint_session(workspace, files, fix, codes, parser, early, state, notes, change)
            if any(limited) and needs_whole(found):  # a hint that searches every project: as a whole lint words it
                found, fixes, session = _lint_session(workspace, files, fix, codes, parser, None, state, notes)
        finally:
            if parser is not None:
                parser.close()
        if memo is not None and not any(d.code == STOPPED_CODE for d in found):  # a task not judged: judge it next run
            memo.remember(found)
        refused: list[Diagnostic] = []
        if fixes and write:
            from flinkx_build.lint.run import lint_workspace

            fixes, refused = write_fixes(fixes, session.workspace.root)
            found, _ = lint_workspace(open_session(workspace), files, codes=codes)  # what is left
        diags.extend(found + refused)
        changes.extend(fixes)
    for note in sorted(notes):
        echo_error(f"flinkx: {note}")
    return diags, changes


def _lint_session(workspace: Path, files: list[Path], fix: bool, codes: CodeFilter, parser, on_projects, state: str,
                  notes: set[str], change: Change | None = None):
    """One session's lint of `files` (all of the workspace when none; with `change`, the tasks it
    reaches): (findings, fixes, session)."""
    from flinkx_build.lint.changed import changed_reach
    from flinkx_build.lint.planner_pass import PlannerPass
    from flinkx_build.lint.run import lint_workspace  # the pipeline: only for a lint that runs

    session = open_session(workspace, parser=parser, on_projects=on_projects)
    reach = changed_reach(session, change) if change is not None else None
    if reach is not None:
        echo_progress(f"flinkx: the change reaches {len(reach.tasks)} of {len(session.tasks())} tasks")
        for task in reach.tasks:
            echo_progress(f"reached {task.display_path}")
    planner = None if state == "off" else PlannerPass(session)
    try:
        with task_progress() as progress:
            found, fixes = lint_workspace(session, files, fix=fix, codes=codes, progress=progress, planner=planner,
                                          reach=reach)
    finally:
        if planner is not None:
            planner.close()
            # what the planner did, counted (-v): CI's log shows a warm cache sparing the planner
            echo_progress(f"planner: {planner.planned} task(s) planned, {planner.cached} verdict(s) from the cache")
            if planner.note:
                notes.add(planner.note)
    return found, fixes, session


def change_since(workspace: Path, spec: str) -> tuple[Change, str]:
    """What differs between `spec` (its merge base with HEAD: a pull request's own changes) and the
    working tree, as git lists the workspace's files; and that base commit."""
    from flinkx_build.impact.files import blob_bytes
    from flinkx_build.impact.files import changed_files
    from flinkx_build.impact.files import merge_base
    from flinkx_build.impact.gitrev import repo_root
    from flinkx_build.impact.gitrev import resolve_revision
    from flinkx_build.impact.gitrev import workspace_prefix
    from flinkx_build.lint.changed import Change

    if not workspace.exists():
        raise UsageError(f"{workspace}: no such folder")
    root = find_workspace(workspace)
    repo = repo_root(root)
    try:
        prefix = workspace_prefix(repo, root)
    except ValueError:
        raise UsageError(f"{root}: the workspace is not inside the git repository at {repo}") from None
    base = merge_base(repo, resolve_revision(repo, spec).commit)
    listed = changed_files(repo, base, prefix)
    if listed is None:
        echo_error("flinkx: git cannot list every file of the workspace one by one (a link, a submodule): "
                   "linting every task")
    blobs = listed or {}

    def base_bytes(rel: str) -> bytes | None:
        blob = blobs.get(rel)
        return blob_bytes(repo, blob) if blob else None
    return Change(None if listed is None else frozenset(listed), base_bytes), base


def report(diags: list[Diagnostic], fmt: str, fixed: int = 0) -> None:
    """Findings on stdout; the summary on stderr (human format, hidden by -q); exit 1 on errors."""
    if fmt == "human":
        echo_findings(diags)
    else:
        text = render(diags, fmt)
        if text:
            echo_result(text)
    errors = sum(d.is_error for d in diags)
    notes = sum(d.severity == "info" for d in diags)
    warnings = len(diags) - errors - notes
    if fmt == "human":
        summary = "clean" if not errors and not warnings else f"{errors} error(s), {warnings} warning(s)"
        if notes:
            summary += f", {notes} note(s)"
        if fixed:
            summary = f"fixed {fixed}; " + ("nothing left" if not diags else f"left: {summary}")
        echo_summary(f"flinkx: {summary}", ok=not errors)
    if errors:
        raise SystemExit(1)


@click.command("lint")
@paths_argument
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="human", help="Output format.")
@code_options
@no_planner_option
@click.option("--changed-since", "changed_since", metavar="REV", default=None,
              help="Only the tasks a change since REV (its merge base with HEAD) can reach, as flinkx impact "
                   "follows it: the check of a pull request.")
def command(paths: tuple[Path, ...], fmt: str, select: tuple[str, ...], ignore: tuple[str, ...], no_planner: bool,
            changed_since: str | None) -> None:
    """Lint [WORKSPACE] [FILES...]: every file, or only FILES with their whole workspace as context; each
    task is also planned on the Flink planner of its flink_version when Java and its jars are here."""
    diags, _ = lint_groups(paths, codes=code_filter(select, ignore), use_planner=not no_planner,
                           changed_since=changed_since)
    report(diags, fmt)
