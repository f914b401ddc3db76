"""FX410 INSERT column count, FX411 INSERT column type, FX414 INSERT column named for another sink column.

What it finds: an INSERT whose query yields more or fewer columns than the
sink's effective schema has (after SET, hints and `dataphincolumns`), or a
column whose type Flink will not cast implicitly to the sink column's type
(BIGINT into INT, STRING into INT, DOUBLE into DECIMAL). A widening Flink
accepts (INT into BIGINT, DECIMAL into DOUBLE, any DECIMAL into any DECIMAL)
is not reported, and neither is a column whose type the model does not know. FX414 (a warning:
Flink fills a sink by position and accepts it) reports a query column whose name is another sink
column's (`buyer_cnt` in the place of `order_cnt`: two same-typed columns swapped), once per INSERT.
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.errors import Diagnostic
from flinkx_build.flink_types import implicit_cast
from flinkx_build.frontend import query_ir as ir
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
        misplaced = _named_for_another_column(items, targets)
        if misplaced and not any(d.code == "FX411" for d in out if d.line >= sm.sink_pos.line):
            i, j = misplaced[0]
            pos = items[i].pos if i < len(items) and items[i].pos is not None and not any(it.wildcard for it in items) else sm.sink_pos
            others = f" ({len(misplaced) - 1} more column(s) too)" if len(misplaced) > 1 else ""
            out.append(Diagnostic(
                path, pos.line, pos.col, "FX414",
                f"column {i + 1} is named '{items[i].alias}' but fills the sink column '{targets[i][0]}' of {sm.sink}: "
                f"'{targets[j][0]}' is column {j + 1}{others}",
                "Flink fills a sink by position: select the columns in the sink's order",
                severity="warning"))
        for i, (output, (name, target)) in enumerate(zip(sm.outputs, targets)):
            if implicit_cast(output.type, target, ws.config.flink_version) is False:
                pos = items[i].pos if i < len(items) and items[i].pos is not None and not any(it.wildcard for it in items) else sm.sink_pos
                out.append(Diagnostic(
                    path, pos.line, pos.col, "FX411",
                    f"column {i + 1} ({output.name}) is {output.type.format()}, the sink column '{name}' of {sm.sink} is {target.format()}: Flink does not cast it implicitly",
                    f"CAST(... AS {target.format().replace(' NOT NULL', '')})",
                ))
    return out


def _named_for_another_column(items: list[ir.SelectItem], targets) -> list[tuple[int, int]]:
    """(i, j) for each SELECT item i whose alias is sink column j != i: `COUNT(DISTINCT user_id) AS buyer_cnt` in the
    place of order_cnt. Only an alias says what the author means the column to be: a bare column keeps its source's
    name, which a sink column may share by chance (nexmark's q7 selects B.price, B.bidder into (bidder, price): the
    real-SQL corpus stays quiet). A name no sink column has says nothing; a `*` is not judged."""
    if len(items) != len(targets) or any(item.wildcard for item in items):
        return []
    position = {name.lower(): j for j, (name, _) in enumerate(targets)}
    found = [(i, position.get(item.alias.lower(), i)) for i, item in enumerate(items) if item.alias]
    return [(i, j) for i, j in found if j != i]


CHECK = Check("INSERT schema", (CheckCode("FX410", "insert-column-count"), CheckCode("FX411", "insert-column-type"),
                                CheckCode("FX414", "insert-column-named-for-another")), check)
