"""`flinkx explain PROJECT/TASK`: each table's effective definition and where every value came from."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from flinkx_build.commands.common import echo_diagnostics
from flinkx_build.commands.common import mode_option
from flinkx_build.commands.common import open_session
from flinkx_build.commands.console import echo_result
from flinkx_build.credentials import mask_value
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import UsageError
from flinkx_build.errors import WorkspaceErrors
from flinkx_build.errors import did_you_mean
from flinkx_build.resolve.effective import hint_options
from flinkx_build.resolve.model import Origin
from flinkx_build.resolve.model import ResolvedTask
from flinkx_build.resolve.model import TableDef

if TYPE_CHECKING:
    from flinkx_build.pipeline import Session


def explain_data(rt: ResolvedTask) -> dict:
    """Every table the task uses, once per distinct effective definition *as Flink runs it*:
    an OPTIONS hint overrides options for its own query, so uses with different hints are
    listed apart, each with the hint's values and the hint's position."""
    tables = []
    for use in sorted(rt.tables.values(), key=lambda u: u.base_name):
        for definition, name in use.variants:
            groups: dict[tuple, tuple[dict[str, tuple[str, Origin]], set[int]]] = {}
            for rs in rt.statements:
                for bound, ref in zip(rs.tables, rs.parsed.tables):
                    if bound.definition is None or bound.key != use.table.key or bound.definition.signature() != definition.signature():
                        continue
                    overrides = hint_options(ref, rt.task.display_path)
                    key = tuple(sorted((k, v) for k, (v, _) in overrides.items()))
                    groups.setdefault(key, (overrides, set()))[1].add((rs.parsed.code_pos or rs.parsed.pos).line)
            for overrides, lines in groups.values() or [({}, set())]:
                entry = {"table": use.table.key, "emitted_as": name, "used_at_lines": sorted(lines), **_definition(definition)}
                for key, (value, origin) in overrides.items():
                    entry["options"][key] = {"value": mask_value(key, value), "from": origin.format()}
                tables.append(entry)
    return {"task": rt.task.key, "source": rt.task.display_path, "tables": tables}


def _definition(d: TableDef) -> dict:
    def origin(key: str):
        o = d.origins.get(key)
        return o.format() if o else None

    return {
        "columns": [
            {"name": c.name, "type": c.type, "expression": c.expression or None, "metadata": c.metadata_key, "from": c.origin.format() if c.origin else None}
            for c in d.columns
        ],
        "primary_key": {"columns": d.primary_key, "from": origin("primary_key") if d.primary_key else None},
        "index": {"columns": d.index, "from": origin("index") if d.index else None},
        "unique_index": {"columns": d.unique_index, "from": origin("unique_index") if d.unique_index else None},
        "watermark": {"column": d.watermark[0], "expression": d.watermark[1], "from": origin("watermark")} if d.watermark else None,
        "options": {k: {"value": mask_value(k, v), "from": origin(f"option:{k}")} for k, v in d.options.items()},
        "column_pruning": origin("column_pruning"),
    }


def render_text(data: dict) -> str:
    lines = [f"task {data['task']} ({data['source']})"]
    for t in data["tables"]:
        lines.append(f"\n{t['table']} as {t['emitted_as']} (statements at lines {', '.join(map(str, t['used_at_lines']))})")
        lines.append("  columns:")
        for c in t["columns"]:
            what = f"AS {c['expression']}" if c["expression"] else c["type"] + (" METADATA" if c["metadata"] else "")
            lines.append(f"    {c['name']:<20} {what:<30} <- {c['from']}")
        for key in ("primary_key", "index", "unique_index"):
            if t[key]["columns"]:
                lines.append(f"  {key.replace('_', ' ')}: ({', '.join(t[key]['columns'])}) <- {t[key]['from']}")
        if t["watermark"]:
            w = t["watermark"]
            lines.append(f"  watermark: FOR {w['column']} AS {w['expression']} <- {w['from']}")
        if t.get("column_pruning"):
            lines.append(f"  columns pruned to what the task uses <- {t['column_pruning']}")
        lines.append("  options:")
        for k, v in t["options"].items():
            lines.append(f"    {k} = {v['value']!r} <- {v['from']}")
    return "\n".join(lines)


def definition_errors(session: Session, task_text: str, project: str) -> list[Diagnostic]:
    """The errors in the YAML a task may take a definition from: a meta table or function that did
    not load is "not found" in the task (or missing from what explain shows), and its own finding
    says why (issue 33).

    Those of the task's own project and of every project whose name the task's text holds (a
    cheap superset of the ones it names; `${var}` projects are rare and named in flinkx.yaml)."""
    projects = {p for p in session.workspace.projects if p == project or p in task_text}
    folders = [session.workspace.projects[p].directory.absolute() for p in projects]
    return [  # (a finding's path is shown relative to the current folder)
        d for d in session.load_diagnostics
        if d.is_error and not d.path.endswith(".sql") and any(Path(d.path).absolute().is_relative_to(f) for f in folders)
    ]


@click.command("explain")
@click.argument("args", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@mode_option
def command(args: tuple[str, ...], fmt: str, mode: str | None) -> None:
    """Show the effective definition of every table PROJECT/TASK uses: [WORKSPACE] PROJECT/TASK."""
    if len(args) > 2:
        raise UsageError("usage: flinkx explain [WORKSPACE] PROJECT/TASK")
    workspace, target = (Path(args[0]), args[1]) if len(args) == 2 else (Path("."), args[0])
    session = open_session(workspace, mode)
    project, _, name = target.partition("/")
    name = name.removesuffix(".sql")
    proj = session.workspace.projects.get(project)
    if proj is None or name not in proj.tasks:
        pool = [t.key for t in session.tasks()]
        hint = did_you_mean(target, pool)
        raise UsageError(f"unknown task '{target}'" + (f" ({hint})" if hint else ""))
    rt = session.resolved(proj.tasks[name])
    upstream = definition_errors(session, proj.tasks[name].text, project)
    if not rt.ok:
        raise WorkspaceErrors(upstream + rt.diagnostics)
    data = explain_data(rt)
    if fmt == "json":  # the findings are part of the document (README, "Machine-readable output")
        from flinkx_build.lint.formats import as_dict

        echo_result(json.dumps({**data, "findings": [as_dict(d) for d in upstream]}, indent=2))
    else:
        echo_result(render_text(data))
        echo_diagnostics(upstream, err=True)  # stdout is the document, as graph's
    if upstream:  # a table the task uses did not load: what is shown lacks it
        raise SystemExit(1)
