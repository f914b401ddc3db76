"""Pure-Python half of validation: connector policy, Flink message trimming, coordinates.

No PyFlink here, so all of it is testable without a JVM.

The stand-in connector (java/src/flinkx/standin) plays every real connector. What it must know
about the real one is only its changelog behaviour, decided here from the connector name and
format, and passed to it as table options.
"""
from __future__ import annotations

import re
from typing import Mapping

from flinkx_build.validate.contract import CompiledStatement

STANDIN = "flinkx-standin"
ORIGINAL_KEY = "flinkx.original-connector"
SOURCE_CHANGELOG_KEY = "flinkx.source-changelog"
SINK_CHANGELOG_KEY = "flinkx.sink-changelog"

# Formats that carry a changelog (inserts, updates, deletes) inside an append-only transport.
CHANGELOG_FORMATS = frozenset({
    "debezium-json", "debezium-avro-confluent", "canal-json", "maxwell-json", "ogg-json",
    "changelog-csv",
})
# Sinks that can only append: an update stream into them fails in real Flink, and must fail
# here too. Unknown connectors are assumed to accept updates: a missed error costs less than
# a build blocked by a false one.
APPEND_ONLY_SINKS = frozenset({
    "kafka", "filesystem", "odps", "maxcompute", "datahub", "sls", "loghub", "pulsar",
    "kinesis", "firehose", "rocketmq", "metaq", "hive", "dis", "obs", "socket", "tt",
})
# Sinks that take any change (no key needed).
ALL_CHANGES_SINKS = frozenset({"print", "blackhole"})


def _formats(options: Mapping[str, str]) -> set[str]:
    return {options[k].lower() for k in ("format", "value.format") if k in options}


def original_connector(options: Mapping[str, str]) -> str:
    """The connector a table really uses, also when the options were already swapped (LIKE)."""
    connector = options.get("connector", "")
    if connector == STANDIN:
        return options.get(ORIGINAL_KEY, "unknown")
    # Legacy descriptors ('connector.type' / 'type') still name a connector.
    return (connector or options.get("connector.type") or options.get("type") or "unknown").lower()


def source_changelog(connector: str, options: Mapping[str, str]) -> str:
    """insert | upsert | all: what the real connector emits when read."""
    if connector == "upsert-kafka":
        return "upsert"
    if connector.endswith("-cdc") or _formats(options) & CHANGELOG_FORMATS:
        return "all"
    return "insert"


def sink_changelog(connector: str, options: Mapping[str, str]) -> str:
    """insert | upsert | all: what the real connector accepts (upsert falls back to all
    when the table has no primary key; the stand-in decides that)."""
    if connector in ALL_CHANGES_SINKS or _formats(options) & CHANGELOG_FORMATS:
        return "all"
    if connector in APPEND_ONLY_SINKS:
        return "insert"
    return "upsert"


def swap_connector(options: Mapping[str, str]) -> dict[str, str]:
    """Table options with the connector replaced by the stand-in; all other options are kept
    (the stand-in validates none) and the original is recorded for messages."""
    connector = original_connector(options)
    swapped = dict(options)
    swapped["connector"] = STANDIN
    swapped[ORIGINAL_KEY] = connector
    swapped[SOURCE_CHANGELOG_KEY] = source_changelog(connector, options)
    swapped[SINK_CHANGELOG_KEY] = sink_changelog(connector, options)
    return swapped


# --- Flink messages ------------------------------------------------------------------------

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
