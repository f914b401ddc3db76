"""The embedded Flink client of deploy: one gateway JVM that compiles plans and submits jobs.

It reuses validate's toolchain: `jvm.find_toolchain` (and its messages), the stand-in jar (whose
watchdog keeps the gateway alive and ends it with us) and `jvm.launch`. `compile_plan` plans with
flinkx's stand-ins (deploy/planning.py) and needs no jar; `submit` (only `--apply`) runs the real
connectors and functions: the operator's jars from `--jar` / `deploy.jars` go on the JVM's
classpath and into `pipeline.jars`, so the cluster gets them with the job.

Jobs are submitted as SQL with `execution.target: remote` (client-side planning). Operator ids then
come from Flink's topology hash (`table.exec.uid.generation` stays at its default PLAN_ONLY): an
unchanged topology maps its savepoint state again, which is what an upgrade relies on (measured:
a GROUP BY job and the same job with a filter added both restored from their savepoints).
"""
from __future__ import annotations

import json
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import urlparse

from flinkx_build import engine_settings
from flinkx_build.deploy.identity import Statement
from flinkx_build.deploy.planning import NO_INSERT
from flinkx_build.deploy.planning import NotPlanned
from flinkx_build.deploy.planning import prepare_standins
from flinkx_build.deploy.planning import set_refusal
from flinkx_build.validate.contract import UdfStub
from flinkx_build.validate import jvm as jvmlib
from flinkx_build.validate.findings import java_messages
from flinkx_build.validate.findings import summarize

_EXECUTED = frozenset({"create_table", "create_view", "create_function", "other"})


class DeployFlinkError(Exception):
    """Flink refused a statement or a submission; the message is one line."""


class FlinkUnavailable(Exception):
    """No PyFlink/Java here: the message says what to install."""


def refusal(messages: list[str]) -> str:
    """Flink's summary plus the innermost cause, which says why (a submission failing with "Could
    not start the JobMaster" is explained only at the bottom: "Cannot map checkpoint/savepoint
    state for operator ...")."""
    summary = summarize(messages)[0]
    lines = [line.strip() for line in (messages[-1] if messages else "").splitlines() if line.strip()]
    root = lines[0] if lines else ""
    if root and root[:60] not in summary:
        summary = f"{summary} -- {root}"
    return summary if len(summary) <= 600 else summary[:597] + "..."


def submission_steps(statements: list[Statement]) -> list[tuple[str, ...]]:
    """What submitting a job does with its statements, in order, on any Flink client: ("set", key, value)
    for an allowed SET (a refused one stops here), ("execute", sql) for DDL with the real connectors and
    functions, ("insert", sql) for each INSERT of the job's statement set."""
    steps: list[tuple[str, ...]] = []
    for stmt in statements:
        if stmt.kind == "set":
            pair = engine_settings.set_pair(stmt.text)
            if pair:
                why = set_refusal(*pair)
                if why:
                    raise DeployFlinkError(why)
                steps.append(("set", *pair))
        elif stmt.kind == "insert":
            steps.append(("insert", stmt.text))
        elif stmt.kind in _EXECUTED:
            steps.append(("execute", stmt.text))
        # select, begin/end of a statement set: a task is one job; every INSERT joins it
    if not any(step[0] == "insert" for step in steps):
        raise DeployFlinkError(NO_INSERT)
    return steps


def submit_options(cluster_url: str, name: str, jars: list[Path], savepoint: str | None) -> dict[str, str]:
    """flinkx's own settings of a submission; they win over the task's SETs."""
    url = urlparse(cluster_url)
    options = {
        "execution.target": "remote",
        "rest.address": url.hostname or "127.0.0.1",
        "rest.port": str(url.port or 8081),
        "pipeline.name": name,
        "parallelism.default": "1",
        # The client returns once the job is submitted; deploy then watches it over REST.
        "execution.attached": "false",
    }
    if jars:
        options["pipeline.jars"] = ";".join(p.as_uri() for p in jars)
    if savepoint:
        options["execution.savepoint.path"] = savepoint
    return options


class DeployFlink:
    """Use as a context manager; `close()` stops the JVM it started."""

    def __init__(self, log_dir: Path, jars: list[Path]) -> None:
        found = jvmlib.find_toolchain()
        if isinstance(found, str):
            raise FlinkUnavailable(f"{found}: {jvmlib.INSTALL_HINT}")
        self._jars = [Path(j).resolve() for j in jars]
        try:
            standin = jvmlib.standin_jar(found)
            self._gateway = jvmlib.launch(found, [standin, *self._jars], Path(log_dir))
        except Exception as exc:  # noqa: BLE001 - any start failure means "no Flink client here"
            raise FlinkUnavailable(f"could not start the embedded Flink client: {exc} ({jvmlib.INSTALL_HINT})") from None
        self.flink_version = found.flink_version

    def close(self) -> None:
        if self._gateway is not None:
            jvmlib.stop(self._gateway)
            self._gateway = None

    def __enter__(self) -> DeployFlink:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    # --- environments ----------------------------------------------------------------------

    def _tenv(self, options: dict[str, str], job_parameters: dict[str, str] | None = None) -> Any:
        jvm = self._gateway.jvm
        conf = jvm.org.apache.flink.configuration.Configuration()
        for key, value in options.items():
            conf.setString(key, value)
        if job_parameters:
            params = jvm.java.util.HashMap()
            for key, value in job_parameters.items():
                params.put(key, value)
            # The typed option, not its "k:v,k:v" string form: values hold commas and colons.
            conf.set(jvm.org.apache.flink.configuration.PipelineOptions.GLOBAL_JOB_PARAMETERS, params)
        api = jvm.org.apache.flink.table.api
        settings = api.EnvironmentSettings.newInstance().inStreamingMode().withConfiguration(conf).build()
        return api.TableEnvironment.create(settings)

    def _prepare(self, tenv: Any, statements: list[Statement]) -> list[str]:
        """Apply SETs, run DDL with the job's real connectors and functions; the INSERTs, in order.
        Only `submit` does this: it runs merged, reviewed SQL with the operator's jars."""
        config = tenv.getConfig().getConfiguration()
        inserts = []
        for step in submission_steps(statements):
            if step[0] == "set":
                config.setString(step[1], step[2])
            elif step[0] == "insert":
                inserts.append(step[1])
            else:
                self._call(lambda: tenv.executeSql(step[1]), step[1])
        return inserts

    def _statement_set(self, tenv: Any, inserts: list[str]) -> Any:
        statement_set = tenv.createStatementSet()
        for text in inserts:
            self._call(lambda: statement_set.addInsertSql(text), text)
        return statement_set

    @staticmethod
    def _call(action: Any, text: str = "") -> Any:
        try:
            return action()
        except Exception as exc:  # noqa: BLE001 - Flink's refusal, as one line
            raise DeployFlinkError(refusal(java_messages(exc))) from None

    # --- what deploy does ------------------------------------------------------------------

    def compile_plan(self, statements: list[Statement], udfs: tuple[UdfStub, ...] = ()) -> dict[str, Any]:
        """Flink's COMPILE PLAN JSON of the task's job (all its INSERTs as one statement set).
        The statements may come from a pull request: they are planned with flinkx's stand-ins,
        functions from their declarations `udfs` (deploy/planning.py)."""
        tenv = self._tenv({"parallelism.default": "1"})
        try:
            inserts = prepare_standins(self._gateway.jvm, tenv, statements, udfs, self._call)
        except NotPlanned as exc:
            raise DeployFlinkError(str(exc)) from None
        if not inserts:
            raise DeployFlinkError(NO_INSERT)
        tenv.getConfig().getConfiguration().setString("parallelism.default", "1")
        statement_set = self._statement_set(tenv, inserts)
        return json.loads(str(self._call(lambda: statement_set.compilePlan().asJsonString())))

    def submit(self, statements: list[Statement], cluster_url: str, name: str, job_parameters: dict[str, str],
               savepoint: str | None = None) -> str:
        """Plan the job here, run it on the cluster; its job id."""
        options = submit_options(cluster_url, name, self._jars, savepoint)
        tenv = self._tenv(options, job_parameters)
        inserts = self._prepare(tenv, statements)
        # flinkx's own settings win over the task's: the job's name is how deploy finds it again,
        # and where it goes and which jars it ships are the operator's (--cluster, --jar).
        config = tenv.getConfig().getConfiguration()
        for key, value in options.items():
            config.setString(key, value)
        if not self._jars:
            config.removeKey("pipeline.jars")
        statement_set = self._statement_set(tenv, inserts)
        result = self._call(statement_set.execute)
        client = result.getJobClient()
        if not client.isPresent():
            raise DeployFlinkError("Flink returned no job client for the submission")
        return str(client.get().getJobID())
