"""A position Flink gives in a compiled statement -> the same token in the task file.

The compiler rewrites names (`proj.tbl` -> `tbl`, functions, removed Dataphin hints), so a column
Flink reports after a rewrite on its line is not the task's column: the statement's `source_map`
(compile/script.py) undoes each edit. Pure Python, no JVM.
"""
from __future__ import annotations

from flinkx_build.limits import offset_of
from flinkx_build.validate.contract import CompiledStatement


def _line_col(text: str, offset: int) -> tuple[int, int]:
    """0-based line and 0-based column of `offset` in `text`."""
    before = text[:offset]
    line = before.count("\n")
    return line, offset - (before.rfind("\n") + 1)


def source_offset(stmt: CompiledStatement, offset: int) -> int:
    """An offset in the compiled statement -> the rendered task statement (inside a rewritten name:
    the name's start)."""
    source = offset
    for new_start, new_end, old_start, old_end in stmt.source_map:
        if offset < new_start:
            break
        source = old_start if offset < new_end else old_end + (offset - new_end)
    return source


def to_task(stmt: CompiledStatement, line: int, col: int) -> tuple[int, int] | None:
    """A compiled-file (line, col) inside `stmt` -> the task file's (line, col); None for generated DDL."""
    if stmt.origin is None:
        return None
    relative_line = line - stmt.line + 1
    relative_col = col - stmt.col + 1 if relative_line == 1 else col
    offset = offset_of(stmt.text, relative_line, relative_col)
    text = stmt.source_text or stmt.text
    rows, column = _line_col(text, source_offset(stmt, offset) if stmt.source_text else offset)
    origin_line, origin_col = stmt.origin
    return origin_line + rows, (origin_col + column if rows == 0 else column + 1)
