"""`flinkx lineage [WS] PROJECT.TABLE.COLUMN`: where a column's values come from and where they go."""
from __future__ import annotations

import json
from pathlib import Path

import click

from flinkx_build.commands.common import mode_option
from flinkx_build.commands.common import open_session
from flinkx_build.errors import UsageError
from flinkx_build.errors import did_you_mean
from flinkx_build.lineage.column_graph import column_graph
from flinkx_build.lineage.column_graph import find_column
from flinkx_build.lineage.column_graph import walk


@click.command("lineage")
@click.argument("args", nargs=-1, required=True)
@click.option("--upstream", "direction", flag_value="upstream", help="Only the columns it is computed from.")
@click.option("--downstream", "direction", flag_value="downstream", help="Only the columns computed from it.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "mermaid"]), default="text")
@mode_option
def command(args: tuple[str, ...], direction: str | None, fmt: str, mode: str | None) -> None:
    """Column lineage through every task, view and project: [WORKSPACE] PROJECT.TABLE.COLUMN."""
    if len(args) > 2:
        raise UsageError("usage: flinkx lineage [WORKSPACE] PROJECT.TABLE.COLUMN")
    workspace, spec = (Path(args[0]), args[1]) if len(args) == 2 else (Path("."), args[0])
    session = open_session(workspace, mode)
    graph = column_graph(session)
    start = find_column(graph, spec)
    if start is None:
        known = [f"{t.key}.{c.name}" for p in session.workspace.projects.values() for same in p.tables.values() for t in same for c in t.columns]
        hint = did_you_mean(spec, known)
        raise UsageError(f"no task reads or writes column '{spec}'" + (f" ({hint})" if hint else ""))
    directions = [direction] if direction else ["upstream", "downstream"]
    found = {d: walk(graph, start, d == "downstream") for d in directions}
    if fmt == "json":
        click.echo(json.dumps({"column": start.format(), **{d: [
            {"column": c.format(), "transformation": how,
             "path": [{"from": s.source.format(), "to": s.target.format(), "task": s.task, "transformation": s.transformation, "at": s.where} for s in path]}
            for c, how, path in rows] for d, rows in found.items()}}, indent=2))
    elif fmt == "mermaid":
        click.echo(_mermaid(start, found))
    else:
        click.echo(start.format())
        for d, rows in found.items():
            click.echo(f"  {d}:" + ("" if rows else " none"))
            for column, how, path in rows:
                via = " -> ".join(f"{s.task} ({s.where})" for s in path)
                click.echo(f"    {column.format():<45} {how:<15} via {via}")


def _mermaid(start, found) -> str:
    lines = ["flowchart LR"]
    ids: dict[str, str] = {}

    def node(column) -> str:
        name = column.format()
        if name not in ids:
            ids[name] = f"c{len(ids)}"
            lines.append(f'  {ids[name]}["{name}"]')
        return ids[name]

    node(start)
    seen = set()
    for rows in found.values():
        for _, _, path in rows:
            for s in path:
                edge = (s.source, s.target, s.task)
                if edge not in seen:
                    seen.add(edge)
                    lines.append(f"  {node(s.source)} -->|{s.task}: {s.transformation}| {node(s.target)}")
    return "\n".join(lines)
