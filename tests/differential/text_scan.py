"""Small scanners over SQL text for the mutation generator: offsets of positions,
the end of a reference, the matching bracket, where a clause ends.

All of them walk the text once, left to right (no regular expressions on the text).
"""
from __future__ import annotations

CLAUSE_WORDS = ("GROUP BY", "ORDER BY", "HAVING", "UNION", "WINDOW", "LIMIT", "FROM", "WHERE")


def offset_of(text: str, line: int, col: int) -> int:
    """The offset of a 1-based (line, col) in `text`."""
    start = 0
    for _ in range(line - 1):
        start = text.index("\n", start) + 1
    return start + col - 1


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def reference_end(text: str, start: int) -> int:
    """The end of a (possibly qualified, possibly back-quoted) name that starts at `start`."""
    i = start
    while i < len(text):
        ch = text[i]
        if ch == "`":
            close = text.find("`", i + 1)
            if close < 0:
                return i
            i = close + 1
        elif ch.isalnum() or ch in "_.$":
            i += 1
        else:
            break
    return i


def _skip_quoted(text: str, i: int) -> int:
    """`text[i]` opens a string, back-quoted name or comment: the offset after it."""
    ch = text[i]
    if ch in "'`\"":
        j = i + 1
        while j < len(text):
            if text[j] == ch:
                if j + 1 < len(text) and text[j + 1] == ch:
                    j += 2
                    continue
                return j + 1
            j += 1
        return len(text)
    if text.startswith("--", i):
        end = text.find("\n", i)
        return len(text) if end < 0 else end
    if text.startswith("/*", i):
        end = text.find("*/", i + 2)
        return len(text) if end < 0 else end + 2
    return i + 1


def _opens_quoted(text: str, i: int) -> bool:
    return text[i] in "'`\"" or text.startswith("--", i) or text.startswith("/*", i)


def matching_close(text: str, open_at: int) -> int:
    """The offset of the `)` that closes the `(` at `open_at` (-1 if none)."""
    depth = 0
    i = open_at
    while i < len(text):
        if _opens_quoted(text, i):
            i = _skip_quoted(text, i)
            continue
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def top_level_commas(text: str, open_at: int, close_at: int) -> list[int]:
    """Offsets of the commas directly inside the brackets (open_at, close_at)."""
    out, depth, i = [], 0, open_at + 1
    while i < close_at:
        if _opens_quoted(text, i):
            i = _skip_quoted(text, i)
            continue
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(i)
        i += 1
    return out


def _word_at(text: str, i: int, word: str) -> bool:
    if text[i:i + len(word)].upper() != word:
        return False
    before = text[i - 1] if i > 0 else " "
    after = text[i + len(word)] if i + len(word) < len(text) else " "
    return not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_")


def clause_end(text: str, start: int, words: tuple[str, ...] = CLAUSE_WORDS) -> int:
    """Where the expression starting at `start` ends: before the next clause keyword, `;` or an
    unmatched `)` at its depth, with trailing blanks and comments left out."""
    depth, i, last_code = 0, start, start
    while i < len(text):
        if text.startswith("--", i) or text.startswith("/*", i):
            i = _skip_quoted(text, i)
            continue
        if text[i] in "'`\"":
            i = _skip_quoted(text, i)
            last_code = i
            continue
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                break
            depth -= 1
        elif ch == ";" and depth == 0:
            break
        elif depth == 0 and i > start and any(_word_at(text, i, w) for w in words):
            break
        if not ch.isspace():
            last_code = i + 1
        i += 1
    return last_code


def find_word(text: str, word: str, start: int, end: int) -> int:
    """The first `word` (case-insensitive, whole word, outside strings and comments) in [start, end)."""
    i = start
    while i < end:
        if _opens_quoted(text, i):
            i = _skip_quoted(text, i)
            continue
        if _word_at(text, i, word):
            return i
        i += 1
    return -1
