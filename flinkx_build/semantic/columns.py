"""Which columns of each meta table a task reads, wildcards included.

`AnalysedTask.columns_read` holds the columns named by qualified or
unambiguous column references. A `SELECT *` (or `alias.*`) names none, yet
reads every column, so a task that reads a table through a wildcard is
counted as reading all of its columns here. Impact classification needs that:
removing a column such a task receives must count as breaking.
"""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field

from flinkx_build.resolve.analysed import AnalysedTask

_QUERY_KINDS = {"insert", "select", "create_view", "create_table"}


@dataclass
class ColumnUse:
    columns: dict[str, set[str]] = field(default_factory=dict)  # table key -> columns read
    wildcard: set[str] = field(default_factory=set)  # tables read through a wildcard
    # tables whose wildcard feeds an INSERT directly: a column added to them
    # changes the row the sink receives
    insert_wildcard: set[str] = field(default_factory=set)


def column_use(rt: AnalysedTask) -> ColumnUse:
    use = ColumnUse({key: set(cols) for key, cols in rt.columns_read.items() if key in rt.reads})
    for rs in rt.statements:
        stmt = rs.parsed
        cards = stmt.wildcards
        if stmt.kind not in _QUERY_KINDS or not cards:
            continue
        for ref, bound in zip(stmt.tables, rs.tables):
            if bound.kind != "meta" or ref.role == "write" or bound.key not in rt.tables:
                continue
            names = {q.lower() for q in (ref.alias, ref.name) if q}
            if not any(q is None or q.lower() in names for q in cards):
                continue
            definition = bound.definition
            cols = definition.columns if definition is not None else rt.tables[bound.key].table.columns
            use.columns.setdefault(bound.key, set()).update(c.name for c in cols)
            use.wildcard.add(bound.key)
            if stmt.kind == "insert":
                use.insert_wildcard.add(bound.key)
    return use
