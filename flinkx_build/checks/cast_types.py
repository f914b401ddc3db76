"""FX406 CAST (or a task's column) to a type Flink does not have.

What it finds: `CAST(x AS VARCHAR2(20))`, `TRY_CAST(x AS NUMBER)`, a column of a task's
CREATE TABLE declared `DATETIME`: type names from other databases that Flink's parser
does not know (Flink: a parse error, or "Unknown identifier"). The names Flink knows are
the generated facts of each version (`flinkx_build/data/flink/<version>/`), never a list typed here.
"""
from __future__ import annotations

from functools import lru_cache

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import did_you_mean
from flinkx_build.flink_data import type_heads_of_any_version
from flinkx_build.frontend import query_ir as ir
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.workspace_model import Workspace

@lru_cache(maxsize=1)
def flink_type_names() -> tuple[str, ...]:
    """The type names some supported Flink version's parser knows (the generated facts), longest
    first. A name only another version has is FX124's (checks/flink_target.py), not this check's.
    Read on first use, not at import: importing the checks reads no version's facts."""
    return tuple(sorted(type_heads_of_any_version(), key=len, reverse=True))


def unknown_type_name(type_text: str) -> str | None:
    """The leading type name of `type_text` when Flink has no such type, else None."""
    text = " ".join(type_text.upper().split())
    if not text:
        return None
    for name in flink_type_names():
        if text.startswith(name) and (len(text) == len(name) or not (text[len(name)].isalnum() or text[len(name)] == "_")):
            return None
    end = 0
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return type_text.strip()[:end] or None


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    path = analysed.task.display_path
    out: list[Diagnostic] = []
    for _, sq in analysed.queries():
        for decl in sq.create_columns:
            name = unknown_type_name(decl.type_text) if decl.kind == "physical" else None
            if name and decl.pos is not None:
                out.append(_finding(path, decl.pos.line, decl.pos.col, name, f"column '{decl.name}'"))
        for query in sq.queries:
            exprs = [i.expr for i in query.items] + [e for e in (query.where, query.having) if e is not None] + query.group_by
            exprs += [s.on for s in query.sources if s.on is not None]
            for expr in exprs:
                for node in expr.walk():
                    if node.kind == ir.CALL and node.text in ("CAST", "TRY_CAST") and node.type_text and node.pos is not None:
                        name = unknown_type_name(node.type_text)
                        if name:
                            out.append(_finding(path, node.pos.line, node.pos.col, name, node.text))
    return out


def _finding(path: str, line: int, col: int, name: str, what: str) -> Diagnostic:
    known = [n for n in flink_type_names() if " " not in n]
    hint = did_you_mean(name.upper(), known) or "Flink's types: STRING, VARCHAR(n), DECIMAL(p, s), BIGINT, TIMESTAMP(3), ..."
    return Diagnostic(path, line, col, "FX406", f"{what}: Flink has no type '{name}'", hint)


CHECK = Check("types Flink has", (CheckCode("FX406", "unknown-type"),), check)
