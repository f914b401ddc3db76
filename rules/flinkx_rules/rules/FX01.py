"""Implementation of Rule FX01."""
from __future__ import annotations

from typing import Optional

from sqlfluff.core.parser import BaseSegment
from sqlfluff.core.parser import IdentifierSegment
from sqlfluff.core.rules import BaseRule
from sqlfluff.core.rules import LintFix
from sqlfluff.core.rules import LintResult
from sqlfluff.core.rules import RuleContext
from sqlfluff.core.rules.crawlers import SegmentSeekerCrawler

from flinkx_build.flink_data import reserved_words
from flinkx_build.flink_data import DEFAULT_VERSION
from flinkx_build.frontend.dialect_flink120 import FLINK_BARE_COLUMN_WORDS
from flinkx_build.frontend.reserved_stop import reserved_stop_message
from flinkx_build.frontend.reserved_stop import reserved_stops
from flinkx_build.resolve.sets import FLINK_CONFIG_PREFIXES

# Option names Dataphin wants backticked after `SET [proj.]tbl.` (seed 000),
# whatever Flink's list says about them.
SET_TARGET_WORDS = frozenset({"WATERMARK", "PARTITION"})

# Reserved, but Flink reads them as the column when they stand alone in an expression
# (`SELECT user FROM t`, `GROUP BY user`); `t.user`, `AS user` and definitions fail.
BARE_COLUMN_WORDS = frozenset(FLINK_BARE_COLUMN_WORDS)

# Parents under which a naked word is not a Flink identifier.
_SKIP_PARENTS = ("function_name", "dataphin_function_project")


def backticked(raw: str) -> IdentifierSegment:
    """A back-quoted identifier typed the way sqlfluff's flink lexer types one."""
    return IdentifierSegment(
        raw="`" + raw.replace("`", "``") + "`",
        instance_types=("quoted_identifier", "identifier", "back_quote"),
    )


def _neighbours(
    stack: tuple[BaseSegment, ...], segment: BaseSegment
) -> tuple[Optional[BaseSegment], Optional[BaseSegment]]:
    """The code segments just before and after `segment` in the whole tree."""
    before = after = None
    child = segment
    for parent in reversed(stack):
        idx = next(i for i, s in enumerate(parent.segments) if s is child)
        if before is None:
            before = next((s for s in reversed(parent.segments[:idx]) if s.is_code), None)
        if after is None:
            after = next((s for s in parent.segments[idx + 1 :] if s.is_code), None)
        if before is not None and after is not None:
            break
        child = parent
    return before, after


def _alone_in_expression(stack: tuple[BaseSegment, ...], segment: BaseSegment) -> bool:
    """A one-part column reference (`user`, not `t.user`)."""
    parent = stack[-1] if stack else None
    return parent is not None and parent.is_type("column_reference") and [s for s in parent.segments if s.is_code] == [segment]


def _misparsed(stack: tuple[BaseSegment, ...], segment: BaseSegment) -> bool:
    """Whether sqlfluff's reading of this word as an identifier is doubtful.

    * Right before an unparsable section: a function or keyword sqlfluff did
      not know (``CEIL(ts TO HOUR)``, ``WITHIN GROUP``).
    * A lone word inside a function's brackets that is not set off by commas
      or keywords: special call syntax such as ``JSON_OBJECT(KEY 'a' VALUE x)``,
      where sqlfluff reads every word as a column.
    """
    _, after = _neighbours(stack, segment)
    if after is not None and after.is_type("unparsable"):
        return True
    # The expression directly inside a function's bracket, if we are one.
    for i in range(len(stack) - 1, 1, -1):
        if stack[i].is_type("expression") and stack[i - 1].is_type("bracketed"):
            if not stack[i - 2].is_type("function_contents"):
                return False
            if stack[i].raw.strip() != segment.raw:
                return False
            before, after = _neighbours(stack[:i], stack[i])
            separators = ("comma", "start_bracket", "end_bracket", "keyword")
            return any(n is not None and not n.is_type(*separators) for n in (before, after))
    return False


class Rule_FX01(BaseRule):
    """Flink reserved word used as an identifier must be backtick-quoted.

    Flink reserves hundreds of words (``VALUE``, ``COUNT``, ``TIMESTAMP``,
    ``POSITION``, ``USER`` ...). Written bare as a column name, alias, table
    name or Dataphin ``SET`` target, they make Flink's parser fail although
    sqlfluff parses most of them as ordinary identifiers. "If you use these
    strings as field names, wrap them in backticks, for example `value`,
    `count`." Dataphin likewise wants the option names ``watermark`` and
    ``partition`` backticked in ``SET [project.]table.option = ...``.

    Words Flink's parser rejects are always reported. Words Flink only
    documents as reserved are reported with ``include_warnings = True``;
    single letters (``A``, ``C``, ``G``, ``K``, ``M``) only with
    ``flag_single_letters = True``. Function names (``COUNT(*)``,
    ``YEAR(ts)``) and keywords (``PRIMARY KEY``, a ``TIMESTAMP`` type) are
    not identifiers and are never reported.

    **Anti-pattern**

    Reserved words used bare as column names and in a ``SET`` target.

    .. code-block:: sql

        CREATE TABLE page_views (
            value BIGINT,
            count INT
        ) WITH ('connector' = 'datagen');

        SELECT value, count FROM page_views;

        SET kafkaTable.partition = 'ds=20180905';

    **Best practice**

    Quote them with backticks.

    .. code-block:: sql

        CREATE TABLE page_views (
            `value` BIGINT,
            `count` INT
        ) WITH ('connector' = 'datagen');

        SELECT `value`, `count` FROM page_views;

        SET kafkaTable.`partition` = 'ds=20180905';
    """

    groups = ("all", "flinkx")
    config_keywords = ["include_warnings", "flag_single_letters", "flink_version"]
    crawl_behaviour = SegmentSeekerCrawler(
        {"naked_identifier", "dataphin_set_part", "unparsable"}, works_on_unparsable=True
    )
    is_fix_compatible = True

    def _eval(self, context: RuleContext) -> Optional[LintResult] | list[LintResult]:
        segment = context.segment
        if segment.is_type("unparsable"):
            return _stopping_words(context)
        if any(p.is_type("unparsable") for p in context.parent_stack):
            return None  # inside a failed parse, only the stopping words are reported
        raw = segment.raw
        if not raw or not segment.pos_marker:
            return None
        # A word that came out of `${var}` is not the author's to quote here.
        if not segment.pos_marker.is_literal():
            return None
        if any(p.is_type(*_SKIP_PARENTS) for p in context.parent_stack):
            return None

        word = raw.upper()
        if word in BARE_COLUMN_WORDS and _alone_in_expression(context.parent_stack, segment):
            return None  # Flink reads it as the column
        in_set_target = segment.is_type("dataphin_set_part")
        if in_set_target and _flink_configuration(context.parent_stack):
            return None  # `SET table.exec.x = v`: Flink configuration, whose key Flink's parser takes unquoted
        if not in_set_target and _flink_configuration_value(context.parent_stack):
            return None  # `SET table.sql-dialect = default`: Flink's parser takes the value as text
        level = reserved_words(_target(self)).get(word.upper())
        dataphin_word = in_set_target and word in SET_TARGET_WORDS
        if dataphin_word:
            level = "error"
        if level is None:
            return None
        if level == "warning" and not self.include_warnings:  # type: ignore[attr-defined]
            return None
        if level == "warning" and context.parent_stack[-1].is_type("named_argument"):
            return None  # TVF parameter names as Flink documents them: SIZE => ..., DATA => ...
        if len(word) == 1 and not self.flag_single_letters:  # type: ignore[attr-defined]
            return None

        if in_set_target:
            what = "Dataphin SET target"
        else:
            what = "identifier"
        if dataphin_word:
            strength = "Dataphin requires backticks for it in SET (seed: SET tbl.`watermark`)"
        elif level == "error":
            strength = "Flink rejects it unquoted"
        else:
            strength = "a keyword of Flink's parser, which reads it unquoted today"

        if _misparsed(context.parent_stack, segment):
            return None
        return _quote(segment, backticked(raw), what, f"{strength}.")


def _target(rule: BaseRule) -> str:
    """The rule's `flink_version` setting ('v2.3' -> '2.3'); the default when unset."""
    value = str(getattr(rule, "flink_version", "") or DEFAULT_VERSION)
    return value[1:] if value[:1] in "vV" else value


def _flink_configuration(parents: tuple[BaseSegment, ...]) -> bool:
    """The SET target starts with a Flink configuration prefix (`resolve/sets.py`; a meta table of
    that name, which the resolver would pick instead, is not known to a rule without the workspace)."""
    target = next((p for p in reversed(parents) if p.is_type("dataphin_set_target")), None)
    first = next((s for s in target.segments if s.is_code), None) if target is not None else None
    return first is not None and first.is_type("dataphin_set_part") and first.raw.lower() in FLINK_CONFIG_PREFIXES


def _flink_configuration_value(parents: tuple[BaseSegment, ...]) -> bool:
    """A word in the value of a Flink configuration SET (its target was checked by `_flink_configuration`)."""
    statement = next((p for p in reversed(parents) if p.is_type("dataphin_set_statement")), None)
    target = next((s for s in statement.segments if s.is_type("dataphin_set_target")), None) if statement is not None else None
    return target is not None and _flink_configuration((target,))


def _quote(segment: BaseSegment, quoted: BaseSegment, what: str, reason: str, description: str = "") -> LintResult:
    """The finding for one word, its fix replacing it by `quoted`."""
    word = segment.raw
    return LintResult(
        anchor=segment,
        fixes=[LintFix.replace(segment, [quoted])],
        description=description or f"Reserved word {word!r} used as {what} must be backtick-quoted (`{word}`): {reason}",
    )


def _stopping_words(context: RuleContext) -> list[LintResult]:
    """Reserved words that make the statement unparsable (`SELECT partition AS p FROM t`).

    Looked for once per file, from its first unparsable section. The fix keeps
    the word's segment class (only its text gains backticks), so sqlfluff
    applies it although the tree around it did not parse.
    """
    root = context.parent_stack[0] if context.parent_stack else context.segment
    if next(root.recursive_crawl("unparsable"), None) is not context.segment:
        return []
    # the build's words for the same word at the same place (lint prints one line for both)
    return [
        _quote(stop.segment, stop.segment.edit(raw="`" + stop.word + "`"), "identifier", "", reserved_stop_message(stop.word))
        for stop in reserved_stops(root)
    ]

