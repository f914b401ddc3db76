"""FX432 INSERT into a table whose connector cannot write, FX433 a read of a table whose connector cannot be
read, FX443 a lookup join on a table whose connector has no lookup.

What it finds: `INSERT INTO ods.orders` where ods.orders is a mysql-cdc table (its factory is a source
factory only: Flink, when the job is submitted, "Connector 'mysql-cdc' can only be used as a source. It
cannot be used as a sink."), a query of a print or blackhole table (sinks only), `JOIN t FOR SYSTEM_TIME
AS OF` a kafka table (a scan source, no lookup: "Processing-time temporal join is not supported yet").
flinkx plans with stand-in connectors that take any direction, so its planner cannot see this
(issue 44 case 7). What a connector can be is a fact in one place: the factory interfaces in the
target's jars (the generated facts) or the data file's documented roles (`connectors.roles_for`); a
connector known to neither is not judged.
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.connectors import connector_name
from flinkx_build.connectors import roles_for
from flinkx_build.errors import Diagnostic
from flinkx_build.flink_data import facts_or_default
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.workspace_model import Workspace


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    factories = facts_or_default(ws.config.flink_version).factories
    path = analysed.task.display_path
    out: dict[tuple[int, int], Diagnostic] = {}
    for sm in analysed.statements:
        for ref, bound in sm.table_refs():
            definition = bound.definition
            if bound.kind != "meta" or definition is None or ref.in_hint:
                continue
            roles = roles_for(definition.options, definition.table.type, factories)
            if roles is None:
                continue
            name = f"{definition.table.project}.{definition.table.name}"
            connector = connector_name(definition.options, definition.table.type)
            found = None
            if ref.role == "write" and not roles.sink:
                found = ("FX432", f"{name} is a '{connector}' table, which can only be read: Flink refuses to write it "
                         f"(\"Connector '{connector}' can only be used as a source\")",
                         "write to a table whose connector is a sink (kafka, upsert-kafka, jdbc, ...)")
            elif ref.role == "read" and not roles.source:
                found = ("FX433", f"{name} is a '{connector}' table, which can only be written: Flink refuses to read it "
                         f"(\"Connector '{connector}' can only be used as a sink\")", "read the table the data comes from")
            elif ref.role == "lookup" and roles.lookup is False:
                found = ("FX443", f"{name} is a '{connector}' table, which has no lookup: Flink cannot join it FOR SYSTEM_TIME "
                         "AS OF a processing time", "look up a dimension whose connector has one (jdbc, hbase), or join it "
                         "another way (a regular or interval join)")
            if found is not None:
                out.setdefault((ref.pos.line, ref.pos.col), Diagnostic(path, ref.pos.line, ref.pos.col, *found))
    return list(out.values())


CHECK = Check("what a connector can be", (CheckCode("FX432", "write-to-source-only"), CheckCode("FX433", "read-from-sink-only"),
                                         CheckCode("FX443", "lookup-without-lookup")), check, flink_finds_it=False)
