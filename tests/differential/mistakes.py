"""The mistakes of issue 28 as single-edit mutations (see `mutations.py`)."""
from __future__ import annotations

from typing import Iterator

from flinkx_build.frontend import query_ir as ir
from flinkx_build.frontend.statements import ParsedStatement
from tests.differential.mutations import Mutation
from tests.differential.mutations import TaskSites
from tests.differential.mutations import misspell as _misspell
from tests.differential.mutations import name_of as _name
from tests.differential.text_scan import clause_end
from tests.differential.text_scan import find_word
from tests.differential.text_scan import matching_close
from tests.differential.text_scan import reference_end
from tests.differential.text_scan import top_level_commas

BAD_TYPES = ("VARCHAR2(20)", "NUMBER(10, 2)", "DATETIME", "TEXT", "LONG", "NVARCHAR(20)")
_NOT_FUNCTIONS = {"CAST", "TRY_CAST", "COUNT", "CASE", "ROW", "ARRAY", "MAP", "CURRENT_TIMESTAMP", "PROCTIME"}


def group_by_missing(t: TaskSites) -> Iterator[Mutation]:
    for _, q in t.selects():
        if len(q.group_by) < 2:
            continue
        selected = {_name(i.expr) for i in q.items}
        spans = [t.ref_span(g) for g in q.group_by]
        for k, (g, span) in enumerate(zip(q.group_by, spans)):
            if span is None or _name(g) not in selected:
                continue
            if k > 0 and spans[k - 1] is not None:
                start, end = spans[k - 1][1], span[1]
            elif k + 1 < len(spans) and spans[k + 1] is not None:
                start, end = span[0], spans[k + 1][0]
            else:
                continue
            yield t.mutation("group_by_missing", [(start, end, "")], _name(g))


def _group_end(t: TaskSites, q: ir.Query) -> int | None:
    span = t.ref_span(q.group_by[-1]) if q.group_by else None
    return None if span is None or q.having is not None else span[1]


def _aggregated_columns(q: ir.Query) -> list[str]:
    grouped = {_name(g) for g in q.group_by}
    out = []
    for item in q.items:
        if item.expr.kind == ir.CALL and not item.expr.over:
            for node in item.expr.walk():
                if node.kind == ir.COLUMN and _name(node) not in grouped and ".".join(node.parts) not in out:
                    out.append(".".join(node.parts))
    return out


def having_not_grouped(t: TaskSites) -> Iterator[Mutation]:
    for _, q in t.selects():
        end = _group_end(t, q)
        columns = _aggregated_columns(q)
        if end is not None and columns:
            yield t.mutation("having_not_grouped", [(end, end, f" HAVING {columns[0]} IS NOT NULL")], columns[0])


def aggregate_in_where(t: TaskSites) -> Iterator[Mutation]:
    for _, q in t.selects():
        if q.where is not None and q.where.pos is not None and q.sources:
            start = t.at(q.where.pos)
            yield t.mutation("aggregate_in_where", [(start, start, "COUNT(*) > 0 AND ")], "COUNT(*)")


def _calls(t: TaskSites) -> Iterator[ir.Expr]:
    for _, q in t.selects():
        exprs = [i.expr for i in q.items] + ([q.where] if q.where else []) + ([q.having] if q.having else [])
        for expr in exprs:
            for node in expr.walk():
                if node.kind == ir.CALL and node.pos is not None:
                    yield node


def _call_brackets(t: TaskSites, call: ir.Expr) -> tuple[int, int] | None:
    start = t.at(call.pos)
    open_at = t.text.find("(", start)
    if open_at < 0 or t.text[start:open_at].strip().upper().rsplit(":", 1)[-1] != call.text:
        return None
    close = matching_close(t.text, open_at)
    return None if close < 0 else (open_at, close)


def cast_bad_type(t: TaskSites) -> Iterator[Mutation]:
    for n, call in enumerate(c for c in _calls(t) if c.text in ("CAST", "TRY_CAST") and c.type_text):
        brackets = _call_brackets(t, call)
        if brackets is None:
            continue
        as_at = t.text.upper().rfind(" AS ", brackets[0], brackets[1])
        if as_at < 0:
            continue
        yield t.mutation("cast_bad_type", [(as_at + 4, brackets[1], BAD_TYPES[n % len(BAD_TYPES)])], call.type_text)


def string_for_number(t: TaskSites) -> Iterator[Mutation]:
    for call in _calls(t):
        if call.text in _NOT_FUNCTIONS:
            continue
        for arg in call.args:
            if arg.kind == ir.LITERAL and arg.literal == "integer" and arg.pos is not None:
                start = t.at(arg.pos)
                yield t.mutation("string_for_number", [(start, start + len(arg.text), f"'{arg.text}x'")], call.text)
                break


def extra_argument(t: TaskSites) -> Iterator[Mutation]:
    for call in _calls(t):
        if call.text in _NOT_FUNCTIONS or not call.args or call.distinct:
            continue
        brackets = _call_brackets(t, call)
        if brackets is not None:
            yield t.mutation("extra_argument", [(brackets[1], brackets[1], ", 1")], call.text)


def _window_sources(t: TaskSites) -> Iterator[tuple[ParsedStatement, ir.Source]]:
    for stmt, q in t.selects():
        for source in q.sources:
            if source.kind == "window" and source.pos is not None:
                yield stmt, source


def window_arity(t: TaskSites) -> Iterator[Mutation]:
    for _, source in _window_sources(t):
        name_at = find_word(t.text, source.window, t.at(source.pos), len(t.text))
        open_at = t.text.find("(", name_at) if name_at >= 0 else -1
        close = matching_close(t.text, open_at) if open_at >= 0 else -1
        commas = top_level_commas(t.text, open_at, close) if close >= 0 else []
        if commas:
            yield t.mutation("window_arity", [(commas[-1], close, "")], source.window)


def window_time_not_time(t: TaskSites) -> Iterator[Mutation]:
    by_ref = {id(b.ref): b for b in t.analysed.bindings()}
    for _, source in _window_sources(t):
        binding = by_ref.get(id(source.time_column)) if source.time_column is not None else None
        span = t.ref_span(source.time_column) if source.time_column is not None else None
        if binding is None or span is None or binding.source is None or not binding.source.columns:
            continue
        other = next((c.name for c in binding.source.columns if c.type is not None and c.type.numeric), None)
        if other:
            yield t.mutation("window_time_not_time", [(span[0], span[1], other)], other)


def _lookup_spans(t: TaskSites) -> Iterator[tuple[int, int, int]]:
    """(start, end) of the operand of each FOR SYSTEM_TIME AS OF, and the statement's end."""
    for stmt, _ in t.pairs():
        start, end = stmt.offset, stmt.offset + len(stmt.source)
        at = find_word(t.text, "SYSTEM_TIME", start, end)
        while at >= 0:
            of = find_word(t.text, "OF", at, end)
            operand = of + 2
            while operand < end and t.text[operand].isspace():
                operand += 1
            yield operand, reference_end(t.text, operand), end
            at = find_word(t.text, "SYSTEM_TIME", operand, end)


def system_time_operand(t: TaskSites) -> Iterator[Mutation]:
    for start, end, _ in _lookup_spans(t):
        written = t.text[start:end]
        if not written:
            continue
        misspelled = written[:-1] if len(written.rsplit(".", 1)[-1]) > 3 else written + "x"
        yield t.mutation("system_time_missing", [(start, end, misspelled)], written)
        qualifier = written.rsplit(".", 1)[0] + "." if "." in written else ""
        probe = _probe_column(t, qualifier[:-1])
        if probe:
            yield t.mutation("system_time_not_time", [(start, end, qualifier + probe)], probe)


def _probe_column(t: TaskSites, alias: str) -> str:
    """A numeric column of the FROM item `alias` (the probe side of a lookup)."""
    for binding in t.analysed.bindings():
        source = binding.source
        if source is not None and source.alias.lower() == alias.lower() and source.columns:
            for column in source.columns:
                if column.type is not None and column.type.numeric and not column.type.time_attribute:
                    return column.name
    return ""


def lookup_key_type(t: TaskSites) -> Iterator[Mutation]:
    by_ref = {id(b.ref): b for b in t.analysed.bindings()}
    for sm in t.analysed.statements:
        for use in sm.lookups:
            for node in (use.on.walk() if use.on is not None else ()):
                if node.kind != ir.OPERATOR or node.text != "=" or len(node.args) != 2:
                    continue
                for arg in node.args:
                    binding = by_ref.get(id(arg))
                    span = t.ref_span(arg)
                    if binding is None or span is None or binding.source is use.source or binding.column is None:
                        continue
                    mine = binding.column.type
                    columns = binding.source.columns if binding.source is not None and binding.source.columns else []
                    other = next((c.name for c in columns if mine is not None and c.type is not None
                                  and c.type.family != mine.family and c.type.family in ("char", "exact", "date", "boolean")), None)
                    if other:
                        qualifier = ".".join(arg.parts[:-1])
                        yield t.mutation("lookup_key_type", [(span[0], span[1], f"{qualifier}.{other}" if qualifier else other)], other)


def row_field_misspelled(t: TaskSites) -> Iterator[Mutation]:
    for binding in t.analysed.bindings():
        span = t.ref_span(binding.ref)
        if binding.status == "field" and span is not None and binding.fields:
            written = t.text[span[0]:span[1]]
            yield t.mutation("row_field_misspelled", [(span[0], span[1], _misspell(written))], written)


def computed_misspelled(t: TaskSites) -> Iterator[Mutation]:
    for stmt, _ in t.pairs():
        for decl in stmt.query.create_columns:
            if decl.kind != "computed" or decl.expr is None:
                continue
            for node in decl.expr.walk():
                span = t.ref_span(node)
                if span is not None:
                    yield t.mutation("computed_misspelled", [(span[0], span[1], _misspell(t.text[span[0]:span[1]]))], decl.name)
                    break
    # Dataphin's task-level computed column: SET t.computedColumn = name AS expression
    for stmt in t.statements:
        option = stmt.set_option
        if option is None or "computedcolumn" not in stmt.source.lower():
            continue
        start = stmt.offset + stmt.source.upper().find(" AS ") + 4
        end = stmt.offset + len(stmt.source)
        i = start
        while i < end:
            word_end = reference_end(t.text, i)
            word = t.text[i:word_end]
            if word and word[0].isalpha() and word.islower() and t.text[word_end:word_end + 1] != "(":
                yield t.mutation("computed_misspelled", [(i, word_end, _misspell(word))], word)
                break
            i = max(word_end, i + 1)


def hint_argument(t: TaskSites) -> Iterator[Mutation]:
    for stmt, q in t.selects():
        lookups = [s for s in q.sources if s.lookup]
        if lookups and q.pos is not None:
            select_at = find_word(t.text, "SELECT", t.at(q.pos), len(t.text))
            name = lookups[0].alias or lookups[0].name
            if select_at >= 0 and name:
                at = select_at + len("SELECT")
                yield t.mutation("hint_unknown_table", [(at, at, f" /*+ LOOKUP('table'='{_misspell(name)}') */")], name)
                yield t.mutation("benign_lookup_hint", [(at, at, f" /*+ LOOKUP('table'='{name}') */")], name)
    for stmt in t.statements:
        for hint_at in _all(stmt.source, "/*+"):
            close = stmt.source.find("*/", hint_at)
            body = stmt.source[hint_at:close]
            for word in ("primarykey(", "dataphincolumns("):
                at = body.lower().find(word)
                if at >= 0:
                    arg = stmt.offset + hint_at + at + len(word)
                    end = reference_end(t.text, arg)
                    yield t.mutation("hint_unknown_column", [(arg, end, _misspell(t.text[arg:end]))], t.text[arg:end])


def _all(text: str, needle: str) -> Iterator[int]:
    at = text.find(needle)
    while at >= 0:
        yield at
        at = text.find(needle, at + 1)


def union_short(t: TaskSites) -> Iterator[Mutation]:
    for stmt, _ in t.pairs():
        queries = stmt.query.queries
        for q in queries:
            if q.kind != "setop" or len(q.branches) < 2:
                continue
            branch = queries[q.branches[-1]]
            if branch.kind != "select" or len(branch.items) < 2 or branch.items[-1].pos is None:
                continue
            last = t.at(branch.items[-1].pos)
            comma = t.text.rfind(",", 0, last)
            end = clause_end(t.text, last, ("FROM",))
            yield t.mutation("union_short", [(comma, end, "")], branch.items[-1].alias or "last column")


def insert_columns(t: TaskSites) -> Iterator[Mutation]:
    for stmt, sm in t.pairs():
        sq = stmt.query
        if stmt.kind != "insert" or sm is None or not sm.sink_columns or sq.insert_columns or sq.static_partitions:
            continue
        if sm.outputs is None or len(sm.outputs) != len(sm.sink_columns) or len(sm.sink_columns) < 2:
            continue
        into = find_word(t.text, "INTO", stmt.offset, stmt.offset + len(stmt.source))
        name_start = into + 4
        while t.text[name_start].isspace():
            name_start += 1
        at = reference_end(t.text, name_start)
        if t.text[at:].lstrip().startswith("/*+"):
            continue  # a column list goes after the table's hint, which this generator does not place
        names = [n for n, _ in sm.sink_columns]
        yield t.mutation("benign_insert_columns", [(at, at, f" ({', '.join(names)})")], "all columns")
        unknown = names[:1] + [_misspell(names[1])] + names[2:]
        yield t.mutation("insert_column_unknown", [(at, at, f" ({', '.join(unknown)})")], unknown[1])
        duplicated = names[:1] + [names[0]] + names[2:]
        yield t.mutation("insert_column_duplicate", [(at, at, f" ({', '.join(duplicated)})")], names[0])


def match_descending(t: TaskSites) -> Iterator[Mutation]:
    for stmt in t.statements:
        start, end = stmt.offset, stmt.offset + len(stmt.source)
        at = find_word(t.text, "MATCH_RECOGNIZE", start, end)
        order = find_word(t.text, "ORDER", at, end) if at >= 0 else -1
        if order >= 0:
            by = find_word(t.text, "BY", order, end) + 2
            while t.text[by].isspace():
                by += 1
            ref = reference_end(t.text, by)
            yield t.mutation("match_descending", [(ref, ref, " DESC")], t.text[by:ref])


def order_by_not_time(t: TaskSites) -> Iterator[Mutation]:
    for stmt, sm in t.pairs():
        root = stmt.query.queries[stmt.query.root] if stmt.query.root >= 0 else None
        if stmt.kind != "insert" or root is None or root.kind != "select" or root.order_by or root.group_by or sm is None:
            continue
        column = next((i.expr for i in root.items if i.expr.kind == ir.COLUMN and not i.alias), None)
        end = stmt.offset + len(stmt.source.rstrip().rstrip(";").rstrip())
        if column is not None and find_word(t.text, "LIMIT", stmt.offset, end) < 0:
            name = ".".join(column.parts)
            yield t.mutation("order_by_not_time", [(end, end, f" ORDER BY {name}")], name)
