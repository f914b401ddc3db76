"""deploy's Flink client: flinkx's planner driver on the jars of the workspace's Flink version.

It compiles plans and submits jobs (planner/java/.../DeployClient.java; the steps and options of a submission
in submission.py). The driver is a child process of this run (never the warm service): `--apply` puts the
operator's jars on its class path, and it ends with the run. Planning uses flinkx's stand-ins and refusals
(planning.py's lists travel with each request); stop-with-savepoint and cancel go over the REST API (cluster.py).
"""
from __future__ import annotations

import json
from pathlib import Path
from types import TracebackType
from typing import Any

from flinkx_build.deploy import planning
from flinkx_build.deploy.compat import CompiledJob
from flinkx_build.deploy.compat import Operator
from flinkx_build.deploy.compat import attach_unnamed
from flinkx_build.deploy.identity import Statement
from flinkx_build.deploy.submission import DeployFlinkError
from flinkx_build.deploy.submission import refusal
from flinkx_build.deploy.submission import submission_steps
from flinkx_build.deploy.submission import submit_options
from flinkx_build.planner import protocol
from flinkx_build.planner.process import Planner
from flinkx_build.planner.process import PlannerStopped
from flinkx_build.planner.session import open_planner
from flinkx_build.validate.contract import UdfStub


class DriverFlink:
    """deploy's Flink client on the planner driver: `flink_version`, `compile_plan`, `submit`, `close`."""

    def __init__(self, flink_version: str, jars: list[Path]) -> None:
        self._jars = [Path(j).resolve() for j in jars]
        self._planner: Planner | None = open_planner(flink_version, fetch=True, warm=False, extra_jars=tuple(self._jars))
        self.flink_version = self._planner.flink_version

    def close(self) -> None:
        if self._planner is not None:
            self._planner.close()
            self._planner = None

    def __enter__(self) -> DriverFlink:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def _ask(self, request: dict[str, Any], statements: list[Statement]) -> dict[str, Any]:
        if self._planner is None:
            raise DeployFlinkError("the Flink client was closed")
        try:
            answer = self._planner.ask(request)
        except PlannerStopped as exc:
            self.close()
            raise DeployFlinkError(f"the Flink {self.flink_version} client stopped: {exc}") from None
        if "not_planned" in answer:
            raise DeployFlinkError(_not_planned(answer["not_planned"], statements))
        if "messages" in answer:
            raise DeployFlinkError(refusal([str(m) for m in answer["messages"]]))
        if "error" in answer:
            raise DeployFlinkError(f"the Flink {self.flink_version} client refused the request: {answer['error']}")
        return answer

    def compile_plan(self, statements: list[Statement], udfs: tuple[UdfStub, ...] = ()) -> dict[str, Any]:
        """Flink's COMPILE PLAN JSON of the task's job, planned with flinkx's stand-ins (planning.py)."""
        return self.compile_job(statements, udfs, operator_ids=False).plan

    def compile_job(self, statements: list[Statement], udfs: tuple[UdfStub, ...] = (),
                    operator_ids: bool = True) -> CompiledJob:
        """The plan, and the id Flink gives each operator when the SQL is submitted (JobShape.java)."""
        answer = self._ask({**self._standin_request(statements, udfs), "operator_ids": operator_ids}, statements)
        try:
            plan = json.loads(str(answer.get("plan", "")))
        except ValueError:
            raise DeployFlinkError(f"the Flink {self.flink_version} client returned no compiled plan") from None
        operators = attach_unnamed(plan, [Operator.from_data(o) for o in answer["operators"]]) if "operators" in answer else None
        return CompiledJob(plan, operators, {str(k): str(v) for k, v in (answer.get("connectors") or {}).items()})

    def _submission(self, statements: list[Statement], cluster_url: str, name: str, job_parameters: dict[str, str],
                    savepoint: str | None) -> dict[str, Any]:
        options = submit_options(cluster_url, name, self._jars, savepoint)
        return protocol.submit_request(submission_steps(statements), options, job_parameters,
                                       [] if self._jars else ["pipeline.jars"])

    def compile_submission(self, statements: list[Statement], cluster_url: str, name: str) -> CompiledJob:
        """The job a submission of `statements` runs (real connectors, `--apply` only): plan and operator ids."""
        answer = self._ask({**self._submission(statements, cluster_url, name, {}, None), "deploy": "compile_job"},
                           statements)
        try:
            plan = json.loads(str(answer.get("plan", "")))
        except ValueError:
            raise DeployFlinkError(f"the Flink {self.flink_version} client returned no compiled plan") from None
        return CompiledJob(plan, attach_unnamed(plan, [Operator.from_data(o) for o in answer.get("operators") or []]))

    def _standin_request(self, statements: list[Statement], udfs: tuple[UdfStub, ...]) -> dict[str, Any]:
        return protocol.compile_plan_request([(s.kind, s.text) for s in statements],
                                             [u.wire() for u in udfs],
                                             planning.OPERATIONS)

    def snapshot(self, statements: list[Statement], udfs: tuple[UdfStub, ...], folder: Path, timeout: float = 120.0) -> str:
        """Run the task's job with flinkx's stand-ins in the driver's MiniCluster and take a savepoint of it into
        `folder`: the savepoint's path (upgrade-check's trials across versions)."""
        request = {**self._standin_request(statements, udfs), "deploy": "snapshot", "folder": str(folder),
                   "timeout_ms": int(timeout * 1000)}
        answer = self._ask(request, statements)
        if not answer.get("savepoint"):
            raise DeployFlinkError("the job with flinkx's stand-ins did not run: "
                                   + refusal([str(m) for m in answer.get("refused") or ["no savepoint"]]))
        return str(answer["savepoint"])

    def standin_trial(self, statements: list[Statement], udfs: tuple[UdfStub, ...], savepoint: str,
                      pins: dict[str, str], timeout: float = 120.0) -> dict[str, Any]:
        """The restore trial on the task's job planned with flinkx's stand-ins (no connector, no jar)."""
        request = {**self._standin_request(statements, udfs), "deploy": "trial", "standins": True, "pins": pins,
                   "savepoint": savepoint, "timeout_ms": int(timeout * 1000)}
        return self._ask(request, statements)

    def trial(self, statements: list[Statement], cluster_url: str, name: str, savepoint: str, plan: dict[str, Any],
              pins: dict[str, str], timeout: float = 120.0) -> dict[str, Any]:
        """The restore trial (RestoreTrial.java): {"restored": true, ...} or {"refused": [Flink's messages], "task"}."""
        request = {**self._submission(statements, cluster_url, name, {}, None), "deploy": "trial", "plan": json.dumps(plan),
                   "pins": pins, "savepoint": savepoint, "timeout_ms": int(timeout * 1000)}
        return self._ask(request, statements)

    def submit(self, statements: list[Statement], cluster_url: str, name: str, job_parameters: dict[str, str],
               savepoint: str | None = None, plan: dict[str, Any] | None = None, pins: dict[str, str] | None = None) -> str:
        """Plan the job in the driver, run it on the cluster; its job id. With `plan` (compile_submission's) the
        job is built from that plan, the operators named in `pins` restored from the ids given (stable_ids.py)."""
        request = self._submission(statements, cluster_url, name, job_parameters, savepoint)
        if plan is not None:
            request = {**request, "plan": json.dumps(plan), "pins": pins or {}}
        job_id = str(self._ask(request, statements).get("job_id") or "")
        if not job_id:
            raise DeployFlinkError("Flink returned no job id for the submission")
        return job_id


def _not_planned(detail: dict[str, Any], statements: list[Statement]) -> str:
    """flinkx's words for a statement the driver did not plan (the same as on 1.20, planning.py)."""
    why, operation = str(detail.get("why", "")), str(detail.get("operation", ""))
    index = detail.get("index", -1)
    stmt = statements[index] if isinstance(index, int) and 0 <= index < len(statements) else Statement("other", "")
    if why == "set":
        return planning.set_refusal(str(detail.get("key", "")), detail.get("value")) or f"SET '{detail.get('key')}' is not planned"
    if why == "loads_code":
        return planning.loads_code(operation, stmt)
    if why == "udf":
        return planning.no_signature(str(detail.get("function", "")))
    if why == "no_insert":
        return planning.NO_INSERT
    if why == "guard":  # the driver's own refusal of a statement that would take a table off the stand-in (FX197)
        return f"FX197 {detail.get('message', '')}"
    return planning.not_a_plan(operation, stmt)
