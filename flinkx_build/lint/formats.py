"""Lint output: human, json, sarif (2.1.0) and GitHub workflow commands."""
from __future__ import annotations

import json

from flinkx_build import __version__
from flinkx_build.errors import CODES
from flinkx_build.errors import Diagnostic

FORMATS = ("human", "json", "sarif", "github")


def render(diags: list[Diagnostic], fmt: str) -> str:
    if fmt == "json":
        return json.dumps([_as_dict(d) for d in diags], indent=2)
    if fmt == "sarif":
        return json.dumps(sarif(diags), indent=2)
    if fmt == "github":
        return "\n".join(_github(d) for d in diags)
    return "\n".join(d.format() for d in diags)


def _as_dict(d: Diagnostic) -> dict:
    return {"path": d.path, "line": d.line, "col": d.col, "code": d.code, "severity": d.severity, "message": d.message, "hint": d.hint}


def _escape(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github(d: Diagnostic) -> str:
    level = "error" if d.is_error else "warning"
    message = d.message + (f" ({d.hint})" if d.hint else "")
    return f"::{level} file={d.path},line={d.line},col={d.col},title={d.code}::{_escape(d.code + ' ' + message)}"


def sarif(diags: list[Diagnostic], tool: str = "flinkx") -> dict:
    codes = sorted({d.code for d in diags})
    rules = [{"id": c, "shortDescription": {"text": CODES.get(c, ("", c))[1] or c}} for c in codes]
    results = [
        {
            "ruleId": d.code,
            "level": "error" if d.is_error else "warning",
            "message": {"text": d.message + (f" ({d.hint})" if d.hint else "")},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": d.path}, "region": {"startLine": d.line, "startColumn": d.col}}}],
        }
        for d in diags
    ]
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": tool, "version": __version__, "rules": rules}}, "results": results}],
    }
