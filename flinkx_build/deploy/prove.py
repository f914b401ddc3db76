"""The restore trial: before anything stops, Flink restores the running job's own savepoint into the new job.

`deploy --apply` proves every upgrade that would keep its state before it stops the old job, and `deploy --plan
--prove` proves without applying. For each upgrade:

1. the new job is compiled as it will be submitted (real connectors, the operator's jars) and its operators are
   pinned to the ids their state has in the running job (stable_ids.py);
2. the running job takes a savepoint without stopping (`POST /jobs/<id>/savepoints`, into the cluster's own
   savepoint storage), or, with `--trial-from latest`, its newest retained savepoint or checkpoint is used;
3. the planner driver restores that savepoint into the new job in a MiniCluster of its own, on the cluster's
   Flink version, with stand-ins for the connectors (planner/java/.../RestoreTrial.java): non-restored state is
   not allowed, every task must restore and open its operators, and a checkpoint of the restored state must
   complete. Nothing on the cluster changes.

The verdict is then proven: Flink restored it (with the meaning the prediction found), or Flink refused it, with
the operator, the task's line and Flink's own message.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from flinkx_build.deploy.cluster import FlinkRest
from flinkx_build.deploy.compat import OTHER_MEANING
from flinkx_build.deploy.compat import RESTORES
from flinkx_build.deploy.compat import UNKNOWN
from flinkx_build.deploy.compat import WILL_NOT_RESTORE
from flinkx_build.deploy.compat import Change
from flinkx_build.deploy.compat import CompiledJob
from flinkx_build.deploy.compat import Verdict
from flinkx_build.deploy.compat_rules import short_name
from flinkx_build.deploy.submission import DeployFlinkError
from flinkx_build.deploy.identity import Statement
from flinkx_build.deploy.plan import Action
from flinkx_build.deploy.stable_ids import addresses
from flinkx_build.deploy.stable_ids import pins

_NODE = re.compile(r"\[(\d+)\]")
_OPERATOR_ID = re.compile(r"operator ([0-9a-f]{32})")


@dataclass(frozen=True)
class Submission:
    """How a new job is submitted: as SQL (no plan), or from its compiled plan with operators pinned; the old
    job compiled the same way when it could be (to name an operator Flink cannot map)."""

    plan: dict[str, Any] | None = None
    pins: dict[str, str] | None = None
    new: CompiledJob | None = None
    old: CompiledJob | None = None


@dataclass
class Trial:
    verdict: Verdict  # proven
    savepoint: str | None
    seconds: float
    where: tuple[str, int, int] | None = None  # the statement of the operator Flink refused: path, line, column
    timings: dict[str, float] = field(default_factory=dict)


def pinned_submission(flink: Any, cluster_url: str, action: Action, statements: list[Statement],
                      old_statements: list[Statement] | None) -> Submission:
    """The new job compiled as it will be submitted (`statements`, secrets filled), pinned to the running job's
    ids. DeployFlinkError when the new job does not compile; an old job that no longer compiles (a jar gone)
    leaves it unpinned: its ids are then Flink's hash of the new shape."""
    assert action.desired is not None
    new = flink.compile_submission(statements, cluster_url, action.desired.name)
    if old_statements is None:
        return Submission(new.plan, {}, new)
    try:
        old = flink.compile_submission(old_statements, cluster_url, action.desired.name)
    except DeployFlinkError:
        return Submission(new.plan, {}, new)
    return Submission(new.plan, pins(old, new), new, old)


def trial_savepoint(rest: FlinkRest, job_id: str, savepoint_dir: str | None, latest: bool) -> str:
    """A savepoint of the running job that leaves it running, or (latest) its newest retained one."""
    if latest:
        found = rest.latest_retained(job_id)
        if found is None:
            raise DeployFlinkError(f"job {job_id} has no retained savepoint or checkpoint (--trial-from latest)")
        return found
    taken = rest.savepoint(job_id, savepoint_dir)
    if taken.location is None:
        raise DeployFlinkError(f"the savepoint of running job {job_id} failed: {taken.failure}")
    return taken.location


def prove(flink: Any, rest: FlinkRest, action: Action, statements: list[Statement], submission: Submission,
          savepoint_dir: str | None, latest: bool = False) -> Trial:
    """Flink's own answer for one upgrade; the running job keeps running whatever it is."""
    assert action.job is not None and action.desired is not None and submission.plan is not None
    began = time.perf_counter()
    savepoint = trial_savepoint(rest, action.job.job_id, savepoint_dir, latest)
    taken = time.perf_counter() - began
    answer = flink.trial(statements, rest.url, action.desired.name, savepoint, submission.plan, submission.pins or {})
    seconds = time.perf_counter() - began
    timings = {"savepoint": taken, "trial": seconds - taken}
    if answer.get("restored"):
        return Trial(proven(action.verdict, True), savepoint, seconds, timings=timings)
    messages = [str(m) for m in answer.get("refused") or []]
    operator, node = _refused_operator(messages, str(answer.get("task") or ""), submission)
    where = _statement_of(node, submission.new, action) if node is not None else None
    return Trial(proven(action.verdict, False, f"{savepoint}: {flink_message(messages)}", operator), savepoint,
                 seconds, where, timings)


def proven(predicted: Verdict | None, restored: bool, flink_says: str = "", operator: str = "the new job") -> Verdict:
    """The verdict once Flink answered: `restored` (every operator's state assigned and restored), or refused with
    Flink's words at `operator`."""
    if restored:
        return _restored(predicted)
    rule = f"Flink refused the running job's savepoint {flink_says}"
    return Verdict(WILL_NOT_RESTORE, (Change(WILL_NOT_RESTORE, operator, rule),), proven=True)


def _restored(predicted: Verdict | None) -> Verdict:
    """Flink restored the savepoint: the meaning is the prediction's (a rule flinkx did not measure, or one that
    predicted a refusal Flink did not make, leaves the meaning open: another meaning). State the prediction found
    without an operator stays lost: Flink maps a savepoint to a job's tasks, and an operator whose state nobody
    takes is dropped without a word (measured: two swapped INSERTs)."""
    changes = tuple(predicted.changes) if predicted else ()
    lost = tuple(Change(c.level, c.operator, c.rule + "; Flink restores the job but drops this state", True)
                 for c in changes if c.lost)
    if lost:
        return Verdict(WILL_NOT_RESTORE, lost, reason="", proven=True)
    if any(c.level == OTHER_MEANING for c in changes):
        level = OTHER_MEANING
    elif any(c.level in (UNKNOWN, WILL_NOT_RESTORE) for c in changes):
        level = OTHER_MEANING
        changes = tuple(Change(OTHER_MEANING if c.level in (UNKNOWN, WILL_NOT_RESTORE) else c.level, c.operator,
                               c.rule + " (Flink restored it; what the state now means was not measured)")
                        for c in changes)
    else:
        level = RESTORES
    return Verdict(level, changes, reason="" if changes else "Flink restored every operator's state", proven=True)


def _refused_operator(messages: list[str], task: str, submission: Submission) -> tuple[str, int | None]:
    """The operator Flink refused (its description) and its plan node in the new job, when it can be told."""
    text = " ".join(messages)
    match = _OPERATOR_ID.search(text)
    if match and submission.old is not None:  # "Cannot map checkpoint/savepoint state for operator <id>"
        op = next((o for o in submission.old.operators or [] if o.id == match.group(1)), None)
        if op is not None:
            return f"{_description(submission.old, op.node)} of the running job", _twin(submission, op.node)
    nodes = [int(n) for n in _NODE.findall(task)]
    stateful = [n for n in nodes if submission.new is not None and n in addresses(submission.new)]
    if stateful:
        return _description(submission.new, stateful[0]), stateful[0]
    return (task or "the new job"), (nodes[0] if nodes else None)


def _twin(submission: Submission, old_node: int) -> int | None:
    """The node of the new job at the old node's address."""
    if submission.old is None or submission.new is None:
        return None
    at = addresses(submission.old).get(old_node)
    return next((n for n, a in addresses(submission.new).items() if a and a == at), None)


def _description(job: CompiledJob | None, node_id: int) -> str:
    node = next((n for n in (job.plan.get("nodes") if job else []) or [] if n.get("id") == node_id), None)
    return short_name(node) if node else f"node {node_id}"


def _statement_of(node_id: int, job: CompiledJob | None, action: Action) -> tuple[str, int, int] | None:
    """The INSERT whose rows pass the node: the one writing the table its address ends in."""
    desired = action.desired
    if job is None or desired is None:
        return None
    address = addresses(job).get(node_id, "")
    match = re.match(r"sink `[^`]*`\.`[^`]*`\.`([^`]*)`#(\d+)", address)
    if not match:
        return None
    table, nth = match.group(1), int(match.group(2))
    seen = 0
    for index, stmt in enumerate(desired.statements):
        if stmt.kind == "insert" and re.search(rf"\bINTO\s+(\S+\.)?`?{re.escape(table)}`?(\s|\(|$)", stmt.text, re.I):
            seen += 1
            if seen == nth and index < len(desired.sources):
                return desired.sources[index]
    return None


def flink_message(messages: list[str]) -> str:
    """Flink's words: the innermost cause that says why (StateMigrationException, Cannot map ...)."""
    lines = [line.strip() for m in messages for line in m.splitlines() if line.strip()]
    for needle in ("Cannot map checkpoint/savepoint state", "StateMigrationException", "serializer"):
        hit = next((line for line in lines if needle in line), None)
        if hit:
            return hit[:500]
    return (lines[-1] if lines else "no message")[:500]


def prove_upgrades(plan: Any, flink: Any, rest: FlinkRest, fill: Any, savepoint_dir: str | None, latest: bool,
                   echo: Any) -> None:
    """Every upgrade of `plan` proven before anything stops: its verdict becomes Flink's, its submission the
    pinned one apply will use. `fill(statements)` puts the secrets in. A trial that cannot run leaves the verdict
    unknown (apply then refuses the upgrade), with the reason."""
    for action in plan.of("upgrade"):
        assert action.job is not None and action.desired is not None
        statements = fill(action.desired.statements)
        old = fill(action.job.statements) if action.job.statements is not None else None
        try:
            submission = pinned_submission(flink, rest.url, action, statements, old)
            trial = prove(flink, rest, action, statements, submission, savepoint_dir, latest)
        except DeployFlinkError as exc:
            action.verdict = Verdict(UNKNOWN, reason=f"not proven: {exc}")
            echo(f"flinkx deploy: trial {action.task_key}: could not run: {exc}")
            continue
        action.verdict, action.submission, action.where = trial.verdict, submission, trial.where
        echo(f"flinkx deploy: trial {action.task_key}: {trial.verdict.label} (savepoint {trial.savepoint} of running "
             f"job {action.job.job_id}; {trial.seconds:.1f} s, of which the savepoint {trial.timings['savepoint']:.1f} s)")
