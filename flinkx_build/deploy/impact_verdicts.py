"""State-compatibility verdicts for `flinkx impact --state-compat`: base vs head, per changed task.

For every impacted task whose compiled statements differ between the two revisions, both sides
are compiled to COMPILE PLAN JSON in one embedded planner and classified by `compat.classify`, so a
reviewer sees before merging that a change needs a fresh start.
"""
from __future__ import annotations

from pathlib import Path

from flinkx_build.cache_root import flink_log_dir
from flinkx_build.deploy.compat import UNKNOWN
from flinkx_build.deploy.compat import Verdict
from flinkx_build.deploy.compat import classify
from flinkx_build.deploy.identity import Statement
from flinkx_build.deploy.jars import deploy_jars
from flinkx_build.graph.gitrev import Revision
from flinkx_build.graph.gitrev import checkout
from flinkx_build.pipeline import Session


def task_key(node: str) -> str:
    """`task.dws.order_stats` -> `dws/order_stats` (emit.manifest.task_node, reversed)."""
    return node[len("task."):].replace(".", "/", 1)


def compiled_statements(session: Session, keys: set[str]) -> dict[str, list[Statement]]:
    """The compiled statements of the tasks among `keys` that resolve without errors."""
    out = {}
    for task in session.workspace.all_tasks():
        if task.key in keys and not any(d.is_error for d in session.resolved(task).diagnostics):
            out[task.key] = [Statement(s.kind, s.text) for s in session.compiled(task).statements]
    return out


def statements_at(repo: Path, revision: Revision | None, prefix: str, work: Session, keys: set[str]) -> dict[str, list[Statement]]:
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
                   nodes: list[str]) -> dict[str, Verdict]:
    """node id -> verdict, for the streaming tasks among `nodes` whose SQL changed on both sides."""
    from flinkx_build.deploy.flink import DeployFlink
    from flinkx_build.deploy.flink import DeployFlinkError

    if work.mode != "stream":
        return {}
    keys = {task_key(n) for n in nodes if n.startswith("task.")}
    before = statements_at(repo, base, prefix, work, keys)
    after = statements_at(repo, head, prefix, work, keys)
    pairs = {k: (before[k], after[k]) for k in sorted(keys & set(before) & set(after))
             if before[k] != after[k] and any(s.kind == "insert" for s in after[k])}
    if not pairs:
        return {}
    ws = work.workspace
    verdicts: dict[str, Verdict] = {}
    with DeployFlink(flink_log_dir(ws.cache_root), deploy_jars(ws.config.deploy.jars)) as flink:
        for key, (old, new) in pairs.items():
            node = "task." + key.replace("/", ".", 1)
            try:
                verdicts[node] = classify(flink.compile_plan(old), flink.compile_plan(new))
            except DeployFlinkError as exc:
                verdicts[node] = Verdict(UNKNOWN, reason=f"a side does not compile: {exc}")
    return verdicts


def verdicts_for_impacts(repo: Path, base: Revision, head: Revision | None, prefix: str, work: Session,
                         impacts: list) -> dict[str, Verdict]:
    """`flinkx impact --state-compat`: verdicts for the changed and directly impacted tasks."""
    from flinkx_build.deploy.flink import FlinkUnavailable
    from flinkx_build.errors import UsageError

    nodes = [imp.node for imp in impacts if imp.relation in ("changed", "direct")]
    try:
        return state_verdicts(repo, base, head, prefix, work, nodes)
    except FlinkUnavailable as exc:
        raise UsageError(f"--state-compat needs the embedded Flink planner: {exc}") from None
