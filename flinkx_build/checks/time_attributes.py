"""FX450 watermark on a column that cannot carry one, FX451 window over a non-time column.

What it finds: a watermark (the meta table's SET `watermark`) on a column that is not
TIMESTAMP(p) or TIMESTAMP_LTZ(p) with p <= 3, which Flink refuses when it creates the
table; and a window TVF whose DESCRIPTOR names a column that is not a time attribute
(no watermark on it, not PROCTIME()), which Flink refuses when it plans the query.
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.engines import engine as engine_named
from flinkx_build.errors import Diagnostic
from flinkx_build.flink_types import parse_type
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.workspace_model import Workspace


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    if not engine_named(ws.config.engine).apache_flink:
        return []  # Blink's TIMESTAMP and time attributes follow other rules (seed 000)
    out = []
    seen: set[tuple] = set()
    for rs in analysed.statements:
        for bound in rs.tables:
            d = bound.definition
            if d is None or not d.watermark:
                continue
            column = next((c for c in d.columns if c.name.lower() == d.watermark[0].lower()), None)
            origin = d.origins.get("watermark")
            typ = parse_type(column.type) if column is not None and column.type else None
            if typ is None or origin is None or (origin.path, origin.line) in seen:
                continue
            if typ.root not in ("TIMESTAMP", "TIMESTAMP_LTZ") or (typ.params and typ.params[0] > 3):
                seen.add((origin.path, origin.line))
                out.append(Diagnostic(origin.path, origin.line, origin.col, "FX450",
                                      f"the watermark of {bound.key} is on '{column.name}', which is {typ.format()}: a watermark needs TIMESTAMP(p) or TIMESTAMP_LTZ(p), p <= 3",
                                      f"put it on a TIMESTAMP(3) column, or add one: SET ...computedColumn = ts AS TO_TIMESTAMP_LTZ({column.name}, 3)"))
    path = analysed.task.display_path
    for sm in analysed.statements:
        for window in sm.windows:
            binding = window.time_column
            column = binding.column
            if binding.status != "bound" or column is None or column.type is None or window.pos is None or binding.ref.pos is None:
                continue
            if binding.source is not None and binding.source.table_key in analysed.failed_watermarks:
                continue  # its watermark SET was refused: that finding is the one
            if not column.type.time_attribute:
                pos = binding.ref.pos
                out.append(Diagnostic(path, pos.line, pos.col, "FX451",
                                      f"{window.window} needs a time attribute, but '{column.name}' is a plain {column.type.format()} (no watermark on it, not PROCTIME())",
                                      f"SET the table's `watermark` = 'WATERMARK FOR {column.name} AS ...', or use a PROCTIME() column"))
    return out


CHECK = Check("time attributes", (CheckCode("FX450", "watermark-type"), CheckCode("FX451", "window-needs-time-attribute")), check)
