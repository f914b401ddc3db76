"""The resolved task: every reference bound to what it means.

Build, lint, graph, explain and validate all read this one model.
"""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field

from flinkx_build.errors import Diagnostic
from flinkx_build.frontend.statements import ParsedStatement
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

    kind: str  # meta | local | cte | external
    key: str = ""  # meta table key, or local name
    definition: TableDef | None = None


@dataclass
class BoundFunction:
    kind: str  # project | local | builtin | external
    key: str = ""  # function key for project functions


@dataclass
class ResolvedStatement:
    parsed: ParsedStatement
    tables: list[BoundTable] = field(default_factory=list)  # parallel to parsed.tables
    functions: list[BoundFunction] = field(default_factory=list)  # parallel to parsed.functions
    in_statement_set: bool = False
    emit: bool = True  # False for Dataphin SET statements (consumed by the build)


@dataclass
class ResolvedTask:
    task: Task
    statements: list[ResolvedStatement]
    tables: dict[str, TableUse]
    functions: dict[str, FunctionUse]
    reads: set[str]
    writes: set[str]
    columns_read: dict[str, set[str]]
    diagnostics: list[Diagnostic]
    mode: str = "stream"  # the execution mode the task is resolved for (stream | batch)

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)
