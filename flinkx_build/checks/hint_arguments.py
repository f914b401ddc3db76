"""FX153 hint argument naming no column or table.

What it finds: a primary key given by a hint or a SET (`/*+ primarykey(usr_id) */`,
`SET dim.dim_user.primarykey = 'usr_id'`) that names no column of the table (Flink, on the
compiled DDL: "Primary key column 'usr_id' is not defined in the schema"), and a query hint
whose table argument names no table, view or alias of the statement
(`/*+ LOOKUP('table'='usr') */`, `/*+ BROADCAST(usr) */`; Flink: "The options of following
hints cannot match the name of input tables or views").
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import did_you_mean
from flinkx_build.frontend.hints import unquote
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.workspace_model import Workspace

# query hints whose arguments are table names (Flink's join hints)
_JOIN_HINTS = ("broadcast", "shuffle_hash", "shuffle_merge", "nest_loop")


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    seen: set[tuple] = set()
    for rs in analysed.statements:
        for bound in rs.tables:
            definition = bound.definition
            origin = definition.origins.get("primary_key") if definition is not None else None
            if origin is None or origin.layer not in ("hint", "set") or (origin.path, origin.line, origin.col) in seen:
                continue
            columns = [c.name for c in definition.columns]
            missing = [k for k in definition.primary_key if k.lower() not in {c.lower() for c in columns}]
            if missing:
                seen.add((origin.path, origin.line, origin.col))
                out.append(Diagnostic(origin.path, origin.line, origin.col, "FX153",
                                      f"Primary key column '{missing[0]}' is not defined in the schema of {bound.key}",
                                      did_you_mean(missing[0], columns) or f"its columns are {', '.join(columns)}"))
        out.extend(_query_hints(analysed.task.display_path, rs.parsed))
    return out


def _names(stmt: ParsedStatement) -> set[str]:
    """Every name a query hint may use for a table of the statement: names, aliases, CTEs, views."""
    names = {t.name.lower() for t in stmt.tables} | {t.alias.lower() for t in stmt.tables if t.alias}
    names |= {c.lower() for c in stmt.ctes}
    if stmt.query is not None:
        names |= {s.alias.lower() for q in stmt.query.queries for s in q.sources if s.alias}
        names |= {s.name.lower() for q in stmt.query.queries for s in q.sources if s.name}
    return names


def _query_hints(path: str, stmt: ParsedStatement) -> list[Diagnostic]:
    out = []
    names = None
    for hint in stmt.select_hints:
        if hint.error:
            continue
        for item in hint.items:
            if item.lower == "lookup":
                wanted = [unquote(v) for k, v in item.options if unquote(k).lower() == "table"]
            elif item.lower in _JOIN_HINTS:
                wanted = [unquote(a) for a in item.args]
            else:
                continue
            names = _names(stmt) if names is None else names
            for name in wanted:
                if name and name.lower() not in names and name.rsplit(".", 1)[-1].lower() not in names:  # `proj.tbl`: its table
                    out.append(Diagnostic(path, hint.pos.line, hint.pos.col, "FX153",
                                          f"The options of following hints cannot match the name of input tables or views: '{name}' in {item.name.upper()}",
                                          did_you_mean(name, sorted(names)) or "name a table or alias of this query"))
    return out


CHECK = Check("hint arguments", (CheckCode("FX153", "hint-argument"),), check)
