"""The docs site's model: every page's node, the table graph and the column lineage, read from
the same task summaries the graph, the manifest and impact read (nothing is parsed again)."""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Any

from flinkx_build.emit.manifest import function_node
from flinkx_build.emit.manifest import table_node
from flinkx_build.emit.manifest import task_node
from flinkx_build.graph.build import graph_parts
from flinkx_build.graph.docs_links import page_name
from flinkx_build.workspace_model import DocsConfig
from flinkx_build.workspace_model import Function
from flinkx_build.workspace_model import MetaTable
from flinkx_build.workspace_model import Workspace
from flinkx_build.resolve.analysed import compose
from flinkx_build.semantic.summary import TaskSummary

@dataclass
class Node:
    """A page of the site: a project, meta table, task, view or function."""

    id: str
    kind: str  # project | table | task | view | function
    project: str
    name: str
    page: str  # file name under pages/
    source: str = ""  # workspace-relative file
    line: int = 1


@dataclass(frozen=True)
class LineageStep:
    """`column` feeds (upstream) or is fed by (downstream) the column of the page, `how`, first via `task`."""

    column: str  # project.table.column
    how: str  # IDENTITY | TRANSFORMATION | AGGREGATION
    task: str  # the task key of the first step from the page's column
    depth: int


@dataclass
class SiteModel:
    title: str
    workspace: Workspace
    docs: DocsConfig
    nodes: dict[str, Node] = field(default_factory=dict)
    parents: dict[str, list[str]] = field(default_factory=dict)
    children: dict[str, list[str]] = field(default_factory=dict)
    relations: dict[tuple[str, str], str] = field(default_factory=dict)
    tables: dict[str, MetaTable] = field(default_factory=dict)  # by key
    functions: dict[str, Function] = field(default_factory=dict)  # by key
    summaries: dict[str, TaskSummary] = field(default_factory=dict)  # by task key
    task_pages: dict[str, dict[str, Any]] = field(default_factory=dict)  # by task key (task_pages.py)
    tests: dict[str, list[tuple[str, str, int]]] = field(default_factory=dict)  # task key -> (case, file, line)
    column_up: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)  # column -> (source, task, how)
    column_down: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)

    def page_of(self, node_id: str) -> str | None:
        node = self.nodes.get(node_id)
        return node.page if node else None


def view_node(task_key: str, name: str) -> str:
    return f"view.{task_key.replace('/', '.', 1)}.{name}"


def project_node(name: str) -> str:
    return f"project.{name}"


def build_model(ws: Workspace, title: str, summaries: list[TaskSummary], task_pages: dict[str, dict[str, Any]],
                tests: dict[str, list[tuple[str, str, int]]]) -> SiteModel:
    site = SiteModel(title, ws, ws.config.docs, tests=tests, task_pages=task_pages)
    parts = graph_parts(ws, summaries)
    for project in ws.projects.values():
        _add(site, project_node(project.name), "project", project.name, project.name, parts.attrs["projects"][project.name]["path"] + "/project.yaml")
        for same_name in project.tables.values():
            for table in same_name:
                site.tables.setdefault(table.key, table)
        for fn in project.functions.values():
            site.functions[fn.key] = fn
    for element in parts.elements:
        if len(element) == 2:
            node_id, attrs = element  # type: ignore[misc]
            if node_id not in site.nodes:
                _add(site, node_id, attrs["kind"], attrs["project"], attrs["name"], str(attrs.get("source", "")))
        else:
            u, v, attrs = element  # type: ignore[misc]
            site.relations[(u, v)] = attrs.get("relation", "")
    for key, table in site.tables.items():
        site.nodes[table_node(key)].line = table.loc.line
    for key, fn in site.functions.items():
        site.nodes[function_node(key)].line = fn.loc.line
    site.parents, site.children = parts.adjacency()
    for summary in summaries:
        site.summaries[summary.key] = summary
        for view in task_pages.get(summary.key, {}).get("views", []):
            node = view_node(summary.key, view["name"])
            _add(site, node, "view", summary.project, view["name"], site.nodes[task_node(summary.key)].source)
            site.nodes[node].line = view["line"]
        for step in summary.column_lineage:
            site.column_up.setdefault(step["column"], []).append((step["from"], summary.key, step["transformation"]))
            site.column_down.setdefault(step["from"], []).append((step["column"], summary.key, step["transformation"]))
    return site


def _add(site: SiteModel, node_id: str, kind: str, project: str, name: str, source: str) -> None:
    site.nodes[node_id] = Node(node_id, kind, project, name, page_name(node_id), source)


def column_walk(site: SiteModel, column: str, downstream: bool) -> list[LineageStep]:
    """Every column reachable from `column` (breadth first), with the combined transformation and
    the task of the first step; each column once, at its shortest distance."""
    edges = site.column_down if downstream else site.column_up
    seen = {column}
    out: list[LineageStep] = []
    frontier = [(column, "IDENTITY", "", 0)]
    while frontier:
        nxt = []
        for current, how, first_task, depth in frontier:
            for other, task, step_how in sorted(edges.get(current, ())):
                if other in seen:
                    continue
                seen.add(other)
                step = LineageStep(other, compose(how, step_how), first_task or task, depth + 1)
                out.append(step)
                nxt.append((other, step.how, step.task, depth + 1))
        frontier = nxt
    return out


def split_column(column: str) -> tuple[str, str]:
    """`project.table.column` -> (table key, column name)."""
    table, _, name = column.rpartition(".")
    return table, name
