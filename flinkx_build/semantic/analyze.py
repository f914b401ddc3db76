"""Fill the column facts into a resolved task's statements (see `resolve/analysed.py`).

Scopes follow Calcite's rules as Flink uses them: a qualified reference names
a FROM item by alias (or by table name when it has none); an unqualified one
must match exactly one column of the FROM items, else of an enclosing query.
Wherever a source's columns are not known (a table function without column
aliases, a catalog table) the scope stops judging
unqualified names: an unknown is never reported as an error.
"""
from __future__ import annotations

from flinkx_build import flink_types as ft
from flinkx_build.frontend import query_ir as ir
from flinkx_build.resolve.analysed import AGGREGATION
from flinkx_build.resolve.analysed import IDENTITY
from flinkx_build.resolve.analysed import TRANSFORMATION
from flinkx_build.resolve.analysed import AnalysedStatement
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.resolve.analysed import Binding
from flinkx_build.resolve.analysed import ColumnId
from flinkx_build.resolve.analysed import LineageInput
from flinkx_build.resolve.analysed import LookupUse
from flinkx_build.resolve.analysed import OutputColumn
from flinkx_build.resolve.analysed import ScopeSource
from flinkx_build.resolve.analysed import SourceColumn
from flinkx_build.resolve.analysed import TableDef
from flinkx_build.resolve.analysed import WindowUse
from flinkx_build.resolve.analysed import compose
from flinkx_build.semantic import task_tables
from flinkx_build.semantic.changelog import query_mode
from flinkx_build.semantic.functions import AGGREGATES
from flinkx_build.semantic.functions import call_type
from flinkx_build.semantic.task_tables import task_table_key
from flinkx_build.workspace_model import Workspace

WINDOW_COLUMNS = ("window_start", "window_end", "window_time")
COMPARISONS = ("=", "<>", "!=", "<", ">", "<=", ">=")
_WINDOW_BOUND = ft.FlinkType("TIMESTAMP", (3,), False)


def table_columns(definition: TableDef, key: str) -> list[SourceColumn]:
    """The columns a query sees of a meta table's effective definition."""
    out = []
    for col in definition.columns:
        typ = ft.parse_type(col.type) if col.type else _computed_type(col.expression)
        if definition.watermark and col.name.lower() == definition.watermark[0].lower() and typ is not None:
            typ = ft.FlinkType(typ.root, typ.params, typ.nullable, typ.text, "rowtime")
        out.append(SourceColumn(col.name, typ, frozenset({LineageInput(ColumnId(key, col.name), IDENTITY)})))
    return out


def _computed_type(expression: str) -> ft.FlinkType | None:
    if " ".join(expression.upper().split()) == "PROCTIME()":
        return call_type("PROCTIME", [])
    return None


def sink_columns(definition: TableDef) -> list[tuple[str, ft.FlinkType | None]]:
    """The columns an INSERT writes, in order: computed and virtual metadata columns are not written."""
    written = definition.written_columns
    cols = [(c.name, ft.parse_type(c.type)) for c in definition.columns if not c.is_virtual]
    if written:
        # HBase `family.qualifier`: the DDL is cropped to the families named, and a cropped
        # family's ROW type is not the table's, so only whole columns keep their type
        by_name = {n.lower(): (n, t) for n, t in cols}
        out: list[tuple[str, ft.FlinkType | None]] = []
        for entry in written:
            family, _, qualifier = entry.partition(".")
            if any(n.lower() == family.lower() for n, _ in out):
                continue
            name, typ = by_name.get(family.lower(), (family, None))
            out.append((name, None if qualifier else typ))
        return out
    return cols


class _TaskAnalyzer:
    def __init__(self, ws: Workspace, analysed: AnalysedTask) -> None:
        self.ws = ws
        self.analysed = analysed
        self.task_tables: dict[str, list[SourceColumn] | None] = {}  # CREATE TABLE / VIEW in the task
        self.task_modes: dict[str, str | None] = {}  # changelog mode of the task's views and tables
        self.task_sinks: dict[str, list[tuple[str, ft.FlinkType | None]]] = {}  # writable columns of the task's tables

    def run(self) -> None:
        for rs in self.analysed.statements:
            _StatementAnalyzer(self, rs).run()


class _StatementAnalyzer:
    def __init__(self, task: _TaskAnalyzer, rs: AnalysedStatement) -> None:
        self.task = task
        self.rs = rs
        self.stmt = rs.parsed
        self.sq = rs.parsed.query
        rs.clear_column_facts()
        self.outputs: dict[int, list[SourceColumn] | None] = {}
        self.scopes: dict[int, list[ScopeSource]] = {}
        self.aliases: dict[int, set[str]] = {}
        self.functions = {(f.pos.line, f.pos.col): b for f, b in zip(rs.parsed.functions, rs.functions)}

    def run(self) -> None:
        sq = self.sq
        if sq is None:
            return
        if self.stmt.kind == "create_table" and self.stmt.defines:
            self._create_table()
        if sq.altered:
            self._alter_table()
        if sq.root >= 0:
            self.rs.changelog = query_mode(self, sq.root)
            outputs = self.query_output(sq.root)
            if outputs is not None:
                items = self.sq.queries[sq.root].items
                positions = [i.pos for i in items] if len(items) == len(outputs) else [None] * len(outputs)
                self.rs.outputs = [OutputColumn(c.name, c.type, c.inputs, p) for c, p in zip(outputs, positions)]
        if self.stmt.kind == "create_table" and self.stmt.defines and sq.root >= 0 and not sq.create_columns:
            self._ctas_columns()
        if self.stmt.kind == "create_view" and self.stmt.defines:
            outputs = self.outputs.get(sq.root)
            if outputs is not None and sq.view_columns:
                outputs = [SourceColumn(n, c.type, c.inputs) for n, c in zip(sq.view_columns, outputs)]
            self.task.task_tables[self.stmt.defines.lower()] = outputs
            self.task.task_modes[self.stmt.defines.lower()] = self.rs.changelog
        if self.stmt.kind == "insert":
            self._sink()

    def _create_table(self) -> None:
        task_tables.create_table(self.task.task_tables, self.task.task_sinks, self.task.analysed.task.key, self.stmt.defines, self.sq)

    def _alter_table(self) -> None:
        task_tables.alter_table(self.task.task_tables, self.task.task_sinks, self.task.task_modes, self.task.analysed.task.key, self.sq)

    def _ctas_columns(self) -> None:
        task_tables.create_table_as(self.task.task_tables, self.task.task_sinks, self.task.analysed.task.key, self.stmt.defines,
                                    self.outputs.get(self.sq.root))

    def _sink(self) -> None:
        ref_index = next((i for i, t in enumerate(self.stmt.tables) if t.role == "write" and not t.in_hint), -1)
        if ref_index < 0:
            return
        ref, bound = self.stmt.tables[ref_index], self.rs.tables[ref_index]
        self.rs.sink_pos = ref.pos
        if bound.kind == "meta":
            self.rs.sink = bound.key
        elif bound.kind == "local":
            self.rs.sink = task_table_key(self.task.analysed.task.key, bound.key)
        if bound.kind == "meta" and bound.definition is not None:
            self.rs.sink_columns = sink_columns(bound.definition)
        elif bound.kind == "local":
            self.rs.sink_columns = self.task.task_sinks.get(bound.key.lower())
        if self.rs.sink_columns is not None and not (bound.kind == "meta" and bound.definition.written_columns):
            self.rs.target_columns = [n for n, _ in self.rs.sink_columns]
        if self.rs.sink_columns is not None and self.sq.static_partitions:
            static = {c.lower() for c in self.sq.static_partitions}
            self.rs.sink_columns = [(n, t) for n, t in self.rs.sink_columns if n.lower() not in static]
        if self.rs.sink_columns is not None and self.sq.insert_columns:
            by_name = {n.lower(): (n, t) for n, t in self.rs.sink_columns}
            self.rs.sink_columns = [by_name.get(n.lower(), (n, None)) for n in self.sq.insert_columns]
        # INSERT is positional: output i is written to the sink's column i
        names = [n for n, _ in self.rs.sink_columns or ()] or list(self.sq.insert_columns)
        outputs = self.rs.outputs
        if outputs is not None and len(names) == len(outputs):
            self.rs.outputs = [OutputColumn(n, o.type, o.inputs, o.pos) for n, o in zip(names, outputs)]

    # -- queries ---------------------------------------------------------------------------
    def query_output(self, index: int) -> list[SourceColumn] | None:
        if index in self.outputs:
            return self.outputs[index]
        result = self._query_output(index)
        if result is not None:
            self.rs.select_names.update(c.name.lower() for c in result)
        return result

    def _query_output(self, index: int) -> list[SourceColumn] | None:
        self.outputs[index] = None  # a cycle (cannot happen in SQL) stays unknown
        query = self.sq.queries[index]
        if query.kind == "select":
            result = self._select(index, query)
        elif query.kind == "values":
            result = self._values(query)
        else:
            result = self._setop(query)
        self.outputs[index] = result
        return result

    def _setop(self, query: ir.Query) -> list[SourceColumn] | None:
        branches = [self.query_output(b) for b in query.branches]
        if not branches or any(b is None for b in branches):
            return None
        width = len(branches[0])
        if any(len(b) != width for b in branches):
            return None
        out = []
        for i, first in enumerate(branches[0]):
            typ = ft.common_type([b[i].type for b in branches]) if len(branches) > 1 else first.type
            inputs = frozenset().union(*(b[i].inputs for b in branches))
            out.append(SourceColumn(first.name, typ, inputs))
        return out

    def _values(self, query: ir.Query) -> list[SourceColumn] | None:
        if not query.rows:
            return None
        width = len(query.rows[0])
        out = []
        for i in range(width):
            types = [self.type_of(row[i], -1) if i < len(row) else None for row in query.rows]
            out.append(SourceColumn(f"EXPR${i}", ft.common_type(types)))
        return out

    def _select(self, index: int, query: ir.Query) -> list[SourceColumn] | None:
        # the scope grows item by item: a LATERAL subquery sees the FROM items before it
        sources: list[ScopeSource] = []
        self.scopes[index] = sources
        for source in query.sources:
            sources.append(self._scope_source(index, source))
        self.aliases[index] = {item.alias.lower() for item in query.items if item.alias}
        for source, src in zip(query.sources, sources):
            if source.kind == "window" and source.time_column is not None:
                binding = _lookup(source.time_column, [_without_window_columns(src)])
                binding.query = index
                self.rs.bindings.append(binding)
                self.rs.windows.append(WindowUse(source.window, binding, source.pos))
            if source.on is not None:
                self._indirect(source.on, index)
            if source.lookup:
                definition = self.rs.tables[source.table_ref].definition if source.table_ref >= 0 else None
                time = None
                if source.lookup_time is not None:
                    self._indirect(source.lookup_time, index)
                    if source.lookup_time.kind == ir.COLUMN:
                        time = self.binding(source.lookup_time, index)
                self.rs.lookups.append(LookupUse(src, definition, source.on, source.pos, time))
        for expr in (query.where, query.having, *query.group_by):
            if expr is not None:
                self._indirect(expr, index)
        out: list[SourceColumn] = []
        for n, item in enumerate(query.items):
            if item.wildcard:
                expanded = self._expand(sources, item.qualifier)
                if expanded is None:
                    return None
                out.extend(expanded)
                continue
            self._bind_all(item.expr, index)
            name = item.alias or (item.expr.parts[-1] if item.expr.kind == ir.COLUMN and item.expr.parts else f"EXPR${n}")
            out.append(SourceColumn(name, self.type_of(item.expr, index), self.lineage_of(item.expr, index)))
        for expr in query.order_by:
            self._bind_all(expr, index, aliases_ok=True)
        return out

    def _expand(self, sources: list[ScopeSource], qualifier: str) -> list[SourceColumn] | None:
        chosen = [s for s in sources if not qualifier or s.alias.lower() == qualifier.lower()]
        if any(s.columns is None for s in chosen) or not chosen:  # no FROM item read: not zero columns
            return None
        return [c for s in chosen for c in (s.columns or [])]

    def _scope_source(self, index: int, source: ir.Source) -> ScopeSource:
        kind, key, columns = "opaque", "", None
        alias = source.alias
        if source.kind == "match":
            return ScopeSource(alias, "match", self._match_columns(index, source), "", source.pos)
        if source.kind in ("table", "window") and source.table_ref >= 0:
            ref, bound = self.stmt.tables[source.table_ref], self.rs.tables[source.table_ref]
            alias = alias or ref.name
            kind, key, columns = self._table_columns(index, bound, ref.name)
        elif source.kind == "window" and source.query >= 0:
            kind, columns = "query", self.query_output(source.query)
        elif source.kind == "query":
            kind, columns = "query", self.query_output(source.query)
        elif source.kind in ("unnest", "lateral"):
            for arg in source.args:
                self._bind_all(arg, index)
            kind = source.kind
            if source.column_aliases:
                columns = [SourceColumn(n, None) for n in source.column_aliases]
        if source.kind == "window":
            kind = "window"
            if columns is not None:
                time_type, col = None, None
                if source.time_column is not None and source.time_column.parts:
                    col = next((c for c in columns if c.name.lower() == source.time_column.parts[-1].lower()), None)
                    time_type = col.type if col is not None else None
                window_time = time_type.with_nullable(False) if time_type is not None else None
                # the window bounds are computed from the time attribute
                derived = frozenset(LineageInput(i.column, TRANSFORMATION) for i in (col.inputs if col is not None else ()))
                columns = [*columns, SourceColumn("window_start", _WINDOW_BOUND, derived), SourceColumn("window_end", _WINDOW_BOUND, derived),
                           SourceColumn("window_time", window_time, derived)]
        if columns is not None and source.column_aliases and source.kind not in ("unnest", "lateral"):
            columns = [SourceColumn(n, c.type, c.inputs) for n, c in zip(source.column_aliases, columns)]
        return ScopeSource(alias, kind, columns, key, source.pos)

    def _match_columns(self, index: int, source: ir.Source) -> list[SourceColumn] | None:
        """A MATCH_RECOGNIZE's row: its PARTITION BY columns (or, ALL ROWS PER MATCH, every input
        column) then its MEASURES, whose types are not modelled."""
        columns: list[SourceColumn] | None = None
        if source.table_ref >= 0:
            ref, bound = self.stmt.tables[source.table_ref], self.rs.tables[source.table_ref]
            columns = self._table_columns(index, bound, ref.name)[2]
        elif source.query >= 0:
            columns = self.query_output(source.query)
        if columns is None:
            return None
        if not source.match_all_rows:
            by_name = {c.name.lower(): c for c in columns}
            kept = [by_name.get(name.lower()) for name in source.match_partition]
            if any(c is None for c in kept):
                return None
            columns = [c for c in kept if c is not None]
        return [*columns, *(SourceColumn(name, None) for name in source.match_measures)]

    def _table_columns(self, index: int, bound, name: str):
        if bound.kind == "meta" and bound.definition is not None:
            return "meta", bound.key, table_columns(bound.definition, bound.key)
        if bound.kind == "cte":
            cte = self.find_cte(index, name)
            return "cte", "", self.query_output(cte) if cte is not None else None
        if bound.kind == "local":
            return "local", task_table_key(self.task.analysed.task.key, bound.key), self.task.task_tables.get(bound.key.lower())
        return "opaque", "", None

    def find_cte(self, index: int, name: str) -> int | None:
        while index >= 0:
            query = self.sq.queries[index]
            for cte, target in query.ctes.items():
                if cte.lower() == name.lower() and target != index:
                    return target
            index = query.parent
        # a CTE body's own FROM: the WITH that holds it is not its ancestor; search them all
        for query in self.sq.queries:
            for cte, target in query.ctes.items():
                if cte.lower() == name.lower():
                    return target
        return None

    # -- binding ---------------------------------------------------------------------------
    def _indirect(self, expr: ir.Expr, index: int) -> None:
        self._bind_all(expr, index, aliases_ok=True)
        for inp in self.lineage_of(expr, index):
            self.rs.indirect.add(inp.column)

    def _bind_all(self, expr: ir.Expr, index: int, aliases_ok: bool = False) -> None:
        for node in expr.walk():
            if node.kind == ir.COLUMN:
                self.binding(node, index, aliases_ok)
            elif node.kind == ir.SUBQUERY and node.query >= 0:
                self.query_output(node.query)

    def binding(self, ref: ir.Expr, index: int, aliases_ok: bool = False) -> Binding:
        for existing in self.rs.bindings:
            if existing.ref is ref:
                return existing
        binding = self._resolve(ref, index, aliases_ok)
        binding.query = index
        self.rs.bindings.append(binding)
        return binding

    def _resolve(self, ref: ir.Expr, index: int, aliases_ok: bool) -> Binding:
        query_index = index
        first = True
        best: Binding | None = None  # what the reference's own query says
        while query_index >= 0:
            sources = self.scopes.get(query_index)
            if sources is None:
                return best or Binding(ref, "opaque")
            binding = _lookup(ref, sources)
            best = best or binding
            if binding.status not in ("unknown", "unknown_qualifier"):
                if not first and binding.status == "bound":
                    binding.status = "outer"
                return binding
            if first and aliases_ok and len(ref.parts) == 1 and ref.parts[0].lower() in self.aliases.get(index, set()):
                return Binding(ref, "alias")
            parent = self.sq.queries[query_index].parent
            if parent < 0:
                return best
            query_index, first = parent, False
        return best or Binding(ref, "opaque")

    # -- types and lineage -----------------------------------------------------------------
    def type_of(self, expr: ir.Expr, index: int) -> ft.FlinkType | None:
        kind = expr.kind
        if kind == ir.COLUMN:
            binding = self.binding(expr, index) if index >= 0 else None
            if binding is None or binding.column is None:
                return None
            if binding.status == "field":
                return ft.field_type(binding.column.type, binding.fields)
            return binding.column.type if binding.status in ("bound", "outer") else None
        if kind == ir.LITERAL:
            return ft.literal_type(expr.literal, expr.text)
        if kind == ir.CALL:
            args = [self.type_of(a, index) for a in expr.args]
            if expr.project is not None or self._project_function(expr) is not None:
                function = self._project_function(expr)
                return ft.parse_type(function.returns) if function is not None else None
            return call_type(expr.text, args, expr.type_text, self.task.ws.config.flink_version)
        if kind == ir.OPERATOR:
            args = [self.type_of(a, index) for a in expr.args]
            if expr.text in ("+", "-", "*", "/", "%", "neg") and any(a is not None and a.family in NOT_ARITHMETIC for a in args):
                self.rs.bad_arithmetic.append((expr, args))  # Flink has no such operator: checks/operand_types.py
                return None
            if expr.text in ("+", "-", "*", "/", "%") and len(args) == 2:
                return ft.arithmetic(expr.text, args[0], args[1])
            if expr.text in ("and", "or", "not", "pred", *COMPARISONS):
                return ft.BOOLEAN
            if expr.text == "||":
                return ft.STRING
            if expr.text == "neg" and args:
                return args[0]
            return None
        if kind == ir.CASE:
            return ft.common_type([self.type_of(a, index) for a in expr.args])
        if kind == ir.SUBQUERY and expr.query >= 0:
            outputs = self.query_output(expr.query)
            return outputs[0].type.with_nullable(True) if outputs and outputs[0].type is not None else None
        return None

    def _project_function(self, expr: ir.Expr):
        bound = self.functions.get((expr.pos.line, expr.pos.col)) if expr.pos else None
        if bound is None or bound.kind != "project":
            return None
        use = self.task.analysed.functions.get(bound.key)
        return use.function if use is not None else None

    def lineage_of(self, expr: ir.Expr, index: int, how: str = IDENTITY) -> frozenset[LineageInput]:
        if expr.kind == ir.COLUMN:
            binding = self.binding(expr, index, aliases_ok=True)
            if binding.column is None:
                return frozenset()
            return frozenset(LineageInput(i.column, compose(how, i.transformation)) for i in binding.column.inputs)
        if expr.kind == ir.SUBQUERY and expr.query >= 0:
            outputs = self.query_output(expr.query) or []
            return frozenset(LineageInput(i.column, compose(TRANSFORMATION, i.transformation)) for c in outputs for i in c.inputs)
        step = how
        if expr.kind == ir.CALL and (expr.text in AGGREGATES or expr.over):
            step = AGGREGATION
        elif expr.kind != ir.COLUMN:
            step = compose(how, TRANSFORMATION)
        out: frozenset[LineageInput] = frozenset()
        for child in (*expr.args, *expr.conditions):
            out |= self.lineage_of(child, index, step)
        return out


# kinds of type no arithmetic operator takes in Flink (measured on 1.20 and 2.3: tests/checks/test_operand_types.py)
NOT_ARITHMETIC = frozenset({"char", "boolean"})


def _without_window_columns(source: ScopeSource) -> ScopeSource:
    columns = [c for c in source.columns if c.name not in WINDOW_COLUMNS] if source.columns is not None else None
    return ScopeSource(source.alias, source.kind, columns, source.table_key, source.pos)


def _lookup(ref: ir.Expr, sources: list[ScopeSource]) -> Binding:
    parts = ref.parts
    if not parts:
        return Binding(ref, "opaque")
    if len(parts) >= 2:
        # `alias.col[.field...]`, or `proj.tbl.col` for an unaliased table of another project
        for at in (0, 1):
            if at + 1 >= len(parts):
                break
            named = [s for s in sources if s.alias.lower() == parts[at].lower()]
            if not named:
                continue
            source = named[0]
            if source.columns is None:
                return Binding(ref, "opaque", source)
            column = source.column(parts[at + 1])
            if column is None:
                return Binding(ref, "unknown", source, candidates=[c.name for c in source.columns])
            if at + 2 == len(parts):
                return Binding(ref, "bound", source, column)
            return Binding(ref, "field", source, column, fields=parts[at + 2:])
        # `col.field` of a ROW column, or a qualifier no FROM item has
        holder = _lookup(ir.Expr(ir.COLUMN, parts=[parts[0]], pos=ref.pos), sources)
        if holder.status == "bound":
            return Binding(ref, "field", holder.source, holder.column, fields=parts[1:])
        if holder.status == "opaque" or any(s.columns is None for s in sources):
            return Binding(ref, "opaque")
        return Binding(ref, "unknown_qualifier", candidates=[s.alias for s in sources if s.alias])
    name = parts[0]
    matches = [(s, s.column(name)) for s in sources if s.column(name) is not None]
    if len(matches) == 1:
        return Binding(ref, "bound", matches[0][0], matches[0][1])
    if len(matches) > 1:
        return Binding(ref, "ambiguous", candidates=[f"{s.alias or s.table_key}.{c.name}" for s, c in matches])
    if any(s.columns is None for s in sources):
        return Binding(ref, "opaque")
    return Binding(ref, "unknown", candidates=[c.name for s in sources for c in (s.columns or [])])


def analyze(ws: Workspace, analysed: AnalysedTask) -> None:
    """Fill each statement's column facts in, in place: resolve made the objects, this completes them."""
    _TaskAnalyzer(ws, analysed).run()
