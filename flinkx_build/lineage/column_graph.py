"""Column-level lineage across tasks and projects: a thin networkx graph over the
semantic model's edges (each task's INSERTs: sink column <- input column)."""
from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from flinkx_build.pipeline import Session
from flinkx_build.resolve.analysed import ColumnId
from flinkx_build.resolve.analysed import compose


@dataclass(frozen=True)
class Step:
    """One edge of a lineage path: `source` feeds `target` in `task` (at file:line)."""

    source: ColumnId
    target: ColumnId
    task: str
    transformation: str
    where: str


def column_graph(session: Session) -> nx.MultiDiGraph:
    """Nodes are ColumnIds; an edge per (task, input column, written column)."""
    graph = nx.MultiDiGraph()
    for task in session.tasks():
        for statement in session.analysed(task).statements:
            if not statement.sink or statement.outputs is None:
                continue  # only INSERTs write columns
            for output in statement.outputs:
                target = ColumnId(statement.sink, output.name)
                where = f"{task.display_path}:{output.pos.line}" if output.pos else task.display_path
                for item in sorted(output.inputs):
                    graph.add_edge(item.column, target, task=task.key, transformation=item.transformation, where=where)
    return graph


def find_column(graph: nx.MultiDiGraph, spec: str) -> ColumnId | None:
    """`project.table.column` (case-insensitive) as a node of the graph."""
    table, _, column = spec.rpartition(".")
    for node in graph.nodes:
        if node.table.lower() == table.lower() and node.column.lower() == column.lower():
            return node
    return None


def walk(graph: nx.MultiDiGraph, start: ColumnId, downstream: bool) -> list[tuple[ColumnId, str, list[Step]]]:
    """Every column reachable from `start`, with the combined transformation and one shortest path."""
    edges = graph.out_edges if downstream else graph.in_edges
    best: dict[ColumnId, tuple[str, list[Step]]] = {}
    frontier = [(start, "IDENTITY", [])]
    while frontier:
        node, how, path = frontier.pop(0)
        for source, target, data in sorted(edges(node, data=True), key=lambda e: (e[0], e[1], e[2]["task"])):
            nxt = target if downstream else source
            step = Step(source, target, data["task"], data["transformation"], data["where"])
            combined = compose(how, data["transformation"])
            if nxt == start or nxt in best:
                continue
            best[nxt] = (combined, [*path, step])
            frontier.append((nxt, combined, [*path, step]))
    return sorted(((c, how, path) for c, (how, path) in best.items()), key=lambda r: (len(r[2]), r[0]))
