"""FX480: a credential written as a literal value instead of a `${...}` secret.

Seeds 001 and 002: "storing authentication credentials such as usernames and
passwords in code or plaintext poses significant security risks". Which keys
are credentials is decided by the one table in `flinkx_build/credentials.py`;
the literal value is never printed.
"""
from __future__ import annotations

from flinkx_build.credentials import is_credential_key
from flinkx_build.credentials import is_placeholder
from flinkx_build.errors import Diagnostic
from flinkx_build.model import Workspace
from flinkx_build.resolve.model import ResolvedTask
from flinkx_build.semantic.model import TaskModel

CODES = ("FX480",)
HINT = "declare a secret in flinkx.yaml (secrets: [name]) and write '${name}': the deploy step fills it in"


def _literal(key: str, value: str) -> bool:
    return is_credential_key(key) and bool(str(value).strip()) and not is_placeholder(str(value))


def check(ws: Workspace, resolved: ResolvedTask, model: TaskModel) -> list[Diagnostic]:
    path = resolved.task.display_path
    out = []
    for rs in resolved.statements:
        option = rs.parsed.set_option
        if option is not None and option.value_kind == "literal" and _literal(option.parts[-1], option.value):
            out.append(Diagnostic(path, option.value_pos.line, option.value_pos.col, "FX480", f"'{option.parts[-1]}' is set to a literal credential", HINT))
        for ref in rs.parsed.tables:
            for hint in ref.hints:
                for item in hint.items:
                    for key, value in item.options if item.lower == "options" else ():
                        if _literal(key, value):
                            out.append(Diagnostic(path, hint.pos.line, hint.pos.col, "FX480", f"the OPTIONS hint sets '{key}' to a literal credential", HINT))
    return out


def yaml_findings(ws: Workspace) -> list[Diagnostic]:
    """Literal credentials in meta tables' `with:` (and mirror `stream:`/`batch:`) blocks."""
    out = []
    for project in ws.projects.values():
        for tables in project.tables.values():
            for table in tables:
                blocks = [(table.options, table.option_locs), *((opts, table.mode_option_locs.get(mode, {}))
                                                                 for mode, opts in (("stream", table.stream_options), ("batch", table.batch_options)))]
                for options, locs in blocks:
                    for key, value in options.items():
                        if _literal(key, value):
                            loc = locs.get(key, table.loc)
                            out.append(Diagnostic(loc.path, loc.line, loc.col, "FX480", f"'{key}' of {table.key} is a literal credential", HINT))
    return out
