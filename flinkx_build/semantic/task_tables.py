"""The columns of the tables a task defines itself, statement by statement.

`CREATE TABLE` (with a column list, or `... AS SELECT` without one), and `ALTER TABLE ... ADD`
and `... RENAME TO` of such a table. The analyzer keeps three maps keyed by the lower-case name:
the columns a query sees (None: not known), the columns an INSERT writes, and the changelog mode.
"""
from __future__ import annotations

import dataclasses

from flinkx_build import flink_types as ft
from flinkx_build.frontend import query_ir as ir
from flinkx_build.resolve.analysed import IDENTITY
from flinkx_build.resolve.analysed import ColumnId
from flinkx_build.resolve.analysed import LineageInput
from flinkx_build.resolve.analysed import SourceColumn
from flinkx_build.semantic.functions import call_type

Tables = dict[str, list[SourceColumn] | None]
Sinks = dict[str, list[tuple[str, ft.FlinkType | None]]]


def task_table_key(task: str, name: str) -> str:
    """The dataset name of a table or view a task defines itself: `<project>/<task>#<name>`."""
    return f"{task}#{name}"


def declared_type(column: ir.ColumnDecl) -> ft.FlinkType | None:
    """A column of a CREATE TABLE in the task: its type, a time attribute if it has a watermark."""
    if column.kind == "computed":
        is_proctime = column.expr is not None and column.expr.kind == ir.CALL and column.expr.text == "PROCTIME"
        return call_type("PROCTIME", []) if is_proctime else None
    typ = ft.parse_type(column.type_text)
    if typ is not None and column.rowtime:
        return ft.FlinkType(typ.root, typ.params, typ.nullable, typ.text, "rowtime")
    return typ


def _own(key: str, name: str, typ: ft.FlinkType | None) -> SourceColumn:
    return SourceColumn(name, typ, frozenset({LineageInput(ColumnId(key, name), IDENTITY)}))


def _written(column: ir.ColumnDecl) -> bool:
    """Physical and persisted metadata columns are written; computed and VIRTUAL ones are not."""
    return column.kind == "physical" or (column.kind == "metadata" and not column.virtual)


def create_table(tables: Tables, sinks: Sinks, task: str, name: str, sq: ir.StatementQuery) -> None:
    """`CREATE TABLE name (columns) ...`: LIKE or an unread column list leaves the columns unknown."""
    if sq.create_opaque and not sq.create_columns:
        tables[name.lower()] = None
        return
    key = task_table_key(task, name)
    columns = [_own(key, c.name, declared_type(c)) for c in sq.create_columns]
    tables[name.lower()] = None if sq.create_opaque else columns
    if not sq.create_opaque:
        sinks[name.lower()] = [(c.name, t.type) for c, t in zip(sq.create_columns, columns) if _written(c)]


def create_table_as(tables: Tables, sinks: Sinks, task: str, name: str, outputs: list[SourceColumn] | None) -> None:
    """`CREATE TABLE name WITH (...) AS SELECT ...` without a column list: the query's columns."""
    if outputs is None:
        tables[name.lower()] = None
        return
    key = task_table_key(task, name)
    tables[name.lower()] = [_own(key, c.name, c.type) for c in outputs]
    sinks[name.lower()] = [(c.name, c.type) for c in outputs]


def alter_table(tables: Tables, sinks: Sinks, modes: dict[str, str | None], task: str, sq: ir.StatementQuery) -> None:
    """A task's own table altered: DROP, RENAME a TO b and watermarks change its columns, ADD puts new
    ones in place, RENAME TO moves them to the new name. A meta table altered in a task is not
    followed (its columns stay the workspace's)."""
    old = sq.altered.lower()
    if old not in tables:
        return
    current = tables[old]
    if current is not None and (sq.dropped_columns or sq.renamed_columns or sq.watermark_for or sq.watermark_dropped):
        current = _changed_schema(task_table_key(task, sq.altered), current, sq)
        tables[old] = current
        if old in sinks:
            dropped = {c.lower() for c in sq.dropped_columns}
            renamed = {k.lower(): v for k, v in sq.renamed_columns.items()}
            sinks[old] = [(renamed.get(n.lower(), n), t) for n, t in sinks[old] if n.lower() not in dropped]
    if sq.added_columns and current is not None:
        key = task_table_key(task, sq.altered)
        places = sq.added_positions or [None] * len(sq.added_columns)
        columns, written = list(current), list(sinks.get(old, []))
        for decl, place in zip(sq.added_columns, places):
            column = _own(key, decl.name, declared_type(decl))
            columns.insert(_index(columns, place), column)
            if _written(decl):
                written.insert(_index(written, place), (column.name, column.type))
        tables[old] = columns
        if old in sinks:
            sinks[old] = written
    if sq.renamed_to:
        new = sq.renamed_to.lower()
        tables[new] = tables.pop(old)
        if old in sinks:
            sinks[new] = sinks.pop(old)
        if old in modes:
            modes[new] = modes.pop(old)


def _index(columns: list, place: str | None) -> int:
    """Where `ADD c ... [FIRST | AFTER b]` puts c in `columns` (SourceColumns or (name, type) pairs)."""
    if place is None:
        return len(columns)
    if place == "":
        return 0
    names = [(c.name if isinstance(c, SourceColumn) else c[0]).lower() for c in columns]
    return names.index(place.lower()) + 1 if place.lower() in names else len(columns)


def _changed_schema(key: str, columns: list[SourceColumn], sq: ir.StatementQuery) -> list[SourceColumn]:
    """`DROP c`, `RENAME a TO b`, `ADD|MODIFY WATERMARK FOR ts` and `DROP WATERMARK` applied to `columns`."""
    dropped = {c.lower() for c in sq.dropped_columns}
    renamed = {k.lower(): v for k, v in sq.renamed_columns.items()}
    out = []
    for column in columns:
        if column.name.lower() in dropped:
            continue
        typ = column.type
        if typ is not None and sq.watermark_dropped and typ.time_attribute == "rowtime":
            typ = dataclasses.replace(typ, time_attribute="")
        if typ is not None and sq.watermark_for.lower() == column.name.lower():
            typ = dataclasses.replace(typ, time_attribute="rowtime")
        name = renamed.get(column.name.lower(), column.name)
        out.append(column if (name, typ) == (column.name, column.type) else _own(key, name, typ))
    return out
