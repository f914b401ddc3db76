"""The deploy plan: per task create, unchanged, upgrade, remove or failed, with verdicts.

- create: the task has no active job (none yet, or its last one finished or was cancelled);
- unchanged: an active job runs this SQL (same fingerprint), or SQL that compiles to the same job (only
  comments, layout or keyword case changed: Flink's plans are equal);
- upgrade: an active job runs other SQL; streaming upgrades carry a state verdict (compat.py);
- remove: an active job of this workspace whose task is gone (or a second job of one task);
- failed: the task's newest job FAILED; flinkx does not replace it silently.
Jobs that are RESTARTING or FAILING are shown with their state whatever the action.
"""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Callable

from flinkx_build.deploy.compat import OTHER_MEANING
from flinkx_build.deploy.compat import UNKNOWN
from flinkx_build.deploy.compat import CompiledJob
from flinkx_build.deploy.compat import Verdict
from flinkx_build.deploy.compat import classify
from flinkx_build.deploy.compat import same_job
from flinkx_build.deploy.stable_ids import effective
from flinkx_build.deploy.stable_ids import pins
from flinkx_build.deploy.state import DeployedJob
from flinkx_build.deploy.state import DesiredJob
from flinkx_build.deploy.submission import DeployFlinkError

ORDER = ("remove", "failed", "upgrade", "create", "unchanged")  # the order apply works in


@dataclass
class Action:
    task_key: str
    action: str
    desired: DesiredJob | None = None
    job: DeployedJob | None = None
    verdict: Verdict | None = None
    note: str = ""
    submission: Any = None  # how apply submits it, once proven (prove.Submission: the pinned plan)
    where: tuple[str, int, int] | None = None  # the statement of the operator a trial refused

    @property
    def needs_fresh_start(self) -> bool:
        """Apply refuses this action unless --allow-fresh-start: its state will not (or may not) restore."""
        if self.action == "failed":
            return True
        return self.action == "upgrade" and (self.verdict is None or not self.verdict.restores)

    @property
    def changes_meaning(self) -> bool:
        """Apply refuses this action unless --allow-changed-meaning: the state restores under another rule."""
        return self.action == "upgrade" and self.verdict is not None and self.verdict.level == OTHER_MEANING

    def to_data(self) -> dict[str, Any]:
        job = self.job
        return {
            "task": self.task_key, "action": self.action, "job_name": (self.desired or job).name if (self.desired or job) else "",
            "job_id": job.job_id if job else None, "state": job.state if job else None,
            "deployed_fingerprint": job.fingerprint if job else None,
            "fingerprint": self.desired.fingerprint if self.desired else None,
            "verdict": self.verdict.to_data() if self.verdict else None, "note": self.note,
            "needs_fresh_start": self.needs_fresh_start, "changes_meaning": self.changes_meaning,
        }


@dataclass
class Plan:
    workspace: str
    cluster: str
    actions: list[Action] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)

    def of(self, *kinds: str) -> list[Action]:
        return [a for a in self.actions if a.action in kinds]

    @property
    def changes(self) -> bool:
        return any(a.action != "unchanged" for a in self.actions)


PlanCompiler = Callable[[list, tuple], CompiledJob]  # (statements, declared functions) -> plan and operator ids


def make_plan(workspace: str, cluster: str, desired: list[DesiredJob], deployed: dict[str, list[DeployedJob]],
              projects: list[str], compile_plan: PlanCompiler | None, flink_version: str | None = None) -> Plan:
    """`compile_plan(statements, udfs) -> COMPILE PLAN JSON`, or None to skip verdicts (no upgrades);
    `flink_version`: of the client that plans now (a job planned by another Flink is `unknown`)."""
    plan = Plan(workspace, cluster)
    wanted = {d.task_key: d for d in desired}
    for key in sorted(set(wanted) | set(deployed)):
        if projects and key.split("/", 1)[0] not in projects:
            continue
        jobs = deployed.get(key, [])
        active = [j for j in jobs if j.active]
        target = wanted.get(key)
        for extra in active[1:] if target else active:
            plan.actions.append(Action(key, "remove", job=extra, note="a second job of this task" if target else "its task is gone"))
        if target is None:
            continue
        if active:
            current = active[0]
            if current.fingerprint == target.fingerprint:
                plan.actions.append(Action(key, "unchanged", target, current))
                continue
            verdict = _verdict(current, target, compile_plan, flink_version)
            if verdict is None:
                plan.actions.append(Action(key, "unchanged", target, current, note="the same job: only comments or layout changed"))
            else:
                plan.actions.append(Action(key, "upgrade", target, current, verdict=verdict))
        elif jobs and jobs[0].state == "FAILED":
            plan.actions.append(Action(key, "failed", target, jobs[0], note="its newest job FAILED"))
        else:
            plan.actions.append(Action(key, "create", target, jobs[0] if jobs else None))
    plan.actions.sort(key=lambda a: (ORDER.index(a.action), a.task_key))
    return plan


def _verdict(current: DeployedJob, target: DesiredJob, compile_plan: PlanCompiler | None,
             flink_version: str | None) -> Verdict | None:
    """The predicted verdict of the upgrade; None when both sides compile to the same job."""
    if current.flink_version and flink_version and current.flink_version != flink_version:
        # compiling both sides here would hide the change: both plans would say this client's version
        return Verdict(UNKNOWN, reason=f"the Flink version changed ({current.flink_version} -> {flink_version})")
    if compile_plan is None:
        return Verdict(UNKNOWN, reason="no Flink planner to compare the plans")
    if current.statements is None:
        return Verdict(UNKNOWN, reason=f"job {current.job_id} carries no flinkx statements (not deployed by flinkx deploy?)")
    try:
        # the deployed job's functions are planned from today's declarations: the cluster keeps its
        # statements, not the signatures (docs/decisions.md)
        old = compile_plan(list(current.statements), target.udfs)
    except DeployFlinkError as exc:
        return Verdict(UNKNOWN, reason=f"the deployed SQL does not compile here: {exc}")
    try:
        new = compile_plan(list(target.statements), target.udfs)
    except DeployFlinkError as exc:
        return Verdict(UNKNOWN, reason=f"the new SQL does not compile: {exc}")
    if same_job(old.plan, new.plan):
        return None
    # apply submits the upgrade with each operator pinned to its old id: predict what Flink then maps
    return classify(old, effective(new, pins(old, new)), flink_version or "")
