"""Lint output: human, json, sarif (2.1.0) and GitHub workflow commands.

Every code links to its section of docs/error-codes.md (`help_url`): JSON's
`help`, SARIF's `helpUri`. The base is `FLINKX_DOCS_URL` when set, else the
"Error codes" URL of the installed package (pyproject's [project.urls]), so
a team that hosts flinkx elsewhere points the links at its own copy.
"""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path

from flinkx_build import __version__
from flinkx_build.errors import CODES
from flinkx_build.errors import Diagnostic

FORMATS = ("human", "json", "sarif", "github")
DOCS_URL_ENV = "FLINKX_DOCS_URL"
FALLBACK_DOCS_URL = "docs/error-codes.md"  # repository-relative, when the package carries no URL


@lru_cache(maxsize=1)
def _package_docs_url() -> str:
    from importlib import metadata  # (slow to import: only for the formats that link codes)

    try:
        urls = metadata.metadata("flinkx-build").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return FALLBACK_DOCS_URL
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip().lower() == "error codes" and url.strip():
            return url.strip()
    return FALLBACK_DOCS_URL


def help_url(code: str) -> str:
    """The docs/error-codes.md section of `code` (its heading's anchor: `#fx106`)."""
    base = os.environ.get(DOCS_URL_ENV) or _package_docs_url()
    return f"{base.split('#')[0]}#{code.lower()}"


def render(diags: list[Diagnostic], fmt: str) -> str:
    if fmt == "json":
        return json.dumps([as_dict(d) for d in diags], indent=2)
    if fmt == "sarif":
        return json.dumps(sarif(diags), indent=2)
    if fmt == "github":
        return "\n".join(github_command(d) for d in diags)
    return "\n".join(d.format() for d in diags)


def as_dict(d: Diagnostic) -> dict:
    return {
        "path": d.path, "line": d.line, "col": d.col, "code": d.code, "severity": d.severity,
        "message": d.message, "hint": d.hint, "fixable": d.fixable, "help": help_url(d.code),
    }


def _escape_data(text: str) -> str:
    """A workflow command's message (after `::`)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    """A workflow command's property value (`file=...`): also `:` and `,`, which end it."""
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_command(d: Diagnostic) -> str:
    """`::error file=..,line=..,col=..,title=CODE::message (hint)`: the code once, as the title."""
    level = {"error": "error", "info": "notice"}.get(d.severity, "warning")
    props = {"file": d.path, "line": str(d.line), "col": str(d.col), "title": d.code}
    head = ",".join(f"{key}={_escape_property(value)}" for key, value in props.items())
    message = d.message + (f" ({d.hint})" if d.hint else "")
    return f"::{level} {head}::{_escape_data(message)}"


def _sarif_level(severity: str) -> str:
    return {"error": "error", "info": "note"}.get(severity, "warning")


def _artifact(path: str) -> dict:
    """A relative path is relative to where flinkx ran (the repository root in CI): %SRCROOT%."""
    if os.path.isabs(path):
        return {"uri": Path(path).as_uri()}
    return {"uri": Path(path).as_posix(), "uriBaseId": "%SRCROOT%"}


def sarif(diags: list[Diagnostic], tool: str = "flinkx") -> dict:
    codes = sorted({d.code for d in diags})
    rules = [
        {"id": c, "shortDescription": {"text": CODES.get(c, ("", c))[1] or c}, "helpUri": help_url(c),
         "defaultConfiguration": {"level": _sarif_level(CODES.get(c, ("error",))[0])}}
        for c in codes
    ]
    index = {c: i for i, c in enumerate(codes)}
    results = [
        {
            "ruleId": d.code,
            "ruleIndex": index[d.code],
            "level": _sarif_level(d.severity),
            "message": {"text": d.message + (f" ({d.hint})" if d.hint else "")},
            "locations": [{"physicalLocation": {"artifactLocation": _artifact(d.path), "region": {"startLine": d.line, "startColumn": d.col}}}],
        }
        for d in diags
    ]
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": tool, "version": __version__, "rules": rules}}, "results": results}],
    }
