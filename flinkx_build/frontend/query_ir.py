"""The query structure of one statement, as plain cacheable data.

The semantic model (`flinkx_build/semantic/`) binds and types this structure;
it never sees a sqlfluff tree. Everything here is what was *written*: names as
written (unquoted), positions in the task file, no meaning attached yet.

`Expr` is one node kind for every expression so the structure stays small and
serialises as plain JSON; `kind` says how to read `text`, `parts` and `args`.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from dataclasses import field
from functools import lru_cache
from typing import Any

from flinkx_build.frontend.positions import Pos

# Expr.kind values
COLUMN = "column"  # parts: the reference as written (["o", "user_id"])
LITERAL = "literal"  # text: the literal; literal: integer|exact|approx|string|boolean|null|date|time|timestamp|interval
CALL = "call"  # text: upper-case name; project: the `proj:` prefix; args; distinct; type_text for CAST/TRY_CAST
OPERATOR = "op"  # text: + - * / % || = <> < > <= >= != or and not pred neg; args
CASE = "case"  # args: the result branches (conditions in conditions)
STAR = "star"  # COUNT(*)
SUBQUERY = "subquery"  # query: index into StatementQuery.queries
OTHER = "other"  # anything else: args hold what is inside, so column references are still seen


@dataclass
class Expr:
    kind: str
    text: str = ""
    parts: list[str] = field(default_factory=list)
    args: list["Expr"] = field(default_factory=list)
    conditions: list["Expr"] = field(default_factory=list)
    pos: Pos | None = None
    literal: str = ""
    type_text: str = ""
    project: str | None = None
    distinct: bool = False
    query: int = -1
    over: bool = False  # an OVER (...) window call: an aggregate that keeps rows

    def walk(self):
        """This node and every node below it, subqueries excluded."""
        yield self
        for child in (*self.args, *self.conditions):
            yield from child.walk()

    def conjuncts(self):
        """The terms of this expression's top-level ANDs (the expression itself when it is no AND)."""
        if self.kind == OPERATOR and self.text == "and":
            for arg in self.args:
                yield from arg.conjuncts()
        else:
            yield self


@dataclass
class SelectItem:
    expr: Expr
    alias: str = ""
    pos: Pos | None = None
    wildcard: bool = False  # `*` or `q.*`
    qualifier: str = ""  # of `q.*`


@dataclass
class Source:
    """One item of a FROM clause (a join's right side included)."""

    kind: str  # table | query | window | unnest | lateral | match | opaque
    alias: str = ""
    column_aliases: list[str] = field(default_factory=list)  # AS t (a, b)
    table_ref: int = -1  # index into ParsedStatement.tables (kind table, and the window's input)
    name: str = ""  # a one-part name as written (a CTE, view or local table may be meant)
    query: int = -1  # kind query: the subquery
    window: str = ""  # kind window: TUMBLE | HOP | CUMULATE | SESSION
    time_column: Expr | None = None  # DESCRIPTOR(col) of a window TVF
    partition_by: list[Expr] = field(default_factory=list)  # SESSION(TABLE t PARTITION BY k, ...)
    args: list[Expr] = field(default_factory=list)  # UNNEST / table-function arguments
    join: str = ""  # "" for the first source, else inner | left | right | full | cross | comma
    on: Expr | None = None
    using: list[str] = field(default_factory=list)
    lookup: bool = False  # FOR SYSTEM_TIME AS OF
    lookup_time: Expr | None = None  # the operand of FOR SYSTEM_TIME AS OF
    window_args: int = 0  # kind window: how many arguments the TVF call was given
    window_pos: Pos | None = None  # kind window: where the TVF's name is written
    # kind match (`t MATCH_RECOGNIZE (...)`): table_ref/query is the input; the output's columns
    match_partition: list[str] = field(default_factory=list)
    match_measures: list[str] = field(default_factory=list)
    match_all_rows: bool = False
    match_order: list[Expr] = field(default_factory=list)  # its ORDER BY keys
    match_order_desc: bool = False  # the first ORDER BY key is DESC
    pos: Pos | None = None

    def match_desc_key(self) -> Expr | None:
        """The first ORDER BY key of a MATCH_RECOGNIZE when it is DESC (with a position)."""
        first = self.match_order[0] if self.match_order else None
        return first if self.match_order_desc and first is not None and first.pos is not None else None


@dataclass
class Query:
    """One SELECT (or a set operation over SELECTs, or VALUES)."""

    kind: str  # select | setop | values
    items: list[SelectItem] = field(default_factory=list)
    sources: list[Source] = field(default_factory=list)
    where: Expr | None = None
    group_by: list[Expr] = field(default_factory=list)
    having: Expr | None = None
    order_by: list[Expr] = field(default_factory=list)
    limit: bool = False  # a LIMIT or FETCH follows (a streaming ORDER BY is then a Top-N)
    distinct: bool = False
    branches: list[int] = field(default_factory=list)  # setop: the queries combined
    rows: list[list[Expr]] = field(default_factory=list)  # values
    ctes: dict[str, int] = field(default_factory=dict)  # name -> query, visible in this query and below
    parent: int = -1  # the enclosing query (correlated subqueries see its sources)
    pos: Pos | None = None


@dataclass
class ColumnDecl:
    """A column of a CREATE TABLE in the task."""

    name: str
    type_text: str = ""
    kind: str = "physical"  # physical | computed | metadata
    expr: Expr | None = None
    virtual: bool = False
    pos: Pos | None = None
    rowtime: bool = False  # WATERMARK FOR this column


@dataclass
class StatementQuery:
    queries: list[Query] = field(default_factory=list)
    root: int = -1  # the statement's query (INSERT ... SELECT, CREATE VIEW AS, a SELECT)
    insert_columns: list[str] = field(default_factory=list)  # INSERT INTO t (a, b)
    insert_column_pos: list[Pos] = field(default_factory=list)  # where each of them is written
    static_partitions: list[str] = field(default_factory=list)  # INSERT INTO t PARTITION (dt = '...'): not in the query
    create_columns: list[ColumnDecl] = field(default_factory=list)
    create_opaque: bool = False  # CREATE TABLE ... LIKE, or columns the extraction could not read
    view_columns: list[str] = field(default_factory=list)  # CREATE VIEW v (a, b) AS
    altered: str = ""  # ALTER TABLE t ...: t as written (its last part)
    renamed_to: str = ""  # ALTER TABLE t RENAME TO u
    added_columns: list[ColumnDecl] = field(default_factory=list)  # ALTER TABLE t ADD c TYPE
    # where each added column goes: None at the end, "" FIRST, a name AFTER that column
    added_positions: list[str | None] = field(default_factory=list)
    dropped_columns: list[str] = field(default_factory=list)  # ALTER TABLE t DROP c | DROP (a, b)
    renamed_columns: dict[str, str] = field(default_factory=dict)  # ALTER TABLE t RENAME a TO b
    watermark_for: str = ""  # ALTER TABLE t ADD|MODIFY WATERMARK FOR ts AS ...: ts
    watermark_dropped: bool = False  # ALTER TABLE t DROP WATERMARK

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "StatementQuery":
        return _decode(cls, data)


# --- a small typed JSON decoder for the dataclasses above -------------------------------

@lru_cache(maxsize=None)
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _decode(tp: Any, data: Any) -> Any:
    if data is None:
        return None
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is types.UnionType:
        inner = [a for a in typing.get_args(tp) if a is not type(None)]
        return _decode(inner[0], data)
    if origin is list:
        (item,) = typing.get_args(tp)
        return [_decode(item, v) for v in data]
    if origin is dict:
        _, value = typing.get_args(tp)
        return {k: _decode(value, v) for k, v in data.items()}
    if dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        return tp(**{f.name: _decode(hints[f.name], data[f.name]) for f in dataclasses.fields(tp) if f.name in data})
    return data
