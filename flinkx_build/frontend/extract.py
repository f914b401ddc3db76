"""Read a parsed `dataphin` tree into the facts of `statements`."""
from __future__ import annotations

import re

from sqlfluff.core.parser import BaseSegment

from flinkx_build.frontend.code_loading import code_words
from flinkx_build.frontend.code_loading import loads_code
from flinkx_build.frontend.hints import parse_hint
from flinkx_build.frontend.hints import unquote
from flinkx_build.frontend.query import extract_query
from flinkx_build.frontend.splitter import Chunk
from flinkx_build.frontend.statements import ColumnRef
from flinkx_build.frontend.statements import ComputedColumn
from flinkx_build.frontend.statements import FunctionRef
from flinkx_build.frontend.statements import Hint
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.frontend.statements import Pos
from flinkx_build.frontend.statements import SetOption
from flinkx_build.frontend.statements import Span
from flinkx_build.frontend.statements import TableRef

_KINDS = {
    "insert_statement": "insert",
    "select_statement": "select",
    "with_compound_statement": "select",
    "set_expression": "select",
    "create_table_statement": "create_table",
    "create_view_statement": "create_view",
    "create_function_statement": "create_function",
    "dataphin_set_statement": "set_option",
    "set_statement": "flink_set",
}
# Parsed as function calls by sqlfluff, but SQL syntax in Flink: FROM TABLE(TUMBLE(...)).
_SYNTAX_CALLS = {"TABLE"}
# Dataphin's watermark helper, turned into Flink syntax by the build (withOffset -> INTERVAL).
DATAPHIN_WATERMARK_FUNCTIONS = {"withoffset"}
_IDENTIFIERS = ("naked_identifier", "quoted_identifier", "function_name_identifier", "dataphin_set_part", "identifier")


def identifier_text(seg: BaseSegment) -> str:
    raw = seg.raw
    if raw.startswith("`") and raw.endswith("`"):
        return raw[1:-1].replace("``", "`")
    return raw


def span_of(seg: BaseSegment) -> Span:
    s = seg.pos_marker.templated_slice
    return Span(s.start, s.stop)


def pos_of(seg: BaseSegment, chunk: Chunk) -> Pos:
    line, col = seg.pos_marker.source_position()
    return Pos(*chunk.position(line, col))


def _parts(seg: BaseSegment) -> list[str]:
    return [identifier_text(s) for s in seg.segments if s.is_type(*_IDENTIFIERS)]


def extract_statement(tree: BaseSegment, chunk: Chunk, stmt: ParsedStatement) -> None:
    statement = next(tree.recursive_crawl("statement"), None)
    body = next((s for s in statement.segments if s.is_code), None) if statement else None
    if body is None:
        return
    stmt.kind = _KINDS.get(body.type, "other")
    stmt.normalized = normalized(tree)
    stmt.loads_code = loads_code(code_words(tree))
    clause = next(body.recursive_crawl("on_conflict_clause"), None)
    if clause is not None:
        stmt.on_conflict = " ".join(s.raw.upper() for s in clause.segments if s.is_code)
        stmt.on_conflict_pos = pos_of(clause, chunk)
    if stmt.kind == "set_option":
        stmt.set_option = _set_option(body, chunk)
        # calls and columns inside computed columns and the unquoted (3.6) watermark
        for expression in body.recursive_crawl("dataphin_computed_column", "dataphin_watermark"):
            _functions(expression, chunk, stmt)
            stmt.columns.extend(columns_in(expression, chunk))
        stmt.functions = [f for f in stmt.functions if f.project or f.name.lower() not in DATAPHIN_WATERMARK_FUNCTIONS]
        return
    if stmt.kind == "flink_set":
        literals = [unquote(s.raw) for s in body.recursive_crawl("quoted_literal")]
        stmt.flink_set = (literals[0], literals[1]) if len(literals) == 2 else None
        return
    defined = None
    if stmt.kind in ("create_table", "create_view"):
        defined = next((s for s in body.segments if s.is_type("table_reference")), None)
    elif stmt.kind == "create_function":
        defined = next((s for s in body.segments if s.is_type("function_name")), None)
    elif body.is_type("alter_table_statement"):  # `ALTER TABLE t RENAME TO u` defines u
        refs = [s for s in body.segments if s.is_type("table_reference")]
        words = [s.raw.upper() for s in body.segments if s.is_type("keyword")]
        defined = refs[1] if len(refs) == 2 and "RENAME" in words else None
    if defined is not None:
        stmt.defines = identifier_text([s for s in defined.segments if s.is_type(*_IDENTIFIERS)][-1])
        stmt.defines_span = span_of(defined)
    stmt.ctes = [identifier_text(s) for cte in body.recursive_crawl("common_table_expression") for s in cte.segments if s.is_type(*_IDENTIFIERS)][:]
    _tables(tree, body, defined, chunk, stmt)
    if stmt.kind != "create_function":
        _functions(body, chunk, stmt)
    stmt.columns.extend(columns_in(body, chunk))
    for card in body.recursive_crawl("wildcard_identifier"):
        qualifier = _parts(card)
        stmt.wildcards.append(qualifier[-1] if qualifier else None)
    _hints(tree, chunk, stmt)
    stmt.query = extract_query(body, chunk, stmt)


_UPPER_CASED = ("keyword", "function_name_identifier", "data_type_identifier", "date_part")


def normalized(tree: BaseSegment) -> str:
    """The code tokens of a statement, for semantic comparison (impact).

    Flink reads keywords, function and type names without regard to case, and
    a backtick-quoted plain name means the bare name; identifiers and literals
    keep their case. Comments and layout are dropped; hints are kept, in the
    form the hint parser reads them.
    """
    from flinkx_build.flink_data import quote_for_every_version

    out = []
    for raw in tree.raw_segments:
        if not raw.raw.strip():
            continue
        if raw.is_type("block_comment") and raw.raw.startswith("/*+"):
            out.append(_canonical_hint(raw.raw))
        elif raw.is_comment:
            continue
        elif raw.is_type(*_UPPER_CASED):
            out.append(raw.raw.upper())
        elif raw.is_type("quoted_identifier") and raw.raw.startswith("`"):
            name = identifier_text(raw)
            # the parse does not know the target: a word some version rejects keeps its quotes
            out.append(name if quote_for_every_version(name) == name else raw.raw)
        else:
            out.append(raw.raw)
    return " ".join(out)


def _canonical_hint(text: str) -> str:
    parsed = parse_hint(text)
    if parsed.error:
        return " ".join(text.split())
    items = [
        f"{item.name.upper()}({', '.join([*item.args, *(f'{k}={v}' for k, v in item.options)])})"
        for item in parsed.items
    ]
    return "/*+ " + ", ".join(items) + " */"


def _tables(tree: BaseSegment, body: BaseSegment, defined: BaseSegment | None, chunk: Chunk, stmt: ParsedStatement) -> None:
    if_exists = body.is_type("drop_table_statement", "drop_view_statement", "alter_table_statement") and any(
        s.is_type("keyword") and s.raw.upper() == "EXISTS" for s in [c for c in body.segments if c.is_code][:5])
    if if_exists:
        return  # `DROP|ALTER ... IF EXISTS t`: Flink accepts a t that does not exist, so no name is looked up
    for path_step in _crawl_with_parents(body, "table_reference"):
        ref, parents = path_step
        if ref is defined:
            continue
        parent = parents[-1] if parents else body
        role = "read"
        alias = ""
        has_alias_slot = True
        legacy: dict[str, str] = {}
        legacy_span = None
        alias_at = -1
        if parent.is_type("insert_statement"):
            role, has_alias_slot = "write", False
        element = next((p for p in reversed(parents) if p.is_type("from_expression_element")), None)
        if element is not None:
            temporal = next((s for s in element.segments if s.is_type("temporal_query")), None)
            if temporal is not None:
                role = "lookup"
                options = next((s for s in temporal.segments if s.is_type("dataphin_legacy_join_options")), None)
                if options is not None:
                    legacy, legacy_span = _legacy_options(options), span_of(options)
            alias_seg = next((s for s in element.segments if s.is_type("alias_expression")), None)
            if alias_seg is not None:
                names = [s for s in alias_seg.segments if s.is_type(*_IDENTIFIERS)]
                alias = identifier_text(names[-1]) if names else ""
            else:
                alias_at = span_of(element).end
        elif not parent.is_type("table_expression"):
            has_alias_slot = False
        stmt.tables.append(TableRef(_parts(ref), span_of(ref), pos_of(ref, chunk), role, alias, [], legacy, legacy_span, has_alias_slot, alias_at))


def _crawl_with_parents(seg: BaseSegment, seg_type: str, parents: tuple = ()):
    for child in seg.segments:
        if child.is_type(seg_type):
            yield child, [*parents, seg]
        elif child.segments:
            yield from _crawl_with_parents(child, seg_type, (*parents, seg))


def _legacy_options(seg: BaseSegment) -> dict[str, str]:
    out: dict[str, str] = {}
    key = None
    for raw in seg.recursive_crawl("dataphin_join_option", "quoted_literal", "numeric_literal", "boolean_literal"):
        if raw.is_type("dataphin_join_option"):
            key = raw.raw
        elif key is not None:
            out[key] = unquote(raw.raw)
            key = None
    return out


def _functions(body: BaseSegment, chunk: Chunk, stmt: ParsedStatement) -> None:
    stmt.functions.extend(functions_in(body, chunk))


def columns_in(body: BaseSegment, chunk: Chunk) -> list[ColumnRef]:
    return [ColumnRef(_parts(ref), pos_of(ref, chunk)) for ref in body.recursive_crawl("column_reference")]


def functions_in(body: BaseSegment, chunk: Chunk) -> list[FunctionRef]:
    """Every function call below `body` (SQL syntax such as TABLE(...) excluded)."""
    found = []
    for func in body.recursive_crawl("function"):
        name_seg = next((s for s in func.segments if s.is_type("function_name")), None)
        if name_seg is None:
            continue
        project = None
        prefix = next((s for s in name_seg.segments if s.is_type("dataphin_function_project")), None)
        if prefix is not None:
            project = identifier_text([s for s in prefix.segments if s.is_type(*_IDENTIFIERS)][0])
        names = [s for s in name_seg.segments if s.is_type(*_IDENTIFIERS)]
        if not names or (project is None and len(names) == 1 and names[0].raw.upper() in _SYNTAX_CALLS):
            continue
        found.append(FunctionRef(identifier_text(names[-1]), project, len(names) > 1, span_of(name_seg), pos_of(name_seg, chunk)))
    return found


def _set_option(body: BaseSegment, chunk: Chunk) -> SetOption:
    target = next(s for s in body.segments if s.is_type("dataphin_set_target"))
    parts = [s for s in target.segments if s.is_type("quoted_identifier", "dataphin_set_part", "naked_identifier")]
    code = [s for s in body.segments if s.is_code]
    value_seg = code[-1]
    computed: list[ComputedColumn] = []
    kind = "expression"
    value = value_seg.raw
    quoted = False
    value_start = span_of(value_seg).start
    if value_seg.is_type("dataphin_watermark"):
        kind = "watermark"
    elif value_seg.is_type("dataphin_computed_column"):
        kind = "computed"
        computed = [_computed(value_seg)]
    elif value_seg.is_type("bracketed"):
        kind = "computed"
        computed = [_computed(s) for s in value_seg.recursive_crawl("dataphin_computed_column")]
    else:
        literal = value_seg
        while literal.segments and len([s for s in literal.segments if s.is_code]) == 1:
            literal = next(s for s in literal.segments if s.is_code)
        if literal.is_type("quoted_literal"):
            kind, value, quoted = "literal", unquote(literal.raw), True
            value_start = span_of(literal).start + 1
        elif literal.is_type("numeric_literal", "boolean_literal", "naked_identifier", "null_literal") or literal.is_type("keyword"):
            kind, value = "literal", literal.raw
    return SetOption(
        [identifier_text(p) for p in parts], [p.raw.startswith("`") for p in parts], kind, value_seg.raw, value, quoted,
        computed, pos_of(body, chunk), pos_of(value_seg, chunk), value_start,
    )


def _computed(seg: BaseSegment) -> ComputedColumn:
    code = [s for s in seg.segments if s.is_code]
    expression = code[2]
    text = "".join(s.raw for s in seg.segments[seg.segments.index(expression):]).strip()
    return ComputedColumn(identifier_text(code[0]), text, span_of(expression).start)


def _hints(tree: BaseSegment, chunk: Chunk, stmt: ParsedStatement) -> None:
    """Attach each ``/*+ ... */`` to the table reference or SELECT right before it."""
    ends = {t.span.end: t for t in stmt.tables}
    previous_code: BaseSegment | None = None
    for raw in tree.raw_segments:
        if raw.is_type("block_comment") and raw.raw.startswith("/*+"):
            parsed = parse_hint(raw.raw)
            hint = Hint(raw.raw, span_of(raw), pos_of(raw, chunk), parsed.items, parsed.error.message if parsed.error else "")
            owner = ends.get(previous_code.pos_marker.templated_slice.stop) if previous_code is not None else None
            if owner is not None:
                owner.hints.append(hint)
            else:
                stmt.select_hints.append(hint)
                _late_data_sink(raw, hint, chunk, stmt)
        elif raw.is_code:
            previous_code = raw


_LATE_SINK_NAME = re.compile(r"'sink\.name'\s*=\s*'([^']+)'", re.IGNORECASE)


def _late_data_sink(raw: BaseSegment, hint: Hint, chunk: Chunk, stmt: ParsedStatement) -> None:
    """MRS's LATE_DATA_SINK('sink.name'='t', ...) names a table the query writes (seed 003)."""
    if not any(item.lower == "late_data_sink" for item in hint.items):
        return
    m = _LATE_SINK_NAME.search(raw.raw)
    if m is None:
        return
    start = hint.span.start + m.start(1)
    line, col = raw.pos_marker.source_position()
    # the name is inside the comment: count columns on the comment's first line only
    pos = Pos(*chunk.position(line, col + m.start(1))) if "\n" not in raw.raw[: m.start(1)] else hint.pos
    stmt.tables.append(TableRef(m.group(1).split("."), Span(start, start + len(m.group(1))), pos, "write", has_alias_slot=False, in_hint=True))
