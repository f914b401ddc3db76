"""A single self-contained HTML page: the graph laid out by layers as inline SVG.

No CDN and no layout library in the browser: the layout is computed here
(longest-path layers over the graph with its cycles condensed, one band per
project so each project is a visible box, then a few barycenter sweeps
inside the bands to cut crossings). The page carries the SVG, the node
details as JSON and a small inline script (graph/html_assets.py): search,
zoom, pan, fit, a side panel and lineage highlighting. A Content-Security-
Policy forbids every network request, so the page works offline and from a
CI artifact, whatever text a workspace puts in it.
"""
from __future__ import annotations

import html
import json
from dataclasses import dataclass
from typing import Any

import networkx as nx

from flinkx_build.graph.html_assets import CSP
from flinkx_build.graph.html_assets import SCRIPT
from flinkx_build.graph.html_assets import STYLE
from flinkx_build.graph.styles import CLASS_STYLE
from flinkx_build.graph.styles import KIND_STYLE
from flinkx_build.graph.styles import full_label
from flinkx_build.graph.styles import label

NODE_W, NODE_H, GAP_X, GAP_Y, MARGIN = 190, 34, 90, 16, 24
BAND_PAD, BAND_TITLE, BAND_GAP = 12, 22, 18  # project boxes: inner padding, title strip, space between
PALETTE = ["#4a7bb7", "#2e9e6b", "#d18616", "#8a55b5", "#cf222e", "#1b7c83", "#9a6700", "#bf3989"]
VIRTUAL_H = 12  # the slot an edge takes where it passes a layer


@dataclass(frozen=True)
class Box:
    x: float
    y: float  # top; a waypoint's middle is y + VIRTUAL_H / 2
    layer: int


@dataclass(frozen=True)
class Band:
    """A project's box: every node of the project lies inside it."""

    project: str
    x: float
    y: float
    width: float
    height: float


@dataclass
class Layout:
    boxes: dict[str, Box]
    ways: dict[tuple[str, str], list[Box]]
    bands: list[Band]


def _layers(sub: nx.DiGraph, nodes: set[str]) -> dict[str, int]:
    dag = nx.condensation(sub)  # a cycle collapses into one layer
    comp_layer = {c: i for i, gen in enumerate(nx.topological_generations(dag)) for c in gen}
    layer = {n: comp_layer[dag.graph["mapping"][n]] for n in nodes}
    for n in nodes:  # pull a source next to its first reader
        if sub.in_degree(n) == 0 and sub.out_degree(n) > 0:
            layer[n] = min(layer[m] for m in sub.successors(n)) - 1
    return layer


def layout(graph: nx.DiGraph, nodes: set[str]) -> Layout:
    """Left-to-right layers in one horizontal band per project (Sugiyama-style, kept small).

    An edge that spans layers gets a waypoint in each layer it passes (in
    its source's band), so the crossing-reduction sweeps keep it clear of
    the nodes. Bands are ordered by their mean layer: upstream projects on top.
    """
    sub = graph.subgraph(nodes)
    layer = _layers(sub, nodes)
    project = {n: graph.nodes[n].get("project", "") for n in nodes}
    aug = nx.DiGraph()
    aug.add_nodes_from(nodes)
    chains: dict[tuple[str, str], list[str]] = {}
    for u, v in sorted(sub.edges()):
        prev = u
        for index in range(layer[u] + 1, layer[v]):
            way = f"\0{u}\0{v}\0{index}"
            layer[way], project[way] = index, project[u]
            aug.add_edge(prev, way)
            chains.setdefault((u, v), []).append(way)
            prev = way
        aug.add_edge(prev, v)
    names = sorted({project[n] for n in nodes})
    mean = {p: sum(layer[n] for n in nodes if project[n] == p) / max(1, sum(1 for n in nodes if project[n] == p)) for p in names}
    band_of = {p: i for i, p in enumerate(sorted(names, key=lambda p: (mean[p], p)))}
    layers: dict[int, list[str]] = {}
    for n in sorted(layer, key=lambda n: (band_of[project[n]], n)):
        layers.setdefault(layer[n], []).append(n)
    order = {n: i for column in layers.values() for i, n in enumerate(column)}
    for sweep in range(8):  # alternate down and up barycenter passes, never leaving the band
        downward = sweep % 2 == 0
        for index in sorted(layers, reverse=not downward):
            def key(n: str) -> tuple[int, float, int]:
                near = list(aug.predecessors(n) if downward else aug.successors(n))
                return band_of[project[n]], (sum(order[m] for m in near) / len(near) if near else order[n]), order[n]

            layers[index] = sorted(layers[index], key=key)
            order.update({n: i for i, n in enumerate(layers[index])})
    return _place(nodes, layer, project, band_of, layers, chains)


def _place(nodes: set[str], layer: dict[str, int], project: dict[str, str], band_of: dict[str, int],
           layers: dict[int, list[str]], chains: dict[tuple[str, str], list[str]]) -> Layout:
    """Coordinates: each band as tall as its fullest layer, each layer's nodes centred in their band."""
    def height(n: str) -> float:
        return (NODE_H + GAP_Y) if n in nodes else VIRTUAL_H

    def column_height(index: int, band: str) -> float:
        return sum(height(n) for n in layers[index] if project[n] == band)

    bands_sorted = sorted(band_of, key=band_of.get)
    inner = {b: max(column_height(i, b) for i in layers) for b in bands_sorted}
    top: dict[str, float] = {}
    y = MARGIN
    for b in bands_sorted:
        top[b] = y
        y += BAND_TITLE + inner[b] + BAND_PAD + BAND_GAP
    boxes: dict[str, Box] = {}
    for index, column in layers.items():
        filled = {b: 0.0 for b in bands_sorted}
        for n in column:
            b = project[n]
            y = top[b] + BAND_TITLE + (inner[b] - column_height(index, b)) / 2 + filled[b]
            boxes[n] = Box(MARGIN + BAND_PAD + index * (NODE_W + GAP_X), y, index)
            filled[b] += height(n)
    bands = []
    for b in bands_sorted:
        members = [boxes[n] for n in nodes if project[n] == b]
        if not members:
            continue
        x0 = min(m.x for m in members) - BAND_PAD
        x1 = max(m.x for m in members) + NODE_W + BAND_PAD
        bands.append(Band(b, x0, top[b], x1 - x0, BAND_TITLE + inner[b] + BAND_PAD - GAP_Y / 2))
    ways = {edge: [boxes.pop(w) for w in chain] for edge, chain in chains.items()}
    return Layout(boxes, ways, bands)


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
        return f'<rect class="shape" x="{x}" y="{y}" width="{w}" height="{h}" rx="14" {common}/>'
    if kind == "function":
        d = 10
        points = f"{x + d},{y} {x + w - d},{y} {x + w},{y + h / 2} {x + w - d},{y + h} {x + d},{y + h} {x},{y + h / 2}"
        return f'<polygon class="shape" points="{points}" {common}/>'
    return f'<rect class="shape" x="{x}" y="{y}" width="{w}" height="{h}" rx="3" {common}/>'


def _short(text: str, limit: int = 27) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def to_svg(graph: nx.DiGraph, nodes: set[str], classes: dict[str, str] | None = None) -> str:
    classes = classes or {}
    placed = layout(graph, nodes)
    boxes = placed.boxes
    colour = {b.project: PALETTE[i % len(PALETTE)] for i, b in enumerate(placed.bands)}
    width = max((b.x + b.width for b in placed.bands), default=0) + MARGIN
    height = max((b.y + b.height for b in placed.bands), default=0) + MARGIN
    out = [
        f'<svg id="graph" viewBox="0 0 {width:.0f} {height:.0f}" data-width="{width:.0f}" data-height="{height:.0f}" font-family="Helvetica, Arial, sans-serif" font-size="12">',
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#666"/></marker></defs>',
        '<rect id="background" x="0" y="0" width="100%" height="100%" fill="#ffffff"/>',
        '<g id="viewport">',
    ]
    for band in placed.bands:  # one box per project, drawn first so nodes and edges sit on top
        c = colour[band.project]
        out.append(
            f'<g class="project" data-project="{html.escape(band.project)}">'
            f'<rect x="{band.x}" y="{band.y}" width="{band.width}" height="{band.height}" rx="8" fill="{c}" fill-opacity="0.07" stroke="{c}" stroke-width="1.5"/>'
            f'<text x="{band.x + 10}" y="{band.y + 16}" font-weight="bold" font-size="13" fill="{c}">{html.escape(band.project or "(no project)")}</text></g>'
        )
    for u, v, data in sorted(graph.subgraph(nodes).edges(data=True)):
        path = _edge_path(boxes[u], boxes[v], placed.ways.get((u, v), []))
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
        tip = f"{full_label(graph, node)}\n{data.get('source', '')}" + (f"\n{cls}" if cls else "")
        out.append(f'<g class="node" data-id="{html.escape(node)}" data-kind="{kind}"><title>{html.escape(tip)}</title>')
        out.append(_shape(kind, box, fill, stroke, "2" if cls else "1.2"))
        out.append(f'<text x="{box.x + 12}" y="{box.y + NODE_H / 2 + 4}">{html.escape(_short(label(graph, node)))}</text></g>')
    out.append("</g></svg>")
    return "\n".join(out)


def page_data(graph: nx.DiGraph, nodes: set[str], details: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """What the script needs: each node's names and details, and the edges both ways."""
    details = details or {}
    sub = graph.subgraph(nodes)
    info = {}
    for n in sorted(nodes):
        data = graph.nodes[n]
        info[n] = {
            "label": label(graph, n), "full": full_label(graph, n), "kind": data.get("kind", ""),
            "project": data.get("project", ""), "source": str(data.get("source", "")), **details.get(n, {}),
        }
    edges = [
        {"from": u, "to": v, "relation": d.get("relation", ""), "columns": list(d.get("columns", []))}
        for u, v, d in sorted(sub.edges(data=True))
    ]
    return {
        "nodes": info, "edges": edges,
        "up": {n: sorted(sub.predecessors(n)) for n in sorted(nodes)},
        "down": {n: sorted(sub.successors(n)) for n in sorted(nodes)},
    }


def _script_json(data: Any) -> str:
    """JSON that cannot end the <script> element it sits in."""
    return json.dumps(data, sort_keys=True).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def to_html(graph: nx.DiGraph, nodes: set[str], classes: dict[str, str] | None = None, title: str = "flinkx graph",
            cycles: list[list[str]] | None = None, details: dict[str, dict[str, Any]] | None = None) -> str:
    counts = {k: sum(1 for n in nodes if graph.nodes[n].get("kind") == k) for k in ("task", "table", "function")}
    projects = len({graph.nodes[n].get("project", "") for n in nodes})
    summary = f"{projects} projects, {counts['task']} tasks, {counts['table']} tables, {counts['function']} functions"
    warning = ""
    if cycles:
        items = "".join(f"<li>{html.escape(' -> '.join([*c, c[0]]))}</li>" for c in cycles)
        warning = f'<div class="warn"><b>Dependency cycles</b><ul>{items}</ul></div>'
    rows = "".join(
        f"<tr><td>{html.escape(full_label(graph, n))}</td><td>{html.escape(graph.nodes[n].get('kind', ''))}</td><td>{html.escape(str(graph.nodes[n].get('source', '')))}</td></tr>"
        for n in sorted(nodes)
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>{STYLE}</style></head>
<body>
<header><h1>{html.escape(title)}</h1><p class="summary">{summary}</p></header>
{warning}
<div class="toolbar">
<input id="search" type="search" placeholder="Search tables, tasks, functions" autocomplete="off" aria-label="Search by name">
<span id="matches"></span>
<button id="zoom-in" title="Zoom in">+</button><button id="zoom-out" title="Zoom out">&minus;</button>
<button id="fit-width" title="Fit the width of the graph">Fit width</button><button id="fit-all" title="Show the whole graph">Fit all</button>
<span class="hint">Wheel to zoom, drag to pan, click a node for its details.</span>
</div>
<main>
<div id="canvas">
{to_svg(graph, nodes, classes)}
</div>
<aside id="panel"><p class="empty">Click a node to see its columns, effective options and source file, and to highlight what it depends on and what depends on it.</p></aside>
</main>
<details><summary>All nodes</summary><table class="nodes">{rows}</table></details>
<script id="graph-data" type="application/json">{_script_json(page_data(graph, nodes, details))}</script>
<script>{SCRIPT}</script>
</body></html>
"""
