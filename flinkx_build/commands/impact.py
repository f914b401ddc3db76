"""`flinkx impact --base REV`: which tasks, in which projects, a change reaches.

Both sides are built straight from git (no stored manifest, no state): the
base revision, and the head revision or the working tree, each through the
same pipeline `flinkx build` uses. The parse cache is keyed by content, so
both sides share the working tree's cache and an unchanged task is never
parsed twice. With a second core the base is taken in a forked child
(`impact/forked_snapshot.py`) while this process takes the head.
"""
from __future__ import annotations

import time
from contextlib import ExitStack
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

import click

from flinkx_build.commands.common import echo_diagnostics
from flinkx_build.commands.common import open_session
from flinkx_build.commands.common import workspace_argument
from flinkx_build.errors import UsageError
from flinkx_build.impact.forked_snapshot import ForkedSnapshot
from flinkx_build.impact.forked_snapshot import can_take_forked
from flinkx_build.impact.gitrev import Revision
from flinkx_build.impact.gitrev import checkout
from flinkx_build.impact.gitrev import repo_root
from flinkx_build.impact.gitrev import resolve_revision
from flinkx_build.impact.gitrev import workspace_prefix
from flinkx_build.impact.compare import FAIL_ON
from flinkx_build.impact.compare import compare
from flinkx_build.impact.report import ReportContext
from flinkx_build.impact.scope import Listing
from flinkx_build.impact.scope import Scope
from flinkx_build.impact.scope import listing
from flinkx_build.impact.scope import plan
from flinkx_build.impact.scope import ready
from flinkx_build.impact.scope import write_indexes
from flinkx_build.impact.report import render_report
from flinkx_build.impact.snapshot import Snapshot
from flinkx_build.impact.snapshot import take_snapshot
from flinkx_build.load.workspace import Only
from flinkx_build.workspace_model import Workspace
from flinkx_build.pipeline import Session
from flinkx_build.semantic.project_index import ProjectIndexStore
from flinkx_build.semantic.summary_cache import SummaryCache


def revision_snapshot(stack: ExitStack, repo: Path, revision: Revision, prefix: str, work: Session, shown_root: Path,
                      other: Snapshot | None = None) -> Snapshot:
    """The workspace at `revision`, or an empty one if it did not exist there (`other`: as in `take_snapshot`).

    The checkout stays on disk until `stack` closes: the snapshot resolves
    the few tasks a change reaches only when the comparison asks.
    """
    folder = stack.enter_context(checkout(repo, revision, prefix))
    if folder is None:
        return Snapshot()
    return take_snapshot(revision_session(folder, work), shown_root, other)


def revision_session(folder: Path, work: Session, only: Only | None = None) -> Session:
    """A session on a checked-out revision that shares the working tree's caches.

    Every cache is keyed by content and stores paths relative to the
    workspace, so what the working tree cached serves the revision too.
    `only`: the project folders to load (`load_workspace`).
    """
    shared = work.summary_cache.root if work.summary_cache is not None else None
    return Session.open(folder, use_cache=False, shared_cache=shared, only=only)


def _confirm(repo: Path, head_rev: Revision | None, prefix: str, work: Session, impacts) -> dict[str, list[str]]:
    from flinkx_build.impact.planner_check import flink_verdicts
    from flinkx_build.planner import FlinkUnavailable

    try:
        if head_rev is None:
            return flink_verdicts(work, impacts)
        with checkout(repo, head_rev, prefix) as folder:
            if folder is None:
                return {}
            return flink_verdicts(revision_session(folder, work), impacts)
    except FlinkUnavailable as exc:
        raise UsageError(f"flinkx impact --validate could not start Flink: {exc}") from None


@dataclass
class _Sides:
    """The repository and revisions, learnt as soon as flinkx.yaml is read; then the base side starts,
    or, when the dependency index vouches for it, only the changed projects and their dependents load."""

    base: str
    head: str | None
    use_cache: bool
    stack: ExitStack
    try_scope: bool = True
    repo: Path = Path()
    prefix: str = ""
    base_rev: Revision | None = None
    head_rev: Revision | None = None
    forked: ForkedSnapshot | None = None
    listed: Listing = field(default_factory=Listing)
    store: ProjectIndexStore = field(default_factory=lambda: ProjectIndexStore(None))
    scope: Scope | None = None

    def start(self, ws: Workspace) -> Only | None:
        """Called by the working tree's load before its meta tables: the project folders to load (None:
        all, and the child loads the base meanwhile)."""
        self.repo = repo_root(ws.root)
        try:
            self.prefix = workspace_prefix(self.repo, ws.root)
        except ValueError:
            raise UsageError(f"{ws.root}: the workspace is not inside the git repository at {self.repo}") from None
        self.base_rev = resolve_revision(self.repo, self.base)
        self.head_rev = resolve_revision(self.repo, self.head) if self.head else None
        if self.use_cache and self.try_scope:
            self.store = ProjectIndexStore(ws.cache_root)
            self.listed = listing(self.repo, self.prefix, self.base_rev, self.head_rev)
            self.scope = plan(self.store, self.listed)
            if self.scope is not None:
                return self.scope.only
        if can_take_forked():
            shared = ws.cache_root if self.use_cache else None  # the summary cache `Session.open` makes
            try:
                forked = ForkedSnapshot(self.repo, self.base_rev, self.prefix, shared, ws.root)
            except OSError:  # no process to be had (a limit): the base is taken here, after the head
                return None
            self.forked = self.stack.enter_context(forked)
        return None


def _scoped(sides: _Sides, work: Session, stack: ExitStack) -> tuple[Snapshot, Snapshot] | None:
    """Both sides loaded in part (`impact/scope.py`), or None when a side is not what the index said."""
    scope, root = sides.scope, work.workspace.root
    assert scope is not None and sides.base_rev is not None
    sessions = []
    for revision, expected in ((sides.head_rev, scope.expected[1]), (sides.base_rev, scope.expected[0])):
        if revision is None:
            session = work
        else:
            # the working tree holds every other folder as the base has it: their headers are read there
            borrow = (root, scope.others) if sides.head_rev is None else None
            folder = stack.enter_context(checkout(sides.repo, revision, sides.prefix, scope.whole | scope.tables, borrow is None))
            if folder is None:
                return None
            session = revision_session(folder, work, scope.only._replace(borrow=borrow))
        assert session.summary_cache is not None and session.summary_cache.root is not None
        session.summary_cache = SummaryCache(session.summary_cache.root, session.workspace, session.mode, scope.names)
        if not ready(session, scope.only, expected):
            return None
        sessions.append(session)
    head_snap = take_snapshot(sessions[0], root)
    base_snap = take_snapshot(sessions[1], root, other=head_snap)
    base_snap.quiet_load_keys = head_snap.quiet_load_keys = scope.quiet_load_keys
    return base_snap, head_snap


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
    with ExitStack() as stack:
        # --state-compat and --validate plan the impacted tasks with the working tree's session: a whole one
        sides = _Sides(base, head, not no_cache, stack, try_scope=not (state_compat or with_flink))
        work = open_session(workspace, use_cache=not no_cache, on_projects=sides.start)
        snaps = _scoped(sides, work, stack) if sides.scope is not None else None
        if sides.scope is not None and snaps is None:  # the index did not hold: both sides whole
            sides.try_scope, sides.scope = False, None
            work = open_session(workspace, use_cache=not no_cache, on_projects=sides.start)
        root, repo, prefix, base_rev, head_rev = work.workspace.root, sides.repo, sides.prefix, sides.base_rev, sides.head_rev
        assert base_rev is not None  # `start` ran: the load reads the meta tables after it
        if snaps is not None:
            base_snap, head_snap = snaps
        else:
            if head_rev is None:
                head_snap = take_snapshot(work, root)
            else:
                head_snap = revision_snapshot(stack, repo, head_rev, prefix, work, root)
            if sides.forked is not None:
                base_snap = sides.forked.snapshot(head_snap)
            else:
                base_snap = revision_snapshot(stack, repo, base_rev, prefix, work, root, other=head_snap)
            write_indexes(sides.store, head_snap, sides.listed.head, root)
            write_indexes(sides.store, base_snap, sides.listed.base, root)
        result = compare(base_snap, head_snap)
    tripped = result.trips(fail_on)
    verdicts = {}
    refusals: list = []
    if state_compat:
        from flinkx_build.deploy.impact_verdicts import verdicts_for_impacts

        verdicts = verdicts_for_impacts(repo, base_rev, head_rev, prefix, work, result.impacts, refusals)
        # a task flinkx refuses to plan (it would load code or choose engine settings): its FX lines, and exit 1
        echo_diagnostics(sorted(set(refusals), key=lambda d: (d.path, d.line, d.col)), err=True)
        tripped = tripped or bool(refusals)
    flink: dict[str, list[str]] = {}
    if with_flink:
        flink = _confirm(repo, head_rev, prefix, work, result.impacts)
    ctx = ReportContext(
        base=base_rev.label, head=head_rev.label if head_rev else "working tree", repo=repo, workspace=prefix,
        fail_on=fail_on, tripped=tripped, elapsed=time.perf_counter() - started, verdicts=verdicts, flink=flink,
        docs_url=work.workspace.config.docs.site_url,
    )
    click.echo(render_report(fmt, result, ctx), nl=False)
    if tripped:
        raise SystemExit(1)
