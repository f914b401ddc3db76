"""FX404 expression not grouped, FX405 aggregate where none is allowed.

What it finds: in a query that aggregates (a GROUP BY, or an aggregate function in its
SELECT or HAVING), a column that the SELECT list or the HAVING reads outside every
aggregate and that is not one of the GROUP BY expressions; and an aggregate function in
WHERE, GROUP BY or a join's ON. Flink rejects both when it plans the query ("Expression
'x' is not being grouped", "Aggregate expression is illegal in WHERE clause").

It stays silent on what it cannot judge like Flink does: a query that calls a function
that is not a known built-in (a UDAF would be an aggregate), GROUPING SETS, ROLLUP, CUBE,
an OVER window, a column it could not bind.
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.errors import Diagnostic
from flinkx_build.flink_data import builtin_functions
from flinkx_build.frontend import query_ir as ir
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.resolve.analysed import Binding
from flinkx_build.semantic.functions import AGGREGATES
from flinkx_build.workspace_model import Workspace

# GROUP BY forms whose grouping is not a plain list of expressions
_GROUPING_FORMS = ("GROUPING", "ROLLUP", "CUBE", "GROUPING SETS", "GROUPING_ID", "CUMULATE")
# the legacy group windows: GROUP BY TUMBLE(ts, ...) and TUMBLE_START(ts, ...) in the SELECT
_GROUP_WINDOWS = ("TUMBLE", "HOP", "SESSION")
_WINDOW_PROPERTIES = frozenset(f"{w}_{p}" for w in _GROUP_WINDOWS for p in ("START", "END", "ROWTIME", "PROCTIME"))


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    path = analysed.task.display_path
    bindings = {id(b.ref): b for b in analysed.bindings()}
    known = builtin_functions(ws.config.flink_version)
    out: list[Diagnostic] = []
    for _, sq in analysed.queries():
        for query in sq.queries:
            if query.kind != "select":
                continue
            out.extend(_aggregates_misplaced(path, query))
            out.extend(_not_grouped(path, query, bindings, known))
    return out


def _is_aggregate(expr: ir.Expr) -> bool:
    return expr.kind == ir.CALL and expr.text in AGGREGATES and not expr.over and expr.project is None


def _aggregates_misplaced(path: str, query: ir.Query) -> list[Diagnostic]:
    places = [("WHERE", query.where), *(("GROUP BY", g) for g in query.group_by), *(("ON", s.on) for s in query.sources)]
    out = []
    for clause, expr in places:
        if expr is None:
            continue
        found = next((n for n in expr.walk() if _is_aggregate(n) and n.pos is not None), None)
        if found is not None:
            out.append(Diagnostic(path, found.pos.line, found.pos.col, "FX405",
                                  f"Aggregate expression is illegal in {clause} clause: {found.text}(...) is computed after {clause} is applied",
                                  "filter on an aggregate in HAVING (or in a query over the aggregating one)" if clause == "WHERE"
                                  else "compute the aggregate in a subquery and refer to its result"))
    return out


def _unjudgeable(query: ir.Query, bindings: dict[int, Binding], known: frozenset[str]) -> bool:
    """Something here whose grouping Flink judges by rules this check does not model."""
    exprs = [i.expr for i in query.items] + query.group_by + ([query.having] if query.having else [])
    for expr in exprs:
        for node in expr.walk():
            if node.kind == ir.CALL and (node.over or node.project is not None or node.text not in known or node.text in _GROUPING_FORMS):
                return True
            if node.kind == ir.OTHER or (node.kind == ir.STAR and not _inside_count(expr, node)):
                return True
            if node.kind == ir.COLUMN:
                binding = bindings.get(id(node))
                if binding is None or binding.status not in ("bound", "field", "outer"):
                    return True
    return any(item.wildcard for item in query.items)


def _inside_count(expr: ir.Expr, star: ir.Expr) -> bool:
    return any(n.kind == ir.CALL and star in n.args for n in expr.walk())


def _key(expr: ir.Expr, bindings: dict[int, Binding]) -> tuple:
    """Equal for two expressions that compute the same value (a column: the column it binds to)."""
    if expr.kind == ir.COLUMN:
        binding = bindings.get(id(expr))
        if binding is not None and binding.column is not None:
            return ("column", id(binding.source), binding.column.name.lower(), tuple(f.lower() for f in binding.fields))
        return ("column", tuple(p.lower() for p in expr.parts))
    return (expr.kind, expr.text.lower(), expr.literal, expr.type_text.upper(), expr.distinct,
            tuple(_key(a, bindings) for a in expr.args), tuple(_key(c, bindings) for c in expr.conditions))


def _not_grouped(path: str, query: ir.Query, bindings: dict[int, Binding], known: frozenset[str]) -> list[Diagnostic]:
    reads = [i.expr for i in query.items] + ([query.having] if query.having else [])
    aggregating = bool(query.group_by) or any(_is_aggregate(n) for e in reads for n in e.walk())
    if not aggregating or query.distinct and not query.group_by or _unjudgeable(query, bindings, known):
        return []
    grouped = {_key(g, bindings) for g in query.group_by}
    grouped_names = {g.parts[-1].lower() for g in query.group_by if g.kind == ir.COLUMN and g.parts}
    out = []
    for expr in reads:
        for column in _ungrouped_columns(expr, grouped, bindings):
            binding = bindings[id(column)]
            if binding.status == "outer" or column.pos is None:
                continue
            if binding.column.name.lower() == "window_time" and {"window_start", "window_end"} <= grouped_names:
                continue  # a window aggregate may select window_time
            if binding.status == "field" and ("column", id(binding.source), binding.column.name.lower(), ()) in grouped:
                continue  # a field of a grouped ROW column
            written = ".".join(column.parts)
            out.append(Diagnostic(path, column.pos.line, column.pos.col, "FX404",
                                  f"Expression '{written}' is not being grouped",
                                  f"add {written} to the GROUP BY, or aggregate it (MAX({written}), LAST_VALUE({written}))"))
    return out


def _ungrouped_columns(expr: ir.Expr, grouped: set[tuple], bindings: dict[int, Binding]):
    if _key(expr, bindings) in grouped or _is_aggregate(expr) or expr.kind == ir.CALL and expr.text in _WINDOW_PROPERTIES:
        return
    if expr.kind == ir.COLUMN:
        yield expr
        return
    for child in (*expr.args, *expr.conditions):
        yield from _ungrouped_columns(child, grouped, bindings)


CHECK = Check("GROUP BY and aggregates", (CheckCode("FX404", "not-grouped"), CheckCode("FX405", "aggregate-in-where"),), check)
