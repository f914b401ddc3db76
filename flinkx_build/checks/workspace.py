"""Checks that need every task at once: run by `flinkx build` and a whole-workspace `flinkx lint`.

FX460 (cdc_sources): overlapping mysql-cdc server-ids across tasks.
FX470: two tasks write the same table (warning: the writers race, and a change to one
breaks the other's readers). FX471: two tasks read one Kafka topic with the same
`properties.group.id` (warning: they split the topic's partitions between them).
FX480 (credentials): literal credentials in meta-table YAML.
FX495 / FX496: meta tables and functions no task uses (info).
"""
from __future__ import annotations

from flinkx_build.checks.cdc_sources import overlap_findings
from flinkx_build.checks.cdc_sources import readers
from flinkx_build.checks.credentials import yaml_findings
from flinkx_build.checks.sources import reads_of
from flinkx_build.errors import Diagnostic
from flinkx_build.model import Workspace
from flinkx_build.resolve.model import ResolvedTask

CODES = ("FX460", "FX470", "FX471", "FX480", "FX495", "FX496")
# Reported only when asked for (flinkx.yaml `lint: {rules: {FX495: on}}` or `lint --select FX495`),
# like ruff's rules that are off by default: a table kept for tasks to come is no mistake.
OPT_IN = frozenset({"FX495", "FX496"})


def workspace_findings(ws: Workspace, resolved: list[ResolvedTask], whole: bool, opt_in: frozenset[str] = frozenset()) -> list[Diagnostic]:
    """`whole`: every task of the workspace is in `resolved`; `opt_in`: the OPT_IN codes wanted."""
    out = overlap_findings([r for rt in resolved for r in readers(rt)])
    out += _shared_sinks(resolved) + _shared_groups(resolved) + yaml_findings(ws)
    if whole and opt_in:
        out += [d for d in _unused(ws, resolved) if d.code in opt_in]
    return out


def wanted_opt_in(rules: dict[str, bool], selected: tuple[str, ...]) -> frozenset[str]:
    """The opt-in codes turned on in flinkx.yaml or named in full by --select."""
    return frozenset(code for code in OPT_IN if rules.get(code) is True or code in {s.upper() for s in selected})


def _writers(rt: ResolvedTask):
    for rs in rt.statements:
        for ref, bound in zip(rs.parsed.tables, rs.tables):
            if bound.kind == "meta" and ref.role == "write" and rs.parsed.kind == "insert" and not ref.in_hint:
                yield bound.key, ref


def _shared_sinks(resolved: list[ResolvedTask]) -> list[Diagnostic]:
    places: dict[str, list[tuple[ResolvedTask, object]]] = {}
    for rt in resolved:
        for key, ref in _writers(rt):
            if all(other is not rt for other, _ in places.get(key, [])):
                places.setdefault(key, []).append((rt, ref))
    out = []
    for key, writers in places.items():
        for rt, ref in writers if len(writers) > 1 else ():
            others = ", ".join(f"{o.task.display_path}:{r.pos.line}" for o, r in writers if o is not rt)
            out.append(Diagnostic(rt.task.display_path, ref.pos.line, ref.pos.col, "FX470", f"{key} is also written by {others}",
                                  "let one task own each table (a statement set can write several)"))
    return out


def _shared_groups(resolved: list[ResolvedTask]) -> list[Diagnostic]:
    places: dict[tuple[str, str, str], list[tuple[ResolvedTask, object, object]]] = {}
    for rt in resolved:
        for _, bound, options in reads_of(rt, "kafka"):
            group, origin = options.get("properties.group.id", (None, None))
            topic = options.get("topic", ("", None))[0]
            servers = options.get("properties.bootstrap.servers", ("", None))[0]
            if group and topic and origin is not None:
                entry = places.setdefault((servers, topic, group), [])
                if all(other is not rt for other, _, _ in entry):
                    entry.append((rt, origin, bound.key))
    out = []
    for (_, topic, group), readers_ in places.items():
        for rt, origin, key in readers_ if len(readers_) > 1 else ():
            others = ", ".join(o.task.key for o, _, _ in readers_ if o is not rt)
            out.append(Diagnostic(origin.path, origin.line, origin.col, "FX471",
                                  f"{rt.task.key} reads topic '{topic}' ({key}) with properties.group.id '{group}', like {others}",
                                  "give each task its own group id (SET tbl.`properties.group.id` = '<task>_${env}')"))
    return out


def _unused(ws: Workspace, resolved: list[ResolvedTask]) -> list[Diagnostic]:
    tables = {k for rt in resolved for k in rt.reads | rt.writes}
    functions = {k for rt in resolved for k in rt.functions}
    out = []
    for project in ws.projects.values():
        for same in project.tables.values():
            for table in same:
                if table.key not in tables:
                    out.append(Diagnostic(table.loc.path, table.loc.line, table.loc.col, "FX495", f"meta table {table.key} is used by no task",
                                          "delete it, or keep it for tasks to come"))
        for fn in project.functions.values():
            if fn.key not in functions:
                out.append(Diagnostic(fn.loc.path, fn.loc.line, fn.loc.col, "FX496", f"function {fn.key} is used by no task", "delete it, or keep it for tasks to come"))
    return out
