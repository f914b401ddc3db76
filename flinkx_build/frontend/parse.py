"""parse: one task file -> `ParsedStatement`s, through sqlfluff's `dataphin` dialect.

The file is split at top-level `;` (`splitter`), each statement is rendered by
sqlfluff's placeholder templater (`template`) and parsed by the `dataphin`
dialect (`dialect`), and the tree is read into plain facts (`extract`). The
sqlfluff tree never leaves this package, so the facts can be cached by content
hash (`cache`) and lint can read the very same facts from its own parse.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache

from sqlfluff.core import Linter
from sqlfluff.core.parser import BaseSegment
from tqdm import tqdm

from flinkx_build.frontend.extract import DATAPHIN_WATERMARK_FUNCTIONS
from flinkx_build.frontend.extract import columns_in
from flinkx_build.frontend.extract import extract_statement
from flinkx_build.frontend.extract import functions_in
from flinkx_build.frontend.explained import explained_statements
from flinkx_build.frontend.fluff import fluff_config
from flinkx_build.frontend.fluff import parse_statement
from flinkx_build.frontend.reserved_stop import first_error
from flinkx_build.frontend.reserved_stop import reserved_stop_message
from flinkx_build.frontend.reserved_stop import reserved_stops
from flinkx_build.frontend.splitter import Chunk
from flinkx_build.frontend.splitter import split_statements
from flinkx_build.frontend.splitter import strip_comments
from flinkx_build.frontend.statements import ColumnRef
from flinkx_build.frontend.statements import FunctionRef
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.frontend.statements import Pos
from flinkx_build.frontend.statements import Span
from flinkx_build.frontend.statements import SyntaxProblem
from flinkx_build.limits import position
from flinkx_build.limits import sql_limit_problem

# sqlfluff's linter makes a (disabled) tqdm bar per lint; tqdm then starts a monitor thread for
# good, and a process with a second thread can no longer fork safely (`frontend/worker.py`).
tqdm.monitor_interval = 0
# tqdm's default lock is a multiprocessing semaphore shared with every process forked after it:
# a parser process killed while making a bar (closed mid-warm-up) left it held, and every later
# bar, in the parent or another worker, waited for it forever (a test run hung so). A lock of
# this process only cannot be held by another.
tqdm.set_lock(threading.RLock())


@lru_cache(maxsize=64)
def _linter(context: tuple[tuple[str, str], ...]) -> Linter:
    return Linter(config=fluff_config(context))


def context_key(context: dict[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(context.items()))


@dataclass
class ParsedChunk:
    chunk: Chunk
    statement: ParsedStatement
    tree: BaseSegment | None


def parse_chunk(chunk: Chunk, index: int, context: dict[str, str]) -> ParsedChunk:
    """Parse one statement; control statements of a statement set skip sqlfluff."""
    if chunk.kind != "statement":
        stmt = ParsedStatement(index, chunk.kind, chunk.text, chunk.text, Pos(chunk.line, chunk.col), chunk.offset)
        stmt.code_pos = Pos(*chunk.code_position)
        stmt.normalized = " ".join(strip_comments(chunk.text).upper().split())
        return ParsedChunk(chunk, stmt, None)
    limit = sql_limit_problem(chunk.text)
    if limit is not None:  # sqlfluff would take minutes or give up: refuse before it starts
        return _refused(chunk, index, limit.offset, f"{limit.message} ({limit.code})")
    explained = explained_statements(chunk)
    if explained is not None:
        return _explain(chunk, index, explained, context)
    try:
        parsed = parse_statement(_linter(context_key(context)), chunk.text, "task.sql")
        # `.tree` asserts; a failed parse has no root variant, only violations
        variant = parsed.root_variant()
        tree = variant.tree if variant is not None else None
        return ParsedChunk(chunk, statement_from_tree(tree, parsed.violations, chunk, index), tree)
    except Exception as exc:  # sqlfluff's parser raises on some inputs: a finding, never a traceback
        return _refused(chunk, index, 0, f"cannot parse statement ({type(exc).__name__} in sqlfluff)")


def _explain(chunk: Chunk, index: int, explained: list[Chunk], context: dict[str, str]) -> ParsedChunk:
    """An EXPLAIN: its statements' first syntax problem, else a statement of kind `other`."""
    for inner in explained:
        problem = parse_chunk(inner, index, context).statement.syntax
        if problem is not None:
            stmt = ParsedStatement(index, "other", chunk.text, chunk.text, Pos(chunk.line, chunk.col), chunk.offset)
            stmt.code_pos, stmt.syntax = Pos(*chunk.code_position), problem
            return ParsedChunk(chunk, stmt, None)
    if not explained:
        return _refused(chunk, index, len(chunk.text.rstrip()), "EXPLAIN needs a query, an INSERT or a statement set")
    stmt = ParsedStatement(index, "other", chunk.text, chunk.text, Pos(chunk.line, chunk.col), chunk.offset)
    stmt.code_pos = Pos(*chunk.code_position)
    stmt.normalized = " ".join(strip_comments(chunk.text).split())
    return ParsedChunk(chunk, stmt, None)


def _refused(chunk: Chunk, index: int, offset: int, message: str) -> ParsedChunk:
    """A statement that is not parsed, with one syntax problem at `offset` of its text."""
    stmt = ParsedStatement(index, "other", chunk.text, chunk.text, Pos(chunk.line, chunk.col), chunk.offset)
    stmt.code_pos = Pos(*chunk.code_position)
    rel_line, rel_col = position(chunk.text, offset)
    stmt.syntax = SyntaxProblem(Pos(*chunk.position(rel_line, rel_col)), message)
    stmt.normalized = " ".join(strip_comments(chunk.text).split())
    return ParsedChunk(chunk, stmt, None)


def statement_from_tree(tree: BaseSegment | None, violations: list, chunk: Chunk, index: int) -> ParsedStatement:
    """Facts of one statement from a sqlfluff tree (shared with lint)."""
    rendered = tree.raw if tree is not None else chunk.text
    stmt = ParsedStatement(index, "other", chunk.text, rendered, Pos(chunk.line, chunk.col), chunk.offset)
    stmt.code_pos = Pos(*chunk.code_position)
    problem = _syntax_problem(tree, violations, chunk)
    if problem:
        stmt.syntax = problem
        stmt.normalized = " ".join(strip_comments(rendered).split())  # no tree: layout only
        return stmt
    assert tree is not None
    extract_statement(tree, chunk, stmt)
    _quoted_watermark_facts(stmt)
    return stmt


_WATERMARK_PREFIX = "SET t.w = "


def _quoted_watermark_facts(stmt: ParsedStatement) -> None:
    """Function calls and columns inside a quoted (3.7) watermark: parse the string's
    content too, so they resolve and get Flink names like anywhere else."""
    option = stmt.set_option
    if option is None or option.parts[-1].lower() != "watermark" or not option.value_quoted:
        return
    if "'" in option.value or "\n" in option.value or option.value_start < 0:
        return  # escapes or line breaks would shift the offsets: leave it to Flink
    inner = Chunk(_WATERMARK_PREFIX + option.value, 0, 1, 1, "statement")
    parsed = parse_statement(_linter(()), inner.text, "watermark.sql")
    variant = parsed.root_variant()  # `.tree` asserts when the value does not parse
    watermark = next(variant.tree.recursive_crawl("dataphin_watermark"), None) if variant and variant.tree else None
    if watermark is None or parsed.violations:
        return
    shift = option.value_start - len(_WATERMARK_PREFIX)  # inner offsets -> statement offsets
    for fref in functions_in(watermark, inner):
        if fref.project or fref.name.lower() not in DATAPHIN_WATERMARK_FUNCTIONS:
            col = option.value_pos.col + 1 + fref.span.start - len(_WATERMARK_PREFIX)  # +1: the quote
            span = Span(fref.span.start + shift, fref.span.end + shift)
            stmt.functions.append(FunctionRef(fref.name, fref.project, fref.qualified, span, Pos(option.value_pos.line, col)))
    stmt.columns.extend(ColumnRef(ref.parts, option.value_pos) for ref in columns_in(watermark, inner))


def _syntax_problem(tree: BaseSegment | None, violations: list, chunk: Chunk) -> SyntaxProblem | None:
    if violations or first_error(tree) is not None:
        # A reserved word that stops the parse is reported at the word, with its fix
        # (rule FX01 reports and fixes the same words in lint and `flinkx fix`).
        stops = reserved_stops(tree)
        if stops:
            line, col = stops[0].segment.pos_marker.source_position()
            return SyntaxProblem(Pos(*chunk.position(line, col)), reserved_stop_message(stops[0].word))
    for violation in violations:
        line, col = getattr(violation, "line_no", 1) or 1, getattr(violation, "line_pos", 1) or 1
        desc = violation.desc() if hasattr(violation, "desc") else str(violation)
        quoted = re.search(r"unparsable section:? '(.*)", desc, re.DOTALL)
        hint = _unparsed_hint(quoted.group(1) if quoted else "", (line, col) == (1, 1), _text_before(chunk.text, line, col))
        return SyntaxProblem(Pos(*chunk.position(line, col)), _clean_message(desc), hint)
    if tree is None:
        return SyntaxProblem(Pos(chunk.line, chunk.col), "cannot parse statement")
    for seg in tree.recursive_crawl("unparsable"):
        line, col = seg.pos_marker.source_position()
        return SyntaxProblem(Pos(*chunk.position(line, col)), f"cannot parse '{_excerpt(seg.raw)}'",
                             _unparsed_hint(seg.raw, (line, col) == (1, 1), chunk.text[:seg.pos_marker.source_slice.start]))
    return None


# words a statement starts with: met unparsed inside a statement, the one before it lacks its ';'
_STATEMENT_STARTS = frozenset({"INSERT", "SELECT", "CREATE", "SET", "BEGIN", "WITH", "DROP", "ALTER", "USE",
                               "EXECUTE", "END", "EXPLAIN", "RESET"})


def _text_before(text: str, line: int, col: int) -> str:
    """What `text` holds before its 1-based (line, col)."""
    lines = text.split("\n")
    return "\n".join(lines[: line - 1] + [lines[line - 1][: col - 1]]) if 0 < line <= len(lines) else ""


def _unparsed_hint(unparsed: str, at_start: bool, before: str) -> str:
    """The fix when what does not parse is a new statement run into the one before it (no ';' between), or
    `GROUPING SET (...)` (seed 001's CUBE example: Flink's parser knows only GROUPING SETS)."""
    words = unparsed.split(None, 1)
    if at_start or not words or words[0].upper().strip("'\"") not in _STATEMENT_STARTS:
        return ""
    if words[0].upper() == "SET" and before.rstrip().upper().endswith("GROUPING"):
        return "write GROUPING SETS: GROUPING SET is not a Flink keyword"
    return f"a ';' is missing at the end of the statement before {words[0].upper()}"


def _clean_message(desc: str) -> str:
    """sqlfluff's message without its own position prefix and grammar dump."""
    desc = re.sub(r"^Line \d+, Position \d+: ", "", desc.splitlines()[0] if desc else "")
    if desc.startswith("Unable to lex characters: ") and "${" in desc:
        return desc + " (a secret renders as ${name}: use it inside a string literal)"
    desc = desc.replace("Found unparsable section", "cannot parse")
    desc = desc.split(". Expected:")[0].split(" Expected:")[0]
    return desc or "syntax error"


def _excerpt(raw: str) -> str:
    one_line = " ".join(raw.split())
    return one_line if len(one_line) <= 40 else one_line[:37] + "..."


def parse_task_text(text: str, context: dict[str, str]) -> list[ParsedChunk]:
    return [parse_chunk(chunk, i, context) for i, chunk in enumerate(split_statements(text))]


def warm_up() -> None:
    """Import sqlfluff and build the dialect: what a parser process does before its first job."""
    parse_statement(_linter(()), "SELECT 1\n", "warm.sql")
