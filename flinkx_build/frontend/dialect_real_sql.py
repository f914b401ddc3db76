"""Flink 1.20 forms found in real-world Flink SQL (issue 28) that the grammar refused.

Each form was given to Flink 1.20's own parser first (tests/semantic/test_real_flink_false_alarms.py
plans them): a check that fires where Flink accepts the SQL is a false alarm.
`dialect._build()` calls `extend()` once, after `dialect_flink120.extend()`.
"""
from __future__ import annotations

from sqlfluff.core.dialects import Dialect
from sqlfluff.core.parser import CommentSegment
from sqlfluff.core.parser import Delimited
from sqlfluff.core.parser import Ref
from sqlfluff.core.parser import RegexLexer


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
