"""Implementation of Rule FX03."""
from __future__ import annotations

import re
from typing import Optional
from typing import Union

from sqlfluff.core.parser import BaseSegment
from sqlfluff.core.parser import Lexer
from sqlfluff.core.parser import LiteralSegment
from sqlfluff.core.parser import Parser
from sqlfluff.core.rules import BaseRule
from sqlfluff.core.rules import LintFix
from sqlfluff.core.rules import LintResult
from sqlfluff.core.rules import RuleContext
from sqlfluff.core.rules.crawlers import SegmentSeekerCrawler

QUOTED_FROM = (3, 7)  # Dataphin 3.7 and above: single quotes are required.


def parse_version(value: Union[str, int, float, None]) -> tuple[int, ...]:
    """``3.7`` / ``"3.7"`` / ``"v3.10"`` / ``"3.10.0"`` -> a tuple of ints."""
    text = str(value if value is not None else "").strip()
    match = re.fullmatch(r"[vV]?(\d+(?:\.\d+)*)", text)
    if not match:
        raise ValueError(f"FX03: cannot read dataphin_version {value!r} (expected e.g. 3.7, 3.6 or v3.10)")
    return tuple(int(p) for p in match.group(1).split("."))


def quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def unquote(raw: str) -> str:
    """The text of a single-quoted flink literal (``''`` and ``\\'`` undone)."""
    return re.sub(r"''|\\'", "'", raw[1:-1])


def _target_option(statement: BaseSegment) -> Optional[str]:
    target = next((s for s in statement.segments if s.is_type("dataphin_set_target")), None)
    if target is None:
        return None
    parts = [s for s in target.segments if s.is_code and not s.is_type("dot")]
    if not parts:
        return None
    raw = parts[-1].raw
    if raw.startswith("`") and raw.endswith("`"):
        raw = raw[1:-1].replace("``", "`")
    return raw


def _value(statement: BaseSegment) -> Optional[BaseSegment]:
    code = [s for s in statement.segments if s.is_code]
    for i, seg in enumerate(code):
        if seg.is_type("comparison_operator"):
            rest = code[i + 1 :]
            return rest[0] if len(rest) == 1 else None
    return None


def _quoted_literal(value: BaseSegment) -> Optional[BaseSegment]:
    """The single-quoted literal that is the whole value, if it is one."""
    seg = value
    while seg.is_type("expression"):
        code = [s for s in seg.segments if s.is_code]
        if len(code) != 1:
            return None
        seg = code[0]
    if seg.is_type("quoted_literal") and seg.raw.startswith("'"):
        return seg
    return None


def _unpositioned(segment: BaseSegment) -> BaseSegment:
    """A copy of a parsed subtree with no position markers, ready to insert."""
    if segment.segments:
        children = tuple(_unpositioned(s) for s in segment.segments)
        new = segment.copy(segments=children)
        new.pos_marker = None
        return new
    new = segment.copy()
    new.pos_marker = None
    return new


def _parse_watermark(context: RuleContext, text: str) -> Optional[BaseSegment]:
    """Parse ``WATERMARK FOR ...`` as the value of a Dataphin SET, or None."""
    sql = "SET t.`watermark` = " + text
    try:
        tokens, errors = Lexer(config=context.config).lex(sql)
        if errors:
            return None
        tree = Parser(config=context.config).parse(tokens)
    except Exception:  # pragma: no cover - a fix is optional, never fatal
        return None
    if tree is None or "unparsable" in tree.descendant_type_set:
        return None
    statement = next(tree.recursive_crawl("dataphin_set_statement"), None)
    value = _value(statement) if statement is not None else None
    if value is None or not value.is_type("dataphin_watermark"):
        return None
    return _unpositioned(value)


class Rule_FX03(BaseRule):
    """Dataphin watermark SET value must be quoted as the Dataphin version wants.

    Dataphin sets a table's watermark at task level with ``SET``. From
    Dataphin 3.7 the value is a single-quoted string; Dataphin 3.6 wants the
    bare ``WATERMARK FOR ... AS ...`` clause. The version comes from the
    ``dataphin_version`` setting (default ``3.7``). The fix quotes (doubling
    inner single quotes) or unquotes the value.

    **Anti-pattern**

    On Dataphin 3.7 and later, the 3.6 form without quotes.

    .. code-block:: sql

        SET sls_stream.`watermark`= WATERMARK FOR ts AS withOffset(ts, 1000);

    **Best practice**

    On Dataphin 3.7 and later, single quotes are required.

    .. code-block:: sql

        SET sls_stream.`watermark`= 'WATERMARK FOR ts AS withOffset(ts, 1000)';

    On Dataphin 3.6 (``dataphin_version = 3.6``) it is the other way round:
    the quoted form is the anti-pattern and the bare clause is correct.
    """

    groups = ("all", "flinkx")
    config_keywords = ["dataphin_version"]
    crawl_behaviour = SegmentSeekerCrawler({"dataphin_set_statement"})
    is_fix_compatible = True

    def _eval(self, context: RuleContext) -> Optional[LintResult]:
        statement = context.segment
        option = _target_option(statement)
        if option is None or option.lower() != "watermark":
            return None
        value = _value(statement)
        if value is None:
            return None
        version = parse_version(self.dataphin_version)  # type: ignore[attr-defined]
        shown = ".".join(str(p) for p in version)
        # A value that came out of `${var}` may carry its own quotes: skip it.
        if not all(s.pos_marker and s.pos_marker.is_literal() for s in value.raw_segments):
            return None
        literal = _quoted_literal(value)

        if version >= QUOTED_FROM:
            if literal is not None:
                return None
            fixes = []
            if not any(s.is_comment for s in value.raw_segments):
                fixes = [LintFix.replace(value, [_literal(quote(value.raw))])]
            return LintResult(
                anchor=value,
                fixes=fixes,
                description=(
                    f"Dataphin {shown}: the value of SET ...`watermark` must be "
                    "single-quoted (Dataphin 3.7 and above)."
                ),
            )

        if literal is None:
            return None
        fixes = []
        parsed = _parse_watermark(context, unquote(literal.raw))
        if parsed is not None:
            fixes = [LintFix.replace(value, [parsed])]
        return LintResult(
            anchor=value,
            fixes=fixes,
            description=(
                f"Dataphin {shown}: the value of SET ...`watermark` must not be "
                "quoted (Dataphin 3.6 takes the bare WATERMARK FOR ... clause)."
            ),
        )


def _literal(raw: str) -> LiteralSegment:
    return LiteralSegment(raw=raw, instance_types=("quoted_literal", "literal", "single_quote"))
