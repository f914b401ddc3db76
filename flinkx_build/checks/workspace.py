"""Checks that need every task at once: run by `flinkx build` and a whole-workspace `flinkx lint`.

FX460 (cdc_sources): overlapping mysql-cdc server-ids across tasks.
FX470: two tasks write the same table (warning: the writers race, and a change to one
breaks the other's readers). FX471: two tasks read one Kafka topic with the same
`properties.group.id` (warning: they split the topic's partitions between them).
FX480 (credentials): literal credentials in meta-table YAML. FX197 (reserved_options): flinkx's own
`flinkx.*` options written in meta-table YAML.
FX495 / FX496: meta tables and functions no task uses (info).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from flinkx_build.checks.cdc_sources import overlap_findings
from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.checks.credentials import yaml_findings
from flinkx_build.checks.reserved_options import yaml_findings as reserved_yaml_findings
from flinkx_build.errors import Diagnostic
from flinkx_build.workspace_model import Workspace

if TYPE_CHECKING:  # summary.py imports the checks: no cycle at run time
    from flinkx_build.semantic.summary import KafkaRead
    from flinkx_build.semantic.summary import TableWrite
    from flinkx_build.semantic.summary import TaskSummary

# Reported only when asked for (flinkx.yaml `lint: {rules: {FX495: on}}` or `lint --select FX495`),
# like ruff's rules that are off by default: a table kept for tasks to come is no mistake.
OPT_IN = frozenset({"FX495", "FX496"})


def workspace_findings(ws: Workspace, summaries: list[TaskSummary], whole: bool, opt_in: frozenset[str] = frozenset()) -> list[Diagnostic]:
    """`whole`: every task of the workspace is in `summaries`; `opt_in`: the OPT_IN codes wanted."""
    out = across_tasks(summaries) + yaml_only_findings(ws)
    if whole and opt_in:
        out += [d for d in _unused(ws, summaries) if d.code in opt_in]
    return out


def across_tasks(summaries: list[TaskSummary]) -> list[Diagnostic]:
    """The findings that compare tasks with each other (FX460, FX470, FX471): they read only the summaries'
    mysql-cdc readers, sink writes and Kafka reads, in the order given (the workspace's)."""
    return overlap_findings([r for s in summaries for r in s.cdc_readers]) + _shared_sinks(summaries) + _shared_groups(summaries)


def yaml_only_findings(ws: Workspace) -> list[Diagnostic]:
    """The workspace findings that read the meta tables' YAML alone, no task (FX480, reserved names in YAML)."""
    return yaml_findings(ws) + reserved_yaml_findings(ws)


def wanted_opt_in(rules: dict[str, bool], selected: tuple[str, ...]) -> frozenset[str]:
    """The opt-in codes turned on in flinkx.yaml or named in full by --select."""
    return frozenset(code for code in OPT_IN if rules.get(code) is True or code in {s.upper() for s in selected})


def _shared_sinks(summaries: list[TaskSummary]) -> list[Diagnostic]:
    places: dict[str, list[tuple[TaskSummary, TableWrite]]] = {}
    for summary in summaries:
        for write in summary.sink_writes:
            places.setdefault(write.table, []).append((summary, write))
    out = []
    for key, writers in places.items():
        for summary, write in writers if len(writers) > 1 else ():
            others = ", ".join(f"{o.display_path}:{w.line}" for o, w in writers if o is not summary)
            out.append(Diagnostic(summary.display_path, write.line, write.col, "FX470", f"{key} is also written by {others}",
                                  "let one task own each table (a statement set can write several)"))
    return out


def _shared_groups(summaries: list[TaskSummary]) -> list[Diagnostic]:
    places: dict[tuple[str, str, str], list[tuple[TaskSummary, KafkaRead]]] = {}
    for summary in summaries:
        for read in summary.kafka_reads:
            entry = places.setdefault((read.servers, read.topic, read.group), [])
            if all(other is not summary for other, _ in entry):
                entry.append((summary, read))
    out = []
    for (_, topic, group), readers_ in places.items():
        for summary, read in readers_ if len(readers_) > 1 else ():
            others = ", ".join(o.key for o, _ in readers_ if o is not summary)
            o = read.origin
            out.append(Diagnostic(o.path, o.line, o.col, "FX471",
                                  f"{summary.key} reads topic '{topic}' ({read.table}) with properties.group.id '{group}', like {others}",
                                  "give each task its own group id (SET tbl.`properties.group.id` = '<task>_${env}')"))
    return out


def _unused(ws: Workspace, summaries: list[TaskSummary]) -> list[Diagnostic]:
    tables = {k for s in summaries for k in s.read_keys | s.write_keys}
    functions = {k for s in summaries for k in s.functions}
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


# it also reports FX460 and FX480 across tasks, whose checks are `cdc_sources` and `credentials`
CHECK = Check("across tasks", (CheckCode("FX470", "shared-sink"), CheckCode("FX471", "shared-group-id"), CheckCode("FX495", "unused-table"), CheckCode("FX496", "unused-function")), None)
