"""Flink's errors as findings: trimmed to their meaning, in compiled-file coordinates.

Pure Python, so testable without a JVM: the driver sends each statement's exception chain as text.
Flink reports positions relative to the statement it was given ("From line 2, column 8 to
line 2, column 10: Column 'x' not found"); `to_compiled` maps them into the compiled file.
"""
from __future__ import annotations

import re

from flinkx_build.validate.contract import CompiledStatement

_POS_PREFIX = re.compile(
    r"^(?:From line (\d+), column (\d+) to line \d+, column \d+|At line (\d+), column (\d+))"
    r"\s*:\s*")
_POS_ANY = re.compile(r"\bline (\d+), column (\d+)")
_WRAPPERS = ("SQL validation failed.", "SQL parse failed.")
_JAVA_CLASS_PREFIX = re.compile(r"^(?:[a-z_$][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error)\s*:\s*")
_STACK_LINE = re.compile(r"^\s*(?:at [\w$.<>]+\(|\.\.\. \d+ more|Caused by:)")
MAX_MESSAGE = 600


def _clean(message: str) -> tuple[str, tuple[int, int] | None]:
    """One exception's message: wrappers, stack lines and long expectation lists removed,
    joined into one line; the first statement-relative position it names."""
    text = message.strip()
    position: tuple[int, int] | None = None
    changed = True
    while changed:
        changed = False
        for wrapper in _WRAPPERS:
            if text.startswith(wrapper):
                text = text[len(wrapper):].lstrip()
                changed = True
        stripped = _JAVA_CLASS_PREFIX.sub("", text, count=1)
        if stripped != text:
            text, changed = stripped, True
        match = _POS_PREFIX.match(text)
        if match:
            nums = [int(n) for n in match.groups() if n is not None]
            position = position or (nums[0], nums[1])
            text, changed = text[match.end():], True
    kept: list[str] = []
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if _STACK_LINE.match(line):
            break
        if line.startswith("Was expecting"):
            options = [o.strip().rstrip(" .") for o in lines[index + 1:] if o.strip()]
            if 0 < len(options) <= 5:
                kept.append(line.rstrip(":") + ": " + ", ".join(options))
            break
        if line.strip():
            kept.append(line.strip())
    text = " ".join(kept)
    if position is None:
        match = _POS_ANY.search(text)
        if match:
            position = (int(match.group(1)), int(match.group(2)))
    return text, position


def summarize(messages: list[str]) -> tuple[str, tuple[int, int] | None]:
    """Flink's meaning from an exception chain (outermost first): the outer message plus any
    cause that adds something (e.g. "Could not execute CreateTable ..." + the real reason)."""
    parts: list[str] = []
    position: tuple[int, int] | None = None
    for message in messages:
        if not message:
            continue
        text, pos = _clean(message)
        position = position or pos
        if text and not any(text in part for part in parts) and len(parts) < 3:
            parts = [p for p in parts if p not in text] + [text]
    summary = " -- ".join(parts) or "Flink rejected the statement (no message)"
    if len(summary) > MAX_MESSAGE:
        summary = summary[:MAX_MESSAGE - 3] + "..."
    return summary, position


def to_compiled(stmt: CompiledStatement, line: int, col: int) -> tuple[int, int]:
    """A position relative to the statement text -> the compiled file."""
    if line <= 1:
        return stmt.line, stmt.col + max(col, 1) - 1
    return stmt.line + line - 1, col


def relocate_message(stmt: CompiledStatement, message: str) -> str:
    """Rewrite 'line N, column M' inside a message to compiled-file coordinates."""

    def repl(match: re.Match[str]) -> str:
        line, col = to_compiled(stmt, int(match.group(1)), int(match.group(2)))
        return f"line {line}, column {col}"

    return _POS_ANY.sub(repl, message)


_NOT_FOUND = (
    re.compile(r"Object '([^']+)' not found"),
    re.compile(r"Cannot find table '([^']+)'"),
    re.compile(r"Table (?:\(or view\) )?[`'\"]?([\w.`]+?)[`'\"]? (?:was not found|does not exist)"),
)
_NO_FUNCTION = re.compile(r"No match found for function signature ([\w$]+)\(")


def missing_objects(message: str) -> tuple[set[str], set[str]]:
    """(tables, functions) a message says are missing, lower-case last name parts; used to
    drop errors that only repeat an earlier failed CREATE."""
    tables = {m.group(1).replace("`", "").split(".")[-1].lower()
              for rx in _NOT_FOUND for m in rx.finditer(message)}
    functions = {m.group(1).lower() for m in _NO_FUNCTION.finditer(message)}
    return tables, functions


_COMMENT = re.compile(r"--[^\n]*|/\*.*?\*/", re.DOTALL)
# the task's comments above a statement are part of its text: a CREATE after them is still a CREATE. Possessive
# (`*+`, never given back: CREATE starts with none of them): `(\s+|--...)*` backtracked exponentially over many
# blank lines or a '-- -----' banner before a statement that is not a CREATE (measured: 22 blanks, 0.33 s)
_CREATED_NAME = re.compile(
    r"^(?:\s|--[^\n]*|/\*.*?\*/)*+CREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMPORARY\s+)?(?:TABLE|VIEW)\s+"
    r"(?:IF\s+NOT\s+EXISTS\s+)?([`\w.]+)", re.IGNORECASE | re.DOTALL)


def statement_sql(stmt: CompiledStatement) -> str:
    """The statement as handed to Flink: a stray trailing ';' would be a syntax error there.
    Only the end is trimmed, so positions Flink reports stay relative to stmt.text."""
    return stmt.text.rstrip().rstrip(";").rstrip()


def is_comment_only(text: str) -> bool:
    return not _COMMENT.sub("", text).strip(" \t\r\n;")


def created_name(text: str) -> str | None:
    """Lower-case name of the table or view a CREATE statement makes (last part), else None."""
    match = _CREATED_NAME.match(text)
    return match.group(1).replace("`", "").split(".")[-1].lower() if match else None
