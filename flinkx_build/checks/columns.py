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
from flinkx_build.resolve.analysed import Binding
from flinkx_build.workspace_model import Workspace

# SQL words that read like a column but are niladic functions in Flink
NILADIC = frozenset({
    "USER", "CURRENT_USER", "SESSION_USER", "SYSTEM_USER", "CURRENT_ROLE", "CURRENT_CATALOG", "CURRENT_DATABASE",
    "LOCALTIME", "LOCALTIMESTAMP", "CURRENT_TIME", "CURRENT_DATE", "CURRENT_TIMESTAMP", "CURRENT_ROW_TIMESTAMP",
})


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    path = analysed.task.display_path
    out = []
    lookup_times = _lookup_times(analysed)
    unknown: dict[tuple[str, str], list[Binding]] = {}  # one finding per wrong name and table: its first use
    for binding in analysed.bindings():
        ref, pos = binding.ref, binding.ref.pos
        if pos is None or not ref.parts:
            continue
        written = ".".join(ref.parts)
        if binding.status == "unknown":
            if len(ref.parts) == 1 and ref.parts[0].upper() in NILADIC:
                continue
            source = binding.source.table_key or binding.source.alias if binding.source is not None else ""
            unknown.setdefault((written.lower(), source), []).append(binding)
        elif binding.status == "ambiguous":
            out.append(Diagnostic(path, pos.line, pos.col, "FX402", f"column '{written}' is ambiguous: it is in {', '.join(binding.candidates)}", "qualify it with the table's alias"))
        elif binding.status == "unknown_qualifier":
            hint = did_you_mean(ref.parts[-2], binding.candidates) or (f"the query's tables are {', '.join(binding.candidates)}" if binding.candidates else "")
            out.append(Diagnostic(path, pos.line, pos.col, "FX403", f"'{ref.parts[-2]}' in '{written}' names no table of the query", hint))
    for uses in unknown.values():
        out.append(_unknown_column(path, uses, lookup_times))
    return sorted(out)


def _lookup_times(analysed: AnalysedTask) -> set[tuple[int, int]]:
    """Where each FOR SYSTEM_TIME AS OF names its time column."""
    return {(s.lookup_time.pos.line, s.lookup_time.pos.col) for _, query in analysed.queries() for q in query.queries
            for s in q.sources if s.lookup and s.lookup_time is not None and s.lookup_time.pos is not None}


def _unknown_column(path: str, uses: list[Binding], lookup_times: set[tuple[int, int]]) -> Diagnostic:
    """FX401 at the first use of a wrong name (the others are the same mistake), with the fix: the column
    meant, or, for the time column of a lookup join on a meta table, the procTime SET that declares it."""
    uses = sorted(uses, key=lambda b: (b.ref.pos.line, b.ref.pos.col) if b.ref.pos is not None else (0, 0))
    first = uses[0]
    ref, pos, source = first.ref, first.ref.pos, first.source
    written = ".".join(ref.parts)
    where = f" in {source.alias or source.table_key}" if source is not None and len(ref.parts) > 1 else ""
    also = sorted({b.ref.pos.line for b in uses[1:] if b.ref.pos is not None} - {pos.line})
    more = f", also used on line{'s' if len(also) > 1 else ''} {', '.join(map(str, also))}" if also else ""
    hint = did_you_mean(ref.parts[-1], first.candidates)
    if any((b.ref.pos.line, b.ref.pos.col) in lookup_times for b in uses if b.ref.pos is not None) \
            and source is not None and source.kind == "meta":
        hint = (f"a lookup join needs a processing-time column on the probe side: declare it with "
                f"SET {source.table_key}.procTime = {ref.parts[-1]} AS PROCTIME();")
    return Diagnostic(path, pos.line, pos.col, "FX401", f"unknown column '{written}'{where}{more}", hint)


CHECK = Check("columns", (CheckCode("FX401", "unknown-column"), CheckCode("FX402", "ambiguous-column"), CheckCode("FX403", "unknown-qualifier")), check)
