"""Looking up projects, meta tables and functions by the names a task writes."""
from __future__ import annotations

from dataclasses import dataclass

from flinkx_build.errors import Diagnostic
from flinkx_build.errors import did_you_mean
from flinkx_build.flink_data import builtin_functions
from flinkx_build.flink_data import facts_or_default
from flinkx_build.flink_data import versions_with_function
from flinkx_build.frontend.statements import Pos
from flinkx_build.resolve.effective import table_type_label
from flinkx_build.workspace_model import Function
from flinkx_build.workspace_model import MetaTable
from flinkx_build.workspace_model import Workspace


@dataclass
class TableLookup:
    project: str
    name: str
    candidates: list[MetaTable]  # stream and/or offline tables of that name


# findings whose hint searches every project's names (`_in_other_projects`): "did you mean 'b.t'?". A
# workspace loaded in part words them otherwise, so what is made from one is not kept (`SummaryCache`)
HINTS_FROM_EVERY_PROJECT = frozenset({"FX130", "FX140", "FX141"})


def did_not_load(ws: Workspace, current: str, project: str | None, name: str) -> bool:
    """`[project.]name` may be a table whose YAML did not load: its error is the finding, and nothing that
    uses the name can be checked until it loads (a twin of the other kind may exist: which one is meant
    cannot be known)."""
    proj = ws.projects.get(project or current)
    return proj is not None and name.lower() in proj.unloadable_tables


def find_table(ws: Workspace, current: str, project: str | None, name: str, pos: Pos, path: str, diags: list[Diagnostic], local_names: set[str] = frozenset()) -> TableLookup | None:
    """The meta table(s) `[project.]name` denotes, or a diagnostic."""
    proj_name = project or current
    proj = ws.projects.get(proj_name)
    if proj is None:
        diags.append(Diagnostic(path, pos.line, pos.col, "FX131", f"unknown project '{proj_name}'", did_you_mean(proj_name, ws.projects)))
        return None
    candidates = proj.tables.get(name)
    if not candidates:
        if name.lower() in proj.unloadable_tables:
            return None  # its YAML did not load: that error is reported at the YAML, once
        pool = set(proj.tables) | (set(local_names) if project is None else set())
        exact, near = _in_other_projects(ws, proj_name, name, lambda p: p.tables, ".")
        hint = exact or did_you_mean(name, pool) or near
        diags.append(Diagnostic(path, pos.line, pos.col, "FX130", f"unknown table '{name}' in project '{proj_name}'", hint))
        return None
    return TableLookup(proj_name, name, candidates)


def choose_candidate(lookup: TableLookup, table_type: str | None, first_pos: Pos, path: str, diags: list[Diagnostic]) -> MetaTable | None:
    """Seed 000: a name that is both a stream and an offline table needs tableType."""
    labels = sorted(table_type_label(t) for t in lookup.candidates)
    if len(lookup.candidates) == 1:
        table = lookup.candidates[0]
        if table_type and table_type.upper() not in (table_type_label(table), table.type.upper()):
            diags.append(Diagnostic(path, first_pos.line, first_pos.col, "FX132", f"tableType '{table_type}' does not match {lookup.project}.{lookup.name}, a {labels[0]} table"))
            return None
        return table
    if table_type:
        wanted = table_type.upper()
        for table in lookup.candidates:
            if wanted in (table_type_label(table), table.type.upper()):
                return table
        diags.append(Diagnostic(path, first_pos.line, first_pos.col, "FX132", f"tableType '{table_type}' matches no table named {lookup.name}; available types include: [{', '.join(labels)}]"))
        return None
    diags.append(
        Diagnostic(
            path, first_pos.line, first_pos.col, "FX132",
            f"Please assign a single type to the table {lookup.name} using the syntax SET XXX.XXX.tableType = 'XX'. Available types include: [{', '.join(labels)}].",
        )
    )
    return None


def find_function(ws: Workspace, current: str, project: str | None, name: str, local_functions: set[str], pos: Pos, path: str, diags: list[Diagnostic]) -> tuple[str, Function | None]:
    """("project", fn) | ("local", None) | ("builtin", None) | ("unloaded", None) (a function file that did not load) |
    ("error", None), by seed 000's rules."""
    key = name.lower()
    if project is not None:
        proj = ws.projects.get(project)
        if proj is None:
            diags.append(Diagnostic(path, pos.line, pos.col, "FX131", f"unknown project '{project}' in '{project}:{name}'", did_you_mean(project, ws.projects)))
            return "error", None
        if key in proj.functions:
            return "project", proj.functions[key]
        if key in proj.unloadable_functions:
            return "unloaded", None  # its YAML's error is the one finding
        names = [f.name for f in proj.functions.values()]
        # the same name in another project first (`ods:parse_ua` for `dim:parse_ua`), then a near one here, then elsewhere
        exact, near = _in_other_projects(ws, project, name, lambda p: {f.name: f for f in p.functions.values()}, ":")
        diags.append(Diagnostic(path, pos.line, pos.col, "FX140", f"function '{name}' not found in project '{project}'",
                                exact or did_you_mean(name, names) or near))
        return "error", None
    if key in local_functions:
        return "local", None
    proj = ws.projects.get(current)
    if proj is not None and key in proj.functions:
        return "project", proj.functions[key]
    if proj is not None and key in proj.unloadable_functions:
        return "unloaded", None
    if name.upper() in builtin_functions(ws.config.flink_version):
        return "builtin", None
    elsewhere = versions_with_function(name)
    if elsewhere:
        version = facts_or_default(ws.config.flink_version).version
        diags.append(Diagnostic(path, pos.line, pos.col, "FX125", f"{name.upper()} is not a built-in function of Flink {version} (Flink {', '.join(elsewhere)} has it)",
                                f"set flink_version to {elsewhere[0]} in flinkx.yaml, or write it with functions Flink {version} has"))
        return "error", None
    pool = set(builtin_functions(ws.config.flink_version)) | {f.name for f in (proj.functions.values() if proj else [])} | local_functions
    exact, near = _in_other_projects(ws, current, name, lambda p: {f.name: f for f in p.functions.values()}, ":")
    hint = exact or _flink_form(name) or did_you_mean(name.upper(), pool) or near
    diags.append(Diagnostic(path, pos.line, pos.col, "FX141", f"unknown function '{name}': not a task function, a function of project '{current}' nor a Flink built-in", hint))
    return "error", None


# functions of the databases tasks are ported from (Oracle, MySQL, Hive/MaxCompute, SQL Server) that Flink does not have,
# with Flink's way to write the call: the fix FX141 names (tests/resolve/test_other_databases_functions.py plans each
# form on every target's planner and holds that none of these names is a built-in of a target)
OTHER_DATABASES_FUNCTIONS: dict[str, str] = {
    "NVL": "COALESCE(x, default) or IFNULL(x, default)", "NVL2": "IF(x IS NOT NULL, a, b)",
    "GETDATE": "NOW() or CURRENT_TIMESTAMP", "SYSDATE": "NOW() or CURRENT_TIMESTAMP", "LEN": "CHAR_LENGTH(s)",
    "DATEDIFF": "TIMESTAMPDIFF(DAY, start, end)", "DATE_ADD": "TIMESTAMPADD(DAY, n, ts)", "DATE_SUB": "TIMESTAMPADD(DAY, -n, ts)",
    "GROUP_CONCAT": "LISTAGG(s, ',')", "WM_CONCAT": "LISTAGG(s, ',')", "STRING_AGG": "LISTAGG(s, ',')",
    "TO_CHAR": "DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss')",
}


def _flink_form(name: str) -> str:
    form = OTHER_DATABASES_FUNCTIONS.get(name.upper())
    return f"Flink writes it {form}" if form else ""


def _in_other_projects(ws: Workspace, current: str, name: str, members, separator: str) -> tuple[str, str]:
    """("did you mean 'dwd.dwd_orders'?", "") for a name another project has; ("", hint) for a near one."""
    qualified = {f"{p.name}{separator}{n}": n for p in ws.projects.values() if p.name != current for n in members(p)}
    exact = sorted(q for q, n in qualified.items() if n.lower() == name.lower())
    if exact:
        return f"did you mean '{exact[0]}'?", ""
    by_name: dict[str, str] = {}
    for q, n in sorted(qualified.items()):
        by_name.setdefault(n, q)
    close = did_you_mean(name, by_name)
    return "", (f"did you mean '{by_name[close.split(chr(39))[1]]}'?" if close else "")
