"""Whether each stateful task's state survives a move to another Flink version: a restore trial across versions.

No cluster is needed. For each streaming task that keeps state, the planner driver of the workspace's version
runs the task's job in its own MiniCluster (flinkx's stand-ins for every connector: nothing is read or written)
and takes a savepoint of it; the target version's driver compiles the task, pins its operators to the first
job's ids as deploy pins an upgrade (deploy/stable_ids.py), and restores that savepoint into it with
non-restored state not allowed (planner/java/.../RestoreTrial.java). What Flink says is the answer, per task.

The savepoint holds each operator's state layout (its key and state serializers), not rows: the stand-ins
read nothing. A layout the target cannot restore fails here as it would from a real savepoint; data a
serializer writes differently is outside what this trial sees.
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from flinkx_build.deploy.compat import CompiledJob
from flinkx_build.deploy.compat import stateful_nodes
from flinkx_build.deploy.submission import DeployFlinkError
from flinkx_build.deploy.identity import Statement
from flinkx_build.deploy.prove import flink_message
from flinkx_build.deploy.stable_ids import pins
from flinkx_build.pipeline import Session

SURVIVES, LOST, NOT_CHECKED = "survives", "does not survive", "not checked"


@dataclass(frozen=True)
class Survival:
    status: str  # survives | does not survive | not checked
    detail: str = ""  # Flink's message, or why it was not checked
    seconds: float = 0.0


def _keeps_state(job: CompiledJob) -> bool:
    return any(n.role == "operator" for n in stateful_nodes(job))


def state_survival(session: Session, source_version: str, target_version: str) -> dict[str, Survival]:
    """task key -> whether its state survives the move, for every streaming task with state that compiles.
    FlinkUnavailable / PlannerUnavailable propagate: the caller says the trials did not run."""
    import time

    from flinkx_build.deploy.driver_client import DriverFlink
    from flinkx_build.planner.session import target_or_problem
    tasks = []
    out: dict[str, Survival] = {}
    for task in session.tasks([]):
        if any(d.is_error for d in session.analysed(task).diagnostics):
            out[task.key] = Survival(NOT_CHECKED, f"it does not plan on Flink {source_version} as it is")
            continue
        script = session.compiled(task)
        statements = [Statement(s.kind, s.text) for s in script.statements]
        if any(s.kind == "insert" for s in statements):
            tasks.append((task.key, statements, tuple(script.udfs)))
    if not tasks:
        return out
    # the trial runs on deploy's client of each version: a version deploy does not run on has no trial yet
    no_trial = [v for v in (source_version, target_version) if isinstance(target_or_problem(v, "deploy"), str)]
    if no_trial:
        return {**out, **{key: Survival(NOT_CHECKED, f"no restore trial runs on Flink {no_trial[0]} yet (docs/targets.md)")
                          for key, _, _ in tasks}}
    with DriverFlink(source_version, []) as source, DriverFlink(target_version, []) as target, \
            tempfile.TemporaryDirectory(prefix="flinkx-state-trial-") as folder:
        for key, statements, udfs in tasks:
            began = time.perf_counter()
            try:
                old = source.compile_job(statements, udfs)
                if not _keeps_state(old):
                    continue
                savepoint = source.snapshot(statements, udfs, Path(folder) / key.replace("/", "-"))
            except DeployFlinkError as exc:
                out[key] = Survival(NOT_CHECKED, f"Flink {source_version} did not run it: {exc}")
                continue
            try:
                new = target.compile_job(statements, udfs)
            except DeployFlinkError as exc:
                out[key] = Survival(NOT_CHECKED, f"it does not compile on Flink {target_version}: {exc}")
                continue
            answer = target.standin_trial(statements, udfs, savepoint, pins(old, new))
            seconds = time.perf_counter() - began
            if answer.get("restored"):
                out[key] = Survival(SURVIVES, f"Flink {target_version} restored a Flink {source_version} savepoint", seconds)
            else:
                out[key] = Survival(LOST, flink_message([str(m) for m in answer.get("refused") or []]), seconds)
    return out
