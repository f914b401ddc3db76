"""A planner's finding (compiled-script coordinates) -> a Diagnostic at the Dataphin source, in its words.

A statement of the task: the token's line and column in the task file, through the compiler's
rewrites (`validate/positions.py`). Generated DDL: the line of the meta table's YAML entry the
error is in (a column, the watermark, an option), else the table's YAML; "line N, column M" in
Flink's text is rewritten to that place instead of the compiled file's numbers. validate (FX300)
and lint's planner pass (FX301) both map through here, so both point at the same token and say the
same: a message one of `flink_messages.SHAPES` knows is said in Dataphin's words with its fix, at
the token the shape names when Flink names none.
"""
from __future__ import annotations

import re

from flinkx_build.compile.flink_messages import Shape
from flinkx_build.compile.flink_messages import shape_of
from flinkx_build.compile.flink_messages import without_catalog
from flinkx_build.compile.script import CompiledScript
from flinkx_build.errors import Diagnostic
from flinkx_build.limits import offset_of
from flinkx_build.validate.contract import CompiledStatement
from flinkx_build.validate.contract import FlinkFinding
from flinkx_build.validate.positions import to_task

_POSITION = re.compile(r"\bline (\d+), column (\d+)")
_TABLE_GROUPS = ("table",)


def diagnostic_for(script: CompiledScript, finding: FlinkFinding, path_of_compiled: str, code: str = "FX300",
                   hint: str = "") -> Diagnostic:
    """`hint`: said when no shape of Flink's message knows the fix."""
    index = finding.statement_index
    if index < 0:
        index = max((i for i, s in enumerate(script.statements) if s.line <= finding.line), default=-1)
    if index < 0:
        return Diagnostic(path_of_compiled, finding.line, finding.col, code, finding.message, hint)
    stmt = script.statements[index]
    at_statement_start = (finding.line, finding.col) == (stmt.line, stmt.col)
    path, line, col = _place(script, index, finding.line, finding.col, at_statement_start)
    message = finding.message
    if stmt.origin is not None:
        message = _POSITION.sub(lambda m: _task_position(stmt, int(m[1]), int(m[2])), message)
    else:
        sources = script.line_sources.get(index, {})
        message = _POSITION.sub(lambda m: _yaml_position(stmt, sources, script.sources[index][0], int(m[1])), message)
    known = shape_of(finding.message)
    if known is not None:
        shape, groups = known
        words = shape.words({k: _dataphin_name(script, v) if k in _TABLE_GROUPS else v for k, v in groups.items()})
        message, hint = words.message, words.hint
        token = _token(script, index, shape, groups, finding, at_statement_start)
        if token is not None:
            path, line, col = token
    return Diagnostic(path, line, max(col, 1), code, message, hint)


def _place(script: CompiledScript, index: int, line: int, col: int, at_statement_start: bool) -> tuple[str, int, int]:
    """A compiled-file position inside statement `index` -> (file, line, col) at the Dataphin source."""
    stmt = script.statements[index]
    path, source_line, source_col = script.sources[index]
    if at_statement_start:
        return path, source_line, source_col
    if stmt.origin is not None:
        mapped = to_task(stmt, line, col)
        return (path, *mapped) if mapped else (path, source_line, source_col)
    relative = line - stmt.line + 1
    return script.line_sources.get(index, {}).get(relative, (path, source_line, source_col))


def _token(script: CompiledScript, index: int, shape: Shape, groups: dict[str, str], finding: FlinkFinding,
           at_statement_start: bool) -> tuple[str, int, int] | None:
    """Where the shape says the token is: a SET of a key, a pattern before Flink's position, or a pattern in the
    statement when Flink names no position. None: Flink's own position stands."""
    stmt = script.statements[index]
    if shape.set_key:
        key = groups.get(shape.set_key, "")
        return next((script.sources[i] for i, s in enumerate(script.statements)
                     if s.kind == "set" and re.search(rf"SET\s+'?{re.escape(key)}'?\s*=", s.text, re.IGNORECASE)), None)
    if shape.before and not at_statement_start:
        end = _offset_in(stmt, finding.line, finding.col)
        found = [m for m in re.finditer(shape.before, stmt.text[:end])]
        return _at_offset(script, index, found[-1].start()) if found else None
    if shape.locate is not None and at_statement_start:
        offset = shape.locate(script.text, stmt.text, groups)
        return _at_offset(script, index, offset) if offset is not None else None
    if shape.token and at_statement_start:
        pattern = shape.token.format(**{k: re.escape(v) for k, v in groups.items()})
        found = re.search(pattern, stmt.text, re.IGNORECASE)
        return _at_offset(script, index, found.start()) if found else None
    return None


def _offset_in(stmt: CompiledStatement, line: int, col: int) -> int:
    """A compiled-file (line, col) -> the offset in the statement's text."""
    relative = line - stmt.line + 1
    return offset_of(stmt.text, relative, col - stmt.col + 1 if relative == 1 else col)


def _at_offset(script: CompiledScript, index: int, offset: int) -> tuple[str, int, int]:
    stmt = script.statements[index]
    before = stmt.text[:offset]
    rows = before.count("\n")
    col = stmt.col + len(before) if rows == 0 else len(before) - before.rfind("\n")
    return _place(script, index, stmt.line + rows, col, False)


def _dataphin_name(script: CompiledScript, name: str) -> str:
    """A table as Flink names it (`default_catalog.default_database.dwd_orders`) -> as the task names it."""
    plain = without_catalog(name)
    return script.names.get(plain.lower(), plain)


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
