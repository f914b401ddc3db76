"""`flinkx graph`: the cross-project dependency graph as Mermaid, DOT, JSON or HTML."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import networkx as nx

from flinkx_build.commands.common import check_projects
from flinkx_build.commands.common import echo_diagnostics
from flinkx_build.commands.common import open_session
from flinkx_build.commands.common import workspace_argument
from flinkx_build.commands.console import echo_result
from flinkx_build.credentials import mask_options
from flinkx_build.emit.manifest import function_node
from flinkx_build.emit.manifest import table_node
from flinkx_build.errors import Diagnostic
from flinkx_build.graph.build import cycle_diagnostics
from flinkx_build.graph.build import find_cycles
from flinkx_build.graph.build import workspace_graph
from flinkx_build.graph.render import render
from flinkx_build.graph.select import restrict_to_projects
from flinkx_build.graph.select import select_nodes
from flinkx_build.load.yaml_io import load_yaml
from flinkx_build.pipeline import Session


def session_graph(session: Session) -> tuple[nx.DiGraph, list[Diagnostic]]:
    """The whole workspace's graph and every load and resolve diagnostic."""
    diags = list(session.load_diagnostics)
    resolved = []
    for task in session.tasks():
        rt = session.resolved(task)
        resolved.append(rt)
        diags.extend(rt.diagnostics)
    return workspace_graph(session.workspace, resolved), diags


def workspace_name(session: Session) -> str:
    """flinkx.yaml's `name`, else the folder's name."""
    root = session.workspace.root
    data, _ = load_yaml(root / "flinkx.yaml", "flinkx.yaml")
    name = data.get("name") if isinstance(data, dict) else None
    return str(name).strip() if isinstance(name, (str, int)) and str(name).strip() else root.name


def node_details(session: Session) -> dict[str, dict[str, Any]]:
    """For the HTML page's side panel: each table's columns and effective options in the
    session's mode (credential values masked), each function's class."""
    mode = session.mode
    out: dict[str, dict[str, Any]] = {}
    for project in session.workspace.projects.values():
        for same_name in project.tables.values():
            for table in same_name:
                out[table_node(table.key)] = {
                    "columns": [{"name": c.name, "type": c.type, "comment": c.comment} for c in table.columns],
                    "primary_key": list(table.primary_key), "locked": list(table.locked), "mode": mode,
                    "options": {k: str(v) for k, v in mask_options(table.options_for_mode(mode)).items()},
                    "description": table.description, "table_kind": table.kind, "type": table.type,
                }
        for fn in project.functions.values():
            out[function_node(fn.key)] = {"class_name": fn.class_name, "language": fn.language, "returns": fn.returns}
    return out


@click.command("graph")
@workspace_argument
@click.option("--format", "fmt", type=click.Choice(["mermaid", "dot", "json", "html"]), default="mermaid", show_default=True)
@click.option("--project", "projects", multiple=True, metavar="P", help="Only project P and the nodes one edge away from it (repeatable).")
@click.option("--select", "selects", multiple=True, metavar="SPEC", help="NODE, +NODE (ancestors), NODE+ (descendants), +NODE+, @NODE; space = union, comma = intersection (repeatable).")
@click.option("--exclude", "excludes", multiple=True, metavar="SPEC", help="Remove these nodes (same syntax as --select).")
@click.option("--no-cache", is_flag=True, help="Do not read or write the parse cache.")
def command(workspace: Path, fmt: str, projects: tuple[str, ...], selects: tuple[str, ...], excludes: tuple[str, ...], no_cache: bool) -> None:
    """Print the dependency graph of WORKSPACE (default: .).

    Exits 1 (after printing the graph) when a task cannot be resolved or the
    graph has a dependency cycle (FX200); 2 for a bad option or node.
    """
    session = open_session(workspace, use_cache=not no_cache)
    check_projects(session, projects)
    graph, diags = session_graph(session)
    nodes = select_nodes(graph, selects, excludes)
    if projects:
        nodes = restrict_to_projects(graph, nodes, projects)
    cycles = find_cycles(graph)
    diags.extend(cycle_diagnostics(graph, cycles))
    shown_cycles = [c for c in cycles if set(c) & nodes]
    title = f"flinkx graph: {workspace_name(session)}"
    details = node_details(session) if fmt == "html" else None
    echo_result(render(fmt, graph, nodes, shown_cycles, title=title, details=details), nl=False)
    echo_diagnostics(diags, err=True)  # stdout is the graph document: keep it parseable
    if any(d.is_error for d in diags):
        raise SystemExit(1)
