"""Flink 1.20 query and job-statement syntax that sqlfluff's `flink` grammar lacks.

Found by going through Flink 1.20's parser (``parserImpls.ftl``, Calcite 1.32's
``Parser.jj``) and the SQL pages of its documentation, each form checked with
Flink's own parser (tests/frontend/test_flink_grammar.py keeps them in step).
Before, every construct here gave an `unparsable` segment, i.e. a false FX120 on
SQL that Flink runs. A sweep of every SQL example in Flink 1.20's documentation (1,422
statements, each given to both parsers) found the last ones inside job statements: ``NOT NULL METADATA``,
a quoted constraint name, ``WITH ()``, ``BETWEEN SYMMETRIC``, the period predicates and
``SUBSTRING(s FROM i FOR n)`` with a column for ``n``. `dialect._build()` calls `extend()` once, after its own
Dataphin and Flink additions.

Shapes are kept as close to `flink`'s as possible so `extract` reads them the
same way: a window TVF's ``TABLE t`` stays a `table_reference`, a named
argument's value stays an `expression` inside the function's brackets.
"""
from __future__ import annotations

from sqlfluff.core.dialects import Dialect
from sqlfluff.core.parser import AnyNumberOf
from sqlfluff.core.parser import BaseSegment
from sqlfluff.core.parser import Bracketed
from sqlfluff.core.parser import CodeSegment
from sqlfluff.core.parser import Delimited
from sqlfluff.core.parser import IdentifierSegment
from sqlfluff.core.parser import LiteralKeywordSegment
from sqlfluff.core.parser import MultiStringParser
from sqlfluff.core.parser import OneOf
from sqlfluff.core.parser import Ref
from sqlfluff.core.parser import RegexLexer
from sqlfluff.core.parser import Sequence
from sqlfluff.core.parser import StringParser

# sqlfluff reserves these, Flink 1.20 takes them as plain identifiers anywhere
# (column, alias, table name, `t.desc`): measured with Flink's parser.
FLINK_UNRESERVED = ("DESC", "IF", "IGNORE", "RESPECT")

# Reserved words Flink 1.20 reads as a plain column where an expression stands:
# `SELECT user, SUM(amount) FROM Orders GROUP BY user` is the column `user` (Flink has
# no USER function; measured with its planner). Elsewhere (`t.user`, `AS user`, a
# column definition) Flink rejects them, and so does the dialect (then FX01).
FLINK_BARE_COLUMN_WORDS = ("USER", "SESSION_USER")

# Words the grammar below names: sqlfluff needs each in one of the dialect's keyword sets.
_KEYWORDS = (
    "RETURNING", "EMPTY", "ERROR", "WRAPPER", "CONDITIONAL", "UNCONDITIONAL", "OBJECT", "SCALAR",
    "JSON", "ORDINALITY", "WITHIN", "SUBSET", "PER", "ENFORCED", "EXECUTE", "SETS", "GROUPING",
    "CUBE", "ROLLUP", "ZONE", "VALUE", "ARRAY", "MATCH", "ONE", "ALL", "LOCAL",
    "PLACING", "IMMEDIATELY", "PRECEDES", "SUCCEEDS", "CONFLICT", "DEDUPLICATE", "NOTHING",
)
# Operator words of Calcite's grammar below that Flink 1.20 rejects as bare names (flink_reserved_words.json:
# "error"); reserved here too, or `(a, b) OVERLAPS (c, d)` in a select list reads OVERLAPS as an alias.
_RESERVED_OPERATORS = ("SYMMETRIC", "ASYMMETRIC", "OVERLAPS", "CONTAINS", "EQUALS")
_PERIOD_PREDICATES = ("OVERLAPS", "CONTAINS", "EQUALS", "PRECEDES", "SUCCEEDS")


class RightArrowSegment(BaseSegment):
    """``=>``: the lexer gives ``=`` and ``>``, written without a gap."""

    type = "right_arrow"
    match_grammar = Sequence(Ref("RawEqualsSegment"), Ref("RawGreaterThanSegment"), allow_gaps=False)


class NamedArgumentSegment(BaseSegment):
    """``SIZE => INTERVAL '10' MINUTES``: a named argument (window TVFs, any call)."""

    type = "named_argument"
    match_grammar = Sequence(
        Ref("SingleIdentifierGrammar"),
        Ref("RightArrowSegment"),
        OneOf(Ref("TableArgSegment"), Ref("DescriptorSegment"), Ref("ExpressionSegment")),
    )


class InsertPartitionSpecSegment(BaseSegment):
    """``PARTITION (dt = '2024-01-01', region)``: static (and dynamic) partition keys of an INSERT."""

    type = "insert_partition_spec"
    match_grammar = Sequence(
        "PARTITION",
        Bracketed(
            Delimited(
                Sequence(
                    Ref("SingleIdentifierGrammar"),
                    Sequence(Ref("EqualsSegment"), Ref("LiteralGrammar"), optional=True),
                )
            )
        ),
    )


class OnConflictClauseSegment(BaseSegment):
    """Flink 2.3's ``ON CONFLICT DO {DEDUPLICATE | NOTHING | ERROR}`` after an INSERT's query
    (FLIP-558). Parsed for every version: whether the target has it is checks/on_conflict.py's (FX127)."""

    type = "on_conflict_clause"
    match_grammar = Sequence("ON", "CONFLICT", "DO", OneOf("DEDUPLICATE", "NOTHING", "ERROR"))


class InsertStatementSegment(BaseSegment):
    """Flink's ``INSERT {INTO | OVERWRITE} t [PARTITION (...)] [(columns)] query [ON CONFLICT ...]``.

    ansi's ``INSERT OVERWRITE INTO`` is not Flink; the sink stays the statement's
    first `table_reference`, as before.
    """

    type = "insert_statement"
    match_grammar = Sequence(
        "INSERT",
        OneOf("INTO", "OVERWRITE"),
        Ref("TableReferenceSegment"),
        Ref("InsertPartitionSpecSegment", optional=True),
        OneOf(
            Ref("SelectableGrammar"),
            Sequence(Ref("BracketedColumnReferenceListGrammar"), Ref("SelectableGrammar")),
        ),
        Ref("OnConflictClauseSegment", optional=True),
    )


class PartitionedTableArgSegment(BaseSegment):
    """``TABLE t PARTITION BY a`` / ``PARTITION BY (a, b)``: SESSION's partitioned table."""

    type = "table_arg_partition"
    match_grammar = Sequence(
        "PARTITION",
        "BY",
        OneOf(
            Bracketed(Delimited(Ref("ColumnReferenceSegment"))),
            Ref("ColumnReferenceSegment"),
        ),
    )


def _json_call_clauses() -> OneOf:
    """The clauses Calcite allows inside JSON_VALUE / JSON_QUERY / JSON_EXISTS calls."""
    on_what = OneOf("EMPTY", "ERROR")
    return OneOf(
        Sequence("RETURNING", Ref("DatatypeSegment")),
        Sequence(
            OneOf(
                "NULL",
                "ERROR",
                "TRUE",
                "FALSE",
                "UNKNOWN",
                Sequence("DEFAULT", Ref("ExpressionSegment")),
                Sequence("EMPTY", OneOf("ARRAY", "OBJECT")),
            ),
            "ON",
            on_what,
        ),
        Sequence(
            OneOf("WITH", "WITHOUT"),
            OneOf("CONDITIONAL", "UNCONDITIONAL", optional=True),
            Ref.keyword("ARRAY", optional=True),
            "WRAPPER",
        ),
    )


def _group_by_grammar() -> Sequence:
    """Calcite's ``GROUP BY [ALL | DISTINCT] item, ...`` where an item may be a
    grouping set, ROLLUP, CUBE or ``()`` mixed with plain expressions."""
    return Sequence(
        "GROUP",
        "BY",
        OneOf("ALL", "DISTINCT", optional=True),
        Delimited(
            OneOf(
                Ref("GroupingSetsClauseSegment"),
                Ref("CubeRollupClauseSegment"),
                Ref("ColumnReferenceSegment"),
                Ref("NumericLiteralSegment"),
                Ref("ExpressionSegment"),
                Bracketed(),  # the empty grouping set
            ),
            terminators=[Ref("GroupByClauseTerminatorGrammar")],
        ),
    )


def _match_recognize_grammar() -> Sequence:
    """MATCH_RECOGNIZE with ``ALL ROWS PER MATCH`` and ``SUBSET`` (flink has neither)."""
    return Sequence(
        "MATCH_RECOGNIZE",
        Bracketed(
            Ref("PartitionClauseSegment", optional=True),
            Ref("OrderByClauseSegment", optional=True),
            Sequence(
                "MEASURES",
                Delimited(Sequence(Ref("ExpressionSegment"), Ref("AliasExpressionSegment"))),
                optional=True,
            ),
            OneOf(
                Sequence("ONE", "ROW", "PER", "MATCH"),
                Sequence("ALL", "ROWS", "PER", "MATCH"),
                optional=True,
            ),
            Sequence(
                "AFTER",
                "MATCH",
                "SKIP",
                OneOf(
                    Sequence("PAST", "LAST", "ROW"),
                    Sequence("TO", "NEXT", "ROW"),
                    Sequence("TO", OneOf("LAST", "FIRST", optional=True), Ref("SingleIdentifierGrammar")),
                ),
                optional=True,
            ),
            "PATTERN",
            Bracketed(Ref("FlinkPatternSegment")),
            Sequence("WITHIN", Ref("IntervalExpressionSegment"), optional=True),
            Sequence(
                "SUBSET",
                Delimited(
                    Sequence(
                        Ref("SingleIdentifierGrammar"),
                        Ref("EqualsSegment"),
                        Bracketed(Delimited(Ref("SingleIdentifierGrammar"))),
                    )
                ),
                optional=True,
            ),
            "DEFINE",
            Delimited(Sequence(Ref("SingleIdentifierGrammar"), "AS", Ref("ExpressionSegment"))),
        ),
    )


def _expression_a_grammar(dataphin: Dialect) -> Sequence:
    """ansi's a_expr with two of Calcite's operators it lacks: ``a [NOT] BETWEEN SYMMETRIC|ASYMMETRIC
    b AND c`` and the period predicates ``(s1, e1) OVERLAPS (s2, e2)`` (CONTAINS, EQUALS,
    [IMMEDIATELY] PRECEDES|SUCCEEDS).

    ansi's grammar is a head and a repeated choice of what may follow it; sqlfluff's `copy` edits
    only a grammar's own elements, so the choice is copied and put back in a copy of each level."""
    grammar = dataphin.get_grammar("Expression_A_Grammar")
    _head, repeat = grammar._elements
    [choices] = repeat._elements
    tail = Ref("Tail_Recurse_Expression_A_Grammar")
    more = choices.copy(insert=[
        Sequence(Ref.keyword("NOT", optional=True), "BETWEEN", OneOf("SYMMETRIC", "ASYMMETRIC"),
                 Ref("Expression_B_Grammar"), "AND", tail),
        Sequence(OneOf(*_PERIOD_PREDICATES[:3], Sequence(Ref.keyword("IMMEDIATELY", optional=True), OneOf(*_PERIOD_PREDICATES[3:]))),
                 tail),
    ])
    return grammar.copy(insert=[repeat.copy(insert=[more], remove=[choices])], remove=[repeat])


def extend(dataphin: Dialect) -> None:
    """Add the constructs above to the `dataphin` dialect (called once by `_build`)."""
    # Flink's string literals have no backslash escapes: '\' is one backslash
    # (`LIKE '%\_%' ESCAPE '\'`, `SPLIT_INDEX(s, '\', 0)`), and 'It\'s' is an error.
    # Only a doubled quote escapes a quote. (The splitter reads strings the same way.)
    dataphin.patch_lexer_matchers(
        [
            RegexLexer(
                "single_quote",
                r"'([^']|'')*'",
                CodeSegment,
                segment_kwargs={"quoted_value": (r"'((?:[^']|'')*)'", 1), "escape_replacements": [(r"''", "'")]},
            )
        ]
    )
    reserved = dataphin.sets("reserved_keywords")
    reserved.difference_update(FLINK_UNRESERVED)
    reserved.update(_RESERVED_OPERATORS)
    dataphin.sets("unreserved_keywords").update(FLINK_UNRESERVED)
    dataphin.sets("unreserved_keywords").update(k for k in _KEYWORDS if k not in reserved)
    class BareColumnReferenceSegment(dataphin.get_segment("ColumnReferenceSegment")):  # type: ignore[misc]
        """``user`` alone in an expression: a one-part `column_reference`, as Flink reads it."""

        match_grammar = Ref("BareColumnWordSegment")

    dataphin.add(
        BareColumnWordSegment=MultiStringParser(FLINK_BARE_COLUMN_WORDS, IdentifierSegment, type="naked_identifier"),
        BareColumnReferenceSegment=BareColumnReferenceSegment,
    )
    dataphin.replace(
        Expression_D_Potential_Select_Statement_Without_Brackets=dataphin.get_grammar(
            "Expression_D_Potential_Select_Statement_Without_Brackets"
        ).copy(insert=[Ref("BareColumnReferenceSegment")], before=Ref("ColumnReferenceSegment")),
    )

    # Named arguments and the partitioned table argument of window TVFs:
    # TUMBLE(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(ts), SIZE => INTERVAL '10' MINUTES),
    # SESSION(TABLE Bid PARTITION BY item, DESCRIPTOR(ts), INTERVAL '5' MINUTES).
    dataphin.add(
        RightArrowSegment=RightArrowSegment,
        NamedArgumentSegment=NamedArgumentSegment,
        PartitionedTableArgSegment=PartitionedTableArgSegment,
    )
    dataphin.replace(
        FunctionContentsExpressionGrammar=OneOf(
            Ref("NamedArgumentSegment"),
            Ref("TableArgSegment"),
            Ref("DescriptorSegment"),
            Ref("ExpressionSegment"),
        ),
        TableArgSegment=Sequence(
            "TABLE",
            Ref("TableReferenceSegment"),
            Ref("PartitionedTableArgSegment", optional=True),
        ),
    )

    # Special call syntax: JSON_VALUE(j, '$.a' RETURNING INT DEFAULT 0 ON EMPTY),
    # JSON_QUERY(... WITH CONDITIONAL ARRAY WRAPPER), CEIL(ts TO HOUR), FLOOR(ts TO DAY).
    dataphin.replace(
        FunctionContentsGrammar=dataphin.get_grammar("FunctionContentsGrammar").copy(
            insert=[
                _json_call_clauses(),
                Sequence("TO", Ref("DatetimeUnitSegment")),
                Sequence("ALL", Delimited(Ref("FunctionContentsExpressionGrammar"))),  # SUM(ALL a)
                # SUBSTRING(s FROM i FOR n), OVERLAY(s PLACING t FROM i FOR n), POSITION(t IN s FROM i):
                # ansi reads `s FROM i` and `t IN s`, and `FOR 2` only by luck (as a typed literal)
                Sequence(OneOf("FOR", "FROM", "PLACING"), Ref("ExpressionSegment")),
            ],
        ),
        # PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY a)
        PostFunctionGrammar=dataphin.get_grammar("PostFunctionGrammar").copy(
            insert=[Sequence("WITHIN", "GROUP", Bracketed(Ref("OrderByClauseSegment")))],
        ),
        # x IS [NOT] JSON [VALUE | SCALAR | ARRAY | OBJECT], x IS [NOT] UNKNOWN
        IsClauseGrammar=dataphin.get_grammar("IsClauseGrammar").copy(
            insert=[Sequence("JSON", OneOf("VALUE", "SCALAR", "ARRAY", "OBJECT", optional=True))],
        ),
        UnknownLiteralSegment=StringParser("unknown", LiteralKeywordSegment, type="null_literal"),
        # t.arr[1].f, (t.r).f: field access after an item access or a bracket
        AccessorGrammar=AnyNumberOf(
            OneOf(
                Ref("ArrayAccessorSegment"),
                Sequence(Ref("DotSegment"), Ref("SingleIdentifierGrammar"), allow_gaps=False),
            )
        ),
        # a INT PRIMARY KEY NOT ENFORCED (column constraint)
        NotEnforcedGrammar=Sequence("NOT", "ENFORCED"),
        # UNNEST(arr) WITH ORDINALITY AS t (v, pos)
        PostTableExpressionGrammar=Sequence("WITH", "ORDINALITY", Ref("AliasExpressionSegment", optional=True)),
    )
    dataphin.replace(
        # reluctant quantifiers in MATCH_RECOGNIZE patterns: B*?, C??, D{1,3}?
        FlinkPatternQuantifierGrammar=dataphin.get_grammar("FlinkPatternQuantifierGrammar").copy(
            insert=[Ref("QuestionMarkSegment", optional=True)],
        ),
        # a quantified group: PATTERN (A (B C)+ D)
        FlinkPatternTermGrammar=OneOf(
            Sequence(
                Ref("SingleIdentifierGrammar"),
                Ref("FlinkPatternQuantifierGrammar", optional=True),
                allow_gaps=False,
            ),
            Sequence(
                Bracketed(Ref("FlinkPatternSegment")),
                Ref("FlinkPatternQuantifierGrammar", optional=True),
                allow_gaps=False,
            ),
        ),
        LiteralGrammar=dataphin.get_grammar("LiteralGrammar").copy(insert=[Ref("UnknownLiteralSegment")]),
    )

    class GroupByClauseSegment(dataphin.get_segment("GroupByClauseSegment")):  # type: ignore[misc]
        """GROUP BY with grouping sets, ROLLUP, CUBE and () among plain items."""

        match_grammar = _group_by_grammar()

    class MatchRecognizeClauseSegment(dataphin.get_segment("MatchRecognizeClauseSegment")):  # type: ignore[misc]
        """MATCH_RECOGNIZE, also ``ALL ROWS PER MATCH`` and ``SUBSET``."""

        match_grammar = _match_recognize_grammar()

    class DatatypeSegment(dataphin.get_segment("DatatypeSegment")):  # type: ignore[misc]
        """Flink's types, plus ``TIMESTAMP(3) WITH LOCAL TIME ZONE``."""

        match_grammar = OneOf(
            Sequence(
                OneOf("TIMESTAMP", "TIME"),
                Bracketed(Ref("NumericLiteralSegment"), optional=True),
                "WITH",
                "LOCAL",
                "TIME",
                "ZONE",
            ),
            dataphin.get_segment("DatatypeSegment").match_grammar,
        )

    grammar = dataphin.get_grammar
    # ansi ends a select list and a WHERE at OVERLAPS (for `SELECT ... OVERLAPS (d1, d2)`, not Flink)
    not_overlaps = {name: grammar(name).copy(remove=[Ref.keyword("OVERLAPS")])
                    for name in ("SelectClauseTerminatorGrammar", "WhereClauseTerminatorGrammar")}
    # an INSERT's query ends where Flink 2.3's ON CONFLICT begins (OnConflictClauseSegment)
    on_conflict = Sequence(Ref.keyword("ON"), Ref.keyword("CONFLICT"))
    ends_at_conflict = {name: not_overlaps.get(name, grammar(name)).copy(insert=[on_conflict])
                        for name in ("SelectClauseTerminatorGrammar", "WhereClauseTerminatorGrammar",
                                     "FromClauseTerminatorGrammar", "GroupByClauseTerminatorGrammar",
                                     "HavingClauseTerminatorGrammar", "OrderByClauseTerminators")}
    for name in ("SelectStatementSegment", "UnorderedSelectStatementSegment", "SetExpressionSegment"):
        segment = dataphin.get_segment(name)
        dataphin.replace(**{name: type(name, (segment,), {"match_grammar": segment.match_grammar.copy(terminators=[on_conflict])})})
    dataphin.replace(
        **ends_at_conflict,
        Expression_A_Grammar=_expression_a_grammar(dataphin),
        # a STRING NOT NULL METADATA FROM 'k' VIRTUAL
        MetadataColumnDefinitionSegment=grammar("MetadataColumnDefinitionSegment").copy(
            insert=[Sequence(Ref.keyword("NOT", optional=True), "NULL", optional=True)], before=Ref.keyword("METADATA"),
        ),
        # CONSTRAINT `pk` PRIMARY KEY (a) NOT ENFORCED
        # (`flink`'s first element is the optional CONSTRAINT with a bare name: it is swapped)
        FlinkTableConstraintSegment=grammar("FlinkTableConstraintSegment").copy(
            insert=[Sequence("CONSTRAINT", Ref("SingleIdentifierGrammar"), optional=True)], at=0,
            remove=[grammar("FlinkTableConstraintSegment")._elements[0]],
        ),
    )
    dataphin.add(InsertPartitionSpecSegment=InsertPartitionSpecSegment, OnConflictClauseSegment=OnConflictClauseSegment)
    dataphin.replace(
        InsertStatementSegment=InsertStatementSegment,
        DatatypeSegment=DatatypeSegment,
        GroupByClauseSegment=GroupByClauseSegment,
        MatchRecognizeClauseSegment=MatchRecognizeClauseSegment,
    )
