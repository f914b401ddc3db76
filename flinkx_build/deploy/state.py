"""Desired state (the build of the checked-out revision) and actual state (the cluster's jobs)."""
from __future__ import annotations

from dataclasses import dataclass

from flinkx_build.deploy.cluster import ACTIVE_STATES
from flinkx_build.deploy.cluster import FlinkRest
from flinkx_build.deploy.identity import FINGERPRINT_KEY
from flinkx_build.deploy.identity import FLINK_VERSION_KEY
from flinkx_build.deploy.identity import STATEMENTS_KEY
from flinkx_build.deploy.identity import Statement
from flinkx_build.deploy.identity import decode_statements
from flinkx_build.deploy.identity import fingerprint
from flinkx_build.deploy.identity import job_name
from flinkx_build.deploy.identity import task_of
from flinkx_build.pipeline import Session
from flinkx_build.validate.contract import UdfStub
from flinkx_build.workspace_model import Task
from flinkx_build.workspace_model import Workspace


@dataclass(frozen=True)
class DesiredJob:
    task_key: str
    project: str
    name: str  # the job name on the cluster
    source: str  # the task file, for messages
    statements: tuple[Statement, ...]  # compiled, `${secret}` placeholders kept
    fingerprint: str
    sources: tuple[tuple[str, int, int], ...] = ()  # per statement: the task line or the table YAML it came from
    udfs: tuple[UdfStub, ...] = ()  # declared signatures of its functions: planning uses stand-ins of them


@dataclass(frozen=True)
class DeployedJob:
    job_id: str
    name: str
    task_key: str
    state: str
    start_time: int
    fingerprint: str | None = None
    statements: tuple[Statement, ...] | None = None
    flink_version: str | None = None  # of the client that planned it

    @property
    def active(self) -> bool:
        return self.state in ACTIVE_STATES


def workspace_name(ws: Workspace) -> str:
    return ws.config.name or ws.root.name


def desired_jobs(session: Session, tasks: list[Task]) -> tuple[list[DesiredJob], list[tuple[str, str]]]:
    """One job per task that writes somewhere; (jobs, [(task key, why it is not deployed)])."""
    ws_name = workspace_name(session.workspace)
    jobs, skipped = [], []
    for task in tasks:
        script = session.compiled(task)
        statements = tuple(Statement(s.kind, s.text) for s in script.statements)
        if not any(s.kind == "insert" for s in statements):
            skipped.append((task.key, "no INSERT: nothing to run as a job"))
            continue
        jobs.append(DesiredJob(task.key, task.project, job_name(ws_name, task.key), task.display_path, statements,
                               fingerprint(list(statements)), tuple(script.sources), tuple(script.udfs)))
    return jobs, skipped


def deployed_jobs(rest: FlinkRest, ws_name: str) -> dict[str, list[DeployedJob]]:
    """This workspace's jobs per task key, newest first. Active jobs carry what they run."""
    out: dict[str, list[DeployedJob]] = {}
    for summary in rest.jobs():
        task_key = task_of(summary.name, ws_name)
        if task_key is None:
            continue
        job = DeployedJob(summary.job_id, summary.name, task_key, summary.state, summary.start_time)
        if job.active:
            params = rest.user_config(job.job_id)
            payload = params.get(STATEMENTS_KEY)
            statements = decode_statements(payload) if payload else None
            job = DeployedJob(job.job_id, job.name, task_key, job.state, job.start_time, params.get(FINGERPRINT_KEY),
                              tuple(statements) if statements is not None else None, params.get(FLINK_VERSION_KEY))
        out.setdefault(task_key, []).append(job)
    for jobs in out.values():
        jobs.sort(key=lambda j: (j.active, j.start_time), reverse=True)
    return out
