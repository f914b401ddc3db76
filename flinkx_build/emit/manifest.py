"""manifest.json: what was built from what (the shape dbt users know)."""
from __future__ import annotations

from typing import Any

import networkx as nx

from flinkx_build import __version__
from flinkx_build.model import Workspace
from flinkx_build.resolve.model import ResolvedTask


def table_node(key: str) -> str:
    return f"table.{key}"


def task_node(key: str) -> str:
    return "task." + key.replace("/", ".", 1)


def function_node(key: str) -> str:
    return "function." + key.replace(":", ".", 1)


def build_manifest(ws: Workspace, resolved: list[ResolvedTask], outputs: dict[str, str], graph: nx.DiGraph) -> dict[str, Any]:
    """`graph` is `graph.build.workspace_graph(ws, resolved)`: the build already has it."""
    tables = {}
    functions = {}
    projects = {}
    for project in ws.projects.values():
        projects[project.name] = {"description": project.description, "path": _rel(ws, project.directory)}
        for same_name in project.tables.values():
            for table in same_name:
                tables[table_node(table.key)] = {
                    "project": table.project, "name": table.name, "kind": table.kind, "type": table.type,
                    "columns": [{"name": c.name, "type": c.type} for c in table.columns],
                    "primary_key": table.primary_key, "source": table.loc.path, "content_hash": table.content_hash,
                }
        for fn in project.functions.values():
            functions[function_node(fn.key)] = {
                "project": fn.project, "name": fn.name, "class": fn.class_name, "returns": fn.returns,
                "source": fn.loc.path, "content_hash": fn.content_hash,
            }
    tasks = {}
    for rt in resolved:
        task = rt.task
        tasks[task_node(task.key)] = {
            "project": task.project, "name": task.name, "source": task.display_path,
            "content_hash": task.content_hash, "compiled": outputs.get(task.key),
            "reads": sorted(table_node(k) for k in rt.reads), "writes": sorted(table_node(k) for k in rt.writes),
            "functions": sorted(function_node(k) for k in rt.functions),
            "columns_read": {table_node(k): sorted(v) for k, v in sorted(rt.columns_read.items())},
            "column_lineage": column_lineage(rt),
        }
    return {
        "metadata": {"generator": f"flinkx {__version__}", "engine": ws.config.engine, "flink_version": ws.config.flink_version},
        "projects": projects, "tables": tables, "functions": functions, "tasks": tasks,
        "parent_map": {n: sorted(graph.predecessors(n)) for n in sorted(graph.nodes)},
        "child_map": {n: sorted(graph.successors(n)) for n in sorted(graph.nodes)},
    }


def column_lineage(rt: ResolvedTask) -> list[dict[str, str]]:
    """Each column the task writes, from which column and how (the semantic model's edges)."""
    if rt.semantic is None:
        return []
    return [
        {"column": target.format(), "from": source.column.format(), "transformation": source.transformation}
        for target, source in rt.semantic.column_lineage()
    ]


def _rel(ws: Workspace, path) -> str:
    try:
        return path.relative_to(ws.root).as_posix()
    except ValueError:
        return str(path)
