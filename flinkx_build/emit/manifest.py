"""manifest.json: what was built from what (the shape dbt users know)."""
from __future__ import annotations

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
    tasks = {}
    for summary in summaries:
        tasks[task_node(summary.key)] = {
            "project": summary.project, "name": summary.name, "source": summary.display_path,
            "content_hash": summary.content_hash, "compiled": outputs.get(summary.key),
            "reads": sorted(table_node(k) for k in summary.read_keys), "writes": sorted(table_node(k) for k in summary.write_keys),
            "functions": sorted(function_node(k) for k in summary.functions),
            "columns_read": {table_node(k): v for k, v in summary.columns_read.items()},
            "column_lineage": summary.column_lineage,  # each column written, from which column and how
        }
    parent_map, child_map = graph.adjacency()
    return {
        "metadata": {"generator": f"flinkx {__version__}", "engine": ws.config.engine, "flink_version": ws.config.flink_version},
        "projects": projects, "tables": tables, "functions": functions, "tasks": tasks,
        "parent_map": parent_map, "child_map": child_map,
    }


def _rel(ws: Workspace, path) -> str:
    try:
        return path.relative_to(ws.root).as_posix()
    except ValueError:
        return str(path)
