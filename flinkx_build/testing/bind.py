"""Binding test cases to their tasks: tables by the name the task uses, columns, typed values.

Everything a case gets wrong is reported here, before any JVM starts: an unknown task, a table
the task does not read (given) or write (expect), an unknown column (with did-you-mean), a
value that does not convert to its column's type, a change kind the source cannot produce, a
`from:` that names no test.
"""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Any
from typing import Callable

from flinkx_build.errors import Diagnostic
from flinkx_build.errors import did_you_mean
from flinkx_build.load.yaml_io import key_loc
from flinkx_build.load.yaml_io import value_loc
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.resolve.analysed import TableDef
from flinkx_build.testing.fixtures import RawCase
from flinkx_build.testing.fixtures import RawFunction
from flinkx_build.testing.fixtures import RawRow
from flinkx_build.testing.fixtures import RawTable
from flinkx_build.testing.timeline import BoundStep
from flinkx_build.testing.timeline import bind_timeline
from flinkx_build.testing.values import FlinkType
from flinkx_build.testing.values import argument_text
from flinkx_build.testing.values import convert
from flinkx_build.testing.values import parse_type
from flinkx_build.testing.values import to_wire
from flinkx_build.validate import standin
from flinkx_build.workspace_model import Loc

# which change kinds each source changelog mode (validate/standin.py) can produce
_SOURCE_KINDS = {"insert": ("+I",), "upsert": ("+I", "+U", "-D"), "all": ("+I", "-U", "+U", "-D")}


@dataclass(frozen=True)
class ColumnInfo:
    name: str  # as in the DDL
    type: FlinkType
    role: str  # physical | metadata | computed


@dataclass
class TableInfo:
    """A meta table as one task uses it."""

    key: str  # meta table key, e.g. dwd.dwd_orders
    emitted: list[str]  # the names its DDL variants have in the compiled script
    columns: dict[str, ColumnInfo]  # lower-case name -> column
    primary_key: list[str]
    source_mode: str  # insert | upsert | all
    sink_mode: str
    pruned: set[str] = field(default_factory=set)  # meta table columns the task's DDL leaves out (lower)
    watermark: bool = False  # its DDL in this task declares a WATERMARK


@dataclass
class Change:
    kind: str
    values: dict[str, Any]  # DDL column name -> typed value
    loc: Loc | None  # None for what a sink received


@dataclass
class BoundTable:
    table: TableInfo
    form: str  # rows | changelog
    changes: list[Change]
    ordered: bool
    loc: Loc


@dataclass
class TestCase:
    __test__ = False  # not a pytest class

    name: str
    task: str
    mode: str
    loc: Loc
    given: list[BoundTable] = field(default_factory=list)
    expect: list[BoundTable] = field(default_factory=list)
    tables: dict[str, TableInfo] = field(default_factory=dict)  # every meta table of the task
    functions: dict[str, list[dict]] = field(default_factory=dict)  # emitted name (lower) -> calls
    timeline: list[BoundStep] | None = None  # None: every given row at once, then the end of input


def task_tables(resolved: AnalysedTask) -> tuple[dict[str, TableInfo], dict[str, str]]:
    """The task's meta tables by key, and every name a test may use for one -> key."""
    tables: dict[str, TableInfo] = {}
    for key, use in resolved.tables.items():
        if not use.variants:
            continue
        columns: dict[str, ColumnInfo] = {}
        for definition, _ in use.variants:
            for col in definition.columns:
                if col.name.lower() in columns:
                    continue
                role = "computed" if col.expression else "metadata" if col.metadata_key is not None else "physical"
                try:
                    flink_type = parse_type(col.type) if not col.expression else FlinkType("STRING")
                except ValueError:
                    flink_type = FlinkType("STRING")
                columns[col.name.lower()] = ColumnInfo(col.name, flink_type, role)
        first: TableDef = use.variants[0][0]
        connector = standin.original_connector(first.options)
        tables[key] = TableInfo(key, [name for _, name in use.variants], columns, list(first.primary_key),
                                standin.source_changelog(connector, first.options),
                                standin.sink_changelog(connector, first.options),
                                {c.name.lower() for c in use.table.columns} - set(columns),
                                any(definition.watermark for definition, _ in use.variants))
    names: dict[str, str] = {}
    project = resolved.task.project
    for key, info in tables.items():
        table = resolved.tables[key].table
        names[f"{table.project}.{table.name}".lower()] = key
        names[key.lower()] = key
        if table.project == project:
            names.setdefault(table.name.lower(), key)
    for statement in resolved.statements:  # also the names exactly as the task writes them
        for ref, bound in zip(statement.parsed.tables, statement.tables):
            if bound.kind == "meta" and bound.key in tables:
                names.setdefault(".".join(ref.parts).lower(), bound.key)
    return tables, names


Resolver = Callable[[RawCase], tuple[AnalysedTask | None, str]]


def bind_cases(raw_cases: list[RawCase], every_case: list[RawCase], resolve: Resolver,
               default_mode: str) -> tuple[list[TestCase], list[Diagnostic]]:
    """Check and convert `raw_cases`; `from:` may name any of `every_case`. `resolve` gives a
    case's resolved task, or None and a did-you-mean hint when the task does not exist."""
    diags: list[Diagnostic] = []
    by_name = {c.name: c for c in every_case}
    contexts: dict[str, tuple[dict[str, TableInfo], dict[str, str]]] = {}
    cases: list[TestCase] = []

    def context(raw: RawCase) -> tuple[dict[str, TableInfo], dict[str, str]] | None:
        if raw.name not in contexts:
            resolved, _ = resolve(raw)
            if resolved is None:
                return None
            contexts[raw.name] = task_tables(resolved)
        return contexts[raw.name]

    for raw in raw_cases:
        resolved, hint = resolve(raw)
        if resolved is None:
            diags.append(Diagnostic(raw.task_loc.path, raw.task_loc.line, raw.task_loc.col, "FX501",
                                    f"unknown task '{raw.task}'", hint))
            continue
        tables, names = context(raw) or ({}, {})
        case = TestCase(raw.name, resolved.task.key, raw.mode or default_mode, raw.loc, tables=tables)
        given_seen: set[str] = set()
        expect_seen: set[str] = set()
        for entry in raw.given:
            info = _table_info(entry, names, tables, resolved.reads, "given", raw.task, diags, given_seen)
            if info is None:
                continue
            rows, form = entry.rows, entry.form
            if entry.form == "from":
                found = _referenced(entry, info, by_name, context, diags)
                if found is None:
                    continue
                rows, form = found.rows, found.form
            changes = _convert_rows(rows, info, "given", diags)
            _check_kinds(changes, info, diags)
            case.given.append(BoundTable(info, form, changes, False, entry.loc))
        for entry in raw.expect:
            info = _table_info(entry, names, tables, resolved.writes, "expect", raw.task, diags, expect_seen)
            if info is not None:
                changes = _convert_rows(entry.rows, info, "expect", diags)
                case.expect.append(BoundTable(info, entry.form, changes, entry.ordered, entry.loc))
        for function in raw.functions:
            _bind_function(function, resolved, case, diags)
        if raw.timeline is not None:
            case.timeline = _bind_steps(raw, case, names, tables, resolved, diags)
        if not raw.expect and not (case.timeline and any(s.kind in ("expect", "state_keys") for s in case.timeline)):
            diags.append(Diagnostic(raw.loc.path, raw.loc.line, raw.loc.col, "FX500",
                                    f"test '{raw.name}' expects nothing (add a sink under expect)"))
        cases.append(case)
    return cases, diags


def _bind_steps(raw: RawCase, case: TestCase, names: dict[str, str], tables: dict[str, TableInfo],
                resolved: AnalysedTask, diags: list[Diagnostic]) -> list[BoundStep]:
    def lookup(entry: RawTable, section: str) -> TableInfo | None:
        used = resolved.reads if section == "given" else resolved.writes
        return _table_info(entry, names, tables, used, section, raw.task, diags, set())

    def bind_table(entry: RawTable, info: TableInfo, section: str) -> BoundTable:
        changes = _convert_rows(entry.rows, info, section, diags)
        if section == "given":
            _check_kinds(changes, info, diags)
        return BoundTable(info, entry.form, changes, entry.ordered, entry.loc)

    watermarked = {key for key, info in tables.items() if info.watermark}
    return bind_timeline(raw.timeline or [], case.mode, lookup, bind_table, watermarked, lambda i: i.key, diags)


def _table_info(entry: RawTable, names: dict[str, str], tables: dict[str, TableInfo], used: set[str],
                section: str, task: str, diags: list[Diagnostic], seen: set[str]) -> TableInfo | None:
    key = names.get(entry.name.lower())
    if key is not None and key in seen:  # the same table under two of its names
        diags.append(Diagnostic(entry.loc.path, entry.loc.line, entry.loc.col, "FX500",
                                f"table {key} is listed twice under {section}"))
        return None
    if key is not None:
        seen.add(key)
    if key is None or key not in used:
        verb, code = ("read", "FX502") if section == "given" else ("write", "FX503")
        candidates = sorted({n for n, k in names.items() if k in used and "." in n})
        hint = did_you_mean(entry.name, candidates) or (
            f"it {verb}s: {', '.join(candidates)}" if candidates else f"it {verb}s no meta table")
        diags.append(Diagnostic(entry.loc.path, entry.loc.line, entry.loc.col, code,
                                f"task {task} does not {verb} table '{entry.name}'", hint))
        return None
    return tables[key]


def _referenced(entry: RawTable, info: TableInfo, by_name: dict[str, RawCase], context: Callable,
                diags: list[Diagnostic]) -> RawTable | None:
    """The expectation of another test that `from:` names, for the same meta table."""
    loc = entry.ref_loc or entry.loc
    other = by_name.get(entry.ref_test)
    found = None
    if other is not None and (ctx := context(other)) is not None:
        _, other_names = ctx
        key = other_names.get(entry.ref_table.lower())
        found = next((t for t in other.expect if other_names.get(t.name.lower()) == key), None) if key else None
        if found is not None and key != info.key:
            diags.append(Diagnostic(loc.path, loc.line, loc.col, "FX508",
                                    f"test '{other.name}' expects table {key}, not {info.key}"))
            return None
    if found is None:
        what = (f"no test named '{entry.ref_test}'" if other is None
                else f"test '{entry.ref_test}' expects no table '{entry.ref_table}'")
        hint = did_you_mean(entry.ref_test, by_name) if other is None else ""
        diags.append(Diagnostic(loc.path, loc.line, loc.col, "FX508", what, hint))
        return None
    return found


def _convert_rows(rows: list[RawRow], info: TableInfo, section: str, diags: list[Diagnostic]) -> list[Change]:
    changes = []
    for row in rows:
        values: dict[str, Any] = {}
        shown = row.loc.path
        for column, raw in row.values.items():
            col = info.columns.get(str(column).lower())
            at = key_loc(row.values, column, shown)
            if col is None:
                if str(column).lower() in info.pruned:
                    message = (f"column '{column}' of {info.key} is not in this task's DDL "
                               "(dataphinColumnPruning keeps only the columns the task reads)")
                    hint = "leave it out"
                else:
                    message = f"table {info.key} has no column '{column}'"
                    hint = did_you_mean(str(column), [c.name for c in info.columns.values()])
                diags.append(Diagnostic(at.path, at.line, at.col, "FX504", message, hint))
                continue
            if col.role == "computed" or (section == "expect" and col.role == "metadata"):
                why = "is computed by the DDL" if col.role == "computed" else "is read-only metadata"
                diags.append(Diagnostic(at.path, at.line, at.col, "FX509",
                                        f"column '{col.name}' of {info.key} {why} and cannot be {section_verb(section)}"))
                continue
            try:
                values[col.name] = convert(raw, col.type)
            except ValueError as exc:
                vat = value_loc(row.values, column, shown)
                diags.append(Diagnostic(vat.path, vat.line, vat.col, "FX505",
                                        f"column '{col.name}' of {info.key}: {exc}"))
        changes.append(Change(row.kind, values, row.loc))
    return changes


def _bind_function(function: RawFunction, resolved: AnalysedTask, case: TestCase, diags: list[Diagnostic]) -> None:
    """The results a test gives a project function, as the stand-in reads them (java:
    StandinScalarFunction): arguments as text, results in the declared return type."""
    names = {key.lower(): use for key, use in resolved.functions.items()}
    names.update({use.function.name.lower(): use for use in resolved.functions.values()
                  if use.function.project == resolved.task.project})
    use = names.get(function.name.lower())
    loc = function.loc
    if use is None:
        hint = did_you_mean(function.name, list(resolved.functions)) or (
            f"it calls: {', '.join(sorted(resolved.functions))}" if resolved.functions else "it calls no project function")
        diags.append(Diagnostic(loc.path, loc.line, loc.col, "FX510",
                                f"task {resolved.task.key} does not call function '{function.name}'", hint))
        return
    if use.function.kind != "scalar":
        diags.append(Diagnostic(loc.path, loc.line, loc.col, "FX510",
                                f"function '{function.name}' is a {use.function.kind} function; only scalar functions can be given results"))
        return
    try:
        result_type = parse_type(use.function.returns)
    except ValueError:
        result_type = FlinkType("STRING")
    calls = []
    for call in function.calls:
        try:
            returns = to_wire(convert(call.returns, result_type), result_type)
        except ValueError as exc:
            at = call.returns_loc
            diags.append(Diagnostic(at.path, at.line, at.col, "FX505", f"function '{function.name}' returns {result_type}: {exc}"))
            continue
        entry: dict[str, Any] = {"returns": returns}
        if call.args is not None:
            entry["args"] = [argument_text(a) for a in call.args]
        calls.append(entry)
    case.functions[use.emitted_name.lower()] = calls


def section_verb(section: str) -> str:
    return "given" if section == "given" else "expected"


def _check_kinds(changes: list[Change], info: TableInfo, diags: list[Diagnostic]) -> None:
    allowed = _SOURCE_KINDS.get(info.source_mode, _SOURCE_KINDS["all"])
    for change in changes:
        if change.kind not in allowed:
            diags.append(Diagnostic(
                change.loc.path, change.loc.line, change.loc.col, "FX506",
                f"{info.key} is an {info.source_mode}-only source; it cannot produce {change.kind}"
                if info.source_mode == "insert" else
                f"{info.key} is an {info.source_mode} source; it cannot produce {change.kind}",
                f"it produces {', '.join(allowed)}"))
