"""FX430 update stream into an append-only sink, FX431 upsert table without a primary key.

What it finds: an INSERT whose query emits updates (a group aggregation, DISTINCT,
an outer join, a CDC or upsert source) into a sink that can only append (kafka
with a plain format, filesystem, MaxCompute, ...); an `upsert-kafka` table without
a primary key; a jdbc sink fed by updates without a primary key. Flink rejects
the first at planning ("doesn't support consuming update changes"), the
upsert-kafka factory the second, the JDBC sink the third.
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.errors import Diagnostic
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.semantic.changelog import UPDATE
from flinkx_build.validate.standin import original_connector
from flinkx_build.validate.standin import sink_changelog
from flinkx_build.workspace_model import Workspace

# connectors whose sink upserts by the primary key and refuses updates without one
KEYED_UPSERT_SINKS = frozenset({"upsert-kafka", "jdbc"})


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    path = analysed.task.display_path
    out = []
    for rs in analysed.statements:
        for ref, bound in rs.table_refs():
            definition = bound.definition
            if definition is None or original_connector(definition.options) != "upsert-kafka" or definition.primary_key:
                continue
            out.append(Diagnostic(path, ref.pos.line, ref.pos.col, "FX431", f"{bound.key} is an upsert-kafka table without a primary key",
                                  "declare primary_key: in its YAML (or SET/hint it): upsert-kafka upserts by key"))
    for sm in analysed.statements:
        if sm.kind != "insert" or sm.changelog != UPDATE or sm.sink_pos is None:
            continue
        written = sm.sink_table()
        if written is None or written.definition is None:
            continue
        options = written.definition.options
        connector = original_connector(options)
        if sink_changelog(connector, options) == "insert":
            out.append(Diagnostic(path, sm.sink_pos.line, sm.sink_pos.col, "FX430",
                                  f"the query emits updates (an aggregation, DISTINCT, an outer join or a changelog source), but {sm.sink} ({connector}) can only append",
                                  "write to an upsert sink with a primary key (upsert-kafka, jdbc), or aggregate over a window"))
        elif connector in KEYED_UPSERT_SINKS and not written.definition.primary_key and connector != "upsert-kafka":
            out.append(Diagnostic(path, sm.sink_pos.line, sm.sink_pos.col, "FX431",
                                  f"the query emits updates, but the {connector} sink {sm.sink} has no primary key to upsert on",
                                  "declare primary_key: in its YAML, or SET it in the task"))
    return out


CHECK = Check("changelog sinks", (CheckCode("FX430", "updates-into-append-sink"), CheckCode("FX431", "upsert-without-key")), check)
