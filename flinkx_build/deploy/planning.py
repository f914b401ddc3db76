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

from flinkx_build import engine_settings
from flinkx_build.deploy.identity import Statement

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


# The lists, for the planner driver's deploy client (planner/java/.../DeployClient.java), which applies them
# to Flink's parsed operations: the facts stay here.
OPERATIONS = {"skipped": list(_SKIPPED_PREFIXES), "catalog_only": list(_CATALOG_ONLY_PREFIXES),
              "loads_code": list(_LOADS_CODE_PREFIXES), "functions": sorted(_FUNCTIONS)}
NO_INSERT = "the task has no INSERT: nothing to run as a job"


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


def _first_words(stmt: Statement) -> str:
    return " ".join(stmt.text.split()[:4]) + " ..."
