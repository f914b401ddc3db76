"""Make the cluster match the plan: remove, upgrade through a savepoint, create; wait; report.

Removals go first (they free slots), then upgrades, then new jobs. Each submitted job is watched
until it RUNS (all its tasks) or fails. Secrets are put into the statements only here, just before
submission; the job's stored statements and fingerprint keep the `${name}` placeholders, and every
message that leaves this module is scrubbed of the values.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any
from typing import Callable
from typing import Mapping

from flinkx_build.deploy.cluster import ClusterError
from flinkx_build.deploy.cluster import FlinkRest
from flinkx_build.deploy.compat import OTHER_MEANING
from flinkx_build.deploy.compat import RESTORES
from flinkx_build.deploy.driver_client import DriverFlink
from flinkx_build.deploy.identity import FINGERPRINT_KEY
from flinkx_build.deploy.identity import FLINK_VERSION_KEY
from flinkx_build.deploy.identity import STATEMENTS_KEY
from flinkx_build.deploy.identity import TASK_KEY
from flinkx_build.deploy.identity import Statement
from flinkx_build.deploy.identity import encode_statements
from flinkx_build.deploy.plan import Action
from flinkx_build.deploy.plan import Plan
from flinkx_build.deploy.state import DesiredJob
from flinkx_build.deploy.submission import DeployFlinkError
from flinkx_build.variables import VARIABLE_PATTERN


class MissingSecret(Exception):
    def __init__(self, name: str, where: str) -> None:
        self.name, self.where = name, where  # where: `path:line:col` of the statement that uses it
        super().__init__(name)


@dataclass
class Outcome:
    task_key: str
    action: str
    ok: bool
    message: str
    job_id: str | None = None
    state: str | None = None
    savepoint: str | None = None
    restored_from: str | None = None

    def to_data(self) -> dict[str, object]:
        return dict(self.__dict__)


def secret_values(plan: Plan, secrets: list[str], env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The value of every secret a job to submit uses: from the variable of that name, else its
    upper-case form. Checked for all jobs before anything changes on the cluster."""
    env = os.environ if env is None else env
    values: dict[str, str] = {}
    for action in plan.of("create", "upgrade", "failed"):
        assert action.desired is not None
        desired = action.desired
        # an upgrade may roll back to the deployed statements: their secrets are needed too
        rollback = action.job.statements if action.action == "upgrade" and action.job and action.job.statements else ()
        for index, stmt in enumerate(desired.statements + rollback):
            for match in VARIABLE_PATTERN.finditer(stmt.text):
                name = match.group("param_name")
                if name not in secrets or name in values:
                    continue
                value = env.get(name, env.get(name.upper()))
                if value is None:
                    path, line, col = desired.sources[index] if index < len(desired.sources) else (desired.source, 1, 1)
                    raise MissingSecret(name, f"{path}:{line}:{col}")
                values[name] = value
    return values


def fill(statements: tuple[Statement, ...], values: dict[str, str]) -> list[Statement]:
    def put(match) -> str:  # type: ignore[no-untyped-def]
        name = match.group("param_name")
        return values[name].replace("'", "''") if name in values else match.group(0)

    return [Statement(s.kind, VARIABLE_PATTERN.sub(put, s.text)) for s in statements]


def scrub(text: str, values: dict[str, str]) -> str:
    for value in sorted((v for v in values.values() if v), key=len, reverse=True):
        text = text.replace(value, "***").replace(value.replace("'", "''"), "***")
    return text


class Applier:
    def __init__(self, plan: Plan, rest: FlinkRest, flink: DriverFlink | None, savepoint_dir: str | None,
                 secrets: dict[str, str], echo: Callable[[str], None], allow_fresh_start: bool = False,
                 allow_changed_meaning: bool = False) -> None:
        self.plan, self.rest, self.flink = plan, rest, flink
        self.savepoint_dir, self.secrets, self.echo = savepoint_dir, secrets, echo
        self.allow_fresh_start, self.allow_changed_meaning = allow_fresh_start, allow_changed_meaning

    def keeps_state(self, action: Action) -> bool:
        """Restore the new job from the savepoint: its state restores, with the same meaning or, when the
        operator allowed it, another one (--allow-fresh-start alone starts such a job empty)."""
        verdict = action.verdict
        return verdict is not None and (verdict.level == RESTORES or (verdict.level == OTHER_MEANING and self.allow_changed_meaning))

    def run(self) -> list[Outcome]:
        outcomes = []
        for action in self.plan.actions:
            if action.action == "unchanged":
                continue
            began = time.perf_counter()
            try:
                outcome = getattr(self, f"_{action.action}")(action)
            except (ClusterError, DeployFlinkError) as exc:
                outcome = Outcome(action.task_key, action.action, False, str(exc))
            outcome.message = scrub(outcome.message, self.secrets) + f" ({time.perf_counter() - began:.1f} s)"
            self.echo(f"flinkx deploy: {'' if outcome.ok else 'FAILED: '}{action.action} {action.task_key}: {outcome.message}")
            outcomes.append(outcome)
        return outcomes

    def _stop(self, action: Action) -> tuple[str | None, str | None]:
        assert action.job is not None
        result = self.rest.stop_with_savepoint(action.job.job_id, self.savepoint_dir)
        if result.failure:
            return None, result.failure
        state = self.rest.wait_terminal(action.job.job_id)
        if state != "FINISHED":
            return result.location, f"job {action.job.job_id} is {state} after its savepoint {result.location}"
        return result.location, None

    def _remove(self, action: Action) -> Outcome:
        location, failure = self._stop(action)
        if failure:
            return Outcome(action.task_key, "remove", False, f"stop-with-savepoint of job {action.job.job_id} failed: {failure}")
        return Outcome(action.task_key, "remove", True, f"job {action.job.job_id} stopped, savepoint {location}",
                       action.job.job_id, "FINISHED", savepoint=location)

    def _upgrade(self, action: Action) -> Outcome:
        keep_state = self.keeps_state(action)
        # proven (prove.py) before anything stopped: the pinned plan the trial restored into, when it did
        submission = action.submission if keep_state else None
        location, failure = self._stop(action)
        if failure:
            return Outcome(action.task_key, "upgrade", False,
                           f"stop-with-savepoint of job {action.job.job_id} failed, the job keeps running: {failure}")
        try:
            outcome = self._start(action, restore=location if keep_state else None, submission=submission)
        except DeployFlinkError as exc:
            outcome = Outcome(action.task_key, "upgrade", False, f"the new job was not started: {exc}")
        outcome.savepoint = location
        prefix = f"job {action.job.job_id} stopped (savepoint {location}); "
        if not keep_state:
            prefix += "fresh start (--allow-fresh-start); "
        outcome.message = prefix + outcome.message
        if not outcome.ok and keep_state and self.allow_fresh_start:
            # Flink refused the savepoint although the SQL state matched: start empty, as allowed
            fresh = self._start(action, restore=None)
            fresh.savepoint = location
            fresh.message = f"{outcome.message}; fresh start (--allow-fresh-start): {fresh.message}"
            return fresh
        if not outcome.ok and location:
            outcome.message += "; " + self._roll_back(action, location)
        return outcome

    def _roll_back(self, action: Action, savepoint: str) -> str:
        """Flink could not start the new job (often: it cannot map the savepoint's operators):
        run the SQL that was deployed before again, from the savepoint just taken."""
        old = action.job
        assert old is not None and action.desired is not None
        if old.statements is None or old.fingerprint is None:
            return f"no rollback: job {old.job_id} carries no flinkx statements"
        try:
            job_id = self._submit(action.desired.name, action.task_key, old.fingerprint, old.statements, savepoint)
        except DeployFlinkError as exc:
            return f"rollback failed: {exc}"
        state = self.rest.wait_running(job_id)
        if state != "RUNNING":
            return f"rollback failed: job {job_id} is {state}: {self.rest.root_exception(job_id)}"
        return f"rolled back: the previous SQL runs again as job {job_id}, restored from {savepoint}"

    def _create(self, action: Action) -> Outcome:
        return self._start(action, restore=None)

    def _failed(self, action: Action) -> Outcome:
        outcome = self._start(action, restore=None)
        outcome.message = f"its failed job {action.job.job_id} replaced, fresh start; " + outcome.message
        return outcome

    def _submit(self, name: str, task_key: str, fingerprint: str, statements: tuple[Statement, ...], restore: str | None,
                submission: Any = None) -> str:
        if self.flink is None:
            raise DeployFlinkError("no Flink client to submit with")
        params = {TASK_KEY: task_key, FINGERPRINT_KEY: fingerprint, STATEMENTS_KEY: encode_statements(list(statements)),
                  FLINK_VERSION_KEY: self.flink.flink_version}
        plan, pinned = (submission.plan, submission.pins) if submission is not None else (None, None)
        return self.flink.submit(fill(statements, self.secrets), self.rest.url, name, params, restore, plan, pinned)

    def _start(self, action: Action, restore: str | None, submission: Any = None) -> Outcome:
        desired: DesiredJob = action.desired  # type: ignore[assignment]
        job_id = self._submit(desired.name, desired.task_key, desired.fingerprint, desired.statements, restore, submission)
        state = self.rest.wait_running(job_id)
        if state != "RUNNING":
            cause = self.rest.root_exception(job_id)
            return Outcome(desired.task_key, action.action, False, f"job {job_id} is {state}: {cause}", job_id, state)
        restored = self._restored_from(job_id) if restore else None
        if restore and restored is None:
            return Outcome(desired.task_key, action.action, False,
                           f"job {job_id} RUNNING but its checkpoint statistics show no restore from {restore}", job_id, state)
        text = f"job {job_id} RUNNING" + (f", restored from {restored}" if restored else "")
        return Outcome(desired.task_key, action.action, True, text, job_id, state, restored_from=restored)

    def _restored_from(self, job_id: str, timeout: float = 10.0) -> str | None:
        deadline = time.monotonic() + timeout
        while True:
            restored = self.rest.restored_from(job_id)
            if restored or time.monotonic() > deadline:
                return restored
            time.sleep(0.3)
