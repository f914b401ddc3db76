"""FX452 window TVF called with the wrong number of arguments, FX407 ROW field that does not exist.

What it finds: `TUMBLE(TABLE t, DESCRIPTOR(ts))` without its size, or a HOP / CUMULATE /
SESSION with an argument too few or too many (Flink: "Invalid number of arguments to function
'TUMBLE'. Was expecting 3 arguments"); and `o.info.cty` where the ROW column `info` has no
field `cty` (Flink: "Column 'info.cty' not found in table 'o'"). A column whose type is not
a ROW the model can read is not judged.
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import did_you_mean
from flinkx_build.flink_types import parse_type
from flinkx_build.flink_types import row_fields
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.resolve.analysed import Binding
from flinkx_build.workspace_model import Workspace

# (fewest, most) arguments of Flink 1.20's window TVFs: the table, the DESCRIPTOR, the
# sizes, then an optional offset (SESSION has none). To move into the generated function
# signature table once that covers table-valued functions (docs/decisions.md).
WINDOW_ARITY = {"TUMBLE": (3, 4), "HOP": (4, 5), "CUMULATE": (4, 5), "SESSION": (3, 3)}


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    path = analysed.task.display_path
    out: list[Diagnostic] = []
    for _, sq in analysed.queries():
        for query in sq.queries:
            for source in query.sources:
                at = source.window_pos or source.pos
                if source.kind == "window" and source.window_args and at is not None:
                    out.extend(_window_arity(path, source.window, source.window_args, at))
    for binding in analysed.bindings():
        out.extend(_row_field(path, binding))
    return out


def _window_arity(path: str, window: str, given: int, pos) -> list[Diagnostic]:
    fewest, most = WINDOW_ARITY.get(window, (0, 99))
    if fewest <= given <= most:
        return []
    expected = str(fewest) if fewest == most else f"{fewest} or {most}"
    return [Diagnostic(path, pos.line, pos.col, "FX452",
                       f"Invalid number of arguments to function '{window}': it was given {given}, it takes {expected}",
                       f"{window}(TABLE t, DESCRIPTOR(time_col), " + {"TUMBLE": "size", "SESSION": "gap"}.get(window, "step, size") + ")")]


def _row_field(path: str, binding: Binding) -> list[Diagnostic]:
    if binding.status != "field" or binding.column is None or binding.column.type is None or binding.ref.pos is None:
        return []
    typ = binding.column.type
    for name in binding.fields:
        if typ is None or typ.root != "ROW":
            return []
        fields = row_fields(typ)
        if not fields:
            return []
        found = next((t for n, t in fields if n.lower() == name.lower()), None)
        if found is None:
            pos = binding.ref.pos
            written = ".".join(binding.ref.parts)
            return [Diagnostic(path, pos.line, pos.col, "FX407", f"'{written}': the ROW has no field '{name}'",
                               did_you_mean(name, [n for n, _ in fields]) or f"its fields are {', '.join(n for n, _ in fields)}")]
        typ = parse_type(found)
    return []


CHECK = Check("window TVF arity and ROW fields", (CheckCode("FX452", "window-arity"), CheckCode("FX407", "unknown-row-field"),), check)
