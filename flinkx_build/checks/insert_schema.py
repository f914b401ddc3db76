"""FX410 INSERT column count, FX411 INSERT column type.

What it finds: an INSERT whose query yields more or fewer columns than the
sink's effective schema has (after SET, hints and `dataphincolumns`), or a
column whose type Flink will not cast implicitly to the sink column's type
(BIGINT into INT, STRING into INT, DOUBLE into DECIMAL). A widening Flink
accepts (INT into BIGINT, DECIMAL into DOUBLE, any DECIMAL into any DECIMAL)
is not reported, and neither is a column whose type the model does not know.
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.errors import Diagnostic
from flinkx_build.flink_types import implicit_cast
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.workspace_model import Workspace


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    path = analysed.task.display_path
    out = []
    for sm in analysed.statements:
        if sm.kind != "insert" or sm.outputs is None or sm.sink_columns is None or sm.sink_pos is None:
            continue
        targets = sm.sink_columns
        items = sm.parsed.query.queries[sm.parsed.query.root].items if sm.parsed.query and sm.parsed.query.root >= 0 else []
        if len(sm.outputs) != len(targets):
            out.append(Diagnostic(
                path, sm.sink_pos.line, sm.sink_pos.col, "FX410",
                f"INSERT INTO {sm.sink} writes {len(sm.outputs)} columns, the sink has {len(targets)} ({', '.join(n for n, _ in targets)})",
                "select one expression per sink column, in the sink's order",
            ))
            continue
        for i, (output, (name, target)) in enumerate(zip(sm.outputs, targets)):
            if implicit_cast(output.type, target, ws.config.flink_version) is False:
                pos = items[i].pos if i < len(items) and items[i].pos is not None and not any(it.wildcard for it in items) else sm.sink_pos
                out.append(Diagnostic(
                    path, pos.line, pos.col, "FX411",
                    f"column {i + 1} ({output.name}) is {output.type.format()}, the sink column '{name}' of {sm.sink} is {target.format()}: Flink does not cast it implicitly",
                    f"CAST(... AS {target.format().replace(' NOT NULL', '')})",
                ))
    return out


CHECK = Check("INSERT schema", (CheckCode("FX410", "insert-column-count"), CheckCode("FX411", "insert-column-type")), check)
