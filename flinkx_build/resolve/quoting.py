"""FX02 in the build: a double-quoted Dataphin SET value or table-hint value.

The sqlfluff rule FX02 reports these in lint; the build must stop on them too, or `SET t.k = "2"`
compiles to `'"2"'` while lint says error (issue 44 case 1). The rule cannot judge a token that a
`${var}` rendered into (its text is not the source's), so this reads the task's source text at the
value: `"grp_${env}"` is reported as written, with the same words as the rule, at the same place
(lint keeps one line per place and code).
"""
from __future__ import annotations

import re

from flinkx_build.errors import Diagnostic
from flinkx_build.frontend.hints import double_quoted_message
from flinkx_build.frontend.hints import double_quoted_strings
from flinkx_build.frontend.statements import Hint
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.limits import offset_of
from flinkx_build.limits import position

_DOUBLE_QUOTED = re.compile(r'"(?:[^"]|"")*"')
CODE = "FX02"


def double_quoted_values(text: str, path: str, statements: list[ParsedStatement]) -> list[Diagnostic]:
    """One FX02 per double-quoted SET value (the watermark's quoting is FX03's) and hint value."""
    found: dict[tuple[int, int], Diagnostic] = {}
    for stmt in statements:
        option = stmt.set_option
        if stmt.kind == "set_option" and option is not None and option.parts[-1].lower() != "watermark" \
                and _DOUBLE_QUOTED.fullmatch(option.value_text.strip()):
            source = _DOUBLE_QUOTED.match(text, offset_of(text, option.value_pos.line, option.value_pos.col))
            if source is not None:
                at = option.value_pos
                found[(at.line, at.col)] = Diagnostic(path, at.line, at.col, CODE, double_quoted_message("SET value", source.group()))
        hints = [h for ref in stmt.tables for h in ref.hints] + list(stmt.select_hints)
        for hint in hints:
            for diag in _hint_values(text, path, hint):
                found[(diag.line, diag.col)] = diag
    return list(found.values())


def _hint_values(text: str, path: str, hint: Hint) -> list[Diagnostic]:
    start = offset_of(text, hint.pos.line, hint.pos.col)
    if not text.startswith("/*+", start):
        return []
    end = text.find("*/", start)
    comment = text[start:len(text) if end < 0 else end + 2]
    out = []
    for offset, token in double_quoted_strings(comment):
        line, col = position(text, start + offset)
        out.append(Diagnostic(path, line, col, CODE, double_quoted_message("hint value", token)))
    return out
