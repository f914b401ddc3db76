"""FX440 lookup join without an equality on the dimension, FX441 lookup not on a key.

What it finds: a lookup join (`JOIN dim FOR SYSTEM_TIME AS OF o.proc_time`) whose ON
has no `dim.col = <probe expression>`: Flink rejects it ("Temporal table join
requires an equality condition on fields of table"). And, as a warning, a lookup
whose equality columns cover no primary key, INDEX or UNIQUE INDEX of the
dimension's effective definition: every probe row then scans the dimension
(jdbc) or cannot be served at all (HBase looks up by row key only).
"""
from __future__ import annotations

from flinkx_build.errors import Diagnostic
from flinkx_build.frontend import query_ir as ir
from flinkx_build.model import Workspace
from flinkx_build.resolve.model import ResolvedTask
from flinkx_build.semantic.analyze import COMPARISONS
from flinkx_build.semantic.model import Binding
from flinkx_build.semantic.model import LookupUse
from flinkx_build.semantic.model import TaskModel

CODES = ("FX440", "FX441")


def check(ws: Workspace, resolved: ResolvedTask, model: TaskModel) -> list[Diagnostic]:
    path = resolved.task.display_path
    bindings = {id(b.ref): b for b in model.bindings()}
    out = []
    for sm in model.statements:
        for use in sm.lookups:
            if use.pos is None or use.source.columns is None:
                continue
            keys = join_columns(use, bindings)
            if keys is None:
                continue  # something in the ON is not understood: say nothing
            name = use.source.table_key or use.source.alias
            if not keys:
                out.append(Diagnostic(path, use.pos.line, use.pos.col, "FX440", f"the lookup join on {name} has no equality on one of its columns",
                                      f"join ON {use.source.alias}.<key> = <a column of the probe side>"))
                continue
            definition = use.definition
            if definition is None:
                continue
            candidates = [k for k in (definition.primary_key, definition.index, definition.unique_index) if k]
            if not any({c.lower() for c in key} <= keys for key in candidates):
                have = "; ".join(f"({', '.join(k)})" for k in candidates) or "none"
                out.append(Diagnostic(path, use.pos.line, use.pos.col, "FX441",
                                      f"the lookup join on {name} matches ({', '.join(sorted(keys))}), which covers no primary key or index of it (keys: {have})",
                                      "look up by the dimension's key, or declare the key the lookup uses (SET ...primarykey / index)"))
    return out


def join_columns(use: LookupUse, bindings: dict[int, Binding]) -> set[str] | None:
    """Lower-case dimension columns equated to something outside the dimension; None if unsure."""
    if use.on is None:
        return set()
    keys: set[str] = set()
    for conjunct in _conjuncts(use.on):
        if conjunct.kind != ir.OPERATOR or conjunct.text not in COMPARISONS or len(conjunct.args) != 2:
            return None  # OR, IN, a function...: Flink's reading of it is not modelled here
        if conjunct.text != "=":
            continue
        sides = [_dimension_column(arg, use, bindings) for arg in conjunct.args]
        if any(s is None for s in sides):
            return None
        (left, left_dim), (right, right_dim) = sides
        if left_dim and not right_dim:
            keys.add(left)
        elif right_dim and not left_dim:
            keys.add(right)
    return keys


def _conjuncts(expr: ir.Expr):
    if expr.kind == ir.OPERATOR and expr.text == "and":
        for arg in expr.args:
            yield from _conjuncts(arg)
    else:
        yield expr


def _dimension_column(expr: ir.Expr, use: LookupUse, bindings: dict[int, Binding]) -> tuple[str, bool] | None:
    """(column, is it the dimension's) for a plain column; ("", False) for anything else."""
    columns = [n for n in expr.walk() if n.kind == ir.COLUMN]
    if expr.kind != ir.COLUMN:
        refs = [bindings.get(id(c)) for c in columns]
        return ("", False) if all(b is not None and b.source is not use.source for b in refs) else ("", True)
    binding = bindings.get(id(expr))
    if binding is None or binding.status not in ("bound", "outer"):
        return None
    return binding.column.name.lower(), binding.source is use.source
