"""FX412 INSERT column list names an unknown or a repeated column, FX413 set operation branches of different widths.

What it finds: `INSERT INTO t (a, b)` where a name is no writable column of `t` (Flink:
"Unknown target column 'x'") or is listed twice ("Target column 'x' is assigned more than
once"); and a UNION / INTERSECT / EXCEPT whose branches select different numbers of columns
("Column count mismatch in UNION ALL"). Both are refused by Flink when it plans the job.
A branch whose width is not known (`*`, a subquery the model cannot read) is not judged.
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import did_you_mean
from flinkx_build.frontend import query_ir as ir
from flinkx_build.workspace_model import Workspace
from flinkx_build.resolve.analysed import AnalysedTask



def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    path = analysed.task.display_path
    out: list[Diagnostic] = []
    for rs, sq in analysed.queries():
        if rs.target_columns is not None and sq.insert_columns and len(sq.insert_column_pos) == len(sq.insert_columns):
            out.extend(_column_list(path, sq, rs.target_columns))
        for query in sq.queries:
            if query.kind == "setop" and len(query.branches) >= 2:
                out.extend(_branch_widths(path, sq, query))
    return out


def _column_list(path: str, sq: ir.StatementQuery, targets: list[str]) -> list[Diagnostic]:
    writable = {t.lower() for t in targets}
    seen: set[str] = set()
    out = []
    for name, pos in zip(sq.insert_columns, sq.insert_column_pos):
        lower = name.lower()
        if lower not in writable:
            out.append(Diagnostic(path, pos.line, pos.col, "FX412", f"Unknown target column '{name}'",
                                  did_you_mean(name, targets) or f"the table's columns are {', '.join(targets)}"))
        elif lower in seen:
            out.append(Diagnostic(path, pos.line, pos.col, "FX412", f"Target column '{name}' is assigned more than once",
                                  "list each column of the table once"))
        seen.add(lower)
    return out


def _width(sq: ir.StatementQuery, index: int) -> int | None:
    query = sq.queries[index]
    if query.kind == "select":
        return None if any(i.wildcard for i in query.items) or not query.items else len(query.items)
    if query.kind == "values":
        widths = {len(r) for r in query.rows}
        return widths.pop() if len(widths) == 1 else None
    if len(query.branches) == 1:  # a WITH: its body
        return _width(sq, query.branches[0])
    return None


def _branch_widths(path: str, sq: ir.StatementQuery, query: ir.Query) -> list[Diagnostic]:
    widths = [_width(sq, b) for b in query.branches]
    if any(w is None for w in widths) or len(set(widths)) == 1:
        return []
    first = widths[0]
    odd = next(b for b, w in zip(query.branches, widths) if w != first)
    pos = sq.queries[odd].pos or query.pos
    if pos is None:
        return []
    return [Diagnostic(path, pos.line, pos.col, "FX413",
                       f"Column count mismatch in a set operation: its branches select {', '.join(str(w) for w in widths)} columns",
                       "give every branch of the UNION the same columns, in the same order")]


CHECK = Check("INSERT column lists and set-operation widths", (CheckCode("FX412", "insert-column-list"), CheckCode("FX413", "union-width"),), check)
