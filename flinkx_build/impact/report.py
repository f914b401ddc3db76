"""`flinkx impact` output: text for a terminal, Markdown for a PR comment, JSON, SARIF.

Paths are relative to the repository root, as a pull request shows them.
Output other than text's timing line is deterministic, so a CI job can
update its PR comment only when the report changes.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

import networkx as nx

from flinkx_build import __version__
from flinkx_build.errors import CODES
from flinkx_build.errors import Diagnostic
from flinkx_build.graph.docs_links import page_url
from flinkx_build.impact.compare import Impact
from flinkx_build.impact.compare import ImpactResult
from flinkx_build.impact.compare import short_id
from flinkx_build.impact.planner_check import disagreements
from flinkx_build.graph.render import to_mermaid
from flinkx_build.lint.formats import help_url
from flinkx_build.markdown_text import md_code
from flinkx_build.markdown_text import md_fence
from flinkx_build.markdown_text import md_text
from flinkx_build.markdown_text import md_url


@dataclass
class ReportContext:
    base: str  # revision label
    head: str  # revision label or "working tree"
    repo: Path
    workspace: str  # the workspace folder relative to the repository root ('' = the root)
    fail_on: str
    tripped: bool
    elapsed: float = 0.0
    verdicts: dict[str, Any] = field(default_factory=dict)  # task node -> deploy.compat.Verdict (--state-compat)
    flink: dict[str, list[str]] = field(default_factory=dict)  # task node -> Flink's messages at the head (--validate)
    docs_url: str = ""  # flinkx.yaml `docs: {site_url}`: each task links to its page of the published site

    def path(self, source: str) -> str:
        """A workspace-relative source as a repository-relative path."""
        if not source:
            return ""
        if " -> " in source:
            return " -> ".join(self.path(s) for s in source.split(" -> "))
        return f"{self.workspace}/{source}" if self.workspace else source

    def diag_path(self, diag: Diagnostic) -> str:
        path = Path(diag.path)
        try:  # the folder resolved, not the file: a finding may be about a link (FX171: one that loops)
            return (path.parent.resolve() / path.name).relative_to(self.repo).as_posix()
        except (ValueError, OSError, RuntimeError):
            return diag.path


def _anchor(result: ImpactResult, ctx: ReportContext, imp: Impact) -> str:
    """`path#Lline`: the task file, at the line Flink will reject when it is breaking."""
    path = ctx.path(imp.source)
    first = next((d for d in result.new_errors if ctx.diag_path(d) == path), None)
    return f"{path}#L{first.line}" if first else path


def _flink_says(ctx: ReportContext, imp: Impact) -> str:
    messages = ctx.flink.get(imp.node, [])
    return f"rejects it: {messages[0]}" if messages else "accepts it"


def _label(imp: Impact) -> str:
    """breaking | changes-data | indirect | non-breaking, as the report counts them."""
    if imp.klass != "non-breaking":
        return imp.klass
    return "indirect" if imp.relation == "indirect" else "non-breaking"


def _cause_projects(result: ImpactResult, imp: Impact) -> list[str]:
    return sorted({result.graph.nodes[c].get("project", "") for c in imp.causes if c in result.graph} - {imp.project})


def project_summary(result: ImpactResult) -> dict[str, dict[str, Any]]:
    rows: dict[str, dict[str, Any]] = {}

    def row(project: str) -> dict[str, Any]:
        return rows.setdefault(project, {"changed": 0, "breaking": 0, "changes-data": 0, "non-breaking": 0, "indirect": 0, "impacted_from": set()})

    for change in result.changes:
        if change.change != "moved":
            row(change.project)["changed"] += 1
    for imp in result.impacts:
        r = row(imp.project)
        r[_label(imp)] += 1
        r["impacted_from"].update(_cause_projects(result, imp))
    return {p: {**r, "impacted_from": sorted(r["impacted_from"])} for p, r in sorted(rows.items())}


def headline(result: ImpactResult) -> str:
    moved = sum(1 for c in result.changes if c.change == "moved")
    if len(result.changes) == moved and not result.impacts and not result.new_errors:
        return "no semantic changes: nothing is impacted" + (f" ({moved} file{'s' * (moved != 1)} moved)" if moved else "")
    counts = {k: sum(1 for i in result.impacts if _label(i) == k) for k in ("breaking", "changes-data", "non-breaking", "indirect")}
    projects = len({i.project for i in result.impacts})
    cross = sum(1 for i in result.impacts if i.cross_project)
    changed = sum(1 for c in result.changes if c.change != "moved")
    return (
        f"{changed} changed node{'s' * (changed != 1)}; {len(result.impacts)} impacted task{'s' * (len(result.impacts) != 1)} "
        f"in {projects} project{'s' * (projects != 1)}: {counts['breaking']} breaking, {counts['changes-data']} changes-data, {counts['non-breaking']} non-breaking, "
        f"{counts['indirect']} indirect; {cross} cross-project"
    )


def to_text(result: ImpactResult, ctx: ReportContext) -> str:
    where = f", workspace {ctx.workspace}" if ctx.workspace else ""
    out = [f"flinkx impact: base {ctx.base} -> head {ctx.head}{where}", headline(result)]
    if result.changes:
        out += ["", "Changed:"]
        for c in result.changes:
            out.append(f"  {c.change:<9} {c.node}  {ctx.path(c.source)}".rstrip())
            out += [f"      {d}" for d in c.details]
    if result.impacts:
        out += ["", "Impacted tasks:"]
        for imp in result.impacts:
            cross = f", cross-project from {', '.join(_cause_projects(result, imp))}" if imp.cross_project else ""
            out.append(f"  {'BREAKING' if imp.breaking else imp.klass:<13} {imp.relation:<9} {imp.node}  ({imp.project}{cross})")
            out += [f"      {r}" for r in imp.reasons]
            out += [f"      via {' -> '.join(short_id(n) for n in path)}" for path in lineage_paths(result, imp) if len(path) > 2]
            if imp.node in ctx.verdicts:
                out.append(f"      state: {ctx.verdicts[imp.node].summary}")
            if imp.node in ctx.flink:
                out.append(f"      flink: {_flink_says(ctx, imp)}")
        out += ["", "Projects:"]
        for project, r in project_summary(result).items():
            src = f"; impacted from {', '.join(r['impacted_from'])}" if r["impacted_from"] else ""
            out.append(f"  {project}: {r['changed']} changed, {r['breaking']} breaking, {r['changes-data']} changes-data, {r['non-breaking']} non-breaking, {r['indirect']} indirect{src}")
    if result.new_errors:
        out += ["", "New errors in the head:"] + [f"  {d.format()}" for d in result.new_errors]
    if ctx.flink:
        differ = disagreements(result.impacts, ctx.flink)
        out += ["", f"Flink (--validate): {len(ctx.flink)} impacted task(s) planned; " + ("the prediction agrees" if not differ else f"{len(differ)} differ:")]
        out += [f"  {line}" for line in differ]
    gate = "tripped (exit 1)" if ctx.tripped else "passed"
    out += ["", f"gate --fail-on {ctx.fail_on}: {gate} ({ctx.elapsed:.1f} s)"]
    return "\n".join(out) + "\n"


def _md(text: str) -> str:
    """User text in the Markdown report: escaped for Markdown and HTML (`markdown_text`)."""
    return md_text(text)


def lineage_paths(result: ImpactResult, imp: Impact, limit: int = 3) -> list[list[str]]:
    """How each change reaches what the task writes: node ids from a changed node through
    tasks and tables to each table the task writes (to the task itself when it writes none)."""
    graph = result.graph
    ends = sorted(n for n in graph.successors(imp.node) if graph.edges[imp.node, n].get("relation") == "writes") \
        if imp.node in graph else []
    paths = []
    for end in ends or [imp.node]:
        for cause in sorted(imp.causes | ({imp.node} if imp.relation == "changed" else set())):
            if cause in graph and end in graph and nx.has_path(graph, cause, end):
                paths.append(nx.shortest_path(graph, cause, end))
                break
    return paths[:limit]


def _path_text(path: list[str]) -> str:
    return " → ".join(md_code(short_id(n)) for n in path)


def impacted_nodes(result: ImpactResult) -> tuple[set[str], dict[str, str]]:
    """The impacted subgraph (changed nodes, impacted tasks, tables between them) and its classes."""
    graph = result.graph
    classes: dict[str, str] = {}
    for c in result.changes:
        if c.node in graph and c.change != "moved":
            classes[c.node] = "removed" if c.change == "removed" else "changed"
    for imp in result.impacts:
        cls = {"breaking": "breaking", "changes-data": "changesdata"}.get(imp.klass) or ("indirect" if imp.relation == "indirect" else "nonbreaking")
        if imp.relation != "changed" or imp.breaking:
            classes[imp.node] = cls
    nodes = set(classes)
    for node in graph:
        if graph.nodes[node].get("kind") == "table" and node not in nodes:
            if set(graph.predecessors(node)) & nodes and set(graph.successors(node)) & nodes:
                nodes.add(node)
    return nodes, classes


def to_markdown(result: ImpactResult, ctx: ReportContext) -> str:
    where = f" · workspace {md_code(ctx.workspace)}" if ctx.workspace else ""
    out = ["## flinkx impact", "", f"base {md_code(ctx.base)} → head {md_code(ctx.head)}{where}", ""]
    breaking = len(result.breaking)
    icon = ":x:" if ctx.tripped else (":warning:" if result.impacts else ":white_check_mark:")
    out += [f"{icon} **{headline(result)}** (gate {md_code('--fail-on ' + ctx.fail_on)}: {'failed' if ctx.tripped else 'passed'})", ""]
    if not result.changes and not result.impacts and not result.new_errors:
        return "\n".join(out)
    if result.impacts:
        out += ["| Project | Changed nodes | Breaking | Changes data | Non-breaking | Indirect | Impacted from |", "|---|---:|---:|---:|---:|---:|---|"]
        for project, r in project_summary(result).items():
            out.append(f"| {_md(project)} | {r['changed']} | {r['breaking']} | {r['changes-data']} | {r['non-breaking']} | {r['indirect']} | {_md(', '.join(r['impacted_from']))} |")
        out += ["", f"### Impacted tasks ({len(result.impacts)}, {breaking} breaking)"]
        for project in sorted({imp.project for imp in result.impacts}):  # impacts come breaking first
            out += ["", f"#### {_md(project)}", "", "| Task | Impact | Why | Lineage from the change |", "|---|---|---|---|"]
            for imp in (i for i in result.impacts if i.project == project):
                mark = ":x: **breaking**" if imp.breaking else (":warning: changes data" if imp.klass == "changes-data" else "non-breaking")
                scope = f"{imp.relation}" + (f", cross-project from {', '.join(_cause_projects(result, imp))}" if imp.cross_project else "")
                why = imp.reasons + ([f"state: {ctx.verdicts[imp.node].summary}"] if imp.node in ctx.verdicts else [])
                why += [f"Flink: {_flink_says(ctx, imp)}"] if imp.node in ctx.flink else []
                lineage = "<br>".join(_path_text(p) for p in lineage_paths(result, imp))
                page = f" ([docs]({md_url(page_url(ctx.docs_url, imp.node))}))" if ctx.docs_url else ""
                out.append(f"| [{md_code(short_id(imp.node))}]({md_url(_anchor(result, ctx, imp))}){page} | {mark} ({_md(scope)}) | {_md('; '.join(why))} | {lineage} |")
    if result.changes:
        out += ["", f"### Changed nodes ({len(result.changes)})", "", "| Node | Change | Source | Details |", "|---|---|---|---|"]
        for c in result.changes:
            out.append(f"| {md_code(c.node)} | {_md(c.change)} | {md_code(ctx.path(c.source))} | {_md('; '.join(c.details))} |")
    if result.new_errors:
        errors = [f"{ctx.diag_path(d)}:{d.line}:{d.col}: {d.code} {d.message}" for d in result.new_errors]
        fence = md_fence(errors)  # a message cannot close the block and write Markdown after it
        out += ["", "### New errors in the head", "", fence, *errors, fence]
    nodes, classes = impacted_nodes(result)
    if nodes:
        out += ["", "<details open><summary>Impacted subgraph</summary>", "", "```mermaid", to_mermaid(result.graph, nodes, classes).rstrip(), "```", "", "</details>"]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).rstrip("\n") + "\n"


def to_data(result: ImpactResult, ctx: ReportContext) -> dict[str, Any]:
    return {
        "base": ctx.base, "head": ctx.head, "workspace": ctx.workspace,
        "summary": headline(result),
        "gate": {"fail_on": ctx.fail_on, "tripped": ctx.tripped},
        "changes": [
            {"node": c.node, "kind": c.kind, "project": c.project, "change": c.change, "source": ctx.path(c.source), "details": c.details}
            for c in result.changes
        ],
        "impacts": [
            {
                "node": i.node, "project": i.project, "source": ctx.path(i.source), "relation": i.relation,
                "classification": i.klass, "cross_project": i.cross_project,
                "causes": sorted(i.causes), "reasons": i.reasons, "lineage": lineage_paths(result, i),
                **({"state_compatibility": ctx.verdicts[i.node].to_data()} if i.node in ctx.verdicts else {}),
                **({"flink": {"rejects": bool(ctx.flink[i.node]), "messages": ctx.flink[i.node]}} if i.node in ctx.flink else {}),
            }
            for i in result.impacts
        ],
        "projects": project_summary(result),
        "new_errors": [d.format() for d in result.new_errors],
        **({"flink_disagreements": disagreements(result.impacts, ctx.flink)} if ctx.flink else {}),
    }


_RULES = {
    "impact-breaking": ("error", "Flink will reject this task at the head: the semantic checks find an error a change caused."),
    "impact-changes-data": ("warning", "This task still compiles, but what it reads or writes changed (a retyped or renamed column, a key)."),
    "impact-direct": ("warning", "This task uses a changed node, or is itself changed; the change is compatible."),
    "impact-indirect": ("note", "This task is downstream of a changed task."),
}


def to_sarif(result: ImpactResult, ctx: ReportContext) -> dict[str, Any]:
    results = []
    for imp in result.impacts:
        rule = "impact-breaking" if imp.breaking else ("impact-changes-data" if imp.klass == "changes-data" else ("impact-indirect" if imp.relation == "indirect" else "impact-direct"))
        cross = " (cross-project)" if imp.cross_project else ""
        uri = ctx.path(imp.source)
        # at the line that breaks: the first new finding in the task, else the file
        first = next((d for d in result.new_errors if ctx.diag_path(d) == uri), None)
        results.append({
            "ruleId": rule, "level": _RULES[rule][0],
            "message": {"text": f"{imp.node} is impacted{cross}: {'; '.join(imp.reasons)}"},
            "locations": [_location(uri, first.line if first else 1, first.col if first else 1)],
        })
    for diag in result.new_errors:
        results.append({
            "ruleId": diag.code, "level": "error", "message": {"text": diag.message},
            "locations": [_location(ctx.diag_path(diag), diag.line, diag.col)],
        })
    impact_doc = help_url("impact").split("#")[0].replace("error-codes.md", "graph-and-impact.md") + "#flinkx-impact"
    rules = [{"id": rid, "shortDescription": {"text": text}, "defaultConfiguration": {"level": level}, "helpUri": impact_doc}
             for rid, (level, text) in _RULES.items()]
    rules += [{"id": code, "shortDescription": {"text": CODES.get(code, ("", code))[1] or code}, "helpUri": help_url(code)}
              for code in sorted({d.code for d in result.new_errors})]
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "flinkx", "version": __version__, "rules": rules}}, "results": results}],
    }


def _location(uri: str, line: int, col: int) -> dict[str, Any]:
    return {"physicalLocation": {"artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"}, "region": {"startLine": line, "startColumn": col}}}


def render_report(fmt: str, result: ImpactResult, ctx: ReportContext) -> str:
    if fmt == "text":
        return to_text(result, ctx)
    if fmt == "markdown":
        return to_markdown(result, ctx)
    if fmt == "json":
        return json.dumps(to_data(result, ctx), indent=2, sort_keys=True) + "\n"
    if fmt == "sarif":
        return json.dumps(to_sarif(result, ctx), indent=2) + "\n"
    raise ValueError(f"unknown format {fmt}")
