"""FX453 FOR SYSTEM_TIME AS OF a column that is no timestamp, FX442 lookup key compared across types.

What it finds: a lookup join `FOR SYSTEM_TIME AS OF o.line_no` whose operand is a column of a
type that is not TIMESTAMP or TIMESTAMP_LTZ (Flink: "The system time period specification
expects Timestamp type but is 'INTEGER'"; a misspelled operand is FX401), and an equality of
the lookup's ON that compares a dimension column with a probe value of another kind of type: a
string with a number (Flink: "implicit type conversion between VARCHAR(2147483647) and BIGINT
is not supported on join's condition now"), a timestamp with a number or a date, a boolean with
anything else ("Cannot apply '=' to arguments of type ..."). Numbers of different widths are not
judged here.
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.errors import Diagnostic
from flinkx_build.flink_types import FlinkType
from flinkx_build.frontend import query_ir as ir
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.resolve.analysed import Binding
from flinkx_build.resolve.analysed import LookupUse
from flinkx_build.workspace_model import Workspace

_TIMES = ("TIMESTAMP", "TIMESTAMP_LTZ")


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    path = analysed.task.display_path
    bindings = {id(b.ref): b for b in analysed.bindings()}
    out: list[Diagnostic] = []
    for sm in analysed.statements:
        for use in sm.lookups:
            out.extend(_time_operand(path, use))
            out.extend(_key_types(path, use, bindings))
    return out


def _time_operand(path: str, use: LookupUse) -> list[Diagnostic]:
    time = use.time
    if time is None or time.status not in ("bound", "outer") or time.column is None or time.column.type is None or time.ref.pos is None:
        return []
    typ = time.column.type
    if typ.root in _TIMES:
        return []
    written = ".".join(time.ref.parts)
    return [Diagnostic(path, time.ref.pos.line, time.ref.pos.col, "FX453",
                       f"FOR SYSTEM_TIME AS OF needs a time attribute of the probe side, but '{written}' is {typ.format()}",
                       "use the probe table's PROCTIME() column (SET <table>.procTime = proc_time AS PROCTIME()) or its rowtime")]


def _type(expr: ir.Expr, bindings: dict[int, Binding]) -> tuple[FlinkType | None, Binding | None]:
    if expr.kind == ir.LITERAL:
        return None, None  # a literal is cast by Flink: not judged
    binding = bindings.get(id(expr)) if expr.kind == ir.COLUMN else None
    if binding is None or binding.status not in ("bound", "outer") or binding.column is None:
        return None, binding
    return binding.column.type, binding


# the kinds of type a lookup key may not compare across: Flink 1.20 and 2.3 refuse every cross pair of these on a
# lookup join's ON, either way round (a string and a number: "implicit type conversion ... is not supported on join's
# condition"; a timestamp and a number, a date and a timestamp, ...: "Cannot apply '='"); measured pair by pair with
# both planners, tests/checks/test_lookup_operand_types.py. Numbers of different widths are not judged here.
_KINDS = {"exact": "number", "approx": "number", "char": "string", "binary": "bytes", "boolean": "boolean",
          "timestamp": "timestamp", "timestamp_ltz": "timestamp_ltz", "date": "date", "time": "time"}


def _clash(a: FlinkType, b: FlinkType) -> bool:
    """Two kinds of type Flink does not compare on a join condition (both known)."""
    kinds = (_KINDS.get(a.family), _KINDS.get(b.family))
    return None not in kinds and kinds[0] != kinds[1]


def _key_types(path: str, use: LookupUse, bindings: dict[int, Binding]) -> list[Diagnostic]:
    if use.on is None:
        return []
    out = []
    for conjunct in use.on.conjuncts():
        if conjunct.kind != ir.OPERATOR or conjunct.text != "=" or len(conjunct.args) != 2:
            continue
        (left, left_b), (right, right_b) = (_type(a, bindings) for a in conjunct.args)
        if left is None or right is None or left_b is None or right_b is None:
            continue
        if (left_b.source is use.source) == (right_b.source is use.source) or not _clash(left, right):
            continue
        pos = conjunct.args[0].pos
        if pos is None:
            continue
        names = [".".join(a.parts) for a in conjunct.args]
        why = ("implicit type conversion is not supported on join's condition" if {left.family, right.family} & {"char"}
               else "Flink cannot compare the two on a join's condition")
        out.append(Diagnostic(path, pos.line, pos.col, "FX442",
                              f"the lookup key {names[0]} = {names[1]} compares {left.format()} with {right.format()}: {why}",
                              "CAST the probe side to the dimension column's type"))
    return out


CHECK = Check("lookup-join operands", (CheckCode("FX442", "lookup-key-type"), CheckCode("FX453", "system-time-operand"),), check)
