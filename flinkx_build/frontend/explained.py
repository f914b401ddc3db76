"""`EXPLAIN [detail, ...] [PLAN FOR] statement`: the statements an EXPLAIN asks Flink to plan.

Flink's parser takes `EXPLAIN` before a query, an INSERT or a whole `STATEMENT SET BEGIN ... END`
(the splitter keeps the last as one chunk), and its SQL client prints the plan without running a
job. flinkx's grammar has no rule for it, so it was FX120 "cannot parse" on SQL Flink accepts.
The parser now parses the explained statements one by one instead: a syntax error inside is
reported at its own position, and a clean EXPLAIN is a statement of kind `other` (no table it
names is read or written by the task; validate has Flink plan it).
"""
from __future__ import annotations

import re

from flinkx_build.frontend.splitter import Chunk
from flinkx_build.frontend.splitter import split_statements
from flinkx_build.frontend.splitter import strip_comments
from flinkx_build.limits import position

# Flink 1.20's ExplainDetail names; `PLAN FOR` is the older spelling EXPLAIN PLAN FOR
_DETAIL = r"(?:ESTIMATED_COST|CHANGELOG_MODE|JSON_EXECUTION_PLAN|PLAN_ADVICE)"
_HEAD = re.compile(rf"\s*EXPLAIN\b(?:\s+{_DETAIL}(?:\s*,\s*{_DETAIL})*)?(?:\s+PLAN\s+FOR\b)?\s*", re.IGNORECASE)
_SET = re.compile(r"STATEMENT\s+SET\s+BEGIN\b", re.IGNORECASE)


def explained_statements(chunk: Chunk) -> list[Chunk] | None:
    """The statements `chunk` explains, with their places in the file; None when it is no EXPLAIN.
    An explained statement set gives its INSERTs (its BEGIN and END are the EXPLAIN's own words)."""
    code = strip_comments(chunk.text)  # same length: offsets in `code` are offsets in the text
    head = _HEAD.match(code)
    if head is None or not code.lstrip().upper().startswith("EXPLAIN"):
        return None
    start = head.end()
    statement_set = _SET.match(code, start)
    if statement_set is None:
        return [_sub_chunk(chunk, start, len(chunk.text))] if code[start:].strip() else []
    body_start = statement_set.end()
    end = code.upper().rstrip().rfind("END")
    inner = chunk.text[body_start:end] if end >= body_start else chunk.text[body_start:]
    return [_sub_chunk(chunk, body_start + c.offset, body_start + c.offset + len(c.text)) for c in split_statements(inner)
            if c.kind == "statement"]


def _sub_chunk(chunk: Chunk, start: int, end: int) -> Chunk:
    text = chunk.text[start:end]
    lead = len(text) - len(text.lstrip())
    rel_line, rel_col = position(chunk.text, start + lead)
    line, col = chunk.position(rel_line, rel_col)
    return Chunk(text[lead:].rstrip(), chunk.offset + start + lead, line, col, "statement")
