"""What an `ALTER TABLE t ...` changes in t's columns besides ADD: DROP, RENAME a TO b and watermarks.

Flink 1.20's ALTER TABLE (each form checked with its parser and planner,
tests/semantic/test_real_sql_corpus_causes.py): `DROP c`, `DROP (a, b)`, `DROP PRIMARY KEY`,
`DROP WATERMARK`, `RENAME a TO b`, `ADD|MODIFY WATERMARK FOR ts AS ...` (also inside an ADD/MODIFY
list). Keys change nothing the model reads. `query.py` reads the ADDed columns themselves.
"""
from __future__ import annotations

from sqlfluff.core.parser import BaseSegment

from flinkx_build.frontend import query_ir as ir
from flinkx_build.frontend.expressions import code
from flinkx_build.frontend.expressions import identifier_text

_IDENTIFIERS = ("naked_identifier", "quoted_identifier", "identifier")


def _name(seg: BaseSegment) -> str:
    names = [s for s in seg.recursive_crawl(*_IDENTIFIERS)]
    return identifier_text(names[-1]) if names else identifier_text(seg)


def read_schema_changes(parts: list[BaseSegment], out: ir.StatementQuery) -> None:
    """Fill `out.dropped_columns`, `renamed_columns`, `watermark_for` and `watermark_dropped`."""
    words = [p.raw.upper() if p.is_type("keyword", "parameter") else "" for p in parts]
    for i, word in enumerate(words):
        after = parts[i + 1] if i + 1 < len(parts) else None
        if word == "DROP" and after is not None:
            if after.raw.upper() == "WATERMARK":  # a column of that name would be back-quoted
                out.watermark_dropped = True
            elif after.is_type("bracketed"):
                out.dropped_columns.extend(identifier_text(s) for s in code(after) if s.is_type(*_IDENTIFIERS))
            elif after.is_type(*_IDENTIFIERS):
                out.dropped_columns.append(identifier_text(after))
        elif word == "RENAME" and i + 3 < len(parts) and words[i + 2] == "TO" and parts[i + 1].is_type(*_IDENTIFIERS):
            out.renamed_columns[identifier_text(parts[i + 1])] = identifier_text(parts[i + 3])
    for siblings in [parts, *(code(b) for b in parts if b.is_type("bracketed"))]:
        for i, seg in enumerate(siblings[:-2]):
            if seg.raw.upper() == "WATERMARK" and siblings[i + 1].raw.upper() == "FOR":
                out.watermark_for = _name(siblings[i + 2])
