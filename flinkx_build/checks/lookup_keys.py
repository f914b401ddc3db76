"""FX440 lookup join without an equality on the dimension, FX441 lookup not on a key.

What it finds: a lookup join (`JOIN dim FOR SYSTEM_TIME AS OF o.proc_time`) whose ON
has no `dim.col = <probe expression>`: Flink rejects it ("Temporal table join
requires an equality condition on fields of table"). And, as a warning, a lookup
whose equality columns cover no primary key, INDEX or UNIQUE INDEX of the
dimension's effective definition: every probe row then scans the dimension
(jdbc) or cannot be served at all (HBase looks up by row key only).
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.errors import Diagnostic
from flinkx_build.flink_types import common_type
from flinkx_build.frontend import query_ir as ir
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.resolve.analysed import Binding
from flinkx_build.resolve.analysed import LookupUse
from flinkx_build.semantic.analyze import COMPARISONS
from flinkx_build.workspace_model import Workspace


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    path = analysed.task.display_path
    bindings = {id(b.ref): b for b in analysed.bindings()}
    out = []
    for sm in analysed.statements:
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
    for conjunct in use.on.conjuncts():
        if conjunct.kind != ir.OPERATOR or conjunct.text not in COMPARISONS or len(conjunct.args) != 2:
            return None  # OR, IN, a function...: Flink's reading of it is not modelled here
        if conjunct.text != "=":
            continue
        sides = [_dimension_column(arg, use, bindings) for arg in conjunct.args]
        if any(s is None for s in sides):
            return None
        (left, left_dim), (right, right_dim) = sides
        if left_dim != right_dim and not _casts_dimension(conjunct.args, left_dim, bindings):
            keys.add(left if left_dim else right)
    return keys


def _casts_dimension(args: list[ir.Expr], left_is_dimension: bool, bindings: dict[int, Binding]) -> bool:
    """`dim.id = o.id` with dim.id INT and o.id BIGINT: Flink casts the dimension's column to the
    wider type, and a cast column is no lookup key (the join then has no equality on a field)."""
    dim_expr, probe_expr = (args[0], args[1]) if left_is_dimension else (args[1], args[0])
    dim_binding = bindings.get(id(dim_expr))
    dim_type = dim_binding.column.type if dim_binding is not None and dim_binding.column is not None else None
    probe_binding = bindings.get(id(probe_expr)) if probe_expr.kind == ir.COLUMN else None
    probe_type = probe_binding.column.type if probe_binding is not None and probe_binding.column is not None else None
    if dim_type is None or probe_type is None or dim_type.root == probe_type.root:
        return False
    common = common_type([dim_type, probe_type])
    return common is not None and common.root != dim_type.root


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


CHECK = Check("lookup keys", (CheckCode("FX440", "lookup-without-equality"), CheckCode("FX441", "lookup-not-on-key")), check)
