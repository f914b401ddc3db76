"""Implementation of Rule FX02."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Optional

from sqlfluff.core.parser import BaseSegment
from sqlfluff.core.parser import LiteralSegment
from sqlfluff.core.rules import BaseRule
from sqlfluff.core.rules import LintFix
from sqlfluff.core.rules import LintResult
from sqlfluff.core.rules import RuleContext
from sqlfluff.core.rules.crawlers import SegmentSeekerCrawler

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
    ``CREATE FUNCTION``. The fix writes the text in single quotes, doubling
    any single quote inside.

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
    crawl_behaviour = SegmentSeekerCrawler(OPTION_STATEMENTS)
    is_fix_compatible = True

    def _eval(self, context: RuleContext) -> Optional[list[LintResult]]:
        statement = context.segment
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
