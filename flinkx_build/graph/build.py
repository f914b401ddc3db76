"""graph: the workspace as one networkx DiGraph, read from resolved tasks.

Edges: table -> task that reads it, task -> table it writes, function -> task
that calls it. Node ids follow manifest.json (`table.<proj>.<name>`,
`task.<proj>.<path>`, `function.<proj>.<name>`).
"""
from __future__ import annotations

import networkx as nx

from flinkx_build.emit.manifest import function_node
from flinkx_build.emit.manifest import table_node
from flinkx_build.emit.manifest import task_node
from flinkx_build.model import Workspace
from flinkx_build.resolve.model import ResolvedTask


def workspace_graph(ws: Workspace, resolved: list[ResolvedTask]) -> nx.DiGraph:
    graph = nx.DiGraph()
    for project in ws.projects.values():
        for same_name in project.tables.values():
            for table in same_name:
                graph.add_node(table_node(table.key), kind="table", project=table.project, name=table.name, source=table.loc.path)
        for fn in project.functions.values():
            graph.add_node(function_node(fn.key), kind="function", project=fn.project, name=fn.name, source=fn.loc.path)
    for rt in resolved:
        task = rt.task
        node = task_node(task.key)
        graph.add_node(node, kind="task", project=task.project, name=task.name, source=task.display_path)
        for key in rt.reads:
            graph.add_edge(table_node(key), node, columns=sorted(rt.columns_read.get(key, ())))
        for key in rt.writes:
            graph.add_edge(node, table_node(key))
        for key in rt.functions:
            graph.add_edge(function_node(key), node)
    return graph
