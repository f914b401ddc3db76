"""Which changes a query emits: only inserts, or updates too (Flink's changelog mode).

The rules are the planner's for the operators flinkx can recognise: a group
aggregation, DISTINCT or an outer join of streams updates; a window
aggregation, an OVER aggregation, an inner join, a lookup join, a filter and a
projection keep their input's mode; a CDC or upsert source updates. Anything
else (deduplication, Top-N, interval joins, table functions over updating
input, opaque sources) is `None`, unknown, and no check relies on it. What a
connector emits and accepts comes from the table the validator's stand-in
connector plays (`validate/standin.py`), so the check and `flinkx validate`
read one description of each connector.
"""
from __future__ import annotations

from typing import Protocol

from flinkx_build.frontend import query_ir as ir
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.resolve.analysed import AnalysedStatement
from flinkx_build.semantic.functions import AGGREGATES
from flinkx_build.validate.standin import original_connector
from flinkx_build.validate.standin import source_changelog


class _TaskModes(Protocol):
    task_modes: dict[str, str | None]  # the changelog mode of the task's views and tables so far


class StatementAnalysis(Protocol):
    """What the modes read of a statement's analysis (`analyze._StatementAnalyzer`, which calls them)."""

    task: _TaskModes
    rs: AnalysedStatement
    stmt: ParsedStatement
    sq: ir.StatementQuery

    def find_cte(self, index: int, name: str) -> int | None: ...

INSERT = "insert"
UPDATE = "update"
_ORDER = {INSERT: 0, UPDATE: 1}


def _merge(modes: list[str | None]) -> str | None:
    if any(m is None for m in modes):
        return None
    return max(modes, key=_ORDER.__getitem__) if modes else INSERT


def query_mode(an: StatementAnalysis, index: int) -> str | None:
    query = an.sq.queries[index]
    if query.kind == "values":
        return INSERT
    if query.kind == "setop":
        return _merge([query_mode(an, b) for b in query.branches])
    if any(_is_ranking(item.expr) for item in query.items):
        return None  # deduplication / Top-N: depends on the ordering and the filter outside
    source_modes = []
    for source in query.sources:
        if source.lookup:
            continue  # a lookup reads a snapshot: the probe side decides
        mode = _source_mode(an, index, source)
        if mode is None:
            return None
        if source.join in ("left", "right", "full"):  # (lookup joins were skipped above)
            if _reads_time_bounds(source.on):
                return None  # an interval join appends; flinkx does not tell them apart
            mode = UPDATE
        source_modes.append(mode)
    mode = _merge(source_modes)
    if mode is None:
        return None
    windowed = any(s.kind == "window" for s in query.sources)
    aggregates = bool(query.group_by) or any(_has_aggregate(item.expr) for item in query.items)
    if (aggregates or query.distinct) and not windowed:
        return UPDATE
    return mode


def _source_mode(an: StatementAnalysis, index: int, source: ir.Source) -> str | None:
    if source.kind in ("table", "window") and source.table_ref >= 0:
        bound = an.rs.tables[source.table_ref]
        if bound.kind == "meta" and bound.definition is not None:
            options = bound.definition.options
            emitted = source_changelog(original_connector(options), options)
            return INSERT if emitted == "insert" else UPDATE
        if bound.kind == "cte":
            target = an.find_cte(index, an.stmt.tables[source.table_ref].name)
            return query_mode(an, target) if target is not None else None
        if bound.kind == "local":
            return an.task.task_modes.get(bound.key.lower())
        return None
    if source.kind == "query" or (source.kind == "window" and source.query >= 0):
        return query_mode(an, source.query)
    if source.kind in ("unnest", "lateral"):
        return INSERT  # a row per input row, joined to it: the other side decides
    return None


def _has_aggregate(expr: ir.Expr) -> bool:
    return any(n.kind == ir.CALL and n.text in AGGREGATES and not n.over for n in expr.walk())


def _is_ranking(expr: ir.Expr) -> bool:
    return any(n.kind == ir.CALL and n.over and n.text in ("ROW_NUMBER", "RANK", "DENSE_RANK") for n in expr.walk())


def _reads_time_bounds(on: ir.Expr | None) -> bool:
    """`a.ts BETWEEN b.ts - INTERVAL ...`: the condition of an interval join."""
    if on is None:
        return False
    return any(n.kind == ir.LITERAL and n.literal == "interval" for n in on.walk())
