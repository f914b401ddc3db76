"""Running test cases on the embedded Flink: one JVM for the run, a TableEnvironment per case.

Per case the compiled script is executed as Flink would run it, with every table's connector
swapped for the stand-in (validate/java): tables the case gives rows get them (a bounded
source: at its end the final watermark fires every event-time window; lookups are answered
from the same rows), and every table collects the changes written to it. The task's INSERTs
(or its statement set) then run as one real job on a local mini-cluster in the same JVM, and
the collected changelogs are read back. Nothing is simulated in Python: upserts, retractions,
late rows and window firing are Flink's.

The jobs run on one local MiniCluster started in the gateway JVM for the whole run (its REST
endpoint bound to 127.0.0.1), not on a new mini-cluster per job as PyFlink's local target does:
a job then skips starting a cluster of its own, most of a short job's time.
"""
from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from types import TracebackType
from typing import Any

from flinkx_build import engine_settings
from flinkx_build.compile.script import CompiledScript
from flinkx_build.testing.bind import Change
from flinkx_build.testing.bind import TableInfo
from flinkx_build.testing.bind import TestCase
from flinkx_build.testing.values import convert
from flinkx_build.testing.values import to_wire
from flinkx_build.validate import jvm as jvmlib
from flinkx_build.validate import standin
from flinkx_build.validate.contract import UdfStub
from flinkx_build.validate.findings import java_messages
from flinkx_build.validate.findings import statement_sql
from flinkx_build.validate.findings import summarize

FIXTURE_ROWS_KEY = "flinkx.fixture-rows"  # StandinTableFactory.FIXTURE_ROWS
COLLECT_ID_KEY = "flinkx.collect-id"  # StandinTableFactory.COLLECT_ID
# Deterministic runs: one task slot, so rows keep the order they are given in; watermarks are
# emitted as soon as they advance (interval 0), so a late row is late on every machine; UTC, so
# TIMESTAMP_LTZ fixtures mean the same everywhere. A task's own SETs come later and win.
CASE_CONFIG = {
    "parallelism.default": "1",
    "pipeline.auto-watermark-interval": "0 ms",
    "table.local-time-zone": "UTC",
}


class FlinkUnavailable(Exception):
    """PyFlink or Java is missing, or the JVM would not start."""


class NotRunnable(ValueError):
    """A statement a test does not run (it could reach outside the stand-ins)."""


class JobTimeout(Exception):
    """A case's job did not finish within --timeout; it was cancelled."""


@dataclass
class CaseRun:
    """What one case's job wrote: per meta table key, the changes in arrival order."""

    written: dict[str, list[Change]] = field(default_factory=dict)
    error: str = ""  # Flink's message when the job could not be planned or failed
    seconds: float = 0.0


class TestRunner:
    """One gateway JVM for the whole run. Use as a context manager."""

    __test__ = False  # not a pytest class

    def __init__(self, log_dir: Path, timeout: float = 120.0) -> None:
        found = jvmlib.find_toolchain()
        if isinstance(found, str):
            raise FlinkUnavailable(found)
        self.timeout = timeout
        self._runs = 0
        self._cluster: Any = None
        self._rest_port = 0
        try:
            jar = jvmlib.standin_jar(found)
            self._gateway: jvmlib.Gateway | None = jvmlib.launch(found, [jar], log_dir)
        except Exception as exc:  # noqa: BLE001 - any start failure means "no Flink here"
            raise FlinkUnavailable(f"could not start Flink: {exc}") from None

    def close(self) -> None:
        if self._gateway is not None:
            if self._cluster is not None:
                try:
                    self._cluster.close()
                except Exception:  # noqa: BLE001 - the JVM stops next anyway
                    pass
                self._cluster = None
            jvmlib.stop(self._gateway)
            self._gateway = None

    def _cluster_port(self) -> int:
        """The REST port of the run's MiniCluster, started on first use."""
        if self._cluster is None:
            flink = self._jvm.org.apache.flink
            config = flink.configuration.Configuration()
            for key, value in (("rest.address", "127.0.0.1"), ("rest.bind-address", "127.0.0.1"), ("rest.port", "0")):
                config.setString(key, value)
            settings = (flink.runtime.minicluster.MiniClusterConfiguration.Builder()
                        .setConfiguration(config).setNumTaskManagers(1).setNumSlotsPerTaskManager(2).build())
            cluster = flink.runtime.minicluster.MiniCluster(settings)
            cluster.start()
            self._rest_port = int(cluster.getRestAddress().get().getPort())
            self._cluster = cluster
        return self._rest_port

    def __enter__(self) -> TestRunner:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    @property
    def _jvm(self) -> Any:
        if self._gateway is None:
            raise FlinkUnavailable("the Flink session is closed")
        return self._gateway.jvm

    def run(self, case: TestCase, script: CompiledScript) -> CaseRun:
        began = time.perf_counter()
        self._runs += 1
        prefix = f"run{self._runs}:"
        result = CaseRun()
        emitted = {name: info for info in case.tables.values() for name in info.emitted}
        try:
            tenv = self._new_tenv(case.mode)
            inserts = self._prepare(tenv, case, script, emitted, prefix)
            config = tenv.getConfig().getConfiguration()
            for key, value in self._engine_location().items():  # flinkx's own, after the task's: they win
                config.setString(key, value)
            if inserts:
                self._execute(tenv, inserts)
            for name, info in emitted.items():
                raw = json.loads(str(self._jvm.flinkx.standin.Collected.take(prefix + name)))
                result.written.setdefault(info.key, []).extend(_read_back(raw, info))
        except Exception as exc:  # noqa: BLE001 - a case error is a failed case, never a traceback
            result.error = (str(exc) if isinstance(exc, (NotRunnable, JobTimeout)) else _job_failure(exc)
                            or summarize(java_messages(exc))[0] or f"{type(exc).__name__}: {exc}")
            if self._gateway is not None and not self._gateway.alive():
                self.close()
                raise FlinkUnavailable(f"the Flink JVM died: {result.error}") from None
        finally:
            if self._gateway is not None:
                for name in emitted:  # never leave a failed case's rows behind
                    self._jvm.flinkx.standin.Collected.take(prefix + name)
        result.seconds = time.perf_counter() - began
        return result

    def _engine_location(self) -> dict[str, str]:
        """Where a case's job goes: this run's mini-cluster, whatever a task SETs."""
        return {"execution.target": "remote", "rest.address": "127.0.0.1", "rest.port": str(self._cluster_port())}

    def _new_tenv(self, mode: str) -> Any:
        flink = self._jvm.org.apache.flink
        target = flink.configuration.Configuration()
        for key, value in self._engine_location().items():
            target.setString(key, value)
        builder = flink.table.api.EnvironmentSettings.newInstance().withConfiguration(target)
        builder = builder.inBatchMode() if mode == "batch" else builder.inStreamingMode()
        tenv = flink.table.api.TableEnvironment.create(builder.build())
        config = tenv.getConfig().getConfiguration()
        for key, value in CASE_CONFIG.items():
            config.setString(key, value)
        return tenv

    def _prepare(self, tenv: Any, case: TestCase, script: CompiledScript,
                 emitted: dict[str, TableInfo], prefix: str) -> list[str]:
        """Run the script's DDL and SETs; return its INSERTs (run together as one job)."""
        rows = {bound.table.key: _wire_rows(bound.changes, bound.table) for bound in case.given}
        config = tenv.getConfig().getConfiguration()
        inserts = []
        for stmt in script.statements:
            sql = statement_sql(stmt)
            if stmt.kind == "set":
                pair = allowed_setting(sql)
                if pair:
                    config.setString(*pair)
            elif stmt.kind == "insert":
                inserts.append(sql)
            elif stmt.kind == "create_table":
                self._create_table(tenv, sql, emitted, rows, prefix)
            elif stmt.kind == "create_function":
                self._create_function(tenv, sql, script, case)
            elif stmt.kind in ("begin_statement_set", "end", "select"):
                continue  # all INSERTs run as one job; a bare query has no sink to check
            else:
                self._other(tenv, sql)
        return inserts

    @staticmethod
    def _other(tenv: Any, sql: str) -> None:
        """Views, USE and Flink's own in-memory catalog run; SHOW, DESCRIBE and EXPLAIN have nothing
        to test. Anything else (ADD JAR, another CREATE CATALOG, LOAD MODULE, ...) could reach
        outside the test's stand-ins, so a test refuses it."""
        operation = tenv.getParser().parse(sql).get(0)
        name = str(operation.getClass().getSimpleName())
        if name.startswith(("CreateView", "DropView", "AlterView", "Use")) or standin.safe_catalog(operation):
            tenv.executeSql(sql)
        elif not name.startswith(("Show", "Describe", "Explain")):
            raise NotRunnable(f"flinkx test does not run this statement ({name}): "
                             f"{' '.join(sql.split()[:4])} ...")

    def _create_table(self, tenv: Any, sql: str, emitted: dict[str, TableInfo],
                      rows: dict[str, str], prefix: str) -> None:
        operation = tenv.getParser().parse(sql).get(0)
        if str(operation.getClass().getSimpleName()) != "CreateTableOperation":
            # CREATE TABLE ... AS SELECT would run its own job with the real connector
            raise NotRunnable("flinkx test does not run CREATE TABLE ... AS SELECT; write CREATE TABLE and INSERT")
        name = str(operation.getTableIdentifier().getObjectName())
        info = emitted.get(name)
        fixture = {FIXTURE_ROWS_KEY: rows.get(info.key, "[]") if info else "[]", COLLECT_ID_KEY: prefix + name}
        tenv.executeInternal(standin.standin_create_table(self._jvm, operation, fixture))

    def _create_function(self, tenv: Any, sql: str, script: CompiledScript, case: TestCase) -> None:
        """A project function runs as the validator's stand-in: NULL, or what the test gives."""
        name = created_function_name(sql)
        udf = declared_udf(script, name)
        standin_class = getattr(self._jvm.flinkx.standin, standin.UDF_CLASSES[udf.kind])
        calls = case.functions.get(name.lower())
        instance = (standin_class(name, udf.returns, json.dumps(calls)) if calls is not None
                    else standin_class(name, udf.returns))
        tenv.createTemporaryFunction(f"`{name}`", instance)

    def _execute(self, tenv: Any, inserts: list[str]) -> None:
        if len(inserts) == 1:
            result = tenv.executeSql(inserts[0])
        else:
            statement_set = tenv.createStatementSet()
            for sql in inserts:
                statement_set.addInsertSql(sql)
            result = statement_set.execute()
        unit = self._jvm.java.util.concurrent.TimeUnit.MILLISECONDS
        try:
            getattr(result, "await")(int(self.timeout * 1000), unit)
        except Exception as exc:  # noqa: BLE001
            if "TimeoutException" in str(exc):
                result.getJobClient().get().cancel()
                raise JobTimeout(timeout_message(self.timeout)) from None
            raise


def _job_failure(exc: BaseException) -> str | None:
    java = getattr(exc, "java_exception", None)
    chain: list[tuple[str, str]] = []
    while java is not None and len(chain) < 50:
        chain.append((str(java.getClass().getSimpleName()), str(java.getMessage() or "")))
        cause = java.getCause()
        java = None if cause is None or cause.equals(java) else cause
    return job_failure(chain)


def job_failure(chain: list[tuple[str, str]]) -> str | None:
    """For a job that failed while running: its root cause (the outer messages only say that
    the job failed), e.g. "NumberFormatException: For input string: 'o1'". `chain` is the Java
    exception chain, outermost first: (simple class name, message or "")."""
    if not any("Job execution failed" in message for _, message in chain):
        return None
    root_class, root_message = chain[-1]
    message = root_message.strip().splitlines()
    return f"the job failed: {root_class}: {message[0] if message else ''}"


def allowed_setting(sql: str) -> tuple[str, str] | None:
    """The (key, value) a test applies for a task's SET (None: not a key-value SET); NotRunnable
    for a key outside the engine settings' allow-list. Both runtimes decide it here."""
    pair = engine_settings.set_pair(sql)
    if pair and (why := engine_settings.refusal(*pair)):
        raise NotRunnable(f"{engine_settings.CODE} flinkx test does not apply it: {why}")
    return pair


def timeout_message(seconds: float) -> str:
    """FX314: a case's job ran past --timeout (or the Flink process stopped answering) and was stopped."""
    return (f"FX314 the job did not finish within {seconds:g} s and was cancelled "
            "(a bounded test job normally ends in seconds; raise --timeout if this one needs longer)")


_CREATE_FUNCTION = re.compile(
    r"\s*CREATE\s+(?:TEMPORARY\s+)?(?:SYSTEM\s+)?FUNCTION\s+(?:IF\s+NOT\s+EXISTS\s+)?(`(?:[^`]|``)+`|[\w.]+)", re.IGNORECASE)


def created_function_name(sql: str) -> str:
    match = _CREATE_FUNCTION.match(sql)
    return match.group(1).strip("`").replace("``", "`") if match else ""


def declared_udf(script: CompiledScript, name: str) -> UdfStub:
    """The declaration a created function runs as a stand-in of; NotRunnable without one."""
    udf = standin.find_udf(tuple(script.udfs), name)
    if udf is None or udf.kind not in standin.UDF_CLASSES:
        raise NotRunnable(f"function '{name}' has no declared return type; it cannot run in a test")
    return udf


def _wire_rows(changes: list[Change], info: TableInfo) -> str:
    rows = []
    for change in changes:
        values = {}
        for name, value in change.values.items():
            col = info.columns[name.lower()]
            values[col.name] = to_wire(value, col.type)
        rows.append({"kind": change.kind, "values": values})
    return json.dumps(rows)


def _read_back(raw: list[dict], info: TableInfo) -> list[Change]:
    """What the sink received, typed by the sink's columns like the expectations are."""
    changes = []
    for row in raw:
        values = {}
        for name, value in row["values"].items():
            col = info.columns.get(name.lower())
            try:
                values[col.name if col else name] = convert(value, col.type) if col else value
            except ValueError:
                values[col.name if col else name] = value
        changes.append(Change(row["kind"], values, None))
    return changes
