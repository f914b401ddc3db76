"""One side of `flinkx impact`: what a workspace means at one revision.

A snapshot holds only facts that survive moving the workspace: node ids,
workspace-relative sources, canonical hashes, normalised SQL and the
effective table definitions each task uses. Two snapshots are then compared
by value (`impact.compare`), never by file text.
"""
from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field
from functools import cached_property
from functools import partial
from pathlib import Path

import networkx as nx

from flinkx_build.emit.manifest import function_node
from flinkx_build.emit.manifest import table_node
from flinkx_build.emit.manifest import task_node
from flinkx_build.errors import Diagnostic
from flinkx_build.graph.build import GraphParts
from flinkx_build.graph.build import graph_parts
from flinkx_build.graph.build import task_elements
from flinkx_build.load.workspace import display_path
from flinkx_build.pipeline import Session
from flinkx_build.resolve.analysed import TableDef
from flinkx_build.resolve.effective import effective_definition
from flinkx_build.semantic.summary import TaskSummary
from flinkx_build.semantic.summary_cache import project_names
from flinkx_build.workspace_model import Function
from flinkx_build.workspace_model import MetaTable
from flinkx_build.workspace_model import Task


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
    unloaded: set[str]  # table nodes it names whose YAML did not load whole (not in reads or writes)
    # table node -> effective definitions, one per variant: resolving the task costs
    # milliseconds, and only the users of a changed table are asked
    load_defs: Callable[[], dict[str, list[TableDef]]] = field(default=dict, repr=False, compare=False)

    @cached_property
    def defs(self) -> dict[str, list[TableDef]]:
        return self.load_defs()

    @property
    def error_keys(self) -> set[tuple[str, str]]:
        """Errors without positions: a moved line is not a new error."""
        return {(d.code, d.message) for d in self.errors}


class TableDefs(dict):
    """node id -> the table's definition without any task's SET, made when first asked for
    (a thousand effective definitions cost a second; a change asks for a few)."""

    def __init__(self, tables: Mapping[str, MetaTable], make: Callable[[MetaTable], TableDef]) -> None:
        super().__init__()
        self._tables = tables
        self._make = make

    def __missing__(self, node: str) -> TableDef:
        made = self[node] = self._make(self._tables[node])
        return made


@dataclass
class Snapshot:
    graph: nx.DiGraph = field(default_factory=nx.DiGraph)
    projects: set[str] = field(default_factory=set)
    # node id -> table / function; a mapping that may fetch each when first asked for (`forked_snapshot`)
    tables: Mapping[str, MetaTable] = field(default_factory=dict)
    table_defs: Mapping[str, TableDef] = field(default_factory=dict)  # node id -> definition without any task's SET
    functions: Mapping[str, Function] = field(default_factory=dict)
    hashes: dict[str, str] = field(default_factory=dict)  # table and function node id -> canonical content hash
    tasks: dict[str, TaskFacts] = field(default_factory=dict)
    load_errors: list[Diagnostic] = field(default_factory=list)
    engine: str = "flink"
    mode: str = "stream"
    # how the graph was assembled: the tables' and functions' part, then each task's elements in task
    # order; and each task's summary key (None: not cacheable). A task with the same key on both
    # sides has the same facts and elements, so the base reuses the head's (`forked_snapshot`).
    static_parts: GraphParts = field(default_factory=lambda: GraphParts({}))
    task_parts: dict[str, list] = field(default_factory=dict)
    summary_keys: dict[str, str | None] = field(default_factory=dict)
    # what the dependency index records of each project (`impact/scope.py`): the name index's hash,
    # each project's part of it and its folder, and each task's (projects it can name, nodes it names)
    names_hash: str = ""
    names: dict[str, list] = field(default_factory=dict)
    folders: dict[str, str] = field(default_factory=dict)
    reach: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)
    # (code, message) of the load errors of projects a scoped snapshot did not load (the same at both sides)
    quiet_load_keys: set[tuple[str, str]] = field(default_factory=set)
    # a table that did not load whole (its node id in lower case) -> the paths of its YAML as its errors show them:
    # a task naming it records it apart from its reads and writes (`TaskFacts.unloaded`)
    unloaded_paths: dict[str, set[str]] = field(default_factory=dict)

    def source(self, node: str) -> str:
        return str(self.graph.nodes[node].get("source", "")) if node in self.graph else ""


def take_snapshot(session: Session, shown_root: Path, other: Snapshot | None = None) -> Snapshot:
    """Every task's summary (cached by content), and definitions on demand.

    `shown_root` is the working tree's workspace folder: diagnostics of a
    revision checked out in a temporary folder are shown at the path the
    same file has in the working tree, so a reviewer can open it. The
    session must stay usable (its folder on disk) while the snapshot is read.
    `other`: the other side, already taken; its facts serve every task whose summary key is the same.
    """
    snap = static_snapshot(session, shown_root)
    same = shared_tasks(snap, other) if other is not None else set()
    add_tasks(snap, session, shown_root, [t for t in session.tasks() if task_node(t.key) not in same])
    if other is not None:
        reuse(snap, other, same, snap.tasks, snap.task_parts)
    assemble_graph(snap, list(snap.summary_keys))
    return snap


def shared_tasks(snap: Snapshot, other: Snapshot) -> set[str]:
    """The task nodes whose summary key `other` has too: the same summary, so the same facts and graph elements."""
    return {node for node, key in snap.summary_keys.items()
            if key is not None and other.summary_keys.get(node) == key and node in other.tasks}


def reuse(snap: Snapshot, other: Snapshot, same: set[str], made: dict[str, TaskFacts], parts: dict[str, list]) -> None:
    """`snap`'s tasks in task order: `other`'s facts and elements for `same`, `made` and `parts` for the rest."""
    order = list(snap.summary_keys)
    snap.tasks = {node: other.tasks[node] if node in same else made[node] for node in order}
    snap.task_parts = {node: other.task_parts[node] if node in same else parts[node] for node in order}


def static_snapshot(session: Session, shown_root: Path) -> Snapshot:
    """Everything but the tasks' facts: projects, tables, functions, load errors, and each task's summary key."""
    ws = session.workspace
    snap = Snapshot(engine=ws.config.engine, mode=session.mode)
    snap.projects = set(ws.projects)
    relocate = _relocator(ws.root, shown_root)
    snap.load_errors = [relocate(d) for d in session.load_diagnostics if d.is_error]
    snap.unloaded_paths = _unloaded_paths(session, relocate.path)
    for project in ws.projects.values():
        for same_name in project.tables.values():
            for table in same_name:
                snap.tables[table_node(table.key)] = table
        for fn in project.functions.values():
            snap.functions[function_node(fn.key)] = fn
    snap.hashes = {node: item.content_hash for items in (snap.tables, snap.functions) for node, item in items.items()}
    snap.table_defs = bare_definitions(snap)
    snap.static_parts = graph_parts(ws, [])
    snap.summary_keys = {task_node(task.key): session.summary_key(task) for task in session.tasks()}
    cache = session.summary_cache
    if cache is not None and cache.directory is not None:
        snap.names_hash = cache.names_hash
        snap.names = {p.name: project_names(p) for p in ws.projects.values()}
        snap.folders = {p.name: p.directory.name for p in ws.projects.values()}
        snap.reach = {task_node(k): (reachable, dep_nodes(deps)) for k, (reachable, deps) in cache.reached.items()}
    return snap


def _unloaded_paths(session: Session, shown: Callable[[str], str]) -> dict[str, set[str]]:
    """Each table that did not load whole -> the path(s) of its YAML's errors as findings show them (`shown`)."""
    return {table_node(f"{project.name}.{name}").lower(): {shown(path) for path in paths}
            for project in session.workspace.projects.values() for name, paths in project.unloadable_tables.items()}


def dep_nodes(deps: list[tuple[str, str]]) -> list[str]:
    """(kind, key) of `SummaryCache.reached` as graph node ids."""
    return [table_node(key) if kind == "table" else function_node(key) for kind, key in deps]


def add_tasks(snap: Snapshot, session: Session, shown_root: Path, tasks: list[Task]) -> None:
    """The facts and graph elements of `tasks` (each summary read from the cache, or made)."""
    relocate = _relocator(session.workspace.root, shown_root)
    for task, summary in zip(tasks, session.summaries(tasks, compile=False)):
        facts = _task_facts(summary, relocate, partial(_definitions, session, task))
        snap.tasks[facts.node] = facts
        snap.task_parts[facts.node] = task_elements(session.workspace, summary)


def assemble_graph(snap: Snapshot, order: list[str]) -> None:
    """The graph from its parts, the tasks' in `order` (as `workspace_graph` adds them); each task's source from it."""
    parts = GraphParts(snap.static_parts.attrs, list(snap.static_parts.elements))
    for node in order:
        parts.elements.extend(snap.task_parts[node])
    snap.graph = parts.to_networkx()
    for node, facts in snap.tasks.items():
        facts.source = facts.source or snap.source(node)  # (a fact shared with the head has its own already)


def bare_definitions(snap: Snapshot) -> TableDefs:
    """Each table's definition without any task's SET, made when first asked for."""
    return TableDefs(snap.tables, lambda table: effective_definition(
        table, None, None, engine=snap.engine, mode=snap.mode, task_path="", used_columns=None, diags=[]))


def _definitions(session: Session, task: Task) -> dict[str, list[TableDef]]:
    rt = session.analysed(task)
    return {table_node(k): [d for d, _ in u.variants] for k, u in rt.tables.items()}


def _task_facts(summary: TaskSummary, relocate, load_defs: Callable[[], dict[str, list[TableDef]]]) -> TaskFacts:
    columns: dict[str, set[str]] = {}
    for read in summary.reads:
        columns[table_node(read.table)] = set(read.columns)
    return TaskFacts(
        node=task_node(summary.key), project=summary.project, source="", fingerprint=summary.fingerprint,
        errors=[relocate(d) for d in summary.diagnostics if d.is_error],
        reads={table_node(k) for k in summary.read_keys}, writes={table_node(k) for k in summary.write_keys},
        functions={function_node(k) for k in summary.functions},
        columns=columns, insert_wildcard={table_node(k) for k in summary.insert_wildcard},
        unloaded={table_node(k) for k in summary.unloaded_tables},
        load_defs=load_defs,
    )


def _relocator(root: Path, shown_root: Path):
    # the temporary folder's name, as given and resolved, in a message or hint too: a message quoting a path
    # (a link's target, a file that is outside) must not print where flinkx happened to check the revision out
    names = sorted({str(root), str(root.resolve())}, key=len, reverse=True)
    root = root.resolve()
    shown = display_path(shown_root)

    def unfold(text: str) -> str:
        for name in names:
            text = text.replace(name, shown)
        return text

    def where(shown_path: str) -> str:
        path = Path(shown_path)
        try:  # the folder resolved, not the file: a finding may be about a link (FX171: one that loops)
            rel = (path.parent.resolve() / path.name).relative_to(root)
            return display_path(shown_root / rel)
        except (ValueError, OSError, RuntimeError):  # outside the root, or a folder on the way loops
            return unfold(shown_path)

    def relocate(diag: Diagnostic) -> Diagnostic:
        return Diagnostic(where(diag.path), diag.line, diag.col, diag.code, unfold(diag.message), unfold(diag.hint), diag.severity)

    relocate.path = where  # type: ignore[attr-defined]  # a path alone, as a finding's is shown
    return relocate
