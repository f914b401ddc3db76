"""FX143 a project function called with another number of arguments than its YAML declares.

What it finds: `dim:parse_ua(ua, 1)` where projects/dim/functions/parse_ua.yaml declares
`params: [STRING]` (issue 44 case 6). A function that declares no `params` takes any arguments, as
before. The planner's stand-in for the function takes the same declared signature
(planner/java/src/flinkx/standin/StandinTypes.java), so `flinkx validate` and FX301 agree, and it judges the
argument types; this check says the count without the planner, at the call, and a task with it is not
planned (one finding).
"""
from __future__ import annotations

from typing import Iterator

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.errors import Diagnostic
from flinkx_build.frontend import query_ir as ir
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.workspace_model import Workspace


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    path = analysed.task.display_path
    out: list[Diagnostic] = []
    for sm in analysed.statements:
        bound = {(f.pos.line, f.pos.col): b for f, b in zip(sm.parsed.functions, sm.functions)}
        if sm.parsed.query is None or not any(b.kind == "project" for b in bound.values()):
            continue
        for expr in _calls(sm.parsed.query):
            binding = bound.get((expr.pos.line, expr.pos.col)) if expr.pos is not None else None
            use = analysed.functions.get(binding.key) if binding is not None and binding.kind == "project" else None
            if use is None or use.function.params is None or len(use.function.params) == len(expr.args):
                continue
            function, params = use.function, use.function.params
            wanted = f"{len(params)} argument{'' if len(params) == 1 else 's'} ({', '.join(params)})" if params else "no arguments"
            out.append(Diagnostic(path, expr.pos.line, expr.pos.col, "FX143",
                                  f"{function.project}:{function.name} takes {wanted}, not {len(expr.args)}",
                                  f"call it as its YAML declares ({function.loc.path}: params), or change its params"))
    return out


def _calls(query: ir.StatementQuery) -> Iterator[ir.Expr]:
    """Every function call of the statement's queries and of the computed columns it creates (a table function
    in LATERAL TABLE(...) is not an expression here: the planner counts its arguments, FX301)."""
    roots: list[ir.Expr | None] = [c.expr for c in query.create_columns]
    for q in query.queries:
        roots += [item.expr for item in q.items] + [q.where, q.having] + q.group_by + q.order_by
        roots += [e for row in q.rows for e in row]
        for source in q.sources:
            roots += [source.on, source.lookup_time, source.time_column] + source.args + source.partition_by
    for root in roots:
        if root is not None:
            yield from (e for e in root.walk() if e.kind == ir.CALL)


CHECK = Check("project function calls", (CheckCode("FX143", "function-arguments"),), check, page="error-codes.md")
