"""Effective table definitions: schema < SET < TableHints (seed 000).

`collect_settings` folds a task's Dataphin SET statements into per-table
settings; `effective_definition` applies them and one reference's hints to a
meta table. SET is task-wide; hints only touch their own query; SET fills
whatever the hints leave out.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field
from decimal import Decimal

from flinkx_build.engines import engine as engine_named
from flinkx_build.errors import Diagnostic
from flinkx_build.frontend.statements import Hint
from flinkx_build.frontend.statements import TableRef
from flinkx_build.resolve.analysed import ColumnDef
from flinkx_build.resolve.analysed import Origin
from flinkx_build.resolve.analysed import TableDef
from flinkx_build.workspace_model import MetaTable

# Options no task may override, per table type (on top of YAML `locked:`).
BUILTIN_LOCKED = {"*": {"connector", "type"}, "odps": {"tableName", "project"}}
# Metadata keys a header column may name, per connector (Flink 1.20 docs).
METADATA_KEYS = {
    "kafka": {"topic", "partition", "headers", "leader-epoch", "offset", "timestamp", "timestamp-type"},
    "upsert-kafka": {"topic", "partition", "headers", "leader-epoch", "offset", "timestamp", "timestamp-type"},
    "mysql-cdc": {"table_name", "database_name", "op_ts", "row_kind"},
}
KEY_KINDS = {"primarykey": "primary_key", "index": "index", "uniqueindex": "unique_index"}
# Possessive `\s++` and `(.*\S)` instead of `(.+?)\s*$`: every quantifier meets text it cannot
# share with its neighbour, so no long run of spaces is tried in every split (quadratic).
_WATERMARK = re.compile(r"^\s*+WATERMARK\s++(?:(?!FOR\b)[`\w]++\s++)?FOR\s++(`[^`]+`|\w+)\s++AS\s++(.*\S)\s*$", re.IGNORECASE | re.DOTALL)
# withOffset(<rowtime expression>, <milliseconds>); the expression may itself call functions.
# The greedy `.+` takes everything to the last `, <digits>)`, so only the first `withOffset(`
# can match (`_with_offset`); the `.+` keeps spaces before the comma (the `\s*` there never
# matched anything) and `\s*+` before it is possessive, so one try is linear in the text.
_WITH_OFFSET = re.compile(r"withOffset\s*+\(\s*+(.+),\s*(\d+)\s*\)", re.IGNORECASE | re.DOTALL)
_WITH_OFFSET_START = re.compile(r"withOffset\s*+\(", re.IGNORECASE)


@dataclass
class TableSettings:
    """What the task's SET statements say about one meta table."""

    options: dict[str, tuple[str, Origin]] = field(default_factory=dict)
    mode_options: dict[str, dict[str, tuple[str, Origin]]] = field(default_factory=lambda: {"stream": {}, "batch": {}})
    watermark: tuple[str, str, Origin] | None = None
    watermark_failed: bool = False  # a watermark SET was written and refused: time-attribute findings would only follow
    # (statement index, rendered offset) of the watermark expression, for function renames
    watermark_at: tuple[int, int] | None = None
    computed: list[ColumnDef] = field(default_factory=list)
    keys: dict[str, tuple[list[str], Origin]] = field(default_factory=dict)
    headers: dict[str, Origin] = field(default_factory=dict)
    table_type: str | None = None
    column_pruning: bool = False
    columns_read: set[str] = field(default_factory=set)  # columns a watermark or computed column reads
    pruning_origin: Origin | None = None


def locked_options(table: MetaTable) -> set[str]:
    return BUILTIN_LOCKED["*"] | BUILTIN_LOCKED.get(table.type.lower(), set()) | set(table.locked)


def locked_hint(table: MetaTable, key: str) -> str:
    """Where the lock comes from: the meta table's `locked:` line, or the built-in rule."""
    if key in table.locked and table.locked_loc is not None:
        return f"locked by the meta table at {table.locked_loc.path}:{table.locked_loc.line}"
    return "flinkx never lets a task change a table's connector or type" if key in BUILTIN_LOCKED["*"] else "it is fixed by the meta table"


def table_type_label(table: MetaTable) -> str:
    """The seed's vocabulary for table types (tableType = '...')."""
    special = {"odps": "MAX_COMPUTE", "maxcompute": "MAX_COMPUTE", "hbase": "CLOUD_HBASE", "cloudhbase": "CLOUD_HBASE"}
    return special.get(table.type.lower(), re.sub(r"[^A-Za-z0-9]+", "_", table.type).upper())


def split_columns(value: str) -> list[str]:
    return [c.strip().strip("`") for c in value.split(",") if c.strip()]


def parse_watermark(text: str) -> tuple[str, str, int] | None:
    """(rowtime column, expression, offset of the expression in `text`)."""
    m = _WATERMARK.match(text)
    if not m:
        return None
    return m.group(1).strip("`"), m.group(2), m.start(2)


def flink_watermark_expression(expression: str, engine: str) -> str:
    """`withOffset(ts, 1500)` -> `ts - INTERVAL '1.5' SECOND` outside blink."""
    if engine_named(engine).keeps_with_offset:
        return expression

    def replace(m: re.Match) -> str:
        seconds = Decimal(m.group(2)) / 1000
        text = format(seconds.normalize(), "f")
        return f"{m.group(1)} - INTERVAL '{text}' SECOND"

    start = _WITH_OFFSET_START.search(expression)
    m = _WITH_OFFSET.match(expression, start.start()) if start else None
    return expression if m is None else expression[:m.start()] + replace(m) + expression[m.end():]


def key_columns(defn: TableDef) -> set[str]:
    return {c.lower() for c in (*defn.primary_key, *defn.index, *defn.unique_index)}


def effective_definition(
    table: MetaTable,
    settings: TableSettings | None,
    ref: TableRef | None,
    *,
    engine: str,
    mode: str,
    task_path: str,
    used_columns: set[str] | None,
    diags: list[Diagnostic],
) -> TableDef:
    settings = settings or TableSettings()
    origins: dict[str, Origin] = {}
    options: dict[str, str] = {}
    mode_locs = table.mode_option_locs.get(mode, {})
    for key, value in table.options_for_mode(mode).items():
        options[key] = value
        if key in mode_locs:
            loc, layer = mode_locs[key], f"schema {mode}.with"
        else:
            loc, layer = table.option_locs.get(key, table.loc), "schema"
        origins[f"option:{key}"] = Origin(layer, loc.path, loc.line, loc.col)
    for key, (value, origin) in [*settings.options.items(), *settings.mode_options[mode].items()]:
        options[key] = value
        origins[f"option:{key}"] = origin

    columns: list[ColumnDef] = []
    header_names = {c.name.lower() for c in table.columns if c.header} | {h.lower() for h in settings.headers}
    for col in table.columns:
        origin = Origin("schema", col.loc.path, col.loc.line, col.loc.col)
        if col.name.lower() in header_names:
            origin = settings.headers.get(col.name, origin) if col.name in settings.headers else origin
            columns.append(ColumnDef(col.name, col.type, col.comment, metadata_key=col.name, origin=origin))
        else:
            columns.append(ColumnDef(col.name, col.type, col.comment, origin=origin))
    columns.extend(settings.computed)

    pk_loc = table.primary_key_loc or table.loc
    keys: dict[str, tuple[list[str], Origin | None]] = {"primary_key": (list(table.primary_key), Origin("schema", pk_loc.path, pk_loc.line, pk_loc.col))}
    keys["index"] = ([], None)
    keys["unique_index"] = ([], None)
    for kind, (cols, origin) in settings.keys.items():
        keys[kind] = (cols, origin)
    if ref is not None:
        _apply_hint_keys(ref, keys, task_path)
    for kind, (cols, origin) in keys.items():
        if cols and origin is not None:
            origins[kind] = origin

    watermark = None
    if settings.watermark:
        column, expression, origin = settings.watermark
        watermark = (column, flink_watermark_expression(expression, engine))
        origins["watermark"] = origin

    written = None
    if ref is not None:
        for hint in ref.hints:
            for item in hint.items:
                if item.lower == "dataphincolumns":
                    written = list(item.args)
                    origins["written_columns"] = Origin("hint", task_path, hint.pos.line, hint.pos.col)

    defn = TableDef(table, columns, keys["primary_key"][0], keys["index"][0], keys["unique_index"][0], watermark, options, origins, written)
    if settings.column_pruning and ref is not None and ref.role == "lookup" and used_columns is not None:
        keep = {c.lower() for c in used_columns} | key_columns(defn)
        defn.columns = [c for c in defn.columns if c.name.lower() in keep]
        if settings.pruning_origin is not None:
            origins["column_pruning"] = settings.pruning_origin
    return defn


def _apply_hint_keys(ref: TableRef, keys: dict, task_path: str) -> None:
    """primarykey/index/uniqueindex hints and legacy `WITH (index = ...)` win over SET."""
    for name, value in ref.legacy_options.items():
        kind = KEY_KINDS.get(name.lower())
        if kind and ref.legacy_options_span is not None:
            keys[kind] = (split_columns(value), Origin("hint", task_path, ref.pos.line, ref.pos.col))
    for hint in ref.hints:
        for item in hint.items:
            kind = KEY_KINDS.get(item.lower)
            if kind:
                cols = [c for arg in item.args for c in split_columns(arg)]
                keys[kind] = (cols, Origin("hint", task_path, hint.pos.line, hint.pos.col))


def hint_is_dataphin(hint: Hint) -> bool:
    """Hints the build consumes (and removes) rather than passing to Flink."""
    return all(item.lower in (*KEY_KINDS, "dataphincolumns") for item in hint.items)


def hint_options(ref: TableRef, path: str) -> dict[str, tuple[str, Origin]]:
    """The options an `OPTIONS(...)` hint on this reference sets (hint > SET > schema)."""
    out: dict[str, tuple[str, Origin]] = {}
    for hint in ref.hints:
        for item in hint.items:
            if item.lower == "options":
                for key, value in item.options:
                    out[key] = (value, Origin("hint", path, hint.pos.line, hint.pos.col))
    return out
