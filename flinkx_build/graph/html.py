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
    y: float  # top; a waypoint's middle is y + VIRTUAL_H / 2
    layer: int


VIRTUAL_H = 12  # the slot an edge takes where it passes a layer


def layout(graph: nx.DiGraph, nodes: set[str]) -> tuple[dict[str, Box], dict[tuple[str, str], list[Box]]]:
    """Left-to-right layers (Sugiyama-style, kept small).

    Layers are longest paths over the graph with its cycles condensed, with
    sources pulled next to their first reader; an edge that spans layers gets
    a waypoint in each layer it passes, so the crossing-reduction sweeps
    (barycenters, down and up) keep it clear of the nodes. Returns the boxes
    of the nodes and the waypoints of each long edge.
    """
    sub = graph.subgraph(nodes)
    dag = nx.condensation(sub)  # a cycle collapses into one layer
    comp_layer = {c: i for i, gen in enumerate(nx.topological_generations(dag)) for c in gen}
    layer = {n: comp_layer[dag.graph["mapping"][n]] for n in nodes}
    for n in nodes:
        if sub.in_degree(n) == 0 and sub.out_degree(n) > 0:
            layer[n] = min(layer[m] for m in sub.successors(n)) - 1
    aug = nx.DiGraph()
    aug.add_nodes_from(nodes)
    chains: dict[tuple[str, str], list[str]] = {}
    for u, v in sorted(sub.edges()):
        prev = u
        for index in range(layer[u] + 1, layer[v]):
            way = f"\0{u}\0{v}\0{index}"
            layer[way] = index
            aug.add_edge(prev, way)
            chains.setdefault((u, v), []).append(way)
            prev = way
        aug.add_edge(prev, v)
    layers: dict[int, list[str]] = {}
    for n in sorted(layer, key=lambda n: (sub.nodes[n].get("project", "") if n in sub else "~", n)):
        layers.setdefault(layer[n], []).append(n)
    order = {n: i for column in layers.values() for i, n in enumerate(column)}
    for sweep in range(8):  # alternate down and up barycenter passes
        downward = sweep % 2 == 0
        for index in sorted(layers, reverse=not downward):
            def bary(n: str) -> float:
                near = list(aug.predecessors(n) if downward else aug.successors(n))
                return sum(order[m] for m in near) / len(near) if near else order[n]

            layers[index] = sorted(layers[index], key=lambda n: (bary(n), order[n]))
            order.update({n: i for i, n in enumerate(layers[index])})

    def height(n: str) -> float:
        return (NODE_H + GAP_Y) if n in nodes else VIRTUAL_H

    tallest = max((sum(height(n) for n in column) for column in layers.values()), default=0)
    boxes: dict[str, Box] = {}
    for index, column in layers.items():
        y = MARGIN + 30 + (tallest - sum(height(n) for n in column)) / 2
        for n in column:
            boxes[n] = Box(MARGIN + index * (NODE_W + GAP_X), y, index)
            y += height(n)
    ways = {edge: [boxes.pop(w) for w in chain] for edge, chain in chains.items()}
    return boxes, ways


def _edge_path(a: Box, b: Box, ways: list[Box]) -> str:
    """Right side of `a`, through each waypoint's layer, to the left side of `b`."""
    x, y = a.x + NODE_W, a.y + NODE_H / 2
    if b.layer <= a.layer:  # closes a cycle: loop round below
        x2, y2 = b.x, b.y + NODE_H / 2
        return f"M{x},{y} C{x + 60},{y + 70} {x2 - 60},{y2 + 70} {x2},{y2}"
    parts = [f"M{x},{y}"]
    for w in ways:
        wy = w.y + VIRTUAL_H / 2
        mid = (x + w.x) / 2
        parts.append(f"C{mid},{y} {mid},{wy} {w.x},{wy} L{w.x + NODE_W},{wy}")
        x, y = w.x + NODE_W, wy
    x2, y2 = b.x, b.y + NODE_H / 2
    mid = (x + x2) / 2
    parts.append(f"C{mid},{y} {mid},{y2} {x2},{y2}")
    return " ".join(parts)


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
    boxes, ways = layout(graph, nodes)
    projects = sorted({graph.nodes[n].get("project", "") for n in nodes})
    colour = {p: PALETTE[i % len(PALETTE)] for i, p in enumerate(projects)}
    width = max((b.x for b in boxes.values()), default=0) + NODE_W + MARGIN
    height = max((b.y for b in boxes.values()), default=0) + NODE_H + MARGIN + 40
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" font-family="Helvetica, Arial, sans-serif" font-size="12">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#666"/></marker></defs>',
    ]
    for i, p in enumerate(projects):  # legend: project colours
        out.append(f'<rect x="{MARGIN + i * 130}" y="6" width="12" height="12" fill="{colour[p]}"/><text x="{MARGIN + i * 130 + 17}" y="16">{html.escape(p)}</text>')
    for u, v, data in sorted(graph.subgraph(nodes).edges(data=True)):
        path = _edge_path(boxes[u], boxes[v], ways.get((u, v), []))
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
        inset = {"table": 7, "function": 9}.get(kind, 1)  # keep the project stripe inside round and slanted ends
        out.append(f'<rect x="{box.x + inset}" y="{box.y + 8}" width="4" height="{NODE_H - 16}" fill="{colour[data.get("project", "")]}"/>')
        out.append(f'<text x="{box.x + inset + 11}" y="{box.y + NODE_H / 2 + 4}">{html.escape(_short(label(graph, node)))}</text></g>')
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
