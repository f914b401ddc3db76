"""Split a task file into statements at top-level semicolons.

sqlfluff can let one bad statement swallow the rest of a file, so every
consumer parses statement by statement. The splitter works on the raw task
text (before `${var}` rendering) and keeps exact offsets, so positions inside
a statement map back to the file by simple addition.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_BEGIN_SET = re.compile(r"^\s*BEGIN\s+STATEMENT\s+SET\s*$", re.IGNORECASE)
_END = re.compile(r"^\s*END\s*$", re.IGNORECASE)
# Flink's other spelling of a statement set: `EXECUTE STATEMENT SET BEGIN INSERT ...; ...; END;`.
# Its head becomes a begin_statement_set chunk and the first INSERT a chunk of its own, so
# both spellings reach the resolver, the build and validate as the same statements.
_EXECUTE_SET = re.compile(r"^\s*EXECUTE\s+STATEMENT\s+SET\s+BEGIN\b", re.IGNORECASE)
# `EXECUTE INSERT INTO ...` / `EXECUTE SELECT ...` run the statement as written: the
# statement chunk starts after EXECUTE (Flink gives both the same meaning).
_EXECUTE_DML = re.compile(r"^\s*EXECUTE\s+(?=(?:INSERT|SELECT|WITH|VALUES)\b)", re.IGNORECASE)


@dataclass(frozen=True)
class Chunk:
    """One statement's raw text (without its `;`), and where it starts."""

    text: str
    offset: int  # character offset of text[0] in the file
    line: int  # 1-based line of text[0]
    col: int  # 1-based column of text[0]
    kind: str  # "statement" | "begin_statement_set" | "end"

    @property
    def code_position(self) -> tuple[int, int]:
        """File (line, col) of the first character that is not a comment."""
        code = strip_comments(self.text)
        index = len(code) - len(code.lstrip())
        rel_line = code.count("\n", 0, index) + 1
        rel_col = index - (code.rfind("\n", 0, index) + 1) + 1
        return self.position(rel_line, rel_col)

    def position(self, rel_line: int, rel_col: int) -> tuple[int, int]:
        """File (line, col) of a 1-based (line, col) inside this chunk."""
        if rel_line == 1:
            return self.line, self.col + rel_col - 1
        return self.line + rel_line - 1, rel_col


def strip_comments(text: str) -> str:
    """The text with comments blanked out (same length), strings kept."""
    out = list(text)
    for start, end in _comment_spans(text):
        for i in range(start, end):
            if out[i] != "\n":
                out[i] = " "
    return "".join(out)


def _comment_spans(text: str) -> list[tuple[int, int]]:
    """Spans of `--`, `//` and `/* */` comments; hints (`/*+ */`) are not comments here."""
    return [(a, b) for kind, a, b in _scan(text) if kind == "comment" and not text.startswith("/*+", a)]


def _scan(text: str):
    """Yield ("comment" | "semicolon", start, end) outside quotes, in order.

    The one lexical walk of the splitter: quotes ('...', `...`, "..." with
    doubled-quote escapes; as in Flink, a backslash escapes nothing), `--` and `//` line
    comments (Calcite's lexer takes both) and `/* */` block comments.
    """
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "'`\"":
            i = _skip_quoted(text, i)
        elif text.startswith("--", i) or text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            yield "comment", i, end
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            yield "comment", i, end
            i = end
        else:
            if ch == ";":
                yield "semicolon", i, i + 1
            i += 1


def _skip_quoted(text: str, i: int) -> int:
    """Index just past the quoted token starting at i (doubled quote escapes)."""
    quote = text[i]
    j = i + 1
    n = len(text)
    while j < n:
        if text[j] == quote:
            if j + 1 < n and text[j + 1] == quote:
                j += 2
                continue
            return j + 1
        j += 1
    return n


def split_statements(text: str) -> list[Chunk]:
    """Chunks for each non-empty statement, in file order."""
    chunks: list[Chunk] = []
    start = 0
    for kind, at, _ in _scan(text):
        if kind == "semicolon":
            _add_chunk(chunks, text, start, at)
            start = at + 1
    _add_chunk(chunks, text, start, len(text))
    return _join_explained_sets(chunks, text)


def _join_explained_sets(chunks: list[Chunk], text: str) -> list[Chunk]:
    """`EXPLAIN [details] STATEMENT SET BEGIN INSERT ...; ...; END`: one statement to Flink's parser, so
    one chunk here (it was a chunk that did not parse and an `END without BEGIN STATEMENT SET`)."""
    next_end = [-1] * (len(chunks) + 1)  # the first `end` chunk at or after each index: one pass
    for j in range(len(chunks) - 1, -1, -1):
        next_end[j] = j if chunks[j].kind == "end" else next_end[j + 1]
    out: list[Chunk] = []
    i = 0
    while i < len(chunks):
        chunk = chunks[i]
        end = next_end[i + 1]
        if chunk.kind != "statement" or end < 0 or not _explains_a_set(chunk.text):
            out.append(chunk)
            i += 1
            continue
        last = chunks[end]
        out.append(Chunk(text[chunk.offset : last.offset + len(last.text)], chunk.offset, chunk.line, chunk.col, "statement"))
        i = end + 1
    return out


def _explains_a_set(text: str) -> bool:
    words = strip_comments(text).upper().split()
    run = ("STATEMENT", "SET", "BEGIN")
    return words[:1] == ["EXPLAIN"] and any(tuple(words[i : i + 3]) == run for i in range(1, len(words) - 2))


def _add_chunk(chunks: list[Chunk], text: str, start: int, end: int) -> None:
    # A comment on the line of the previous `;` belongs to the previous statement.
    if chunks:
        newline = text.find("\n", start, end)
        if newline >= 0 and text[start:newline].strip().startswith(("--", "//")):
            start = newline + 1
    body = text[start:end]
    code = strip_comments(body)
    if not code.strip():
        return
    # Start the chunk at its first non-blank character, comments included,
    # so a comment above a statement stays with it.
    lead = len(body) - len(body.lstrip())
    body = body[lead:].rstrip()
    offset = start + lead
    line, col = line_col(text, offset)
    code = strip_comments(body)
    execute_set = _EXECUTE_SET.match(code)
    if execute_set:
        chunks.append(Chunk(body[: execute_set.end()], offset, line, col, "begin_statement_set"))
        _add_chunk(chunks, text, offset + execute_set.end(), offset + len(body))
        return
    execute = _EXECUTE_DML.match(code)
    if execute:
        _add_chunk(chunks, text, offset + execute.end(), offset + len(body))
        return
    if _BEGIN_SET.match(code):
        kind = "begin_statement_set"
    elif _END.match(code):
        kind = "end"
    else:
        kind = "statement"
    chunks.append(Chunk(body, offset, line, col, kind))


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, col) of a character offset."""
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col
