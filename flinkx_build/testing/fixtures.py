"""Reading test files: `projects/<project>/tests/*.yaml`, one or more cases a file.

This module checks the shape only (keys, lists, change kinds) and keeps every value with its
YAML position; bind.py checks the cases against the tasks and tables. Every mistake is one
FX5xx line at its position in the YAML.
"""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.comments import CommentedSeq

from flinkx_build.errors import Diagnostic
from flinkx_build.errors import did_you_mean
from flinkx_build.load.workspace import display_path
from flinkx_build.load.yaml_io import YamlCache
from flinkx_build.load.yaml_io import item_loc
from flinkx_build.load.yaml_io import key_loc
from flinkx_build.load.yaml_io import load_yaml
from flinkx_build.load.yaml_io import mapping_loc
from flinkx_build.load.yaml_io import value_loc
from flinkx_build.workspace_model import MODES
from flinkx_build.workspace_model import Loc
from flinkx_build.workspace_model import Workspace

TESTS_DIR = "tests"
KINDS = ("+I", "-U", "+U", "-D")
_CASE_KEYS = ("name", "task", "mode", "description", "given", "expect", "functions", "timeline")
_CALL_KEYS = ("args", "returns")
_GIVEN_KEYS = ("rows", "changelog", "from")
_EXPECT_KEYS = ("rows", "changelog", "kinds", "ordered")
# one key a timeline step (docs/testing.md#timelines)
STEP_KINDS = ("rows", "watermark", "idle", "active", "proctime", "expect", "state_keys")


@dataclass
class RawRow:
    """One row (or change) as written: its kind and the mapping of column: value."""

    kind: str
    values: Any  # CommentedMap: column -> scalar, positions in .lc
    loc: Loc


@dataclass
class RawTable:
    """A `given` or `expect` entry: rows, a changelog, or rows taken from another test."""

    name: str  # the table as the test names it
    loc: Loc
    form: str  # rows | changelog | kinds | from
    rows: list[RawRow] = field(default_factory=list)
    ordered: bool = False
    ref_test: str = ""  # from: {test: ..., table: ...}
    ref_table: str = ""
    ref_loc: Loc | None = None


@dataclass
class RawStep:
    """One step of a case's timeline, as written: its kind and what it names, with positions."""

    kind: str  # one of STEP_KINDS
    loc: Loc
    tables: list[RawTable] = field(default_factory=list)  # rows, expect
    times: list[tuple[str, Any, Loc]] = field(default_factory=list)  # watermark: (source or "", time); proctime: ("", time)
    sources: list[tuple[str, Loc]] = field(default_factory=list)  # idle, active
    keys: list[tuple[str, int, Loc]] = field(default_factory=list)  # state_keys: (operator, keys held)


@dataclass
class RawCall:
    """What a project function returns for some arguments (args None: for any other call)."""

    args: list[Any] | None
    returns: Any
    loc: Loc
    returns_loc: Loc


@dataclass
class RawFunction:
    name: str  # as the task calls it: proj:fn, or the bare name in the task's own project
    loc: Loc
    calls: list[RawCall] = field(default_factory=list)


@dataclass
class RawCase:
    name: str
    task: str  # project/task
    mode: str | None
    project: str  # the project whose tests/ folder holds the file
    loc: Loc
    task_loc: Loc
    given: list[RawTable] = field(default_factory=list)
    expect: list[RawTable] = field(default_factory=list)
    functions: list[RawFunction] = field(default_factory=list)
    timeline: list[RawStep] | None = None  # None: no timeline (every row at once, as before)


def test_files(ws: Workspace) -> list[tuple[str, Path]]:
    """(project, path) of every test file, in a stable order."""
    found = []
    for project in ws.projects.values():
        folder = project.directory / TESTS_DIR
        if folder.is_dir():
            found += [(project.name, p) for p in sorted(folder.rglob("*"))
                      if p.is_file() and p.suffix in (".yaml", ".yml")]
    return found


def read_cases(ws: Workspace, use_cache: bool = True) -> tuple[list[RawCase], list[Diagnostic]]:
    cache = YamlCache.under(ws.cache_root if use_cache else None)
    cases: list[RawCase] = []
    diags: list[Diagnostic] = []
    for project, path in test_files(ws):
        shown = display_path(path)
        data, errors = load_yaml(path, shown, cache)
        diags += [Diagnostic(d.path, d.line, d.col, "FX500", d.message) for d in errors]
        if data is None:
            continue
        items = data if isinstance(data, CommentedSeq) else [data]
        for index, node in enumerate(items):
            loc = item_loc(data, index, shown) if isinstance(data, CommentedSeq) else mapping_loc(data, shown)
            case = _case(node, project, loc, shown, diags)
            if case is not None:
                cases.append(case)
    seen: dict[str, RawCase] = {}
    for case in cases:
        if case.name in seen:
            first = seen[case.name].loc
            diags.append(Diagnostic(case.loc.path, case.loc.line, case.loc.col, "FX507",
                                    f"test '{case.name}' is defined twice (first at {first.path}:{first.line})"))
        seen.setdefault(case.name, case)
    return cases, diags


def _error(diags: list[Diagnostic], loc: Loc, code: str, message: str, hint: str = "") -> None:
    diags.append(Diagnostic(loc.path, loc.line, loc.col, code, message, hint))


def _unknown_keys(node: CommentedMap, allowed: tuple[str, ...], where: str, shown: str,
                  diags: list[Diagnostic]) -> None:
    for key in node:
        if key not in allowed:
            _error(diags, key_loc(node, key, shown), "FX500", f"unknown key '{key}' in {where}",
                   did_you_mean(str(key), allowed) or f"expected one of: {', '.join(allowed)}")


def _case(node: Any, project: str, loc: Loc, shown: str, diags: list[Diagnostic]) -> RawCase | None:
    if not isinstance(node, CommentedMap):
        _error(diags, loc, "FX500", "a test case must be a mapping with name, task, given and expect")
        return None
    _unknown_keys(node, _CASE_KEYS, "a test case", shown, diags)
    missing = [k for k in ("name", "task") if k not in node] + (
        [] if "expect" in node or "timeline" in node else ["expect"])
    if missing:
        _error(diags, loc, "FX500", f"test case without {', '.join(missing)}")
        return None
    mode = node.get("mode")
    if mode is not None and str(mode) not in MODES:
        _error(diags, value_loc(node, "mode", shown), "FX500", f"mode must be stream or batch, not '{mode}'")
        mode = None
    case = RawCase(str(node["name"]), str(node["task"]).strip().removesuffix(".sql"),
                   str(mode) if mode is not None else None, project, loc,
                   value_loc(node, "task", shown))
    for section, target, allowed in (("given", case.given, _GIVEN_KEYS), ("expect", case.expect, _EXPECT_KEYS)):
        tables = node.get(section)
        if tables is None:
            continue
        if not isinstance(tables, CommentedMap):
            _error(diags, value_loc(node, section, shown), "FX500",
                   f"{section} must be a mapping of table: rows")
            continue
        for name, entry in tables.items():
            table = _table(section, str(name), entry, key_loc(tables, name, shown),
                           value_loc(tables, name, shown), allowed, shown, diags)
            if table is not None:
                target.append(table)
    if "timeline" in node:
        case.timeline = _timeline(node["timeline"], value_loc(node, "timeline", shown), shown, diags)
    functions = node.get("functions")
    if isinstance(functions, CommentedMap):
        for name, calls in functions.items():
            case.functions.append(_function(str(name), calls, key_loc(functions, name, shown), shown, diags))
    elif functions is not None:
        _error(diags, value_loc(node, "functions", shown), "FX500",
               "functions must be a mapping of function: [{args: [...], returns: value}, ...]")
    return case


def _timeline(seq: Any, at: Loc, shown: str, diags: list[Diagnostic]) -> list[RawStep]:
    if not isinstance(seq, CommentedSeq):
        _error(diags, at, "FX500", "timeline must be a list of steps",
               f"each step is a mapping with one of: {', '.join(STEP_KINDS)}")
        return []
    steps = []
    for index, node in enumerate(seq):
        loc = item_loc(seq, index, shown)
        if not isinstance(node, CommentedMap) or len(node) != 1:
            _error(diags, loc, "FX500", "a timeline step is a mapping with exactly one key",
                   f"one of: {', '.join(STEP_KINDS)}")
            continue
        kind = str(next(iter(node)))
        if kind not in STEP_KINDS:
            _error(diags, key_loc(node, kind, shown), "FX500", f"unknown timeline step '{kind}'",
                   did_you_mean(kind, STEP_KINDS) or f"expected one of: {', '.join(STEP_KINDS)}")
            continue
        step = RawStep(kind, loc)
        body, body_loc = node[kind], value_loc(node, kind, shown)
        if kind in ("rows", "expect"):
            section, allowed = ("given", _GIVEN_KEYS[:2]) if kind == "rows" else ("expect", _EXPECT_KEYS)
            if not isinstance(body, CommentedMap):
                _error(diags, body_loc, "FX500", f"a {kind} step must be a mapping of table: rows")
                continue
            for name, entry in body.items():
                table = _table(section, str(name), entry, key_loc(body, name, shown),
                               value_loc(body, name, shown), allowed, shown, diags)
                if table is not None:
                    step.tables.append(table)
        elif kind == "watermark":
            if isinstance(body, CommentedMap):  # per source
                step.times = [(str(k), v, value_loc(body, k, shown)) for k, v in body.items()]
            elif isinstance(body, CommentedSeq):
                _error(diags, body_loc, "FX500", "watermark takes a time (every source) or a mapping of source: time")
                continue
            else:
                step.times = [("", body, body_loc)]
        elif kind == "proctime":
            step.times = [("", body, body_loc)]
        elif kind == "state_keys":
            if not isinstance(body, CommentedMap) or not body:
                _error(diags, body_loc, "FX500", "state_keys takes a mapping of operator: number of keys",
                       "e.g. state_keys: {GlobalWindowAggregate: 1}")
                continue
            for name, count in body.items():
                at = value_loc(body, name, shown)
                if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                    _error(diags, at, "FX500", f"state_keys of '{name}' must be a number of keys (0 or more)")
                    continue
                step.keys.append((str(name), count, at))
        else:  # idle, active: a source or a list of sources
            names = body if isinstance(body, CommentedSeq) else [body]
            for i, name in enumerate(names):
                if isinstance(name, (CommentedMap, CommentedSeq)) or name is None:
                    _error(diags, body_loc, "FX500", f"{kind} takes a source table or a list of them")
                    break
                step.sources.append((str(name), item_loc(body, i, shown) if names is body else body_loc))
        steps.append(step)
    return steps


def _function(name: str, calls: Any, loc: Loc, shown: str, diags: list[Diagnostic]) -> RawFunction:
    function = RawFunction(name, loc)
    if not isinstance(calls, CommentedSeq):
        _error(diags, loc, "FX500", f"function '{name}' needs a list of {{args: [...], returns: value}}")
        return function
    for index, call in enumerate(calls):
        at = item_loc(calls, index, shown)
        if not isinstance(call, CommentedMap) or "returns" not in call:
            _error(diags, at, "FX500", "a call must be {args: [...], returns: value} (without args: any other call)")
            continue
        _unknown_keys(call, _CALL_KEYS, f"a call of '{name}'", shown, diags)
        args = call.get("args")
        if args is not None and not isinstance(args, CommentedSeq):
            _error(diags, value_loc(call, "args", shown), "FX500", "args must be a list of argument values")
            continue
        function.calls.append(RawCall(list(args) if args is not None else None, call["returns"], at,
                                      value_loc(call, "returns", shown)))
    return function


def _table(section: str, name: str, entry: Any, loc: Loc, at: Loc, allowed: tuple[str, ...],
           shown: str, diags: list[Diagnostic]) -> RawTable | None:
    table = RawTable(name, loc, "rows")
    if isinstance(entry, CommentedSeq):  # the short form: a list of rows
        table.rows = _rows(entry, shown, diags)
        return table
    if not isinstance(entry, CommentedMap):
        _error(diags, at, "FX500", f"{section} '{name}' must be a list of rows or a mapping with "
               + " or ".join(f"'{k}'" for k in allowed if k != "ordered"))
        return None
    _unknown_keys(entry, allowed, f"{section} '{name}'", shown, diags)
    forms = [k for k in ("rows", "changelog", "kinds", "from") if k in entry]
    if len(forms) != 1:
        _error(diags, loc, "FX500", f"{section} '{name}' needs exactly one of "
               + ", ".join(k for k in allowed if k != "ordered"))
        return None
    table.form = forms[0]
    table.ordered = entry.get("ordered") is True
    body = entry[table.form]
    body_loc = value_loc(entry, table.form, shown)
    if table.form == "from":
        if not isinstance(body, CommentedMap) or set(body) != {"test", "table"}:
            _error(diags, body_loc, "FX500", "from must be {test: <test name>, table: <table of that test's expect>}")
            return None
        table.ref_test, table.ref_table, table.ref_loc = str(body["test"]), str(body["table"]), body_loc
        return table
    if not isinstance(body, CommentedSeq):
        _error(diags, body_loc, "FX500", f"{table.form} must be a list")
        return None
    if table.form == "kinds":
        table.rows = _kinds(body, shown, diags)
    else:
        table.rows = _changes(body, shown, diags) if table.form == "changelog" else _rows(body, shown, diags)
    return table


def _kinds(seq: CommentedSeq, shown: str, diags: list[Diagnostic]) -> list[RawRow]:
    """`kinds: [+I, -U, +U]`: the change kinds a sink received, in order, values not compared."""
    kinds = []
    for index, item in enumerate(seq):
        loc = item_loc(seq, index, shown)
        kind = str(item).strip()
        if kind not in KINDS:
            _error(diags, loc, "FX506", f"unknown change kind '{kind}'", f"expected one of: {', '.join(KINDS)}")
            continue
        kinds.append(RawRow(kind, CommentedMap(), loc))
    return kinds


def _rows(seq: CommentedSeq, shown: str, diags: list[Diagnostic]) -> list[RawRow]:
    rows = []
    for index, item in enumerate(seq):
        loc = item_loc(seq, index, shown)
        if not isinstance(item, CommentedMap):
            _error(diags, loc, "FX500", "a row must be a mapping of column: value")
            continue
        rows.append(RawRow("+I", item, loc))
    return rows


def _changes(seq: CommentedSeq, shown: str, diags: list[Diagnostic]) -> list[RawRow]:
    changes = []
    for index, item in enumerate(seq):
        loc = item_loc(seq, index, shown)
        if not (isinstance(item, CommentedSeq) and len(item) == 2 and isinstance(item[1], CommentedMap)):
            _error(diags, loc, "FX500", "a change must be [kind, {column: value, ...}]",
                   "for example [+U, {id: 1, name: anna}]")
            continue
        kind = str(item[0]).strip()
        if kind not in KINDS:
            _error(diags, item_loc(item, 0, shown), "FX506", f"unknown change kind '{kind}'",
                   f"expected one of: {', '.join(KINDS)}")
            continue
        changes.append(RawRow(kind, item[1], loc))
    return changes
