"""compile: DDL for the meta tables and functions a task uses, per engine."""
from __future__ import annotations

import re

from flinkx_build.engines import engine as engine_named
from flinkx_build.flink_data import quote_identifier
from flinkx_build.flink_data import reserved_words
from flinkx_build.resolve.analysed import ColumnDef
from flinkx_build.resolve.analysed import Origin
from flinkx_build.resolve.analysed import TableDef
from flinkx_build.type_text import row_fields
from flinkx_build.workspace_model import Function


def _literal(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def table_ddl(defn: TableDef, name: str, engine: str, flink_version: str) -> str:
    """`CREATE TEMPORARY TABLE` as a Flink user would write it by hand (names quoted for the target)."""
    return table_ddl_with_origins(defn, name, engine, flink_version)[0]


def table_ddl_with_origins(defn: TableDef, name: str, engine: str, flink_version: str) -> tuple[str, dict[int, Origin]]:
    """`table_ddl`, and for each line of it that a YAML entry made (1-based in the statement) that entry:
    an error Flink reports in a column, the watermark or an option points at its line in the YAML."""

    def q(text: str) -> str:
        return quote_identifier(text, flink_version)

    lines: list[str] = []
    origins: list[Origin | None] = []
    columns = defn.columns
    if defn.written_columns is not None:
        columns = _crop(defn)
    for col in columns:
        origins.append(defn.origins.get(f"column:{col.name}") or col.origin)
        if col.expression:
            lines.append(f"{q(col.name)} AS {col.expression}")
            continue
        text = f"{q(col.name)} {col.type}"
        if col.metadata_key is not None:
            if engine_named(engine).blink_ddl:
                text += " HEADER"
            elif col.metadata_key == col.name:
                text += " METADATA VIRTUAL"
            else:
                text += f" METADATA FROM {_literal(col.metadata_key)} VIRTUAL"
        if col.comment and not engine_named(engine).blink_ddl:
            text += f" COMMENT {_literal(col.comment)}"
        lines.append(text)
    if defn.watermark:
        lines.append(f"WATERMARK FOR {q(defn.watermark[0])} AS {defn.watermark[1]}")
        origins.append(defn.origins.get("watermark"))
    if defn.primary_key:
        keys = ", ".join(q(c) for c in defn.primary_key)
        lines.append(f"PRIMARY KEY ({keys})" + ("" if engine_named(engine).blink_ddl else " NOT ENFORCED"))
        origins.append(defn.origins.get("primary_key"))
    if defn.index:
        lines.append(f"INDEX ({', '.join(q(c) for c in defn.index)})")
        origins.append(defn.origins.get("index"))
    if defn.unique_index:
        lines.append(f"UNIQUE INDEX ({', '.join(q(c) for c in defn.unique_index)})")
        origins.append(defn.origins.get("unique_index"))
    body = ",\n".join(f"  {line}" for line in lines)
    # the connector first, as people write it, even when a mirror block supplies it
    ordered = sorted(defn.options.items(), key=lambda kv: kv[0] not in ("connector", "type"))
    origins.append(None)  # ") WITH ("
    origins.extend(defn.origins.get(f"option:{key}") for key, _ in ordered)
    # line 1 is CREATE ... (, then one line per entry above
    by_line = {number: origin for number, origin in enumerate(origins, start=2) if origin is not None}
    if engine_named(engine).blink_ddl:
        options = ",\n".join(f"  {_blink_key(key, flink_version)} = {_literal(value)}" for key, value in ordered)
        return f"CREATE TABLE {q(name)} (\n{body}\n) WITH (\n{options}\n)", by_line
    options = ",\n".join(f"  {_literal(key)} = {_literal(value)}" for key, value in ordered)
    return f"CREATE TEMPORARY TABLE {q(name)} (\n{body}\n) WITH (\n{options}\n)", by_line


def _blink_key(key: str, flink_version: str) -> str:
    """Blink writes WITH keys bare, backticked when a part is reserved (seed 000:
    `group.id`, `partition`) or not a plain word; `bootstrap.servers` stays bare."""
    parts = key.split(".")
    if all(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", p) and reserved_words(flink_version).get(p.upper()) != "error" for p in parts):
        return key
    return "`" + key.replace("`", "``") + "`"


def _crop(defn: TableDef) -> list[ColumnDef]:
    """dataphincolumns(rowkey, family1.q1): keep those columns; crop ROW families."""
    wanted: dict[str, list[str]] = {}
    for item in defn.written_columns or []:
        family, _, qualifier = item.partition(".")
        wanted.setdefault(family.lower(), [])
        if qualifier:
            wanted[family.lower()].append(qualifier)
    out = []
    for col in defn.columns:
        quals = wanted.get(col.name.lower())
        if quals is None:
            continue
        if quals and col.type.upper().startswith("ROW<"):
            fields = row_fields(col.type)
            kept = [f"{n} {t}" for n, t in fields if n.lower() in {x.lower() for x in quals}]
            out.append(ColumnDef(col.name, f"ROW<{', '.join(kept)}>", col.comment, origin=col.origin))
        else:
            out.append(col)
    return out


def function_ddl(function: Function, name: str, engine: str, flink_version: str) -> str:
    q = quote_identifier(name, flink_version)
    language = f" LANGUAGE {function.language.upper()}"
    if engine_named(engine).blink_ddl:
        return f"CREATE FUNCTION {q} AS {_literal(function.class_name)}"
    return f"CREATE TEMPORARY FUNCTION {q} AS {_literal(function.class_name)}{language}"
