"""resolve: bind every table, function and SET of a parsed task."""
from __future__ import annotations

import re

from flinkx_build.engines import ENGINE_ONLY_OPTIONS
from flinkx_build.engines import engine as engine_named
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import did_you_mean
from flinkx_build.flink_data import builtin_functions
from flinkx_build.flink_data import quote_identifier
from flinkx_build.frontend.splitter import strip_comments
from flinkx_build.limits import offset_of
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.frontend.statements import Pos
from flinkx_build.frontend.statements import TableRef
from flinkx_build.resolve.analysed import AnalysedStatement
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.resolve.analysed import BoundFunction
from flinkx_build.resolve.analysed import BoundTable
from flinkx_build.resolve.analysed import FunctionUse
from flinkx_build.resolve.analysed import TableUse
from flinkx_build.resolve.effective import METADATA_KEYS
from flinkx_build.resolve.effective import effective_definition
from flinkx_build.resolve.effective import locked_hint
from flinkx_build.resolve.effective import locked_options
from flinkx_build.resolve.names import choose_candidate
from flinkx_build.resolve.names import did_not_load
from flinkx_build.resolve.names import find_function
from flinkx_build.resolve.names import find_table
from flinkx_build.resolve.quoting import double_quoted_values
from flinkx_build.resolve.sets import collect_settings
from flinkx_build.resolve.sets import is_flink_config
from flinkx_build.workspace_model import MetaTable
from flinkx_build.workspace_model import Task
from flinkx_build.workspace_model import Workspace

MRS_HINTS = {"distributeby", "late_data_sink"}


def resolve_task(ws: Workspace, task: Task, parsed: list[ParsedStatement], mode: str | None = None) -> AnalysedTask:
    mode = mode or ws.config.mode
    path = task.display_path
    diags: list[Diagnostic] = []
    for stmt in parsed:
        if stmt.syntax:
            from flinkx_build.frontend.client_statements import client_statement
            from flinkx_build.frontend.reserved_stop import syntax_code  # sqlfluff: only for a broken statement

            code = syntax_code(stmt.syntax.message)  # FX01: a reserved word stops the parse
            client = client_statement(stmt.source) if code == "FX120" else None
            if client is not None:  # Flink's parser takes it; a job does not
                at = stmt.code_pos or stmt.pos
                diags.append(Diagnostic(path, at.line, at.col, code, client.message, client.hint))
                continue
            unknown = unknown_table_word(ws, task, stmt.syntax.pos) if code == "FX01" else None
            if unknown is not None:  # `ods.user` for `ods.users`: an unknown table first, not "quote the word"
                diags.append(unknown)
                continue
            diags.append(Diagnostic(path, stmt.syntax.pos.line, stmt.syntax.pos.col, code, stmt.syntax.message, stmt.syntax.hint))
    diags.extend(double_quoted_values(task.text, path, parsed))
    settings, table_types = collect_settings(ws, task.project, parsed, path, diags)
    statements = [AnalysedStatement(p) for p in parsed]
    resolved = AnalysedTask(task, statements, {}, {}, set(), set(), {}, diags, mode=mode)

    # Pass 1: what each reference denotes (local names are visible after their CREATE).
    local_tables: set[str] = set()
    local_functions: set[str] = set()
    databases: set[str] = set()  # Flink databases the task creates or uses: `db.tbl` is Flink's, not `project.tbl`
    # catalogs the task creates with a factory that is not Flink's (FX195 refuses the CREATE): after `USE CATALOG`
    # of one, a name is that catalog's table, which no flinkx command sees; "unknown table" would be a cascade
    unseen_catalogs: set[str] = set()
    in_unseen_catalog = False
    meta_refs: list[tuple[AnalysedStatement, TableRef, MetaTable]] = []
    firsts = first_uses(parsed)
    in_set = None  # the BEGIN STATEMENT SET that is open
    for rs in statements:
        stmt = rs.parsed
        rs.in_statement_set = in_set is not None
        if stmt.kind == "begin_statement_set":
            if in_set is not None:
                diags.append(Diagnostic(path, stmt.pos.line, stmt.pos.col, "FX120", "BEGIN STATEMENT SET inside an open statement set"))
            in_set = stmt
        elif stmt.kind == "end":
            if in_set is None:
                diags.append(Diagnostic(path, stmt.pos.line, stmt.pos.col, "FX120", "END without BEGIN STATEMENT SET"))
            in_set = None
        elif stmt.kind == "set_option":
            rs.emit = stmt.set_option is not None and is_flink_config(ws, task.project, stmt.set_option)
        databases |= task_database(stmt)
        catalog = task_catalog(stmt)
        if catalog is not None and stmt.loads_code:
            unseen_catalogs.add(catalog[1])
        elif catalog is not None and catalog[0] == "use":
            in_unseen_catalog = catalog[1] in unseen_catalogs
        for ref in stmt.tables:
            if in_unseen_catalog and ref.name not in stmt.ctes and ref.name not in local_tables:
                rs.tables.append(BoundTable("external", ".".join(ref.parts)))
                continue
            rs.tables.append(_bind_table(ws, task, stmt, ref, local_tables, table_types, firsts, meta_refs, rs, diags, databases))
        if stmt.kind in ("create_table", "create_view") and stmt.defines:
            local_tables.add(stmt.defines)
        if stmt.query is not None and stmt.query.renamed_to:  # ALTER TABLE t RENAME TO u
            local_tables.add(stmt.query.renamed_to)
        if stmt.kind == "create_function" and stmt.defines:
            local_functions.add(stmt.defines.lower())
            if not stmt.loads_code:  # LANGUAGE PYTHON, USING JAR: FX195 refuses the statement, one finding
                diags.append(_undeclared_function(task, stmt))
        for fref in stmt.functions:
            rs.functions.append(_bind_function(ws, task, fref, local_functions, resolved, diags))

    if in_set is not None:
        diags.append(Diagnostic(path, in_set.pos.line, in_set.pos.col, "FX120", "BEGIN STATEMENT SET is not closed by END;"))
    _name_tables(resolved, meta_refs, local_tables)
    _name_functions(resolved, ws.config.flink_version)
    _rename_in_computed_columns(settings, statements, resolved, ws.config.flink_version)
    # Pass 2: effective definitions, one DDL per distinct definition.
    for rs, ref, table in meta_refs:
        used = _columns_used(rs.parsed, ref, table)
        resolved.columns_read.setdefault(table.key, set()).update(used if ref.role != "write" else set())
        _check_hints(ws, table, ref, path, diags)
        if ref.in_hint:
            inputs = [(r, t) for s_, r, t in meta_refs if s_ is rs and r.role == "read"]
            window_input = _columns_used(rs.parsed, *inputs[0]) if len(inputs) == 1 else None
            check_late_data_sink(rs.parsed, table, window_input, path, diags)
        definition = effective_definition(
            table, settings.get(table.key), ref, engine=ws.config.engine, mode=mode,
            task_path=path, used_columns=used, diags=diags,
        )
        _check_engine_options(ws.config.engine, table, definition, diags)
        bound = next(b for b, r in zip(rs.tables, rs.parsed.tables) if r is ref)
        bound.definition = definition
        resolved.tables[table.key].name_for(definition)
    resolved.failed_watermarks = {key for key, table_settings in settings.items() if table_settings.watermark_failed}
    for key, table_settings in settings.items():
        if key in resolved.reads:  # a watermark or computed column reads columns too
            resolved.columns_read.setdefault(key, set()).update(table_settings.columns_read)
    for stmt in parsed:
        for hint in stmt.select_hints:
            for item in hint.items:
                if item.lower in MRS_HINTS and not engine_named(ws.config.engine).mrs_hints:
                    diags.append(Diagnostic(path, hint.pos.line, hint.pos.col, "FX170", f"the {item.name} hint needs the mrs engine; engine '{ws.config.engine}' does not support it"))
    return resolved


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_QUALIFIER = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\.\s*$")
_TABLE_KEYWORD = re.compile(r"\b(?:FROM|JOIN|INTO|TABLE)\s+$", re.IGNORECASE)


def unknown_table_word(ws: Workspace, task: Task, pos: Pos) -> Diagnostic | None:
    """FX130 for a reserved word that stops the parse where a table is named (`FROM ods.user`) when no table
    has that name: quoting it (FX01's fix) would only lead to "unknown table" (issue 44 case 8). A reserved
    word that is a table's name is FX01's, as before."""
    start = offset_of(task.text, pos.line, pos.col)
    word = _WORD.match(task.text, start)
    if word is None:
        return None
    before = task.text[max(0, start - 200):start]
    qualifier = _QUALIFIER.search(before)
    if qualifier is not None and qualifier.group(1) in ws.projects:
        project: str | None = qualifier.group(1)
    elif qualifier is None and _TABLE_KEYWORD.search(before) and f"`{word.group().lower()}`" not in task.text.lower():
        project = None  # (a task-local table of that name is written quoted where it is created)
    else:
        return None
    tables = ws.projects[project or task.project].tables if (project or task.project) in ws.projects else {}
    if any(name.lower() == word.group().lower() for name in tables):
        return None
    found: list[Diagnostic] = []
    find_table(ws, task.project, project, word.group(), pos, task.display_path, found)
    return found[0] if found and found[0].code == "FX130" else None


def _undeclared_function(task: Task, stmt: ParsedStatement) -> Diagnostic:
    """FX142: a task's own CREATE FUNCTION names a class, never a signature. Flink accepts the statement (the
    jar is on its class path); flinkx cannot know what the function takes or returns, so the statements that
    call it are neither typed nor planned. A warning that says so, at the name (issue 44 case 14)."""
    line, col = stmt.pos.line, stmt.pos.col
    if stmt.defines_span is not None:
        before = stmt.rendered[:stmt.defines_span.start]
        newlines = before.count("\n")
        line, col = line + newlines, (col + len(before)) if not newlines else len(before) - before.rfind("\n")
    name = stmt.defines or ""
    return Diagnostic(task.display_path, line, col, "FX142",
                      f"function '{name}' is created from a class whose signature flinkx cannot know: the statements "
                      "that call it are not typed or planned",
                      f"declare it as a project function (projects/{task.project}/functions/{name}.yaml with class, "
                      f"returns and params) and call it as {task.project}:{name}")


def _rename_in_computed_columns(settings, statements: list[AnalysedStatement], resolved: AnalysedTask, version: str) -> None:
    """`SET t.computedColumn = x AS dim:fn(c)` (and functions in a watermark): the functions
    get their Flink names there too, like in any statement."""
    for table_settings in settings.values():
        for column in table_settings.computed:
            if column.expression_at is not None:
                column.expression = _renamed(column.expression, column.expression_at, statements, resolved, version)
        if table_settings.watermark and table_settings.watermark_at is not None:
            rowtime, expression, origin = table_settings.watermark
            table_settings.watermark = (rowtime, _renamed(expression, table_settings.watermark_at, statements, resolved, version), origin)


def _renamed(expression: str, at: tuple[int, int], statements: list[AnalysedStatement], resolved: AnalysedTask, version: str) -> str:
    index, start = at
    rs = statements[index]
    end = start + len(expression)
    if rs.parsed.rendered[start:end] != expression:
        return expression  # the text is not where the parse says (escapes): leave it
    edits = [
        (fref.span.start - start, fref.span.end - start, quote_identifier(resolved.functions[bound.key].emitted_name, version))
        for fref, bound in zip(rs.parsed.functions, rs.functions)
        if bound.kind == "project" and start <= fref.span.start < end
    ]
    for a, b, name in sorted(edits, reverse=True):
        expression = expression[:a] + name + expression[b:]
    return expression

def task_database(stmt: ParsedStatement) -> set[str]:
    """The database (lower case) `CREATE DATABASE [IF NOT EXISTS] [c.]d` or `USE [c.]d` names, if it is one."""
    words = strip_comments(stmt.source).replace(";", " ").split()
    upper = [w.upper() for w in words]
    if upper[:2] == ["CREATE", "DATABASE"]:
        rest = words[5:] if upper[2:5] == ["IF", "NOT", "EXISTS"] else words[2:]
    elif upper[:1] == ["USE"] and upper[1:2] not in (["CATALOG"], ["MODULES"]):
        rest = words[1:]
    else:
        return set()
    return {rest[0].split(".")[-1].strip("`").lower()} if rest else set()


def task_catalog(stmt: ParsedStatement) -> tuple[str, str] | None:
    """("create", name) for `CREATE [OR REPLACE] CATALOG [IF NOT EXISTS] name`, ("use", name) for `USE CATALOG name`
    (the name in lower case), else None."""
    words = strip_comments(stmt.source).replace(";", " ").split()
    upper = [w.upper() for w in words]
    if upper[:2] == ["USE", "CATALOG"] and len(words) > 2:
        return "use", words[2].strip("`").lower()
    head = 4 if upper[:4] == ["CREATE", "OR", "REPLACE", "CATALOG"] else 2 if upper[:2] == ["CREATE", "CATALOG"] else 0
    if not head:
        return None
    rest = words[head + 3:] if upper[head:head + 3] == ["IF", "NOT", "EXISTS"] else words[head:]
    return ("create", rest[0].split("(")[0].strip("`").lower()) if rest else None


def _bind_table(ws, task, stmt, ref, local_tables, table_types, firsts, meta_refs, rs, diags, databases=frozenset()) -> BoundTable:
    path = task.display_path
    if len(ref.parts) >= 3:
        return BoundTable("external", ".".join(ref.parts))
    if len(ref.parts) == 2 and ref.parts[0].lower() in databases:
        return BoundTable("local", ref.name) if ref.name in local_tables else BoundTable("external", ".".join(ref.parts))
    if len(ref.parts) == 1:
        if ref.name in stmt.ctes:
            return BoundTable("cte", ref.name)
        if ref.name in local_tables:
            return BoundTable("local", ref.name)
    if did_not_load(ws, task.project, ref.project, ref.name):
        return BoundTable("unloaded", f"{ref.project or task.project}.{ref.name}")  # the YAML's error says it
    lookup = find_table(ws, task.project, ref.project, ref.name, ref.pos, path, diags, local_tables)
    if lookup is None:
        return BoundTable("error")
    first = firsts.get(lookup.name, ref.pos)
    table = choose_candidate(lookup, table_types.get((lookup.project, lookup.name)), first, path, diags)
    if table is None:
        return BoundTable("error")
    meta_refs.append((rs, ref, table))
    return BoundTable("meta", table.key)


def first_uses(parsed: list[ParsedStatement]) -> dict[str, Pos]:
    """Where each table name is first written in the task (a reference or a SET target).

    Seed 000 reports the stream/offline conflict at the first line using the name.
    """
    first: dict[str, Pos] = {}
    for stmt in parsed:
        places = [(ref.name, ref.pos) for ref in stmt.tables]
        if stmt.set_option is not None:
            places += [(part, stmt.set_option.pos) for part in stmt.set_option.parts[:2]]
        for name, pos in sorted(places, key=lambda p: (p[1].line, p[1].col)):
            first.setdefault(name, pos)
    return first


def _bind_function(ws, task, fref, local_functions, resolved: AnalysedTask, diags) -> BoundFunction:
    if fref.qualified:
        return BoundFunction("external")
    kind, function = find_function(ws, task.project, fref.project, fref.name, local_functions, fref.pos, task.display_path, diags)
    if function is not None:
        resolved.functions.setdefault(function.key, FunctionUse(function))
        return BoundFunction("project", function.key)
    return BoundFunction(kind)


def _name_tables(resolved: AnalysedTask, meta_refs, local_tables: set[str]) -> None:
    """Plain names where unique in the task; `<project>_<name>` where two projects share one."""
    used = {}
    for rs, ref, table in meta_refs:
        used.setdefault(table.key, table)
        if rs.parsed.kind == "insert" and ref.role == "write":
            resolved.writes.add(table.key)
        else:
            resolved.reads.add(table.key)
    counts: dict[str, int] = {}
    for table in used.values():
        counts[table.name.lower()] = counts.get(table.name.lower(), 0) + 1
    taken = {name.lower() for name in local_tables}
    taken |= {t.name.lower() for t in used.values() if counts[t.name.lower()] == 1}
    for key, table in used.items():
        if counts[table.name.lower()] == 1 and table.name not in local_tables:
            resolved.tables[key] = TableUse(table, table.name)
            continue
        # `<project>_<name>` must not collide with another table of the script
        base = f"{table.project}_{table.name}"
        candidate, n = base, 2
        while candidate.lower() in taken:
            candidate, n = f"{base}_{n}", n + 1
        taken.add(candidate.lower())
        resolved.tables[key] = TableUse(table, candidate)


def _name_functions(resolved: AnalysedTask, version: str) -> None:
    """A project function keeps its name unless it would clash: Flink resolves
    built-ins before temporary functions, so an override gets a unique name."""
    counts: dict[str, int] = {}
    for use in resolved.functions.values():
        counts[use.function.name.lower()] = counts.get(use.function.name.lower(), 0) + 1
    for use in resolved.functions.values():
        fn = use.function
        clash = counts[fn.name.lower()] > 1 or fn.name.upper() in builtin_functions(version)
        use.emitted_name = f"{fn.project}_{fn.name}".lower() if clash else fn.name


def _columns_used(stmt: ParsedStatement, ref: TableRef, table: MetaTable) -> set[str]:
    """Columns of `table` this statement reads through `ref` (qualified or unambiguous)."""
    qualifiers = {q.lower() for q in (ref.alias, ref.name) if q}
    names = {c.name.lower(): c.name for c in table.columns}
    used = set()
    for col in stmt.columns:
        if len(col.parts) >= 2 and col.parts[-2].lower() in qualifiers and col.parts[-1].lower() in names:
            used.add(names[col.parts[-1].lower()])
        elif len(col.parts) == 1 and col.parts[0].lower() in names:
            used.add(names[col.parts[0].lower()])
    return used


def _check_engine_options(engine: str, table: MetaTable, definition, diags: list[Diagnostic]) -> None:
    """Options only another engine has (seed 003: source.parallelism on MRS 3.3.0 and later)."""
    for key in (ENGINE_ONLY_OPTIONS - engine_named(engine).engine_options) & set(definition.options):
        origin = definition.origins.get(f"option:{key}")
        path, line, col = (origin.path, origin.line, origin.col) if origin else (table.loc.path, table.loc.line, table.loc.col)
        diags.append(Diagnostic(path, line, col, "FX170", f"'{key}' of {table.project}.{table.name} needs the mrs engine; engine '{engine}' does not support it"))


def check_late_data_sink(stmt: ParsedStatement, table: MetaTable, window_input: set[str] | None, path: str, diags: list[Diagnostic]) -> None:
    """Seed 003: the late-data sink holds the window's input fields (in any order) plus the
    TIMESTAMP columns named by window.start.field / window.end.field."""
    for hint in stmt.select_hints:
        for item in hint.items:
            if item.lower != "late_data_sink":
                continue
            bounds = {column.lower() for key, column in item.options if key.lower() in ("window.start.field", "window.end.field")}
            if window_input is not None:
                fields = {c.name.lower() for c in table.columns if not c.header} - bounds
                wanted = {c.lower() for c in window_input}
                missing, extra = sorted(wanted - fields), sorted(fields - wanted)
                if missing or extra:
                    detail = "; ".join(part for part in (f"missing {', '.join(missing)}" if missing else "", f"not an input {', '.join(extra)}" if extra else "") if part)
                    diags.append(Diagnostic(path, hint.pos.line, hint.pos.col, "FX151", f"the late-data sink {table.project}.{table.name} must hold the window's input fields: {detail}"))
            for key, column in item.options:
                if key.lower() not in ("window.start.field", "window.end.field"):
                    continue
                col = table.column(column)
                if col is None or not col.type.upper().startswith("TIMESTAMP"):
                    problem = "is not a column of" if col is None else f"is {col.type}, not a TIMESTAMP, in"
                    diags.append(Diagnostic(path, hint.pos.line, hint.pos.col, "FX151", f"{key} '{column}' {problem} the late-data sink {table.project}.{table.name}", did_you_mean(column, [c.name for c in table.columns]) if col is None else ""))


def _check_hints(ws: Workspace, table: MetaTable, ref: TableRef, path: str, diags: list[Diagnostic]) -> None:
    engine = ws.config.engine
    for hint in ref.hints:
        if hint.error:
            diags.append(Diagnostic(path, hint.pos.line, hint.pos.col, "FX152", hint.error))
            continue
        for item in hint.items:
            name = item.lower
            if name == "options":
                for key, _ in item.options:
                    if key in locked_options(table):
                        diags.append(Diagnostic(path, hint.pos.line, hint.pos.col, "FX160", f"option '{key}' of {table.project}.{table.name} cannot be overridden in a task", locked_hint(table, key)))
            elif name in ("index", "uniqueindex") and not engine_named(engine).index_keys:
                diags.append(Diagnostic(path, hint.pos.line, hint.pos.col, "FX170", f"{item.name} hints need the blink engine; engine '{engine}' (like open-source and Ververica Flink) has no INDEX / UNIQUE INDEX"))
            elif name == "dataphincolumns" and "hbase" not in table.type.lower():
                diags.append(Diagnostic(path, hint.pos.line, hint.pos.col, "FX152", f"dataphincolumns applies only to HBase sink tables; {table.project}.{table.name} is {table.type}"))
            elif name == "dataphincolumns" and ref.role != "write":
                diags.append(Diagnostic(path, hint.pos.line, hint.pos.col, "FX152", "dataphincolumns applies only to the table an INSERT writes"))
    for key in ref.legacy_options:
        if key.lower() in ("index", "uniqueindex") and not engine_named(engine).index_keys:
            diags.append(Diagnostic(path, ref.pos.line, ref.pos.col, "FX170", f"{key} needs the blink engine; engine '{engine}' has no INDEX / UNIQUE INDEX"))
    if not engine_named(engine).any_header:
        connector = table.options.get("connector", table.type).lower()
        for col in table.columns:
            if col.header and col.name not in METADATA_KEYS.get(connector, set()):
                diags.append(Diagnostic(col.loc.path, col.loc.line, col.loc.col, "FX151", f"header column '{col.name}' is not a metadata key of the {connector} connector"))
