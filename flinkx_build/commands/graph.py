"""`flinkx graph`: the cross-project dependency graph as Mermaid, DOT, JSON or HTML."""
from __future__ import annotations

from pathlib import Path

import click
import networkx as nx

from flinkx_build.commands.common import check_projects
from flinkx_build.commands.common import echo_diagnostics
from flinkx_build.commands.common import open_session
from flinkx_build.commands.common import workspace_argument
from flinkx_build.errors import Diagnostic
from flinkx_build.graph.build import cycle_diagnostics
from flinkx_build.graph.build import find_cycles
from flinkx_build.graph.build import workspace_graph
from flinkx_build.graph.render import render
from flinkx_build.graph.select import restrict_to_projects
from flinkx_build.graph.select import select_nodes
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
    title = f"flinkx graph: {session.workspace.root.name}"
    click.echo(render(fmt, graph, nodes, shown_cycles, title=title), nl=False)
    echo_diagnostics(diags)
    if any(d.is_error for d in diags):
        raise SystemExit(1)
