"""State-compatibility verdicts for `flinkx impact --state-compat`: base vs head, per changed task.

For every impacted task whose compiled statements differ between the two revisions, both sides
are compiled by the workspace's Flink (the planner driver: COMPILE PLAN JSON and each operator's id) and
classified by `compat.classify`, so a reviewer sees before merging whether the state restores. Both sides
compiling to the same job (comments, layout or keyword case changed) get no verdict: nothing to restore.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from flinkx_build.checks.engine_settings import REFUSALS
from flinkx_build.deploy.compat import UNKNOWN
from flinkx_build.deploy.compat import Verdict
from flinkx_build.deploy.compat import classify
from flinkx_build.deploy.compat import same_job
from flinkx_build.deploy.identity import Statement
from flinkx_build.deploy.stable_ids import effective
from flinkx_build.deploy.stable_ids import pins
from flinkx_build.errors import Diagnostic
from flinkx_build.impact.gitrev import Revision
from flinkx_build.impact.gitrev import checkout
from flinkx_build.pipeline import Session
from flinkx_build.validate.contract import UdfStub


def task_key(node: str) -> str:
    """`task.dws.order_stats` -> `dws/order_stats` (emit.manifest.task_node, reversed)."""
    return node[len("task."):].replace(".", "/", 1)


@dataclass(frozen=True)
class SideOfTask:
    """What one revision gives a task: its compiled statements and its declared functions, or
    the refusals (FX195/FX196) that keep it from being planned at all."""

    statements: tuple[Statement, ...] = ()
    udfs: tuple[UdfStub, ...] = ()
    refused: tuple[Diagnostic, ...] = ()


def compiled_statements(session: Session, keys: set[str]) -> dict[str, SideOfTask]:
    """The tasks among `keys` that resolve without errors, and those refused for loading code or
    choosing engine settings (never planned, but reported)."""
    out = {}
    for task in session.workspace.all_tasks():
        if task.key not in keys:
            continue
        errors = [d for d in session.analysed(task).diagnostics if d.is_error]
        refused = tuple(d for d in errors if d.code in REFUSALS)
        if refused:
            out[task.key] = SideOfTask(refused=refused)
        elif not errors:
            script = session.compiled(task)
            out[task.key] = SideOfTask(tuple(Statement(s.kind, s.text) for s in script.statements), tuple(script.udfs))
    return out


def statements_at(repo: Path, revision: Revision | None, prefix: str, work: Session, keys: set[str]) -> dict[str, SideOfTask]:
    """At `revision`, or in the working tree (`work`) when it is None."""
    if revision is None:
        return compiled_statements(work, keys)
    with checkout(repo, revision, prefix) as folder:
        if folder is None:
            return {}
        session = Session.open(folder, use_cache=False)
        session.cache = work.cache  # content-hashed: sharing it with the working tree is safe
        return compiled_statements(session, keys)


def state_verdicts(repo: Path, base: Revision, head: Revision | None, prefix: str, work: Session,
                   nodes: list[str], refusals: list[Diagnostic] | None = None) -> dict[str, Verdict]:
    """node id -> verdict, for the streaming tasks among `nodes` whose SQL changed on both sides.
    Both sides are planned with flinkx's stand-ins and no jar at all (deploy/planning.py); a side
    refused for loading code gets an unknown verdict, and its FX lines go into `refusals`."""
    from flinkx_build.deploy.client import open_client
    from flinkx_build.deploy.submission import DeployFlinkError

    if work.mode != "stream":
        return {}
    keys = {task_key(n) for n in nodes if n.startswith("task.")}
    before = statements_at(repo, base, prefix, work, keys)
    after = statements_at(repo, head, prefix, work, keys)
    verdicts: dict[str, Verdict] = {}
    pairs = {}
    for key in sorted(keys & set(before) & set(after)):
        old, new = before[key], after[key]
        node = "task." + key.replace("/", ".", 1)
        refused = old.refused + new.refused
        if refused:
            if refusals is not None:
                refusals.extend(refused)
            first = refused[0]
            verdicts[node] = Verdict(UNKNOWN, reason=f"not planned: {first.path}:{first.line}:{first.col}: {first.code} {first.message}")
        elif old.statements != new.statements and any(s.kind == "insert" for s in new.statements):
            pairs[node] = (old, new)
    if not pairs:
        return verdicts
    ws = work.workspace
    # the plans are compiled by the workspace's own Flink (2.3: the planner driver), never another's
    with open_client(ws.config.flink_version, []) as flink:
        for node, (old, new) in pairs.items():
            try:
                before = flink.compile_job(list(old.statements), new.udfs)
                after = flink.compile_job(list(new.statements), new.udfs)
            except DeployFlinkError as exc:
                verdicts[node] = Verdict(UNKNOWN, reason=f"a side does not compile: {exc}")
                continue
            if not same_job(before.plan, after.plan):  # as deploy submits it: operators pinned (stable_ids.py)
                verdicts[node] = classify(before, effective(after, pins(before, after)), flink.flink_version)
    return verdicts


def verdicts_for_impacts(repo: Path, base: Revision, head: Revision | None, prefix: str, work: Session,
                         impacts: list, refusals: list[Diagnostic] | None = None) -> dict[str, Verdict]:
    """`flinkx impact --state-compat`: verdicts for the changed and directly impacted tasks."""
    from flinkx_build.errors import UsageError
    from flinkx_build.planner import FlinkUnavailable

    nodes = [imp.node for imp in impacts if imp.relation in ("changed", "direct")]
    try:
        return state_verdicts(repo, base, head, prefix, work, nodes, refusals)
    except FlinkUnavailable as exc:
        raise UsageError(f"--state-compat needs a Flink {work.workspace.config.flink_version} planner: {exc}") from None
