"""FX122 option removed in the target Flink version, FX123 deprecated option key, FX124 data type
the target does not have, FX126 built-in called with the wrong number of arguments, FX498 option
value the connector or format does not accept.

What each finds, judged by the workspace's `flink_version` (flink_data.facts_for):

* FX122/FX123: a Flink configuration key in `SET` that the target no longer reads (removed in
  2.0: `table.exec.topn-cache-size`, ...) or reads only as an old name of another option. Flink
  ignores unknown keys without a word, so the job runs without the setting: a warning, naming
  the version and the replacement where Flink's own jars name one.
* FX124: a column type (meta table YAML, CREATE TABLE or ALTER TABLE in the task, CAST) that
  the target's parser does not know (VARIANT on 1.20), with the versions that have it.
* FX128: a Flink configuration key in `SET` that the target does not read but that is a near miss
  of one it does (`table.exec.mini-batch.enable`): Flink ignores it, a warning with the key meant.
* FX126: a call of a built-in with fewer or more arguments than every signature of the target
  takes (Flink: "Invalid number of arguments to function"). Only functions called with plain
  `f(a, b)` syntax are counted: those whose name is a parser keyword have special forms
  (`TRIM(BOTH ' ' FROM a)`, `EXTRACT(YEAR FROM ts)`) whose operands are not the written ones.
* FX498: an enum option of a connector or format in the target's jars given a value it does not
  accept (datagen's `'fields.id.kind' = 'bogus'`), or a typed one (Duration, Boolean, ...) an empty
  value; Flink refuses it when the job starts.
"""
from __future__ import annotations

import difflib
from typing import Iterator

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.connectors import spec_for
from flinkx_build.engine_settings import refusal
from flinkx_build.errors import Diagnostic
from flinkx_build.flink_data import FactoryFact
from flinkx_build.flink_data import FlinkFacts
from flinkx_build.flink_data import OptionFact
from flinkx_build.flink_data import facts_or_default
from flinkx_build.flink_data import versions_with_type
from flinkx_build.frontend import query_ir as ir
from flinkx_build.frontend.positions import Pos
from flinkx_build.workspace_model import Workspace
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.resolve.sets import is_flink_config
from flinkx_build.type_text import bracket_body
from flinkx_build.type_text import row_fields
from flinkx_build.type_text import split_top



def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    facts = facts_or_default(ws.config.flink_version)
    path = analysed.task.display_path
    out: dict[tuple[str, int, int, str], Diagnostic] = {}

    def add(diag: Diagnostic | None) -> None:
        if diag is not None:
            out.setdefault((diag.path, diag.line, diag.col, diag.code), diag)

    for rs in analysed.statements:
        stmt = rs.parsed
        for key, pos in _config_keys(ws, analysed, rs):
            add(option_finding(facts, key, path, pos))
        if stmt.query is not None:
            for expr in _expressions(stmt.query):
                if expr.kind != ir.CALL or expr.pos is None or expr.project:
                    continue
                add(_arity(facts, expr, path))
                if expr.type_text:
                    add(type_finding(facts, expr.type_text, path, expr.pos))
            for column in stmt.query.create_columns + stmt.query.added_columns:
                if column.type_text and column.pos is not None:
                    add(type_finding(facts, column.type_text, path, column.pos))
        for bound, ref in zip(rs.tables, stmt.tables):
            definition = bound.definition
            if bound.kind != "meta" or definition is None:
                continue
            hinted = [(key, value, hint.pos) for hint in ref.hints if not hint.error
                      for item in hint.items if item.lower == "options" for key, value in item.options]
            merged = {**definition.options, **{k: v for k, v, _ in hinted}}
            for key, value, pos in hinted:  # OPTIONS('k' = 'v') on this reference
                add(value_finding(facts, merged, key, value, path, pos, table_type=definition.table.type))
            for column in definition.table.columns:
                add(type_finding(facts, column.type, column.loc.path, Pos(column.loc.line, column.loc.col)))
            for key, value in definition.options.items():
                origin = definition.origins.get(f"option:{key}")
                at = (origin.path, Pos(origin.line, origin.col)) if origin else (definition.table.loc.path,
                                                                                  Pos(definition.table.loc.line, definition.table.loc.col))
                add(value_finding(facts, definition.options, key, value, *at, table_type=definition.table.type))
    return list(out.values())


# ---------------------------------------------------------------- options
def _config_keys(ws: Workspace, analysed: AnalysedTask, rs) -> Iterator[tuple[str, Pos]]:
    """(key, position) of the Flink configuration a statement SETs."""
    stmt = rs.parsed
    option = stmt.set_option
    if option is not None and is_flink_config(ws, analysed.task.project, option):
        yield ".".join(option.parts), option.pos
    if stmt.flink_set is not None:
        yield stmt.flink_set[0], stmt.code_pos or stmt.pos


def option_finding(facts: FlinkFacts, key: str, path: str, pos: Pos) -> Diagnostic | None:
    """FX122 for a key the target removed, FX123 for one it reads only as an old name."""
    main = facts.main_key(key)
    if main is None:
        removed = facts.removed.get(key)
        if removed is None:
            return _misspelt_key(facts, key, path, pos)
        hint = (f"use '{removed.replacement}'" if removed.replacement
                else "remove it, or find what replaces it in the Flink release notes")
        return Diagnostic(path, pos.line, pos.col, "FX122",
                          f"'{key}' was removed in Flink {removed.removed_in}: Flink {facts.version} ignores it without a word",
                          hint, severity="warning")
    option = facts.options[main]
    if main != key and key in option.deprecated_keys:
        return Diagnostic(path, pos.line, pos.col, "FX123",
                          f"'{key}' is a deprecated name of '{main}' in Flink {facts.version}",
                          f"use '{main}'", severity="warning")
    if main == key and option.deprecated:
        return Diagnostic(path, pos.line, pos.col, "FX123", f"'{key}' is deprecated in Flink {facts.version}",
                          "see the version's configuration page for what replaces it; a later version removes it",
                          severity="warning")
    return None


def _misspelt_key(facts: FlinkFacts, key: str, path: str, pos: Pos) -> Diagnostic | None:
    """FX128 for a key a task may SET that the target does not read but that is a near miss of one it
    does (`table.exec.mini-batch.enable`): Flink ignores it without a word, so the job runs without the
    setting. Only near misses: a connector's jar declares options of its own (`table.exec.hive.*`) that
    the target's facts do not hold, and those must stay quiet. A key outside the allow-list is FX196's."""
    if refusal(key):
        return None
    near = difflib.get_close_matches(key, [k for k in facts.options if not k.startswith("__")], n=1, cutoff=0.85)
    if not near:
        return None
    return Diagnostic(path, pos.line, pos.col, "FX128",
                      f"'{key}' is not a configuration key of Flink {facts.version}: Flink ignores it without a word",
                      f"did you mean '{near[0]}'?")


def _factories(facts: FlinkFacts, options: dict[str, str]) -> Iterator[tuple[FactoryFact, str]]:
    """(factory, the prefix its keys carry) for the table's connector and its formats."""
    connector = facts.factories.get(f"connector:{options.get('connector', '').strip().lower()}")
    if connector is not None:
        yield connector, ""
    for key in ("format", "key.format", "value.format"):
        name = options.get(key, "").strip().lower()
        fmt = facts.factories.get(f"format:{name}")
        if fmt is not None:
            yield fmt, f"{key[: -len('format')]}{name}."


def value_finding(facts: FlinkFacts, options: dict[str, str], key: str, value: str, path: str, pos: Pos,
                  table_type: str = "") -> Diagnostic | None:
    """FX498 when `key` is an enum option of the table's connector or format and `value` is not one of its values, or
    a typed option (Duration, Boolean, ...) and `value` is empty:
    the target's jars' factories first, then a connector outside them with documented values (kafka)."""
    spec = spec_for(options, table_type)
    documented = dict(spec.values) if spec is not None else {}
    if key in documented and "${" not in value and value.strip().upper() not in {v.upper() for v in documented[key]}:
        return Diagnostic(path, pos.line, pos.col, "FX498", f"'{key}' = '{value}' is not a value the {spec.name} connector accepts",
                          f"one of: {', '.join(documented[key])}")
    for factory, prefix in _factories(facts, options):
        if prefix and not key.startswith(prefix):
            continue
        option = factory.option(key[len(prefix):]) or _column_option(factory, key)
        if option is None or "${" in value:
            continue
        if not value.strip() and option.type in _PARSED_TYPES:
            return Diagnostic(path, pos.line, pos.col, "FX498",
                              f"'{key}' = '{value}' is not a value the {factory.name} {factory.kind} of Flink {facts.version} accepts",
                              f"an empty {option.type}: write one, or leave the option out for its default")
        if not option.values:
            continue
        if value.strip().upper() not in {v.upper() for v in option.values}:
            return Diagnostic(path, pos.line, pos.col, "FX498",
                              f"'{key}' = '{value}' is not a value the {factory.name} {factory.kind} of Flink {facts.version} accepts",
                              f"one of: {', '.join(option.values)}")
    return None


# option types Flink parses when a factory validates the table (FactoryUtil reads every option it declares, the
# ones its table does not use too): an empty value is none of theirs (seed 001's `'source.monitor-interval'=''`)
_PARSED_TYPES = frozenset({"Boolean", "Integer", "Long", "Float", "Double", "Duration", "MemorySize"})


def _column_option(factory: FactoryFact, key: str) -> OptionFact | None:
    """datagen's per-column keys (`fields.<column>.kind`) are declared as `fields.#.kind`."""
    parts = key.split(".")
    if len(parts) == 3 and parts[0] == "fields":
        return factory.option(f"fields.#.{parts[2]}")
    return None


# ---------------------------------------------------------------- types
def _type_names(type_text: str) -> Iterator[str]:
    """The type names a column type is made of: its head and the element, key, value and field types."""
    text = type_text.strip()
    head = text.split("<", 1)[0].split("(", 1)[0].split()
    if not head:
        return
    yield head[0].upper()
    body = bracket_body(text) if "<" in text else None
    if body is None:
        return
    if head[0].upper() == "ROW":
        for _, field_type in row_fields(text):
            yield from _type_names(field_type)
    else:
        for part in split_top(body).parts:
            yield from _type_names(part)


def type_finding(facts: FlinkFacts, type_text: str, path: str, pos: Pos) -> Diagnostic | None:
    """FX124 for a type name another supported version knows and the target does not."""
    for name in _type_names(type_text):
        if name in facts.type_heads:
            continue
        others = versions_with_type(name)
        if not others:
            return None  # no version knows it: the loader's FX107 (or Flink) speaks about it
        return Diagnostic(path, pos.line, pos.col, "FX124",
                          f"type {name} does not exist in Flink {facts.version} (Flink {', '.join(others)} has it)",
                          f"set flink_version to {others[0]} in flinkx.yaml, or use a type Flink {facts.version} has")
    return None


# ---------------------------------------------------------------- function calls
def _expressions(query: ir.StatementQuery) -> Iterator[ir.Expr]:
    roots: list[ir.Expr | None] = []
    for q in query.queries:
        roots += [item.expr for item in q.items] + [q.where, q.having] + q.group_by + q.order_by
        roots += [e for row in q.rows for e in row]
        for source in q.sources:
            roots += [source.on, source.time_column] + source.partition_by + source.args
    roots += [c.expr for c in query.create_columns + query.added_columns]
    for root in roots:
        if root is not None:
            yield from root.walk()


def _arity(facts: FlinkFacts, expr: ir.Expr, path: str) -> Diagnostic | None:
    name = expr.text.upper()
    if name not in facts.arity or name in facts.keywords or expr.over:
        return None  # a parser keyword has its own call syntax: its written arguments are not its operands
    low, high = facts.arity[name]
    count = len(expr.args)
    if low <= count and (high is None or count <= high):
        return None
    signatures = facts.signatures.get(name, ())
    if count > low and not signatures:
        # a range from Calcite's operator table alone (no signatures of the new type inference) does
        # not list every overload the planner takes: 1.20 plans DATE_FORMAT(ts, 'from', 'to') although
        # its range is 2 (found by the differential harness). Too many arguments stay quiet there.
        return None
    wanted = f"{low}" if low == high else f"{low} to {high}" if high is not None else f"at least {low}"
    hint = "; ".join(signatures[:3]) if signatures else f"call it with {wanted} argument(s)"
    return Diagnostic(path, expr.pos.line, expr.pos.col, "FX126",
                      f"{name} takes {wanted} argument(s) in Flink {facts.version}, not {count}", hint)


# FX125 (a built-in the target lacks) is raised where function names resolve (resolve/names.py);
# it belongs to this family and its page. FX498: validate's stand-in connectors take any value,
# so the planner never sees it.
CHECK = Check("the target Flink version", (
    CheckCode("FX122", "removed-option"), CheckCode("FX123", "deprecated-option"), CheckCode("FX124", "type-not-in-target"),
    CheckCode("FX125", "function-not-in-target"), CheckCode("FX126", "function-arity"), CheckCode("FX128", "unknown-config-key"),
    CheckCode("FX498", "option-value"),
), check)
