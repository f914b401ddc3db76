"""Read the query structure of a parsed statement (`query_ir`) from its sqlfluff tree.

Called by `extract.extract_statement`, so build, lint and every other command
get the same structure from the one parse, and it is cached with the other facts.
"""
from __future__ import annotations

from sqlfluff.core.parser import BaseSegment

from flinkx_build.frontend import query_ir as ir
from flinkx_build.frontend.alter_table import read_schema_changes
from flinkx_build.frontend.expressions import ExpressionReader
from flinkx_build.frontend.expressions import code
from flinkx_build.frontend.expressions import column_place
from flinkx_build.frontend.expressions import comma_runs
from flinkx_build.frontend.expressions import identifier_text
from flinkx_build.frontend.splitter import Chunk
from flinkx_build.frontend.statements import ParsedStatement

_IDENTIFIERS = ("naked_identifier", "quoted_identifier", "identifier")
_QUERY_TYPES = ("select_statement", "set_expression", "with_compound_statement", "values_clause")
WINDOW_TVFS = ("TUMBLE", "HOP", "CUMULATE", "SESSION")
_JOIN_WORDS = {"LEFT": "left", "RIGHT": "right", "FULL": "full", "CROSS": "cross"}


class _Reader:
    def __init__(self, chunk: Chunk, stmt: ParsedStatement) -> None:
        self.out = ir.StatementQuery()
        self.stmt = stmt
        self.table_at = {t.span.start: i for i, t in enumerate(stmt.tables)}
        self.expressions = ExpressionReader(chunk, self._subquery)
        self.parent = -1

    # -- queries ---------------------------------------------------------------------------
    def _subquery(self, seg: BaseSegment) -> int:
        return self.query(seg)

    def query(self, seg: BaseSegment) -> int:
        """Add the query `seg` (and everything below it); its index."""
        index = len(self.out.queries)
        query = ir.Query("select", parent=self.parent, pos=self.expressions.pos(seg))
        self.out.queries.append(query)
        outer, self.parent = self.parent, index
        try:
            if seg.is_type("bracketed"):
                inner = next((c for c in code(seg) if c.is_type(*_QUERY_TYPES, "bracketed")), None)
                self.out.queries.pop()
                self.parent = outer
                return self.query(inner) if inner is not None else self._opaque_query(seg)
            if seg.is_type("with_compound_statement"):
                self._with(seg, query)
            elif seg.is_type("set_expression"):
                query.kind = "setop"
                query.branches = [self.query(c) for c in code(seg) if c.is_type(*_QUERY_TYPES, "bracketed")]
            elif seg.is_type("values_clause"):
                query.kind = "values"
                # a row's values split at its commas: `TIMESTAMP '...'` is two segments but one value
                query.rows = [[self.expressions.read_run(run) for run in comma_runs(row)] for row in code(seg) if row.is_type("bracketed")]
            else:
                self._select(seg, query)
        finally:
            self.parent = outer
        return index

    def _opaque_query(self, seg: BaseSegment) -> int:
        self.out.queries.append(ir.Query("setop", parent=self.parent, pos=self.expressions.pos(seg)))
        return len(self.out.queries) - 1

    def _with(self, seg: BaseSegment, query: ir.Query) -> None:
        query.kind = "setop"  # a WITH is its body; the CTEs hang on it
        for part in code(seg):
            if part.is_type("common_table_expression"):
                names = [s for s in part.segments if s.is_type(*_IDENTIFIERS)]
                body = next((s for s in part.segments if s.is_type("bracketed")), None)
                if names and body is not None:
                    query.ctes[identifier_text(names[0])] = self.query(body)
            elif part.is_type(*_QUERY_TYPES):
                query.branches = [self.query(part)]

    def _select(self, seg: BaseSegment, query: ir.Query) -> None:
        read = self.expressions.read
        for clause in code(seg):
            if clause.is_type("select_clause"):
                for element in code(clause):
                    if element.is_type("select_clause_modifier"):
                        query.distinct = "DISTINCT" in element.raw.upper()
                    elif element.is_type("select_clause_element"):
                        query.items.append(self._item(element))
            elif clause.is_type("from_clause"):
                for part in code(clause):
                    if part.is_type("from_expression"):
                        self._from_expression(part, query, first=not query.sources)
            elif clause.is_type("where_clause"):
                query.where = _one(read, clause)
            elif clause.is_type("groupby_clause"):
                query.group_by = [read(c) for c in code(clause) if not c.is_type("keyword", "comma")]
            elif clause.is_type("having_clause"):
                query.having = _one(read, clause)
            elif clause.is_type("orderby_clause"):
                query.order_by = [read(c) for c in code(clause) if not c.is_type("keyword", "comma")]
            elif clause.is_type("limit_clause", "fetch_clause"):
                query.limit = True

    def _item(self, element: BaseSegment) -> ir.SelectItem:
        pos = self.expressions.pos(element)
        parts = code(element)
        alias_seg = next((c for c in parts if c.is_type("alias_expression")), None)
        alias = _alias_name(alias_seg) if alias_seg is not None else ""
        body = [c for c in parts if c is not alias_seg]
        wildcard = next((c for c in body if c.is_type("wildcard_expression")), None)
        if wildcard is not None:
            ident = next((c for c in wildcard.segments if c.is_type("wildcard_identifier")), wildcard)
            names = [identifier_text(s) for s in ident.segments if s.is_type(*_IDENTIFIERS)]
            return ir.SelectItem(ir.Expr(ir.STAR, pos=pos), pos=pos, wildcard=True, qualifier=names[-1] if names else "")
        return ir.SelectItem(self.expressions.read_run(body), alias, pos)

    # -- FROM ------------------------------------------------------------------------------
    def _from_expression(self, seg: BaseSegment, query: ir.Query, first: bool) -> None:
        for part in code(seg):
            if part.is_type("from_expression_element"):
                source = self._source(part)
                source.join = "" if first else "comma"
                query.sources.append(source)
                first = False
            elif part.is_type("join_clause"):
                query.sources.append(self._join(part))
            elif part.is_type("bracketed"):  # (a JOIN b) as one FROM item, or `FROM (VALUES ...)`
                inner = next(part.recursive_crawl("from_expression"), None)
                if inner is None:  # the item alone in brackets: read as one FROM item
                    inner = part
                self._from_expression(inner, query, first=not query.sources)
            elif part.is_type("match_recognize_clause") and query.sources:
                self._match_recognize(part, query.sources[-1])
            elif part.is_type("alias_expression") and query.sources:  # `MATCH_RECOGNIZE (...) AS T`
                query.sources[-1].alias = _alias_name(part)

    def _match_recognize(self, clause: BaseSegment, source: ir.Source) -> None:
        """MATCH_RECOGNIZE turns its input into a new row: the PARTITION BY columns and the MEASURES
        (ONE ROW PER MATCH, the default), or every input column and the MEASURES (ALL ROWS PER MATCH)."""
        body = next((c for c in code(clause) if c.is_type("bracketed")), None)
        if body is None:
            source.kind = "opaque"
            return
        parts = code(body)
        words = [c.raw.upper() for c in parts if c.is_type("keyword")]
        partition = next((c for c in parts if c.is_type("partitionby_clause")), None)
        source.match_partition = [] if partition is None else [
            identifier_text(list(ref.recursive_crawl(*_IDENTIFIERS))[-1]) for ref in partition.recursive_crawl("column_reference")]
        measures: list[str] = []
        in_measures = False
        for part in parts:
            if part.is_type("keyword"):
                in_measures = part.raw.upper() == "MEASURES"
            elif in_measures and part.is_type("alias_expression"):
                measures.append(_alias_name(part))
        source.match_measures = measures
        source.match_all_rows = "ALL" in words
        order = next((c for c in parts if c.is_type("orderby_clause")), None)
        if order is not None:
            keys = [c for c in code(order) if not c.is_type("keyword", "comma")]
            source.match_order = [self.expressions.read(k) for k in keys]
            following = code(order)[code(order).index(keys[0]) + 1:] if keys else []
            source.match_order_desc = bool(following) and following[0].is_type("keyword") and following[0].raw.upper() == "DESC"
        source.kind = "match"

    def _join(self, seg: BaseSegment) -> ir.Source:
        words = [c.raw.upper() for c in code(seg) if c.is_type("keyword")]
        kind = next((_JOIN_WORDS[w] for w in words if w in _JOIN_WORDS), "inner")
        element = next((c for c in code(seg) if c.is_type("from_expression_element")), None)
        source = self._source(element) if element is not None else ir.Source("opaque")
        source.join = kind
        on = next((c for c in code(seg) if c.is_type("join_on_condition")), None)
        if on is not None:
            source.on = _one(self.expressions.read, on)
        if "USING" in words:
            using = next((c for c in code(seg) if c.is_type("bracketed", "using_clause")), None)
            if using is not None:
                source.using = [identifier_text(s) for s in using.recursive_crawl(*_IDENTIFIERS)]
        return source

    def _source(self, element: BaseSegment) -> ir.Source:
        pos = self.expressions.pos(element)
        parts = code(element)
        alias_seg = next((c for c in parts if c.is_type("alias_expression")), None)
        table_expr = next((c for c in parts if c.is_type("table_expression")), None)
        bracket = next((c for c in parts if c.is_type("bracketed")), None)
        while table_expr is None and bracket is not None:  # `(VALUES ...) AS t (a, b)`
            inner = code(bracket)
            table_expr = next((c for c in inner if c.is_type("table_expression")), None)
            bracket = next((c for c in inner if c.is_type("bracketed")), None)
        source = ir.Source("opaque", pos=pos)
        if table_expr is not None:
            source = self._table_expression(table_expr, pos)
        temporal = next((c for c in parts if c.is_type("temporal_query")), None)
        source.lookup = temporal is not None
        if temporal is not None:
            operand = next((c for c in code(temporal) if not c.is_type("keyword")), None)
            source.lookup_time = self.expressions.read(operand) if operand is not None else None
        if alias_seg is not None:
            source.alias = _alias_name(alias_seg)
            columns = next((c for c in alias_seg.segments if c.is_type("bracketed")), None)
            if columns is not None:
                source.column_aliases = [identifier_text(s) for s in columns.recursive_crawl(*_IDENTIFIERS)]
        return source

    def _table_expression(self, seg: BaseSegment, pos: ir.Pos) -> ir.Source:
        inner = next(iter(code(seg)), None)
        if inner is None:
            return ir.Source("opaque", pos=pos)
        if inner.is_type("table_reference"):
            names = [identifier_text(s) for s in inner.segments if s.is_type(*_IDENTIFIERS)]
            start = inner.pos_marker.templated_slice.start
            return ir.Source("table", table_ref=self.table_at.get(start, -1), name=names[-1] if len(names) == 1 else "", pos=pos)
        if inner.is_type("bracketed") or inner.is_type(*_QUERY_TYPES):
            return ir.Source("query", query=self.query(inner), pos=pos)
        if inner.is_type("function"):
            return self._function_source(inner, pos)
        return ir.Source("opaque", pos=pos)

    def _function_source(self, func: BaseSegment, pos: ir.Pos) -> ir.Source:
        name = _function_name(func)
        if name == "UNNEST":
            call = self.expressions.read(func)
            return ir.Source("unnest", args=call.args, pos=pos)
        if name != "TABLE":
            return ir.Source("opaque", pos=pos)
        call = next((f for f in func.recursive_crawl("function") if f is not func), None)
        if call is None:
            return ir.Source("opaque", pos=pos)
        inner_name = _function_name(call)
        if inner_name not in WINDOW_TVFS:
            read = self.expressions.read(call)
            return ir.Source("lateral", args=read.args, name=read.text, pos=pos)
        return self._window(call, inner_name, pos)

    def _window(self, call: BaseSegment, name: str, pos: ir.Pos) -> ir.Source:
        source = ir.Source("window", window=name, pos=pos, window_pos=self.expressions.pos(call))
        arguments = next((c for c in call.recursive_crawl("bracketed")), None)
        if arguments is not None:
            source.window_args = sum(1 for c in arguments.segments if c.is_type("comma")) + 1
        ref = next(call.recursive_crawl("table_reference"), None)
        if ref is not None:
            source.table_ref = self.table_at.get(ref.pos_marker.templated_slice.start, -1)
            names = [identifier_text(s) for s in ref.segments if s.is_type(*_IDENTIFIERS)]
            source.name = names[-1] if len(names) == 1 else ""
        else:
            sub = next((s for s in call.recursive_crawl(*_QUERY_TYPES) if s is not call), None)
            if sub is not None:
                source.query = self.query(sub)
        descriptor = _after_keyword(call, "DESCRIPTOR")
        if descriptor is not None:
            column = next(descriptor.recursive_crawl("column_reference"), None)
            source.time_column = self.expressions.read(column) if column is not None else None
        partition = _after_keyword(call, "PARTITION")
        if partition is not None and partition.is_type("column_reference"):
            source.partition_by = [self.expressions.read(partition)]
        return source

    # -- DDL ------------------------------------------------------------------------------
    def create_table(self, body: BaseSegment) -> None:
        parts = code(body)
        name_at = next((i for i, c in enumerate(parts) if c.is_type("table_reference")), -1)
        # the column list follows the name; `CREATE TABLE t WITH (...) AS SELECT` has none
        after_name = parts[name_at + 1] if 0 <= name_at < len(parts) - 1 else None
        columns = after_name if after_name is not None and after_name.is_type("bracketed") else None
        words = {c.raw.upper() for c in code(body) if c.is_type("keyword")}
        if columns is None or "LIKE" in words:
            self.out.create_opaque = True
            if columns is None:
                return
        items = [c for c in code(columns) if not c.is_type("start_bracket", "end_bracket")]
        i = 0
        while i < len(items):
            seg = items[i]
            if seg.is_type("column_definition"):
                self.out.create_columns.append(self._column_definition(seg))
            elif seg.is_type("keyword") and seg.raw.upper() == "WATERMARK" and i + 2 < len(items):
                target = items[i + 2]
                names = [identifier_text(s) for s in target.recursive_crawl(*_IDENTIFIERS)] or [identifier_text(target)]
                for decl in self.out.create_columns:
                    if decl.name.lower() == names[-1].lower():
                        decl.rowtime = True
                i += 2
            elif seg.is_type(*_IDENTIFIERS) and i + 1 < len(items) and items[i + 1].is_type("data_type"):
                # `name TYPE METADATA [FROM 'key'] [VIRTUAL]`: the grammar leaves it unwrapped
                end = next((j for j in range(i + 2, len(items)) if items[j].is_type("comma")), len(items))
                words = {c.raw.upper() for c in items[i + 2:end] if c.is_type("keyword")}
                decl = ir.ColumnDecl(identifier_text(seg), " ".join(items[i + 1].raw.split()), pos=self.expressions.pos(seg))
                if "METADATA" in words:
                    decl.kind, decl.virtual = "metadata", "VIRTUAL" in words
                self.out.create_columns.append(decl)
                i = end - 1
            elif seg.is_type(*_IDENTIFIERS) and i + 2 < len(items) and items[i + 1].raw.upper() == "AS":
                expr = self.expressions.read(items[i + 2])
                self.out.create_columns.append(ir.ColumnDecl(identifier_text(seg), kind="computed", expr=expr, virtual=True, pos=self.expressions.pos(seg)))
                i += 2
            i += 1

    def alter_table(self, body: BaseSegment) -> None:
        """`ALTER TABLE t RENAME TO u` and `ALTER TABLE t ADD c TYPE`: what the later statements see."""
        parts = code(body)
        refs = [c for c in parts if c.is_type("table_reference")]
        if not refs:
            return
        self.out.altered = identifier_text([s for s in refs[0].segments if s.is_type(*_IDENTIFIERS)][-1])
        words = [c.raw.upper() for c in parts if c.is_type("keyword")]
        read_schema_changes(parts, self.out)
        if "RENAME" in words and len(refs) == 2:
            self.out.renamed_to = identifier_text([s for s in refs[1].segments if s.is_type(*_IDENTIFIERS)][-1])
        if "ADD" in words:  # `ADD c TYPE [FIRST | AFTER b]` or `ADD (c TYPE, d AS expr [FIRST | AFTER b])`
            for siblings in [parts, *(code(b) for b in parts if b.is_type("bracketed"))]:
                for i, added in enumerate(siblings):
                    if added.is_type("column_definition"):
                        self.out.added_columns.append(self._column_definition(added))
                    elif added.is_type("dataphin_computed_column"):
                        name, *_, expr = code(added)
                        self.out.added_columns.append(ir.ColumnDecl(identifier_text(name), kind="computed", expr=self.expressions.read(expr),
                                                                    virtual=True, pos=self.expressions.pos(name)))
                    else:
                        continue
                    self.out.added_positions.append(column_place(siblings[i + 1 : i + 3]))

    def _column_definition(self, seg: BaseSegment) -> ir.ColumnDecl:
        parts = code(seg)
        name = identifier_text(parts[0]) if parts else ""
        data_type = next((c for c in parts if c.is_type("data_type")), None)
        words = [c.raw.upper() for c in seg.recursive_crawl("keyword")]
        decl = ir.ColumnDecl(name, " ".join(data_type.raw.split()) if data_type is not None else "", pos=self.expressions.pos(seg))
        if "METADATA" in words:
            decl.kind, decl.virtual = "metadata", "VIRTUAL" in words
        if data_type is None:
            decl.type_text = ""
        return decl


def extract_query(body: BaseSegment, chunk: Chunk, stmt: ParsedStatement) -> ir.StatementQuery:
    reader = _Reader(chunk, stmt)
    if stmt.kind == "create_table":
        reader.create_table(body)
        as_query = next((c for c in code(body) if c.is_type(*_QUERY_TYPES)), None)
        if as_query is not None:  # CTAS
            reader.out.root = reader.query(as_query)
        return reader.out
    if stmt.kind == "insert":
        spec = next((c for c in code(body) if c.is_type("insert_partition_spec")), None)
        if spec is not None:
            reader.out.static_partitions = _static_partitions(spec)
        columns = next((c for c in code(body) if c.is_type("bracketed")), None)
        if columns is not None and not any(c.is_type(*_QUERY_TYPES) for c in code(columns)):
            names = list(columns.recursive_crawl(*_IDENTIFIERS))
            reader.out.insert_columns = [identifier_text(s) for s in names]
            reader.out.insert_column_pos = [reader.expressions.pos(s) for s in names]
        query = next((c for c in code(body) if c.is_type(*_QUERY_TYPES) or (c.is_type("bracketed") and c is not columns)), None)
    elif body.is_type("alter_table_statement"):
        reader.alter_table(body)
        return reader.out
    elif stmt.kind == "create_view":
        columns = next((c for c in code(body) if c.is_type("bracketed") and not any(x.is_type(*_QUERY_TYPES) for x in code(c))), None)
        if columns is not None:
            reader.out.view_columns = [identifier_text(s) for s in columns.recursive_crawl(*_IDENTIFIERS)]
        query = next((c for c in code(body) if c.is_type(*_QUERY_TYPES)), None)
    else:
        query = body if body.is_type(*_QUERY_TYPES) else None
    if query is not None:
        reader.out.root = reader.query(query)
    return reader.out


def _static_partitions(spec: BaseSegment) -> list[str]:
    """`PARTITION (dt = '2020', hr)`: the columns given a value (dt), which the query does not yield."""
    bracket = next((c for c in code(spec) if c.is_type("bracketed")), None)
    items = code(bracket) if bracket is not None else []
    return [identifier_text(seg) for seg, nxt in zip(items, items[1:]) if seg.is_type(*_IDENTIFIERS) and nxt.is_type("comparison_operator")]


def _one(read, clause: BaseSegment) -> ir.Expr | None:
    exprs = [c for c in code(clause) if not c.is_type("keyword")]
    return read(exprs[0]) if exprs else None


def _alias_name(alias_seg: BaseSegment) -> str:
    names = [s for s in alias_seg.segments if s.is_type(*_IDENTIFIERS)]
    return identifier_text(names[-1]) if names else ""


def _function_name(func: BaseSegment) -> str:
    name_seg = next((s for s in func.segments if s.is_type("function_name")), None)
    if name_seg is None:
        return ""
    names = [s for s in name_seg.segments if s.is_type("function_name_identifier", *_IDENTIFIERS)]
    return identifier_text(names[-1]).upper() if names else ""


def _after_keyword(call: BaseSegment, word: str) -> BaseSegment | None:
    """The code segment right after the keyword `word` anywhere in the call's arguments."""
    raws = list(call.recursive_crawl("keyword"))
    for kw in raws:
        if kw.raw.upper() != word:
            continue
        found = False
        for seg in call.recursive_crawl_all():
            if seg is kw:
                found = True
                continue
            if found and seg.is_code and not seg.is_meta and not seg.is_type("bracketed", "start_bracket", "keyword"):
                if seg.is_type("column_reference") or not seg.segments:
                    return seg
    return None

