"""What `--format json|sarif|github` prints when a command stops before its document.

The contract (README, "Machine-readable output"): with a machine format,
stdout holds one document of that format whatever happens, and the exit code
says the rest. A command that cannot make its own document (findings block
it, a usage or environment problem, an internal error) prints this one
instead, with every finding and the error's text:
- json: `{"findings": [...], "error": "text" | null}`, findings as lint's;
- sarif: a SARIF log whose run holds the findings and, for an error,
  `executionSuccessful: false` with the text as a notification;
- github: one workflow command per finding, and `::error::text`.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING
from typing import Any

if TYPE_CHECKING:
    from flinkx_build.errors import Diagnostic

MACHINE_FORMATS = ("json", "sarif", "github")


def requested_format(args: Sequence[str], command: Any) -> str:
    """The value of `--format` among a command's arguments, if the command has that format ("" otherwise)."""
    value = ""
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--format" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--format="):
            value = arg.partition("=")[2]
    choices = [getattr(p.type, "choices", ()) for p in getattr(command, "params", []) if "--format" in getattr(p, "opts", [])]
    return value if choices and value in choices[0] else ""


def stop_document(fmt: str, diags: list["Diagnostic"], error: str | None) -> str:
    """The whole document for `fmt` (one of MACHINE_FORMATS)."""
    import json  # (imported here: every command imports this module, few stop)

    from flinkx_build.lint.formats import as_dict
    from flinkx_build.lint.formats import github_command
    from flinkx_build.lint.formats import sarif

    if fmt == "json":
        return json.dumps({"findings": [as_dict(d) for d in diags], "error": error}, indent=2)
    if fmt == "sarif":
        log = sarif(diags)
        if error is not None:
            log["runs"][0]["invocations"] = [{
                "executionSuccessful": False,
                "toolExecutionNotifications": [{"level": "error", "message": {"text": error}}],
            }]
        return json.dumps(log, indent=2)
    lines = [github_command(d) for d in diags]
    if error is not None:
        lines.append("::error::" + error.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))
    return "\n".join(lines)
