"""Input limits and text checks: what flinkx refuses to read, before any parser sees it.

A workspace comes from a pull request, so every file is untrusted input. The
parsers (ruamel.yaml, sqlfluff's pure-Python parser) are slow or fragile on
pathological input: sqlfluff's time grows with every token and it gives up on deep
nesting, and YAML aliases can expand a small file into gigabytes. These
limits are far above anything a real workspace holds (the example workspace,
its engine companions and the Ververica cookbook corpus stay under 4 KB a
file, 1,100 characters and 320 tokens a statement, 5 levels of brackets),
so a file that trips one is refused with a one-line finding at the place
that trips it, at once and in bounded memory.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from flinkx_build.errors import Diagnostic

MAX_FILE_BYTES = 1024 * 1024  # FX180: any workspace file (SQL or YAML)
# sqlfluff's time grows with a statement's tokens, so the token limits bound the parse time of a
# statement and of a file (the measurements are in docs/decisions.md, issue 26)
MAX_FILE_TOKENS = 20_000  # FX180: SQL tokens in one task file: four wide statements
MAX_STATEMENT_CHARS = 100_000  # FX181
MAX_STATEMENT_TOKENS = 5_000  # FX181: a wide INSERT of 450 columns with casts fits (2,769 tokens at 250 columns)
MAX_SQL_DEPTH = 32  # FX182: sqlfluff 4.5 fails near 50 levels of parentheses
MAX_YAML_DEPTH = 64  # FX182
MAX_YAML_ALIASES = 1_000  # FX183
MAX_YAML_EXPANDED_NODES = 100_000  # FX183: nodes once every alias is expanded
MAX_YAML_EXPANDED_CHARS = 4 * MAX_FILE_BYTES  # FX183: scalar text once every alias is expanded
MAX_YAML_NODES = 20_000  # FX184: ruamel composes ~7,000 a second; a 2,000-column table has ~14,000
MAX_INTEGER_DIGITS = 1_000  # FX185 (YAML and SQL): Python refuses int <-> str beyond 4,300 digits
# FX179: the whole workspace (issue 41: 250 pairs of 3,900-column tables, every file under the per-file limits, 56 MB
# in all, made lint take 149 s and 2.9 GB). The benchmark's 10,000-task shape (scripts/benchgen.py) has 92 MB of
# files and 152,460 meta-table columns: these budgets hold it with room, and stop that workspace at a quarter.
MAX_WORKSPACE_TABLE_BYTES = 256 * MAX_FILE_BYTES  # meta-table YAML, checked before any of it is parsed
MAX_WORKSPACE_COLUMNS = 500_000  # meta-table columns, checked once the tables are loaded, before any task is read

# C0 controls except tab, LF and CR; DEL; C1 controls except NEL; the two non-characters
# U+FFFE and U+FFFF (what YAML refuses too, so SQL and YAML follow one rule).
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x84\x86-\x9f\ufffe\uffff]")
_LONE_CR = re.compile(r"\r(?!\n)")
_BREAK = re.compile(r"\r\n|\r|\n")


def position(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, col) of `offset`, counting CRLF, CR and LF as line ends (as editors do)."""
    line, start = 1, 0
    for match in _BREAK.finditer(text, 0, offset):
        if match.end() > offset:
            break
        line, start = line + 1, match.end()
    return line, offset - start + 1


def offset_of(text: str, line: int, col: int) -> int:
    """0-based offset of a 1-based (line, col) in `text`, clamped to the end of that line (a line
    past the text: its end). Lines end at LF, as the parser's and Flink's positions count them."""
    start = 0
    for _ in range(line - 1):
        newline = text.find("\n", start)
        if newline < 0:
            return len(text)
        start = newline + 1
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    return min(start + max(col, 1) - 1, end)


def describe_char(ch: str) -> str:
    """A control character as the user can look it up: U+0000 (NUL)."""
    names = {"\x00": "NUL", "\x1b": "ESC", "\x7f": "DEL", "\x0c": "form feed", "\x0b": "vertical tab", "\x08": "backspace"}
    name = names.get(ch, "control character")
    return f"U+{ord(ch):04X} ({name})"


def check_size(raw: bytes, shown: str) -> Diagnostic | None:
    if len(raw) > MAX_FILE_BYTES:
        return Diagnostic(shown, 1, 1, "FX180", f"file is {len(raw):,} bytes, over the limit of {MAX_FILE_BYTES:,}", "split it into smaller files")
    return None


def decode_text(raw: bytes, shown: str, lone_cr_ok: bool) -> tuple[str | None, Diagnostic | None]:
    """The file's text (byte-order mark dropped), or the one finding that stops reading it.

    `lone_cr_ok`: YAML counts a lone CR as a line end, sqlfluff and the SQL
    splitter do not (positions would be wrong), so task files refuse it.
    """
    too_big = check_size(raw, shown)
    if too_big:
        return None, too_big
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = raw[: exc.start].decode("utf-8")
        line, col = position(good, len(good))
        return None, Diagnostic(shown, line, col, "FX188", f"byte 0x{raw[exc.start]:02X} is not UTF-8 text", "save the file as UTF-8")
    bad = _CONTROL.search(text)
    if bad:
        line, col = position(text, bad.start())
        return None, Diagnostic(shown, line, col, "FX189", f"{describe_char(bad.group())} is not allowed in a workspace file", "delete it")
    if not lone_cr_ok:
        cr = _LONE_CR.search(text)
        if cr:
            line, col = position(text, cr.start())
            return None, Diagnostic(shown, line, col, "FX189", "a line ends with a lone CR (carriage return)", "save the file with LF or CRLF line ends")
    return text, None


# Counting tokens is for limits only: quoted text and comments are one token each,
# so brackets inside them do not count as nesting.
_TOKEN = re.compile(
    r"'(?:[^'\\]|\\.|'')*'?|`(?:[^`]|``)*`?|\"(?:[^\"]|\"\")*\"?|--[^\n]*|/\*.*?(?:\*/|\Z)|\w+|\S",
    re.DOTALL,
)


def sql_tokens(text: str) -> Iterator[re.Match[str]]:
    """SQL tokens of `text` as the limits count them: a quoted string or a comment is one token."""
    return _TOKEN.finditer(text)


@dataclass(frozen=True)
class SqlLimitProblem:
    offset: int  # in the checked text
    code: str
    message: str
    hint: str


def sql_limit_problem(text: str) -> SqlLimitProblem | None:
    """The first limit a task file (or one statement of it) trips, or None.

    One regex pass (statements end at top-level `;`, as in the splitter):
    fast enough to run on every file before sqlfluff sees it.
    """
    split = "split it, for example with a view"
    start, tokens, depth, total = -1, 0, 0, 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        total += 1
        if start < 0 and not token.startswith(("--", "/*")):
            start = match.start()  # the statement's first token: a finding names it there
        if total > MAX_FILE_TOKENS:
            return SqlLimitProblem(0, "FX180", f"task file has more than {MAX_FILE_TOKENS:,} SQL tokens", "split it into several tasks")
        if token == ";":
            start, tokens, depth = -1, 0, 0
            continue
        tokens += 1
        if start >= 0 and match.end() - start > MAX_STATEMENT_CHARS:
            return SqlLimitProblem(start, "FX181", f"statement is longer than {MAX_STATEMENT_CHARS:,} characters", split)
        if tokens > MAX_STATEMENT_TOKENS:
            return SqlLimitProblem(max(start, 0), "FX181", f"statement has more than {MAX_STATEMENT_TOKENS:,} tokens", split)
        if token[0].isdigit() and len(token) > MAX_INTEGER_DIGITS:
            return SqlLimitProblem(match.start(), "FX185", f"a number with more than {MAX_INTEGER_DIGITS:,} digits", "Flink has no such number type; quote it if it is text")
        if token in "([":
            depth += 1
            if depth > MAX_SQL_DEPTH:
                return SqlLimitProblem(match.start(), "FX182", f"brackets are nested more than {MAX_SQL_DEPTH} levels deep", "flatten the expression or use a view")
        elif token in ")]":
            depth = max(depth - 1, 0)
    return None


def check_sql_text(text: str, shown: str) -> Diagnostic | None:
    """The first limit a task file trips, as a finding at its position, or None."""
    problem = sql_limit_problem(text)
    if problem is None:
        return None
    line, col = position(text, problem.offset)
    return Diagnostic(shown, line, col, problem.code, problem.message, problem.hint)


def budget_crossing(sizes: Iterator[tuple[str, int]] | list[tuple[str, int]], budget: int, what: str) -> Diagnostic | None:
    """FX179 at the first of `sizes` ((shown path, amount), in the loader's order) where their running total
    passes `budget`, or None: one finding for the workspace, at the file to look at."""
    total = 0
    for shown, amount in sizes:
        total += amount
        if total > budget:
            return over_budget(shown, total, budget, what)
    return None


def over_budget(shown: str, total: int, budget: int, what: str) -> Diagnostic:
    return Diagnostic(shown, 1, 1, "FX179", f"the workspace's {what} pass flinkx's budget of {budget:,} here "
                      f"({total:,} so far): flinkx reads no more of it",
                      "split the workspace into several (one per team or domain), or drop the tables no task uses")
