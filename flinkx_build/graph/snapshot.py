"""One side of `flinkx impact`: what a workspace means at one revision.

A snapshot holds only facts that survive moving the workspace: node ids,
workspace-relative sources, canonical hashes, normalised SQL and the
effective table definitions each task uses. Two snapshots are then compared
by value (`impact.compare`), never by file text.
"""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

import networkx as nx

from flinkx_build.emit.manifest import function_node
from flinkx_build.emit.manifest import table_node
from flinkx_build.emit.manifest import task_node
from flinkx_build.errors import Diagnostic
from flinkx_build.graph.build import workspace_graph
from flinkx_build.graph.columns import column_use
from flinkx_build.hashing import canonical_hash
from flinkx_build.load.workspace import display_path
from flinkx_build.model import Function
from flinkx_build.model import MetaTable
from flinkx_build.pipeline import Session
from flinkx_build.resolve.effective import effective_definition
from flinkx_build.resolve.model import ResolvedTask
from flinkx_build.resolve.model import TableDef


@dataclass
class TaskFacts:
    node: str
    project: str
    source: str  # relative to the workspace root
    fingerprint: str  # equal <=> the task's own rendered SQL means the same
    errors: list[Diagnostic]  # error diagnostics, paths as in the working tree
    reads: set[str]  # table node ids
    writes: set[str]
    functions: set[str]  # function node ids
    columns: dict[str, set[str]]  # table node -> columns read (wildcards included)
    insert_wildcard: set[str]  # table nodes an `INSERT ... SELECT *` passes through
    defs: dict[str, list[TableDef]]  # table node -> effective definitions, one per variant

    @property
    def error_keys(self) -> set[tuple[str, str]]:
        """Errors without positions: a moved line is not a new error."""
        return {(d.code, d.message) for d in self.errors}


@dataclass
class Snapshot:
    graph: nx.DiGraph = field(default_factory=nx.DiGraph)
    projects: set[str] = field(default_factory=set)
    tables: dict[str, MetaTable] = field(default_factory=dict)  # node id -> table
    table_defs: dict[str, TableDef] = field(default_factory=dict)  # node id -> definition without any task's SET
    functions: dict[str, Function] = field(default_factory=dict)
    tasks: dict[str, TaskFacts] = field(default_factory=dict)
    load_errors: list[Diagnostic] = field(default_factory=list)
    engine: str = "flink"
    mode: str = "stream"

    def source(self, node: str) -> str:
        return str(self.graph.nodes[node].get("source", "")) if node in self.graph else ""


def take_snapshot(session: Session, shown_root: Path) -> Snapshot:
    """Resolve every task of the session's workspace.

    `shown_root` is the working tree's workspace folder: diagnostics of a
    revision checked out in a temporary folder are shown at the path the
    same file has in the working tree, so a reviewer can open it.
    """
    ws = session.workspace
    config = ws.config
    snap = Snapshot(engine=config.engine, mode=session.mode)
    snap.projects = set(ws.projects)
    relocate = _relocator(ws.root, shown_root)
    snap.load_errors = [relocate(d) for d in session.load_diagnostics if d.is_error]
    settings = [config.engine, config.flink_version, config.dataphin_version, session.mode]
    for project in ws.projects.values():
        for same_name in project.tables.values():
            for table in same_name:
                node = table_node(table.key)
                snap.tables[node] = table
                snap.table_defs[node] = effective_definition(
                    table, None, None, engine=config.engine, mode=session.mode, task_path="", used_columns=None, diags=[]
                )
        for fn in project.functions.values():
            snap.functions[function_node(fn.key)] = fn
    resolved = [session.resolved(task) for task in session.tasks()]
    snap.graph = workspace_graph(ws, resolved)
    for rt in resolved:
        facts = _task_facts(rt, settings, relocate)
        facts.source = snap.source(facts.node)
        snap.tasks[facts.node] = facts
    return snap


def _task_facts(rt: ResolvedTask, settings: list[str], relocate) -> TaskFacts:
    task = rt.task
    reads = {table_node(k) for k in rt.reads}
    writes = {table_node(k) for k in rt.writes}
    functions = {function_node(k) for k in rt.functions}
    # The task's own text after rendering, normalised. What its names are bound
    # to is compared separately (`impact._changes`): a binding lost with a
    # removed table is that table's change, not the task's.
    statements = [rs.parsed.normalized for rs in rt.statements]
    fingerprint = canonical_hash([settings, statements])
    use = column_use(rt)
    columns = {table_node(k): v for k, v in use.columns.items()}
    return TaskFacts(
        node=task_node(task.key), project=task.project, source="", fingerprint=fingerprint,
        errors=[relocate(d) for d in rt.diagnostics if d.is_error],
        reads=reads, writes=writes, functions=functions,
        columns=columns,
        insert_wildcard={table_node(k) for k in use.insert_wildcard},
        defs={table_node(k): [d for d, _ in u.variants] for k, u in rt.tables.items()},
    )


def _relocator(root: Path, shown_root: Path):
    root = root.resolve()

    def relocate(diag: Diagnostic) -> Diagnostic:
        try:
            rel = Path(diag.path).resolve().relative_to(root)
        except ValueError:
            return diag
        return Diagnostic(display_path(shown_root / rel), diag.line, diag.col, diag.code, diag.message, diag.hint, diag.severity)

    return relocate
