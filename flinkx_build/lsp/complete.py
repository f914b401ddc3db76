"""Completion: projects, tables, columns, functions and variables at the cursor.

What kind of name the cursor is on comes from the front-end itself: the word
being typed is replaced by a placeholder identifier, the statement is parsed
and resolved like any other, and the placeholder shows up as a table part, a
column part, a function name or a SET target part. Only `${` and `proj:`,
which are not SQL, are recognised from the text before the cursor.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from flinkx_build.credentials import mask_value
from flinkx_build.flink_data import builtin_functions
from flinkx_build.frontend.parse import parse_chunk
from flinkx_build.frontend.splitter import Chunk
from flinkx_build.frontend.splitter import split_statements
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.limits import offset_of
from flinkx_build.variables import render
from flinkx_build.lsp.analysis import TaskAnalysis
from flinkx_build.lsp.locate import definition_for_qualifier
from flinkx_build.lsp.locate import table_definitions
from flinkx_build.resolve.analysed import AnalysedStatement
from flinkx_build.resolve.analysed import TableDef
from flinkx_build.resolve.task import resolve_task

PLACEHOLDER = "flinkx_cursor_zz"
_VARIABLE_START = re.compile(r"\$\{[A-Za-z0-9_.]*$")
# Searched in the line before the cursor: the look-behinds let a name start only where a run
# of name characters starts, or every character of a long run would scan the rest of it.
_PROJECT_CALL = re.compile(r"(\$\{[A-Za-z_][A-Za-z0-9_.]*\}|(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*+):[A-Za-z0-9_]*+$")
_QUALIFIER = re.compile(r"(\$\{[A-Za-z_][A-Za-z0-9_.]*\}|`[^`]+`|(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*+)\.$")
_WORD = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z0-9_]*+$")
_WORD_AFTER = re.compile(r"[A-Za-z0-9_]*")


@dataclass(frozen=True)
class Candidate:
    label: str
    kind: str  # project | table | column | function | variable
    detail: str = ""


def completions(analysis: TaskAnalysis, text: str, line: int, col: int) -> list[Candidate] | None:
    """Candidates at the cursor in `text` (the buffer now); None when `analysis` is of a text too
    different (statements added or removed since): the caller analyses the buffer and asks again.

    An analysis of a few keystrokes ago is enough, which keeps completion as fast as one
    statement's parse while typing.
    """
    cursor = offset_of(text, line, col)
    before = text[text.rfind("\n", 0, cursor) + 1:cursor]
    if _VARIABLE_START.search(before):
        return _variables(analysis)
    call = _PROJECT_CALL.search(before)
    if call and _project_name(analysis, call.group(1)) is not None:
        return _project_functions(analysis, _project_name(analysis, call.group(1)))
    word = _WORD.search(before).group(0)
    start = cursor - len(word)
    end = _WORD_AFTER.match(text, cursor).end()  # the whole word the cursor is in
    chunks = split_statements(text[:start] + PLACEHOLDER + text[end:])
    if len(chunks) != len(analysis.statements) and text != analysis.task.text:
        return None
    index = next((i for i, c in enumerate(chunks) if c.offset <= start <= c.offset + len(c.text)), None)
    if index is None:
        return []
    probe = _probe(analysis, chunks[index], index)
    if probe is not None:
        found = _from_facts(analysis, probe)
        if found is not None:
            return found
    return _from_text(analysis, before[: len(before) - len(word)], index)


def _probe(analysis: TaskAnalysis, chunk: Chunk, index: int) -> AnalysedStatement | None:
    """The statement holding the placeholder, parsed and resolved with the task's other statements."""
    parsed = parse_chunk(chunk, index, analysis.context).statement
    if parsed.syntax is not None:
        return None
    statements: list[ParsedStatement] = list(analysis.statements)
    if index < len(statements):
        statements[index] = parsed
    else:
        statements.append(parsed)
        index = len(statements) - 1
    session = analysis.session
    resolved = resolve_task(session.workspace, analysis.task, statements, session.mode)
    return resolved.statements[index]


def _from_facts(analysis: TaskAnalysis, rs: AnalysedStatement) -> list[Candidate] | None:
    stmt = rs.parsed
    for ref in stmt.tables:
        if PLACEHOLDER in ref.parts:
            return _table_position(analysis, ref.parts[: ref.parts.index(PLACEHOLDER)], stmt)
    for column in stmt.columns:
        if PLACEHOLDER in column.parts:
            at = column.parts.index(PLACEHOLDER)
            if at == 0:
                return _read_columns(rs)
            definition = definition_for_qualifier(rs, column.parts[at - 1])
            return _columns([definition] if definition else [])
    for fref in stmt.functions:
        if fref.name == PLACEHOLDER:
            if fref.project:
                return _project_functions(analysis, fref.project)
            return _project_functions(analysis, analysis.task.project) + _builtins(analysis.session.workspace.config.flink_version)
    option = stmt.set_option
    if option is not None and PLACEHOLDER in option.parts[:2]:
        return _table_position(analysis, option.parts[: option.parts.index(PLACEHOLDER)], stmt)
    return None


def _from_text(analysis: TaskAnalysis, before: str, index: int) -> list[Candidate]:
    """The statement does not parse yet: `qualifier.` against what the last parse of it knows."""
    qualifier = _QUALIFIER.search(before)
    name = render(qualifier.group(1), analysis.context).strip("`") if qualifier else None
    if name in analysis.session.workspace.projects:
        return _tables_of(analysis, name)
    statements = analysis.resolved.statements
    rs = statements[index] if index < len(statements) and statements[index].parsed.syntax is None else analysis.last_parsed.get(index)
    if rs is None:
        return []
    if name is None:
        return _read_columns(rs)
    definition = definition_for_qualifier(rs, name)
    return _columns([definition] if definition else [])


def _read_columns(rs: AnalysedStatement) -> list[Candidate]:
    """A bare name in a query: the columns of the tables it reads (not of the INSERT target)."""
    return _columns([d for ref, d in table_definitions(rs) if ref.role != "write"])


def _table_position(analysis: TaskAnalysis, qualifiers: list[str], stmt: ParsedStatement) -> list[Candidate]:
    ws = analysis.session.workspace
    if len(qualifiers) == 1:
        return _tables_of(analysis, qualifiers[0]) if qualifiers[0] in ws.projects else []
    if qualifiers:
        return []
    out = [Candidate(name, "project", project.description.strip().split("\n")[0]) for name, project in sorted(ws.projects.items())]
    out += _tables_of(analysis, analysis.task.project)
    earlier = [s for s in analysis.statements if s.index < stmt.index]
    out += [Candidate(s.defines, "table", "defined in this task") for s in earlier if s.kind in ("create_table", "create_view") and s.defines]
    out += [Candidate(name, "table", "WITH query") for name in stmt.ctes]
    return out


def _tables_of(analysis: TaskAnalysis, project: str) -> list[Candidate]:
    proj = analysis.session.workspace.projects.get(project)
    if proj is None:
        return []
    out = []
    for name, tables in sorted(proj.tables.items()):
        kinds = "/".join(sorted(f"{t.type} {t.kind}" for t in tables))
        out.append(Candidate(name, "table", f"{project}.{name}: {kinds}"))
    return out


def _columns(definitions: list[TableDef]) -> list[Candidate]:
    out, seen = [], set()
    for definition in definitions:
        for column in definition.columns:
            if column.name.lower() in seen:
                continue
            seen.add(column.name.lower())
            what = f"AS {column.expression}" if column.expression else column.type
            out.append(Candidate(column.name, "column", f"{what} ({definition.table.key})"))
    return out


def _project_functions(analysis: TaskAnalysis, project: str) -> list[Candidate]:
    proj = analysis.session.workspace.projects.get(project)
    if proj is None:
        return []
    return [Candidate(fn.name, "function", f"{fn.key} -> {fn.returns}") for fn in sorted(proj.functions.values(), key=lambda f: f.name)]


def _builtins(flink_version: str) -> list[Candidate]:
    return [Candidate(name, "function", f"Flink {flink_version} built-in") for name in sorted(builtin_functions(flink_version))]


def _variables(analysis: TaskAnalysis) -> list[Candidate]:
    ws = analysis.session.workspace
    out = []
    for name, value in sorted(analysis.context.items()):
        if name in ws.config.secrets:
            detail = "secret (deploy-time)"
        elif value in ws.projects:
            detail = f"project {value}"
        else:
            detail = str(mask_value(name, value))  # a password kept as a plain variable stays hidden
        out.append(Candidate(name, "variable", detail))
    return out


def _project_name(analysis: TaskAnalysis, written: str) -> str | None:
    name = render(written, analysis.context)
    return name if name in analysis.session.workspace.projects else None
