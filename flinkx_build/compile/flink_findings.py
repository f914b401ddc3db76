"""A planner's finding (compiled-script coordinates) -> a Diagnostic at the Dataphin source.

A statement of the task: the token's line and column in the task file, through the compiler's
rewrites (`validate/positions.py`). Generated DDL: the line of the meta table's YAML entry the
error is in (a column, the watermark, an option), else the table's YAML; "line N, column M" in
Flink's text is rewritten to that place instead of the compiled file's numbers. validate (FX300)
and lint's planner pass (FX301) both map through here, so both point at the same token.
"""
from __future__ import annotations

import re

from flinkx_build.compile.script import CompiledScript
from flinkx_build.errors import Diagnostic
from flinkx_build.validate.contract import FlinkFinding
from flinkx_build.validate.positions import to_task

_POSITION = re.compile(r"\bline (\d+), column (\d+)")


def diagnostic_for(script: CompiledScript, finding: FlinkFinding, path_of_compiled: str, code: str = "FX300",
                   hint: str = "") -> Diagnostic:
    index = finding.statement_index
    if index < 0:
        index = max((i for i, s in enumerate(script.statements) if s.line <= finding.line), default=-1)
    if index < 0:
        return Diagnostic(path_of_compiled, finding.line, finding.col, code, finding.message, hint)
    stmt = script.statements[index]
    path, line, col = script.sources[index]
    at_statement_start = (finding.line, finding.col) == (stmt.line, stmt.col)
    message = finding.message
    if stmt.origin is not None:
        if not at_statement_start:
            line, col = to_task(stmt, finding.line, finding.col) or (line, col)
        message = _POSITION.sub(lambda m: _task_position(stmt, int(m[1]), int(m[2])), message)
    else:
        sources = script.line_sources.get(index, {})
        relative = finding.line - stmt.line + 1
        if not at_statement_start and relative in sources:
            path, line, col = sources[relative]
        message = _POSITION.sub(lambda m: _yaml_position(stmt, sources, path, int(m[1])), message)
    return Diagnostic(path, line, max(col, 1), code, message, hint)


def _task_position(stmt, line: int, col: int) -> str:
    mapped = to_task(stmt, line, col)
    return f"line {mapped[0]}, column {mapped[1]}" if mapped else f"line {line}, column {col}"


def _yaml_position(stmt, sources: dict[int, tuple[str, int, int]], table_path: str, line: int) -> str:
    source = sources.get(line - stmt.line + 1)
    return f"{source[0]} line {source[1]}" if source else table_path


def undeclared_function(script: CompiledScript, finding: FlinkFinding) -> bool:
    """The planner's note on a function the task creates without a declared signature: FX142 (a
    warning, from the build) already says what could not be checked, so it is no planner error."""
    name = str(finding.extra.get("udf", "")).lower()
    return bool(name) and not any(u.name.split(".")[-1].lower() == name for u in script.udfs)
