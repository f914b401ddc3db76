"""FX420 unknown connector option, FX421 required connector option missing.

What it finds: an option key the table's connector does not have (`scan.startup.mod` for
`scan.startup.mode`), with a "did you mean", wherever it is written: a meta table's YAML `with:`
(and `stream.with`/`batch.with`), a task's `SET t.opt = ...`, an `OPTIONS(...)` hint; and a
required option (kafka's `properties.bootstrap.servers`, jdbc's `url`) that the effective
definition of a table in a task lacks. Flink refuses both only when the job is submitted
("Unsupported options found", "Missing required options are"); flinkx finds them at commit time.

The YAML keys are checked once per table at load time (`table_diagnostics`, also for tables no
task uses); the per-task `check` looks only at what the task adds (SET statements and hints),
so each finding is printed once, at the place to fix. The option lists and their sources are in
flinkx_build/data/connector_options.json (flinkx_build/connectors.py).
"""
from __future__ import annotations

from typing import Iterator
from typing import Mapping

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.connectors import ConnectorSpec
from flinkx_build.connectors import UnknownKey
from flinkx_build.connectors import missing_required
from flinkx_build.connectors import reserved_option
from flinkx_build.connectors import spec_for
from flinkx_build.connectors import unknown_keys
from flinkx_build.engines import ENGINE_ONLY_OPTIONS
from flinkx_build.errors import Diagnostic
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.resolve.analysed import TableDef
from flinkx_build.workspace_model import Loc
from flinkx_build.workspace_model import MetaTable
from flinkx_build.workspace_model import Workspace

# Engines that run Apache Flink's own connectors (MRS adds only source.parallelism, checked as
# FX170), so an unknown key is refused there: an error. VVR's and Blink's connectors are their
# vendors' own and accept more, so on those engines an unknown key is a warning.
REFUSING_ENGINES = frozenset({"flink", "mrs"})
MODES = ("stream", "batch")


def _physical_columns(table: MetaTable) -> Iterator[str]:
    return (c.name for c in table.columns if not c.header)  # read only by a connector with column options


def _unknown(table: MetaTable, spec: ConnectorSpec, options: Mapping[str, str], keys) -> list[UnknownKey]:
    keys = [k for k in keys if not reserved_option(k)]  # FX197 says what is wrong with those (reserved_options.py)
    return unknown_keys(spec, options, keys, _physical_columns(table), allowed=ENGINE_ONLY_OPTIONS)


def _diagnostic(engine: str, table: MetaTable, spec: ConnectorSpec, found: UnknownKey, at: Loc, where: str = "") -> Diagnostic:
    what = f"{table.project}.{table.name} ({spec.name} connector{where})"
    if found.client:
        message = (f"'{found.key}' is not a {found.client.capitalize()} client setting: the {spec.name} connector hands it "
                   f"to the client, which ignores it, so {table.project}.{table.name} keeps the setting it had")
    elif found.ignored:
        message = f"unknown format option '{found.key}' for {what}: Flink ignores it"
    elif found.refused:
        message = f"unknown option '{found.key}' for {what}"
    else:
        message = f"'{found.key}' is not a documented option of {what}"
    hint = found.hint or ("remove it: Flink refuses options its connector does not have" if found.refused else "")
    severity = "error" if found.refused and engine in REFUSING_ENGINES else "warning"
    return Diagnostic(at.path, at.line, at.col, "FX420", message, hint, severity=severity)


def table_diagnostics(ws: Workspace) -> list[Diagnostic]:
    """FX420 for the YAML `with:` keys of every meta table, in each build mode, at the key's line."""
    out: dict[tuple[str, int, int, str], Diagnostic] = {}
    engine = ws.config.engine
    for project in ws.projects.values():
        for table in (t for tables in project.tables.values() for t in tables):
            mirror = any(table.mode_option_locs.get(mode) for mode in MODES)
            for mode in MODES if mirror else MODES[:1]:  # without stream/batch blocks both modes are `with:`
                options = table.options_for_mode(mode)
                spec = spec_for(options, table.type)
                if spec is None:
                    continue
                mode_locs = table.mode_option_locs.get(mode, {})
                for found in _unknown(table, spec, options, options):
                    at = mode_locs.get(found.key) or table.option_locs.get(found.key, table.loc)
                    diag = _diagnostic(engine, table, spec, found, at, f", {mode} mode" if mirror else "")
                    out.setdefault((diag.path, diag.line, diag.col, diag.code), diag)
    return list(out.values())


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    """FX420 for the task's SET and OPTIONS-hint keys, FX421 for each table it uses without a
    required option (at the table's first such reference in the task)."""
    path = analysed.task.display_path
    engine = ws.config.engine
    out: dict[tuple[str, int, int, str], Diagnostic] = {}
    missing_seen: set[tuple[str, tuple[str, ...]]] = set()
    for rs in analysed.statements:
        for ref, bound in rs.table_refs():
            definition = bound.definition
            if bound.kind != "meta" or definition is None:
                continue
            table = definition.table
            hinted = _hint_options(ref)
            options = {**definition.options, **{k: v for k, v, _ in hinted}}
            spec = spec_for(options, table.type)
            if spec is None:
                continue
            for found in _unknown(table, spec, definition.options, _set_keys(definition)):
                origin = definition.origins[f"option:{found.key}"]
                diag = _diagnostic(engine, table, spec, found, Loc(origin.path, origin.line, origin.col))
                out.setdefault((diag.path, diag.line, diag.col, diag.code), diag)
            for key, _, pos in hinted:
                for found in _unknown(table, spec, options, [key]):
                    diag = _diagnostic(engine, table, spec, found, Loc(path, pos.line, pos.col))
                    out.setdefault((diag.path, diag.line, diag.col, diag.code), diag)
            for group in missing_required(spec, options):
                if (table.key, group) in missing_seen:
                    continue
                missing_seen.add((table.key, group))
                diag = _missing(table, spec, group, path, ref.pos.line, ref.pos.col)
                out.setdefault((diag.path, diag.line, diag.col, diag.code + group[0]), diag)
    return list(out.values())


def _set_keys(definition: TableDef) -> list[str]:
    """The option keys a task's SET statements gave this definition."""
    return [key for key in definition.options if (o := definition.origins.get(f"option:{key}")) is not None and o.layer == "set"]


def _hint_options(ref) -> list[tuple[str, str, object]]:
    """(key, value, hint position) of every OPTIONS('k'='v') hint on the reference."""
    return [(key, value, hint.pos) for hint in ref.hints if not hint.error
            for item in hint.items if item.lower == "options" for key, value in item.options]


def _missing(table: MetaTable, spec: ConnectorSpec, group: tuple[str, ...], path: str, line: int, col: int) -> Diagnostic:
    names = " nor ".join(f"'{k}'" for k in group)
    what = f"{'neither ' if len(group) > 1 else ''}{names}"
    key = group[0]
    return Diagnostic(
        path, line, col, "FX421",
        f"{table.project}.{table.name} ({spec.name} connector) has {what if len(group) > 1 else 'no ' + what}: the connector requires it",
        f"add '{key}' under with: in {table.loc.path}, or SET {table.name}.`{key}` = '...' in this task",
    )


# a stand-in connector takes any option: `flinkx validate`'s planner never sees these
CHECK = Check("connector options", (CheckCode("FX420", "unknown-connector-option"), CheckCode("FX421", "missing-connector-option")), check, flink_finds_it=False)
