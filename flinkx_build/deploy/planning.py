"""Prepare a task for planning with flinkx's stand-ins: what deploy --plan and impact --state-compat run.

The SQL may come from a pull request, and planning happens on the machine that runs CI. So, as in
`flinkx validate`, nothing of the workspace's code is loaded: tables get the stand-in connector,
functions are stand-ins declared from their signatures (never their classes or jars), SETs pass the
allow-list of engine settings, and what to do with a statement is decided on Flink's parsed
operation (comments cannot hide a keyword from it), never on its text. Statements that load code
(catalogs, modules, jars, models) are refused. Stateful operators, keys and changelog modes do not
depend on the connector's implementation, so the COMPILE PLAN JSON the verdicts compare is the same.
"""
from __future__ import annotations

from typing import Any
from typing import Callable

from flinkx_build import engine_settings
from flinkx_build.deploy.identity import Statement
from flinkx_build.validate import standin
from flinkx_build.validate.contract import UdfStub

# Operations that only read or describe: nothing to plan.
_SKIPPED_PREFIXES = ("Show", "Describe", "Explain", "Reset", "Nop")
# Operations that only touch the in-memory catalog of the planning environment.
_CATALOG_ONLY_PREFIXES = ("CreateView", "DropView", "AlterView", "DropTable", "DropTempSystemFunction",
                          "DropCatalogFunction", "DropTempCatalogFunction", "UseDatabase", "CreateDatabase")
# Operations that load code when executed: the same statements FX195 and FX120 name in a task.
_LOADS_CODE_PREFIXES = ("AddJar", "RemoveJar", "LoadModule", "UnloadModule", "UseModules", "CreateCatalog",
                        "AlterCatalog", "CreateModel", "AlterModel")
_FUNCTIONS = frozenset({"CreateTempSystemFunctionOperation", "CreateTempCatalogFunctionOperation",
                        "CreateCatalogFunctionOperation"})


# The same lists, for the planner driver's deploy client (planner/java/.../DeployClient.java), which
# applies them to Flink 2.x's parsed operations: the facts stay here.
OPERATIONS = {"skipped": list(_SKIPPED_PREFIXES), "catalog_only": list(_CATALOG_ONLY_PREFIXES),
              "loads_code": list(_LOADS_CODE_PREFIXES), "functions": sorted(_FUNCTIONS)}
NO_INSERT = "the task has no INSERT: nothing to run as a job"


class NotPlanned(Exception):
    """A statement flinkx does not run while planning; the message is one line."""


def loads_code(operation: str, stmt: Statement) -> str:
    return f"FX195 not planned: {operation} could load or run code on this machine: {_first_words(stmt)}"


def not_a_plan(operation: str, stmt: Statement) -> str:
    return f"not planned: {operation} is not a statement flinkx plans: {_first_words(stmt)}"


def no_signature(function_name: str) -> str:
    return (f"function '{function_name}' has no declared signature: flinkx plans functions only "
            "through stand-ins of their declared return type")


def set_refusal(key: str, value: str | None = None) -> str:
    why = engine_settings.refusal(key, value)
    return f"{engine_settings.CODE} {why}" if why else ""


def prepare_standins(jvm: Any, tenv: Any, statements: list[Statement], udfs: tuple[UdfStub, ...],
                     call: Callable[[Callable[[], Any]], Any]) -> list[str]:
    """Run the planning environment's side of `statements`; the INSERTs, in order.
    `call` turns a Java exception into the caller's error."""
    config = tenv.getConfig().getConfiguration()
    inserts = []
    for stmt in statements:
        if stmt.kind == "insert":
            inserts.append(stmt.text)
            continue
        if stmt.kind in ("select", "begin_statement_set", "end"):
            continue  # a task is one job: every INSERT joins it
        operation = call(lambda: tenv.getParser().parse(stmt.text).get(0))
        name = str(operation.getClass().getSimpleName())
        if name == "SetOperation":
            if operation.getKey().isPresent() and operation.getValue().isPresent():
                key = str(operation.getKey().get())
                why = set_refusal(key, str(operation.getValue().get()))
                if why:
                    raise NotPlanned(why)
                config.setString(key, str(operation.getValue().get()))
        elif name == "CreateTableOperation":
            swapped = standin.standin_create_table(jvm, operation)
            call(lambda: tenv.executeInternal(swapped))
        elif name in _FUNCTIONS:
            _standin_function(jvm, tenv, operation, name, udfs, call)
        elif name.startswith(_CATALOG_ONLY_PREFIXES) or standin.safe_catalog(operation):
            call(lambda: tenv.executeInternal(operation))
        elif name.startswith(_LOADS_CODE_PREFIXES):
            raise NotPlanned(loads_code(name, stmt))
        elif not name.startswith(_SKIPPED_PREFIXES):
            # CREATE TABLE ... AS SELECT and the like would run a job: never while planning
            raise NotPlanned(not_a_plan(name, stmt))
    return inserts


def _first_words(stmt: Statement) -> str:
    return " ".join(stmt.text.split()[:4]) + " ..."


def _standin_function(jvm: Any, tenv: Any, operation: Any, name: str, udfs: tuple[UdfStub, ...],
                      call: Callable[[Callable[[], Any]], Any]) -> None:
    if name == "CreateTempSystemFunctionOperation":
        function_name, identifier = str(operation.getFunctionName()), None
    else:
        identifier = operation.getFunctionIdentifier()
        function_name = str(identifier.getObjectName())
    udf = standin.find_udf(udfs, function_name)
    if udf is None or udf.kind not in standin.UDF_CLASSES:
        raise NotPlanned(no_signature(function_name))
    instance = getattr(jvm.flinkx.standin, standin.UDF_CLASSES[udf.kind])(function_name, udf.returns)
    if identifier is None:
        call(lambda: tenv.createTemporarySystemFunction(function_name, instance))
    else:
        call(lambda: tenv.createTemporaryFunction(identifier.asSerializableString(), instance))
