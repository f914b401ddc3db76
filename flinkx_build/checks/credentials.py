"""FX480: a credential written as a literal value instead of a `${...}` secret.

Seeds 001 and 002: "storing authentication credentials such as usernames and
passwords in code or plaintext poses significant security risks". Which keys
are credentials is decided by the one table in `flinkx_build/credentials.py`;
the literal value is never printed.
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.credentials import is_credential_key
from flinkx_build.credentials import is_placeholder
from flinkx_build.errors import Diagnostic
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.limits import position
from flinkx_build.limits import sql_tokens
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.workspace_model import Workspace

HINT = "declare a secret in flinkx.yaml (secrets: [name]) and write '${name}': the deploy step fills it in"


def _literal(key: str, value: str) -> bool:
    return is_credential_key(key) and bool(str(value).strip()) and not is_placeholder(str(value))


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    path = analysed.task.display_path
    out = []
    for rs in analysed.statements:
        option = rs.parsed.set_option
        if option is not None and option.value_kind == "literal" and _literal(option.parts[-1], option.value):
            out.append(Diagnostic(path, option.value_pos.line, option.value_pos.col, "FX480", f"'{option.parts[-1]}' is set to a literal credential", HINT))
        if rs.parsed.kind == "create_table":
            for key, line, col in _ddl_literal_credentials(rs.parsed):
                out.append(Diagnostic(path, line, col, "FX480", f"'{key}' of task-local table {rs.parsed.defines} is a literal credential", HINT))
        for ref in rs.parsed.tables:
            for hint in ref.hints:
                for item in hint.items:
                    for key, value in item.options if item.lower == "options" else ():
                        if _literal(key, value):
                            out.append(Diagnostic(path, hint.pos.line, hint.pos.col, "FX480", f"the OPTIONS hint sets '{key}' to a literal credential", HINT))
    return out


def _ddl_literal_credentials(stmt: ParsedStatement) -> list[tuple[str, int, int]]:
    """(key, file line, file col of the value) of each `'key' = 'literal'` pair of a task-local
    CREATE TABLE's WITH (...) whose key is a credential. The parsed facts keep no DDL options,
    so the statement's tokens are read: quoted strings and comments are whole tokens, so a
    pair inside a comment or a string is not taken for one."""
    tokens = [m for m in sql_tokens(stmt.source) if not m.group().startswith(("--", "/*"))]
    found = []
    for key, equals, value in zip(tokens, tokens[1:], tokens[2:]):
        if equals.group() != "=" or key.group()[:1] != "'" or value.group()[:1] != "'":
            continue
        name, literal = _unquote(key.group()), _unquote(value.group())
        if _literal(name, literal):
            rel_line, rel_col = position(stmt.source, value.start())
            line, col = (stmt.pos.line, stmt.pos.col + rel_col - 1) if rel_line == 1 else (stmt.pos.line + rel_line - 1, rel_col)
            found.append((name, line, col))
    return found


def _unquote(token: str) -> str:
    inner = token[1:-1] if len(token) > 1 and token.endswith("'") else token[1:]
    return inner.replace("''", "'")


def yaml_findings(ws: Workspace) -> list[Diagnostic]:
    """Literal credentials in meta tables' `with:` (and mirror `stream:`/`batch:`) blocks."""
    return [Diagnostic(loc.path, loc.line, loc.col, "FX480", f"'{key}' of {table.key} is a literal credential", HINT)
            for project in ws.projects.values() for tables in project.tables.values() for table in tables
            for key, value, loc in table.written_options() if _literal(key, value)]


CHECK = Check("credentials", (CheckCode("FX480", "literal-credential"),), check)
