"""FX455 ORDER BY on a column that is not a time attribute (streaming), FX454 MATCH_RECOGNIZE ordered descending.

What it finds: in a streaming task, an INSERT or SELECT whose ORDER BY (without LIMIT, so
not a Top-N) starts with a column that is no timestamp at all: Flink refuses it ("Sort on a
non-time-attribute field is not supported."); and a MATCH_RECOGNIZE whose ORDER BY starts
with a DESC key ("Primary sort order of a streaming table must be ascending on time.").

A timestamp is judged only where the model follows time attributes (meta and task tables,
views, subqueries, windows); an ORDER BY inside a subquery or view is not judged (Calcite
may drop it), nor is a batch task.
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.errors import Diagnostic
from flinkx_build.frontend import query_ir as ir
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.workspace_model import Workspace

_TIMES = ("TIMESTAMP", "TIMESTAMP_LTZ")
# FROM items whose columns' time attributes the model follows (a watermark, PROCTIME(), a
# window's window_time): a timestamp from anything else may be a time attribute it cannot see
_MODELLED = ("meta", "local", "window", "cte", "query")


def streaming(analysed: AnalysedTask) -> bool:
    """The task runs as a stream: its mode, and no SET of the runtime mode inside it."""
    if analysed.mode != "stream":
        return False
    return not any(rs.parsed.flink_set and rs.parsed.flink_set[0].strip("'\"`").lower() == "execution.runtime-mode"
                   for rs in analysed.statements)


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    if not streaming(analysed):
        return []
    path = analysed.task.display_path
    bindings = {id(b.ref): b for b in analysed.bindings()}
    out: list[Diagnostic] = []
    for rs, sq in analysed.queries():
        for query in sq.queries:
            for source in query.sources:
                if source.kind == "match" and source.match_desc_key() is not None:
                    key = source.match_desc_key()
                    out.append(Diagnostic(path, key.pos.line, key.pos.col, "FX454",
                                          "Primary sort order of a streaming table must be ascending on time: MATCH_RECOGNIZE orders by a DESC key",
                                          "ORDER BY the time attribute ascending (drop DESC)"))
        if rs.parsed.kind in ("insert", "select") and sq.root >= 0:
            out.extend(_root_order(path, sq.queries[sq.root], bindings, analysed.failed_watermarks))
    return out


def _root_order(path: str, query: ir.Query, bindings: dict, failed_watermarks: set[str]) -> list[Diagnostic]:
    if query.kind != "select" or not query.order_by or query.limit:
        return []
    key = query.order_by[0]
    binding = bindings.get(id(key)) if key.kind == ir.COLUMN else None
    if binding is None or binding.status != "bound" or binding.column is None or binding.column.type is None or key.pos is None:
        return []
    if binding.source is not None and binding.source.table_key in failed_watermarks:
        return []  # its watermark SET was refused: that finding is the one
    typ = binding.column.type
    if typ.time_attribute or typ.root in _TIMES and binding.source is not None and binding.source.kind not in _MODELLED:
        return []
    written = ".".join(key.parts)
    return [Diagnostic(path, key.pos.line, key.pos.col, "FX455",
                       f"Sort on a non-time-attribute field is not supported: a streaming ORDER BY starts with '{written}', a {typ.format()}",
                       "order by the time attribute first, add a LIMIT (a Top-N), or run the task in batch mode")]


CHECK = Check("ordering in streaming queries", (CheckCode("FX454", "match-order"), CheckCode("FX455", "streaming-order-by"),), check)
