"""`flinkx graph`: the cross-project dependency graph as Mermaid, DOT, JSON or OpenLineage (the browsable view is `flinkx docs`)."""
from __future__ import annotations

from datetime import datetime
from datetime import timezone
from pathlib import Path

import click
import networkx as nx

from flinkx_build.commands.common import check_projects
from flinkx_build.commands.common import echo_diagnostics
from flinkx_build.commands.common import open_session
from flinkx_build.commands.common import workspace_argument
from flinkx_build.commands.console import echo_result
from flinkx_build.emit.manifest import task_node
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import UsageError
from flinkx_build.graph.build import cycle_diagnostics
from flinkx_build.graph.build import find_cycles
from flinkx_build.graph.build import workspace_graph
from flinkx_build.graph.render import render
from flinkx_build.graph.select import restrict_to_projects
from flinkx_build.graph.select import select_nodes
from flinkx_build.load.yaml_io import load_yaml
from flinkx_build.pipeline import Session

HTML_RETIRED = ("--format html is retired: `flinkx docs` writes the workspace's site, whose lineage view "
                "(lineage.html#node=NODE&up=N&down=N) centres on one node and scales to thousands of tasks (docs/docs-site.md)")
OPENLINEAGE_HINT = "flinkx: error: --format openlineage needs the OpenLineage client: pip install 'flinkx-build[lineage]'"


def session_graph(session: Session) -> tuple[nx.DiGraph, list[Diagnostic]]:
    """The whole workspace's graph and every load and resolve diagnostic."""
    diags = list(session.load_diagnostics)
    summaries = session.summaries(session.tasks(), compile=False)
    for summary in summaries:
        diags.extend(summary.diagnostics)
    return workspace_graph(session.workspace, summaries), diags


def workspace_name(session: Session) -> str:
    """flinkx.yaml's `name`, else the folder's name."""
    root = session.workspace.root
    data, _ = load_yaml(root / "flinkx.yaml", "flinkx.yaml")
    name = data.get("name") if isinstance(data, dict) else None
    return str(name).strip() if isinstance(name, (str, int)) and str(name).strip() else root.name


@click.command("graph")
@workspace_argument
@click.option("--format", "fmt", type=click.Choice(["mermaid", "dot", "json", "html", "openlineage"]), default="mermaid", show_default=True)
@click.option("--project", "projects", multiple=True, metavar="P", help="Only project P and the nodes one edge away from it (repeatable).")
@click.option("--select", "selects", multiple=True, metavar="SPEC", help="NODE, +NODE (ancestors), NODE+ (descendants), +NODE+, @NODE; space = union, comma = intersection (repeatable).")
@click.option("--exclude", "excludes", multiple=True, metavar="SPEC", help="Remove these nodes (same syntax as --select).")
@click.option("--no-cache", is_flag=True, help="Do not read or write the parse cache.")
@click.option("--event-time", metavar="ISO8601", help="openlineage: the events' eventTime (default: now, UTC).")
def command(workspace: Path, fmt: str, projects: tuple[str, ...], selects: tuple[str, ...], excludes: tuple[str, ...], no_cache: bool,
            event_time: str | None) -> None:
    """Print the dependency graph of WORKSPACE (default: .).

    Exits 1 (after printing the graph) when a task cannot be resolved or the
    graph has a dependency cycle (FX200); 2 for a bad option or node, and for
    `--format html`, retired in favour of `flinkx docs`.
    `--format openlineage` prints one OpenLineage run event per selected task (JSON Lines).
    """
    if fmt == "html":
        raise UsageError(HTML_RETIRED)
    if fmt == "openlineage":  # options and the optional client first: exit 2 before any work
        event_time = _event_time(event_time)
        events_jsonl = _openlineage_writer()
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
    if fmt == "openlineage":
        tasks = sorted((t for t in session.tasks() if task_node(t.key) in nodes), key=lambda t: t.key)
        echo_result(events_jsonl(session, tasks, workspace_name(session), event_time), nl=False)
    else:
        text = render(fmt, graph, nodes, shown_cycles, title=title)
        if fmt == "json":  # the findings are part of the document (README, "Machine-readable output")
            text = with_findings(text, diags)
        echo_result(text, nl=False)
    echo_diagnostics(diags, err=True)  # stdout is the graph document: keep it parseable
    if any(d.is_error for d in diags):
        raise SystemExit(1)


def with_findings(document: str, diags: list[Diagnostic]) -> str:
    import json

    from flinkx_build.lint.formats import as_dict

    data = json.loads(document)
    data["findings"] = [as_dict(d) for d in diags]
    return json.dumps(data, indent=2, sort_keys=True) + "\n"


def _event_time(value: str | None) -> str:
    """`--event-time` as ISO 8601 with a time zone (UTC when none is given); now when absent."""
    if value is None:
        return datetime.now(timezone.utc).isoformat(timespec="milliseconds")
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise UsageError(f"--event-time '{value}' is not an ISO 8601 date and time (e.g. 2026-12-01T12:00:00Z)") from None
    if "t" not in value.lower():
        raise UsageError(f"--event-time '{value}' has no time of day (e.g. 2026-12-01T12:00:00Z)")
    return (when if when.tzinfo else when.replace(tzinfo=timezone.utc)).isoformat()


def _openlineage_writer():
    """`events_jsonl`, or the install hint and exit 2 when the optional client is missing."""
    try:  # the lineage extra is optional: say how to get it, in one line
        from flinkx_build.lineage.openlineage import events_jsonl
    except ImportError as exc:
        if "openlineage" not in str(exc.name or exc):
            raise
        click.echo(OPENLINEAGE_HINT, err=True)
        raise SystemExit(2) from None
    return events_jsonl
