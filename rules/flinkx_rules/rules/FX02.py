"""Implementation of Rule FX02."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from sqlfluff.core.parser import BaseSegment
from sqlfluff.core.parser import CommentSegment
from sqlfluff.core.parser import LiteralSegment
from sqlfluff.core.parser import PositionMarker
from sqlfluff.core.rules import BaseRule
from sqlfluff.core.rules import LintFix
from sqlfluff.core.rules import LintResult
from sqlfluff.core.rules import RuleContext
from sqlfluff.core.rules.crawlers import SegmentSeekerCrawler

from flinkx_build.frontend.hints import double_quoted_message
from flinkx_build.frontend.hints import double_quoted_strings

# Statements whose `WITH (...)` holds connector/catalog/function options.
OPTION_STATEMENTS = {
    "create_table_statement",
    "create_catalog_statement",
    "create_database_statement",
    "create_function_statement",
}


def single_quoted(text: str) -> LiteralSegment:
    """A single-quoted string literal typed the way the flink lexer types one."""
    return LiteralSegment(
        raw="'" + text.replace("'", "''") + "'",
        instance_types=("quoted_literal", "literal", "single_quote"),
    )


def is_single_quoted(part: Sequence[BaseSegment]) -> bool:
    return (
        len(part) == 1
        and part[0].is_type("quoted_literal")
        and part[0].raw.startswith("'")
    )


def option_text(part: Sequence[BaseSegment]) -> str:
    """What a key or value means, without its own quoting."""
    if len(part) == 1:
        seg = part[0]
        raw = seg.raw
        if seg.is_type("dataphin_double_quoted_option") and len(raw) >= 2:
            return raw[1:-1].replace('""', '"').replace('\\"', '"')
        if seg.is_type("quoted_identifier") and raw.startswith("`") and len(raw) >= 2:
            return raw[1:-1].replace("``", "`")
        if seg.is_type("quoted_literal") and raw.startswith('"') and len(raw) >= 2:
            return raw[1:-1].replace('""', '"')
    return "".join(s.raw for s in part)


def option_entries(bracket: BaseSegment) -> list[tuple[list[BaseSegment], list[BaseSegment]]]:
    """(key segments, value segments) per `key = value` entry of a WITH bracket."""
    entries = []
    current: list[BaseSegment] = []
    code = [s for s in bracket.segments if s.is_code and not s.is_type("start_bracket", "end_bracket")]
    for seg in code + [None]:  # type: ignore[operator]
        if seg is None or seg.is_type("comma"):
            ops = [i for i, s in enumerate(current) if s.is_type("comparison_operator", "double_equals")]
            if ops:
                entries.append((current[: ops[0]], current[ops[0] + 1 :]))
            current = []
        else:
            current.append(seg)
    return entries


class Rule_FX02(BaseRule):
    """WITH option keys and values must be single-quoted strings.

    Flink reads ``WITH (...)`` as ``'key' = 'value'`` pairs of string
    literals: "Fields in the with parameter can only be enclosed in single
    quotes" ("with参数中字段只能使用单引号，不能使用双引号"). Double-quoted
    strings, back-quoted or bare keys (legacy Blink ``type = 'datagen'``,
    ``bootstrap.servers = ...``) and bare numbers or booleans are rejected.
    Checked in ``CREATE TABLE``, ``CREATE CATALOG``, ``CREATE DATABASE`` and
    ``CREATE FUNCTION``; a double-quoted value of a Dataphin ``SET`` and of a
    table hint (``OPTIONS('k'="v")``, which Flink's parser rejects) too. The
    fix writes the text in single quotes, doubling any single quote inside.

    **Anti-pattern**

    Legacy Blink bare keys, a double-quoted value and a bare number.

    .. code-block:: sql

        CREATE TABLE hbase_output (
            rk VARCHAR,
            f BIGINT
        ) WITH (
            type = 'alihbase',
            'table-name' = "blink_hbase_test",
            'sink.buffer-flush.max-rows' = 500
        );

    **Best practice**

    Single-quote every key and every value.

    .. code-block:: sql

        CREATE TABLE hbase_output (
            rk VARCHAR,
            f BIGINT
        ) WITH (
            'type' = 'alihbase',
            'table-name' = 'blink_hbase_test',
            'sink.buffer-flush.max-rows' = '500'
        );
    """

    groups = ("all", "flinkx")
    crawl_behaviour = SegmentSeekerCrawler(OPTION_STATEMENTS | {"dataphin_set_statement", "block_comment"})
    is_fix_compatible = True

    def _eval(self, context: RuleContext) -> Optional[list[LintResult]]:
        statement = context.segment
        if statement.is_type("dataphin_set_statement"):
            return _set_value(statement)
        if statement.is_type("block_comment"):
            return _hint_values(statement)
        code = [s for s in statement.segments if s.is_code]
        results: list[LintResult] = []
        for prev, seg in zip(code, code[1:]):
            if not (prev.is_type("keyword") and prev.raw.upper() == "WITH" and seg.is_type("bracketed")):
                continue
            for key, value in option_entries(seg):
                for role, part in (("key", key), ("value", value)):
                    if part and not is_single_quoted(part):
                        result = self._result(role, part)
                        if result is not None:
                            results.append(result)
        return results or None

    @staticmethod
    def _result(role: str, part: list[BaseSegment]) -> Optional[LintResult]:
        # Text that came out of `${var}` may carry its own quotes: not ours to judge.
        if not all(s.pos_marker and s.pos_marker.is_literal() for p in part for s in p.raw_segments):
            return None
        replacement = single_quoted(option_text(part))
        written = "".join(s.raw for s in part)
        fixes = [LintFix.replace(part[0], [replacement])]
        fixes += [LintFix.delete(s) for s in part[1:]]
        return LintResult(
            anchor=part[0],
            fixes=fixes,
            description=(
                f"WITH option {role} {written} must be a single-quoted string: "
                f"{replacement.raw}."
            ),
        )


def _set_value(statement: BaseSegment) -> Optional[list[LintResult]]:
    """`SET t.`sink.parallelism` = "2"`: the compiler would pass the quotes on as part of the
    value (`'"2"'`); the fix single-quotes it, as in WITH. The watermark's quoting is FX03's."""
    code = [s for s in statement.segments if s.is_code]
    target = next((s for s in code if s.is_type("dataphin_set_target")), None)
    if target is None or target.raw.rsplit(".", 1)[-1].strip("`").lower() == "watermark":
        return None
    value = code[-1]
    raws = [s for s in value.raw_segments if s.is_code]
    if len(raws) != 1 or not raws[0].raw.startswith('"') or not raws[0].pos_marker or not raws[0].pos_marker.is_literal():
        return None
    token = raws[0]
    replacement = single_quoted(_double_quoted_text(token.raw))
    return [LintResult(
        anchor=token,
        fixes=[LintFix.replace(token, [replacement])],
        description=double_quoted_message("SET value", token.raw),
    )]


def _hint_values(comment: BaseSegment) -> Optional[list[LintResult]]:
    """`/*+ OPTIONS('k'="v") */`: Flink's parser rejects a double-quoted hint value. One finding
    per value, one fix rewriting the hint with each value single-quoted."""
    raw = comment.raw
    if not raw.startswith("/*+") or not comment.pos_marker or not comment.pos_marker.is_literal():
        return None
    found = double_quoted_strings(raw)
    if not found:
        return None
    fixed, last = [], 0
    for offset, token in found:
        fixed += [raw[last:offset], single_quoted(_double_quoted_text(token)).raw]
        last = offset + len(token)
    fixed.append(raw[last:])
    fix = LintFix.replace(comment, [CommentSegment(raw="".join(fixed), type="block_comment")])
    results = []
    for n, (offset, token) in enumerate(found):
        results.append(LintResult(
            anchor=_at_offset(comment, offset, len(token)),
            fixes=[fix] if n == 0 else [],
            description=double_quoted_message("hint value", token),
        ))
    return results


def _at_offset(comment: BaseSegment, offset: int, length: int) -> BaseSegment:
    """A stand-in segment for the finding's position: the token inside the comment, not its start."""
    marker = comment.pos_marker
    source = slice(marker.source_slice.start + offset, marker.source_slice.start + offset + length)
    templated = slice(marker.templated_slice.start + offset, marker.templated_slice.start + offset + length)
    return CommentSegment(raw=comment.raw[offset:offset + length], type="block_comment",
                          pos_marker=PositionMarker(source, templated, marker.templated_file))


def _double_quoted_text(token: str) -> str:
    return token[1:-1].replace('""', '"')
