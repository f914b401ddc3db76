"""FX197: a workspace writes a table option that is flinkx's own, or changes a table's connector after it is defined.

flinkx plans and tests every table on its stand-in connector; the `flinkx.*` options tell the stand-in what
the table really is (its connector, its changelog) and, in `flinkx test`, which fixture rows to serve and
where to collect (issue 41: an OPTIONS hint that set `flinkx.fixture-rows` made a broken task pass its test;
`ALTER TABLE ... SET ('connector' = ...)` with a `RESET` of the `flinkx.*` keys replaced the stand-in, and
planning opened a path the task chose). So no `flinkx.*` key may be written anywhere in a workspace (a meta
table's `with:`, a task's SET, an OPTIONS hint, a task-local CREATE TABLE, ALTER TABLE), and an OPTIONS hint may
not change a task-local table's connector (on a meta table that is FX160): a hint acts inside the query, where
flinkx cannot put the stand-in back. `ALTER TABLE t SET ('connector' = ...)` is Flink SQL that Flink accepts
(Flink's own SQL-client tests, in the real-SQL corpus, do it): it is no finding, and the driver puts the table
back on the stand-in after the statement. A refusal like FX195/FX196: no command hands such a statement to
Flink. The planner driver refuses the same statements again on Flink's parse of them
(planner/java/.../StatementGuard.java).
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.connectors import CONNECTOR_KEYS
from flinkx_build.connectors import reserved_option
from flinkx_build.errors import Diagnostic
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.limits import position
from flinkx_build.limits import sql_tokens
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.workspace_model import Workspace

CODE = "FX197"
RESERVED_HINT = "remove it: flinkx sets its own options on its stand-ins, a workspace never does"
CONNECTOR_HINT = "choose the connector where the table is defined (its meta table's type and with:, or the CREATE TABLE)"


def _reserved(key: str) -> str:
    return f"'{key}' is an option flinkx reserves for its stand-ins (flinkx.*): a workspace may not write it"


def _connector(key: str, where: str) -> str:
    return f"{where} may not change '{key}': a table's connector is chosen where the table is defined"


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    path = analysed.task.display_path
    out: dict[tuple[int, int], Diagnostic] = {}
    for rs in analysed.statements:
        parsed = rs.parsed
        option = parsed.set_option
        if parsed.kind == "set_option" and option is not None and reserved_option(option.parts[-1]):
            out.setdefault((option.pos.line, option.pos.col), Diagnostic(
                path, option.pos.line, option.pos.col, CODE, _reserved(option.parts[-1]), RESERVED_HINT))
        for ref, bound in rs.table_refs():
            for hint in ref.hints:
                for item in hint.items:
                    for key, _ in item.options if item.lower == "options" else ():
                        # a meta table's connector is locked already (FX160 says so at the hint)
                        connector = key.strip().lower() in CONNECTOR_KEYS and bound.kind != "meta"
                        message = _reserved(key) if reserved_option(key) else _connector(key, "an OPTIONS hint") if connector else ""
                        if message:
                            out.setdefault((hint.pos.line, hint.pos.col), Diagnostic(
                                path, hint.pos.line, hint.pos.col, CODE, message,
                                RESERVED_HINT if reserved_option(key) else CONNECTOR_HINT))
        for key, line, col, message in _ddl_keys(parsed):
            out.setdefault((line, col), Diagnostic(path, line, col, CODE, message,
                                                   RESERVED_HINT if reserved_option(key) else CONNECTOR_HINT))
    return list(out.values())


def _ddl_keys(stmt: ParsedStatement) -> list[tuple[str, int, int, str]]:
    """(key, file line, file col, message) of each `flinkx.*` key a CREATE TABLE or ALTER TABLE writes: read from
    the statement's tokens (the parsed facts keep no DDL options; quoted strings
    and comments are whole tokens, so a key inside a comment or a string is not taken for one)."""
    tokens = [m for m in sql_tokens(stmt.source) if not m.group().startswith(("--", "/*"))]
    words = [t.group().upper() for t in tokens[:2]]
    altering = words == ["ALTER", "TABLE"]
    if not altering and stmt.kind != "create_table":
        return []
    found = []
    for i, token in enumerate(tokens):
        text = token.group()
        if text[:1] != "'":
            continue
        before = tokens[i - 1].group() if i else ""
        after = tokens[i + 1].group() if i + 1 < len(tokens) else ""
        if after != "=" and not (altering and before in ("(", ",")):  # a key: before '=', or in RESET's list
            continue
        key = text[1:-1].replace("''", "'") if len(text) > 1 and text.endswith("'") else text[1:]
        if not reserved_option(key):
            continue
        message = _reserved(key)
        rel_line, rel_col = position(stmt.source, token.start())
        line, col = (stmt.pos.line, stmt.pos.col + rel_col - 1) if rel_line == 1 else (stmt.pos.line + rel_line - 1, rel_col)
        found.append((key, line, col, message))
    return found


def yaml_findings(ws: Workspace) -> list[Diagnostic]:
    """`flinkx.*` keys in meta tables' `with:` (and mirror `stream:`/`batch:`) blocks, at the key."""
    return [Diagnostic(loc.path, loc.line, loc.col, CODE, _reserved(key), RESERVED_HINT)
            for project in ws.projects.values() for tables in project.tables.values() for table in tables
            for key, _, loc in table.written_options() if reserved_option(key)]

CHECK = Check("reserved options", (CheckCode(CODE, "reserved-option"),), check, page="error-codes.md", flink_finds_it=False)
