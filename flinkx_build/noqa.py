"""Inline `-- noqa` for flinkx's own checks, with sqlfluff's syntax.

sqlfluff already honours `-- noqa` for FX01-FX03; this applies the same
comment to the workspace checks (FX1xx), so one syntax works everywhere.
"""
from __future__ import annotations

import re

from flinkx_build.errors import Diagnostic

_NOQA = re.compile(r"--\s*noqa(?:\s*:\s*(?P<codes>[A-Za-z0-9_,\s]+))?\s*$", re.IGNORECASE)


def suppressed(text: str, diag: Diagnostic) -> bool:
    lines = text.splitlines()
    if not 1 <= diag.line <= len(lines):
        return False
    m = _NOQA.search(lines[diag.line - 1])
    if not m:
        return False
    codes = m.group("codes")
    if not codes:
        return True
    return diag.code.upper() in {c.strip().upper() for c in codes.split(",")}
