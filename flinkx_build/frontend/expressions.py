"""sqlfluff expression segments -> `query_ir.Expr` trees.

sqlfluff keeps an expression as a flat run of operands and operators; this
module gives it the precedence SQL has (OR < AND < NOT < predicates < || <
+ - < * / %), so the semantic model can type `a + b * c` correctly.
Anything it does not know becomes an OTHER node that still holds its
operands, so no column reference is ever lost.
"""
from __future__ import annotations

from typing import Callable

from sqlfluff.core.parser import BaseSegment

from flinkx_build.frontend import query_ir as ir
from flinkx_build.frontend.splitter import Chunk

_IDENTIFIERS = ("naked_identifier", "quoted_identifier", "function_name_identifier", "identifier")
_QUERY_TYPES = ("select_statement", "set_expression", "with_compound_statement", "values_clause")
_PREDICATE_WORDS = {"IS", "IN", "BETWEEN", "LIKE", "SIMILAR", "EXISTS", "DISTINCT", "FROM", "ESCAPE"}
_COMPARISON_TYPES = ("comparison_operator",)
_LITERAL_TYPES = {
    "quoted_literal": "string",
    "boolean_literal": "boolean",
    "null_literal": "null",
}
# Subqueries are handed back to the query extractor, which owns the query list.
QueryHook = Callable[[BaseSegment], int]


def identifier_text(seg: BaseSegment) -> str:
    raw = seg.raw
    if raw.startswith("`") and raw.endswith("`"):
        return raw[1:-1].replace("``", "`")
    return raw


def code(seg: BaseSegment) -> list[BaseSegment]:
    return [c for c in seg.segments if c.is_code and not c.is_meta]


class ExpressionReader:
    def __init__(self, chunk: Chunk, subquery: QueryHook) -> None:
        self.chunk = chunk
        self.subquery = subquery

    def pos(self, seg: BaseSegment) -> ir.Pos:
        line, col = seg.pos_marker.source_position()
        return ir.Pos(*self.chunk.position(line, col))

    def read(self, seg: BaseSegment) -> ir.Expr:
        kind = _primary_type(seg)
        if kind == "column_reference":
            return ir.Expr(ir.COLUMN, parts=[identifier_text(s) for s in seg.segments if s.is_type(*_IDENTIFIERS)], pos=self.pos(seg))
        if kind == "numeric_literal":
            return ir.Expr(ir.LITERAL, text=seg.raw, literal=_number_kind(seg.raw), pos=self.pos(seg))
        if kind in _LITERAL_TYPES:
            return ir.Expr(ir.LITERAL, text=seg.raw, literal=_LITERAL_TYPES[kind], pos=self.pos(seg))
        if kind == "interval_expression":
            return ir.Expr(ir.LITERAL, text=seg.raw, literal="interval", pos=self.pos(seg))
        if kind == "function":
            return self._call(seg)
        if kind == "bare_function":  # CURRENT_TIMESTAMP, LOCALTIMESTAMP, ...
            return ir.Expr(ir.CALL, text=seg.raw.upper(), pos=self.pos(seg))
        if kind == "case_expression":
            return self._case(seg)
        if kind == "star":
            return ir.Expr(ir.STAR, pos=self.pos(seg))
        if kind in _QUERY_TYPES:
            return ir.Expr(ir.SUBQUERY, query=self.subquery(seg), pos=self.pos(seg))
        if kind == "bracketed":
            inner = code(seg)
            inner = [c for c in inner if not c.is_type("start_bracket", "end_bracket")]
            if len(inner) == 1:
                return self.read(inner[0])
            return ir.Expr(ir.OTHER, text="row", args=self._operands(inner), pos=self.pos(seg))
        if kind == "expression":
            return self._sequence(code(seg), seg)
        if kind == "date_constructor_literal":  # the keyword before it is merged in by read_run
            return ir.Expr(ir.LITERAL, text=seg.raw, literal="other", pos=self.pos(seg))
        children = code(seg)
        if not children:
            return ir.Expr(ir.OTHER, text=seg.raw.upper() if seg.is_type("keyword") else "", pos=self.pos(seg))
        return ir.Expr(ir.OTHER, args=self._operands(children), pos=self.pos(seg))

    def read_run(self, segs: list[BaseSegment]) -> ir.Expr:
        """Several sibling segments that make one expression (a select item's body)."""
        if len(segs) == 1:
            return self.read(segs[0])
        typed = _typed_literal(segs)
        if typed is not None:
            return ir.Expr(ir.LITERAL, text=" ".join(s.raw for s in segs), literal=typed, pos=self.pos(segs[0]))
        return self._sequence(segs, segs[0])

    def _operands(self, segs: list[BaseSegment]) -> list[ir.Expr]:
        out = []
        for i, seg in enumerate(segs):
            if seg.is_type("date_constructor_literal") and i and _typed_literal(segs[i - 1:i + 1]):
                out.append(ir.Expr(ir.LITERAL, text=seg.raw, literal=_typed_literal(segs[i - 1:i + 1]) or "", pos=self.pos(segs[i - 1])))
            elif not _is_punctuation(seg):
                out.append(self.read(seg))
        return out

    def _call(self, seg: BaseSegment) -> ir.Expr:
        name_seg = next((s for s in seg.segments if s.is_type("function_name")), None)
        project = None
        name = ""
        if name_seg is not None:
            prefix = next((s for s in name_seg.segments if s.is_type("dataphin_function_project")), None)
            if prefix is not None:
                ids = [s for s in prefix.segments if s.is_type(*_IDENTIFIERS)]
                project = identifier_text(ids[0]) if ids else None
            names = [s for s in name_seg.segments if s.is_type(*_IDENTIFIERS)]
            name = ".".join(identifier_text(n) for n in names)
        node = ir.Expr(ir.CALL, text=name.upper() if project is None else name, project=project, pos=self.pos(seg))
        contents = next((s for s in seg.segments if s.is_type("function_contents")), None)
        bracket = next((s for s in contents.segments if s.is_type("bracketed")), None) if contents is not None else None
        if bracket is None:
            bracket = next((s for s in seg.segments if s.is_type("bracketed")), None)
        if bracket is not None:
            inner = [c for c in code(bracket) if not c.is_type("start_bracket", "end_bracket")]
            if any(c.is_type("keyword") and c.raw.upper() == "DISTINCT" for c in inner):
                node.distinct = True
            if node.text in ("CAST", "TRY_CAST"):
                data_type = next((c for c in inner if c.is_type("data_type")), None)
                node.type_text = " ".join(data_type.raw.split()) if data_type is not None else ""
                inner = [c for c in inner if c is not data_type]
            node.args = [self.read(c) for c in _split_args(inner)]
        node.over = any(s.is_type("over_clause") for s in seg.segments) or (contents is not None and any(s.is_type("over_clause") for s in contents.segments))
        over = next((s for s in seg.segments if s.is_type("over_clause")), None)
        if over is not None:
            node.conditions = [self.read(c) for c in code(over)]
        return node

    def _case(self, seg: BaseSegment) -> ir.Expr:
        node = ir.Expr(ir.CASE, pos=self.pos(seg))
        for part in code(seg):
            if part.is_type("when_clause"):
                exprs = [c for c in code(part) if not c.is_type("keyword")]
                if exprs:
                    node.conditions.extend(self.read(c) for c in exprs[:-1])
                    node.args.append(self.read(exprs[-1]))
            elif part.is_type("else_clause"):
                node.args.extend(self.read(c) for c in code(part) if not c.is_type("keyword"))
            elif not part.is_type("keyword"):
                node.conditions.append(self.read(part))  # CASE x WHEN ...
        return node

    def _sequence(self, items: list[BaseSegment], whole: BaseSegment) -> ir.Expr:
        """Precedence over a flat run of operands and operators."""
        if len(items) == 1:
            return self.read(items[0])
        typed = _typed_literal(items)
        if typed is not None:
            return ir.Expr(ir.LITERAL, text=" ".join(s.raw for s in items), literal=typed, pos=self.pos(items[0]))
        pos = self.pos(whole)
        # AND / OR arrive as binary operators, NOT / IS / IN as keywords
        words = [(i, s.raw.upper()) for i, s in enumerate(items) if s.is_type("keyword") or _is_logical(s)]
        for word, op in (("OR", "or"), ("AND", "and")):
            at = [i for i, w in words if w == word and not _between_and(items, i)]
            if at:
                return ir.Expr(ir.OPERATOR, text=op, args=[self._sequence(part, whole) for part in _split_at(items, at) if part], pos=pos)
        if items[0].is_type("keyword") and items[0].raw.upper() == "NOT":
            return ir.Expr(ir.OPERATOR, text="not", args=[self._sequence(items[1:], whole)], pos=pos)
        comparisons = [s for s in items if s.is_type(*_COMPARISON_TYPES)]
        if len(comparisons) == 1 and not any(w in _PREDICATE_WORDS for _, w in words):
            at = items.index(comparisons[0])  # `a = b`: keep the operator, lookup joins need equalities
            left, right = items[:at], items[at + 1:]
            if left and right:
                op = "".join(comparisons[0].raw.split())
                return ir.Expr(ir.OPERATOR, text=op, args=[self._sequence(left, whole), self._sequence(right, whole)], pos=pos)
        if comparisons or any(w in _PREDICATE_WORDS for _, w in words):
            return ir.Expr(ir.OPERATOR, text="pred", args=self._operands([s for s in items if not s.is_type("keyword", *_COMPARISON_TYPES)]), pos=pos)
        ops = [(i, s.raw) for i, s in enumerate(items) if s.is_type("binary_operator") and not _is_logical(s)]
        for group in (("||",), ("+", "-"), ("*", "/", "%")):
            at = [i for i, raw in ops if raw in group]
            if at:
                last = at[-1]  # left-associative: the last operator is the root
                left, right = items[:last], items[last + 1:]
                if left and right:
                    return ir.Expr(ir.OPERATOR, text=items[last].raw, args=[self._sequence(left, whole), self._sequence(right, whole)], pos=pos)
        if items[0].is_type("sign_indicator") and len(items) >= 2:
            inner = self._sequence(items[1:], whole)
            return ir.Expr(ir.OPERATOR, text="neg", args=[inner], pos=pos) if items[0].raw == "-" else inner
        return ir.Expr(ir.OTHER, args=self._operands(items), pos=pos)


_TYPED_LITERALS = {"DATE": "date", "TIME": "time", "TIMESTAMP": "timestamp", "TIMESTAMP_LTZ": "timestamp_ltz"}


def _typed_literal(segs: list[BaseSegment]) -> str | None:
    """`DATE '2020-01-01'` and its kin arrive as a keyword and a literal."""
    if len(segs) == 2 and segs[0].is_type("keyword") and segs[1].is_type("date_constructor_literal", "quoted_literal"):
        return _TYPED_LITERALS.get(segs[0].raw.upper())
    return None


_READ_AS = ("numeric_literal", "quoted_literal", "boolean_literal", "null_literal", "date_constructor_literal")


def _primary_type(seg: BaseSegment) -> str:
    """sqlfluff's `type` of a literal is just "literal": the kind is in its class types."""
    if seg.type == "literal":
        return next((t for t in _READ_AS if seg.is_type(t)), seg.type)
    return seg.type


def _is_logical(seg: BaseSegment) -> bool:
    return seg.is_type("binary_operator") and seg.raw.upper() in ("AND", "OR")


def _is_punctuation(seg: BaseSegment) -> bool:
    return seg.is_type("comma", "start_bracket", "end_bracket", "keyword", "binary_operator", "comparison_operator", "sign_indicator", "dot", "symbol")


def _split_args(inner: list[BaseSegment]) -> list[BaseSegment]:
    """The argument segments of a call (keywords such as DISTINCT or FROM dropped)."""
    return [c for c in inner if not _is_punctuation(c) and not c.is_type("date_part")]


def _between_and(items: list[BaseSegment], index: int) -> bool:
    """Is the AND at `index` the one of `x BETWEEN a AND b`?"""
    for j in range(index - 1, -1, -1):
        seg = items[j]
        if seg.is_type("keyword") or _is_logical(seg):
            word = seg.raw.upper()
            if word == "BETWEEN":
                return True
            if word in ("AND", "OR"):
                return False
    return False


def _split_at(items: list[BaseSegment], at: list[int]) -> list[list[BaseSegment]]:
    out, start = [], 0
    for i in at:
        out.append(items[start:i])
        start = i + 1
    out.append(items[start:])
    return out


def _number_kind(raw: str) -> str:
    text = raw.lower()
    if "e" in text:
        return "approx"
    if "." in text:
        return "exact"
    return "integer"


def column_place(after: list[BaseSegment]) -> str | None:
    """An added column's place from the segments after it: None (the end), "" (FIRST), or the
    column it goes AFTER."""
    word = after[0].raw.upper() if after and after[0].is_type("keyword") else ""
    if word == "FIRST":
        return ""
    if word == "AFTER" and len(after) == 2:
        names = [s for s in after[1].segments if s.is_type(*_IDENTIFIERS)]
        return identifier_text(names[-1]) if names else after[1].raw
    return None


def comma_runs(row: BaseSegment) -> list[list[BaseSegment]]:
    """The code segments of a bracketed VALUES row, grouped between its commas."""
    runs: list[list[BaseSegment]] = [[]]
    for seg in code(row):
        if seg.is_type("comma"):
            runs.append([])
        elif not seg.is_type("start_bracket", "end_bracket"):
            runs[-1].append(seg)
    return [run for run in runs if run]
