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
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

from flinkx_build.emit.manifest import function_node
from flinkx_build.emit.manifest import table_node
from flinkx_build.emit.manifest import task_node
from flinkx_build.errors import Diagnostic
from flinkx_build.paths import below
from flinkx_build.workspace_model import Workspace

if TYPE_CHECKING:  # networkx is imported only to draw or search a graph: importing it is a visible share of a build
    import networkx as nx

    from flinkx_build.semantic.summary import TaskSummary


@dataclass
class GraphParts:
    """The graph as plain data: what `workspace_graph` adds to the DiGraph, in order.

    A build needs only the adjacency (manifest.json's parent and child maps) and
    whether there is a cycle, usually known from the cache (`graph/cycles.py`), so
    it reads these parts and imports networkx only when it must search the graph.
    """

    attrs: dict[str, Any]
    # in the order they are added (a node's first appearance fixes its place): (node, attrs) or (u, v, attrs)
    elements: list[tuple[str, dict[str, Any]] | tuple[str, str, dict[str, Any]]] = field(default_factory=list)

    def to_networkx(self) -> nx.DiGraph:
        import networkx as nx

        graph = nx.DiGraph(**self.attrs)
        for element in self.elements:
            if len(element) == 2:
                graph.add_node(element[0], **element[1])
            else:
                graph.add_edge(element[0], element[1], **element[2])
        return graph

    @property
    def edges(self) -> list[tuple[str, str, dict[str, Any]]]:
        return [e for e in self.elements if len(e) == 3]  # type: ignore[misc]

    def adjacency(self) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """(parent map, child map) of every node, each list sorted, as networkx's predecessors and successors."""
        parents: dict[str, set[str]] = {}
        children: dict[str, set[str]] = {}
        for element in self.elements:
            for node in element[:-1]:
                parents.setdefault(node, set())  # type: ignore[arg-type]
                children.setdefault(node, set())  # type: ignore[arg-type]
            if len(element) == 3:
                children[element[0]].add(element[1])  # type: ignore[index]
                parents[element[1]].add(element[0])  # type: ignore[index]
        return ({n: sorted(parents[n]) for n in sorted(parents)}, {n: sorted(children[n]) for n in sorted(children)})


def graph_parts(ws: Workspace, summaries: list[TaskSummary]) -> GraphParts:
    """`summaries`: `Session.summary(task)` of the tasks to draw (every task, usually)."""
    parts = GraphParts({"root": str(ws.root), "mode": ws.config.mode, "projects": {
        p.name: {"description": p.description, "path": _rel(ws, p.directory)} for p in ws.projects.values()
    }})
    for project in ws.projects.values():
        for same_name in project.tables.values():
            for table in same_name:
                parts.elements.append((table_node(table.key), {
                    "kind": "table", "project": table.project, "name": table.name, "source": _source(ws, table.loc.path),
                    "table_kind": table.kind, "type": table.type,
                }))
        for fn in project.functions.values():
            parts.elements.append((function_node(fn.key), {"kind": "function", "project": fn.project, "name": fn.name,
                                                        "source": _source(ws, fn.loc.path)}))
    for summary in summaries:
        parts.elements.extend(task_elements(ws, summary))
    return parts


def workspace_graph(ws: Workspace, summaries: list[TaskSummary]) -> nx.DiGraph:
    """`summaries`: `Session.summary(task)` of the tasks to draw (every task, usually)."""
    return graph_parts(ws, summaries).to_networkx()


def task_elements(ws: Workspace, summary: TaskSummary) -> list[tuple[str, dict[str, Any]] | tuple[str, str, dict[str, Any]]]:
    """What one task adds to the graph: its node, then its edges."""
    node = task_node(summary.key)
    out: list[tuple[str, dict[str, Any]] | tuple[str, str, dict[str, Any]]] = [
        (node, {"kind": "task", "project": summary.project, "name": summary.name,
                "source": _source(ws, summary.display_path), "ok": summary.ok})]
    for read in summary.reads:
        out.append((table_node(read.table), node, {
            "relation": "lookup" if read.lookup_only else "reads", "columns": list(read.columns),
            "wildcard": read.wildcard, "line": read.line, "col": read.col,
        }))
    for write in summary.writes:
        out.append((node, table_node(write.table), {"relation": "writes", "line": write.line, "col": write.col}))
    for key in summary.functions:
        out.append((function_node(key), node, {"relation": "calls"}))
    return out


def find_cycles(graph: nx.DiGraph, include_lookups: bool | None = None) -> list[list[str]]:
    """One cycle per strongly connected component, as node ids without the closing repeat.

    A lookup join reads a snapshot of the dimension and never triggers the
    job, so in stream mode a loop closed only by lookups does not feed back
    into itself and is not a cycle; in batch mode the jobs must still run in
    order, so lookups count (`include_lookups` overrides the mode).
    Each cycle starts at its smallest task id, and the list is sorted, so
    the output is stable.
    """
    import networkx as nx

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


CYCLE_HINT = ("break the loop: let one of these tasks write another table, or read its input by a lookup join "
              "(FOR SYSTEM_TIME AS OF), which a stream build does not count as a dependency")


def cycle_diagnostics(graph: nx.DiGraph, cycles: list[list[str]]) -> list[Diagnostic]:
    """FX200 at the INSERT of the first task of each cycle that closes the loop."""
    out = []
    for cycle in cycles:
        first, nxt = cycle[0], cycle[1] if len(cycle) > 1 else cycle[0]
        data = graph.edges[first, nxt] if graph.has_edge(first, nxt) else {}
        source = _shown(graph, graph.nodes[first].get("source", first))
        path = " -> ".join([*cycle, cycle[0]])
        out.append(Diagnostic(source, data.get("line", 1), data.get("col", 1), "FX200", f"dependency cycle: {path}", CYCLE_HINT))
    return out


def _source(ws: Workspace, shown: str) -> str:
    """A loader display path (relative to the cwd) as a path relative to the workspace root.

    Node sources must not depend on where flinkx runs: `flinkx impact`
    compares graphs of a revision checked out in a temporary folder with the
    working tree's. By the path as written (not resolved: a resolve costs a
    system call per node, a third of a warm build at 1,000 tasks); the loader
    already refused links that leave the workspace.
    """
    inside = below(shown, str(ws.root))
    if inside is not None:
        return inside.replace(os.sep, "/")
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
