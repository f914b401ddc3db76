"""Inline `-- noqa` for flinkx's own checks, with sqlfluff's syntax.

sqlfluff already honours `-- noqa` for FX01-FX03; this applies the same
comment to the workspace checks (FX1xx), so one syntax works everywhere.
"""
from __future__ import annotations

import re

from flinkx_build.errors import Diagnostic

# Tried once, at the line's last `--` (no code list holds a `-`, so no earlier `--` can match);
# the code list takes the trailing spaces itself, so no two quantifiers share a run of spaces.
_NOQA = re.compile(r"--\s*+noqa(?:\s*+:(?P<codes>[A-Za-z0-9_,\s]*)|\s*)$", re.IGNORECASE)


def suppressed(text: str, diag: Diagnostic) -> bool:
    lines = text.splitlines()
    if not 1 <= diag.line <= len(lines):
        return False
    line = lines[diag.line - 1]
    m = _NOQA.match(line, max(line.rfind("--"), 0))
    if not m or (m.group("codes") is not None and not m.group("codes").strip()):
        return False  # `-- noqa:` with no code after it suppresses nothing
    codes = m.group("codes")
    if not codes:
        return True
    return diag.code.upper() in {c.strip().upper() for c in codes.split(",")}
