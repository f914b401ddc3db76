"""Flink 1.20 forms found in real-world Flink SQL (issue 28) that the grammar refused.

Each form was given to Flink 1.20's own parser first (tests/semantic/test_real_flink_false_alarms.py
plans them): a check that fires where Flink accepts the SQL is a false alarm.
`dialect._build()` calls `extend()` once, after `dialect_flink120.extend()`.
"""
from __future__ import annotations

from sqlfluff.core.dialects import Dialect
from sqlfluff.core.parser import BaseSegment
from sqlfluff.core.parser import Bracketed
from sqlfluff.core.parser import CommentSegment
from sqlfluff.core.parser import Delimited
from sqlfluff.core.parser import OneOf
from sqlfluff.core.parser import Ref
from sqlfluff.core.parser import RegexLexer
from sqlfluff.core.parser import Sequence


class CreateCatalogStatementSegment(BaseSegment):
    """``CREATE CATALOG [IF NOT EXISTS] c [COMMENT '...'] WITH (...)``."""

    type = "create_catalog_statement"
    match_grammar = Sequence(
        "CREATE",
        "CATALOG",
        Ref("IfNotExistsGrammar", optional=True),
        Ref("SingleIdentifierGrammar"),
        Sequence("COMMENT", Ref("QuotedLiteralSegment"), optional=True),
        Ref("CreateTableConnectorOptionsSegment"),
    )


class CatalogStatementSegment(BaseSegment):
    """``ALTER CATALOG c SET (...) | RESET ('k', ...) | COMMENT '...'``, ``DROP CATALOG [IF EXISTS] c``,
    ``DESCRIBE CATALOG [EXTENDED] c`` and ``ALTER DATABASE [c.]d SET (...)``."""

    type = "catalog_statement"
    match_grammar = OneOf(
        Sequence(
            "ALTER",
            "CATALOG",
            Ref("SingleIdentifierGrammar"),
            OneOf(
                Sequence("SET", Ref("DataphinOptionsBracketGrammar")),
                Sequence("RESET", Bracketed(Delimited(Ref("QuotedLiteralSegment")))),
                Sequence("COMMENT", Ref("QuotedLiteralSegment")),
            ),
        ),
        Sequence("DROP", "CATALOG", Ref("IfExistsGrammar", optional=True), Ref("SingleIdentifierGrammar")),
        Sequence(OneOf("DESCRIBE", "DESC"), "CATALOG", Sequence("EXTENDED", optional=True), Ref("SingleIdentifierGrammar")),
        Sequence("ALTER", "DATABASE", Ref("ObjectReferenceSegment"), "SET", Ref("DataphinOptionsBracketGrammar")),
    )


def extend(dataphin: Dialect) -> None:
    # `// text` to the end of the line is a comment to Calcite's lexer, like `--` (Flink's parser
    # takes `SELECT a // note`; `//` is never division). The splitter reads it the same way.
    dataphin.patch_lexer_matchers(
        [RegexLexer("inline_comment", r"(--|//)[^\n]*", CommentSegment, segment_kwargs={"trim_start": ("--", "//")})]
    )
    # `c. address`, `c .id`: Calcite's lexer skips blanks around the `.` of a compound
    # identifier, where sqlfluff's references allow none. Only column references get the
    # gaps: a table name keeps its shape (`proj.tbl` is resolved as written).
    column_reference = dataphin.get_segment("ColumnReferenceSegment")

    class ColumnReferenceSegment(column_reference):  # type: ignore[misc, valid-type]
        """A column, field or alias reference, blanks allowed around its dots."""

        match_grammar = Delimited(
            Ref("SingleIdentifierGrammar"),
            delimiter=Ref("ObjectReferenceDelimiterGrammar"),
            terminators=[Ref("ObjectReferenceTerminatorGrammar")],
            allow_gaps=True,
        )

    dataphin.replace(ColumnReferenceSegment=ColumnReferenceSegment)

    # the catalog and database statements of Flink 1.20 that `flink` lacks (each checked with
    # Flink's parser); they define no table, so `extract` reads them as kind `other`
    with_options = dataphin.get_grammar("CreateTableConnectorOptionsSegment")  # WITH (...), see dialect.py
    options_bracket = with_options._elements[-1]
    assert isinstance(options_bracket, Bracketed), "the WITH options grammar changed shape"
    dataphin.add(CatalogStatementSegment=CatalogStatementSegment, DataphinOptionsBracketGrammar=options_bracket)
    statement = dataphin.get_segment("StatementSegment")

    class StatementSegment(statement):  # type: ignore[misc, valid-type]
        """The statements so far plus Flink's catalog statements."""

        match_grammar = statement.match_grammar.copy(insert=[Ref("CatalogStatementSegment")])

    dataphin.replace(CreateCatalogStatementSegment=CreateCatalogStatementSegment, StatementSegment=StatementSegment)

    # `DROP TEMPORARY VIEW [IF EXISTS] v` and `DROP TEMPORARY [SYSTEM] FUNCTION [IF EXISTS] f`: Flink's
    # forms for what CREATE TEMPORARY made (ansi, like `flink`, has TEMPORARY for tables only)
    drop_view = dataphin.get_segment("DropViewStatementSegment")
    drop_function = dataphin.get_segment("DropFunctionStatementSegment")

    class DropViewStatementSegment(drop_view):  # type: ignore[misc, valid-type]
        """``DROP [TEMPORARY] VIEW [IF EXISTS] v``."""

        match_grammar = drop_view.match_grammar.copy(insert=[Ref.keyword("TEMPORARY", optional=True)], at=1)

    class DropFunctionStatementSegment(drop_function):  # type: ignore[misc, valid-type]
        """``DROP [TEMPORARY [SYSTEM]] FUNCTION [IF EXISTS] f``."""

        match_grammar = drop_function.match_grammar.copy(
            insert=[Sequence("TEMPORARY", Ref.keyword("SYSTEM", optional=True), optional=True)], at=1)

    dataphin.replace(DropViewStatementSegment=DropViewStatementSegment, DropFunctionStatementSegment=DropFunctionStatementSegment)

    # `VARCHAR(n) CHARACTER SET \`UTF-16LE\``: Calcite's string type as Flink's SHOW CREATE TABLE prints
    # it (SQL generated from a catalog carries it; Flink's parser and planner take it)
    datatype = dataphin.get_segment("DatatypeSegment")

    class DatatypeSegment(datatype):  # type: ignore[misc, valid-type]
        """The types so far, plus a string type with a character set."""

        match_grammar = OneOf(
            Sequence(OneOf("VARCHAR", "CHAR", "STRING"), Bracketed(Ref("NumericLiteralSegment"), optional=True),
                     "CHARACTER", "SET", Ref("SingleIdentifierGrammar")),
            datatype.match_grammar,
        )

    dataphin.replace(DatatypeSegment=DatatypeSegment)

    # `ALTER TABLE t ADD (c TYPE, d AS expr)`: Flink's bracketed ADD/MODIFY list; each column may be
    # placed `FIRST` or `AFTER c` (a bare FIRST is Flink's, ansi wants a column after it)
    # Schema parts ADD/MODIFY take besides columns: `WATERMARK FOR ts AS expr`, `[CONSTRAINT c] PRIMARY KEY (...)`
    position = OneOf("FIRST", Sequence("AFTER", Ref("ColumnReferenceSegment")), optional=True)
    column = OneOf(Sequence(OneOf(Ref("DataphinComputedColumnSegment"), Ref("ColumnDefinitionSegment")), position),
                   Ref("WatermarkDefinitionSegment"), Ref("FlinkTableConstraintSegment"))
    bracketed_columns = Sequence(OneOf("ADD", "MODIFY"), Bracketed(Delimited(column)))
    placed_column = Sequence(OneOf("ADD", "MODIFY"), Ref.keyword("COLUMN", optional=True), column)
    # `DROP (a, b)`, `DROP PRIMARY KEY`, `DROP WATERMARK`, `RENAME a TO b` (a column; `RENAME TO u` is the table)
    dropped = Sequence("DROP", OneOf(Bracketed(Delimited(Ref("SingleIdentifierGrammar"))), Sequence("PRIMARY", "KEY"), "WATERMARK"))
    renamed_column = Sequence("RENAME", Ref("SingleIdentifierGrammar"), "TO", Ref("SingleIdentifierGrammar"))
    # `ALTER TABLE t SET ('k' = 'v')` and `RESET ('k', ...)`: the table's options (Flink 1.20's parser
    # and planner take both; the model's columns do not change)
    options = [
        Sequence("SET", Ref("DataphinOptionsBracketGrammar")),
        Sequence("RESET", Bracketed(Delimited(Ref("QuotedLiteralSegment")))),
    ]
    # `dropped` goes first: ansi's `name [=] value` option also takes `DROP WATERMARK` (two words, a tie
    # the first alternative wins), which made WATERMARK a column name (FX01)
    options_grammar = dataphin.get_grammar("AlterTableOptionsGrammar").copy(insert=[dropped], at=0)
    dataphin.replace(AlterTableOptionsGrammar=options_grammar.copy(insert=[bracketed_columns, placed_column, renamed_column, *options]))

    # `ALTER TABLE IF EXISTS t ...`: Flink 1.20 does nothing when t does not exist
    alter_table = dataphin.get_segment("AlterTableStatementSegment")

    class AlterTableStatementSegment(alter_table):  # type: ignore[misc, valid-type]
        """``ALTER TABLE [IF EXISTS] t ...``."""

        match_grammar = alter_table.match_grammar.copy(insert=[Ref("IfExistsGrammar", optional=True)], at=2)

    dataphin.replace(AlterTableStatementSegment=AlterTableStatementSegment)
