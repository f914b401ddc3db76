"""FX408 arithmetic on a string or a boolean.

What it finds: `+ - * / %` (or a unary minus) with an operand the model types as a string (STRING,
VARCHAR, CHAR, a string literal) or a BOOLEAN: `quantity * unit_price` once `quantity` is a STRING.
Flink has no such operator and refuses the query ("Cannot apply '*' to arguments of type
'<VARCHAR(2147483647)> * <DECIMAL(10, 2)>'"), on 1.20 and 2.3 alike (tests/checks/test_operand_types.py).
The model records the operators while it types a statement's columns (`semantic/analyze.py`), so
`flinkx impact` sees a column retyped to STRING break the tasks that compute with it.
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.errors import Diagnostic
from flinkx_build.frontend import query_ir as ir
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.workspace_model import Workspace

_NAMES = {"neg": "-"}


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    path = analysed.task.display_path
    out: dict[tuple[int, int], Diagnostic] = {}
    for sm in analysed.statements:
        for expr, types in sm.bad_arithmetic:
            if expr.pos is None:
                continue
            operator = _NAMES.get(expr.text, expr.text)
            wrong = [(arg, typ) for arg, typ in zip(expr.args, types) if typ is not None and typ.family in ("char", "boolean")]
            arg, typ = wrong[0]
            written = _written(arg)
            cast = "CAST(... AS INT)" if typ.family == "char" else "CASE WHEN ... THEN 1 ELSE 0 END"
            out.setdefault((expr.pos.line, expr.pos.col), Diagnostic(
                path, expr.pos.line, expr.pos.col, "FX408",
                f"{operator} takes numbers, and {written} is {typ.format()}: Flink has no {operator} for it",
                f"convert it to a number first: {cast.replace('...', written) if arg.kind == ir.COLUMN else cast}"))
    return list(out.values())


def _written(expr: ir.Expr) -> str:
    if expr.kind == ir.COLUMN:
        return ".".join(expr.parts)
    if expr.kind == ir.LITERAL:
        return expr.text or expr.literal
    return "the operand"


CHECK = Check("operand types", (CheckCode("FX408", "arithmetic-on-text"),), check)
