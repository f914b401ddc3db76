"""What the front-end knows about one statement: plain, cacheable facts.

Spans are offsets into the statement's *rendered* text (variables
substituted); positions are 1-based (line, col) in the *task file*.
"""
from __future__ import annotations

from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import field
from typing import Any

from flinkx_build.frontend.hints import HintItem
from flinkx_build.frontend.positions import Pos
from flinkx_build.frontend.positions import Span
from flinkx_build.frontend.query_ir import StatementQuery


@dataclass
class Hint:
    text: str
    span: Span
    pos: Pos
    items: list[HintItem]
    error: str = ""


@dataclass
class TableRef:
    parts: list[str]  # unquoted identifier parts: ["tbl"] or ["proj", "tbl"]
    span: Span
    pos: Pos
    role: str  # read | write | lookup
    alias: str = ""
    hints: list[Hint] = field(default_factory=list)
    legacy_options: dict[str, str] = field(default_factory=dict)  # JOIN t WITH (index = 'f')
    legacy_options_span: Span | None = None
    has_alias_slot: bool = True  # False where SQL allows no alias (INSERT INTO t)
    alias_at: int = -1  # rendered offset where `AS name` may be added (no alias written)
    in_hint: bool = False  # named inside a hint: LATE_DATA_SINK('sink.name'='t')

    @property
    def name(self) -> str:
        return self.parts[-1]

    @property
    def project(self) -> str | None:
        return self.parts[-2] if len(self.parts) >= 2 else None


@dataclass
class FunctionRef:
    name: str
    project: str | None  # the `proj:` prefix
    qualified: bool  # catalog-qualified `db.fn(...)`: left to Flink
    span: Span  # the whole name, prefix included
    pos: Pos


@dataclass
class ColumnRef:
    parts: list[str]
    pos: Pos


@dataclass
class ComputedColumn:
    name: str
    expression: str
    start: int = -1  # rendered offset of the expression in its statement (for function renames)


@dataclass
class SetOption:
    """``SET [proj.]tbl.option = value``; target parts as written, unquoted."""

    parts: list[str]
    quoted: list[bool]  # which parts were in backticks
    value_kind: str  # literal | watermark | computed | expression
    value_text: str  # rendered value as written
    value: str  # the value: unquoted literal, or the expression text
    value_quoted: bool
    computed: list[ComputedColumn]
    pos: Pos
    value_pos: Pos
    value_start: int = -1  # rendered offset in the statement where `value` begins


@dataclass
class SyntaxProblem:
    pos: Pos
    message: str
    hint: str = ""


@dataclass
class ParsedStatement:
    index: int
    kind: str  # insert | select | create_table | create_view | create_function | set_option | flink_set | begin_statement_set | end | other
    source: str  # the raw chunk text
    rendered: str
    pos: Pos  # of the chunk's first character
    offset: int  # of the chunk in the file
    tables: list[TableRef] = field(default_factory=list)
    functions: list[FunctionRef] = field(default_factory=list)
    columns: list[ColumnRef] = field(default_factory=list)
    ctes: list[str] = field(default_factory=list)
    defines: str = ""  # name of the task-local table/view/function
    defines_span: Span | None = None
    set_option: SetOption | None = None
    flink_set: tuple[str, str] | None = None
    select_hints: list[Hint] = field(default_factory=list)
    syntax: SyntaxProblem | None = None
    code_pos: Pos | None = None  # first non-comment character
    # `*` in a select list: None for a bare `*`, else the qualifier of `q.*`
    wildcards: list[str | None] = field(default_factory=list)
    # the statement's code tokens, comments and layout dropped, keywords and function
    # names upper-cased, hints in one canonical form: equal for layout-only changes
    normalized: str = ""
    # the query structure (scopes, select lists, expressions) the semantic model binds
    query: StatementQuery | None = None
    # the keywords that make Flink load code ('USING JAR', 'CREATE CATALOG', ...): frontend/code_loading.py
    loads_code: str = ""
    # an INSERT's `ON CONFLICT DO <action>` (Flink 2.3): the action upper-cased, with its position
    on_conflict: str = ""
    on_conflict_pos: Pos | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "ParsedStatement":
        def hint(h: dict) -> Hint:
            return Hint(h["text"], Span(**h["span"]), Pos(**h["pos"]), [HintItem(i["name"], tuple(i["args"]), tuple(tuple(o) for o in i["options"]), i["quoted_keys"]) for i in h["items"]], h["error"])

        def table(t: dict) -> TableRef:
            return TableRef(
                t["parts"], Span(**t["span"]), Pos(**t["pos"]), t["role"], t["alias"],
                [hint(h) for h in t["hints"]], t["legacy_options"],
                Span(**t["legacy_options_span"]) if t["legacy_options_span"] else None, t["has_alias_slot"],
                t["alias_at"], t.get("in_hint", False),
            )

        so = data["set_option"]
        set_option = None
        if so:
            set_option = SetOption(
                so["parts"], so["quoted"], so["value_kind"], so["value_text"], so["value"], so["value_quoted"],
                [ComputedColumn(**c) for c in so["computed"]], Pos(**so["pos"]), Pos(**so["value_pos"]), so.get("value_start", -1),
            )
        return cls(
            index=data["index"], kind=data["kind"], source=data["source"], rendered=data["rendered"],
            pos=Pos(**data["pos"]), offset=data["offset"],
            tables=[table(t) for t in data["tables"]],
            functions=[FunctionRef(f["name"], f["project"], f["qualified"], Span(**f["span"]), Pos(**f["pos"])) for f in data["functions"]],
            columns=[ColumnRef(c["parts"], Pos(**c["pos"])) for c in data["columns"]],
            ctes=data["ctes"], defines=data["defines"],
            defines_span=Span(**data["defines_span"]) if data["defines_span"] else None,
            set_option=set_option,
            flink_set=tuple(data["flink_set"]) if data["flink_set"] else None,
            select_hints=[hint(h) for h in data["select_hints"]],
            syntax=SyntaxProblem(Pos(**data["syntax"]["pos"]), data["syntax"]["message"], data["syntax"].get("hint", ""))
            if data["syntax"] else None,
            code_pos=Pos(**data["code_pos"]) if data.get("code_pos") else None,
            wildcards=list(data.get("wildcards", [])),
            normalized=data.get("normalized", ""),
            query=StatementQuery.from_json(data["query"]) if data.get("query") else None,
            loads_code=str(data.get("loads_code", "")),
            on_conflict=str(data.get("on_conflict", "")),
            on_conflict_pos=Pos(**data["on_conflict_pos"]) if data.get("on_conflict_pos") else None,
        )
