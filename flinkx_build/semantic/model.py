"""The semantic model of a task: what every column reference means, what every
query outputs (names and Flink types), and where each output column comes from.

Built once per task by `semantic.analyze` from the resolved task (tables,
functions and effective definitions bound by `resolve/`) and the query
structure of the one parse (`frontend/query_ir`). The checks, explain, graph,
impact and the language server read it; nothing here re-reads SQL.
"""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import TYPE_CHECKING

from flinkx_build.errors import Diagnostic
from flinkx_build.frontend import query_ir as ir
from flinkx_build.frontend.statements import Pos
from flinkx_build.flink_types import FlinkType

if TYPE_CHECKING:
    from flinkx_build.resolve.model import TableDef

IDENTITY = "IDENTITY"
TRANSFORMATION = "TRANSFORMATION"
AGGREGATION = "AGGREGATION"
_STRENGTH = {IDENTITY: 0, TRANSFORMATION: 1, AGGREGATION: 2}


def compose(outer: str, inner: str) -> str:
    """How a value is derived through two steps: the stronger of the two."""
    return outer if _STRENGTH[outer] >= _STRENGTH[inner] else inner


@dataclass(frozen=True, order=True)
class ColumnId:
    """A column of a dataset the task reads or writes: a meta table key, or
    `<project>/<task>#<name>` for a table the task defines itself."""

    table: str
    column: str

    def format(self) -> str:
        return f"{self.table}.{self.column}"


@dataclass(frozen=True, order=True)
class LineageInput:
    column: ColumnId
    transformation: str  # IDENTITY | TRANSFORMATION | AGGREGATION


@dataclass
class SourceColumn:
    """A column a scope can see, with the base columns its values come from."""

    name: str
    type: FlinkType | None
    inputs: frozenset[LineageInput] = frozenset()


@dataclass
class ScopeSource:
    """One FROM item as the query sees it."""

    alias: str  # the qualifier that names it ("" when it has none)
    kind: str  # meta | local | cte | query | window | unnest | lateral | opaque
    columns: list[SourceColumn] | None  # None: not known (no check may rely on it)
    table_key: str = ""  # meta table key for meta tables and windows over them
    pos: Pos | None = None

    def column(self, name: str) -> SourceColumn | None:
        if self.columns is None:
            return None
        lower = name.lower()
        return next((c for c in self.columns if c.name.lower() == lower), None)


@dataclass
class Binding:
    """One column reference and what it resolved to."""

    ref: ir.Expr
    status: str  # bound | unknown | ambiguous | unknown_qualifier | field | opaque | alias | outer
    source: ScopeSource | None = None
    column: SourceColumn | None = None
    candidates: list[str] = field(default_factory=list)
    fields: list[str] = field(default_factory=list)  # status field: the ROW fields read below the column
    query: int = -1  # the query (StatementQuery.queries index) the reference is written in


@dataclass
class LookupUse:
    """A lookup join: the dimension as the query sees it, its effective definition, the ON."""

    source: ScopeSource
    definition: "TableDef | None"
    on: ir.Expr | None
    pos: Pos | None
    time: Binding | None = None  # the column FOR SYSTEM_TIME AS OF names, when it is one


@dataclass
class WindowUse:
    """A window TVF and what its DESCRIPTOR column resolved to."""

    window: str  # TUMBLE | HOP | CUMULATE | SESSION
    time_column: Binding
    pos: Pos | None


@dataclass
class OutputColumn:
    name: str
    type: FlinkType | None
    inputs: frozenset[LineageInput]
    pos: Pos | None = None


@dataclass
class StatementModel:
    index: int
    kind: str
    outputs: list[OutputColumn] | None = None  # the statement's query output; None when unknown
    sink: str = ""  # the meta table key (or <project>/<task>#<name>) an INSERT writes
    sink_pos: Pos | None = None
    sink_columns: list[tuple[str, FlinkType | None]] | None = None  # what the INSERT writes, in order
    target_columns: list[str] | None = None  # every column the INSERT's table can be written by (None: unknown)
    bindings: list[Binding] = field(default_factory=list)
    indirect: set[ColumnId] = field(default_factory=set)  # read by filters, joins, grouping
    changelog: str | None = None  # what the statement's query emits: insert | update | None (unknown)
    select_names: set[str] = field(default_factory=set)  # lower-case output names of every query of the statement
    lookups: list[LookupUse] = field(default_factory=list)
    windows: list[WindowUse] = field(default_factory=list)

    def lineage(self) -> dict[str, frozenset[LineageInput]]:
        """Sink column -> the base columns it is computed from (INSERTs only)."""
        return {} if not self.sink or self.outputs is None else {o.name: o.inputs for o in self.outputs}


@dataclass
class TaskModel:
    task: str
    statements: list[StatementModel]
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def bindings(self):
        for statement in self.statements:
            yield from statement.bindings

    def column_lineage(self) -> list[tuple[ColumnId, LineageInput]]:
        """(sink column, input) edges of every INSERT, in statement order."""
        edges = []
        for statement in self.statements:
            for name, inputs in statement.lineage().items():
                target = ColumnId(statement.sink, name)
                edges.extend((target, i) for i in sorted(inputs))
        return edges
