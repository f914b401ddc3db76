"""graph: the workspace as one networkx DiGraph, read from the task summaries.

Edges: table -> task that reads it, task -> table it writes, function -> task
that calls it. Node ids follow manifest.json (`table.<proj>.<name>`,
`task.<proj>.<path>`, `function.<proj>.<name>`).

Node attributes: kind (table | task | function), project, name, source (the
file that defines it, as the loader shows it); tables add table_kind and
type, tasks add ok (resolved without errors). Edge attributes: relation
(reads | lookup | writes | calls), line and col of the first reference in the
task, and on read edges the columns the task reads (wildcards included) and
whether it reads them through a `*`. Projects are not nodes (they would
pollute parent_map): `graph.graph["projects"]` maps each project name to its
description and folder, and every node carries its project.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import networkx as nx

from flinkx_build.emit.manifest import function_node
from flinkx_build.emit.manifest import table_node
from flinkx_build.emit.manifest import task_node
from flinkx_build.errors import Diagnostic
from flinkx_build.model import Workspace

if TYPE_CHECKING:  # summary.py imports the checks: no cycle at run time
    from flinkx_build.semantic.summary import TaskSummary


def workspace_graph(ws: Workspace, summaries: list[TaskSummary]) -> nx.DiGraph:
    """`summaries`: `Session.summary(task)` of the tasks to draw (every task, usually)."""
    graph = nx.DiGraph(root=str(ws.root), mode=ws.config.mode, projects={
        p.name: {"description": p.description, "path": _rel(ws, p.directory)} for p in ws.projects.values()
    })
    for project in ws.projects.values():
        for same_name in project.tables.values():
            for table in same_name:
                graph.add_node(
                    table_node(table.key), kind="table", project=table.project, name=table.name,
                    source=_source(ws, table.loc.path), table_kind=table.kind, type=table.type,
                )
        for fn in project.functions.values():
            graph.add_node(function_node(fn.key), kind="function", project=fn.project, name=fn.name, source=_source(ws, fn.loc.path))
    for summary in summaries:
        _add_task(graph, summary, _source(ws, summary.display_path))
    return graph


def _add_task(graph: nx.DiGraph, summary: TaskSummary, source: str) -> None:
    node = task_node(summary.key)
    graph.add_node(node, kind="task", project=summary.project, name=summary.name, source=source, ok=summary.ok)
    for read in summary.reads:
        graph.add_edge(
            table_node(read.table), node, relation="lookup" if read.lookup_only else "reads",
            columns=list(read.columns), wildcard=read.wildcard, line=read.line, col=read.col,
        )
    for write in summary.writes:
        graph.add_edge(node, table_node(write.table), relation="writes", line=write.line, col=write.col)
    for key in summary.functions:
        graph.add_edge(function_node(key), node, relation="calls")


def find_cycles(graph: nx.DiGraph, include_lookups: bool | None = None) -> list[list[str]]:
    """One cycle per strongly connected component, as node ids without the closing repeat.

    A lookup join reads a snapshot of the dimension and never triggers the
    job, so in stream mode a loop closed only by lookups does not feed back
    into itself and is not a cycle; in batch mode the jobs must still run in
    order, so lookups count (`include_lookups` overrides the mode).
    Each cycle starts at its smallest task id, and the list is sorted, so
    the output is stable.
    """
    if include_lookups is None:
        include_lookups = graph.graph.get("mode") == "batch"
    view = graph if include_lookups else nx.subgraph_view(graph, filter_edge=lambda u, v: graph.edges[u, v].get("relation") != "lookup")
    cycles = []
    for component in nx.strongly_connected_components(view):
        if len(component) < 2 and not any(view.has_edge(n, n) for n in component):
            continue
        sub = view.subgraph(component)
        start = min(component, key=lambda n: (not n.startswith("task."), n))
        edges = nx.find_cycle(sub, source=start)
        path = [u for u, _ in edges]
        pivot = min(range(len(path)), key=lambda i: (not path[i].startswith("task."), path[i]))
        cycles.append(path[pivot:] + path[:pivot])
    return sorted(cycles)


def cycle_diagnostics(graph: nx.DiGraph, cycles: list[list[str]]) -> list[Diagnostic]:
    """FX200 at the INSERT of the first task of each cycle that closes the loop."""
    out = []
    for cycle in cycles:
        first, nxt = cycle[0], cycle[1] if len(cycle) > 1 else cycle[0]
        data = graph.edges[first, nxt] if graph.has_edge(first, nxt) else {}
        source = _shown(graph, graph.nodes[first].get("source", first))
        path = " -> ".join([*cycle, cycle[0]])
        out.append(Diagnostic(source, data.get("line", 1), data.get("col", 1), "FX200", f"dependency cycle: {path}"))
    return out


def _source(ws: Workspace, shown: str) -> str:
    """A loader display path (relative to the cwd) as a path relative to the workspace root.

    Node sources must not depend on where flinkx runs: `flinkx impact`
    compares graphs of a revision checked out in a temporary folder with the
    working tree's. By the path as written (not resolved: a resolve costs a
    system call per node, a third of a warm build at 1,000 tasks); the loader
    already refused links that leave the workspace.
    """
    rel = os.path.relpath(os.path.abspath(shown), ws.root)
    return Path(rel).as_posix() if not rel.startswith("..") else str(Path(shown).resolve())


def _shown(graph: nx.DiGraph, source: str) -> str:
    """A workspace-relative source as diagnostics show paths."""
    from flinkx_build.load.workspace import display_path

    root = graph.graph.get("root")
    return display_path(Path(root) / source) if root else source


def _rel(ws: Workspace, path) -> str:
    try:
        return path.relative_to(ws.root).as_posix()
    except ValueError:
        return str(path)
