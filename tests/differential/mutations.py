"""Single-edit mutations of a task, found from its query structure (issue 28, item 5).

Each generator reads one task (its text, the parsed statements' query structure and the
semantic model) and yields every site where its kind of mistake can be made. A mutation never
adds or removes a line, so the mutated line is the line of the edit in both texts. The kinds
are those of the issue; names starting with `benign_` are edits Flink must still accept.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Callable
from typing import Iterator

from flinkx_build.frontend import query_ir as ir
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.semantic.model import StatementModel
from flinkx_build.semantic.model import TaskModel
from tests.differential.text_scan import clause_end
from tests.differential.text_scan import find_word
from tests.differential.text_scan import line_of
from tests.differential.text_scan import matching_close
from tests.differential.text_scan import offset_of
from tests.differential.text_scan import reference_end
from tests.differential.text_scan import top_level_commas

BAD_TYPES = ("VARCHAR2(20)", "NUMBER(10, 2)", "DATETIME", "TEXT", "LONG", "NVARCHAR(20)")
_NOT_FUNCTIONS = {"CAST", "TRY_CAST", "COUNT", "CASE", "ROW", "ARRAY", "MAP", "CURRENT_TIMESTAMP", "PROCTIME"}


@dataclass(frozen=True)
class Mutation:
    kind: str
    task: str  # the task's key
    edits: tuple[tuple[int, int, str], ...]  # (start, end, replacement) offsets in the original text
    line: int  # the line the mistake is on
    note: str

    @property
    def benign(self) -> bool:
        return self.kind.startswith("benign_")

    def apply(self, text: str) -> str:
        for start, end, new in sorted(self.edits, reverse=True):
            text = text[:start] + new + text[end:]
        return text

    def site(self) -> str:
        return f"{self.task}:{self.line}:{self.edits[0][0]}:{self.note}"


@dataclass
class TaskSites:
    key: str
    text: str
    statements: list[ParsedStatement]
    model: TaskModel

    def at(self, pos: ir.Pos) -> int:
        return offset_of(self.text, pos.line, pos.col)

    def mutation(self, kind: str, edits: list[tuple[int, int, str]], note: str) -> Mutation:
        return Mutation(kind, self.key, tuple(edits), line_of(self.text, edits[0][0]), note)

    def pairs(self) -> Iterator[tuple[ParsedStatement, StatementModel | None]]:
        by_index = {sm.index: sm for sm in self.model.statements}
        for stmt in self.statements:
            if stmt.query is not None:
                yield stmt, by_index.get(stmt.index)

    def selects(self) -> Iterator[tuple[ParsedStatement, ir.Query]]:
        for stmt, _ in self.pairs():
            for q in stmt.query.queries:
                if q.kind == "select":
                    yield stmt, q

    def ref_span(self, expr: ir.Expr) -> tuple[int, int] | None:
        """(start, end) of a plain column reference as written, None if the text does not match."""
        if expr.kind != ir.COLUMN or expr.pos is None:
            return None
        start = self.at(expr.pos)
        end = reference_end(self.text, start)
        written = self.text[start:end].replace("`", "").lower()
        return (start, end) if written == ".".join(expr.parts).lower() else None


def _name(expr: ir.Expr) -> str:
    return expr.parts[-1].lower() if expr.kind == ir.COLUMN and expr.parts else ""


def _misspell(name: str) -> str:
    return name[:-1] if len(name) > 3 else name + "x"


# -- mistakes --------------------------------------------------------------------------------

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
    by_ref = {id(b.ref): b for b in t.model.bindings()}
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
    for binding in t.model.bindings():
        source = binding.source
        if source is not None and source.alias.lower() == alias.lower() and source.columns:
            for column in source.columns:
                if column.type is not None and column.type.numeric and not column.type.time_attribute:
                    return column.name
    return ""


def lookup_key_type(t: TaskSites) -> Iterator[Mutation]:
    by_ref = {id(b.ref): b for b in t.model.bindings()}
    for sm in t.model.statements:
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
    for binding in t.model.bindings():
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


# -- benign edits ----------------------------------------------------------------------------

def benign_alias(t: TaskSites) -> Iterator[Mutation]:
    for stmt, _ in t.pairs():
        root = stmt.query.queries[stmt.query.root] if stmt.query.root >= 0 else None
        if stmt.kind != "insert" or root is None or root.kind != "select":
            continue
        for item in root.items:
            if item.alias and stmt.source.lower().count(item.alias.lower()) == 1:
                at = find_word(t.text, item.alias, t.at(item.expr.pos) if item.expr.pos else stmt.offset, stmt.offset + len(stmt.source))
                if at >= 0:
                    yield t.mutation("benign_alias", [(at, at + len(item.alias), item.alias + "_renamed")], item.alias)
                    break


def benign_filter(t: TaskSites) -> Iterator[Mutation]:
    for _, q in t.selects():
        if q.where is None or q.where.pos is None:
            continue
        column = next((n for n in q.where.walk() if n.kind == ir.COLUMN), None)
        if column is not None:
            start = t.at(q.where.pos)
            yield t.mutation("benign_filter", [(start, start, f"{'.'.join(column.parts)} IS NOT NULL AND ")], "filter")


def benign_reorder(t: TaskSites) -> Iterator[Mutation]:
    for _, q in t.selects():
        where = q.where
        if where is None or where.kind != ir.OPERATOR or where.text != "and" or len(where.args) != 2:
            continue
        left, right = where.args
        if left.pos is None or right.pos is None or left.pos.line != right.pos.line:
            continue
        a, b = t.at(left.pos), t.at(right.pos)
        and_at = find_word(t.text, "AND", a, b)
        b_end = clause_end(t.text, b)
        if and_at < 0 or "\n" in t.text[a:b_end]:
            continue
        first, second = t.text[a:and_at].rstrip(), t.text[b:b_end]
        yield t.mutation("benign_reorder", [(a, b_end, f"{second} AND {first}")], "conjuncts")


def benign_layout(t: TaskSites) -> Iterator[Mutation]:
    for _, q in t.selects():
        if q.items and q.items[0].pos is not None:
            at = t.at(q.items[0].pos)
            yield t.mutation("benign_layout", [(at, at, "/* a comment */   ")], "comment")


GENERATORS: dict[str, Callable[[TaskSites], Iterator[Mutation]]] = {
    "group_by_missing": group_by_missing, "having_not_grouped": having_not_grouped,
    "aggregate_in_where": aggregate_in_where, "cast_bad_type": cast_bad_type,
    "string_for_number": string_for_number, "extra_argument": extra_argument,
    "window_arity": window_arity, "window_time_not_time": window_time_not_time,
    "system_time": system_time_operand, "lookup_key_type": lookup_key_type,
    "row_field_misspelled": row_field_misspelled, "computed_misspelled": computed_misspelled,
    "hint_argument": hint_argument, "union_short": union_short, "insert_columns": insert_columns,
    "match_descending": match_descending, "order_by_not_time": order_by_not_time,
    "benign_alias": benign_alias, "benign_filter": benign_filter, "benign_reorder": benign_reorder,
    "benign_layout": benign_layout,
}


def mutations_of(t: TaskSites) -> list[Mutation]:
    out: list[Mutation] = []
    for generator in GENERATORS.values():
        try:
            out.extend(generator(t))
        except (ValueError, IndexError):  # a site the text scanners could not read: no mutation there
            continue
    seen: set[tuple] = set()
    return [m for m in out if not (m.edits in seen or seen.add(m.edits))]


def held_out(mutation: Mutation, seed: int) -> bool:
    """The split: a site is tuned or held-out by a hash of the seed and the site, not by kind."""
    digest = hashlib.sha256(f"{seed}|{mutation.kind}|{mutation.site()}".encode()).digest()
    return digest[0] % 2 == 1

