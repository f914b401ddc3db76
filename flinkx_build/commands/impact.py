"""`flinkx impact --base REV`: which tasks, in which projects, a change reaches.

Both sides are built straight from git (no stored manifest, no state): the
base revision, and the head revision or the working tree, each through the
same pipeline `flinkx build` uses. The parse cache is keyed by content, so
both sides share the working tree's cache and an unchanged task is never
parsed twice.
"""
from __future__ import annotations

import time
from contextlib import ExitStack
from pathlib import Path

import click

from flinkx_build.commands.common import open_session
from flinkx_build.commands.common import workspace_argument
from flinkx_build.errors import UsageError
from flinkx_build.graph.gitrev import Revision
from flinkx_build.graph.gitrev import checkout
from flinkx_build.graph.gitrev import repo_root
from flinkx_build.graph.gitrev import resolve_revision
from flinkx_build.graph.gitrev import workspace_prefix
from flinkx_build.graph.impact import FAIL_ON
from flinkx_build.graph.impact import compare
from flinkx_build.graph.report import ReportContext
from flinkx_build.graph.report import render_report
from flinkx_build.graph.snapshot import Snapshot
from flinkx_build.graph.snapshot import take_snapshot
from flinkx_build.pipeline import Session


def revision_snapshot(stack: ExitStack, repo: Path, revision: Revision, prefix: str, work: Session, shown_root: Path) -> Snapshot:
    """The workspace at `revision`, or an empty one if it did not exist there.

    The checkout stays on disk until `stack` closes: the snapshot resolves
    the few tasks a change reaches only when the comparison asks.
    """
    folder = stack.enter_context(checkout(repo, revision, prefix))
    if folder is None:
        return Snapshot()
    return take_snapshot(revision_session(folder, work), shown_root)


def revision_session(folder: Path, work: Session) -> Session:
    """A session on a checked-out revision that shares the working tree's caches.

    Every cache is keyed by content and stores paths relative to the
    workspace, so what the working tree cached serves the revision too.
    """
    shared = work.summary_cache.root if work.summary_cache is not None else None
    return Session.open(folder, use_cache=False, shared_cache=shared)


def _confirm(repo: Path, head_rev: Revision | None, prefix: str, work: Session, impacts) -> dict[str, list[str]]:
    from flinkx_build.graph.impact_validate import flink_verdicts
    from flinkx_build.validate.engine import flink_available

    reason = flink_available()
    if reason is not None:
        raise UsageError(f"flinkx impact --validate needs Apache Flink: {reason}")
    if head_rev is None:
        return flink_verdicts(work, impacts)
    with checkout(repo, head_rev, prefix) as folder:
        if folder is None:
            return {}
        return flink_verdicts(revision_session(folder, work), impacts)


@click.command("impact")
@workspace_argument
@click.option("--base", "base", required=True, metavar="REV", help="The revision to compare with (e.g. origin/main).")
@click.option("--head", "head", default=None, metavar="REV", help="The revision to check (default: the working tree).")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json", "sarif"]), default="text", show_default=True)
@click.option("--fail-on", "fail_on", type=click.Choice(FAIL_ON), default="breaking", show_default=True,
              help="Exit 1 when: a task breaks; or also a change reaches another project; or anything changed; never.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the parse cache.")
@click.option("--state-compat", "state_compat", is_flag=True,
              help="Also give each changed streaming task a state-compatibility verdict (embedded Flink planner; docs/deploy.md).")
@click.option("--validate", "with_flink", is_flag=True,
              help="Confirm with the embedded Flink planner: plan the impacted tasks at the head and say where the prediction differs.")
def command(workspace: Path, base: str, head: str | None, fmt: str, fail_on: str, no_cache: bool, state_compat: bool, with_flink: bool) -> None:
    """Report the tasks a change impacts, comparing WORKSPACE (default: .) at --base with --head."""
    started = time.perf_counter()
    work = open_session(workspace, use_cache=not no_cache)
    root = work.workspace.root
    repo = repo_root(root)
    try:
        prefix = workspace_prefix(repo, root)
    except ValueError:
        raise UsageError(f"{root}: the workspace is not inside the git repository at {repo}") from None
    base_rev = resolve_revision(repo, base)
    head_rev = resolve_revision(repo, head) if head else None
    with ExitStack() as stack:
        base_snap = revision_snapshot(stack, repo, base_rev, prefix, work, root)
        if head_rev is None:
            head_snap = take_snapshot(work, root)
        else:
            head_snap = revision_snapshot(stack, repo, head_rev, prefix, work, root)
        result = compare(base_snap, head_snap)
    tripped = result.trips(fail_on)
    verdicts = {}
    if state_compat:
        from flinkx_build.deploy.impact_verdicts import verdicts_for_impacts

        verdicts = verdicts_for_impacts(repo, base_rev, head_rev, prefix, work, result.impacts)
    flink: dict[str, list[str]] = {}
    if with_flink:
        flink = _confirm(repo, head_rev, prefix, work, result.impacts)
    ctx = ReportContext(
        base=base_rev.label, head=head_rev.label if head_rev else "working tree", repo=repo, workspace=prefix,
        fail_on=fail_on, tripped=tripped, elapsed=time.perf_counter() - started, verdicts=verdicts, flink=flink,
    )
    click.echo(render_report(fmt, result, ctx), nl=False)
    if tripped:
        raise SystemExit(1)
