"""FX401 unknown column, FX402 ambiguous column, FX403 unknown table qualifier.

What it finds: a column reference that names no column of the tables in its
query (`p.brnd` for `p.brand`), an unqualified name that two FROM items both
have, a qualifier that names no FROM item. Flink rejects all three when the
job is submitted ("Column 'brnd' not found in table 'p'", "Column 'id' is
ambiguous"); flinkx finds them at commit time, with a "did you mean".
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import did_you_mean
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.workspace_model import Workspace

# SQL words that read like a column but are niladic functions in Flink
NILADIC = frozenset({
    "USER", "CURRENT_USER", "SESSION_USER", "SYSTEM_USER", "CURRENT_ROLE", "CURRENT_CATALOG", "CURRENT_DATABASE",
    "LOCALTIME", "LOCALTIMESTAMP", "CURRENT_TIME", "CURRENT_DATE", "CURRENT_TIMESTAMP", "CURRENT_ROW_TIMESTAMP",
})


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    path = analysed.task.display_path
    out = []
    for binding in analysed.bindings():
        ref, pos = binding.ref, binding.ref.pos
        if pos is None or not ref.parts:
            continue
        written = ".".join(ref.parts)
        if binding.status == "unknown":
            if len(ref.parts) == 1 and ref.parts[0].upper() in NILADIC:
                continue
            where = f" in {binding.source.alias or binding.source.table_key}" if binding.source is not None and len(ref.parts) > 1 else ""
            out.append(Diagnostic(path, pos.line, pos.col, "FX401", f"unknown column '{written}'{where}", did_you_mean(ref.parts[-1], binding.candidates)))
        elif binding.status == "ambiguous":
            out.append(Diagnostic(path, pos.line, pos.col, "FX402", f"column '{written}' is ambiguous: it is in {', '.join(binding.candidates)}", "qualify it with the table's alias"))
        elif binding.status == "unknown_qualifier":
            hint = did_you_mean(ref.parts[-2], binding.candidates) or (f"the query's tables are {', '.join(binding.candidates)}" if binding.candidates else "")
            out.append(Diagnostic(path, pos.line, pos.col, "FX403", f"'{ref.parts[-2]}' in '{written}' names no table of the query", hint))
    return out


CHECK = Check("columns", (CheckCode("FX401", "unknown-column"), CheckCode("FX402", "ambiguous-column"), CheckCode("FX403", "unknown-qualifier")), check)
