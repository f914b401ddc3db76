"""The one reader of a type's bracket structure: `ROW<a INT, `b c` ARRAY<STRING>>`.

Meta tables, functions, the semantic model and the DDL writer all take
ROW/MAP/ARRAY bodies apart; they do it here, so a written type that is not
well formed (an unclosed backtick, `<` without `>`) is one finding from the
loader (`structure_problem`) and an empty answer elsewhere, never an
exception. One left-to-right pass per call: no backtracking on user text.
"""
from __future__ import annotations

from dataclasses import dataclass

_OPEN = {"<": ">", "(": ")"}
# the loader's type check recurses once per level: a type nested deeper (none in practice) is refused
MAX_TYPE_DEPTH = 64
_CLOSE = {">", ")"}
# the type names of the databases tasks copy tables from (MySQL, Oracle) that Flink does not have, with Flink's
# type for each: the fix a "not a Flink data type" names (DATETIME is TIMESTAMP(3), not the nearest spelling TIME)
OTHER_DATABASES_TYPES: dict[str, str] = {
    "DATETIME": "TIMESTAMP(3)", "TINYTEXT": "STRING", "TEXT": "STRING", "MEDIUMTEXT": "STRING", "LONGTEXT": "STRING",
    "LONG": "BIGINT", "NUMBER": "DECIMAL(p, s)", "VARCHAR2": "STRING", "NVARCHAR2": "STRING", "CLOB": "STRING",
    "BIT": "BOOLEAN", "JSON": "STRING", "YEAR": "INT", "MEDIUMINT": "INT", "BLOB": "BYTES", "LONGBLOB": "BYTES",
}


@dataclass(frozen=True)
class Split:
    parts: list[str]  # the top-level comma-separated parts, as written
    problem: str  # "" when the text is well formed


def split_top(text: str) -> Split:
    """`text` cut at its top-level commas; backticks quote names and single quotes comments (doubled, each is itself)."""
    parts: list[str] = []
    stack: list[str] = []
    start, i, n = 0, 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "`'":
            end = _closing_quote(text, i + 1, ch)
            if end < 0:
                what = "backtick" if ch == "`" else "quote"
                return Split(parts + [text[start:]], f"unclosed {what} at character {i + 1}")
            i = end + 1
            continue
        if ch in _OPEN:
            stack.append(_OPEN[ch])
            if len(stack) > MAX_TYPE_DEPTH:
                return Split(parts + [text[start:]], f"nested more than {MAX_TYPE_DEPTH} levels deep at character {i + 1}")
        elif ch in _CLOSE:
            if not stack or stack.pop() != ch:
                return Split(parts + [text[start:]], f"unmatched '{ch}' at character {i + 1}")
        elif ch == "," and not stack:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    parts.append(text[start:])
    if stack:
        return Split(parts, f"'{stack[-1]}' missing at the end")
    return Split(parts, "")


def _closing_quote(text: str, i: int, quote: str = "`") -> int:
    """The index of the `quote` closing a quoted name or comment that starts at `i`, or -1 (doubled, it is itself)."""
    while True:
        end = text.find(quote, i)
        if end < 0:
            return -1
        if text.startswith(quote * 2, end):
            i = end + 2
            continue
        return end


def field_name(part: str) -> tuple[str, str]:
    """A ROW field `name TYPE` or `` `a b` TYPE``: (name, the rest); the name unquoted."""
    part = part.strip()
    if part.startswith("`"):
        end = _closing_quote(part, 1)
        if end < 0:
            return part[1:], ""
        return part[1:end].replace("``", "`"), part[end + 1:].strip()
    name, _, rest = part.partition(" ")
    return name, rest.strip()


def bracket_body(text: str) -> str | None:
    """What is between the first `<` (or `(`) and the matching last bracket, or None."""
    text = text.strip()
    cut = min((i for i in (text.find("<"), text.find("(")) if i >= 0), default=-1)
    if cut < 0 or text[-1:] not in _CLOSE or _OPEN[text[cut]] != text[-1]:
        return None
    return text[cut + 1:-1]


def bracket_span(text: str) -> tuple[int, int] | None:
    """(index of the first `<` or `(` outside quotes, index of the bracket closing it), or None
    when `text` has none or it is not closed: `TIMESTAMP(3) WITH LOCAL TIME ZONE`, `ROW<a INT> NOT NULL`."""
    stack: list[str] = []
    start, i, n = -1, 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "`'":
            end = _closing_quote(text, i + 1, ch)
            if end < 0:
                return None
            i = end + 1
            continue
        if ch in _OPEN:
            start = i if not stack and start < 0 else start
            stack.append(_OPEN[ch])
        elif ch in _CLOSE:
            if not stack or stack.pop() != ch:
                return None
            if not stack:
                return start, i
        i += 1
    return None


def row_fields(text: str) -> list[tuple[str, str]]:
    """The (name, type text) fields of `ROW<a INT, b STRING>`; [] when it is not well formed."""
    body = bracket_body(text)
    if body is None or not body.strip():
        return []
    split = split_top(body)
    if split.problem:
        return []
    return [field_name(part) for part in split.parts]


def structure_problem(text: str) -> str:
    """Why the brackets and backticks of `text` are not well formed ("" when they are)."""
    return split_top(text).problem
