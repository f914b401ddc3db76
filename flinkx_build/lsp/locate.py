"""Position -> object: which reference, statement or table a cursor is on.

The only place the language server maps positions to the model. It reads the
front-end's facts (`TableRef`, `FunctionRef`, `${var}` uses) and the
resolver's bindings; a column-level semantic model can replace these lookups
without touching hover, definition or completion.

Positions are flinkx's: 1-based line and column, counted in characters.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.frontend.statements import Pos
from flinkx_build.frontend.statements import TableRef
from flinkx_build.limits import offset_of
from flinkx_build.variables import VARIABLE_PATTERN
from flinkx_build.variables import find_variables
from flinkx_build.lsp.analysis import TaskAnalysis
from flinkx_build.resolve.analysed import BoundFunction
from flinkx_build.resolve.analysed import BoundTable
from flinkx_build.resolve.analysed import ColumnDef
from flinkx_build.resolve.analysed import AnalysedStatement
from flinkx_build.resolve.analysed import TableDef


@dataclass(frozen=True)
class Extent:
    """A stretch of one line: [col, end_col)."""

    line: int
    col: int
    end_col: int

    def holds(self, line: int, col: int) -> bool:
        # the end is inclusive for the cursor: `dim.dim_user|` is still on the name
        return line == self.line and self.col <= col <= self.end_col


@dataclass
class TableTarget:
    statement: AnalysedStatement
    ref: TableRef
    bound: BoundTable
    extent: Extent


@dataclass
class FunctionTarget:
    name: str
    project: str | None
    bound: BoundFunction
    extent: Extent


@dataclass
class VariableTarget:
    name: str
    extent: Extent


@dataclass
class ColumnTarget:
    table: TableDef
    column: ColumnDef
    extent: Extent


Target = TableTarget | FunctionTarget | VariableTarget | ColumnTarget

# a column reference as written: `o.order_id`, o.`partition` (its extent; the parts come from the parse)
_COLUMN_CHAIN = re.compile(r"(?:`(?:[^`]|``)*`|[A-Za-z0-9_]+)(?:\s*\.\s*(?:`(?:[^`]|``)*`|[A-Za-z0-9_]+))*")


def source_extent(text: str, pos: Pos, rendered: str, context: dict[str, str]) -> Extent:
    """Where a reference written at `pos` ends in the task text.

    Facts carry the rendered text (`${dim_project}.dim_user` -> `dim.dim_user`):
    walk the source, letting each known `${var}` stand for its value.
    """
    start = offset_of(text, pos.line, pos.col)
    i, left = start, len(rendered)
    while left > 0 and i < len(text) and text[i] != "\n":
        m = VARIABLE_PATTERN.match(text, i)
        if m and m.group("param_name") in context:
            left -= len(context[m.group("param_name")])
            i = m.end()
        else:
            left -= 1
            i += 1
    return Extent(pos.line, pos.col, pos.col + (i - start))


def statement_at(analysis: TaskAnalysis, line: int, col: int) -> AnalysedStatement | None:
    """The statement whose text holds the cursor (or that the cursor ends)."""
    cursor = offset_of(analysis.task.text, line, col)
    for rs in analysis.resolved.statements:
        stmt = rs.parsed
        if stmt.offset <= cursor <= stmt.offset + len(stmt.source):
            return rs
    return None


def target_at(analysis: TaskAnalysis, line: int, col: int) -> Target | None:
    """The innermost reference under the cursor: a `${var}`, then a call, then a table."""
    text, context = analysis.task.text, analysis.context
    secrets = analysis.session.workspace.config.secrets
    cursor = offset_of(text, line, col)
    for use in find_variables(text, context, secrets):
        length = len(use.name) + 3
        if use.offset <= cursor <= use.offset + length:
            return VariableTarget(use.name, Extent(line, col - (cursor - use.offset), col - (cursor - use.offset) + length))
    rs = statement_at(analysis, line, col)
    if rs is None:
        return None
    stmt = rs.parsed
    for fref, bound in zip(stmt.functions, rs.functions):
        extent = source_extent(text, fref.pos, stmt.rendered[fref.span.start:fref.span.end], context)
        if extent.holds(line, col):
            return FunctionTarget(fref.name, fref.project, bound, extent)
    for ref, bound in zip(stmt.tables, rs.tables):
        extent = source_extent(text, ref.pos, stmt.rendered[ref.span.start:ref.span.end], context)
        if extent.holds(line, col):
            return TableTarget(rs, ref, bound, extent)
    for column in stmt.columns:
        start = offset_of(text, column.pos.line, column.pos.col)
        written = _COLUMN_CHAIN.match(text, start)
        extent = Extent(column.pos.line, column.pos.col, column.pos.col + (written.end() - start if written else 0))
        if extent.holds(line, col):
            found = column_definition(rs, column.parts)
            return ColumnTarget(found[0], found[1], extent) if found else None
    return None


def column_definition(rs: AnalysedStatement, parts: list[str]) -> tuple[TableDef, ColumnDef] | None:
    """The meta table column `[qualifier.]name` denotes in a statement: through the qualifier,
    or the one table the statement reads that has the column."""
    if len(parts) >= 2:
        tables = [d for d in [definition_for_qualifier(rs, parts[-2])] if d is not None]
    else:
        tables = [d for ref, d in table_definitions(rs) if ref.role != "write"]
    found = [(d, c) for d in tables for c in d.columns if c.name.lower() == parts[-1].lower()]
    return found[0] if len(found) == 1 else None


def table_definitions(rs: AnalysedStatement) -> list[tuple[TableRef, TableDef]]:
    """The meta tables a statement references, with their effective definitions."""
    return [(ref, bound.definition) for ref, bound in zip(rs.parsed.tables, rs.tables) if bound.definition is not None]


def definition_for_qualifier(rs: AnalysedStatement, qualifier: str) -> TableDef | None:
    """The table `qualifier.` names in a statement: an alias, or a table written without one."""
    wanted = qualifier.lower()
    for ref, definition in table_definitions(rs):
        if ref.alias.lower() == wanted or (not ref.alias and ref.name.lower() == wanted):
            return definition
    return None


def local_definition(statements: list[ParsedStatement], name: str) -> ParsedStatement | None:
    """The CREATE statement of a task-local table or view."""
    for stmt in statements:
        if stmt.kind in ("create_table", "create_view") and stmt.defines.lower() == name.lower():
            return stmt
    return None
