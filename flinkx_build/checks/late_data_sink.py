"""FX151 for MRS's LATE_DATA_SINK over a view or a join (seed 003).

Seed 003: the late-data sink holds the window's input fields (in any order) plus the
two TIMESTAMP columns named by `window.start.field` / `window.end.field`. The
resolver checks a window over one meta table; over a view, a subquery or a join the
input fields are the columns the windowed query reads from its FROM items, which
only the semantic model knows (window bounds such as window_start are outputs of the
window, not inputs). Where any of those columns is unknown, nothing is said.
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.engines import engine as engine_named
from flinkx_build.errors import Diagnostic
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.resolve.task import check_late_data_sink
from flinkx_build.semantic.analyze import WINDOW_COLUMNS
from flinkx_build.workspace_model import Workspace


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    if not engine_named(ws.config.engine).mrs_hints:
        return []
    out: list[Diagnostic] = []
    for rs in analysed.statements:
        if rs.parsed.query is None or not any(i.lower == "late_data_sink" for h in rs.parsed.select_hints for i in h.items):
            continue
        direct = [r for r, b in rs.table_refs() if b.kind == "meta" and r.role == "read" and not r.in_hint]
        if len(direct) == 1:
            continue  # one meta table: resolve/task.py checks it
        sink = next((b for r, b in rs.table_refs() if r.in_hint and b.kind == "meta"), None)
        root = rs.parsed.query.root
        mine = [b for b in rs.bindings if b.query == root]
        if sink is None or sink.key not in analysed.tables or any(b.status not in ("bound", "outer", "alias") for b in mine):
            continue
        used = {b.column.name for b in mine if b.column is not None and b.column.name.lower() not in WINDOW_COLUMNS}
        if used:
            check_late_data_sink(rs.parsed, analysed.tables[sink.key].table, used, analysed.task.display_path, out)
    return out


# it reports FX151, the resolver's code for the same rule (`resolve/task.py`)
CHECK = Check("late-data sink", (), check)
