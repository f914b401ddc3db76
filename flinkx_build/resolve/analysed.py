"""The analysed task: one object per task and one per statement, every later stage reads it.

Built in two steps, each filling what it knows into the same objects: `resolve/task.py` binds
every table and function reference (`BoundTable`, `BoundFunction`, the effective definitions
schema < SET < hint) and `semantic/analyze.py` then adds what every column reference means, what
each query outputs (names and Flink types) and where each output column comes from. Build, lint,
the checks, graph, lineage, explain, impact, validate and the language server read it; nothing
here re-reads SQL. No back-pointers: a statement does not point at its task.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field

from flinkx_build.errors import Diagnostic
from flinkx_build.flink_types import FlinkType
from flinkx_build.frontend import query_ir as ir
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.frontend.statements import Pos
from flinkx_build.frontend.statements import TableRef
from flinkx_build.workspace_model import Function
from flinkx_build.workspace_model import MetaTable
from flinkx_build.workspace_model import Task


@dataclass(frozen=True)
class Origin:
    """Where a value came from, for `flinkx explain`."""

    layer: str  # schema | set | hint | mode
    path: str
    line: int
    col: int = 1

    def format(self) -> str:
        return f"{self.layer} {self.path}:{self.line}"


@dataclass
class ColumnDef:
    name: str
    type: str = ""  # physical and metadata columns
    comment: str = ""
    expression: str = ""  # computed columns
    metadata_key: str | None = None  # METADATA [FROM key] VIRTUAL
    origin: Origin | None = None
    # computed columns from a SET: (statement index, rendered offset) of the expression,
    # so function names inside it can be turned into Flink names like in any statement
    expression_at: tuple[int, int] | None = None

    @property
    def is_virtual(self) -> bool:
        return bool(self.expression) or self.metadata_key is not None


@dataclass
class TableDef:
    """The effective definition of a meta table for one query."""

    table: MetaTable
    columns: list[ColumnDef]
    primary_key: list[str]
    index: list[str]
    unique_index: list[str]
    watermark: tuple[str, str] | None  # (rowtime column, expression)
    options: dict[str, str]
    origins: dict[str, Origin]  # "option:<k>", "primary_key", "index", "unique_index", "watermark", "column:<c>"
    written_columns: list[str] | None = None  # dataphincolumns crop of an HBase sink

    def signature(self) -> tuple:
        return (
            tuple((c.name, c.type, c.expression, c.metadata_key) for c in self.columns),
            tuple(self.primary_key), tuple(self.index), tuple(self.unique_index), self.watermark,
            tuple(sorted(self.options.items())), tuple(self.written_columns or ()),
        )


@dataclass
class TableUse:
    """A meta table the task uses, with one DDL per distinct effective definition."""

    table: MetaTable
    base_name: str = ""
    variants: list[tuple[TableDef, str]] = field(default_factory=list)  # (definition, emitted name)

    def name_for(self, definition: TableDef) -> str:
        sig = definition.signature()
        for existing, name in self.variants:
            if existing.signature() == sig:
                return name
        name = self.base_name if not self.variants else f"{self.base_name}__{len(self.variants) + 1}"
        self.variants.append((definition, name))
        return name


@dataclass
class FunctionUse:
    function: Function
    emitted_name: str = ""


@dataclass
class BoundTable:
    """What one table reference in a statement means."""

    kind: str  # meta | local | cte | external | unloaded (a meta table whose YAML did not load) | error
    key: str = ""  # meta table key, or local name
    definition: TableDef | None = None


@dataclass
class BoundFunction:
    kind: str  # project | local | builtin | external | unloaded (a project function whose YAML did not load) | error
    key: str = ""  # function key for project functions


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
    definition: TableDef | None
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
class AnalysedStatement:
    """One statement: what resolve bound, then the column facts semantic found."""

    parsed: ParsedStatement
    tables: list[BoundTable] = field(default_factory=list)  # parallel to parsed.tables
    functions: list[BoundFunction] = field(default_factory=list)  # parallel to parsed.functions
    in_statement_set: bool = False
    emit: bool = True  # False for Dataphin SET statements (consumed by the build)
    # the column facts, filled by semantic.analyze
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
    # arithmetic whose operand is a string or a boolean (`quantity * unit_price` with quantity STRING), with the
    # operands' types: Flink has no such operator ("Cannot apply '*' to arguments of type")
    bad_arithmetic: list[tuple[ir.Expr, list[FlinkType | None]]] = field(default_factory=list)

    @property
    def index(self) -> int:
        return self.parsed.index

    def clear_column_facts(self) -> None:
        """Back to what resolve left, so that semantic.analyze fills the column facts in afresh."""
        fresh = AnalysedStatement(self.parsed)
        for name in _COLUMN_FACTS:
            setattr(self, name, getattr(fresh, name))

    @property
    def kind(self) -> str:
        return self.parsed.kind

    def table_refs(self) -> Iterator[tuple[TableRef, BoundTable]]:
        """Each table reference as written, with what it means."""
        return zip(self.parsed.tables, self.tables)

    def sink_table(self) -> BoundTable | None:
        """What the table an INSERT writes means (a table named in a hint is not written)."""
        return next((b for r, b in self.table_refs() if r.role == "write" and not r.in_hint), None)

    def lineage(self) -> dict[str, frozenset[LineageInput]]:
        """Sink column -> the base columns it is computed from (INSERTs only)."""
        return {} if not self.sink or self.outputs is None else {o.name: o.inputs for o in self.outputs}


_COLUMN_FACTS = ("outputs", "sink", "sink_pos", "sink_columns", "target_columns", "bindings", "indirect", "changelog",
                 "select_names", "lookups", "windows", "bad_arithmetic")


@dataclass
class AnalysedTask:
    task: Task
    statements: list[AnalysedStatement]
    tables: dict[str, TableUse]
    functions: dict[str, FunctionUse]
    reads: set[str]
    writes: set[str]
    columns_read: dict[str, set[str]]
    diagnostics: list[Diagnostic]
    mode: str = "stream"  # the execution mode the task is resolved for (stream | batch)
    # meta tables whose watermark SET was refused: a window or ORDER BY over their time column would only repeat it
    failed_watermarks: set[str] = field(default_factory=set)

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)

    @property
    def unloaded_tables(self) -> list[str]:
        """The meta tables (`project.name`) it names whose YAML did not load whole, each once."""
        return sorted({t.key for s in self.statements for t in s.tables if t.kind == "unloaded"})

    @property
    def unloaded(self) -> list[str]:
        """The tables and functions it names whose YAML did not load: the task is neither compiled nor planned until they
        load, and says nothing of its own about them (the YAML's error is the one finding)."""
        return ([t.key for s in self.statements for t in s.tables if t.kind == "unloaded"]
                + [f"function {i}" for s in self.statements for i, f in enumerate(s.functions) if f.kind == "unloaded"])

    def queries(self) -> Iterator[tuple[AnalysedStatement, ir.StatementQuery]]:
        """Each statement that has a query structure, with it."""
        for statement in self.statements:
            if statement.parsed.query is not None:
                yield statement, statement.parsed.query

    def bindings(self) -> Iterator[Binding]:
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
