"""A reserved word that stops the parse: find it, so it is reported at the word.

`SELECT partition AS src_partition FROM t` does not parse (Flink's parser rejects
it too): sqlfluff's `unparsable` section starts somewhere near the word, or even
at the statement's first character (`CREATE TABLE t (user STRING)`). Reporting
"cannot parse" there does not tell the author what to do. When a statement does
not parse, this module tries backtick-quoting the words that Flink rejects
unquoted and that the `dataphin` dialect reserves, nearest to the error first;
if quoting makes the statement parse, those words are the problem, and rule
FX01 (and the build's syntax message) point at each of them.

It only runs on statements that failed to parse, and stops after a few
re-parses, so a clean workspace pays nothing for it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from sqlfluff.core import FluffConfig
from sqlfluff.core import Linter
from sqlfluff.core.parser import BaseSegment

from flinkx_build.flink_data import rejected_in_any_version
from flinkx_build.frontend import dialect
from flinkx_build.frontend.fluff import parse_statement

MAX_PARSES = 12  # re-parses per statement, all words together
MAX_REPARSED_CHARS = 60_000  # and at most this much text re-parsed (long statements get fewer tries)
MAX_WORDS = 3  # reserved words quoted in one statement before giving up
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# The statement skeleton: nobody names a column so, and the dialect is lenient enough
# that quoting one can make a broken statement "parse" (`SELECT FROM WHERE`).
_SKELETON = frozenset(
    "SELECT FROM WHERE GROUP BY ORDER HAVING JOIN ON AS AND OR NOT INSERT INTO CREATE TABLE WITH "
    "UNION INTERSECT EXCEPT ALL DISTINCT CASE WHEN THEN ELSE END IN IS NULL LIKE BETWEEN EXISTS "
    "INNER CROSS NATURAL USING SET VALUES INTERVAL CAST TRUE FALSE FOR OF".split()
)


@dataclass(frozen=True)
class ReservedStop:
    """One word that must be backtick-quoted for the statement to parse."""

    segment: BaseSegment  # the word's raw segment in the failed tree
    start: int  # offset of the word in the parsed (rendered) text
    word: str


@lru_cache(maxsize=1)
def _reparser() -> Linter:
    # The text is already rendered (`${var}` substituted): no templater needed.
    dialect.register()
    config = FluffConfig(
        configs={
            "core": {
                "dialect": dialect.DIALECT_NAME,
                "templater": "raw",
                "large_file_skip_byte_limit": 0,
                "use_rust_parser": False,
            }
        },
        overrides={"dialect": dialect.DIALECT_NAME},
    )
    return Linter(config=config)


@lru_cache(maxsize=1)
def _stopping_words() -> frozenset[str]:
    """Words Flink rejects unquoted that the dialect cannot read as identifiers.

    The parse does not know the workspace's target (one dialect reads every version's SQL), so
    the words any supported version rejects: whether quoting one makes sqlfluff parse is a
    question about the dialect; FX01 then judges the word by the target's list."""
    from sqlfluff.core.dialects import dialect_selector

    dialect.register()
    reserved = dialect_selector(dialect.DIALECT_NAME).sets("reserved_keywords")
    return frozenset(
        w for w in rejected_in_any_version() if w in reserved and w not in _SKELETON
    )


def first_error(tree: BaseSegment | None) -> int | None:
    """Offset of the first unparsable character of a parsed text, None if it parsed.

    A tree that is None (sqlfluff gave up) counts as an error at offset 0.
    """
    if tree is None:
        return 0
    bad = next(tree.recursive_crawl("unparsable"), None)
    return None if bad is None else bad.pos_marker.templated_slice.start


def _error_after_quoting(text: str, starts: frozenset[int]) -> tuple[int, int] | None:
    """(start, end) of the first unparsable section once the words at `starts` are quoted,
    in the unquoted text's offsets; None if the text then parses."""
    quoted = text
    for start in sorted(starts, reverse=True):
        word = _WORD.match(quoted, start)
        if word is None:
            return 0, len(text)
        quoted = quoted[:start] + "`" + word.group() + "`" + quoted[word.end() :]
    try:
        parsed = parse_statement(_reparser(), quoted, "reserved.sql")
    except Exception:  # noqa: BLE001 - sqlfluff can assert on odd input: not parsable
        return 0, len(text)
    # not `parsed.tree`: it asserts when the text did not lex (a quote the quoting left open)
    variant = parsed.root_variant()
    tree = variant.tree if variant is not None else None
    bad = next(tree.recursive_crawl("unparsable"), None) if tree is not None else None
    if bad is None:
        return (0, len(text)) if parsed.violations or tree is None else None  # it did not even lex

    def unquoted(offset: int) -> int:  # two backticks per quoted word before the offset
        return offset - 2 * sum(1 for s in starts if s < offset)

    return unquoted(bad.pos_marker.templated_slice.start), unquoted(bad.pos_marker.templated_slice.stop)


def _candidates(tree: BaseSegment) -> list[ReservedStop]:
    # Offsets are counted along the raw segments, not read from their position
    # markers: in a tree that sqlfluff's fix loop has edited those are stale.
    words = _stopping_words()
    found = []
    offset = 0
    for raw in tree.raw_segments:
        start, offset = offset, offset + len(raw.raw)
        if not raw.is_code or raw.raw.upper() not in words or not _WORD.fullmatch(raw.raw):
            continue
        if raw.pos_marker is None or not raw.pos_marker.is_literal():
            continue  # a word from `${var}` is not the author's to quote here
        found.append(ReservedStop(raw, start, raw.raw))
    return found


def reserved_stops(tree: BaseSegment | None) -> list[ReservedStop]:
    """The reserved words whose quoting makes this failed parse succeed, else [].

    Greedy: try the candidates nearest to the first error; take the one that
    makes the statement parse, else the one that moves the error furthest, and
    go on from there (a statement may hold more than one such word).
    """
    if tree is None or first_error(tree) is None:
        return []
    text = tree.raw
    candidates = _candidates(tree)
    if text not in _FOUND:
        if len(_FOUND) > 256:
            _FOUND.clear()
        _FOUND[text] = _search(text, _first_span(tree), candidates)
    at = {c.start: c for c in candidates}
    return [at[start] for start in _FOUND[text] if start in at]


# The search's result per statement text: lint asks twice (rule FX01, then the build's
# syntax message) for the same statement.
_FOUND: dict[str, tuple[int, ...]] = {}


def _first_span(tree: BaseSegment) -> tuple[int, int] | None:
    """The first unparsable section of `tree`; a fresh parse if sqlfluff's fix loop edited it
    (then the position markers are stale) - None if the text now parses."""
    templated = tree.pos_marker.templated_file.templated_str if tree.pos_marker else None
    bad = next(tree.recursive_crawl("unparsable"), None)
    if templated == tree.raw and bad is not None:
        return bad.pos_marker.templated_slice.start, bad.pos_marker.templated_slice.stop
    return _error_after_quoting(tree.raw, frozenset())


def _search(text: str, span: tuple[int, int] | None, pending: list[ReservedStop]) -> tuple[int, ...]:
    if span is None:
        return ()  # it parses as it is now (sqlfluff's fix loop quoted the words already)
    pending = list(pending)
    chosen: list[ReservedStop] = []
    budget = min(MAX_PARSES, MAX_REPARSED_CHARS // max(len(text), 1))
    while pending and len(chosen) < MAX_WORDS and budget > 0:
        error, end = span
        # the words inside the unparsable section, and the one just before it
        before = [c for c in pending if c.start < error][-1:]
        near = sorted(before + [c for c in pending if error <= c.start < end], key=lambda c: (abs(c.start - error), c.start))
        best: tuple[tuple[int, int], ReservedStop] | None = None
        for candidate in near:
            if budget <= 0:
                break
            budget -= 1
            starts = frozenset(c.start for c in chosen) | {candidate.start}
            after = _error_after_quoting(text, starts)
            if after is None:
                return tuple(sorted(starts))
            if after[0] > error and (best is None or after[0] > best[0][0]):
                best = (after, candidate)
        if best is None:
            return ()
        span = best[0]
        chosen.append(best[1])
        pending.remove(best[1])
    return ()


def reserved_stop_message(word: str) -> str:
    """The build's message for a word that stops the parse (rule FX01 reports the same word)."""
    return (f"reserved word {word!r} used as an identifier must be backtick-quoted (`{word}`): "
            f"Flink rejects it unquoted (`flinkx fix` quotes it)")


_STOP_MESSAGE = re.compile(r"reserved word '[A-Za-z_][A-Za-z0-9_]*' used as an identifier must be backtick-quoted ")


def syntax_code(message: str) -> str:
    """The FX code of a statement's syntax problem: FX01 for a stopping reserved word, else FX120.

    Read from the message so the code survives the parse cache unchanged.
    """
    return "FX01" if _STOP_MESSAGE.match(message) else "FX120"
