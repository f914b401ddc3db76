"""Render (part of) the workspace graph: Mermaid, Graphviz DOT, JSON, HTML.

Every renderer takes the graph, the nodes to show and optional CSS-like
classes (node -> class name, used by `flinkx impact` to colour breaking,
non-breaking and indirect tasks). Output is deterministic: nodes and edges
are sorted, so a rendered graph can be committed or diffed.
"""
from __future__ import annotations

import json
import re
from typing import Any

import networkx as nx

from flinkx_build.graph.styles import CLASS_STYLE
from flinkx_build.graph.styles import KIND_STYLE
from flinkx_build.graph.styles import label

def _by_project(graph: nx.DiGraph, nodes: set[str]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for node in sorted(nodes):
        groups.setdefault(graph.nodes[node].get("project", ""), []).append(node)
    return dict(sorted(groups.items()))


def _edges(graph: nx.DiGraph, nodes: set[str]) -> list[tuple[str, str, dict[str, Any]]]:
    return sorted((u, v, d) for u, v, d in graph.edges(data=True) if u in nodes and v in nodes)


def to_mermaid(graph: nx.DiGraph, nodes: set[str], classes: dict[str, str] | None = None) -> str:
    """A `flowchart LR` that GitHub renders in a ```mermaid block."""
    classes = classes or {}
    ids = {node: f"n{i}" for i, node in enumerate(sorted(nodes))}
    edges = _edges(graph, nodes)
    # Mermaid places a text label of an edge that crosses subgraphs far from the edge
    # (mermaid-js/mermaid#3882): a lookup's label is a small node on the edge instead,
    # inside the reading task's subgraph, so the layout keeps it on the path.
    lookups = {(u, v): f"l{i}" for i, (u, v) in enumerate((u, v) for u, v, d in edges if d.get("relation") == "lookup")}
    into = {v: [] for _, v in lookups}
    for (u, v), lid in lookups.items():
        into[v].append(lid)
    out = ["flowchart LR"]
    for i, (project, members) in enumerate(_by_project(graph, nodes).items()):
        out.append(f'  subgraph p{i}["{_mermaid_text(project or "(none)")}"]')
        out.append("    direction LR")
        for node in members:
            text = _mermaid_text(label(graph, node))
            shape = {"table": f'[("{text}")]', "function": f'{{{{"{text}"}}}}'}.get(graph.nodes[node].get("kind", ""), f'["{text}"]')
            out.append(f"    {ids[node]}{shape}")
            out.extend(f'    {lid}(["lookup"])' for lid in into.get(node, []))
        out.append("  end")
    for u, v, data in edges:
        if (u, v) in lookups:
            out.append(f"  {ids[u]} -.- {lookups[u, v]} -.-> {ids[v]}")
            continue
        arrow = "-.->" if data.get("relation") == "calls" else "-->"
        out.append(f"  {ids[u]} {arrow} {ids[v]}")
    for kind, (fill, stroke) in KIND_STYLE.items():
        out.append(f"  classDef {kind} fill:{fill},stroke:{stroke},color:#111")
    if lookups:
        out.append("  classDef lookupLabel fill:#ffffff,stroke:#d18616,stroke-dasharray:3 3,color:#9a6700,font-size:11px")
        out.append(f"  class {','.join(lookups.values())} lookupLabel")
    used = set(classes.values())
    for cls, (fill, stroke) in CLASS_STYLE.items():
        if cls in used:
            out.append(f"  classDef {cls} fill:{fill},stroke:{stroke},stroke-width:2px,color:#111")
    by_class: dict[str, list[str]] = {}
    for node in sorted(nodes):
        cls = classes.get(node) or graph.nodes[node].get("kind", "task")
        by_class.setdefault(cls, []).append(ids[node])
    for cls, members in sorted(by_class.items()):
        out.append(f"  class {','.join(members)} {cls}")
    return "\n".join(out) + "\n"


def _mermaid_text(text: str) -> str:
    return text.replace("&", "#amp;").replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")


def to_dot(graph: nx.DiGraph, nodes: set[str], classes: dict[str, str] | None = None) -> str:
    """Graphviz DOT: one cluster per project, cylinders for tables."""
    classes = classes or {}
    out = ["digraph flinkx {", "  rankdir=LR;", '  node [fontname="Helvetica", fontsize=10, style=filled];', '  edge [color="#555555"];']
    for project, members in _by_project(graph, nodes).items():
        cluster = "cluster_" + re.sub(r"\W", "_", project or "none")
        out.append(f"  subgraph {_dot(cluster)} {{")
        out.append(f'    label={_dot(project)}; style="rounded"; color="#999999";')
        for node in members:
            data = graph.nodes[node]
            kind = data.get("kind", "task")
            fill, stroke = CLASS_STYLE.get(classes.get(node, ""), KIND_STYLE.get(kind, KIND_STYLE["task"]))
            shape = {"table": "cylinder", "function": "hexagon"}.get(kind, "box")
            tooltip = f"{node}\n{data.get('source', '')}"
            out.append(f"    {_dot(node)} [label={_dot(label(graph, node))}, shape={shape}, fillcolor={_dot(fill)}, color={_dot(stroke)}, tooltip={_dot(tooltip)}];")
        out.append("  }")
    for u, v, data in _edges(graph, nodes):
        attrs = []
        if data.get("relation") in ("lookup", "calls"):
            attrs.append("style=dashed")
        if data.get("relation") == "lookup":
            attrs.append('label="lookup"')
        if data.get("columns"):
            attrs.append(f"tooltip={_dot(', '.join(data['columns']))}")
        out.append(f"  {_dot(u)} -> {_dot(v)}" + (f" [{', '.join(attrs)}]" if attrs else "") + ";")
    out.append("}")
    return "\n".join(out) + "\n"


def _dot(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def graph_data(graph: nx.DiGraph, nodes: set[str], cycles: list[list[str]] | None = None, classes: dict[str, str] | None = None) -> dict[str, Any]:
    """The selected graph as plain JSON-able data."""
    classes = classes or {}
    projects = graph.graph.get("projects", {})
    shown = sorted({graph.nodes[n].get("project", "") for n in nodes})
    node_list = []
    for node in sorted(nodes):
        data = {k: v for k, v in graph.nodes[node].items()}
        entry = {"id": node, **data}
        if node in classes:
            entry["class"] = classes[node]
        node_list.append(entry)
    edges = []
    for u, v, data in _edges(graph, nodes):
        edges.append({"from": u, "to": v, **{k: val for k, val in data.items() if k not in ("line", "col")}})
    return {
        "projects": {p: projects.get(p, {}) for p in shown},
        "nodes": node_list,
        "edges": edges,
        "cycles": cycles or [],
    }


def to_json(graph: nx.DiGraph, nodes: set[str], cycles: list[list[str]] | None = None, classes: dict[str, str] | None = None) -> str:
    return json.dumps(graph_data(graph, nodes, cycles, classes), indent=2, sort_keys=True) + "\n"


def render(fmt: str, graph: nx.DiGraph, nodes: set[str], cycles: list[list[str]] | None = None, classes: dict[str, str] | None = None,
           title: str = "flinkx graph", details: dict[str, dict[str, Any]] | None = None) -> str:
    if fmt == "mermaid":
        return to_mermaid(graph, nodes, classes)
    if fmt == "dot":
        return to_dot(graph, nodes, classes)
    if fmt == "json":
        return to_json(graph, nodes, cycles, classes)
    raise ValueError(f"unknown format {fmt}")
