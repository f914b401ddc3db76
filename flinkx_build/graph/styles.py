"""How a graph node looks in every format: the colours of each kind and impact class, and its labels.

Shared by the text renderers (`render.py`) and the HTML page (`html.py`), which render.py loads only
when HTML is asked for.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

KIND_STYLE = {  # kind -> (fill, stroke)
    "table": ("#e8f1fb", "#4a7bb7"),
    "task": ("#ffffff", "#444444"),
    "function": ("#f4ecfb", "#8a55b5"),
}
# impact classes, shared by all formats
CLASS_STYLE = {  # class -> (fill, stroke)
    "changed": ("#fff4c2", "#b08800"),
    "breaking": ("#ffd7d5", "#cf222e"),
    "nonbreaking": ("#ffe9cc", "#d18616"),
    "changesdata": ("#fff4c2", "#b08800"),
    "indirect": ("#eeeeee", "#6e7781"),
    "removed": ("#f6f8fa", "#8c959f"),
}


def label(graph: nx.DiGraph, node: str) -> str:
    """What a reader calls the node inside its project box."""
    data = graph.nodes[node]
    name = data.get("name") or node
    if data.get("kind") == "table" and data.get("table_kind", "stream") != "stream":
        return f"{name}@{data['table_kind']}"
    if data.get("kind") == "function":
        return f"{name}()"
    return name


def full_label(graph: nx.DiGraph, node: str) -> str:
    """The short form `flinkx graph --select` accepts: proj.table, proj/task, proj:fn."""
    data = graph.nodes[node]
    sep = {"table": ".", "task": "/", "function": ":"}.get(data.get("kind", ""), ".")
    return f"{data.get('project', '?')}{sep}{label(graph, node).removesuffix('()')}"
