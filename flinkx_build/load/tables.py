"""Meta table and function YAML -> model objects, with YAML positions."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap

from flinkx_build.errors import Diagnostic
from flinkx_build.errors import did_you_mean
from flinkx_build.flink_data import type_heads_of_any_version
from flinkx_build.variables import find_variables
from flinkx_build.variables import render
from flinkx_build.hashing import canonical_hash
from flinkx_build.load.connectors import connector_mismatch
from flinkx_build.load.names import yaml_name
from flinkx_build.load.yaml_io import NO_CACHE
from flinkx_build.load.yaml_io import YamlCache
from flinkx_build.load.yaml_io import item_loc
from flinkx_build.load.yaml_io import key_loc
from flinkx_build.load.yaml_io import load_yaml
from flinkx_build.load.yaml_io import mapping_loc
from flinkx_build.load.yaml_io import value_loc
from flinkx_build.load.yaml_values import Values
from flinkx_build.load.yaml_values import scalar_text
from flinkx_build.workspace_model import FUNCTION_KINDS
from flinkx_build.workspace_model import FUNCTION_LANGUAGES
from flinkx_build.workspace_model import TABLE_KINDS
from flinkx_build.workspace_model import Column
from flinkx_build.workspace_model import Function
from flinkx_build.workspace_model import Loc
from flinkx_build.workspace_model import MetaTable
from flinkx_build.workspace_model import Project
from flinkx_build.workspace_model import Workspace
from flinkx_build.type_text import OTHER_DATABASES_TYPES
from flinkx_build.type_text import split_top
from flinkx_build.type_text import structure_problem

TABLE_KEYS = {"name", "type", "kind", "description", "columns", "primary_key", "with", "locked", "stream", "batch"}
COLUMN_KEYS = {"name", "type", "comment", "header"}
FUNCTION_KEYS = {"name", "class", "language", "kind", "returns", "params", "resource", "description"}

# The type names of every supported Flink version (data/flink/<v>/types.json); whether the
# workspace's target has the type is checks/flink_target.py's question (FX124).
FLINK_TYPES = type_heads_of_any_version()
_TYPE_HEAD = re.compile(r"\s*([A-Za-z_]+)")
# DECIMAL(10, 2), TIMESTAMP(3) WITH LOCAL TIME ZONE: numbers separated by commas
_TYPE_PARAMS = re.compile(r"\(\s*\d+\s*(?:,\s*\d+\s*)*\)")


def check_flink_type(type_text: str) -> str | None:
    """The unknown type name in `type_text`, or None if every name is a Flink type."""
    # Check each type keyword that starts the type or follows `<`, `,` or `(`
    # inside ROW<...>/ARRAY<...>/MAP<...>; field names in ROW<a INT> are skipped
    # by only checking the word after a field name.
    problem = structure_problem(type_text)
    if problem:
        return type_text.strip()
    head = _TYPE_HEAD.match(type_text)
    if not head:
        return type_text or "(empty)"
    name = head.group(1).upper()
    if name not in FLINK_TYPES:
        return head.group(1)
    inner = type_text[head.end():].strip()
    if inner.startswith("(") and not _TYPE_PARAMS.match(inner):
        return type_text.strip()
    if name in ("ARRAY", "MULTISET") and inner.startswith("<") and inner.endswith(">"):
        return check_flink_type(inner[1:-1])
    if name == "MAP" and inner.startswith("<") and inner.endswith(">"):
        for part in _split_top(inner[1:-1]):
            bad = check_flink_type(part)
            if bad:
                return bad
    if name == "ROW" and inner.startswith("<") and inner.endswith(">"):
        for field in _split_top(inner[1:-1]):
            parts = field.strip().split(None, 1)
            if len(parts) == 2:
                bad = check_flink_type(parts[1])
                if bad:
                    return bad
    return None


def type_hint(bad: str) -> str:
    """The fix for what check_flink_type returned."""
    problem = structure_problem(bad)
    if problem:
        return f"{problem}: close every backtick, quote and bracket"
    if "(" in bad:
        return "write the parameters as numbers separated by commas, e.g. DECIMAL(16, 2)"
    meant = OTHER_DATABASES_TYPES.get(bad.strip().upper())
    if meant is not None:  # MySQL's DATETIME is TIMESTAMP(3), not TIME (the nearest spelling)
        return f"write {meant}, Flink's type for {bad.strip().upper()}"
    return did_you_mean(bad.upper(), FLINK_TYPES)


def _split_top(text: str) -> list[str]:
    return split_top(text).parts


def _text(value: Any) -> str:
    return scalar_text(value)


class _Reader:
    """Reads one YAML mapping, recording diagnostics at YAML positions."""

    def __init__(self, ws: Workspace, project: Project, shown: str, diags: list[Diagnostic]) -> None:
        self.shown = shown
        self.diags = diags
        self.context = ws.context_for(project.name)
        self.secrets = ws.config.secrets

    def error(self, loc: Loc, code: str, message: str, hint: str = "") -> None:
        self.diags.append(Diagnostic(loc.path, loc.line, loc.col, code, message, hint))

    def unknown_keys(self, node: CommentedMap, allowed: set[str], what: str, skip: frozenset = frozenset()) -> None:
        for key in node:
            if key not in allowed and key not in skip:
                self.error(key_loc(node, key, self.shown), "FX103", f"unknown key '{key}' in {what}", did_you_mean(str(key), allowed))

    def resolve(self, value: str, loc: Loc) -> str:
        for use in find_variables(value, self.context, self.secrets):
            if not use.known:
                hint = did_you_mean(use.name, self.context)
                self.error(loc, "FX110", f"unknown variable '${{{use.name}}}'", hint)
        return render(value, self.context)

    def options(self, node: Any, key: str) -> tuple[dict[str, str], dict[str, Loc]]:
        section = node.get(key) if isinstance(node, dict) else None
        if section is None:
            return {}, {}
        if not isinstance(section, dict):
            self.error(value_loc(node, key, self.shown), "FX104", f"'{key}' must be a mapping of option to value")
            return {}, {}
        options, locs = {}, {}
        for opt, raw in section.items():
            loc = value_loc(section, opt, self.shown)
            if not isinstance(raw, str):
                self.error(loc, "FX106", f"WITH value of '{opt}' is not a string; quote it", f"write '{opt}: \"{_text(raw)}\"'")
            options[str(opt)] = self.resolve(_text(raw), loc)
            locs[str(opt)] = loc
        return options, locs


def load_table(ws: Workspace, project: Project, path: Path, shown: str, diags: list[Diagnostic], cache: YamlCache = NO_CACHE,
               raw: bytes | None = None) -> MetaTable | None:
    data, errors = load_yaml(path, shown, cache, raw)
    diags.extend(errors)
    if data is None and errors:
        return None
    reader = _Reader(ws, project, shown, diags)
    if not isinstance(data, CommentedMap):
        reader.error(Loc(shown, 1, 1), "FX104", "a meta table file must be a mapping")
        return None
    reader.unknown_keys(data, TABLE_KEYS, "meta table")
    loc = mapping_loc(data, shown)
    name = yaml_name(data, path, shown, "table", diags)
    if name is None:  # `../x`, `/etc` or a control character: never a folder or identifier
        return None
    values = Values(shown, diags)
    kind = values.text(data, "kind", "kind", "stream") or "stream"
    if kind not in TABLE_KINDS:
        reader.error(value_loc(data, "kind", shown), "FX104", f"kind must be stream or offline, not '{kind}'", did_you_mean(kind, TABLE_KINDS))
        kind = "stream"
    options, option_locs = reader.options(data, "with")
    ttype = values.text(data, "type", "type") or options.get("connector") or options.get("type") or ""
    if not ttype and "type" not in values.refused:  # a 'type' that is no text is already its own finding
        reader.error(loc, "FX102", f"meta table '{name}' has no 'type' (and no 'with.connector')")
    mismatch = connector_mismatch(ttype, options.get("connector", ""))
    if mismatch and "connector" in option_locs:
        reader.error(option_locs["connector"], "FX104", mismatch[0], mismatch[1])
    columns = _columns(reader, data, name)
    if columns is None:
        return None
    primary_key = _name_list(reader, data, "primary_key")
    names = {c.name.lower() for c in columns}
    for i, col in enumerate(primary_key):
        if col.lower() not in names:
            reader.error(item_loc(data.get("primary_key"), i, shown), "FX151", f"primary key column '{col}' is not a column of '{name}'", did_you_mean(col, [c.name for c in columns]))
    locked = _name_list(reader, data, "locked")
    mirror: dict[str, dict[str, str]] = {}
    mirror_locs: dict[str, dict[str, Loc]] = {}
    for mode in ("stream", "batch"):
        block = data.get(mode)
        if block is not None and not isinstance(block, dict):
            reader.error(value_loc(data, mode, shown), "FX104", f"'{mode}' must be a mapping with a 'with' block")
            block = None
        mirror[mode], mirror_locs[mode] = reader.options(block, "with") if block else ({}, {})
    content = {
        "name": name, "type": ttype, "kind": kind,
        "columns": [(c.name, c.type, c.comment, c.header) for c in columns],
        "primary_key": primary_key, "with": options, "locked": locked, "mirror": mirror,
    }
    return MetaTable(
        project=project.name, name=name, type=ttype, kind=kind, columns=columns,
        primary_key=primary_key, options=options, option_locs=option_locs, locked=locked,
        stream_options=mirror["stream"], batch_options=mirror["batch"], mode_option_locs=mirror_locs,
        description=values.text(data, "description", "description"), loc=loc, content_hash=canonical_hash(content),
        primary_key_loc=key_loc(data, "primary_key", shown) if "primary_key" in data else None,
        locked_loc=key_loc(data, "locked", shown) if "locked" in data else None,
    )


def _columns(reader: _Reader, data: CommentedMap, table: str) -> list[Column] | None:
    shown = reader.shown
    if "columns" not in data:
        loc = mapping_loc(data, shown)
        reader.error(loc, "FX102", f"meta table '{table}' has no 'columns'", "add a 'columns:' list of {name, type}")
        return None
    raw = data["columns"]
    if not isinstance(raw, list) or not raw:
        reader.error(value_loc(data, "columns", shown), "FX104", "'columns' must be a non-empty list of {name, type}")
        return None
    columns: list[Column] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        loc = item_loc(raw, i, shown)
        if not isinstance(item, CommentedMap):
            reader.error(loc, "FX104", "a column must be a mapping with 'name' and 'type'")
            continue
        loc = mapping_loc(item, shown)
        cut = _type_cut_by_flow_mapping(item)
        reader.unknown_keys(item, COLUMN_KEYS, "column", frozenset(cut))
        missing = [k for k in ("name", "type") if k not in item]
        if missing:
            reader.error(loc, "FX102", f"column has no '{missing[0]}'")
            continue
        values = Values(shown, reader.diags)
        name, ctype = values.text(item, "name", "a column's name"), values.text(item, "type", "a column's type")
        bad = check_flink_type(ctype) if "type" not in values.refused else None
        if bad and cut:  # `{name: p, type: DECIMAL(10, 2)}`: YAML ends the value at ", " (one finding, not FX107 + FX103)
            meant = ", ".join([ctype, *map(str, cut)])
            reader.error(value_loc(item, "type", shown), "FX107", f"the type '{meant}' is cut at its comma by YAML's {{...}}",
                         f'quote it: type: "{meant}"')
        elif bad:
            reader.error(value_loc(item, "type", shown), "FX107", f"'{bad}' is not a Flink data type", type_hint(bad))
        if name.lower() in seen:
            reader.error(loc, "FX105", f"column '{name}' is defined twice")
        seen.add(name.lower())
        header = item.get("header", False)
        columns.append(Column(name, ctype, values.text(item, "comment", "a column's comment"), header in (True, "true"), loc))
    return columns


def _type_cut_by_flow_mapping(item: CommentedMap) -> list[str]:
    """The keys that are the rest of a type a flow mapping cut at ", " (`type: DECIMAL(10, 2)` gives the type
    'DECIMAL(10' and a key '2)' without a value), in order; [] when the type's brackets are balanced."""
    ctype = item.get("type")
    if not isinstance(ctype, str) or ctype.count("(") + ctype.count("<") <= ctype.count(")") + ctype.count(">"):
        return []
    return [k for k in item if isinstance(k, (str, int)) and k not in COLUMN_KEYS and item[k] is None
            and re.fullmatch(r"[\w ]*[)>]+", str(k))]


def _name_list(reader: _Reader, data: CommentedMap, key: str) -> list[str]:
    value = data.get(key)
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list):
        reader.error(value_loc(data, key, reader.shown), "FX104", f"'{key}' must be a list of column names")
        return []
    if any(isinstance(v, (dict, list)) for v in value):
        reader.error(value_loc(data, key, reader.shown), "FX104", f"'{key}' must be a list of column names, not of lists or mappings")
    return [_text(v) for v in value if not isinstance(v, (dict, list))]


def load_function(project: Project, path: Path, shown: str, diags: list[Diagnostic], cache: YamlCache = NO_CACHE,
                  raw: bytes | None = None) -> Function | None:
    data, errors = load_yaml(path, shown, cache, raw)
    diags.extend(errors)
    if data is None and errors:
        return None
    if not isinstance(data, CommentedMap):
        diags.append(Diagnostic(shown, 1, 1, "FX104", "a function file must be a mapping"))
        return None
    loc = mapping_loc(data, shown)

    def err(at: Loc, code: str, message: str, hint: str = "") -> None:
        diags.append(Diagnostic(at.path, at.line, at.col, code, message, hint))

    for key in data:
        if key not in FUNCTION_KEYS:
            err(key_loc(data, key, shown), "FX103", f"unknown key '{key}' in function", did_you_mean(str(key), FUNCTION_KEYS))
    for key in ("class", "returns"):
        if key not in data:
            err(loc, "FX102", f"function has no '{key}'")
            return None
    values = Values(shown, diags)
    written = {k: values.text(data, k, k) for k in ("class", "language", "kind", "returns", "resource")}
    language = (written["language"] or "java").lower()
    kind = (written["kind"] or "scalar").lower()
    if language not in FUNCTION_LANGUAGES:
        err(value_loc(data, "language", shown), "FX104", f"language must be one of {', '.join(FUNCTION_LANGUAGES)}", did_you_mean(language, FUNCTION_LANGUAGES))
    if kind not in FUNCTION_KINDS:
        err(value_loc(data, "kind", shown), "FX104", f"kind must be one of {', '.join(FUNCTION_KINDS)}", did_you_mean(kind, FUNCTION_KINDS))
    returns = written["returns"]
    bad = check_flink_type(returns) if "returns" not in values.refused else None
    if bad:
        err(value_loc(data, "returns", shown), "FX107", f"'{bad}' is not a Flink data type", type_hint(bad))
    name = yaml_name(data, path, shown, "function", diags)
    if name is None:
        return None
    class_name, resource = written["class"], written["resource"]
    params = _params(data, shown, diags)
    content: dict[str, Any] = dict(written)
    content["name"] = name
    if params is not None:  # a function without params hashes as before: its tasks' caches stay valid
        content["params"] = params
    return Function(
        project=project.name, name=name, class_name=class_name, language=language, kind=kind,
        returns=returns, resource=resource, loc=loc, content_hash=canonical_hash(content), params=params,
    )


def _params(data: CommentedMap, shown: str, diags: list[Diagnostic]) -> list[str] | None:
    """The declared argument types: `params: [STRING, INT]` (or items `{name: ua, type: STRING}`); None when the
    function declares none, or declares them in a form flinkx cannot read (reported)."""
    if "params" not in data:
        return None
    raw = data["params"]
    at = value_loc(data, "params", shown)
    if not isinstance(raw, list):
        diags.append(Diagnostic(at.path, at.line, at.col, "FX104", "'params' must be a list of the argument types",
                                "params: [STRING, INT] (one Flink type per argument, in order)"))
        return None
    params: list[str] = []
    for i, item in enumerate(raw):
        where = item_loc(raw, i, shown)
        typ = item.get("type") if isinstance(item, CommentedMap) else item
        if not isinstance(typ, str) or not typ.strip():
            diags.append(Diagnostic(where.path, where.line, where.col, "FX104", f"argument {i + 1} of 'params' is not a type",
                                    "params: [STRING, INT] (or items {name: ua, type: STRING})"))
            return None
        bad = check_flink_type(typ)
        if bad:
            diags.append(Diagnostic(where.path, where.line, where.col, "FX107", f"'{bad}' is not a Flink data type", type_hint(bad)))
            return None
        params.append(typ.strip())
    return params
