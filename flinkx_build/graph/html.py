"""A single self-contained HTML page: the graph laid out by layers as inline SVG.

No CDN and no layout library in the browser: the layout is computed here
(longest-path layers over the graph with its cycles condensed, then a few
barycenter sweeps to cut crossings), the page carries the SVG, and a small
inline script highlights a clicked node's ancestors and descendants. The
page works offline and from a CI artifact.
"""
from __future__ import annotations

import html
import json
from dataclasses import dataclass

import networkx as nx

from flinkx_build.graph.render import CLASS_STYLE
from flinkx_build.graph.render import KIND_STYLE
from flinkx_build.graph.render import full_label
from flinkx_build.graph.render import label

NODE_W, NODE_H, GAP_X, GAP_Y, MARGIN = 190, 34, 90, 16, 24
PALETTE = ["#4a7bb7", "#2e9e6b", "#d18616", "#8a55b5", "#cf222e", "#1b7c83", "#9a6700", "#bf3989"]


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    layer: int


def layout(graph: nx.DiGraph, nodes: set[str]) -> dict[str, Box]:
    """Left-to-right layers; every edge of the DAG points to a later layer."""
    sub = graph.subgraph(nodes)
    dag = nx.condensation(sub)  # cycles collapse into one layer
    members = dag.graph["mapping"]  # node -> component
    layer_of_comp = {c: i for i, gen in enumerate(nx.topological_generations(dag)) for c in gen}
    layers: dict[int, list[str]] = {}
    for node in sorted(nodes):
        layers.setdefault(layer_of_comp[members[node]], []).append(node)
    order = {n: i for nodes_ in layers.values() for i, n in enumerate(sorted(nodes_, key=lambda n: (sub.nodes[n].get("project", ""), n)))}
    for sweep in range(6):  # alternate down and up barycenter passes
        downward = sweep % 2 == 0
        for index in sorted(layers, reverse=not downward):
            def bary(n: str) -> float:
                near = list(sub.predecessors(n) if downward else sub.successors(n))
                return sum(order[m] for m in near) / len(near) if near else order[n]

            ranked = sorted(layers[index], key=lambda n: (bary(n), order[n]))
            for i, n in enumerate(ranked):
                order[n] = i
            layers[index] = ranked
    tallest = max((len(v) for v in layers.values()), default=0)
    boxes = {}
    for index, column in layers.items():
        offset = (tallest - len(column)) * (NODE_H + GAP_Y) / 2
        for i, node in enumerate(column):
            boxes[node] = Box(MARGIN + index * (NODE_W + GAP_X), MARGIN + 30 + offset + i * (NODE_H + GAP_Y), index)
    return boxes


def _shape(kind: str, box: Box, fill: str, stroke: str, width: str) -> str:
    x, y, w, h = box.x, box.y, NODE_W, NODE_H
    common = f'fill="{fill}" stroke="{stroke}" stroke-width="{width}"'
    if kind == "table":
        return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="14" {common}/>'
    if kind == "function":
        d = 10
        points = f"{x + d},{y} {x + w - d},{y} {x + w},{y + h / 2} {x + w - d},{y + h} {x + d},{y + h} {x},{y + h / 2}"
        return f'<polygon points="{points}" {common}/>'
    return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="3" {common}/>'


def _short(text: str, limit: int = 27) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def to_svg(graph: nx.DiGraph, nodes: set[str], classes: dict[str, str] | None = None) -> str:
    classes = classes or {}
    boxes = layout(graph, nodes)
    projects = sorted({graph.nodes[n].get("project", "") for n in nodes})
    colour = {p: PALETTE[i % len(PALETTE)] for i, p in enumerate(projects)}
    width = max((b.x for b in boxes.values()), default=0) + NODE_W + MARGIN
    height = max((b.y for b in boxes.values()), default=0) + NODE_H + MARGIN
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" font-family="Helvetica, Arial, sans-serif" font-size="12">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#666"/></marker></defs>',
    ]
    for i, p in enumerate(projects):  # legend: project colours
        out.append(f'<rect x="{MARGIN + i * 130}" y="6" width="12" height="12" fill="{colour[p]}"/><text x="{MARGIN + i * 130 + 17}" y="16">{html.escape(p)}</text>')
    for u, v, data in sorted(graph.subgraph(nodes).edges(data=True)):
        a, b = boxes[u], boxes[v]
        x1, y1, x2, y2 = a.x + NODE_W, a.y + NODE_H / 2, b.x, b.y + NODE_H / 2
        if b.layer <= a.layer:  # an edge inside a cycle: loop round below
            path = f"M{x1},{y1} C{x1 + 60},{y1 + 70} {x2 - 60},{y2 + 70} {x2},{y2}"
        else:
            mid = (x1 + x2) / 2
            path = f"M{x1},{y1} C{mid},{y1} {mid},{y2} {x2},{y2}"
        dash = ' stroke-dasharray="5,4"' if data.get("relation") in ("lookup", "calls") else ""
        tip = data.get("relation", "")
        if data.get("columns"):
            tip += ": " + ", ".join(data["columns"])
        out.append(f'<path class="edge" data-from="{html.escape(u)}" data-to="{html.escape(v)}" d="{path}" fill="none" stroke="#777" stroke-width="1.3"{dash} marker-end="url(#arrow)"><title>{html.escape(tip)}</title></path>')
    for node in sorted(nodes):
        data, box = graph.nodes[node], boxes[node]
        kind = data.get("kind", "task")
        cls = classes.get(node, "")
        fill, stroke = CLASS_STYLE.get(cls, KIND_STYLE.get(kind, KIND_STYLE["task"]))
        tip = f"{node}\n{data.get('source', '')}" + (f"\n{cls}" if cls else "")
        out.append(f'<g class="node" data-id="{html.escape(node)}"><title>{html.escape(tip)}</title>')
        out.append(_shape(kind, box, fill, stroke, "2" if cls else "1.2"))
        out.append(f'<rect x="{box.x + 1}" y="{box.y + 6}" width="4" height="{NODE_H - 12}" fill="{colour[data.get("project", "")]}"/>')
        out.append(f'<text x="{box.x + 12}" y="{box.y + NODE_H / 2 + 4}">{html.escape(_short(label(graph, node)))}</text></g>')
    out.append("</svg>")
    return "\n".join(out)


_SCRIPT = """
const up = DATA.up, down = DATA.down;
function walk(start, next) {
  const seen = new Set([start]), todo = [start];
  while (todo.length) { for (const m of next[todo.pop()] || []) if (!seen.has(m)) { seen.add(m); todo.push(m); } }
  return seen;
}
function show(id) {
  const keep = id ? new Set([...walk(id, up), ...walk(id, down)]) : null;
  document.querySelectorAll('.node').forEach(g => g.style.opacity = !keep || keep.has(g.dataset.id) ? 1 : 0.15);
  document.querySelectorAll('.edge').forEach(e => e.style.opacity = !keep || (keep.has(e.dataset.from) && keep.has(e.dataset.to)) ? 1 : 0.1);
  document.getElementById('picked').textContent = id ? id + ' (click the background to reset)' : 'Click a node to show what it depends on and what depends on it.';
}
document.querySelectorAll('.node').forEach(g => g.addEventListener('click', ev => { ev.stopPropagation(); show(g.dataset.id); }));
document.querySelector('svg').addEventListener('click', () => show(null));
"""


def to_html(graph: nx.DiGraph, nodes: set[str], classes: dict[str, str] | None = None, title: str = "flinkx graph", cycles: list[list[str]] | None = None) -> str:
    sub = graph.subgraph(nodes)
    data = {
        "up": {n: sorted(sub.predecessors(n)) for n in sorted(nodes)},
        "down": {n: sorted(sub.successors(n)) for n in sorted(nodes)},
    }
    payload = json.dumps(data, sort_keys=True).replace("</", "<\\/")
    counts = {k: sum(1 for n in nodes if graph.nodes[n].get("kind") == k) for k in ("task", "table", "function")}
    summary = f"{counts['task']} tasks, {counts['table']} tables, {counts['function']} functions"
    warning = ""
    if cycles:
        items = "".join(f"<li>{html.escape(' -> '.join([*c, c[0]]))}</li>" for c in cycles)
        warning = f'<div class="warn"><b>Dependency cycles</b><ul>{items}</ul></div>'
    rows = "".join(
        f"<tr><td>{html.escape(full_label(graph, n))}</td><td>{html.escape(graph.nodes[n].get('kind', ''))}</td><td>{html.escape(str(graph.nodes[n].get('source', '')))}</td></tr>"
        for n in sorted(nodes)
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
body {{ font-family: Helvetica, Arial, sans-serif; margin: 16px; color: #1f2328; }}
.scroll {{ overflow: auto; border: 1px solid #d0d7de; border-radius: 6px; }}
.node {{ cursor: pointer; }}
.warn {{ background: #ffebe9; border: 1px solid #cf222e; padding: 4px 12px; border-radius: 6px; margin: 8px 0; }}
table {{ border-collapse: collapse; margin-top: 16px; font-size: 12px; }}
td {{ border-bottom: 1px solid #eee; padding: 2px 10px 2px 0; }}
</style></head>
<body>
<h2>{html.escape(title)}</h2>
<p>{summary}. <span id="picked">Click a node to show what it depends on and what depends on it.</span></p>
{warning}
<div class="scroll">
{to_svg(graph, nodes, classes)}
</div>
<details><summary>Nodes</summary><table>{rows}</table></details>
<script>
const DATA = {payload};
{_SCRIPT}
</script>
</body></html>
"""
