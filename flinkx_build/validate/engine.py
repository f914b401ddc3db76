"""Validate compiled scripts with the real Flink planner, embedded through PyFlink.

One JVM serves a whole run (`FlinkSession`); each script gets a fresh TableEnvironment in it, so
scripts never see each other's tables. Per script:

1. Syntax pass: every statement through Flink's own SQL parser (the planner's Calcite parser,
   reached by reflection: no catalog lookups). Any syntax error ends the script's validation.
2. Semantic pass: statements in order. DDL is executed with the connector swapped for the
   stand-in (java/), CREATE FUNCTION registers a stand-in returning the declared type, queries
   and INSERTs are EXPLAINed, statement sets are planned together. Nothing ever runs a job:
   what to do with a statement is decided from the parsed node's class, never by handing an
   unknown statement to executeSql (which would run INSERTs and CTAS on a local mini-cluster).

Every Java error becomes a `FlinkFinding` with Flink's own message, in compiled-file coordinates.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from types import TracebackType
from typing import Any

from flinkx_build import engine_settings
from flinkx_build.validate import jvm as jvmlib
from flinkx_build.validate import standin
from flinkx_build.validate.contract import FlinkFinding
from flinkx_build.validate.contract import ScriptToValidate
from flinkx_build.validate.findings import created_name
from flinkx_build.validate.findings import finding_from_error
from flinkx_build.validate.findings import is_comment_only
from flinkx_build.validate.findings import java_messages
from flinkx_build.validate.findings import missing_objects
from flinkx_build.validate.findings import one_line
from flinkx_build.validate.findings import statement_sql
from flinkx_build.validate.findings import summarize

_QUERY_KINDS = frozenset({"SELECT", "UNION", "INTERSECT", "EXCEPT", "MINUS", "VALUES", "WITH",
                          "ORDER_BY", "EXPLICIT_TABLE"})
_INSERTS = frozenset({"RichSqlInsert", "SqlInsert"})
_CREATE_TABLE = frozenset({"SqlCreateTable", "SqlCreateTableLike"})
_CTAS = frozenset({"SqlCreateTableAs", "SqlReplaceTableAs"})
# DDL that only touches the (in-memory) catalog and is safe to execute as written.
_DDL_PREFIXES = ("SqlCreate", "SqlDrop", "SqlAlter", "SqlUse")
# ...except these, which start jobs or need services the validator does not have, or load code
# (a catalog's factory, a model's provider: FX195 refuses them before validation; this is the backstop).
_NOT_EXECUTED = frozenset({"SqlAlterTableCompact", "SqlCreateMaterializedTable", "SqlCreateCatalog", "SqlAlterCatalog",
                           "SqlCreateModel", "SqlAlterModel", "SqlUseModules"})


def _set_key(node: Any, name: str) -> str:
    """The key of a SET node ('' for a bare SET, which lists the settings)."""
    if name == "SqlSet":
        return str(node.getKeyString()) if node.getKey() is not None else ""
    return str(node.getKey().get()) if node.getKey().isPresent() else ""


class FlinkUnavailable(Exception):
    """PyFlink or Java is missing (or the JVM would not start); the message says what to do."""


def flink_available() -> str | None:
    """None when validation can run, else a one-line reason (what is missing; the install hint
    is jvm.INSTALL_HINT). Fast: starts no JVM."""
    found = jvmlib.find_toolchain()
    return found if isinstance(found, str) else None


@dataclass
class SessionStats:
    """Timings of this session, in seconds (for reports and tuning)."""

    jar_build: float = 0.0
    jvm_start: float = 0.0
    scripts: int = 0
    statements: int = 0
    validate_total: float = 0.0
    per_script: dict[str, float] = field(default_factory=dict)


@dataclass
class _ScriptState:
    script: ScriptToValidate
    tenv: Any
    findings: list[FlinkFinding] = field(default_factory=list)
    failed_tables: set[str] = field(default_factory=set)
    failed_functions: set[str] = field(default_factory=set)
    config_keys: set[str] = field(default_factory=set)  # keys SET by the script, for RESET
    statement_set: list[int] | None = None  # indexes of INSERTs collected since BEGIN
    set_begin: int = -1


class FlinkSession:
    """One JVM for a whole run. Use as a context manager; `close()` stops the JVM."""

    def __init__(self, log_dir: Path) -> None:
        """`log_dir`: where the JVM writes Flink's logs (`cache_root.flink_log_dir`)."""
        found = jvmlib.find_toolchain()
        if isinstance(found, str):
            raise FlinkUnavailable(f"{found}: {jvmlib.INSTALL_HINT}")
        self._toolchain = found
        self._log_dir = Path(log_dir)
        self._gateway: jvmlib.Gateway | None = None
        self.stats = SessionStats()
        self._start()

    # --- life cycle ----------------------------------------------------------------------

    def _start(self) -> None:
        try:
            began = time.perf_counter()
            jar = jvmlib.standin_jar(self._toolchain)
            self.stats.jar_build = time.perf_counter() - began
            began = time.perf_counter()
            self._gateway = jvmlib.launch(self._toolchain, [jar], self._log_dir)
            api = self._gateway.jvm.org.apache.flink.table.api
            self._text_format = api.ExplainFormat.TEXT
            # explainSql(String, ExplainFormat, ExplainDetail...): py4j needs the varargs array.
            self._no_details = self._gateway.client.new_array(api.ExplainDetail, 0)
            # A scratch environment serves the syntax pass and the helper queries.
            self._scratch = self._new_tenv("stream")
            parser = self._scratch.getParser()
            supplier = parser.getClass().getDeclaredField("calciteParserSupplier")
            supplier.setAccessible(True)
            self._calcite = supplier.get(parser).get()
            # Flink's ParserImpl tries this regex-based parser first: it owns the SQL-client
            # forms SET key = value (unquoted), RESET, HELP, ... that Calcite does not know.
            extended = parser.getClass().getDeclaredField("EXTENDED_PARSER")
            extended.setAccessible(True)
            self._extended = extended.get(None)
            self.stats.jvm_start = time.perf_counter() - began
        except Exception as exc:  # noqa: BLE001 - any start failure means "no Flink here"
            self.close()
            raise FlinkUnavailable(f"could not start Flink for validation: {exc} "
                                   f"({jvmlib.INSTALL_HINT})") from None

    def close(self) -> None:
        if self._gateway is not None:
            jvmlib.stop(self._gateway)
            self._gateway = None

    def __enter__(self) -> FlinkSession:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def _ensure_alive(self) -> None:
        # A JVM that died (e.g. out of memory) is restarted once per call instead of failing
        # every remaining script.
        if self._gateway is None or not self._gateway.alive():
            self.close()
            self._start()

    @property
    def _gw(self) -> jvmlib.Gateway:
        if self._gateway is None:
            raise FlinkUnavailable("the Flink session is closed")
        return self._gateway

    def _new_tenv(self, mode: str) -> Any:
        api = self._gw.jvm.org.apache.flink.table.api
        builder = api.EnvironmentSettings.newInstance()
        builder = builder.inBatchMode() if mode == "batch" else builder.inStreamingMode()
        return api.TableEnvironment.create(builder.build())

    # --- helpers used by scripts/gen_flink_data.py too ----------------------------------

    def parse_only(self, sql: str) -> tuple[int, int, str] | None:
        """Flink's parser alone: (line, col, message) of the first syntax error, else None.
        Positions are relative to `sql`."""
        self._ensure_alive()
        try:
            self._parse(sql)
            return None
        except Exception as exc:  # noqa: BLE001
            message, position = summarize(java_messages(exc))
            line, col = position or (1, 1)
            return line, col, message

    def _parse(self, sql: str) -> Any:
        """The parsed form of one statement, as Flink's ParserImpl would get it: an Operation
        from the extended parser, else a Calcite SqlNode. Raises on a syntax error."""
        extended = self._extended.parse(sql)
        if extended.isPresent():
            return extended.get()
        return self._calcite.parse(sql)

    def show_functions(self) -> list[str]:
        """The function names Flink's SHOW FUNCTIONS lists (built-ins of the core module)."""
        self._ensure_alive()
        return sorted(str(name) for name in self._scratch.listFunctions())

    def sql_operators(self) -> list[tuple[str, str]]:
        """(name, syntax) of the planner's SQL operator table: the functions with SQL syntax
        (CAST, EXTRACT, TUMBLE, PROCTIME, ...) that SHOW FUNCTIONS does not list."""
        self._ensure_alive()
        loader = self._scratch.getParser().getClass().getClassLoader()
        table_class = loader.loadClass(
            "org.apache.flink.table.planner.functions.sql.FlinkSqlOperatorTable")
        instance = next(m for m in table_class.getMethods() if m.getName() == "instance")
        args = self._gw.client.new_array(self._gw.jvm.java.lang.Object, 1)
        args[0] = False
        operators = instance.invoke(None, args).getOperatorList()
        return sorted({(str(op.getName()), str(op.getSyntax())) for op in operators})

    def plan_error(self, sql: str, mode: str = "stream") -> str | None:
        """EXPLAIN a query in a fresh environment: Flink's trimmed message, or None if it plans."""
        self._ensure_alive()
        try:
            self._new_tenv(mode).explainSql(sql, self._text_format, self._no_details)
            return None
        except Exception as exc:  # noqa: BLE001
            return summarize(java_messages(exc))[0]

    # --- validation ------------------------------------------------------------------------

    def validate(self, script: ScriptToValidate) -> list[FlinkFinding]:
        began = time.perf_counter()
        try:
            self._ensure_alive()
            return self._validate(script)
        except Exception as exc:  # noqa: BLE001 - never let a traceback escape
            first = script.statements[0] if script.statements else None
            return [FlinkFinding(
                key=script.key, line=first.line if first else 1, col=first.col if first else 1,
                message=f"validation stopped: {one_line(exc)}", phase="semantic",
                extra={"internal": True})]
        finally:
            spent = time.perf_counter() - began
            self.stats.scripts += 1
            self.stats.statements += len(script.statements)
            self.stats.validate_total += spent
            self.stats.per_script[script.key] = spent

    def _validate(self, script: ScriptToValidate) -> list[FlinkFinding]:
        nodes: list[Any] = []
        syntax: list[FlinkFinding] = []
        for index, stmt in enumerate(script.statements):
            if is_comment_only(stmt.text):
                nodes.append(None)  # nothing but comments
                continue
            try:
                nodes.append(self._parse(statement_sql(stmt)))
            except Exception as exc:  # noqa: BLE001
                nodes.append(None)
                syntax.append(finding_from_error(script, index, exc, "syntax"))
        if syntax:
            return syntax

        state = _ScriptState(script=script, tenv=self._new_tenv(script.mode))
        for index, node in enumerate(nodes):
            if node is None:
                continue
            try:
                self._semantic(state, index, node)
            except Exception as exc:  # noqa: BLE001
                self._report(state, index, exc)
                if self._gateway is None or not self._gateway.alive():
                    return state.findings  # the JVM died; validate() restarts it next time
        if state.statement_set is not None:
            begin = script.statements[state.set_begin]
            state.findings.append(FlinkFinding(
                script.key, begin.line, begin.col,
                "BEGIN STATEMENT SET has no matching END", "semantic", state.set_begin))
            self._plan_statement_set(state)
        return state.findings

    def _semantic(self, state: _ScriptState, index: int, node: Any) -> None:
        stmt = state.script.statements[index]
        name = str(node.getClass().getSimpleName())
        tenv = state.tenv
        # executeSql rejects SET; the SQL client applies it to the table config. Unknown keys
        # are harmless there, as in a real session.
        config = tenv.getConfig().getConfiguration()
        if name in ("SqlSet", "SetOperation") and engine_settings.refusal(_set_key(node, name)):
            return  # FX196 refuses it before validation; never handed to the engine
        if name == "SqlSet":
            if node.getKey() is not None:
                config.setString(str(node.getKeyString()), str(node.getValueString()))
                state.config_keys.add(str(node.getKeyString()))
        elif name == "SetOperation":
            if node.getKey().isPresent() and node.getValue().isPresent():
                config.setString(str(node.getKey().get()), str(node.getValue().get()))
                state.config_keys.add(str(node.getKey().get()))
        elif name in {"SqlReset", "ResetOperation"}:
            if name == "SqlReset":
                key = str(node.getKeyString()) if node.getKey() is not None else None
            else:
                key = str(node.getKey().get()) if node.getKey().isPresent() else None
            for reset in [key] if key else sorted(state.config_keys):
                config.removeKey(reset)
        elif name == "SqlBeginStatementSet":
            if state.statement_set is not None:
                self._plan_statement_set(state)
            state.statement_set, state.set_begin = [], index
        elif name == "SqlEndStatementSet":
            if state.statement_set is None:
                state.findings.append(FlinkFinding(
                    state.script.key, stmt.line, stmt.col,
                    "END without BEGIN STATEMENT SET", "semantic", index))
            else:
                self._plan_statement_set(state)
        elif name.endswith("Operation"):
            pass  # HELP, QUIT, CLEAR from the extended parser: nothing to validate
        elif state.statement_set is not None and name in _INSERTS:
            state.statement_set.append(index)
        elif state.statement_set is not None and name in _CTAS:
            self._create_table_as(state, index)  # allowed in a set by the SQL client
        elif state.statement_set is not None:
            state.findings.append(FlinkFinding(
                state.script.key, stmt.line, stmt.col,
                "Only INSERT statements are allowed in a statement set; "
                "use END to close the statement set", "semantic", index))
            self._semantic_outside_set(state, index, node, name)
        else:
            self._semantic_outside_set(state, index, node, name)

    def _semantic_outside_set(self, state: _ScriptState, index: int, node: Any,
                              name: str) -> None:
        stmt = state.script.statements[index]
        tenv = state.tenv
        if name in _INSERTS or name == "SqlExecute" or str(node.getKind()) in _QUERY_KINDS:
            tenv.explainSql(statement_sql(stmt), self._text_format, self._no_details)
        elif name in _CREATE_TABLE:
            self._create_table(state, index)
        elif name in _CTAS:
            self._create_table_as(state, index)
        elif name == "SqlCreateFunction":
            self._create_function(state, index, node)
        elif name == "SqlCreateCatalog":
            # only Flink's own in-memory catalog, decided on the parsed operation's properties
            operation = tenv.getParser().parse(statement_sql(stmt)).get(0)
            if standin.safe_catalog(operation):
                tenv.executeInternal(operation)
        elif name.startswith(_DDL_PREFIXES) and name not in _NOT_EXECUTED:
            tenv.executeSql(statement_sql(stmt))
        elif name == "SqlRichExplain":
            tenv.executeSql(statement_sql(stmt))  # EXPLAIN only plans what it explains, it never runs a job
        # SHOW, DESCRIBE, RESET, LOAD MODULE, ADD JAR, ...: nothing to validate.

    def _create_table(self, state: _ScriptState, index: int) -> None:
        """CREATE TABLE with the connector swapped for the stand-in. The swap is done on the
        parsed operation, not the text, so LIKE clauses and positions stay exact."""
        tenv = state.tenv
        operation = tenv.getParser().parse(statement_sql(state.script.statements[index])).get(0)
        tenv.executeInternal(standin.standin_create_table(self._gw.jvm, operation))


    def _create_table_as(self, state: _ScriptState, index: int) -> None:
        """CTAS: create the target with the stand-in, then plan the INSERT part. Executing the
        statement would run a job."""
        tenv = state.tenv
        operation = tenv.getParser().parse(statement_sql(state.script.statements[index])).get(0)
        tenv.executeInternal(standin.standin_create_table(self._gw.jvm, operation.getCreateTableOperation()))
        sink = operation.toSinkModifyOperation(tenv.getCatalogManager())
        operations = self._gw.jvm.java.util.ArrayList()
        operations.add(sink)
        tenv.explainInternal(operations, self._text_format, self._no_details)

    def _create_function(self, state: _ScriptState, index: int, node: Any) -> None:
        stmt = state.script.statements[index]
        identifier = [str(part) for part in node.getFunctionIdentifier()]
        name = identifier[-1]
        udf, problem = standin.udf_problem(state.script.udfs, name,
                                           str(node.getFunctionClassName()))
        if udf is None:
            state.failed_functions.add(name.lower())
            state.findings.append(FlinkFinding(state.script.key, stmt.line, stmt.col, problem,
                                               "semantic", index, {"udf": name}))
            return
        tenv = state.tenv
        try:
            tenv.getCatalogManager().getDataTypeFactory().createDataType(udf.returns)
        except Exception as exc:  # noqa: BLE001
            state.failed_functions.add(name.lower())
            reason = summarize(java_messages(exc))[0]
            state.findings.append(FlinkFinding(
                state.script.key, stmt.line, stmt.col,
                f"function '{name}': declared return type '{udf.returns}' is not a Flink type: "
                f"{reason}", "semantic", index, {"udf": name}))
            return
        standin_class = getattr(self._gw.jvm.flinkx.standin, standin.UDF_CLASSES[udf.kind])
        instance = standin_class(name, udf.returns)
        if node.isIfNotExists() and name.lower() in {str(f).lower() for f in
                                                     tenv.listUserDefinedFunctions()}:
            return
        if node.isSystemFunction():
            tenv.createTemporarySystemFunction(name, instance)
        else:
            # A temporary catalog function, as CREATE [TEMPORARY] FUNCTION makes: built-ins of
            # the same name still win over it, exactly as in real Flink.
            tenv.createTemporaryFunction(".".join(f"`{p}`" for p in identifier), instance)

    def _plan_statement_set(self, state: _ScriptState) -> None:
        indexes, state.statement_set = state.statement_set or [], None
        tenv = state.tenv
        statements = state.script.statements
        statement_set = tenv.createStatementSet()
        added: list[int] = []
        for index in indexes:
            try:
                statement_set.addInsertSql(statement_sql(statements[index]))
                added.append(index)
            except Exception as exc:  # noqa: BLE001
                self._report(state, index, exc)
        if not added:
            return
        try:
            statement_set.explain(self._text_format, self._no_details)
            return
        except Exception as exc:  # noqa: BLE001
            set_error = exc
        # The set as a whole failed: plan each INSERT alone to find the one(s) to blame.
        blamed = False
        for index in added:
            try:
                tenv.explainSql(statement_sql(statements[index]), self._text_format,
                                self._no_details)
            except Exception as exc:  # noqa: BLE001
                self._report(state, index, exc)
                blamed = True
        if not blamed:
            self._report(state, state.set_begin if state.set_begin >= 0 else added[0], set_error)

    def _report(self, state: _ScriptState, index: int, exc: BaseException) -> None:
        finding = finding_from_error(state.script, index, exc, "semantic")
        created = created_name(state.script.statements[index].text)
        if created:
            state.failed_tables.add(created)
        tables, functions = missing_objects(finding.message)
        if (tables & state.failed_tables) or (functions & state.failed_functions):
            return  # only repeats an earlier failed CREATE, which was reported
        state.findings.append(finding)
