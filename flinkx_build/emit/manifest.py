"""manifest.json: what was built from what (the shape dbt users know)."""
from __future__ import annotations

import bisect
from typing import TYPE_CHECKING
from typing import Any
from typing import Protocol

from flinkx_build import __version__
from flinkx_build.workspace_model import Workspace

if TYPE_CHECKING:
    from flinkx_build.semantic.summary import TaskSummary


class Adjacency(Protocol):
    """What the manifest reads of the graph (`graph.build.GraphParts`, which imports this module's node names)."""

    def adjacency(self) -> tuple[dict[str, list[str]], dict[str, list[str]]]: ...


def table_node(key: str) -> str:
    return f"table.{key}"


def task_node(key: str) -> str:
    return "task." + key.replace("/", ".", 1)


def function_node(key: str) -> str:
    return "function." + key.replace(":", ".", 1)


def build_manifest(ws: Workspace, summaries: list[TaskSummary], outputs: dict[str, str], graph: Adjacency) -> dict[str, Any]:
    """`graph` is `graph.build.graph_parts(ws, summaries)`: the build already has it."""
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
    tasks = {task_node(summary.key): task_entry(summary, outputs.get(summary.key)) for summary in summaries}
    parent_map, child_map = graph.adjacency()
    return {
        "metadata": {"generator": f"flinkx {__version__}", "engine": ws.config.engine, "flink_version": ws.config.flink_version},
        "projects": projects, "tables": tables, "functions": functions, "tasks": tasks,
        "parent_map": parent_map, "child_map": child_map,
    }


def task_entry(summary: TaskSummary, compiled: str | None) -> dict[str, Any]:
    """A task's part of the manifest; `compiled`: its file in the build folder (None: it has errors)."""
    return {
        "project": summary.project, "name": summary.name, "source": summary.display_path,
        "content_hash": summary.content_hash, "compiled": compiled,
        "reads": sorted(table_node(k) for k in summary.read_keys), "writes": sorted(table_node(k) for k in summary.write_keys),
        "functions": sorted(function_node(k) for k in summary.functions),
        "columns_read": {table_node(k): v for k, v in summary.columns_read.items()},
        "column_lineage": summary.column_lineage,  # each column written, from which column and how
    }


Edge = tuple[str, str]


def patch_manifest(manifest: dict[str, Any], gone: dict[str, list[Edge]], made: dict[str, tuple[dict[str, Any], list[Edge]]]) -> None:
    """Turn the manifest of a build into the next one's, in place, where only some tasks changed.

    `gone`: task node -> its edges in the manifest's graph, for each task that changed or went;
    `made`: task node -> (its entry, its edges) for each task that changed or came. The tables,
    functions and projects are the previous build's (the caller knows no meta table, function or
    project.yaml changed), and the parent and child maps stay sorted, as `GraphParts.adjacency` makes them."""
    tasks, parents, children = manifest["tasks"], manifest["parent_map"], manifest["child_map"]
    for node, edges in gone.items():
        for u, v in edges:
            _drop(children.get(u), v)
            _drop(parents.get(v), u)
        tasks.pop(node, None)
        parents.pop(node, None)
        children.pop(node, None)
    for node, (entry, edges) in made.items():
        tasks[node] = entry
        parents.setdefault(node, [])
        children.setdefault(node, [])
        for u, v in edges:
            _add(children.setdefault(u, []), v)
            _add(parents.setdefault(v, []), u)


def _drop(items: list[str] | None, item: str) -> None:
    if items is not None and item in items:
        items.remove(item)


def _add(items: list[str], item: str) -> None:
    at = bisect.bisect_left(items, item)
    if at == len(items) or items[at] != item:
        items.insert(at, item)


def _rel(ws: Workspace, path) -> str:
    try:
        return path.relative_to(ws.root).as_posix()
    except ValueError:
        return str(path)
