"""Dataphin `SET [proj.]tbl.<what> = value` statements -> `TableSettings`."""
from __future__ import annotations

from flinkx_build.engines import engine as engine_named
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import did_you_mean
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.frontend.statements import SetOption
from flinkx_build.resolve.analysed import ColumnDef
from flinkx_build.resolve.analysed import Origin
from flinkx_build.resolve.effective import KEY_KINDS
from flinkx_build.resolve.effective import METADATA_KEYS
from flinkx_build.resolve.effective import TableSettings
from flinkx_build.resolve.effective import locked_hint
from flinkx_build.resolve.effective import locked_options
from flinkx_build.resolve.effective import parse_watermark
from flinkx_build.resolve.effective import split_columns
from flinkx_build.resolve.names import TableLookup
from flinkx_build.resolve.names import choose_candidate
from flinkx_build.resolve.names import did_not_load
from flinkx_build.resolve.names import find_table
from flinkx_build.workspace_model import Workspace

# Unquoted `SET table.exec.x = v` is Flink configuration, not a table option.
FLINK_CONFIG_PREFIXES = {"table", "pipeline", "execution", "parallelism", "state", "restart-strategy", "sql-client", "python", "taskmanager", "jobmanager", "rest", "metrics", "security"}


def split_target(ws: Workspace, current: str, option: SetOption) -> tuple[str | None, str, list[str]] | None:
    """(project, table, rest) for the SET target, or None if it names no table."""
    parts = option.parts
    if len(parts) >= 3 and parts[0] in ws.projects and parts[1] in ws.projects[parts[0]].tables:
        return parts[0], parts[1], parts[2:]
    proj = ws.projects.get(current)
    if proj is not None and parts[0] in proj.tables:
        return None, parts[0], parts[1:]
    return None


def is_flink_config(ws: Workspace, current: str, option: SetOption) -> bool:
    return split_target(ws, current, option) is None and option.parts[0].lower() in FLINK_CONFIG_PREFIXES


def collect_settings(ws: Workspace, current: str, statements: list[ParsedStatement], path: str, diags: list[Diagnostic]) -> tuple[dict[str, TableSettings], dict[tuple[str, str], str]]:
    """Per meta-table-key settings, and the tableType chosen per (project, name)."""
    table_types: dict[tuple[str, str], str] = {}
    pending: list[tuple[ParsedStatement, SetOption, TableLookup, list[str]]] = []
    for stmt in statements:
        option = stmt.set_option
        if stmt.kind != "set_option" or option is None or is_flink_config(ws, current, option):
            continue
        target = split_target(ws, current, option)
        if target is None:
            project = option.parts[0] if len(option.parts) >= 3 and option.parts[0] in ws.projects else None
            name = option.parts[1] if project else option.parts[0]
            find_table(ws, current, project, name, option.pos, path, diags)
            continue
        project, name, rest = target
        if did_not_load(ws, current, project, name):
            continue  # its YAML has an error: that is the finding, and its columns are not known
        lookup = find_table(ws, current, project, name, option.pos, path, diags)
        if lookup is None:
            continue
        if not rest:
            diags.append(Diagnostic(path, option.pos.line, option.pos.col, "FX150", f"SET {'.'.join(option.parts)} names a table but no option"))
            continue
        if len(rest) == 1 and rest[0].lower() == "tabletype":
            table_types[(lookup.project, lookup.name)] = option.value
            continue
        pending.append((stmt, option, lookup, rest))

    settings: dict[str, TableSettings] = {}
    for stmt, option, lookup, rest in pending:
        table = choose_candidate(lookup, table_types.get((lookup.project, lookup.name)), option.pos, path, [])
        if table is None:
            continue  # reported where the table is used
        target = settings.setdefault(table.key, TableSettings())
        _apply(ws, table, target, stmt, option, rest, path, diags)
        if rest[0].lower() in ("watermark", "computedcolumn", "proctime"):
            names = [c.parts[-1] for c in stmt.columns] + ([target.watermark[0]] if target.watermark else [])
            target.columns_read.update(col.name for name in names if (col := table.column(name)) is not None)
        if target.watermark and option.parts[-1].lower() == "watermark":
            column = target.watermark[0]
            known = {c.name.lower() for c in table.columns} | {c.name.lower() for c in target.computed}
            if column.lower() not in known:
                at = option.value_pos
                diags.append(Diagnostic(path, at.line, at.col, "FX151", f"watermark column '{column}' is not a column of {table.project}.{table.name}", did_you_mean(column, [c.name for c in table.columns])))
                target.watermark = None
                target.watermark_failed = True
    return settings, table_types


def _apply(ws: Workspace, table, target: TableSettings, stmt: ParsedStatement, option: SetOption, rest: list[str], path: str, diags: list[Diagnostic]) -> None:
    origin = Origin("set", path, option.pos.line, option.pos.col)
    head = rest[0].lower()

    def error(code: str, message: str, at=option.pos) -> None:
        diags.append(Diagnostic(path, at.line, at.col, code, message))

    if len(rest) == 1 and head == "watermark":
        target.watermark_failed = True  # until it is set below
        if option.value_kind == "watermark":
            if ws.config.dataphin_at_least_3_7:
                error("FX03", f"dataphin_version {ws.config.dataphin_version} requires the watermark in single quotes: SET ...`watermark` = 'WATERMARK FOR ...'", option.value_pos)
                return
            text = option.value_text
        else:
            if not ws.config.dataphin_at_least_3_7:
                error("FX03", f"dataphin_version {ws.config.dataphin_version} takes the watermark unquoted: SET ...`watermark` = WATERMARK FOR ...", option.value_pos)
                return
            text = option.value
        parsed = parse_watermark(text)
        if parsed is None:
            error("FX150", "the watermark must read WATERMARK [name] FOR <rowtime column> AS <expression>", option.value_pos)
            return
        target.watermark_failed = False
        target.watermark = (parsed[0], parsed[1], origin)
        target.watermark_at = (stmt.index, option.value_start + parsed[2]) if option.value_start >= 0 else None
    elif len(rest) == 1 and head in ("computedcolumn", "proctime"):
        if option.value_kind != "computed" or not option.computed:
            error("FX150", f"SET ...{rest[0]} takes 'column AS expression'", option.value_pos)
            return
        for col in option.computed:
            if head == "proctime" and col.expression.replace(" ", "").upper() != "PROCTIME()":
                error("FX150", "SET ...procTime takes 'column AS PROCTIME()'", option.value_pos)
                return
            target.computed = [c for c in target.computed if c.name.lower() != col.name.lower()]
            at = (stmt.index, col.start) if col.start >= 0 else None
            target.computed.append(ColumnDef(col.name, expression=col.expression, origin=origin, expression_at=at))
    elif len(rest) == 1 and head in KEY_KINDS:
        cols = split_columns(option.value)
        unknown = [c for c in cols if table.column(c) is None]
        if unknown:
            error("FX151", f"'{unknown[0]}' is not a column of {table.project}.{table.name}", option.value_pos)
            return
        if head in ("index", "uniqueindex") and not engine_named(ws.config.engine).index_keys:
            error("FX170", f"SET ...{rest[0]} needs the blink engine; engine '{ws.config.engine}' (like open-source and Ververica Flink) has no INDEX / UNIQUE INDEX")
            return
        target.keys[KEY_KINDS[head]] = (cols, origin)
    elif len(rest) == 2 and rest[1].lower() == "isheader":
        column = table.column(rest[0])
        if column is None:
            error("FX151", f"'{rest[0]}' is not a column of {table.project}.{table.name}")
            return
        if option.value.lower() != "true":
            error("FX150", "SET ...isHeader takes true")
            return
        connector = table.options.get("connector", table.type).lower()
        if not engine_named(ws.config.engine).any_header and column.name not in METADATA_KEYS.get(connector, set()):
            keys = ", ".join(sorted(METADATA_KEYS.get(connector, set()))) or "none"
            error("FX151", f"'{column.name}' is not a metadata key of the {connector} connector (keys: {keys})")
            return
        target.headers[column.name] = origin
    elif len(rest) == 1 and head == "dataphincolumnpruning":
        target.column_pruning = option.value.lower() == "true"
        target.pruning_origin = origin
    elif head in ("stream", "batch") and len(rest) >= 2:
        key = ".".join(rest[1:])
        if _locked(table, key, path, option, diags):
            return
        target.mode_options[head][key] = (option.value, origin)
    else:
        key = ".".join(rest)
        if _locked(table, key, path, option, diags):
            return
        target.options[key] = (option.value, origin)


def _locked(table, key: str, path: str, option: SetOption, diags: list[Diagnostic]) -> bool:
    if key in locked_options(table):
        diags.append(Diagnostic(path, option.pos.line, option.pos.col, "FX160", f"option '{key}' of {table.project}.{table.name} cannot be overridden in a task", locked_hint(table, key)))
        return True
    return False
